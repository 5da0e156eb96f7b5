from corpuslib import noise as N

STEP = 'PriceBook'
STEPS = ['S01:ReadPositions/Read+GroupByBook+PriceBook+WriteValuations/Write']
SP = '/usr/local/lib/python3.11/site-packages'
GOTCHA = ('To enable more dtypes, set the jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell '
          'environment variable. See https://github.com/jax-ml/jax#current-gotchas for more.')

SRC_X64 = ('jax-ml/jax jax/_src/dtypes.py check_and_canonicalize_user_dtype (0.4.34–0.7: "Explicitly requested dtype '
           '{} {} is not available, and will be truncated to dtype {}. To enable more dtypes, set the jax_enable_x64 '
           'configuration option or the JAX_ENABLE_X64 shell environment variable. See '
           'https://github.com/jax-ml/jax#current-gotchas for more.", warnings.warn), printed by the warnings module '
           'as "<file>:<line>: UserWarning: …" plus the source line, one docker entry per stderr line (apache/beam '
           'PR #33317); the pipeline\'s file, line and source composed', 'V-code')
SRC_INT64 = ('the same jax/_src/dtypes.py warning for int64 → int32 (keras-io examples print it from '
             'keras/src/backend/jax/core.py:76 "… int64 requested in asarray … truncated to dtype int32"): harmless for '
             'indices, a near miss; the pipeline\'s file and source composed', 'V-other')
SRC_PROBE = ('jax-ml/jax jax/_src/xla_bridge.py backends(): logger.info "Unable to initialize backend \'%s\': %s" for '
             'backends that fail quietly, as google-deepmind/alphafold3#172 shows both lines on a GPU machine '
             '("… \'rocm\': module \'jaxlib.xla_extension\' has no attribute \'GpuAllocatorConfig\'", "… \'tpu\': '
             'INTERNAL: Failed to open libtpu.so: libtpu.so: cannot open shared object file: No such file or '
             'directory"; maintainers in #656: safe to ignore on a GPU)', 'V-other')
SRC_PTXAS = ('openxla/xla xla/service/gpu/nvptx_compiler.cc warning "The NVIDIA driver\'s CUDA version is X which is older '
             'than the ptxas CUDA version (Y). Because the driver is older than the ptxas version, XLA is disabling '
             'parallel compilation, which may slow down compilation. You should update your NVIDIA driver or use the '
             'NVIDIA-provided CUDA forward compatibility packages." as public JAX logs print it (12.4 vs 12.5.40, 12.2 '
             'vs 12.4.131); versions and line number adapted', 'V-other')
SRC_TEAM = ('application log lines of the pipeline\'s own pricing DoFn (synthetic)', 'I')


def build(c):
    c.describe('''
        JAX's 64-bit mode off on the workers (the x64 family, JAX 0.4.35): a nightly valuation job prices
        interest-rate books with a JAX Monte Carlo and a Carr-Madan FFT pricer on two g2-standard-8 workers
        (one L4 each). The launcher's main() calls jax.config.update("jax_enable_x64", True), which stays in
        the launching process; each SDK process imports the pricing package in a fresh interpreter with
        64-bit mode off. At the first bundle JAX warns on stderr, once per call site and per worker,
        "…/bookpricer/paths.py:64: UserWarning: Explicitly requested dtype float64 requested in asarray is
        not available, and will be truncated to dtype float32 …" and "… complex128 requested in zeros … will
        be truncated to dtype complex64 …", each write split one line per docker entry, and computes in
        single precision; the job succeeds and writes valuations whose own log lines say dtype=float32.
        jax-float64-truncated fires (warning) on the float64 and complex128 lines. Red herrings: JAX's
        start-up probes of the ROCm and TPU backends at INFO ("Unable to initialize backend 'tpu': INTERNAL:
        Failed to open libtpu.so: libtpu.so: cannot open shared object file …"), which system-library-missing
        must not take for a missing system library; the same JAX warning for int64 → int32 from the book
        index module (harmless, not evidence); XLA's warning that the 535 driver is older than the bundled
        ptxas (parallel compilation off, slower compiles only); a Cloud Storage read retried once; the
        benign boot lines of every worker.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=2, max_workers=2,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS, disk=100,
               image='us-east4-docker.pkg.dev/halyard-markets/dataflow/book-pricer:0.4.35-cu12')
    j = c.job('ir-book-valuation-nightly', '2025-11-06T02:30:08Z', region='us-east4', zone='us-east4-c',
              project='halyard-markets', python='3.11', beam='2.61.0', workers=2)
    ready = N.bring_up(j, cf)

    last = ready
    for i, w in enumerate(j.w):
        first = i == 0
        t = ready + 14.0 + 5.2 * i
        j.wlog(t, w, "Unable to initialize backend 'rocm': module 'jaxlib.xla_extension' has no attribute "
               "'GpuAllocatorConfig'", src=SRC_PROBE, module='jax/_src/xla_bridge.py', line=906,
               thread='Thread-4', step=STEP)
        j.wlog(t + 0.02, w, "Unable to initialize backend 'tpu': INTERNAL: Failed to open libtpu.so: libtpu.so: "
               "cannot open shared object file: No such file or directory", src=SRC_PROBE,
               module='jax/_src/xla_bridge.py', line=906, thread='Thread-4', step=STEP,
               mark='tpu' if first else None)
        j.wlog(t + 0.4, w, 'JAX 0.4.35 devices: [CudaDevice(id=0)]; default backend gpu', src=SRC_TEAM,
               module='/app/bookpricer/dofn.py', line=41, thread='Thread-4', step=STEP)
        j.docker_lines(t + 1.1, w, [
            '%s/bookpricer/index.py:22: UserWarning: Explicitly requested dtype int64 requested in asarray is not '
            'available, and will be truncated to dtype int32. %s' % (SP, GOTCHA),
            '  trade_ix = jnp.asarray(book.trade_ids, dtype=jnp.int64)',
        ], src=SRC_INT64, mark='int64' if first else None)
        j.docker_lines(t + 1.3, w, [
            '%s/bookpricer/paths.py:64: UserWarning: Explicitly requested dtype float64 requested in asarray is not '
            'available, and will be truncated to dtype float32. %s' % (SP, GOTCHA),
            '  curve = jnp.asarray(market.zero_rates, dtype=jnp.float64)',
        ], src=SRC_X64, mark='f64' if first else 'f64-%d' % i,
            cite='…/bookpricer/paths.py:64: UserWarning: Explicitly requested dtype float64 requested in asarray is '
                 'not available, and will be truncated to dtype float32. …')
        j.docker(t + 9.6, w, '2025-11-06 02:%02d:%02d.%06d: W external/xla/xla/service/gpu/nvptx_compiler.cc:930] '
                 "The NVIDIA driver's CUDA version is 12.2 which is older than the ptxas CUDA version (12.6.85). "
                 'Because the driver is older than the ptxas version, XLA is disabling parallel compilation, which '
                 'may slow down compilation. You should update your NVIDIA driver or use the NVIDIA-provided CUDA '
                 'forward compatibility packages.' % (34 + i, 11 + 5 * i, 318204 + 977 * i),
                 sev='ERROR', src=SRC_PTXAS, mark='ptxas' if first else None)
        j.docker_lines(t + 31.0, w, [
            '%s/bookpricer/fft.py:118: UserWarning: Explicitly requested dtype complex128 requested in zeros is not '
            'available, and will be truncated to dtype complex64. %s' % (SP, GOTCHA),
            '  spectrum = jnp.zeros((n_strikes, n_grid), dtype=jnp.complex128)',
        ], src=SRC_X64, mark='c128' if first else 'c128-%d' % i,
            cite='…/bookpricer/fft.py:118: UserWarning: Explicitly requested dtype complex128 requested in zeros is '
                 'not available, and will be truncated to dtype complex64. …')
        if first:
            j.wlog(t + 55.0, w, 'GET gs://halyard-markets-marketdata/curves/2025-11-05/usd_sofr.parquet: 503 '
                   'Service Unavailable; retry 1/5 in 2.0 s', sev='WARNING', src=SRC_TEAM,
                   module='/app/bookpricer/marketdata.py', line=77, thread='Thread-4', step=STEP)
        for k in range(5):
            t += 610.0 + 23.0 * k + 11.0 * i
            j.wlog(t, w, 'book %s-%03d: 200000 paths x 240 steps in %.1f s; PV %.4e (dtype=float32)'
                   % ('USD' if i == 0 else 'EUR', 17 + k, 8.4 + 0.3 * k, 1.2843e7 + 3.1e5 * k + 7.7e5 * i),
                   src=SRC_TEAM, module='/app/bookpricer/dofn.py', line=88, thread='Thread-4', step=STEP)
        last = max(last, t)

    end = last + 180.0
    for w in j.w:
        N.sdk_shutdown(j, w, end - 40.0)
    N.teardown(j, cf, end, n=2)
    c.output('export.json')
    c.fire('jax-float64-truncated', marks=['f64', 'f64-1', 'c128', 'c128-1'])
    c.not_fire('system-library-missing', 'gpu-not-used', 'jax-ptx-compiler-missing', 'jax-cuda-libraries-outdated',
               'cuda-driver-too-old', 'jax-jaxlib-version-skew', 'tensor-dtype-mismatch')
    c.no_unexplained()
