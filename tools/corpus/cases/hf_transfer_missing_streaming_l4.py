from corpuslib import noise as N, texts as T

STEP = 'EmbedArticles'
STEPS = ['ReadArticles/Read+ChunkArticles+EmbedArticles+WriteVectors']
MODEL = 'intfloat/e5-base-v2'
SP = T.sp('3.11')
HFT = ("ValueError: Fast download using 'hf_transfer' is enabled (HF_HUB_ENABLE_HF_TRANSFER=1) but "
       "'hf_transfer' package is not available in your environment. Try `pip install hf_transfer`.")
SRC_HFT = ('huggingface/huggingface_hub src/huggingface_hub/file_download.py http_get at v0.27.1 (raise ValueError '
           'at line 358: "Fast download using \'hf_transfer\' is enabled (HF_HUB_ENABLE_HF_TRANSFER=1) but '
           '\'hf_transfer\' package is not available in your environment. Try `pip install hf_transfer`."), called '
           'from _download_to_tmp_and_move (line 1543), _hf_hub_download_to_cache_dir (line 1009), hf_hub_download '
           '(line 860) and utils/_validators.py _inner_fn (line 114) at that tag; the sentence-transformers and '
           'pipeline frames composed', 'V-code')
SRC_ST = ('sentence-transformers SentenceTransformer.__init__ INFO lines "Use pytorch device_name: cuda" and '
          '"Load pretrained SentenceTransformer: …" (logger.info), as public sentence-transformers logs show them',
          'V-other')
SRC_AUTOSCALE = ('Dataflow streaming job message "Autoscaling: Raised the number of workers to N so that the pipeline '
                 'can catch up with its backlog and keep up with its input rate." (GoogleCloudPlatform/'
                 'DataflowTemplates#390)', 'V')
SRC_INFO = ('the pipeline\'s own INFO lines (composed)', 'I')


def traceback():
    return T.augmented_tb('3.11', [
        '  File "/opt/pipeline/embed.py", line 71, in process',
        '    model = self._get_model()',
        '  File "/opt/pipeline/embed.py", line 52, in _get_model',
        '    self._model = SentenceTransformer(MODEL_ID, device="cuda")',
        '  File "%s/sentence_transformers/SentenceTransformer.py", line 306, in __init__' % SP,
        '    if is_sentence_transformer_model(',
        '  File "%s/sentence_transformers/util.py", line 1541, in is_sentence_transformer_model' % SP,
        '    load_file_path(',
        '  File "%s/sentence_transformers/util.py", line 1592, in load_file_path' % SP,
        '    return hf_hub_download(',
        '  File "%s/huggingface_hub/utils/_validators.py", line 114, in _inner_fn' % SP,
        '    return fn(*args, **kwargs)',
        '  File "%s/huggingface_hub/file_download.py", line 860, in hf_hub_download' % SP,
        '    return _hf_hub_download_to_cache_dir(',
        '  File "%s/huggingface_hub/file_download.py", line 1009, in _hf_hub_download_to_cache_dir' % SP,
        '    _download_to_tmp_and_move(',
        '  File "%s/huggingface_hub/file_download.py", line 1543, in _download_to_tmp_and_move' % SP,
        '    http_get(',
        '  File "%s/huggingface_hub/file_download.py", line 358, in http_get' % SP,
        '    raise ValueError(',
    ], HFT, STEP)


def build(c):
    c.describe('''
        HF_HUB_ENABLE_HF_TRANSFER=1 without hf_transfer, in a streaming job (issue 40, models and the
        hub): a Pub/Sub knowledge-base embedder on L4 workers (Streaming Engine, autoscaling 1 to 6).
        Its image is built FROM the team's ML base image, which sets ENV HF_HUB_ENABLE_HF_TRANSFER=1;
        the Dataflow image installs sentence-transformers 3.3.1 and huggingface_hub 0.27.1 but not
        hf_transfer, and the model is not baked in. EmbedArticles loads
        SentenceTransformer('intfloat/e5-base-v2') on its first element; the metadata request succeeds
        and the first download raises "ValueError: Fast download using 'hf_transfer' is enabled
        (HF_HUB_ENABLE_HF_TRANSFER=1) but 'hf_transfer' package is not available in your environment.
        Try `pip install hf_transfer`." on every attempt. A streaming job never fails a work item:
        Dataflow retries the bundle again and again, autoscaling adds a second worker for the backlog
        (which fails the same way) and is refused a third by the L4 quota; the export ends while the
        job runs. hf-transfer-missing fires from the worker errors alone and leads; the quota refusal
        is autoscaling-capacity-short's warning, a consequence of the backlog. Red herrings:
        sentence-transformers' healthy "Load pretrained SentenceTransformer" lines, the quota message,
        benign host lines; hf-hub-unreachable stays quiet (the Hub answered).''')
    cf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=6,
               streaming=True, experiments=['no_use_multiple_sdk_containers', 'enable_streaming_engine'],
               image='europe-west4-docker.pkg.dev/lumen-support/dataflow/kb-embedder:2.3.0', disk=60,
               steps=STEPS)
    j = c.job('kb-article-embedder', '2025-02-06T07:41:18Z', region='europe-west4', zone='europe-west4-b',
              project='lumen-support', python='3.11', beam='2.61.0', workers=2)
    w0, w1 = j.w[0], j.w[1]
    ready = N.bring_up(j, cf, workers=[w0], steps=STEPS)
    st = dict(module='%s/sentence_transformers/SentenceTransformer.py' % SP)
    t = ready + 12
    j.wlog(t, w0, 'EmbedArticles: loading %s on cuda' % MODEL, src=SRC_INFO, module='/opt/pipeline/embed.py',
           line=50)
    attempt = 0

    def fail_once(at, w, thread, mark=None, msg=False):
        nonlocal attempt
        j.wlog(at, w, 'Use pytorch device_name: cuda', src=SRC_ST, line=218, thread=thread, **st)
        j.wlog(at + 0.01, w, 'Load pretrained SentenceTransformer: %s' % MODEL, src=SRC_ST, line=226,
               thread=thread, **st)
        tb = traceback()
        j.wlog(at + 0.4, w, T.instruction_error('process_bundle-%d' % (3 + attempt * 4), tb), sev='ERROR',
               src=SRC_HFT, cite=HFT, module='apache_beam/runners/worker/sdk_worker.py', line=303, thread=thread,
               step=STEP, mark=mark)
        if msg:
            j.msg(at + 2.4, T.worker_error_msg(tb, STEP), sev='ERROR', src=SRC_HFT,
                  cite="Error message from worker: … ValueError: Fast download using 'hf_transfer' is enabled …",
                  mark=(mark + '-msg') if mark else None)
        attempt += 1

    for k in range(6):
        fail_once(t + 2 + k * 95.0, w0, 'Thread-%d' % (21 + k), mark='hft' if k == 0 else None, msg=k in (0, 3))
    t += 2 + 6 * 95.0
    j.msg(t, 'Autoscaling: Raised the number of workers to 2 so that the pipeline can catch up with its backlog '
             'and keep up with its input rate.', src=SRC_AUTOSCALE)
    t2 = N.full_worker_boot(j, w1, cf, t + 58.0)
    for k in range(4):
        fail_once(t2 + 6 + k * 95.0, w1, 'Thread-%d' % (17 + k), msg=k == 0)
        fail_once(t2 + 40 + k * 95.0, w0, 'Thread-%d' % (27 + k))
    t = t2 + 6 + 4 * 95.0
    j.msg(t + 30, 'Autoscaling: Raised the number of workers to 3 so that the pipeline can catch up with its '
                  'backlog and keep up with its input rate.', src=SRC_AUTOSCALE)
    j.msg(t + 92, "Startup of the worker pool in zone europe-west4-b failed to bring up any of the desired 1 "
                  "workers. Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors"
                  "#worker-pool-failure for help troubleshooting. QUOTA_EXCEEDED: Instance "
                  "'kb-article-embedder-02052341-x7k2-harness-q8zd' creation failed: Quota 'NVIDIA_L4_GPUS' "
                  "exceeded. Limit: 2.0 in region europe-west4.", sev='ERROR', src='ml-starter-quota', mark='quota')
    for k in range(2):
        fail_once(t + 140 + k * 95.0, w1, 'Thread-%d' % (22 + k))
        fail_once(t + 175 + k * 95.0, w0, 'Thread-%d' % (32 + k))
    c.output('export.json')
    c.no_unexplained()
    c.fire('hf-transfer-missing', marks=['hft', 'hft-msg'])
    c.fire('autoscaling-capacity-short', marks=['quota'], caused_by=None,
           captures={'zone': 'europe-west4-b', 'reason': 'QUOTA_EXCEEDED', 'desired': '1'})
    c.not_fire('hf-hub-unreachable', 'hf-hub-access-denied', 'hf-hub-rate-limited', 'gpu-quota-exceeded',
               'work-item-failed', 'workflow-failed', 'python-module-missing', 'gpu-not-used')
