from corpuslib import noise as N

FACTORY = ('Unable to register {0} factory: Attempting to register factory for plugin {0} when '
           'one has already been registered')


def _absl(j, t, letter, tid, where, text):
    """absl's prefix: letter, 0000 (no month/day before InitializeLog), 00:00:<unix>.<us>."""
    unix = j.start_ns / 1e9 + t
    return '%s0000 00:00:%.6f %7d %s] %s' % (letter, unix, tid, where, text)


def build(c):
    c.describe('''
        A green GPU run full of ERROR-severity chatter that green runs really have: TensorFlow's
        start-up on each T4 worker writes to stderr, so the docker log holds at ERROR "WARNING:
        All log messages before absl::InitializeLog() is called are written to STDERR", absl
        "E0000 ... cuda_dnn.cc:8579] Unable to register cuDNN factory: ..." and "E0000 ...
        cuda_blas.cc:1407] Unable to register cuBLAS factory: ..." lines, the timestamped "E
        external/local_xla/.../cuda_fft.cc:607] Unable to register cuFFT factory" form and a
        "W0000 ... computation_placer.cc:177] computation placer already registered" warning
        (real texts; "just warnings"), then the usual I-lines of a working GPU. pip, installing
        the requirements at SDK start-up, prints "ERROR: pip's dependency resolver does not
        currently take into account all the packages that are installed. ..." and a conflict
        line (real text; warnings, said its maintainer). Kubelet/system lines the Dataflow docs
        call benign, at ERROR. The job succeeds: no rule fires and no group may be reported at
        error level (the TF letters say E/W whatever the severity; the job did not fail).''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2,
               max_workers=2, experiments=['no_use_multiple_sdk_containers'],
               image='us-central1-docker.pkg.dev/acme-ml-prod/dataflow/tf-infer:2.16-gpu', disk=50)
    j = c.job('tf-embed-images-hourly', '2024-06-18T11:00:07Z', region='us-central1',
              zone='us-central1-b', python='3.11', beam='2.56.0', workers=2)
    ready = N.bring_up(j, cf, tf=True)
    for i, w in enumerate(j.w):
        t = ready - 60.0 + i * 1.3
        j.docker(t, w, "ERROR: pip's dependency resolver does not currently take into account all "
                 'the packages that are installed. This behaviour is the source of the following '
                 'dependency conflicts.', sev='ERROR', src='pip-resolver', mark='pip')
        j.docker(t + 0.001, w, 'tensorflow 2.16.1 requires ml-dtypes~=0.3.1, but you have '
                 'ml-dtypes 0.4.0 which is incompatible.', sev='ERROR', src='pip-resolver')
        t = ready + 8.0 + i * 0.7
        tid = 1187 + i * 31
        j.docker(t, w, 'WARNING: All log messages before absl::InitializeLog() is called are '
                 'written to STDERR', sev='ERROR', src='absl-tf-factory')
        j.docker(t + 0.004, w, _absl(j, t + 0.004, 'E', tid, 'cuda_dnn.cc:8579',
                 FACTORY.format('cuDNN')), sev='ERROR', src='absl-tf-factory',
                 mark='dnn' if i == 0 else None)
        j.docker(t + 0.0041, w, '%s: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:607] '
                 % N._tfts(j.start.strftime('%Y-%m-%dT%H:%M:%SZ'), t + 0.0041) +
                 FACTORY.format('cuFFT'), sev='ERROR', src='tf-fft-factory')
        j.docker(t + 0.0043, w, _absl(j, t + 0.0043, 'E', tid, 'cuda_blas.cc:1407',
                 FACTORY.format('cuBLAS')), sev='ERROR', src='absl-tf-factory')
        j.docker(t + 0.011, w, _absl(j, t + 0.011, 'W', tid, 'computation_placer.cc:177',
                 'computation placer already registered. Please check linkage and avoid linking '
                 'the same target more than once.'), sev='ERROR', src='absl-tf-factory')
        j.wlog(ready + 30 + i, w, 'Loaded model from gs://acme-ml-dataflow/models/resnet50/4',
               src='user-code', module='/opt/pipeline/embed.py:57', sdk='sdk-0-0')
    end = ready + 1420
    for w in j.w:
        N.sdk_shutdown(j, w, end - 40)
    N.teardown(j, cf, end)
    c.output('export.json')
    c.not_fire('gpu-driver-missing', 'gpu-not-used', 'cuda-libraries-missing',
               'multiple-processes-per-gpu', 'pip-install-failed', 'gpu-out-of-memory')
    c.no_unexplained()
