from corpuslib import noise as N, texts as T

STEP = 'TagEntities'
STEPS = ['S01:ReadClaims/Read+CleanText+TagEntities+WriteEntities/Write']
SP = T.sp('3.10')
REQ = '/var/opt/google/staged/requirements.txt'
DISABLE = '[transformers] Disabling PyTorch because PyTorch >= 2.4 is required but found 2.2.2+cu121'
NOTICE = ("[transformers] PyTorch was not found. Models won't be available and only tokenizers, configuration and "
          "file/data utilities can be used.")
IMPORT_ERR = ('AutoModelForTokenClassification requires the PyTorch library but it was not found in your '
              'environment. Check out the instructions on the')
SRC_DISABLE = ('huggingface/transformers src/transformers/utils/import_utils.py is_torch_available() of 5.x: '
               'logger.warning_once(f"Disabling PyTorch because PyTorch >= 2.4 is required but found '
               '{torch_version}"), printed with the "[transformers] " prefix public 5.x logs show, then the '
               'import notice "PyTorch was not found. Models won\'t be available and only tokenizers, configuration '
               'and file/data utilities can be used." (a Kokoro container log shows the pair for 2.3.1+cu121); the '
               'torch version is this image\'s', 'V-code')
SRC_IMPORT = ('huggingface/transformers import_utils.py DummyObject.__getattribute__ → requires_backends → '
              'PYTORCH_IMPORT_ERROR ("ImportError: \\n{0} requires the PyTorch library but it was not found in your '
              'environment. Check out the instructions on the\\ninstallation page: https://pytorch.org/get-started/'
              'locally/ and follow the ones that match your environment.\\nPlease note that you may need to restart '
              'your runtime after installation."), as a public traceback shows it for AutoModel; the import_utils '
              'line numbers and the pipeline frames composed', 'V-code')
SRC_PIP = ('pip\'s install output at the SDK container\'s start ("Collecting … (from -r …requirements.txt (line N))", '
           '"Attempting uninstall", "Found existing installation", "Successfully uninstalled", "Successfully '
           'installed …"), standard pip wording; the resolved versions (transformers 5.1.0, huggingface-hub 1.3.4, '
           'tokenizers 0.22.1) are chosen, [I]', 'V-code')
SRC_RESOLVER = ('pip\'s resolver note "ERROR: pip\'s dependency resolver does not currently take into account all '
                'the packages that are installed. This behaviour is the source of the following dependency '
                'conflicts." with a "… requires transformers<5.0.0,>=4.41.0, but you have transformers 5.1.0 which '
                'is incompatible." line (sentence-transformers 3.x pins transformers<5); packages composed', 'V-code')
SRC_INFO = ('the pipeline\'s own INFO line (composed)', 'I')


def traceback():
    return T.augmented_tb('3.10', [
        '  File "/app/claims/entities.py", line 37, in setup',
        '    self._model = AutoModelForTokenClassification.from_pretrained(MODEL_DIR).to("cuda").eval()',
        '  File "%s/transformers/utils/import_utils.py", line 2121, in __getattribute__' % SP,
        '    requires_backends(cls, cls._backends)',
        '  File "%s/transformers/utils/import_utils.py", line 2107, in requires_backends' % SP,
        '    raise ImportError("".join(failed))',
    ], 'ImportError: \n' + IMPORT_ERR + '\ninstallation page: https://pytorch.org/get-started/locally/ and follow '
       'the ones that match your environment.\nPlease note that you may need to restart your runtime after '
       'installation.\n', STEP)


def build(c):
    c.describe('''
        transformers newer than the image's PyTorch (dependency drift at worker start): the team's T4 image
        was built in December 2024 with torch 2.2.2+cu121, transformers 4.46.3 and sentence-transformers 3.2.1,
        and the job also stages a requirements file that only says transformers>=4.40. At worker start pip
        resolves it to the newest release, transformers 5.1.0 (with huggingface-hub 1.x), over the image's
        4.46.3; pip's resolver ERROR names sentence-transformers' transformers<5 pin, not torch. On import
        transformers 5 logs "[transformers] Disabling PyTorch because PyTorch >= 2.4 is required but found
        2.2.2+cu121" and "PyTorch was not found. Models won't be available …" on stderr (the docker log), and
        TagEntities.setup() fails with the misleading "ImportError: AutoModelForTokenClassification requires
        the PyTorch library but it was not found in your environment" — while the DoFn's own line, logged just
        before, says torch 2.2.2+cu121 sees the T4. Four attempts, the job fails. transformers-torch-too-old
        leads with both versions and claims the ImportError, which it only takes after the disabling line;
        work-item-failed and workflow-failed fold under it. Red herrings: the resolver ERROR, pip's install
        lines, the healthy torch/GPU line; the GPU rules and pip-install-failed stay quiet.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS, disk=80,
               image='us-east1-docker.pkg.dev/harbor-claims/ml/claims-ner:2024-12-02',
               extra_options={'requirements_file': 'requirements.txt'})
    j = c.job('claims-entity-backfill-q3', '2026-02-12T15:04:51Z', region='us-east1', zone='us-east1-c',
              python='3.10', beam='2.55.1', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 3
    for k, line in enumerate([
            'Collecting transformers>=4.40 (from -r %s (line 1))' % REQ,
            'Collecting huggingface-hub<2.0,>=1.3.0 (from transformers>=4.40->-r %s (line 1))' % REQ,
            'Collecting tokenizers<=0.23.0,>=0.22.0 (from transformers>=4.40->-r %s (line 1))' % REQ,
            'Installing collected packages: huggingface-hub, tokenizers, transformers',
            '  Attempting uninstall: transformers',
            '    Found existing installation: transformers 4.46.3',
            '    Uninstalling transformers-4.46.3:',
            '      Successfully uninstalled transformers-4.46.3']):
        j.docker(t + k * 0.5, w, line, src=SRC_PIP)
    j.docker(t + 11.0, w, "ERROR: pip's dependency resolver does not currently take into account all the packages "
             "that are installed. This behaviour is the source of the following dependency conflicts.\n"
             "sentence-transformers 3.2.1 requires transformers<5.0.0,>=4.41.0, but you have transformers 5.1.0 "
             "which is incompatible.", sev='ERROR', src=SRC_RESOLVER)
    j.docker(t + 11.6, w, 'Successfully installed huggingface-hub-1.3.4 tokenizers-0.22.1 transformers-5.1.0',
             src=SRC_PIP)
    t += 18
    j.wlog(t, w, 'TagEntities.setup: torch 2.2.2+cu121 | cuda available: True | device: Tesla T4',
           src=SRC_INFO, module='/app/claims/entities.py', line=33)
    j.docker(t + 0.6, w, DISABLE, sev='ERROR', src=SRC_DISABLE, mark='disable')
    j.docker(t + 0.61, w, NOTICE, sev='ERROR', src=SRC_DISABLE)
    tb = traceback()
    t = N.failed_attempts(j, t + 2, w, tb, STEP, src=SRC_IMPORT,
                          cite='ImportError: AutoModelForTokenClassification requires the PyTorch library but it '
                               'was not found in your environment.',
                          gap=29.0, mark='importerr',
                          msg_cite='Error message from worker: … AutoModelForTokenClassification requires the '
                                   'PyTorch library but it was not found in your environment.')
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [w] * 4)
    c.output('export.json')
    c.no_unexplained()
    c.fire('transformers-torch-too-old', marks=['disable', 'importerr', 'importerr-msg'],
           captures={'required': '2.4', 'found': '2.2.2+cu121'})
    c.fire('work-item-failed', marks=['wif'], caused_by='transformers-torch-too-old')
    c.fire('workflow-failed', marks=['wif'], caused_by='transformers-torch-too-old')
    c.not_fire('python-module-missing', 'import-name-version-skew', 'pip-install-failed', 'gpu-driver-missing',
               'gpu-not-used', 'torch-cpu-only-build', 'cuda-extension-abi-mismatch')
