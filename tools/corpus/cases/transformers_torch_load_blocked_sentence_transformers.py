from corpuslib import noise as N, texts as T

STEP = 'EmbedClauses'
STEPS = ['S01:ReadContracts/Read+SplitClauses+EmbedClauses+WriteVectors/Write']
SP = T.sp('3.11')
REQ = '/var/opt/google/staged/requirements.txt'
MODEL_DIR = '/models/clause-mpnet-ft-v4'
GATE = ('ValueError: Due to a serious vulnerability issue in `torch.load`, even with `weights_only=True`, we now '
        'require users to upgrade torch to at least v2.6 in order to use the function. This version restriction '
        'does not apply when loading files with safetensors.\nSee the vulnerability report here '
        'https://nvd.nist.gov/vuln/detail/CVE-2025-32434')
SRC_GATE = ('huggingface/transformers src/transformers/utils/import_utils.py check_torch_load_is_safe (PR #37785, '
            'released in 4.52; the same text in 4.56): raise ValueError("Due to a serious vulnerability issue in '
            '`torch.load`, even with `weights_only=True`, we now require users to upgrade torch to at least v2.6 '
            '…\\nSee the vulnerability report here https://nvd.nist.gov/vuln/detail/CVE-2025-32434"), called from '
            'modeling_utils.py load_state_dict, as public tracebacks show it (autogluon/autogluon#5270, '
            'castorini/rank_llm#398); the sentence-transformers frames (SentenceTransformer.__init__ → '
            '_load_sbert_model → models/Transformer.py _load_model → AutoModel.from_pretrained) after its source, '
            'line numbers composed', 'V-code')
SRC_PIP = ('pip\'s install output at the SDK container\'s start ("Collecting … (from -r …requirements.txt (line N))", '
           '"Attempting uninstall", "Successfully installed …"), standard pip wording; the versions resolved '
           '(sentence-transformers 5.1.1, transformers 4.56.2) are chosen, [I]', 'V-code')
SRC_INFO = ('the pipeline\'s own INFO lines (composed)', 'I')


def traceback():
    return T.augmented_tb('3.11', [
        '  File "/app/clauses/embed.py", line 41, in setup',
        '    self._encoder = SentenceTransformer(MODEL_DIR, device="cuda")',
        '  File "%s/sentence_transformers/SentenceTransformer.py", line 327, in __init__' % SP,
        '    modules, self.module_kwargs = self._load_sbert_model(',
        '  File "%s/sentence_transformers/SentenceTransformer.py", line 2229, in _load_sbert_model' % SP,
        '    module = module_class.load(module_path, **module_kwargs)',
        '  File "%s/sentence_transformers/models/Transformer.py", line 95, in __init__' % SP,
        '    self._load_model(model_name_or_path, config, cache_dir, backend, is_peft_model, **model_args)',
        '  File "%s/sentence_transformers/models/Transformer.py", line 161, in _load_model' % SP,
        '    self.auto_model = AutoModel.from_pretrained(',
        '  File "%s/transformers/models/auto/auto_factory.py", line 604, in from_pretrained' % SP,
        '    return model_class.from_pretrained(',
        '  File "%s/transformers/modeling_utils.py", line 288, in _wrapper' % SP,
        '    return func(*args, **kwargs)',
        '  File "%s/transformers/modeling_utils.py", line 5106, in from_pretrained' % SP,
        '    ) = cls._load_pretrained_model(',
        '  File "%s/transformers/modeling_utils.py", line 5382, in _load_pretrained_model' % SP,
        '    load_state_dict(checkpoint_files[0], map_location="meta", weights_only=weights_only).keys()',
        '  File "%s/transformers/modeling_utils.py", line 512, in load_state_dict' % SP,
        '    check_torch_load_is_safe()',
        '  File "%s/transformers/utils/import_utils.py", line 1651, in check_torch_load_is_safe' % SP,
        '    raise ValueError(',
    ], GATE, STEP)


def build(c):
    c.describe('''
        transformers' torch.load safety check (CVE-2025-32434) reached through sentence-transformers, in
        a Cloud Storage sink export (NDJSON): a contract-clause embedding job runs on an L4 with an image
        built in 2024 on pytorch/pytorch:2.4.1-cuda12.1-cudnn9-runtime (torch 2.4.1+cu121,
        sentence-transformers 3.0.1, transformers 4.44.2). The job also stages a requirements file
        saying only sentence-transformers>=3.0; at worker start pip upgrades it to 5.1.1, which pulls
        transformers 4.56.2 over the image's 4.44.2. The team's fine-tuned MPNet in /models was saved as
        pytorch_model.bin without safetensors, so SentenceTransformer(...) in EmbedClauses.setup() ends in
        AutoModel.from_pretrained → load_state_dict → check_torch_load_is_safe: "ValueError: Due to a
        serious vulnerability issue in `torch.load`, even with `weights_only=True`, we now require users
        to upgrade torch to at least v2.6 …". Four attempts, the job fails. transformers-torch-load-blocked
        leads; work-item-failed and workflow-failed fold under it. Near misses: the same setup() first
        loads a small reranker that has model.safetensors and logs it on cuda:0, and the pipeline's own
        note that the image's torch is 2.4.1; torch-load-weights-only (PyTorch 2.6's own refusal) and
        transformers-torch-too-old (4.56 accepts torch 2.4) stay quiet.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS, disk=100,
               image='us-central1-docker.pkg.dev/lexgrid-ml/beam/clause-embed:2024-11-19',
               extra_options={'requirements_file': 'requirements.txt'})
    j = c.job('clause-vectors-weekly', '2025-10-06T02:00:31Z', region='us-central1', zone='us-central1-b',
              project='lexgrid-ml', python='3.11', beam='2.60.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 3
    for k, line in enumerate([
            'Collecting sentence-transformers>=3.0 (from -r %s (line 1))' % REQ,
            'Collecting transformers<5.0.0,>=4.41.0 (from sentence-transformers>=3.0->-r %s (line 1))' % REQ,
            'Installing collected packages: transformers, sentence-transformers',
            '  Attempting uninstall: transformers',
            '    Found existing installation: transformers 4.44.2',
            '    Uninstalling transformers-4.44.2:',
            '      Successfully uninstalled transformers-4.44.2',
            '  Attempting uninstall: sentence-transformers',
            '    Found existing installation: sentence-transformers 3.0.1']):
        j.docker(t + k * 0.4, w, line, src=SRC_PIP)
    j.docker(t + 9.0, w, 'Successfully installed sentence-transformers-5.1.1 transformers-4.56.2', src=SRC_PIP)
    t += 16
    j.wlog(t, w, 'EmbedClauses.setup: torch 2.4.1+cu121 | cuda available: True | device: NVIDIA L4',
           src=SRC_INFO, module='/app/clauses/embed.py', line=33)
    j.wlog(t + 4.2, w, 'Reranker loaded from /models/rerank-mini-l6 (model.safetensors) on cuda:0',
           src=SRC_INFO, module='/app/clauses/embed.py', line=38)
    t = N.failed_attempts(j, t + 6.5, w, traceback(), STEP, src=SRC_GATE,
                          cite='ValueError: Due to a serious vulnerability issue in `torch.load`, even with '
                               '`weights_only=True`, we now require users to upgrade torch to at least v2.6 …',
                          gap=33.0, mark='gate',
                          msg_cite='Error message from worker: … ValueError: Due to a serious vulnerability '
                                   'issue in `torch.load` …')
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [w] * 4)
    c.output('export.ndjson')
    c.no_unexplained()
    c.fire('transformers-torch-load-blocked', marks=['gate', 'gate-msg'], captures={'required': '2.6'})
    c.fire('work-item-failed', marks=['wif'], caused_by='transformers-torch-load-blocked')
    c.fire('workflow-failed', marks=['wif'], caused_by='transformers-torch-load-blocked')
    c.not_fire('torch-load-weights-only', 'transformers-torch-too-old', 'python-module-missing',
               'pip-install-failed', 'gpu-not-used', 'gpu-driver-missing')
