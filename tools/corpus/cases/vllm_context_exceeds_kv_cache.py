from corpuslib import noise as N
from corpuslib.model_servers import SRC_RELAY, relayed, start_failed

STEP = 'RunInference/BeamML_RunInference'
VLLM = '/usr/local/lib/python3.11/site-packages/vllm'
KV = ("ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV "
      "cache is needed, which is larger than the available KV cache memory (3.41 GiB). Based on the "
      "available memory, the estimated maximum model length is 27920. Try increasing "
      "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.")
PARENT = ('RuntimeError: Engine core initialization failed. See root cause above. Failed core '
          'proc(s): {}')
SRC_KV = ('vllm-project/vllm vllm/v1/core/kv_cache_utils.py check_enough_kv_cache_memory (0.9.1–0.11, '
          'the "models\'s" wording with the estimate); vllm-project/vllm#25350 and '
          'vllm-project/tpu-inference#223 quote it in real logs (figures adapted to Llama 3.1 8B on an '
          'L4: 128 k context, 16 GiB of bf16 weights)', 'V-code')
SRC_CHATTER = ('vllm-project/vllm V1 start-up INFO lines ("Using max model len", "Model loading took", '
               '"Available KV cache memory", as in vllm-project/vllm#29566; figures adapted)', 'V')
SRC_PARENT = ('vllm-project/vllm#23176 (2025): "RuntimeError: Engine core initialization failed. See root '
              'cause above. Failed core proc(s): {}" verbatim', 'V')


def build(c):
    c.describe('''
        A model server whose context does not fit (issue 40, model servers): a batch RunInference job
        with Beam's vLLM model handler serving Llama 3.1 8B on one L4 per worker (g2-standard-4, so
        four SDK processes, each starting its own server). The model declares a 131,072-token
        context; beside 16 GiB of weights the engine has 3.41 GiB for its KV cache, and stops at
        start-up: "To serve at least one request with the models's max seq len (131072), (16.00 GiB
        KV cache is needed, which is larger than the available KV cache memory (3.41 GiB). Based on
        the available memory, the estimated maximum model length is 27920." Beam relays the
        server's lines at INFO; the API server's generic RuntimeError and Beam's "Failed to start
        vLLM server" follow; the work item fails four times. llm-context-exceeds-kv-cache fires
        with the length that fits, and the memory rule does not. The server's healthy INFO lines
        about memory ("Available KV cache memory", "GPU KV cache size") are near misses.''')
    cf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               steps=['S01:ReadPrompts/Read+RunInference/BeamML_RunInference+WriteAnswers/Write'])
    j = c.job('summarise-llama31-l4', '2025-12-02T07:00:05Z', region='us-central1',
              zone='us-central1-a', python='3.11', beam='2.64.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 30
    for attempt in range(4):
        sdk = 'sdk-0-%d' % attempt
        first = attempt == 0
        pid = 512 + attempt
        relayed(j, t, "Starting service with ['/usr/local/bin/python', '-m', "
                "'vllm.entrypoints.openai.api_server', '--model', 'meta-llama/Llama-3.1-8B-Instruct', "
                "'--port', '%d']" % (42000 + attempt), SRC_RELAY, sdk=sdk)
        chatter = [
            '(APIServer pid=%d) INFO 12-02 07:0%d:11 [model.py:1752] Using max model len 131072' % (300 + attempt, attempt + 3),
            '(EngineCore_DP0 pid=%d) INFO 12-02 07:0%d:52 [gpu_model_runner.py:2653] Model loading took 14.99 GiB '
            'and 38.412 seconds' % (pid, attempt + 3),
            '(EngineCore_DP0 pid=%d) INFO 12-02 07:0%d:58 [gpu_worker.py:298] Available KV cache memory: 3.41 GiB' % (pid, attempt + 3),
        ]
        for k, line in enumerate(chatter):
            relayed(j, t + 4 + 3 * k, line, SRC_CHATTER, sdk=sdk)
        head = '(EngineCore_DP0 pid=%d) ERROR 12-02 07:0%d:58 [core.py:718] ' % (pid, attempt + 3)
        at = t + 14.0
        relayed(j, at, head + 'EngineCore failed to start.', SRC_CHATTER, sdk=sdk)
        lines = [
            'Traceback (most recent call last):',
            '  File "%s/v1/engine/core.py", line 709, in run_engine_core' % VLLM,
            '    engine_core = EngineCoreProc(*args, **kwargs)',
            '  File "%s/v1/engine/core.py", line 94, in __init__' % VLLM,
            '    self._initialize_kv_caches(vllm_config)',
            '  File "%s/v1/engine/core.py", line 196, in _initialize_kv_caches' % VLLM,
            '    get_kv_cache_configs(vllm_config, kv_cache_specs, available_gpu_memory)',
            '  File "%s/v1/core/kv_cache_utils.py", line 1243, in get_kv_cache_configs' % VLLM,
            '    check_enough_kv_cache_memory(vllm_config, kv_cache_spec_one_worker, available_memory_one_worker)',
            '  File "%s/v1/core/kv_cache_utils.py", line 699, in check_enough_kv_cache_memory' % VLLM,
            '    raise ValueError(',
            KV,
        ]
        block = []
        for k, line in enumerate(lines):
            at += 0.002
            block.append(relayed(j, at, head + line, SRC_KV, sdk=sdk,
                                 mark='kv' if first and k == len(lines) - 1 else None, cite=line))
        for e in block[1:]:
            e.block_head = block[0]
        at += 0.5
        relayed(j, at, '(APIServer pid=%d) ' % (300 + attempt) + PARENT, SRC_PARENT, sdk=sdk)
        start_failed(j, at + 8.0, attempt, STEP, sdk=sdk, mark='beam' if first else None)
        t += 80.0
    N.fail_work_item_4(j, cf, t + 3.0, 'S01:ReadPrompts/Read+RunInference/BeamML_RunInference+WriteAnswers/Write',
                       [j.w[0]] * 4)
    c.output('export.json')
    c.fire('llm-context-exceeds-kv-cache', marks=['kv'], captures={'max_model_len': '131072', 'fits': '27920'})
    c.fire('model-server-start-failed', marks=['beam'], captures={'server': 'vLLM'}, caused_by='llm-context-exceeds-kv-cache')
    c.fire('work-item-failed', marks=['wif'], caused_by='llm-context-exceeds-kv-cache')
    c.fire('workflow-failed', marks=['wif'], caused_by='llm-context-exceeds-kv-cache')
    c.not_fire('llm-engine-gpu-memory-short', 'gpu-out-of-memory', 'worker-lost-contact')
