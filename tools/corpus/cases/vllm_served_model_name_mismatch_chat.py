import datetime as _dt

from corpuslib import noise as N, texts as T
from corpuslib.model_servers import relayed

STEP = 'TriageTickets'
STAGE = 'S01:ReadTickets/Read+BuildMessages+TriageTickets+ParseLabels+WriteLabels/Write'
MODEL = 'microsoft/Phi-3.5-mini-instruct'
SERVED = 'ticket-triage'
PORT = 41731
SP = T.sp('3.11')
NOT_FOUND = ("openai.NotFoundError: Error code: 404 - {'error': {'message': 'The model `%s` does not exist.', "
             "'type': 'NotFoundError', 'param': None, 'code': 404}}" % MODEL)
SRC_404 = ('vllm-project/vllm vllm/entrypoints/openai/serving_engine.py OpenAIServing._check_model ("The model '
           '`{request.model}` does not exist.", NotFoundError, 404) in the nested error body of vLLM 0.10.1 on '
           '(vllm-project/vllm#22099), raised by the openai client as NotFoundError; Beam\'s VLLMChatModelHandler '
           'sends model=model_name (apache/beam vllm_inference.py _async_run_inference, which calls '
           'check_connectivity and re-raises); frames and line numbers composed', 'V-code')
SRC_RELAY = ('apache/beam sdks/python/apache_beam/ml/inference/vllm_inference.py (2.66): start_process logs "Starting '
             'service with %s" with "\',"  replaced by "\'" and re-logs each line of the server\'s output with '
             'logging.info; vllm_server_kwargs appended as --key value; check_connectivity logs "models: %s"', 'V-code')
SRC_STARTUP = ('vLLM 0.11 API server and V1 engine start-up lines in the "(APIServer pid=N)" / "(EngineCore_DP0 '
               'pid=N)" form (vllm-project/vllm#29566 and other public 0.11 logs: "vLLM API server version", '
               '"non-default args", "Resolved architecture", "Using max model len", "Initializing a V1 LLM engine", '
               '"Model loading took", "GPU KV cache size", "Maximum concurrency", "Starting vLLM API server 0 on", '
               'uvicorn\'s startup and access lines); values adapted to Phi-3.5-mini with --served-model-name on an '
               'L4', 'V-other')
SRC_SAMPLING = ('vLLM WARNING "Default sampling parameters have been overridden by the model\'s Hugging Face '
                'generation config recommended from the model creator. …" (vllm/config, public vLLM logs): a near '
                'miss', 'V-other')
SRC_XET = ('huggingface_hub file_download.py WARNING "Xet Storage is enabled for this repo, but the \'hf_xet\' package '
           'is not installed. Falling back to regular HTTP download. …" (public transcripts found with find_string), '
           'relayed from the engine process: a near miss', 'V-other')
SRC_MODELS = ('apache/beam vllm_inference.py check_connectivity: logging.info(\'models: %s\' % models) with the openai '
              'client\'s Model repr; vLLM\'s ModelCard fields (id = the served name, root = the --model value, '
              'max_model_len); values composed', 'V-code')


def hdr(j, t):
    return (j.start + _dt.timedelta(seconds=t)).strftime('%m-%d %H:%M:%S')


def models_line(created):
    return ("models: [Model(id='%s', created=%d, object='model', owned_by='vllm', root='%s', parent=None, "
            "max_model_len=8192, permission=[{'id': 'modelperm-5b0e9c1d2f3a4b6c8d7e', 'object': 'model_permission', "
            "'created': %d, 'allow_create_engine': False, 'allow_sampling': True, 'allow_logprobs': True, "
            "'allow_search_indices': False, 'allow_view': True, 'allow_fine_tuning': False, 'organization': '*', "
            "'group': None, 'is_blocking': False}])]" % (SERVED, created, MODEL, created))


def client_traceback():
    return T.user_tb('3.11', [
        '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
        '  File "apache_beam/runners/common.py", line 685, in apache_beam.runners.common.SimpleInvoker.invoke_process',
        '  File "%s/apache_beam/ml/inference/base.py", line 1712, in process' % SP,
        '    return self._run_inference(batch, inference_args)',
        '  File "%s/apache_beam/ml/inference/base.py", line 1685, in _run_inference' % SP,
        '    raise e',
        '  File "%s/apache_beam/ml/inference/base.py", line 1671, in _run_inference' % SP,
        '    result_generator = self._model_handler.run_inference(',
        '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 331, in run_inference' % SP,
        '    return asyncio.run(self._async_run_inference(batch, model, inference_args))',
        '  File "/usr/local/lib/python3.11/asyncio/runners.py", line 190, in run',
        '    return runner.run(main)',
        '  File "/usr/local/lib/python3.11/asyncio/runners.py", line 118, in run',
        '    return self._loop.run_until_complete(task)',
        '  File "/usr/local/lib/python3.11/asyncio/base_events.py", line 654, in run_until_complete',
        '    return future.result()',
        '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 312, in _async_run_inference' % SP,
        '    raise e',
        '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 308, in _async_run_inference' % SP,
        '    predictions.append(await p)',
        '  File "%s/openai/resources/chat/completions/completions.py", line 2589, in create' % SP,
        '    return await self._post(',
        '  File "%s/openai/_base_client.py", line 1794, in post' % SP,
        '    return await self.request(cast_to, opts, stream=stream, stream_cls=stream_cls)',
        '  File "%s/openai/_base_client.py", line 1594, in request' % SP,
        '    raise self._make_status_error_from_response(err.response) from None',
    ], NOT_FOUND + " [while running '%s']" % STEP)


def build(c):
    c.describe('''
        The model server serves another name than the requests ask for (issue 40, model servers): a
        batch job labels support tickets with Beam's VLLMChatModelHandler('microsoft/Phi-3.5-mini-instruct',
        vllm_server_kwargs={'served-model-name': 'ticket-triage', 'max-model-len': '8192'}) on one L4
        (g2-standard-8, Beam 2.66, vLLM 0.11). Beam starts the server with --model microsoft/Phi-3.5-mini-instruct
        and the extra flags, so the server answers only to "ticket-triage" (its start-up arguments and Beam's
        readiness listing "models: [Model(id='ticket-triage', …)]" say so), while the handler sends every
        chat request with model=microsoft/Phi-3.5-mini-instruct. vLLM answers each with 404 (the access line
        "POST /v1/chat/completions HTTP/1.1" 404 Not Found, relayed by Beam at INFO) and the openai client
        raises NotFoundError "The model `microsoft/Phi-3.5-mini-instruct` does not exist." in the nested body
        of vLLM 0.10.1 on. Four attempts fail the same way and the job fails. llm-served-model-name-mismatch
        fires with the requested name; no start-up rule does (the server started and answered GET /v1/models
        with 200). Red herrings: huggingface_hub's hf_xet WARNING from the engine's download, vLLM's WARNING
        about generation-config sampling defaults, the KV-cache lines, and the benign kubelet lines.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'],
               image='europe-west4-docker.pkg.dev/helpline-ops/dataflow/ticket-triage:vllm-0.11.0-b2.66',
               disk=150, steps=[STAGE])
    j = c.job('ticket-triage-phi35-20250930', '2025-09-30T07:58:12Z', region='europe-west4', zone='europe-west4-b',
              python='3.11', beam='2.66.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 9
    relayed(j, t, "Starting service with ['/usr/local/bin/python' '-m' 'vllm.entrypoints.openai.api_server' '--model' "
            "'%s' '--port' '%d' '--served-model-name' '%s' '--max-model-len' '8192']" % (MODEL, PORT, SERVED),
            SRC_RELAY)
    api = '(APIServer pid=212) '
    core = '(EngineCore_DP0 pid=389) '
    startup = [
        (4.8, api + 'INFO %s [api_server.py:1896] vLLM API server version 0.11.0', SRC_STARTUP),
        (0.1, api + "INFO %s [utils.py:233] non-default args: {'model': '" + MODEL + "', 'port': " + str(PORT)
         + ", 'served_model_name': ['" + SERVED + "'], 'max_model_len': 8192}", SRC_STARTUP),
        (6.3, api + 'INFO %s [model.py:547] Resolved architecture: Phi3ForCausalLM', SRC_STARTUP),
        (0.1, api + 'INFO %s [model.py:1510] Using max model len 8192', SRC_STARTUP),
        (7.9, core + "INFO %s [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: model='" + MODEL
         + "', speculative_config=None, tokenizer='" + MODEL + "', skip_tokenizer_init=False, tokenizer_mode=auto, "
         "dtype=torch.bfloat16, max_seq_len=8192, tensor_parallel_size=1, quantization=None, enforce_eager=False, "
         "served_model_name=" + SERVED, SRC_STARTUP),
        (9.4, core + "Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed. Falling back "
         "to regular HTTP download. For better performance, install the package with: `pip install "
         "huggingface_hub[hf_xet]` or `pip install hf_xet`", SRC_XET),
        (44.2, core + 'INFO %s [gpu_model_runner.py:2653] Model loading took 7.1184 GiB and 41.873 seconds',
         SRC_STARTUP),
        (21.6, core + 'INFO %s [kv_cache_utils.py:1087] GPU KV cache size: 37,184 tokens', SRC_STARTUP),
        (0.01, core + 'INFO %s [kv_cache_utils.py:1091] Maximum concurrency for 8,192 tokens per request: 4.54x',
         SRC_STARTUP),
        (24.7, api + 'WARNING %s [model.py:1389] Default sampling parameters have been overridden by the model\'s '
         'Hugging Face generation config recommended from the model creator. If this is not intended, please '
         'relaunch vLLM instance with `--generation-config vllm`.', SRC_SAMPLING),
        (0.3, api + 'INFO %s [api_server.py:1971] Starting vLLM API server 0 on http://0.0.0.0:' + str(PORT),
         SRC_STARTUP),
        (0.4, api + 'INFO:     Application startup complete.', SRC_STARTUP),
        (2.1, api + 'INFO:     127.0.0.1:51822 - "GET /v1/models HTTP/1.1" 200 OK', SRC_STARTUP),
    ]
    at = t
    for gap, line, src in startup:
        at += gap
        relayed(j, at, line % hdr(j, at) if '%s' in line else line, src)
    created = int((j.start + _dt.timedelta(seconds=at)).timestamp())
    j.wlog(at + 0.05, w, models_line(created), src=SRC_MODELS, module='apache_beam/ml/inference/vllm_inference.py',
           line=147, thread='Thread-7')
    t = at + 6
    j.wlog(t - 2, w, 'built 48 triage conversations from batch tickets-2025-09-29-0007.jsonl', src='user-code',
           module='/app/triage/messages.py', line=58, step='BuildMessages')
    tb = client_traceback()
    for attempt in range(4):
        first = attempt == 0
        a = t + attempt * 38.0
        relayed(j, a, api + 'INFO:     127.0.0.1:%d - "POST /v1/chat/completions HTTP/1.1" 404 Not Found'
                % (51840 + attempt * 5), SRC_STARTUP)
        relayed(j, a + 0.2, api + 'INFO:     127.0.0.1:%d - "GET /v1/models HTTP/1.1" 200 OK'
                % (51841 + attempt * 5), SRC_STARTUP)
        j.wlog(a + 0.25, w, models_line(created), src=SRC_MODELS, module='apache_beam/ml/inference/vllm_inference.py',
               line=147, thread='Thread-%d' % (21 + attempt))
        j.wlog(a + 0.4, w, T.instruction_error('process_bundle-%d' % (3 + attempt), tb), sev='ERROR', src=SRC_404,
               cite=NOT_FOUND, module='apache_beam/runners/worker/sdk_worker.py', line=303,
               thread='Thread-%d' % (21 + attempt), step=STEP, mark='client' if first else None)
        j.msg(a + 2.4, T.worker_error_msg(tb, STEP), sev='ERROR', src=SRC_404,
              cite='Error message from worker: … ' + NOT_FOUND, mark='client-msg' if first else None)
    N.fail_work_item_4(j, cf, t + 4 * 38.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('llm-served-model-name-mismatch', marks=['client', 'client-msg'], captures={'model': MODEL})
    c.fire('work-item-failed', marks=['wif'], caused_by='llm-served-model-name-mismatch')
    c.fire('workflow-failed', marks=['wif'], caused_by='llm-served-model-name-mismatch')
    c.not_fire('ollama-model-not-found', 'model-server-start-failed', 'hf-repo-id-invalid', 'hf-hub-access-denied',
               'hf-hub-unreachable', 'chat-template-missing', 'llm-request-token-limit', 'llm-architecture-unsupported',
               'cloud-storage-object-missing', 'hf-transfer-missing')
    c.no_unexplained()
