from corpuslib import noise as N, texts as T

STEP = 'TranslateReviews'
STAGE = 'S01:ReadReviews/Read+TranslateReviews+WriteTranslations/Write'
SP = T.sp('3.10')
ERR = ('ValueError: This tokenizer cannot be instantiated. Please make sure you have `sentencepiece` installed in '
       'order to use this tokenizer.')
SRC_TOK = ('huggingface/transformers src/transformers/models/auto/tokenization_auto.py AutoTokenizer.from_pretrained '
           '("This tokenizer cannot be instantiated. Please make sure you have `sentencepiece` installed in order to '
           'use this tokenizer.", since transformers#8881): a Marian model has only SentencePiece vocabularies and '
           'no fast tokenizer, and without sentencepiece its slow class is not available (a public write-up of '
           'Helsinki-NLP/opus-mt-fr-en quotes the error); frames composed from transformers and Beam frames', 'V-code')
SRC_HUB_WARN = ('huggingface_hub file_download.py FutureWarning "`resume_download` is deprecated and will be removed in '
                'version 1.0.0 …" (haotian-liu/LLaVA#1522 log): a near miss', 'V-other')


def build(c):
    c.describe('''
        A tokenizer dependency missing from the image (issue 40, models): a review-translation DoFn
        loads Helsinki-NLP/opus-mt-de-en with AutoTokenizer and MarianMTModel on a T4 worker. The
        custom image was built from a requirements file with torch and transformers only. Marian
        tokenizers exist only as SentencePiece models, and without the sentencepiece package
        transformers has no class to build: "ValueError: This tokenizer cannot be instantiated. Please
        make sure you have `sentencepiece` installed in order to use this tokenizer." in setup(), on
        each of four attempts, relayed by the job message; the job fails.
        tokenizer-dependency-missing fires and names sentencepiece. Red herrings: pip's dependency
        resolver complaint on stderr at ERROR while the image starts (the run goes on), and
        huggingface_hub's `resume_download` FutureWarning.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE],
               image='europe-west1-docker.pkg.dev/shopfront-ml/dataflow/translate:2025.09')
    j = c.job('reviews-de-en-translation', '2025-09-23T09:15:44Z', region='europe-west1', zone='europe-west1-b',
              python='3.10', beam='2.61.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    j.docker(ready - 40.0, w, "ERROR: pip's dependency resolver does not currently take into account all the "
             'packages that are installed. This behaviour is the source of the following dependency conflicts.',
             sev='ERROR', src='pip-resolver')
    j.docker(ready - 39.999, w, 'google-cloud-aiplatform 1.71.1 requires shapely<3.0.0dev, but you have shapely '
             '2.1.1 which is incompatible.', sev='ERROR', src='pip-resolver')
    t = ready + 9
    j.wlog(t, w, '%s/huggingface_hub/file_download.py:1142: FutureWarning: `resume_download` is deprecated and '
           'will be removed in version 1.0.0. Downloads always resume when possible. If you want to force a new '
           'download, use `force_download=True`.' % SP, sev='WARNING', src=SRC_HUB_WARN,
           module='%s/huggingface_hub/file_download.py' % SP, line=1142)
    tb = T.user_tb('3.10', [
        '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._invoke_setup',
        '  File "/app/translate.py", line 34, in setup',
        '    self.tokenizer = AutoTokenizer.from_pretrained(MODEL_ID)',
        '  File "%s/transformers/models/auto/tokenization_auto.py", line 939, in from_pretrained' % SP,
        '    raise ValueError(',
    ], ERR + " [while running '%s']" % STEP)
    t = N.failed_attempts(j, t + 3, w, tb, STEP, src=SRC_TOK,
                          cite='ValueError: This tokenizer cannot be instantiated. Please make sure you have '
                               '`sentencepiece` installed …', gap=24.0, mark='tok',
                          msg_cite='Error message from worker: … This tokenizer cannot be instantiated. Please make '
                                   'sure you have `sentencepiece` installed …')
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('tokenizer-dependency-missing', marks=['tok', 'tok-msg'], captures={'library': 'sentencepiece'})
    c.fire('work-item-failed', marks=['wif'], caused_by='tokenizer-dependency-missing')
    c.fire('workflow-failed', marks=['wif'], caused_by='tokenizer-dependency-missing')
    c.no_unexplained()
    c.not_fire('remote-code-package-missing', 'python-module-missing', 'pip-install-failed',
               'transformers-architecture-unknown', 'import-name-version-skew')
