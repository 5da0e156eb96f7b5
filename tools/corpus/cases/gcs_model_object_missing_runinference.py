from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
STAGE = 'S01:ReadEvents/Read+Featurize+RunInference/BeamML_RunInference+WriteScores/Write'
SP = T.sp('3.11')
BUCKET = 'acme-ml-models'
OBJECT = 'churn-ranker/v12/model.pt'
NOTFOUND = ('google.api_core.exceptions.NotFound: 404 GET https://storage.googleapis.com/storage/v1/b/'
            'acme-ml-models/o/churn-ranker%2Fv12%2Fmodel.pt?projection=noAcl&prettyPrint=false: No such object: '
            'acme-ml-models/churn-ranker/v12/model.pt')
SRC_404 = ('googleapis/python-storage via google-api-core exceptions.from_http_response: "404 GET https://storage.'
           'googleapis.com/storage/v1/b/…/o/…?projection=noAcl&prettyPrint=false: No such object: B/O" (the metadata '
           'GET of Blob.reload(), as public logs quote it); apache/beam gcsio.py BeamBlobReader calls blob.reload() on '
           'open, RunInference\'s PyTorch handler opens the state dict with FileSystems.open (frames composed from '
           'apache_beam/ml/inference/pytorch_inference.py _load_model and gcsio.py; line numbers ours)', 'V-code')
SRC_RETRY = ('apache/beam apache_beam/utils/retry.py with_exponential_backoff: WARNING "Retry with exponential '
             'backoff: waiting for %s seconds before retrying %s because we caught exception: %s" (the wording of '
             'apache/beam#19899), here around the pipeline\'s own config reader whose object is written moments later '
             'by the exporter; the call then succeeds (composed)', 'I')
SRC_URLLIB = ('urllib3 connectionpool DEBUG request line \'https://storage.googleapis.com:443 "GET /storage/v1/b/…?'
              'projection=noAcl&prettyPrint=false HTTP/1.1" 404 171\' as a public integration-test log shows it: an '
              'exists() probe answered 404 (composed object name)', 'V-other')
SRC_LIST = ('apache/beam gcsio.py list_files: INFO "Finished listing %s files in %s seconds." (healthy)', 'V-code')


def build(c):
    c.describe('''
        The model path on Cloud Storage does not exist (issue 40, models): a churn-scoring job on T4
        workers runs RunInference with a PyTorch model handler whose state_dict_path is
        gs://acme-ml-models/churn-ranker/v12/model.pt. The training job that was to export v12 wrote
        model_state.pt instead, so when the handler opens the file in setup, Beam's gcsio
        (google-cloud-storage) answers "NotFound: 404 GET …/o/churn-ranker%2Fv12%2Fmodel.pt…: No such
        object: acme-ml-models/churn-ranker/v12/model.pt"; four attempts fail the same way and the job
        fails. cloud-storage-object-missing leads and names the bucket and the object; its first fix is
        the gcloud storage ls command on that path. Red herrings: the pipeline's own config reader
        retries a 404 once (Beam's retry WARNING) and then finds its file; a DEBUG urllib3 line of a 404
        answered to an exists() probe; Beam's healthy listing line. No 403 appears, so
        cloud-storage-read-denied stays quiet.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE])
    j = c.job('churn-scoring-daily-0519', '2026-05-19T03:10:07Z', region='us-central1', zone='us-central1-a',
              project='acme-ml-prod', python='3.11', beam='2.61.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 12
    j.wlog(t, w, 'Finished listing 24 files in 0.31 seconds.', src=SRC_LIST,
           module='apache_beam/io/gcp/gcsio.py', line=601)
    j.wlog(t + 2, w, 'https://storage.googleapis.com:443 "GET /storage/v1/b/acme-ml-models/o/churn-ranker%2Fv12%2F'
           '_SUCCESS?projection=noAcl&prettyPrint=false HTTP/1.1" 404 171', sev='DEBUG', src=SRC_URLLIB,
           module='urllib3/connectionpool.py', line=546)
    j.wlog(t + 4, w, 'Retry with exponential backoff: waiting for 2.871 seconds before retrying read_run_config '
           'because we caught exception: google.api_core.exceptions.NotFound: 404 GET https://storage.googleapis.com/'
           'download/storage/v1/b/acme-ml-models/o/churn-ranker%2Fruns%2F2026-05-19.json?alt=media: No such object: '
           'acme-ml-models/churn-ranker/runs/2026-05-19.json: (\'Request failed with status code\', 404, \'Expected '
           'one of\', <HTTPStatus.OK: 200>, <HTTPStatus.PARTIAL_CONTENT: 206>)', sev='WARNING', src=SRC_RETRY,
           module='apache_beam/utils/retry.py', line=298)
    j.wlog(t + 8, w, 'Loaded run config gs://acme-ml-models/churn-ranker/runs/2026-05-19.json (model_version=v12)',
           src='user-code', module='/app/churn/config.py', line=41)
    tb = T.user_tb('3.11', [
        '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._invoke_setup',
        '  File "%s/apache_beam/ml/inference/base.py", line 1569, in setup' % SP,
        '    self._model = self._load_model()',
        '  File "%s/apache_beam/ml/inference/base.py", line 1534, in _load_model' % SP,
        '    model = self._shared_model_handle.acquire(load, tag=self._cur_tag)',
        '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 103, in _load_model' % SP,
        '    file = FileSystems.open(state_dict_path, \'rb\')',
        '  File "%s/apache_beam/io/gcp/gcsio.py", line 262, in open' % SP,
        '    return BeamBlobReader(',
        '  File "%s/apache_beam/io/gcp/gcsio.py", line 736, in __init__' % SP,
        '    blob.reload()',
        '  File "%s/google/cloud/storage/blob.py", line 1262, in reload' % SP,
        '    api_response = client._get_resource(',
        '  File "%s/google/cloud/storage/client.py", line 461, in _get_resource' % SP,
        '    return self._connection.api_request(',
        '  File "%s/google/cloud/_http/__init__.py", line 494, in api_request' % SP,
        '    raise exceptions.from_http_response(response)',
    ], NOTFOUND + " [while running '%s']" % STEP)
    t = N.failed_attempts(j, t + 20, w, tb, STEP, src=SRC_404, cite='No such object: acme-ml-models/churn-ranker/v12/model.pt',
                          gap=38.0, mark='missing',
                          msg_cite='Error message from worker: … NotFound: 404 GET …: No such object: '
                                   'acme-ml-models/churn-ranker/v12/model.pt')
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('cloud-storage-object-missing', marks=['missing', 'missing-msg'],
           captures={'bucket': BUCKET, 'object': OBJECT})
    c.fire('work-item-failed', marks=['wif'], caused_by='cloud-storage-object-missing')
    c.fire('workflow-failed', marks=['wif'], caused_by='cloud-storage-object-missing')
    c.not_fire('cloud-storage-read-denied', 'hf-repo-id-invalid', 'gpu-not-used')
    c.no_unexplained()
