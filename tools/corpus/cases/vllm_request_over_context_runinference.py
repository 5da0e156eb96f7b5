import datetime as _dt

from corpuslib import noise as N, texts as T
from corpuslib.model_servers import SRC_RELAY, relayed

STEP = 'SummarizeCalls/BeamML_RunInference'
STAGE = 'S01:ReadTranscripts/Read+ChunkTranscripts+SummarizeCalls/BeamML_RunInference+WriteSummaries/Write'
MODEL = 'meta-llama/Llama-3.1-8B-Instruct'
SP = T.sp('3.11')
VLLM = SP + '/vllm'
LIMIT = ("This model's maximum context length is 8192 tokens. However, you requested 9310 tokens (8286 in the "
         "messages, 1024 in the completion). Please reduce the length of the messages or completion.")
BAD_REQUEST = ("openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': \"%s\", 'type': "
               "'BadRequestError', 'param': None, 'code': 400}" % LIMIT)
SRC_STARTUP = ('vLLM 0.8 API server and V1 engine start-up lines ("vLLM API server version", "args: Namespace(…)", '
               '"Initializing a V1 LLM engine (v…) with config: …", "Model loading took … GiB and … seconds", "GPU KV '
               'cache size: … tokens", "Maximum concurrency for … tokens per request: …x", "Starting vLLM API server on '
               '…", uvicorn\'s "Application startup complete." and access lines) as public vLLM 0.8 logs show them; '
               'values adapted to Llama 3.1 8B with --max-model-len 8192 on an L4', 'V-other')
SRC_SAMPLING = ('vLLM WARNING "Default sampling parameters have been overridden by the model\'s Hugging Face '
                'generation config recommended from the model creator. If this is not intended, please relaunch vLLM '
                'instance with `--generation-config vllm`." (vllm/config.py, as public vLLM 0.8 logs show it)', 'V-other')


def hdr(j, t):
    """vLLM's own time stamp (MM-DD HH:MM:SS, UTC on the worker) for an entry `t` seconds after the job start."""
    return (j.start + _dt.timedelta(seconds=t)).strftime('%m-%d %H:%M:%S')


def server_traceback():
    return [
        'Traceback (most recent call last):',
        '  File "%s/entrypoints/openai/serving_completion.py", line 108, in create_completion' % VLLM,
        '    request_prompts, engine_prompts = await self._preprocess_completion(',
        '  File "%s/entrypoints/openai/serving_engine.py", line 292, in _preprocess_completion' % VLLM,
        '    request_prompts = await self._tokenize_prompt_input_or_inputs_async(',
        '  File "%s/entrypoints/openai/serving_engine.py", line 252, in _tokenize_prompt_input_or_inputs_async' % VLLM,
        '    return [self._normalize_prompt_text_to_input(',
        '  File "%s/entrypoints/openai/serving_engine.py", line 182, in _normalize_prompt_text_to_input' % VLLM,
        '    return self._validate_input(request, input_ids, input_text)',
        '  File "%s/entrypoints/openai/serving_engine.py", line 236, in _validate_input' % VLLM,
        '    raise ValueError(',
        'ValueError: ' + LIMIT,
    ]


def client_traceback():
    return T.user_tb('3.11', [
        '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
        '  File "apache_beam/runners/common.py", line 685, in apache_beam.runners.common.SimpleInvoker.invoke_process',
        '  File "%s/apache_beam/ml/inference/base.py", line 1574, in process' % SP,
        '    return self._run_inference(batch, inference_args)',
        '  File "%s/apache_beam/ml/inference/base.py", line 1547, in _run_inference' % SP,
        '    raise e',
        '  File "%s/apache_beam/ml/inference/base.py", line 1533, in _run_inference' % SP,
        '    result_generator = self._model_handler.run_inference(',
        '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 237, in run_inference' % SP,
        '    completion = client.completions.create(',
        '  File "%s/openai/_utils/_utils.py", line 279, in wrapper' % SP,
        '    return func(*args, **kwargs)',
        '  File "%s/openai/resources/completions.py", line 539, in create' % SP,
        '    return self._post(',
        '  File "%s/openai/_base_client.py", line 1242, in post' % SP,
        '    return cast(ResponseT, self.request(cast_to, opts, stream=stream, stream_cls=stream_cls))',
        '  File "%s/openai/_base_client.py", line 1047, in _request' % SP,
        '    raise self._make_status_error_from_response(err.response) from None',
    ], BAD_REQUEST + " [while running '%s']" % STEP)


def build(c):
    c.describe('''
        A request longer than the model server's context (issue 40, model servers): a batch job
        summarises call-centre transcripts with Beam's VLLMCompletionsModelHandler (vLLM 0.8.4, Llama
        3.1 8B on one L4, g2-standard-8). The team started the server with --max-model-len 8192, since
        the model's 128k context does not fit the L4's KV cache, and asked for max_tokens=1024; the
        transcripts are cut into chunks of 24,000 characters. Most chunks are 5-7k tokens and are
        summarised (POST /v1/completions 200), but a chunk of a transcript full of account numbers and
        codes is 8,286 tokens: vLLM logs "Error in preprocessing prompt inputs" with "ValueError: This
        model's maximum context length is 8192 tokens. However, you requested 9310 tokens (8286 in the
        messages, 1024 in the completion)." (relayed by Beam at INFO, one line per entry), answers 400,
        and the openai client raises BadRequestError with the same text in the bundle's traceback. The
        same chunk fails four times and the job fails. llm-request-token-limit fires with the limit;
        the start-up rule llm-context-exceeds-kv-cache does not (the server started and served), nor
        does the model-server start rule. Red herrings: the KV-cache size and concurrency lines, vLLM's
        WARNING about generation-config sampling defaults, and the earlier 200s.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'],
               image='europe-west1-docker.pkg.dev/callwise-analytics/dataflow/summarizer:vllm-0.8.4',
               disk=150, steps=[STAGE])
    j = c.job('call-summaries-llama31-0512', '2026-05-12T13:58:41Z', region='europe-west1', zone='europe-west1-b',
              python='3.11', beam='2.63.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 8
    relayed(j, t, "Starting service with ['/usr/local/bin/python', '-m', 'vllm.entrypoints.openai.api_server', "
            "'--model', '%s', '--port', '41573', '--max-model-len', '8192']" % MODEL, SRC_RELAY)
    startup = [
        'INFO %s [api_server.py:1034] vLLM API server version 0.8.4',
        "INFO %s [api_server.py:1035] args: Namespace(host=None, port=41573, model='%s', "
        "max_model_len=8192, gpu_memory_utilization=0.9, enable_lora=False)" % ('%s', MODEL),
        "INFO %s [core.py:58] Initializing a V1 LLM engine (v0.8.4) with config: model='%s', "
        "speculative_config=None, tokenizer='%s', skip_tokenizer_init=False, tokenizer_mode=auto, "
        "dtype=torch.bfloat16, max_seq_len=8192, tensor_parallel_size=1, quantization=None, enforce_eager=False"
        % ('%s', MODEL, MODEL),
        'INFO %s [gpu_model_runner.py:1291] Model loading took 14.9889 GiB and 84.113 seconds',
        'INFO %s [kv_cache_utils.py:634] GPU KV cache size: 25,936 tokens',
        'INFO %s [kv_cache_utils.py:637] Maximum concurrency for 8,192 tokens per request: 3.17x',
        'INFO %s [api_server.py:1081] Starting vLLM API server on http://0.0.0.0:41573',
        'INFO:     Application startup complete.',
    ]
    gaps = [5, 0.2, 17, 89, 18, 0.01, 26, 0.6]
    at = t
    for k, line in enumerate(startup):
        at += gaps[k]
        relayed(j, at, line % hdr(j, at) if '%s' in line else line, SRC_STARTUP)
        if k == 6:
            relayed(j, at - 0.3, 'WARNING ' + hdr(j, at - 0.3) + ' [config.py:1088] Default sampling parameters have '
                    'been overridden by the model\'s Hugging Face generation config recommended from the model creator. '
                    'If this is not intended, please relaunch vLLM instance with `--generation-config vllm`.',
                    SRC_SAMPLING)
    t = at + 4
    for k, (call, chunks) in enumerate([('CALL-2026-04-2291', 3), ('CALL-2026-04-2307', 2), ('CALL-2026-04-2318', 4)]):
        j.wlog(t + k * 9.0, w, 'chunked %s transcript into %d chunks of <= 24000 characters' % (call, chunks),
               src='user-code', module='/app/summarizer/chunking.py', line=41, step='ChunkTranscripts')
        for n in range(chunks):
            relayed(j, t + k * 9.0 + 2 + n * 1.7, 'INFO:     127.0.0.1:%d - "POST /v1/completions HTTP/1.1" 200 OK'
                    % (50122 + k * 7 + n), SRC_STARTUP)
    t += 40
    tb = client_traceback()
    for attempt in range(4):
        first = attempt == 0
        at = t + attempt * 44.0
        if first:
            j.wlog(at - 3, w, 'chunked CALL-2026-04-2340 transcript into 6 chunks of <= 24000 characters', src='user-code',
                   module='/app/summarizer/chunking.py', line=41, step='ChunkTranscripts')
        head = 'ERROR %s [serving_completion.py:116] ' % hdr(j, at)
        relayed(j, at, head + 'Error in preprocessing prompt inputs', 'vllm-context-length-400')
        block = []
        for line in server_traceback():
            at += 0.001
            block.append(relayed(j, at, line, 'vllm-context-length-400', cite=line,
                                 mark='server' if first and line.startswith('ValueError') else None))
        for e in block[1:]:
            e.block_head = block[0]
        relayed(j, at + 0.01, 'INFO:     127.0.0.1:%d - "POST /v1/completions HTTP/1.1" 400 Bad Request'
                % (50190 + attempt * 3), SRC_STARTUP)
        j.wlog(at + 0.4, w, T.instruction_error('process_bundle-%d' % (4 + attempt), tb), sev='ERROR',
               src='vllm-context-length-400', cite=BAD_REQUEST, module='apache_beam/runners/worker/sdk_worker.py',
               line=303, thread='Thread-%d' % (21 + attempt), step=STEP, mark='client' if first else None)
        j.msg(at + 2.4, T.worker_error_msg(tb, STEP), sev='ERROR', src='vllm-context-length-400',
              cite='Error message from worker: … ' + BAD_REQUEST, mark='client-msg' if first else None)
    N.fail_work_item_4(j, cf, t + 4 * 44.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('llm-request-token-limit', marks=['server', 'client', 'client-msg'], captures={'limit': '8192'})
    c.fire('work-item-failed', marks=['wif'], caused_by='llm-request-token-limit')
    c.fire('workflow-failed', marks=['wif'], caused_by='llm-request-token-limit')
    c.not_fire('llm-context-exceeds-kv-cache', 'model-server-start-failed', 'chat-template-missing',
               'llm-engine-gpu-memory-short', 'gpu-out-of-memory', 'vllm-lora-limit')
    c.no_unexplained()
