from corpuslib import noise as N, texts as T
from corpuslib.model_servers import SRC_RELAY, relayed

STEP = 'RunInference/BeamML_RunInference'
STAGE = 'ReadTickets/Read+ParseTicket+BuildMessages+RunInference/BeamML_RunInference+WriteRoutes'
MODEL = '/models/support-router-mistral7b-awq'
SP = T.sp('3.11')
VLLM = SP + '/vllm'
TEMPLATE_ERR = ('As of transformers v4.44, default chat template is no longer allowed, so you must provide a '
                'chat template if the tokenizer does not define one.')
BAD_REQUEST = ("openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': '%s', "
               "'type': 'BadRequestError', 'param': None, 'code': 400}" % TEMPLATE_ERR)
SRC_VLLM_ERR = ('vllm-project/vllm vllm/entrypoints/chat_utils.py apply_hf_chat_template (ValueError "As of '
                'transformers v4.44, default chat template is no longer allowed, …") and '
                'entrypoints/openai/serving_chat.py (logger.exception "Error in preprocessing prompt inputs", '
                'create_error_response → 400); the bracketed [file:line] prefix of vLLM 0.8 as public logs show '
                'it; the line numbers and frames composed', 'V-code')
SRC_BAD_REQUEST = ('the openai client\'s BadRequestError around vLLM\'s 400 body, as public notes quote it ("openai.'
                   'BadRequestError: Error code: 400 - {\'object\': \'error\', \'message\': \'As of transformers '
                   'v4.44, …\', \'type\': \'BadRequestError\', \'param\': None, \'code\': 400}"); frames composed from '
                   'apache/beam vllm_inference.py run_inference and openai/_base_client.py', 'V-other')
SRC_STARTUP = ('vLLM 0.8 API server start-up lines ("vLLM API server version", "Available routes are:", '
               'uvicorn\'s "Application startup complete." and access lines) as public vLLM 0.8 logs show them; '
               'the Namespace(...) argument list shortened', 'V-other')
SRC_AUTOSCALE = ('Dataflow streaming job message "Autoscaling: Raised the number of workers to N so that the pipeline '
                 'can catch up with its backlog and keep up with its input rate." (GoogleCloudPlatform/'
                 'DataflowTemplates#390)', 'V')


def server_traceback():
    return [
        'Traceback (most recent call last):',
        '  File "%s/entrypoints/openai/serving_chat.py", line 197, in create_chat_completion' % VLLM,
        '    ) = await self._preprocess_chat(',
        '  File "%s/entrypoints/openai/serving_engine.py", line 437, in _preprocess_chat' % VLLM,
        '    request_prompt = apply_hf_chat_template(',
        '  File "%s/entrypoints/chat_utils.py", line 1185, in apply_hf_chat_template' % VLLM,
        '    raise ValueError(',
        'ValueError: ' + TEMPLATE_ERR,
    ]


def beam_traceback():
    return T.user_tb('3.11', [
        '  File "%s/apache_beam/ml/inference/base.py", line 1475, in process' % SP,
        '    return self._run_inference(batch, inference_args)',
        '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 283, in run_inference' % SP,
        '    completion = client.chat.completions.create(',
        '  File "%s/openai/_utils/_utils.py", line 279, in wrapper' % SP,
        '    return func(*args, **kwargs)',
        '  File "%s/openai/_base_client.py", line 1047, in _request' % SP,
        '    raise self._make_status_error_from_response(err.response) from None',
    ], BAD_REQUEST + " [while running '%s']" % STEP)


def build(c):
    c.describe('''
        A chat model without a chat template, in a streaming job (issue 40, model servers): Pub/Sub support
        tickets are routed by an LLM through Beam's VLLMChatModelHandler on an L4 worker (Streaming Engine,
        vLLM 0.8.4). The model is an AWQ repack of a Mistral-7B fine-tune baked into the image at
        /models/support-router-mistral7b-awq; the quantization script saved the weights and tokenizer.json
        but not the chat template. vLLM starts cleanly ("Application startup complete.", GET /v1/models
        200), then answers every POST /v1/chat/completions with 400: its own traceback, relayed by Beam
        one line per entry at INFO, ends in "ValueError: As of transformers v4.44, default chat template is
        no longer allowed, so you must provide a chat template if the tokenizer does not define one.", and
        the openai client raises BadRequestError with the same text in the bundle's traceback. A streaming
        job never fails a work item: Dataflow retries the bundle again and again (six attempts in the
        export), autoscaling adds a worker for the backlog, and the job is still running when exported.
        chat-template-missing fires on the relayed ValueError and the worker errors. Red herrings: the
        backlog autoscaling message, vLLM's generic "Error in preprocessing prompt inputs" ERROR line,
        and healthy GPU start-up.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=2,
               streaming=True, experiments=['no_use_multiple_sdk_containers', 'enable_streaming_engine'],
               image='us-central1-docker.pkg.dev/acme-ml-prod/dataflow/support-router:vllm-0.8.4',
               disk=100, steps=[STAGE])
    j = c.job('support-ticket-router', '2026-03-10T01:58:20Z', region='us-central1', zone='us-central1-b',
              python='3.11', beam='2.65.0', workers=1)
    w = j.w[0]
    ready = N.bring_up(j, cf, steps=[STAGE])
    t = ready + 10
    relayed(j, t, "Starting service with ['python' '-m' 'vllm.entrypoints.openai.api_server' '--model' '%s' "
            "'--port' '{{PORT}}']".replace('{{PORT}}', '43117') % MODEL, SRC_RELAY)
    startup = [
        'INFO 03-10 02:02:31 [api_server.py:1034] vLLM API server version 0.8.4',
        "INFO 03-10 02:02:31 [api_server.py:1035] args: Namespace(host=None, port=43117, chat_template=None, "
        "model='%s', quantization=None, max_model_len=None, gpu_memory_utilization=0.9)" % MODEL,
        'INFO 03-10 02:03:40 [api_server.py:1081] Starting vLLM API server on http://0.0.0.0:43117',
        'INFO 03-10 02:03:40 [launcher.py:26] Available routes are:',
        'INFO:     Started server process [187]',
        'INFO:     Waiting for application startup.',
        'INFO:     Application startup complete.',
        'INFO:     127.0.0.1:50114 - "GET /v1/models HTTP/1.1" 200 OK',
    ]
    for k, line in enumerate(startup):
        relayed(j, t + 4 + k * 9.5, line, SRC_STARTUP)
    relayed(j, t + 80, "models: [Model(id='%s', created=1773108221, object='model', owned_by='vllm', "
            "root='%s', parent=None, max_model_len=32768, permission=[])]" % (MODEL, MODEL), SRC_RELAY)
    t += 95
    tb = beam_traceback()
    for attempt in range(6):
        first = attempt == 0
        head = 'ERROR 03-10 %s [serving_chat.py:204] ' % ('02:%02d:%02d' % (5 + attempt * 2, (11 + attempt * 17) % 60))
        at = t
        relayed(j, at, head + 'Error in preprocessing prompt inputs', SRC_VLLM_ERR)
        block = []
        for line in server_traceback():
            at += 0.001
            block.append(relayed(j, at, line, SRC_VLLM_ERR, cite=line,
                                 mark='server' if first and line.startswith('ValueError') else None))
        for e in block[1:]:
            e.block_head = block[0]
        relayed(j, at + 0.01, 'INFO:     127.0.0.1:%d - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request'
                % (50130 + attempt * 3), SRC_STARTUP)
        j.wlog(at + 0.3, w, T.instruction_error('process_bundle-%d' % (88 + attempt * 5), tb), sev='ERROR',
               src=SRC_BAD_REQUEST, cite=BAD_REQUEST, module='apache_beam/runners/worker/sdk_worker.py', line=303,
               thread='Thread-%d' % (31 + attempt), step=STEP, mark='client' if first else None)
        if attempt == 2:
            j.msg(at + 20, 'Autoscaling: Raised the number of workers to 2 so that the pipeline can catch up '
                  'with its backlog and keep up with its input rate.', src=SRC_AUTOSCALE)
        t += 120.0
    c.output('export.json')
    c.no_unexplained()
    c.fire('chat-template-missing', marks=['server', 'client'])
    c.not_fire('work-item-failed', 'workflow-failed', 'model-server-start-failed', 'gpu-out-of-memory',
               'llm-engine-gpu-memory-short', 'flex-start-unsupported-config')
