from corpuslib import noise as N

SRC_JAX = ('jax-ml/jax jax/_src/xla_bridge.py backends() and _check_cuda_versions (0.4.26–0.5.x): '
           '"CUDA backend failed to initialize: {err}.(Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more '
           'info.)" with the cuDNN check\'s multi-line reason; conda-forge/jax-feedstock#149 quotes it '
           '(the versions as there: built against 8907, minimum 9100)', 'V-code')


def build(c):
    c.describe('''
        A silent CPU fallback that succeeded (issue 40, JAX and item 8): a JAX batch job on an L4
        worker whose image pairs jaxlib 0.4.30 (built for cuDNN 9) with cuDNN 8.9. At the first
        jax call, JAX's CUDA backend fails its version check and JAX carries on with the CPU:
        "CUDA backend failed to initialize: Unable to use CUDA because of the following issues with
        CUDA components: / Outdated cuDNN installation found. / … The local installation version
        must be no lower than 9100..(Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)", one
        stderr write that the docker log keeps as one ERROR entry. The job runs for 2 h 40 m on
        the CPU and ends "succeeded". jax-cuda-libraries-outdated names the refused cuDNN (8907,
        needs 9100) and explains gpu-not-used; since both hide a failure the verdict is FAILED ("the
        job reported success, but"). The driver is installed: gpu-driver-missing and
        cuda-libraries-missing stay quiet. The export is gzipped, as users keep them.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='europe-west4-docker.pkg.dev/geo-ml/images/jax-embed:0.4.30', disk=80)
    j = c.job('tile-embeddings-jax', '2025-09-14T01:00:07Z', region='europe-west4',
              zone='europe-west4-b', project='geo-ml', python='3.11', beam='2.66.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    j.docker(ready + 34, w, 'CUDA backend failed to initialize: Unable to use CUDA because of the following '
             'issues with CUDA components:\nOutdated cuDNN installation found.\nVersion JAX was built against: '
             '9100\nMinimum supported: 9100\nInstalled version: 8907\nThe local installation version must be no '
             'lower than 9100..(Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)',
             sev='ERROR', src=SRC_JAX, mark='cpu')
    end = ready + 9600
    N.sdk_shutdown(j, w, end - 30)
    N.teardown(j, cf, end)
    c.output('export.json.gz')
    c.fire('jax-cuda-libraries-outdated', marks=['cpu'],
           captures={'component': 'cuDNN', 'installed': '8907', 'minimum': '9100'})
    c.fire('gpu-not-used', marks=['cpu'], caused_by='jax-cuda-libraries-outdated')
    c.not_fire('gpu-driver-missing', 'cuda-libraries-missing', 'cuda-driver-too-old')
