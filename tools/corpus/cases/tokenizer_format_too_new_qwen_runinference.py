from corpuslib import noise as N, texts as T

STEP = 'Summarize/BeamML_RunInference'
STAGE = 'S01:ReadTickets/Read+BuildPrompts+Summarize/BeamML_RunInference+WriteSummaries/Write'
SP = T.sp('3.10')
MODEL_GCS = 'gs://northwind-support-models/qwen25-7b-ticket-sum/v3'
ERR = 'Exception: data did not match any variant of untagged enum ModelWrapper at line 757443 column 3'
SRC_TOK = ('huggingface/tokenizers Tokenizer.from_file (Python bindings): serde\'s "data did not match any variant of '
           'untagged enum ModelWrapper" with serde_json\'s " at line N column M", raised as a plain Exception by '
           'tokenizers 0.19.x on a BPE model whose merges tokenizers 0.20+ wrote as pairs (line 757443 column 3 is '
           'the end of a Qwen2.5 tokenizer\'s model object, as kvcache-ai/ktransformers#433 quotes it); frames '
           'composed from transformers 4.41 (tokenization_auto.py, tokenization_utils_base.py, '
           'models/qwen2/tokenization_qwen2_fast.py, tokenization_utils_fast.py line 111 as public tracebacks show '
           'it) and apache/beam ml/inference/base.py; line numbers plausible, not exact', 'V-code')
SRC_STDERR = ('apache/beam sdks/python/apache_beam/runners/worker/sdk_worker.py _execute: the traceback printed to '
              'stderr, one docker entry per line (apache/beam PR #33317); the same composed traceback', 'V-code')
SRC_HANDLER = ('the custom model handler\'s own INFO lines (copy from Cloud Storage, the checkpoint\'s config.json '
               'summary, the image\'s library versions): composed', 'I')
SRC_HUB_WARN = ('huggingface_hub file_download.py FutureWarning "`resume_download` is deprecated and will be removed '
                'in version 1.0.0 …" (haotian-liu/LLaVA#1522 log): printed while a side model is fetched, harmless',
                'V-other')


def build(c):
    c.describe('''
        A tokenizer saved by a newer tokenizers than the worker image has (issue 40, version skew): a
        support-ticket summarization job runs RunInference with a custom model handler that copies a
        Qwen2.5-7B fine-tune from Cloud Storage to local disk and loads it with AutoTokenizer and
        AutoModelForCausalLM on an L4. The fine-tune was saved in January 2025 with transformers 4.47.1
        (config.json transformers_version), whose tokenizers 0.21 writes the BPE merges as pairs; the
        image (ticket-summarizer:2024.06) pins transformers 4.41.2 with tokenizers 0.19.1, which reads
        only the older "a b" strings. Qwen2TokenizerFast's TokenizerFast.from_file raises "Exception:
        data did not match any variant of untagged enum ModelWrapper at line 757443 column 3" in
        load_model; the worker log has it in "Error processing instruction …", stderr has the same
        traceback one line per docker entry, the job message repeats it, and four attempts fail the
        job. tokenizer-format-too-new fires with ModelWrapper and the line and column. Red herrings:
        pip's dependency resolver ERROR while the container starts (the run goes on), huggingface_hub's
        `resume_download` FutureWarning from a side download, and the handler's own lines naming the
        versions. The model type is known to this transformers (qwen2), so
        transformers-architecture-unknown stays quiet, as do the tokenizer-dependency and Hub rules.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE], disk=200,
               image='us-east4-docker.pkg.dev/northwind-support/dataflow/ticket-summarizer:2024.06')
    j = c.job('ticket-summaries-backfill-jan', '2025-02-03T08:20:11Z', region='us-east4', zone='us-east4-a',
              project='northwind-support', python='3.10', beam='2.57.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    j.docker(ready - 38.0, w, "ERROR: pip's dependency resolver does not currently take into account all the "
             'packages that are installed. This behaviour is the source of the following dependency conflicts.',
             sev='ERROR', src='pip-resolver')
    j.docker(ready - 37.999, w, 'google-cloud-aiplatform 1.49.0 requires shapely<3.0.0dev, but you have shapely '
             '2.1.1 which is incompatible.', sev='ERROR', src='pip-resolver')
    t = ready + 6
    j.wlog(t, w, 'Summarizer image: torch 2.3.0+cu121, transformers 4.41.2, tokenizers 0.19.1', src=SRC_HANDLER,
           module='/app/summarize/handler.py', line=52, thread='Thread-11', step=STEP)
    j.wlog(t + 4, w, '%s/huggingface_hub/file_download.py:1132: FutureWarning: `resume_download` is deprecated and '
           'will be removed in version 1.0.0. Downloads always resume when possible. If you want to force a new '
           'download, use `force_download=True`.' % SP, sev='WARNING', src=SRC_HUB_WARN,
           module='%s/huggingface_hub/file_download.py' % SP, line=1132, thread='Thread-11')
    j.wlog(t + 188, w, 'Copied %s to /tmp/model (4 safetensors shards, 15.2 GB, 182 s)' % MODEL_GCS,
           src=SRC_HANDLER, module='/app/summarize/handler.py', line=61, thread='Thread-11', step=STEP)
    j.wlog(t + 189, w, 'config.json: architectures=[\'Qwen2ForCausalLM\'], model_type=qwen2, torch_dtype=bfloat16, '
           'transformers_version=4.47.1', src=SRC_HANDLER, module='/app/summarize/handler.py', line=64,
           thread='Thread-11', step=STEP)
    tb = T.user_tb('3.10', [
        '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._invoke_setup',
        '  File "%s/apache_beam/ml/inference/base.py", line 1490, in setup' % SP,
        '    self._model = self._load_model()',
        '  File "%s/apache_beam/ml/inference/base.py", line 1456, in _load_model' % SP,
        '    model = self._shared_model_handle.acquire(load, tag=self._cur_tag)',
        '  File "%s/apache_beam/utils/shared.py", line 312, in acquire' % SP,
        '    return _shared_map.acquire(self._key, constructor_fn, tag)',
        '  File "%s/apache_beam/utils/shared.py", line 246, in acquire' % SP,
        '    result = control_block.acquire(constructor_fn, tag)',
        '  File "%s/apache_beam/utils/shared.py", line 139, in acquire' % SP,
        '    result = constructor_fn()',
        '  File "%s/apache_beam/ml/inference/base.py", line 1431, in load' % SP,
        '    model = self._model_handler.load_model()',
        '  File "/app/summarize/handler.py", line 67, in load_model',
        '    tokenizer = AutoTokenizer.from_pretrained(LOCAL_DIR)',
        '  File "%s/transformers/models/auto/tokenization_auto.py", line 880, in from_pretrained' % SP,
        '    return tokenizer_class.from_pretrained(pretrained_model_name_or_path, *inputs, **kwargs)',
        '  File "%s/transformers/tokenization_utils_base.py", line 2089, in from_pretrained' % SP,
        '    return cls._from_pretrained(',
        '  File "%s/transformers/tokenization_utils_base.py", line 2311, in _from_pretrained' % SP,
        '    tokenizer = cls(*init_inputs, **init_kwargs)',
        '  File "%s/transformers/models/qwen2/tokenization_qwen2_fast.py", line 120, in __init__' % SP,
        '    super().__init__(',
        '  File "%s/transformers/tokenization_utils_fast.py", line 111, in __init__' % SP,
        '    fast_tokenizer = TokenizerFast.from_file(fast_tokenizer_file)',
    ], ERR + " [while running '%s']" % STEP)
    t += 196
    j.docker_lines(t + 0.01, w, tb.split('\n'), sev='ERROR', src=SRC_STDERR, mark='stderr',
                   cite='Traceback (most recent call last): … (stderr copy, one entry per line)')
    t = N.failed_attempts(j, t, w, tb, STEP, src=SRC_TOK,
                          cite=ERR + " [while running '%s']" % STEP, gap=205.0, mark='tok',
                          msg_cite='Error message from worker: … Exception: data did not match any variant of '
                                   'untagged enum ModelWrapper at line 757443 column 3 …')
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('tokenizer-format-too-new', marks=['tok', 'tok-msg'],
           captures={'component': 'ModelWrapper', 'line': '757443', 'column': '3'})
    c.fire('work-item-failed', marks=['wif'], caused_by='tokenizer-format-too-new')
    c.fire('workflow-failed', marks=['wif'], caused_by='tokenizer-format-too-new')
    c.not_fire('transformers-architecture-unknown', 'tokenizer-dependency-missing', 'import-name-version-skew',
               'hf-hub-unreachable', 'hf-repo-id-invalid', 'model-file-lfs-pointer', 'pip-install-failed')
    c.no_unexplained()
