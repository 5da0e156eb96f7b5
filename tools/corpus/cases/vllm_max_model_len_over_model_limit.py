from corpuslib import noise as N
from corpuslib.model_servers import SRC_RELAY, relayed, start_failed

STEP = 'RunInference/BeamML_RunInference'
STAGE = 'S01:ReadRepos/Read+ChunkFiles+RunInference/BeamML_RunInference+WriteReviews/Write'
MODEL = 'Qwen/Qwen2.5-Coder-7B-Instruct'
VLLM = '/usr/local/lib/python3.11/site-packages/vllm'
ERR = ("ValueError: User-specified max_model_len (65536) is greater than the derived max_model_len "
       "(max_position_embeddings=32768 or model_max_length=None in model's config.json). This may lead to "
       "incorrect model outputs or CUDA errors. To allow overriding this maximum, set the env var "
       "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1")
SRC_ERR = ('vllm-project/vllm vllm/config.py _get_and_verify_max_len (0.5.4 to 0.9: "{msg} To allow overriding this '
           'maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1"); the exception line and the arg_utils.py / '
           'config.py frames as vllm-project/vllm#16757 quotes them (vLLM 0.8.4), values adapted to Qwen2.5-Coder-7B '
           '(config.json max_position_embeddings 32768); the api_server.py frames above are composed', 'V-code')
SRC_START = ('vLLM 0.8 start-up INFO lines ("Automatically detected platform cuda.", "vLLM API server version …", '
             '"non-default args: {…}" in vLLM\'s "INFO MM-DD hh:mm:ss [file.py:N]" format), as in public vLLM '
             'server logs; values composed', 'V-other')
SRC_XET = ('huggingface_hub file_download.py warning when a repo uses Xet storage and hf_xet is missing '
           '("Xet Storage is enabled for this repo, but the \'hf_xet\' package is not installed. Falling back to '
           'regular HTTP download. …"), huggingface_hub 0.30+; a harmless red herring', 'V-other')
SRC_USER = ('a pipeline\'s own INFO lines (composed)', 'I')


def build(c):
    c.describe('''
        A context length the model does not have (issue 40, model servers): a batch job reviews source
        files with Beam's VLLMCompletionsModelHandler serving Qwen2.5-Coder-7B-Instruct on one L4
        (g2-standard-8, one SDK process), started with vllm_server_kwargs={'max-model-len': '65536'}
        because the model card advertises 128 k tokens. The card reaches that only with YaRN rope
        scaling; the shipped config.json declares max_position_embeddings 32768 and the job does not
        enable rope scaling. The image's vLLM (0.8.5) checks the length before it loads any weights
        and raises "ValueError: User-specified max_model_len (65536) is greater than the derived
        max_model_len (max_position_embeddings=32768 or model_max_length=None in model's config.json).
        … To allow overriding this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1"; Beam
        relays the server's traceback line by line at INFO, restarts it, and raises "Failed to start
        vLLM server"; four attempts fail the work item. llm-context-exceeds-model fires with 65536
        over 32768 and the start failure, work item and workflow failures fold under it. Red herrings:
        huggingface_hub's harmless hf_xet warning, the pipeline's own "max-model-len" setting in its
        log and in the "Starting service" and "non-default args" lines; neither the KV-cache rule nor
        the per-request token-limit rule fires (nothing was loaded, nothing was served).''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE],
               image='us-central1-docker.pkg.dev/devx-insights/beam/vllm-0.8.5-beam-2.65:py311')
    j = c.job('repo-review-qwen-coder', '2025-05-14T09:05:12Z', region='us-central1',
              zone='us-central1-b', python='3.11', beam='2.65.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 8
    j.wlog(t, w, "Loading vLLM model handler for %s with vllm_server_kwargs={'max-model-len': '65536', "
           "'gpu-memory-utilization': '0.9'}" % MODEL, src=SRC_USER, module='/app/review_repos.py', line=58)
    t += 4
    for attempt in range(4):
        first = attempt == 0
        relayed(j, t, "Starting service with ['python' '-m' 'vllm.entrypoints.openai.api_server' '--model' "
                "'%s' '--port' '%d' '--max-model-len' '65536' '--gpu-memory-utilization' '0.9']"
                % (MODEL, 41873 + attempt), SRC_RELAY)
        mm = '05-14 09:%02d' % (7 + attempt)
        relayed(j, t + 6.1, 'INFO %s:%02d [__init__.py:239] Automatically detected platform cuda.'
                % (mm, 19 + attempt), SRC_START)
        relayed(j, t + 8.4, 'INFO %s:%02d [api_server.py:1043] vLLM API server version 0.8.5'
                % (mm, 21 + attempt), SRC_START)
        relayed(j, t + 8.5, "INFO %s:%02d [cli_args.py:297] non-default args: {'port': %d, 'model': '%s', "
                "'max_model_len': 65536, 'gpu_memory_utilization': 0.9}" % (mm, 21 + attempt, 41873 + attempt, MODEL),
                SRC_START)
        if first:
            relayed(j, t + 9.7, "Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed. "
                    "Falling back to regular HTTP download. For better performance, install the package with: "
                    "`pip install huggingface_hub[hf_xet]` or `pip install hf_xet`", SRC_XET)
        lines = [
            'Traceback (most recent call last):',
            '  File "<frozen runpy>", line 198, in _run_module_as_main',
            '  File "<frozen runpy>", line 88, in _run_code',
            '  File "%s/entrypoints/openai/api_server.py", line 1121, in <module>' % VLLM,
            '    uvloop.run(run_server(args))',
            '  File "%s/entrypoints/openai/api_server.py", line 1069, in run_server' % VLLM,
            '    async with build_async_engine_client(args) as engine_client:',
            '  File "%s/entrypoints/openai/api_server.py", line 146, in build_async_engine_client' % VLLM,
            '    async with build_async_engine_client_from_engine_args(',
            '  File "%s/entrypoints/openai/api_server.py", line 166, in '
            'build_async_engine_client_from_engine_args' % VLLM,
            '    vllm_config = engine_args.create_engine_config(usage_context=usage_context)',
            '  File "%s/engine/arg_utils.py", line 1154, in create_engine_config' % VLLM,
            '    model_config = self.create_model_config()',
            '  File "%s/engine/arg_utils.py", line 1042, in create_model_config' % VLLM,
            '    return ModelConfig(',
            '  File "%s/config.py", line 480, in __init__' % VLLM,
            '    self.max_model_len = _get_and_verify_max_len(',
            '  File "%s/config.py", line 2970, in _get_and_verify_max_len' % VLLM,
            '    raise ValueError(',
            ERR,
        ]
        if not first:
            lines = lines[-3:]
        at = t + 11.0
        for k, line in enumerate(lines):
            at += 0.003
            relayed(j, at, line, SRC_ERR, cite=line,
                    mark='mml' if first and k == len(lines) - 1 else None)
        start_failed(j, at + 9.0, attempt, STEP, mark='beam' if first else None)
        t += 55.0
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('llm-context-exceeds-model', marks=['mml'],
           captures={'max_model_len': '65536', 'key': 'max_position_embeddings', 'derived': '32768'})
    c.fire('model-server-start-failed', marks=['beam'], captures={'server': 'vLLM'},
           caused_by='llm-context-exceeds-model')
    c.fire('work-item-failed', marks=['wif'], caused_by='llm-context-exceeds-model')
    c.fire('workflow-failed', marks=['wif'], caused_by='llm-context-exceeds-model')
    c.not_fire('llm-context-exceeds-kv-cache', 'llm-request-token-limit', 'llm-engine-gpu-memory-short',
               'gpu-out-of-memory', 'hf-hub-unreachable', 'hf-transfer-missing')
