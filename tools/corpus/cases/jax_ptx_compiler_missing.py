from corpuslib import noise as N, texts as T

STEP = 'EmbedProteins'
STEPS = ['S01:ReadSequences/Read+EmbedProteins+WriteEmbeddings/Write']
PTX = ("jax.errors.JaxRuntimeError: UNAVAILABLE: No PTX compilation provider is available. Neither "
       "ptxas/nvlink nor nvjtlink is available. As a fallback you can enable JIT compilation in the CUDA driver "
       "via the flag `--xla_gpu_unsafe_fallback_to_driver_on_ptxas_not_found`. Details: ")
SRC_PTX = ('openxla/xla xla/stream_executor/cuda/assemble_compilation_provider.cc (the UnavailableError when '
           'neither ptxas/nvlink nor nvJitLink is found), raised by jax as JaxRuntimeError', 'V-code')
SP = T.sp('3.11')


def build(c):
    c.describe('''
        JAX without the CUDA compiler tools (issue 40, JAX/XLA): the image installs jax[cuda12-local]
        on a CUDA runtime base, so jax.devices() lists the A100 but XLA finds no ptxas or nvlink, and
        the first jitted call in the DoFn at /app/embed.py:58 fails with "jax.errors.JaxRuntimeError:
        UNAVAILABLE: No PTX compilation provider is available. Neither ptxas/nvlink nor nvjtlink is
        available …"; four attempts fail the job. jax-ptx-compiler-missing fires.''')
    cf = N.cfg(machine='a2-highgpu-1g', gpu='nvidia-tesla-a100', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('protein-embeddings-jax', '2026-07-14T09:00:04Z', region='us-central1',
              zone='us-central1-c', python='3.11', beam='2.66.0', workers=1)
    ready = N.bring_up(j, cf)
    tb = T.user_tb('3.11', [
        '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
        '  File "/app/embed.py", line 58, in process',
        '    embeddings = self._embed(self._params, batch)',
        '  File "%s/jax/_src/pjit.py", line 1247, in _pjit_call_impl_python' % SP,
        '    compiled = self._compile(**kwargs)',
    ], PTX + " [while running '%s']" % STEP)
    t = ready + 50
    t = N.failed_attempts(j, t, j.w[0], tb, STEP, src=SRC_PTX, cite='No PTX compilation provider', gap=30.0,
                          mark='ptx')
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json')
    c.fire('jax-ptx-compiler-missing', marks=['ptx'])
    c.fire('work-item-failed', marks=['wif'], caused_by='jax-ptx-compiler-missing')
    c.fire('workflow-failed', marks=['wif'], caused_by='jax-ptx-compiler-missing')
    c.not_fire('jax-cuda-libraries-outdated', 'gpu-not-used', 'gpu-out-of-memory')
