from corpuslib import noise as N, texts as T

STEP = 'EmbedPassages'
STEPS = ['S01:ReadPassages/Read+LoadEvalQueries+EmbedPassages+WriteVectors/Write']
SP = T.sp('3.11')
MODEL = 'jinaai/jina-embeddings-v3'
ERR = ('ValueError: The repository %s contains custom code which must be executed to correctly load the model. '
       'You can inspect the repository content at https://hf.co/%s .\n'
       ' You can inspect the repository content at https://hf.co/%s.\n'
       'Please pass the argument `trust_remote_code=True` to allow custom code to be run.' % (MODEL, MODEL, MODEL))
SRC = ('huggingface/transformers src/transformers/dynamic_module_utils.py resolve_trust_remote_code (4.46 on: '
       'error_message "The repository {model_name} contains custom code which must be executed to correctly load '
       'the model. You can inspect the repository content at https://hf.co/{model_name} .\\n", then " You can '
       'inspect …\\nPlease pass the argument `trust_remote_code=True` to allow custom code to be run."), reached '
       'from AutoModel.from_pretrained through AutoConfig.from_pretrained (configuration_auto.py) for a config '
       'with auto_map; the same three lines as vLLM 0.11 relays them for another model (evdcush/vllm-openwebui '
       'gotchas.md); frames and line numbers composed', 'V-code')
SRC_DS = ('huggingface/datasets src/datasets/load.py (2.16-2.20): FutureWarning "The repository for {repo} contains '
          'custom code which must be executed to correctly load the dataset. …", as public lm-eval logs print it '
          '(dataset name ours): a dataset script, another library', 'V-other')


def build(c):
    c.describe('''
        A model whose Hub repository needs its own code, loaded without trust_remote_code (issue 40,
        the model hub): a passage-embedding batch job switches its DoFn to jinaai/jina-embeddings-v3
        and calls AutoModel.from_pretrained(MODEL_ID) in setup() on a T4 worker, as it did for the
        previous, natively supported model. The repository's config.json maps AutoConfig to its own
        configuration file, and transformers 4.5x refuses — off a terminal the interactive prompt
        cannot run — with "ValueError: The repository jinaai/jina-embeddings-v3 contains custom code
        which must be executed to correctly load the model … Please pass the argument
        `trust_remote_code=True` to allow custom code to be run.", four times, and the job fails.
        hf-trust-remote-code-required leads, not a generic error and not remote-code-package-missing.
        A near miss in the same export: another DoFn's datasets FutureWarning about a dataset
        repository's custom code (a dataset script, which loads on).''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('passage-vectors-jina-v3', '2025-09-03T06:12:44Z', region='us-east1', zone='us-east1-c',
              python='3.11', beam='2.66.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 14
    j.wlog(t - 6, w, '/usr/local/lib/python3.11/site-packages/datasets/load.py:1461: FutureWarning: The repository '
           'for acme_eval_queries contains custom code which must be executed to correctly load the dataset. You can '
           'inspect the repository content at https://hf.co/datasets/acme_eval_queries\nYou can avoid this message '
           'in future by passing the argument `trust_remote_code=True`.\nPassing `trust_remote_code=True` will be '
           'mandatory to load this dataset from the next major release of `datasets`.\n  warnings.warn(',
           sev='WARNING', src=SRC_DS, module='/usr/local/lib/python3.11/warnings.py', thread='Thread-9',
           mark='dataset-warning', cite='FutureWarning: The repository for … contains custom code which must be '
           'executed to correctly load the dataset.')
    tb = T.augmented_tb('3.11', [
        '  File "apache_beam/runners/common.py", line 1566, in apache_beam.runners.common.DoFnRunner.setup',
        '  File "/app/vectors/embed.py", line 31, in setup',
        '    self.model = AutoModel.from_pretrained(MODEL_ID, torch_dtype=torch.float16).to("cuda").eval()',
        '  File "%s/transformers/models/auto/auto_factory.py", line 531, in from_pretrained' % SP,
        '    config, kwargs = AutoConfig.from_pretrained(',
        '  File "%s/transformers/models/auto/configuration_auto.py", line 1162, in from_pretrained' % SP,
        '    trust_remote_code = resolve_trust_remote_code(',
        '  File "%s/transformers/dynamic_module_utils.py", line 735, in resolve_trust_remote_code' % SP,
        '    raise ValueError(',
    ], ERR, STEP)
    N.failing_attempts(j, cf, w, t, tb, STEP, STEPS[0], SRC, 'trust', 33.0)
    c.output('export.json')
    c.fire('hf-trust-remote-code-required', marks=['trust'], captures={'repo': MODEL})
    c.fire('work-item-failed', marks=['wif'], caused_by='hf-trust-remote-code-required')
    c.fire('workflow-failed', marks=['wif'], caused_by='hf-trust-remote-code-required')
    c.not_fire('remote-code-package-missing', 'transformers-architecture-unknown', 'hf-hub-access-denied',
               'python-module-missing')
    c.no_unexplained()
