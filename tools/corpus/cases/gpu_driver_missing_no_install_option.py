from corpuslib import noise as N


def build(c):
    c.describe('''
        The accelerator option omits install-nvidia-driver
        (worker_accelerator=type:nvidia-tesla-t4;count:1). The worker VMs boot with system and
        kubelet logs but no GPU driver install lines; TensorFlow in the SDK container then logs
        "Could not load dynamic library 'libcuda.so.1'", "failed call to cuInit:
        CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected" and "kernel driver does not
        appear to be running on this host (...): /proc/driver/nvidia/version does not exist"
        (real TensorFlow lines, seen outside Dataflow), and the job silently runs on CPU for 52
        minutes. libcuda.so.1 is the driver's library, so this is not cuda-libraries-missing.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=False, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/agri-yield-ml/field-seg:tf2.11-gpu', disk=60)
    j = c.job('field-boundary-seg', '2023-02-08T11:20:36Z', region='us-central1',
              zone='us-central1-b', project='agri-yield-ml', python='3.9', beam='2.44.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 14
    ts = lambda d: j.start.strftime('%Y-%m-%d') + ' 11:%s' % d
    j.docker(t, w, "%s: W tensorflow/compiler/xla/stream_executor/platform/default/dso_loader.cc:"
             "64] Could not load dynamic library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot "
             "open shared object file: No such file or directory" % ts('23:41.108342'),
             sev='ERROR', src='tf-dlopen', mark='libcuda')
    j.docker(t + 0.01, w, '%s: E tensorflow/compiler/xla/stream_executor/cuda/cuda_driver.cc:268] '
             'failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected'
             % ts('23:41.118530'), sev='ERROR', src='tf-cuinit', mark='cuinit')
    j.docker(t + 0.02, w, '%s: I tensorflow/compiler/xla/stream_executor/cuda/cuda_diagnostics.cc:'
             '156] kernel driver does not appear to be running on this host (%s): '
             '/proc/driver/nvidia/version does not exist' % (ts('23:41.118702'), w),
             sev='ERROR', src='tf-cuinit', mark='kdriver')
    end = ready + 3150
    N.sdk_shutdown(j, w, end - 20)
    N.teardown(j, cf, end)
    c.output('export.json')
    c.fire('gpu-driver-missing', marks=['cuinit'], caused_by='gpu-driver-not-requested')
    c.not_fire('cuda-libraries-missing', 'gpu-driver-in-image')
    c.fire('gpu-driver-not-requested', marks=[])  # the option alone tells
