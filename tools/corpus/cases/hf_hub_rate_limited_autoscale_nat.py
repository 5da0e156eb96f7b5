from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
STAGE = 'S02:ReadCatalog/Read+Tokenize+RunInference/BeamML_RunInference+WriteEmbeddings/Write'
REPO = 'BAAI/bge-large-en-v1.5'
SP = T.sp('3.11')
URL_HEAD = 'https://huggingface.co/%s/resolve/main/config.json' % REPO
URL_GET = 'https://huggingface.co/%s/resolve/main/model.safetensors' % REPO
ERR = '429 Client Error: Too Many Requests for url: %s' % URL_GET
SRC_RETRY = ('huggingface/huggingface_hub src/huggingface_hub/utils/_http.py http_backoff (v0.3x): '
             'logger.warning("HTTP Error {status} thrown while requesting {method} {url}") and "Retrying in '
             '{s}s [Retry {n}/{max}]."; huggingface/huggingface_hub#3312 and #3342 (retry warnings of many '
             'workers, the URL and times adapted)', 'V-code')
SRC_429 = ('huggingface/transformers src/transformers/utils/hub.py cached_files: "There was a specific '
           'connection error when trying to load {repo}:\\n{err}" around huggingface_hub\'s HfHubHTTPError '
           '"429 Client Error: Too Many Requests for url: …" (requests\' raise_for_status wording), as '
           'huggingface/transformers#21129 quotes it; the frames above it composed from Beam\'s '
           'huggingface_inference.py and transformers\' from_pretrained', 'V-code')
SRC_XET = ('huggingface_hub file_download.py: "Xet Storage is enabled for this repo, but the \'hf_xet\' '
           'package is not installed. Falling back to regular HTTP download. …" (an advisory; '
           'axolotl-ai-cloud/axolotl#2481)', 'V-other')
SRC_AUTOSCALE = ('Dataflow job message "Autoscaling: Raised the number of workers to N based on the rate of '
                 'progress in the currently running stage(s)." (docs/facts.md, autoscaling rows)', 'V')
SRC_ROOT = ('huggingface/huggingface_hub utils/_http.py hf_raise_for_status: _format(HfHubHTTPError, str(e), '
            'response) adds " (Request ID: …)"; the chain requests.HTTPError → HfHubHTTPError as Python prints '
            'a raise … from e (composition of real frames)', 'V-code')


def traceback(rid, instr_step):
    lines = [
        'Traceback (most recent call last):',
        '  File "%s/huggingface_hub/utils/_http.py", line 409, in hf_raise_for_status' % SP,
        '    response.raise_for_status()',
        '  File "%s/requests/models.py", line 1024, in raise_for_status' % SP,
        '    raise HTTPError(http_error_msg, response=self)',
        'requests.exceptions.HTTPError: ' + ERR,
        '',
        'The above exception was the direct cause of the following exception:',
        '',
        'Traceback (most recent call last):',
        '  File "%s/transformers/utils/hub.py", line 479, in cached_files' % SP,
        '    hf_hub_download(',
        '  File "%s/huggingface_hub/file_download.py", line 1010, in hf_hub_download' % SP,
        '    return _hf_hub_download_to_cache_dir(',
        '  File "%s/huggingface_hub/file_download.py", line 1171, in _hf_hub_download_to_cache_dir' % SP,
        '    _download_to_tmp_and_move(',
        '  File "%s/huggingface_hub/file_download.py", line 379, in http_get' % SP,
        '    r = _request_wrapper(',
        '  File "%s/huggingface_hub/utils/_http.py", line 482, in hf_raise_for_status' % SP,
        '    raise _format(HfHubHTTPError, str(e), response) from e',
        'huggingface_hub.errors.HfHubHTTPError: %s (Request ID: Root=1-69a4f1c2-%s)' % (ERR, rid),
        '',
        'During handling of the above exception, another exception occurred:',
        '',
        'Traceback (most recent call last):',
        '  File "%s/apache_beam/runners/common.py", line 1498, in process' % SP,
        '    return self.do_fn_invoker.invoke_process(windowed_value)',
        '  File "%s/apache_beam/ml/inference/base.py", line 1564, in _load_model' % SP,
        '    model = self._model_handler.load_model()',
        '  File "%s/apache_beam/ml/inference/huggingface_inference.py", line 301, in load_model' % SP,
        '    model = self._model_class.from_pretrained(',
        '  File "%s/transformers/modeling_utils.py", line 4900, in from_pretrained' % SP,
        '    checkpoint_files, sharded_metadata = _get_resolved_checkpoint_files(',
        '  File "%s/transformers/utils/hub.py", line 557, in cached_files' % SP,
        '    raise OSError(',
        'OSError: There was a specific connection error when trying to load %s:' % REPO,
        '%s (Request ID: Root=1-69a4f1c2-%s) [while running \'%s\']' % (ERR, rid, instr_step),
    ]
    return '\n'.join(lines)


def build(c):
    c.describe('''
        The model hub's rate limit (issue 40, models and the hub): a batch embedding job on G2 workers
        (one L4 each, 8 vCPUs: several SDK processes per worker) with Beam's Hugging Face model handler,
        which loads BAAI/bge-large-en-v1.5 from the Hub in every SDK process, anonymously (no HF_TOKEN).
        The workers have no external IPs (use_public_ips False) and reach the Hub through one Cloud NAT
        address. The first worker loads the model (huggingface_hub logs a few "HTTP Error 429 thrown
        while requesting HEAD …" / "Retrying in 1s [Retry 1/5]." WARNINGs, then succeeds: a near miss).
        Autoscaling raises the job to 6 workers; their SDK processes ask for the same files within a
        minute and the Hub answers 429. After its retries huggingface_hub raises HfHubHTTPError "429
        Client Error: Too Many Requests for url: https://huggingface.co/…/model.safetensors", which
        Transformers wraps in "OSError: There was a specific connection error when trying to load …";
        the same work item fails on four workers and the job fails. hf-hub-rate-limited fires and
        explains the work-item failure. Red herrings: "connection error" tempts a network diagnosis
        (hf-hub-unreachable) although the NAT works — the first worker downloaded the model; the
        hf_xet advisory; the usual kubelet/system ERROR chatter.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=6,
               sdk_procs=1, steps=[STAGE],
               extra_options={'use_public_ips': False,
                              'subnetwork': 'regions/us-east4/subnetworks/dataflow-private'})
    j = c.job('catalog-embed-backfill', '2026-01-19T06:20:11Z', region='us-east4', zone='us-east4-c',
              python='3.11', beam='2.66.0', workers=6)
    w0 = j.w[0]
    ready = N.bring_up(j, cf, workers=[w0])
    t = ready + 12
    http = dict(module='huggingface_hub/utils/_http.py', line=476, thread='Thread-9')
    j.wlog(t, w0, "Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed. Falling "
           "back to regular HTTP download. For better performance, install the package with: `pip install "
           "huggingface_hub[hf_xet]` or `pip install hf_xet`", sev='WARNING', src=SRC_XET,
           module='huggingface_hub/file_download.py', line=1720, thread='Thread-9')
    for k in range(2):
        j.wlog(t + 1 + k * 3, w0, 'HTTP Error 429 thrown while requesting HEAD %s' % URL_HEAD, sev='WARNING',
               src=SRC_RETRY, **http)
        j.wlog(t + 1.01 + k * 3, w0, 'Retrying in %ds [Retry %d/5].' % (2 ** k, k + 1), sev='WARNING',
               src=SRC_RETRY, module='huggingface_hub/utils/_http.py', line=516, thread='Thread-9')
    j.wlog(t + 40, w0, 'Embedding model %s loaded on cuda:0 (NVIDIA L4)' % REPO, src='user-code',
           module='/opt/pipeline/embed/handlers.py', line=44)
    # autoscaling: five more workers boot while the first works
    t_scale = t + 120
    j.msg(t_scale, 'Autoscaling: Raised the number of workers to 6 based on the rate of progress in the '
          'currently running stage(s).', src=SRC_AUTOSCALE)
    ends = []
    for i, w in enumerate(j.w[1:]):
        ends.append(N.full_worker_boot(j, w, cf, t_scale + 30 + i * 4.1))
    t = max(ends) + 8
    # the new workers' SDK processes all hit the Hub at once
    for i, w in enumerate(j.w[1:]):
        for k in range(5):
            j.wlog(t + i * 0.7 + k * (2 ** k), w, 'HTTP Error 429 thrown while requesting GET %s' % URL_GET,
                   sev='WARNING', src=SRC_RETRY, **http)
            j.wlog(t + i * 0.7 + k * (2 ** k) + 0.01, w, 'Retrying in %ds [Retry %d/5].' % (2 ** k, k + 1),
                   sev='WARNING', src=SRC_RETRY, module='huggingface_hub/utils/_http.py', line=516,
                   thread='Thread-9')
    t += 40
    failing = [j.w[1], j.w[3], j.w[2], j.w[5]]
    for attempt, w in enumerate(failing):
        rid = '5d0e7b3a6c1f4e2d9a8b%04d' % (attempt * 7 + 13)
        tb = traceback(rid, STEP)
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (3 + attempt), tb), sev='ERROR', src=SRC_429,
               cite='OSError: There was a specific connection error when trying to load %s: %s' % (REPO, ERR),
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (21 + attempt),
               step=STEP, mark='ratelimit' if attempt == 0 else None)
        j.msg(t + 2.0, T.worker_error_msg(tb, STEP), sev='ERROR', src=SRC_ROOT,
              cite='Error message from worker: … 429 Client Error: Too Many Requests for url: …',
              mark='ratelimit-msg' if attempt == 0 else None)
        t += 24.0
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, failing, n=6)
    c.output('export.json')
    c.no_unexplained()
    c.fire('hf-hub-rate-limited', marks=['ratelimit', 'ratelimit-msg'], captures={'repo': REPO})
    c.fire('work-item-failed', marks=['wif'], caused_by='hf-hub-rate-limited')
    c.fire('workflow-failed', marks=['wif'], caused_by='hf-hub-rate-limited')
    c.not_fire('hf-hub-unreachable', 'hf-hub-access-denied', 'hf-repo-id-invalid', 'gpu-not-used')
