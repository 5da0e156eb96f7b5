from corpuslib import noise as N, texts as T

STEP = 'Summarise'
STEPS = ['S01:ReadTickets/Read+Summarise+WriteSummaries/Write']
REPO = 'meta-llama/Llama-3.2-1B-Instruct'
HUB = ('huggingface_hub.errors.GatedRepoError: 401 Client Error. (Request ID: '
       'Root=1-6751c2a9-41d3e0b27c5a19f46e0d2b8c;9f2a61c4-0c3b-4d8e-a5f1-7b2e9d4c1a06)\n\n'
       'Cannot access gated repo for url https://huggingface.co/%s/resolve/main/config.json.\n'
       'Access to model %s is restricted. You must have access to it and be authenticated to access it. '
       'Please log in.' % (REPO, REPO))
SRC_HUB = ('huggingface/huggingface_hub utils/_http.py hf_raise_for_status (0.25+) and the Hub\'s late-2024 '
           'wording of its second line, as ToTheBeginning/PuLID#97 and sgl-project/sglang#14644 quote it '
           '(the request id adapted)', 'V-code')
SRC_TF = ('huggingface/transformers utils/hub.py cached_file (≈4.38+): "You are trying to access a gated '
          'repo.\\nMake sure to have access to it at …" around the hub error; huggingface/transformers#31367',
          'V-code')
SRC_XET = ('huggingface/huggingface_hub file_download.py (0.30+): the hf_xet fallback WARNING, a near miss '
           'that every download without the package prints', 'V-code')
SP = T.sp('3.11')


def traceback():
    hub = [
        'Traceback (most recent call last):',
        '  File "%s/huggingface_hub/utils/_http.py", line 409, in hf_raise_for_status' % SP,
        '    response.raise_for_status()',
        '  File "%s/requests/models.py", line 1024, in raise_for_status' % SP,
        '    raise HTTPError(http_error_msg, response=self)',
        'requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: '
        'https://huggingface.co/%s/resolve/main/config.json' % REPO,
        '',
        'The above exception was the direct cause of the following exception:',
        '',
        'Traceback (most recent call last):',
        '  File "%s/transformers/utils/hub.py", line 424, in cached_files' % SP,
        '    hf_hub_download(',
        '  File "%s/huggingface_hub/file_download.py", line 1010, in hf_hub_download' % SP,
        '    return _hf_hub_download_to_cache_dir(',
        '  File "%s/huggingface_hub/utils/_http.py", line 426, in hf_raise_for_status' % SP,
        '    raise _format(GatedRepoError, message, response) from e',
    ] + HUB.split('\n') + [
        '',
        'The above exception was the direct cause of the following exception:',
        '',
        'Traceback (most recent call last):',
        '  File "%s/apache_beam/runners/common.py", line 1498, in process' % SP,
        '    return self.do_fn_invoker.invoke_process(windowed_value)',
        '  File "/app/summarise.py", line 27, in setup',
        '    self._pipe = pipeline("text-generation", model="%s", device=0)' % REPO,
        '  File "%s/transformers/pipelines/__init__.py", line 812, in pipeline' % SP,
        '    config = AutoConfig.from_pretrained(',
        '  File "%s/transformers/utils/hub.py", line 543, in cached_files' % SP,
        '    raise OSError(',
        'OSError: You are trying to access a gated repo.',
        'Make sure to have access to it at https://huggingface.co/%s.' % REPO,
    ] + HUB.split('\n')[0].split(': ', 1)[1:] + HUB.split('\n')[1:] + [
        '',
        'During handling of the above exception, another exception occurred:',
        '',
        'Traceback (most recent call last):',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 300, in _execute' % SP,
        '    response = task()',
        "OSError: You are trying to access a gated repo. [while running '%s']" % STEP,
    ]
    return '\n'.join(hub)


def build(c):
    c.describe('''
        A gated model without a token on the workers (issue 40, models and the hub): a DoFn's setup
        builds a Transformers text-generation pipeline for meta-llama/Llama-3.2-1B-Instruct on an
        L4 worker. The launching notebook was logged in to the Hub; the workers are not, so the Hub
        answers 401 and huggingface_hub raises "GatedRepoError: 401 Client Error. … Cannot access
        gated repo for url …", which Transformers wraps in "OSError: You are trying to access a
        gated repo." and Beam re-raises with the step. Four attempts, then the job fails.
        hf-hub-access-denied fires with the repository; the hf_xet fallback WARNING each download
        prints is a near miss.''')
    cf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('ticket-summaries', '2025-12-03T09:30:04Z', region='europe-west1',
              zone='europe-west1-b', python='3.11', beam='2.66.0', workers=1)
    ready = N.bring_up(j, cf)
    tb = traceback()
    t = ready + 40
    for attempt in range(4):
        j.wlog(t - 3, j.w[0], "Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed. "
               "Falling back to regular HTTP download. For better performance, install the package with: "
               "`pip install huggingface_hub[hf_xet]` or `pip install hf_xet`", sev='WARNING', src=SRC_XET,
               module='huggingface_hub/file_download.py', line=1696, thread='Thread-%d' % (11 + attempt))
        j.wlog(t, j.w[0], T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR',
               src=SRC_HUB, cite='Cannot access gated repo for url', module='apache_beam/runners/worker/sdk_worker.py',
               line=303, thread='Thread-%d' % (11 + attempt), step=STEP, mark='gated' if attempt == 0 else None)
        t += 45.0
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json')
    c.fire('hf-hub-access-denied', marks=['gated'], captures={'repo': REPO})
    c.fire('work-item-failed', marks=['wif'], caused_by='hf-hub-access-denied')
    c.fire('workflow-failed', marks=['wif'], caused_by='hf-hub-access-denied')
    c.not_fire('gpu-out-of-memory', 'gpu-not-used')
