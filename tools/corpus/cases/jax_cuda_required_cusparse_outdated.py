from corpuslib import noise as N, texts as T

STEP = 'EmbedCells'
STEPS = ['S02:ReadCells/Read+EmbedCells+WriteEmbeddings/Write']
SP = T.sp('3.11')
SRC_WARN = ('jax-ml/jax jax/_src/xla_bridge.py _suggest_missing_backends and _check_cuda_versions (jaxlib '
            '0.4.26 on): "CUDA backend failed to initialize: Unable to use CUDA because of the following issues '
            'with CUDA components:\\nOutdated cuSPARSE installation found.\\nVersion JAX was built against: '
            '12200\\nMinimum supported: 12100\\nInstalled version: 12002\\nThe local installation version must '
            'be no lower than 12100. (Set TF_CPP_MIN_LOG_LEVEL=0 …)" as jax-ml/jax#18027 quotes it, next to '
            'a torch install; the logger prefix of Python logging to stderr', 'V-code')
SRC_RAISE = ('jax-ml/jax jax/_src/xla_bridge.py get_backend / _get_backend_uncached: "RuntimeError: Backend '
             '\'cuda\' failed to initialize: {err}. Available backends are [\'cpu\']" when the code asks for '
             'the platform (jax.devices("cuda")); the frames of xla_bridge adapted', 'V-code')

REASON = ('Unable to use CUDA because of the following issues with CUDA components:\n'
          'Outdated cuSPARSE installation found.\nVersion JAX was built against: 12200\n'
          'Minimum supported: 12100\nInstalled version: 12002\n'
          'The local installation version must be no lower than 12100.')


def build(c):
    c.describe('''
        JAX asked for the GPU explicitly and refused an old cuSPARSE (issue 40, JAX): a single-cell
        embedding job on an A100 worker installs torch 2.1 (which pins nvidia-cusparse-cu12 12.0)
        before jax[cuda12] 0.4.26. At the DoFn's setup JAX's CUDA plugin fails its version check
        ("Outdated cuSPARSE installation found. … Installed version: 12002 … no lower than 12100",
        the warning of the fallback, on stderr), and since the DoFn calls jax.devices("cuda") the
        fallback becomes "RuntimeError: Backend 'cuda' failed to initialize: … Available backends
        are ['cpu']" on each of four attempts, and the job fails. jax-cuda-libraries-outdated leads
        (cuSPARSE 12002, needs 12100) and explains the work-item failure and gpu-not-used, whose
        title would otherwise claim the work ran on the CPU.''')
    cf = N.cfg(machine='a2-highgpu-1g', gpu='nvidia-tesla-a100', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'], steps=STEPS,
               image='us-central1-docker.pkg.dev/cellatlas-prod/beam/scembed:2024.05')
    j = c.job('scembed-atlas-v7', '2024-05-06T08:14:40Z', region='us-central1',
              zone='us-central1-a', project='cellatlas-prod', python='3.11', beam='2.56.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 21
    for attempt in range(4):
        first = attempt == 0
        j.docker(t, w, 'WARNING:jax._src.xla_bridge:CUDA backend failed to initialize: ' + REASON +
                 ' (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)',
                 sev='ERROR', src=SRC_WARN, mark='old' if first else None)
        tb = T.augmented_tb('3.11', [
            '  File "/app/scembed/embed.py", line 58, in setup',
            '    self._device = jax.devices("cuda")[0]',
            '  File "%s/jax/_src/xla_bridge.py", line 1081, in devices' % SP,
            '    return get_backend(backend).devices()',
            '  File "%s/jax/_src/xla_bridge.py", line 1015, in _get_backend_uncached' % SP,
            '    raise RuntimeError(',
        ], "RuntimeError: Backend 'cuda' failed to initialize: " + REASON + " Available backends are ['cpu']",
            STEP)
        j.wlog(t + 0.4, w, T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR',
               src=SRC_RAISE, module='apache_beam/runners/worker/sdk_worker.py', line=303,
               thread='Thread-%d' % (14 + attempt), step=STEP, mark='raise' if first else None)
        t += 36.0
    N.fail_work_item_4(j, cf, t + 2.0, STEPS[0], [w] * 4)
    c.output('export.json')
    c.fire('jax-cuda-libraries-outdated', marks=['old', 'raise'],
           captures={'component': 'cuSPARSE', 'installed': '12002', 'minimum': '12100'})
    c.fire('gpu-not-used', marks=['old'], caused_by='jax-cuda-libraries-outdated')
    c.fire('work-item-failed', marks=['wif'], caused_by='jax-cuda-libraries-outdated')
    c.fire('workflow-failed', marks=['wif'], caused_by='jax-cuda-libraries-outdated')
    c.not_fire('cuda-libraries-missing', 'cudnn-version-mismatch', 'gpu-driver-missing')
    c.no_unexplained()
