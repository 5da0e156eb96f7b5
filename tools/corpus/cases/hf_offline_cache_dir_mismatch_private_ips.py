from corpuslib import noise as N, texts as T

STEP = 'EmbedQueries'
STEPS = ['S01:ReadQueries/Read+EmbedQueries+WriteEmbeddings/Write']
PY = '3.12'
SP = T.sp(PY)
MODEL = 'intfloat/multilingual-e5-large'
IMAGE = 'us-east4-docker.pkg.dev/acme-search/dataflow/query-embed:2026.02.3'
WRAPPER = ("We couldn't connect to 'https://huggingface.co' to load the files, and couldn't find them in the "
           "cached files.\nCheck your internet connection or see how to run the library in offline mode at "
           "'https://huggingface.co/docs/transformers/installation#offline-mode'.")
OFFLINE = ("huggingface_hub.errors.LocalEntryNotFoundError: Cannot find the requested files in the disk cache and "
           "outgoing traffic has been disabled. To enable hf.co look-ups and downloads online, set "
           "'local_files_only' to False.")
SRC_HUB = ('huggingface/huggingface_hub src/huggingface_hub/file_download.py _raise_on_head_call_error (v0.36.0: '
           'local_files_only, which transformers forces when TRANSFORMERS_OFFLINE/HF_HUB_OFFLINE is set: "Cannot '
           'find the requested files in the disk cache and outgoing traffic has been disabled. …"); '
           'huggingface/transformers src/transformers/utils/hub.py cached_files (4.57.1: "We couldn\'t connect to '
           '\'https://huggingface.co\' to load the files, and couldn\'t find them in the cached files. / Check '
           'your internet connection …", raised from the LocalEntryNotFoundError); frame line numbers of the '
           'public 2025 traces (huggingface/transformers#41775), adapted', 'V-code')
SRC_DOFN = ('the pipeline\'s own DoFn: logs the load failure with logger.exception, then raises RuntimeError(…) '
            'from None (the chain is not repeated); its environment line at start-up (composition), [I]', 'I')


def chain():
    return '\n'.join([
        'Traceback (most recent call last):',
        '  File "%s/transformers/utils/hub.py", line 479, in cached_files' % SP,
        '    hf_hub_download(',
        '  File "%s/huggingface_hub/utils/_validators.py", line 114, in _inner_fn' % SP,
        '    return fn(*args, **kwargs)',
        '  File "%s/huggingface_hub/file_download.py", line 1007, in hf_hub_download' % SP,
        '    return _hf_hub_download_to_cache_dir(',
        '  File "%s/huggingface_hub/file_download.py", line 1114, in _hf_hub_download_to_cache_dir' % SP,
        '    _raise_on_head_call_error(head_call_error, force_download, local_files_only)',
        '  File "%s/huggingface_hub/file_download.py", line 1655, in _raise_on_head_call_error' % SP,
        '    raise LocalEntryNotFoundError(',
        OFFLINE,
        '',
        'The above exception was the direct cause of the following exception:',
        '',
        'Traceback (most recent call last):',
        '  File "%s/query_embed/dofn.py", line 44, in setup' % SP,
        '    self._tokenizer = AutoTokenizer.from_pretrained(MODEL_ID)',
        '  File "%s/transformers/models/auto/tokenization_auto.py", line 1093, in from_pretrained' % SP,
        '    config = AutoConfig.from_pretrained(',
        '  File "%s/transformers/models/auto/configuration_auto.py", line 1332, in from_pretrained' % SP,
        '    config_dict, unused_kwargs = PretrainedConfig.get_config_dict(pretrained_model_name_or_path, **kwargs)',
        '  File "%s/transformers/configuration_utils.py", line 662, in get_config_dict' % SP,
        '    config_dict, kwargs = cls._get_config_dict(pretrained_model_name_or_path, **kwargs)',
        '  File "%s/transformers/configuration_utils.py", line 721, in _get_config_dict' % SP,
        '    resolved_config_file = cached_file(',
        '  File "%s/transformers/utils/hub.py", line 322, in cached_file' % SP,
        '    file = cached_files(path_or_repo_id=path_or_repo_id, filenames=[filename], **kwargs)',
        '  File "%s/transformers/utils/hub.py", line 553, in cached_files' % SP,
        '    raise OSError(',
        'OSError: ' + WRAPPER,
    ])


def build(c):
    c.describe('''
        Hugging Face offline mode with the model in another cache (issue 40, models and the hub;
        the family of heldout-stacks-12's hs12-04, another variant): a query-embedding job runs
        its own image, built with "huggingface-cli download intfloat/multilingual-e5-large
        --cache-dir /opt/models/hub" and ENV TRANSFORMERS_OFFLINE=1, on T4 workers launched
        with --no_use_public_ips (no Cloud NAT). At run time the cache is the default
        /root/.cache/huggingface/hub, which is empty, so transformers 4.57 forces
        local_files_only and huggingface_hub 0.36 raises "Cannot find the requested files in
        the disk cache and outgoing traffic has been disabled", wrapped in "We couldn't connect to
        'https://huggingface.co'". The DoFn logs that chain with logger.exception and raises a
        RuntimeError from None that repeats only the wrapper's words, in a separate entry, four
        attempts. hf-hub-offline-cache-miss fires; hf-hub-unreachable stays quiet although the
        workers have no route to the internet and the wrapper blames the connection: offline mode
        never tried it. Near misses: the DoFn's environment line naming TRANSFORMERS_OFFLINE=1,
        transformers' INFO "Offline mode: forcing local_files_only=True". Exported with gcloud
        (JSON array, newest first).''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=3,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS, image=IMAGE,
               extra_options={'use_public_ips': False,
                              'subnetwork': 'regions/us-east4/subnetworks/dataflow-restricted'})
    j = c.job('query-embeddings-daily', '2026-02-24T06:15:41Z', region='us-east4',
              zone='us-east4-c', python=PY, beam='2.69.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    dofn = dict(module='query_embed/dofn.py', step=STEP)
    t = ready + 15
    for attempt in range(4):
        first = attempt == 0
        thread = 'Thread-%d' % (11 + attempt)
        j.wlog(t, w, 'Loading %s (TRANSFORMERS_OFFLINE=1, HF_HOME unset, cuda available: True, device: Tesla T4)'
               % MODEL, src=SRC_DOFN, line=39, thread=thread, **dofn)
        j.wlog(t + 0.1, w, 'Offline mode: forcing local_files_only=True', src=SRC_HUB,
               cite='Offline mode: forcing local_files_only=True', thread=thread,
               module='transformers/utils/hub.py', line=437, step=STEP)
        j.wlog(t + 0.6, w, 'Could not load %s from the local Hugging Face cache' % MODEL, sev='ERROR', src=SRC_HUB,
               cite=OFFLINE, exception=chain(), thread=thread, line=49, mark='offline' if first else None, **dofn)
        tb = T.augmented_tb(PY, [
            '  File "%s/query_embed/dofn.py", line 50, in setup' % SP,
            '    raise RuntimeError(f"model {MODEL_ID} could not be loaded on this worker: {e}") from None',
        ], 'RuntimeError: model %s could not be loaded on this worker: %s' % (MODEL, WRAPPER), STEP)
        j.wlog(t + 0.9, w, T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR', src=SRC_DOFN,
               cite='RuntimeError: model … could not be loaded on this worker: We couldn\'t connect …',
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread=thread, step=STEP,
               mark='dofn' if first else None)
        j.msg(t + 2.9, T.worker_error_msg(tb, STEP), sev='ERROR', src=SRC_DOFN,
              cite='Error message from worker: generic::unknown: … RuntimeError: model … could not be loaded …',
              mark='dofn-msg' if first else None)
        t += 40.0
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [w] * 4)
    c.output('export.json')
    c.fire('hf-hub-offline-cache-miss', marks=['offline'])
    c.fire('work-item-failed', marks=['wif'], caused_by='hf-hub-offline-cache-miss')
    c.fire('workflow-failed', marks=['wif'], caused_by='hf-hub-offline-cache-miss')
    c.not_fire('hf-hub-unreachable', 'hf-hub-rate-limited', 'hf-hub-access-denied', 'hf-repo-id-invalid',
               'gpu-not-used')
