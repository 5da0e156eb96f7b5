from corpuslib import noise as N, texts as T

STEP = 'EmbedDocuments'
STEPS = ['S01:ReadDocuments/Read+EmbedDocuments+WriteEmbeddings/Write']
REPO = 'BAAI/bge-large-en-v1.5'
SP = T.sp('3.11')
URL = 'https://huggingface.co/%s/resolve/main/config.json' % REPO
TIMEOUT = ("(MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: "
           "/%s/resolve/main/config.json (Caused by ConnectTimeoutError(<urllib3.connection.HTTPSConnection "
           "object at 0x7f3a2c1d0e50>, 'Connection to huggingface.co timed out. (connect timeout=10)'))\"), "
           "'(Request ID: %s)')")
SRC_RETRY = ('huggingface/huggingface_hub src/huggingface_hub/utils/_http.py http_backoff (v0.36, HEAD retried, '
             'PR #3377): logger.warning("\'%s\' thrown while requesting %s %s", …) and "Retrying in %ss [Retry %s/%s]."; '
             'huggingface/lerobot#2566 (the object address and request ids adapted)', 'V-code')
SRC_HUB = ('huggingface/huggingface_hub file_download.py _raise_on_head_call_error (v0.17+): "An error happened '
           'while trying to locate the file on the Hub and we cannot find the requested files in the local cache. '
           '…", chained from the ConnectTimeout; transformers utils/hub.py cached_files (4.57.1): "We couldn\'t '
           'connect to \'https://huggingface.co\' to load the files, and couldn\'t find them in the cached files. '
           '/ Check your internet connection …", as huggingface/transformers#41775 quotes it', 'V-code')


def traceback(rid):
    lines = [
        'Traceback (most recent call last):',
        '  File "%s/urllib3/connection.py", line 198, in _new_conn' % SP,
        '    sock = connection.create_connection(',
        '  File "%s/urllib3/util/connection.py", line 73, in create_connection' % SP,
        '    sock.connect(sa)',
        'TimeoutError: timed out',
        '',
        'The above exception was the direct cause of the following exception:',
        '',
        'Traceback (most recent call last):',
        '  File "%s/requests/adapters.py", line 667, in send' % SP,
        '    resp = conn.urlopen(',
        '  File "%s/urllib3/util/retry.py", line 519, in increment' % SP,
        '    raise MaxRetryError(_pool, url, reason) from reason  # type: ignore[arg-type]',
        "urllib3.exceptions.MaxRetryError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded "
        "with url: /%s/resolve/main/config.json (Caused by ConnectTimeoutError(<urllib3.connection.HTTPSConnection "
        "object at 0x7f3a2c1d0e50>, 'Connection to huggingface.co timed out. (connect timeout=10)'))" % REPO,
        '',
        'During handling of the above exception, another exception occurred:',
        '',
        'Traceback (most recent call last):',
        '  File "%s/huggingface_hub/file_download.py", line 1546, in _get_metadata_or_catch_error' % SP,
        '    metadata = get_hf_file_metadata(',
        '  File "%s/requests/adapters.py", line 688, in send' % SP,
        '    raise ConnectTimeout(e, request=request)',
        'requests.exceptions.ConnectTimeout: ' + TIMEOUT % (REPO, rid),
        '',
        'The above exception was the direct cause of the following exception:',
        '',
        'Traceback (most recent call last):',
        '  File "%s/transformers/utils/hub.py", line 479, in cached_files' % SP,
        '    hf_hub_download(',
        '  File "%s/huggingface_hub/file_download.py", line 1652, in _raise_on_head_call_error' % SP,
        '    raise LocalEntryNotFoundError(',
        'huggingface_hub.errors.LocalEntryNotFoundError: An error happened while trying to locate the file on '
        'the Hub and we cannot find the requested files in the local cache. Please check your connection and '
        'try again or make sure your Internet connection is on.',
        '',
        'The above exception was the direct cause of the following exception:',
        '',
        'Traceback (most recent call last):',
        '  File "%s/apache_beam/runners/common.py", line 1498, in process' % SP,
        '    return self.do_fn_invoker.invoke_process(windowed_value)',
        '  File "/app/embed.py", line 31, in setup',
        '    self._model = SentenceTransformer("%s", device="cuda")' % REPO,
        '  File "%s/sentence_transformers/SentenceTransformer.py", line 327, in __init__' % SP,
        '    modules, self.module_kwargs = self._load_sbert_model(',
        '  File "%s/transformers/utils/hub.py", line 543, in cached_files' % SP,
        '    raise OSError(',
        "OSError: We couldn't connect to 'https://huggingface.co' to load the files, and couldn't find them in "
        "the cached files.",
        "Check your internet connection or see how to run the library in offline mode at "
        "'https://huggingface.co/docs/transformers/installation#offline-mode'.",
        '',
        'During handling of the above exception, another exception occurred:',
        '',
        'Traceback (most recent call last):',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 300, in _execute' % SP,
        '    response = task()',
        "OSError: We couldn't connect to 'https://huggingface.co' to load the files, and couldn't find them in "
        "the cached files. [while running '%s']" % STEP,
    ]
    return '\n'.join(lines)


def build(c):
    c.describe('''
        The model hub out of reach (issue 40, models and the hub): a sentence-transformers embedding
        DoFn on a T4 worker, launched with --no_use_public_ips into a subnetwork with Private Google
        Access and no Cloud NAT. The DoFn's setup asks huggingface.co for BAAI/bge-large-en-v1.5;
        huggingface_hub 0.36 retries the HEAD five times with its "thrown while requesting HEAD …
        Retrying in Ns" WARNINGs (a near miss: the same retries precede a success when the network
        only hiccups), then raises LocalEntryNotFoundError, which Transformers 4.57 turns into
        "We couldn't connect to 'https://huggingface.co' to load the files". Four attempts, the job
        fails. hf-hub-unreachable fires with the endpoint and its first fix names Cloud NAT in the
        job's region, because the options say use_public_ips False. Exported as Cloud Storage sink
        shards (NDJSON, unordered).''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS,
               extra_options={'use_public_ips': False, 'subnetwork': 'regions/us-east1/subnetworks/dataflow-private'})
    j = c.job('doc-embeddings-backfill', '2026-02-11T14:02:10Z', region='us-east1',
              zone='us-east1-c', python='3.11', beam='2.67.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 30
    http = dict(module='huggingface_hub/utils/_http.py', line=306)
    for attempt in range(4):
        thread = 'Thread-%d' % (11 + attempt)
        for k in range(5):
            rid = '2b7c1e0a-4d3f-4a55-9f1e-8c2d7b6a5e%02d' % (attempt * 10 + k)
            j.wlog(t, j.w[0], "'%s' thrown while requesting HEAD %s" % (TIMEOUT % (REPO, rid), URL),
                   sev='WARNING', src=SRC_RETRY, thread=thread, **http)
            j.wlog(t + 0.01, j.w[0], 'Retrying in %ds [Retry %d/5].' % (2 ** k, k + 1), sev='WARNING',
                   src=SRC_RETRY, thread=thread, module='huggingface_hub/utils/_http.py', line=316)
            t += 10 + 2 ** k
        j.wlog(t + 10, j.w[0], T.instruction_error('process_bundle-%d' % (1 + attempt),
                                                   traceback('2b7c1e0a-4d3f-4a55-9f1e-8c2d7b6a5eff')),
               sev='ERROR', src=SRC_HUB, cite="We couldn't connect to 'https://huggingface.co'",
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread=thread, step=STEP,
               mark='unreachable' if attempt == 0 else None)
        t += 30.0
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export-000000000000.ndjson')
    c.fire('hf-hub-unreachable', marks=['unreachable'], captures={'endpoint': 'https://huggingface.co'})
    c.fire('work-item-failed', marks=['wif'], caused_by='hf-hub-unreachable')
    c.fire('workflow-failed', marks=['wif'], caused_by='hf-hub-unreachable')
    c.not_fire('hf-hub-access-denied', 'gpu-not-used')
