from corpuslib import noise as N, texts as T

STEP = 'ScoreTiles'
STEPS = ['S01:ReadTiles/Read+ScoreTiles+WriteScores/Write']
SP = T.sp('3.10')
SRC_DNN = ('openxla/xla xla/stream_executor/cuda/cuda_dnn.cc (jaxlib 0.4.2x, the external/xla path and glog '
           'format): "Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR" and "Memory usage: %u bytes '
           'free, %u bytes total." as jax-ml/jax#16078 and #17624 show them (a T4\'s 15.8 GB total; the free '
           'figure, pids and times adapted)', 'V-code')
SRC_XLA = ('jax-ml/jax: "jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization '
           'failed. Look at the errors above for more details." raised from jax.random.PRNGKey, and the '
           'SimplifiedTraceback note before it, as jax-ml/jax#22626 and #28752 quote them', 'V-code')


def build(c):
    c.describe('''
        JAX in several SDK processes on one GPU (issue 40, JAX): a tile-scoring DoFn imports JAX
        and jits its model in setup on an n1-standard-8 worker with one T4, without
        no_use_multiple_sdk_containers, so Dataflow starts eight SDK processes. The first preallocates
        75 % of the GPU and runs; every later one fails in cuDNN's start-up ("Could not create cudnn
        handle: CUDNN_STATUS_INTERNAL_ERROR", "Memory usage: 262144 bytes free, 15843721216 bytes
        total.", on stderr) and JAX raises "XlaRuntimeError: FAILED_PRECONDITION: DNN library
        initialization failed" behind its SimplifiedTraceback note. Four attempts, the job fails.
        gpu-memory-taken-at-start leads, its first fix one SDK process per GPU, the second JAX's
        XLA_PYTHON_CLIENT_PREALLOCATE; the note is advice, not the headline.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               steps=STEPS, sdk_procs=8)
    j = c.job('tile-scores-jax-t4', '2026-03-19T11:00:04Z', region='us-west1',
              zone='us-west1-b', python='3.10', beam='2.64.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 25
    for attempt in range(4):
        first = attempt == 0
        sdk = 'sdk-0-%d' % (1 + attempt)
        j.docker(t, j.w[0], '2026-03-19 11:0%d:%02d.%06d: E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] '
                 'Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR' % (3 + attempt, 10 + attempt, 412233),
                 sev='ERROR', src=SRC_DNN)
        j.docker(t + 0.001, j.w[0], '2026-03-19 11:0%d:%02d.%06d: E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:443] '
                 'Memory usage: 262144 bytes free, 15843721216 bytes total.' % (3 + attempt, 10 + attempt, 412291),
                 sev='ERROR', src=SRC_DNN, mark='mem' if first else None)
        tb = ('jax.errors.SimplifiedTraceback: For simplicity, JAX has removed its internal frames from the traceback '
              'of the following exception. Set JAX_TRACEBACK_FILTERING=off to include these.\n\n'
              'The above exception was the direct cause of the following exception:\n\n' +
              T.user_tb('3.10', [
                  '  File "%s/apache_beam/runners/common.py", line 1498, in process' % SP,
                  '    return self.do_fn_invoker.invoke_process(windowed_value)',
                  '  File "/app/score.py", line 37, in setup',
                  '    self._rng = jax.random.PRNGKey(0)',
              ], 'jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed. '
                 'Look at the errors above for more details.'))
        j.wlog(t + 0.3, j.w[0], T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR', src=SRC_XLA,
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (11 + attempt),
               step=STEP, sdk=sdk, mark='xla' if first else None)
        t += 40.0
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json')
    c.fire('gpu-memory-taken-at-start', marks=['mem'], captures={'free_bytes': '262144', 'total_bytes': '15843721216'})
    c.fire('work-item-failed', marks=['wif'], caused_by='gpu-memory-taken-at-start')
    c.fire('workflow-failed', marks=['wif'], caused_by='gpu-memory-taken-at-start')
    c.not_fire('gpu-not-used', 'cuda-libraries-missing')
