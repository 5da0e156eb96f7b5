import datetime as dt

from corpuslib import noise as N, texts as T

STEP = 'TagClauses'
STAGE = 'S01:ReadContracts/Read+SplitClauses+EmbedClauses+TagClauses+WriteTags/Write'
MODEL = 'qwen2.5:8b'
SP = T.sp('3.11')
NOT_FOUND = ('ollama._types.ResponseError: model "%s" not found, try pulling it first (status code: 404)'
             % MODEL)
SRC_404 = ('ollama/ollama server/routes.go handleScheduleError (v0.3+): 404 {"error": "model %q not found, '
           'try pulling it first"}; ollama/ollama-python _client.py _request raising '
           'ResponseError(e.response.text, e.response.status_code) and _types.py ResponseError.__str__ '
           '("{error} (status code: {status_code})"); the frames above composed from Beam and the DoFn', 'V-code')
SRC_PULL = ('ollama/ollama server/images.go PullModel: "pull model manifest: %s" with os.ErrNotExist ("file does '
            'not exist") for the registry\'s 404 (ollama/ollama#5499: "When I try to pull an incorrect model name, '
            'I see the same error"); streamed, so the client\'s ResponseError carries status code -1; the '
            'WARNING around it is the DoFn\'s own (synthetic)', 'V-code')
SRC_OLLAMA_LOG = ('Ollama server log lines (slog "time=… level=INFO source=routes.go:1237 msg=\\"Listening on '
                  '127.0.0.1:11434 (version 0.5.11)\\"", "looking for compatible GPUs", "inference compute" … '
                  'library=cuda variant=v12 compute=8.9, and the [GIN] access lines) as public Ollama logs '
                  'found with find_string show them; values adapted to an L4', 'V-other')


def chat_traceback():
    return T.user_tb('3.11', [
        '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
        '  File "apache_beam/runners/common.py", line 912, in apache_beam.runners.common.PerWindowInvoker.invoke_process',
        '  File "/opt/pipeline/tagging/ollama_tagger.py", line 97, in process',
        '    resp = self._client.chat(model=self._model, messages=messages, options=self._options)',
        '  File "%s/ollama/_client.py", line 333, in chat' % SP,
        '    return self._request(',
        '  File "%s/ollama/_client.py", line 178, in _request' % SP,
        '    return cls(**self._request_raw(*args, **kwargs).json())',
        '  File "%s/ollama/_client.py", line 122, in _request_raw' % SP,
        '    raise ResponseError(e.response.text, e.response.status_code) from None',
    ], NOT_FOUND + " [while running '%s']" % STEP)


def _slog(j, t):
    """Ollama's slog time (UTC, milliseconds) for job time t."""
    return (j.start + dt.timedelta(seconds=t)).strftime('%Y-%m-%dT%H:%M:%S.%f')[:-3] + 'Z'


def _gin(j, t):
    """gin's access-log time: 2025/11/04 - 07:36:07."""
    return (j.start + dt.timedelta(seconds=t)).strftime('%Y/%m/%d - %H:%M:%S')


def build(c):
    c.describe('''
        An Ollama model tag that does not exist (issue 40, model servers): a batch job tags contract
        clauses with an LLM served by Ollama 0.5.11, which the DoFn starts as a subprocess in setup() on
        the worker's L4 (the server writes its log to the container's stderr, stored at ERROR), then pulls
        the two models the options name: nomic-embed-text (fine) and qwen2.5:8b — Qwen2.5 is published
        as 0.5b, 1.5b, 3b, 7b, 14b, 32b and 72b, so the registry has no such manifest. The pull answers
        "pull model manifest: file does not exist"; the DoFn logs that as a WARNING and carries on
        ("the model may already be in the local store"), so the failure shows only later: every chat
        request gets 404 'model "qwen2.5:8b" not found, try pulling it first', the ollama client raises
        ResponseError, the bundle fails four times and the job fails. ollama-model-not-found fires on
        the 404s (the WARNING pull line alone is not evidence: a DoFn may fall back to a model it has).
        Red herrings: "try pulling it first" suggests a start-up race or a wiped disk; Ollama found the
        GPU ("inference compute" … library=cuda … name="NVIDIA L4"), the embedding model works, the
        server's own access log shows the 404s without a reason; the usual kubelet/system ERROR lines.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE],
               image='europe-west4-docker.pkg.dev/acme-ml-prod/dataflow/ollama-tagger:0.5.11',
               extra_options={'ollama_model': MODEL, 'ollama_embed_model': 'nomic-embed-text'})
    j = c.job('contract-clause-tagger', '2025-11-04T07:30:12Z', region='europe-west4', zone='europe-west4-b',
              python='3.11', beam='2.62.0', workers=1)
    w = j.w[0]
    ready = N.bring_up(j, cf)
    t = ready + 6
    user = dict(module='/opt/pipeline/tagging/ollama_tagger.py')
    j.wlog(t, w, 'Starting ollama serve (OLLAMA_MODELS=/var/lib/ollama/models) on 127.0.0.1:11434', src='user-code',
           line=41, **user)
    srv = [
        (1.2, 'time=%s level=INFO source=routes.go:1237 msg="Listening on 127.0.0.1:11434 (version 0.5.11)"'),
        (1.21, 'time=%s level=INFO source=gpu.go:217 msg="looking for compatible GPUs"'),
        (1.6, 'time=%s level=INFO source=types.go:130 msg="inference compute" '
         'id=GPU-3f1c9a0e-7b42-4d18-a5e6-0c9d2b7f4e11 library=cuda variant=v12 compute=8.9 driver=12.2 '
         'name="NVIDIA L4" total="22.0 GiB" available="21.7 GiB"'),
    ]
    for d, line in srv:
        j.docker(t + d, w, line % _slog(j, t + d), sev='ERROR', src=SRC_OLLAMA_LOG)
    t += 5
    j.wlog(t, w, 'Pulling nomic-embed-text', src='user-code', line=55, **user)
    j.docker(t + 21.4, w, '[GIN] %s | 200 | 21.39517428s |       127.0.0.1 | POST     "/api/pull"' % _gin(j, t + 21.4),
             sev='ERROR', src=SRC_OLLAMA_LOG)
    j.wlog(t + 22, w, 'Pulling %s' % MODEL, src='user-code', line=55, **user)
    j.docker(t + 22.6, w, '[GIN] %s | 200 |  512.338021ms |       127.0.0.1 | POST     "/api/pull"' % _gin(j, t + 22.6),
             sev='ERROR', src=SRC_OLLAMA_LOG)
    j.wlog(t + 22.7, w, 'Could not pull %s (pull model manifest: file does not exist (status code: -1)); '
           'continuing, the model may already be in the local store' % MODEL, sev='WARNING', src=SRC_PULL,
           line=61, **user)
    t += 40
    for k in range(3):
        j.docker(t + k * 0.4, w, '[GIN] %s | 200 |  %d.%03d412ms |       127.0.0.1 | POST     '
                 '"/api/embed"' % (_gin(j, t + k * 0.4), 180 + k * 7, 311 + k), sev='ERROR', src=SRC_OLLAMA_LOG)
    t += 3
    tb = chat_traceback()
    for attempt in range(4):
        j.docker(t - 0.2, w, '[GIN] %s | 404 |     %d.%03dµs |       127.0.0.1 | POST     '
                 '"/api/chat"' % (_gin(j, t - 0.2), 402 + attempt * 9, 871 - attempt),
                 sev='ERROR', src=SRC_OLLAMA_LOG)
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (5 + attempt), tb), sev='ERROR', src=SRC_404,
               cite=NOT_FOUND, module='apache_beam/runners/worker/sdk_worker.py', line=303,
               thread='Thread-%d' % (14 + attempt), step=STEP, mark='notfound' if attempt == 0 else None)
        j.msg(t + 2.0, T.worker_error_msg(tb, STEP), sev='ERROR', src=SRC_404,
              cite='Error message from worker: … model "%s" not found, try pulling it first' % MODEL,
              mark='notfound-msg' if attempt == 0 else None)
        t += 31.0
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.no_unexplained()
    c.fire('ollama-model-not-found', marks=['notfound', 'notfound-msg'], captures={'model': MODEL})
    c.fire('work-item-failed', marks=['wif'], caused_by='ollama-model-not-found')
    c.fire('workflow-failed', marks=['wif'], caused_by='ollama-model-not-found')
    c.not_fire('gpu-not-used', 'hf-hub-unreachable', 'hf-repo-id-invalid', 'worker-disk-full',
               'container-image-pull-failed')
