from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
STEPS = ['S01:ReadImages/Read+Decode+RunInference/BeamML_RunInference+WriteScores/Write']
SP = T.sp('3.11')
SA = 'img-scoring@acme-risk-prod.iam.gserviceaccount.com'
SRC_403 = ('googleapis/python-storage via google-api-core: "google.api_core.exceptions.Forbidden: 403 GET '
           'https://storage.googleapis.com/storage/v1/b/…/o/…?projection=noAcl&prettyPrint=false: <principal> does '
           'not have storage.objects.get access to the Google Cloud Storage object. Permission '
           '\'storage.objects.get\' denied on resource (or it may not exist)." as leap-stc/cmip6-leap-feedstock#87 and '
           'ansible-collections/google.cloud#575 print it; apache/beam gcsio.py (2.55 on) reads a blob through '
           'the client, RunInference\'s PyTorch handler opens the state dict with FileSystems.open (frames from '
           'apache_beam/ml/inference/pytorch_inference.py _load_model; line numbers ours)', 'V-code')


def build(c):
    c.describe('''
        The model's bucket is not readable by the workers (issue 40, models): an image-scoring job on
        T4 workers runs as its own service account (--service_account_email), which was never given a
        role on the model registry's bucket of another project. RunInference's PyTorch model handler
        opens gs://acme-model-registry/fraud/resnet50_v7.pt in setup and Cloud Storage answers "403
        GET …: img-scoring@… does not have storage.objects.get access to the Google Cloud Storage
        object. Permission 'storage.objects.get' denied on resource (or it may not exist)." — on
        each of four attempts; the job fails. cloud-storage-read-denied leads, and its first fix is
        the gcloud command that grants that account Storage Object Viewer on that bucket; "(or it may
        not exist)" does not make it a missing file.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS,
               extra_options={'service_account_email': SA})
    j = c.job('fraud-image-scoring-0412', '2026-04-12T06:30:11Z', region='us-east1', zone='us-east1-c',
              project='acme-risk-prod', python='3.11', beam='2.61.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 18
    err = ("google.api_core.exceptions.Forbidden: 403 GET https://storage.googleapis.com/storage/v1/b/"
           "acme-model-registry/o/fraud%2Fresnet50_v7.pt?projection=noAcl&prettyPrint=false: " + SA +
           " does not have storage.objects.get access to the Google Cloud Storage object. Permission "
           "'storage.objects.get' denied on resource (or it may not exist).")
    tb = T.user_tb('3.11', [
        '  File "%s/apache_beam/ml/inference/base.py", line 1569, in setup' % SP,
        '    self._model = self._load_model()',
        '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 103, in _load_model' % SP,
        '    file = FileSystems.open(state_dict_path, \'rb\')',
        '  File "%s/apache_beam/io/gcp/gcsio.py", line 262, in open' % SP,
        '    return BeamBlobReader(blob, chunk_size=read_buffer_size, enable_read_bucket_metric=self.enable_read_bucket_metric)',
        '  File "%s/google/cloud/storage/blob.py", line 1260, in reload' % SP,
        '    api_response = client._get_resource(',
    ], err)
    N.failing_attempts(j, cf, w, t, tb, STEP, STEPS[0], SRC_403, 'denied', 31.0, thread_base=12)
    c.output('export.json')
    c.fire('cloud-storage-read-denied', marks=['denied'],
           captures={'principal': SA, 'permission': 'storage.objects.get', 'bucket': 'acme-model-registry',
                     'object': 'fraud%2Fresnet50_v7.pt'})
    c.fire('work-item-failed', marks=['wif'], caused_by='cloud-storage-read-denied')
    c.fire('workflow-failed', marks=['wif'], caused_by='cloud-storage-read-denied')
    c.not_fire('hf-hub-access-denied', 'gpu-not-used')
    c.no_unexplained()
