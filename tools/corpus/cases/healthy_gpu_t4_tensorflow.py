from corpuslib import noise as N


def build(c):
    c.describe('''
        Healthy GPU batch job: TensorFlow RunInference on two n1-standard-8 workers with one
        Tesla T4 each, install-nvidia-driver set, one SDK process per worker
        (no_use_multiple_sdk_containers). The system log shows the COS GPU driver install, the
        SDK containers log "Created TensorFlow device ... GPU:0 ... Tesla T4", the job runs 21
        minutes and the worker pool is stopped. Kubelet/system lines the Dataflow docs call
        benign are present. Nothing may fire.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2,
               max_workers=2, experiments=['no_use_multiple_sdk_containers'],
               image='us-central1-docker.pkg.dev/acme-ml-prod/dataflow/tf-infer:2.14-gpu',
               disk=50)
    j = c.job('tf-embed-images-nightly', '2024-03-11T13:12:41Z', region='us-central1',
              zone='us-central1-b', python='3.10', beam='2.53.0', workers=2)
    ready = N.bring_up(j, cf, tf=True)
    for i, w in enumerate(j.w):
        j.wlog(ready + 30 + i, w, 'Loaded model from gs://acme-ml-dataflow/models/resnet50/3',
               src='user-code', module='/opt/pipeline/embed.py:57', sdk='sdk-0-0')
    end = ready + 1260
    for w in j.w:
        N.sdk_shutdown(j, w, end - 40)
    N.teardown(j, cf, end)
    c.output('export.json')
    c.not_fire('gpu-driver-missing', 'gpu-not-used', 'gpu-out-of-memory',
               'cuda-libraries-missing', 'multiple-processes-per-gpu')
