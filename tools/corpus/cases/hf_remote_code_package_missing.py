from corpuslib import noise as N, texts as T

STEP = 'EmbedDocs'
STEPS = ['S01:ReadDocs/Read+EmbedDocs+WriteVectors/Write']
SP = T.sp('3.11')
SRC = ('huggingface/transformers src/transformers/dynamic_module_utils.py check_imports: "This modeling file requires '
       'the following packages that were not found in your environment: {}. Run `pip install {}`", reached from '
       'AutoModel.from_pretrained(…, trust_remote_code=True) through get_class_from_dynamic_module and '
       'get_cached_module_file (frames as public reports print them; line numbers ours); a Jina reranker and '
       'nomic-embed need einops', 'V-code')


def build(c):
    c.describe('''
        A model whose own code needs a package the image lacks (issue 40, the model hub): a
        document-embedding DoFn loads a hub model with trust_remote_code=True on an L4 worker; its
        modeling file imports einops, which the pipeline's requirements never listed. transformers
        refuses before running it — "ImportError: This modeling file requires the following packages
        that were not found in your environment: einops. Run `pip install einops`" — in setup, four
        times; the job fails. remote-code-package-missing leads with the package in its title and
        fix; it is not a generic import error.''')
    cf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('docs-embeddings-nomic', '2025-06-10T02:20:00Z', region='europe-west4', zone='europe-west4-a',
              python='3.11', beam='2.65.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 17
    err = ('ImportError: This modeling file requires the following packages that were not found in your environment: '
           'einops. Run `pip install einops`')
    tb = T.augmented_tb('3.11', [
        '  File "/app/embed/dofn.py", line 22, in setup',
        '    self.model = AutoModel.from_pretrained(MODEL_ID, trust_remote_code=True)',
        '  File "%s/transformers/models/auto/auto_factory.py", line 553, in from_pretrained' % SP,
        '    model_class = get_class_from_dynamic_module(',
        '  File "%s/transformers/dynamic_module_utils.py", line 540, in get_class_from_dynamic_module' % SP,
        '    final_module = get_cached_module_file(',
        '  File "%s/transformers/dynamic_module_utils.py", line 365, in get_cached_module_file' % SP,
        '    modules_needed = check_imports(resolved_module_file)',
        '  File "%s/transformers/dynamic_module_utils.py", line 197, in check_imports' % SP,
        '    raise ImportError(',
    ], err, STEP)
    N.failing_attempts(j, cf, w, t, tb, STEP, STEPS[0], SRC, 'missing', 27.0)
    c.output('export.json')
    c.fire('remote-code-package-missing', marks=['missing'], captures={'packages': 'einops'})
    c.fire('work-item-failed', marks=['wif'], caused_by='remote-code-package-missing')
    c.fire('workflow-failed', marks=['wif'], caused_by='remote-code-package-missing')
    c.not_fire('beam-pip-missing', 'pip-install-failed', 'numpy-abi-mismatch')
    c.no_unexplained()
