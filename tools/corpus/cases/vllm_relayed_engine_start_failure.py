from corpuslib import noise as N, texts as T
from corpuslib.model_servers import SRC_RELAY, START_FAILED as BEAM, relayed, start_failed

STEP = 'RunInference/BeamML_RunInference'
FREE = ('ValueError: Free memory on device (13.80/22.03 GiB) on startup is less than desired GPU '
        'memory utilization (0.9, 19.83 GiB). Decrease GPU memory utilization or reduce GPU memory '
        'used by other processes.')
PARENT = ('RuntimeError: Engine core initialization failed. See root cause above. Failed core '
          'proc(s): {}')
VLLM = '/usr/local/lib/python3.11/site-packages/vllm'
SRC_VLLM = ('vllm-project/vllm#25837 (2025): the EngineCore lines, their `(EngineCore_DP0 pid=N) ERROR '
            'MM-DD HH:MM:SS [core.py:N]` prefix and the last four frames verbatim (site-packages '
            'path and the GiB figures of an L4 adapted); the frames above init_device composed from '
            'vllm/v1/engine/core.py', 'V')
SRC_PARENT = ('vllm-project/vllm#23176 (2025): the APIServer traceback tail and "RuntimeError: Engine '
              'core initialization failed. See root cause above. Failed core proc(s): {}" verbatim', 'V')


def engine_traceback():
    """The engine core's start-up failure, as vLLM's logger prints it (one line at a time)."""
    return [
        'Traceback (most recent call last):',
        '  File "%s/v1/engine/core.py", line 709, in run_engine_core' % VLLM,
        '    engine_core = EngineCoreProc(*args, **kwargs)',
        '  File "%s/v1/engine/core.py", line 505, in __init__' % VLLM,
        '    super().__init__(vllm_config, executor_class, log_stats,',
        '  File "%s/v1/engine/core.py", line 82, in __init__' % VLLM,
        '    self.model_executor = executor_class(vllm_config)',
        '  File "%s/executor/executor_base.py", line 54, in __init__' % VLLM,
        '    self._init_executor()',
        '  File "%s/executor/uniproc_executor.py", line 54, in _init_executor' % VLLM,
        '    self.collective_rpc("init_device")',
        '  File "%s/utils/__init__.py", line 3060, in run_method' % VLLM,
        '    return func(*args, **kwargs)',
        '  File "%s/worker/worker_base.py", line 611, in init_device' % VLLM,
        '    self.worker.init_device()  # type: ignore',
        '  File "%s/v1/worker/gpu_worker.py", line 180, in init_device' % VLLM,
        '    raise ValueError(',
        FREE,
    ]


def parent_traceback():
    return [
        'Traceback (most recent call last):',
        '  File "%s/entrypoints/openai/api_server.py", line 1920, in run_server' % VLLM,
        '    async with build_async_engine_client(args) as engine_client:',
        '  File "%s/v1/engine/utils.py", line 706, in launch_core_engines' % VLLM,
        '    wait_for_engine_startup(',
        '  File "%s/v1/engine/utils.py", line 759, in wait_for_engine_startup' % VLLM,
        '    raise RuntimeError("Engine core initialization failed. "',
        PARENT,
    ]


def build(c):
    c.describe('''
        Relayed output and a generic error over it (issue 39, "Relayed output"): a RunInference
        job with Beam's vLLM model handler on an L4 worker whose GPU another step's model already
        holds in part (the handler shares one server per worker, share_model_across_processes), so
        the server's engine core fails with "ValueError: Free memory on device (…) on startup is
        less than desired GPU memory utilization (0.9, …)". Beam re-logs every line of the server's output at INFO
        (vllm_inference.py, start_process): the engine's logged traceback, each line behind
        "(EngineCore_DP0 pid=N) ERROR MM-DD HH:MM:SS [core.py:718] ", the same traceback printed
        raw behind the pid prefix only, then the API server's "RuntimeError: Engine core
        initialization failed. See root cause above." (wording and shapes from vllm#25837 and
        #23176). Beam then raises "Exception: Failed to start vLLM server, polling process exited
        with code 1. …" in the worker log at ERROR, four attempts. The INFO lines whose own level is
        ERROR are errors, reassembled without their prefixes into one traceback (the logged and
        the raw copy of each of the four attempts: 8 entries): the ValueError is the most likely
        cause, and the generic RuntimeError and Beam's Exception name it as
        their cause. The healthy vLLM INFO chatter must stay quiet. Since issue 40 the rule
        llm-engine-gpu-memory-short knows the engine's error and leads the verdict.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               steps=['S01:ReadPrompts/Read+RunInference/BeamML_RunInference+WriteAnswers/Write'])
    j = c.job('answer-vllm-l4', '2025-11-26T18:10:02Z', region='us-central1',
              zone='us-central1-c', python='3.11', beam='2.64.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 30
    for attempt in range(4):
        first = attempt == 0
        relayed(j, t, "Starting service with ['/usr/local/bin/python', '-m', "
               "'vllm.entrypoints.openai.api_server', '--model', 'Qwen/Qwen2.5-7B-Instruct', "
               "'--port', '{{PORT}}']".replace('{{PORT}}', str(41000 + attempt)), SRC_RELAY)
        chatter = [
            '(APIServer pid=%d) INFO 11-26 18:1%d:05 [model.py:1752] Using max model len 32768' % (231 + attempt, attempt),
            '(EngineCore_DP0 pid=%d) INFO 11-26 18:1%d:11 [core.py:93] Initializing a V1 LLM engine (v0.11.0) '
            "with config: model='Qwen/Qwen2.5-7B-Instruct'" % (402 + attempt, attempt),
        ]
        for k, line in enumerate(chatter):
            relayed(j, t + 6 + k, line, SRC_VLLM)
        pid = 402 + attempt
        head = '(EngineCore_DP0 pid=%d) ERROR 11-26 18:1%d:40 [core.py:718] ' % (pid, attempt)
        at = t + 20.0
        relayed(j, at, head + 'EngineCore failed to start.', SRC_VLLM)
        block = []
        for k, line in enumerate(engine_traceback()):
            at += 0.002
            block.append(relayed(j, at, head + line, SRC_VLLM,
                                 mark='logged' if first and line == FREE else None, cite=line))
        for e in block[1:]:
            e.block_head = block[0]  # the claims below may be in any line of the relayed traceback
        at += 0.01
        raw = '(EngineCore_DP0 pid=%d) ' % pid
        relayed(j, at, raw + 'Process EngineCore_DP0:', SRC_VLLM)
        for line in engine_traceback():
            at += 0.002
            relayed(j, at, raw + line, SRC_VLLM, cite=line)
        at += 0.5
        for line in parent_traceback():
            at += 0.002
            relayed(j, at, '(APIServer pid=%d) ' % (231 + attempt) + line, SRC_PARENT, cite=line)
        start_failed(j, at + 8.0, attempt, STEP, mark='beam' if first else None, frames=[
            '  File "%s/apache_beam/ml/inference/base.py", line 1565, in _load_model' % T.sp('3.11'),
            '    model = self._model_handler.load_model()',
            '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 272, in load_model' % T.sp('3.11'),
            '    return _VLLMModelServer(self._model_name, self._vllm_server_kwargs)',
        ])
        t += 75.0
    N.fail_work_item_4(j, cf, t + 3.0, 'S01:ReadPrompts/Read+RunInference/BeamML_RunInference+WriteAnswers/Write',
                       [j.w[0]] * 4)
    c.output('export.json')
    # Since issue 40 a rule knows the engine core's error: llm-engine-gpu-memory-short reads it in
    # the relayed lines (INFO entries), and the generic errors above it fold under it.
    c.fire('llm-engine-gpu-memory-short', marks=['logged'],
           captures={'free': '13.80', 'total': '22.03', 'utilization': '0.9'})
    c.fire('model-server-start-failed', marks=['beam'], captures={'server': 'vLLM'}, caused_by='llm-engine-gpu-memory-short')
    c.fire('work-item-failed', marks=['wif'], caused_by='llm-engine-gpu-memory-short')
    c.fire('workflow-failed', marks=['wif'], caused_by='llm-engine-gpu-memory-short')
    c.not_fire('gpu-out-of-memory', 'worker-lost-contact')
