from corpuslib import noise as N

SRC_USER = ('a pipeline\'s own log lines: the helper module that empties CUDA_VISIBLE_DEVICES and the DoFn\'s '
            'device report (composed; the is_available() print is the dataflow-ml-starter GPU check\'s shape)', 'I')
SRC_SMI = ('nvidia-smi -L output ("GPU 0: Tesla T4 (UUID: GPU-…)", nvidia-smi\'s list format) from the image\'s '
           'entrypoint check, written to the container\'s stdout; the UUID composed', 'V-other')
SRC_PROBE = ('pytorch/pytorch c10/cuda/CUDAFunctions.cpp device_count_ensure_non_zero: "No CUDA GPUs are '
             'available" when cudaGetDeviceCount reports cudaErrorNoDevice (a driver, zero visible devices); the '
             'DoFn catches it and logs it as a warning (composed)', 'V-code')


def build(c):
    c.describe('''
        The GPU hidden by CUDA_VISIBLE_DEVICES (the hidden-GPU family), with PyTorch: a text-embedding job on
        T4 workers imports a language-detection helper that sets os.environ["CUDA_VISIBLE_DEVICES"] = "" to
        keep its fastText workers off the GPU, and logs that it did. Every CUDA user of the SDK process
        inherits the empty value: the DoFn's GPU probe catches "RuntimeError: No CUDA GPUs are available",
        logs it as a warning, and the SentenceTransformer runs on the CPU ("torch.cuda.is_available():
        False"). The driver is there: the image's entrypoint printed "GPU 0: Tesla T4 (UUID: GPU-…)" and the
        COS installer finished. Nothing fails; the job runs 2 h 50 min on the CPU and ends "succeeded".
        gpu-hidden-by-visible-devices leads (hides_failure keeps it an error on a succeeded job) and explains
        gpu-not-used; gpu-driver-missing, which "No CUDA GPUs are available" used to trigger, stays quiet
        (the hiding value and the nvidia-smi listing came first on the worker).''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], disk=80,
               image='us-west1-docker.pkg.dev/forum-safety/images/embed-st:2.7.0-cu121')
    j = c.job('forum-posts-embed-backfill', '2025-08-11T02:05:40Z', region='us-west1', zone='us-west1-b',
              python='3.11', beam='2.66.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    j.docker(ready - 5, w, 'GPU 0: Tesla T4 (UUID: GPU-8c1f52d4-3b7e-9a06-51e2-7f0d4c9b2a13)', src=SRC_SMI,
             mark='smi')
    t = ready + 12
    j.wlog(t, w, "langdetect_util: hiding GPUs from fastText workers (CUDA_VISIBLE_DEVICES='')", src=SRC_USER,
           module='/app/langdetect_util.py', line=19, mark='cvd')
    j.wlog(t + 9, w, 'GPU probe failed (RuntimeError: No CUDA GPUs are available); the encoder will run on cpu',
           sev='WARNING', src=SRC_PROBE, module='/app/embed.py', line=47, mark='probe')
    j.wlog(t + 9.2, w, 'torch.cuda.is_available(): False', src=SRC_USER, module='/app/embed.py', line=52,
           mark='avail')
    j.wlog(t + 11, w, 'Loaded sentence-transformers/all-mpnet-base-v2 on cpu', src=SRC_USER, module='/app/embed.py',
           line=55)
    end = t + 10200
    N.sdk_shutdown(j, w, end - 30)
    N.teardown(j, cf, end)
    c.output('export.json')
    c.fire('gpu-hidden-by-visible-devices', marks=['probe', 'avail'])
    c.fire('gpu-not-used', marks=['avail'], caused_by='gpu-hidden-by-visible-devices')
    c.not_fire('gpu-driver-missing', 'cuda-libraries-missing', 'torch-cpu-only-build', 'cuda-device-out-of-range')
