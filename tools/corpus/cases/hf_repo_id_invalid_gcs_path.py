from corpuslib import noise as N, texts as T

STEP = 'ClassifyReviews'
STAGE = 'S01:ReadReviews/Read+ClassifyReviews+WriteLabels/Write'
SP = T.sp('3.11')
GCS = 'gs://acme-ml-models/sentiment/deberta-v3-ft'
HFV = ("huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or "
       "'namespace/repo_name': '%s'. Use `repo_type` argument if needed." % GCS)
SRC_HFV = ('huggingface/huggingface_hub src/huggingface_hub/utils/_validators.py validate_repo_id (the form '
           'check; huggingface_hub.errors from 0.23), as a public Cloud Run note shows it for a gs:// Gemma path; '
           'transformers 4.5x re-raises it from utils/hub.py cached_files (frames composed)', 'V-code')
SRC_DL = ('transformers/huggingface_hub download progress line for a Hub model (tqdm "config.json: 100%|…|"), '
          'a near miss from the job\'s tokenizer step', 'V-other')


def build(c):
    c.describe('''
        A Cloud Storage path passed to from_pretrained (issue 40, model hub): a review classifier's
        DoFn.setup() calls AutoModelForSequenceClassification.from_pretrained("gs://acme-ml-models/
        sentiment/deberta-v3-ft"). transformers does not read gs://, the string is not a local folder,
        so huggingface_hub validates it as a Hub repo id and rejects it: "HFValidationError: Repo id
        must be in the form 'repo_name' or 'namespace/repo_name': 'gs://…'". Setup fails on every
        attempt, the job message repeats it, four attempts fail the job. hf-repo-id-invalid fires and
        names the path. A near miss in the same export: the tokenizer (a real Hub id) downloads its
        config.json normally.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE])
    j = c.job('review-sentiment-deberta', '2026-02-23T15:00:04Z', region='us-central1',
              zone='us-central1-f', python='3.11', beam='2.64.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 30
    j.docker_lines(t - 15, j.w[0], ['tokenizer_config.json: 100%|##########| 1.28k/1.28k [00:00<00:00, 9.87MB/s]'],
                   src=SRC_DL, sev='ERROR')
    tb = T.user_tb('3.11', [
        '  File "%s/apache_beam/runners/common.py", line 1562, in _invoke_setup' % SP,
        '    self.do_fn_invoker.invoke_setup()',
        '  File "/app/classify.py", line 52, in setup',
        '    self._model = AutoModelForSequenceClassification.from_pretrained(self._model_path).to("cuda")',
        '  File "%s/transformers/models/auto/auto_factory.py", line 513, in from_pretrained' % SP,
        '    resolved_config_file = cached_file(',
        '  File "%s/transformers/utils/hub.py", line 322, in cached_file' % SP,
        '    file = cached_files(path_or_repo_id=path_or_repo_id, filenames=[filename], **kwargs)',
        '  File "%s/transformers/utils/hub.py", line 531, in cached_files' % SP,
        '    raise e',
        '  File "%s/huggingface_hub/utils/_validators.py", line 160, in validate_repo_id' % SP,
        '    raise HFValidationError(',
    ], HFV + " [while running '%s']" % STEP)
    t = N.failed_attempts(j, t, j.w[0], tb, STEP, src=SRC_HFV, cite='Repo id must be in the form', gap=35.0,
                          mark='hfv',
                          msg_cite="Error message from worker: … Repo id must be in the form … 'gs://…'")
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [j.w[0]] * 4)
    c.output('export.json')
    c.fire('hf-repo-id-invalid', marks=['hfv', 'hfv-msg'], captures={'repo_id': GCS})
    c.fire('work-item-failed', marks=['wif'], caused_by='hf-repo-id-invalid')
    c.fire('workflow-failed', marks=['wif'], caused_by='hf-repo-id-invalid')
    c.not_fire('hf-hub-access-denied', 'hf-hub-unreachable', 'cloud-storage-read-denied')
