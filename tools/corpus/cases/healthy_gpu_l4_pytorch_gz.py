from corpuslib import noise as N


def build(c):
    c.describe('''
        Healthy GPU job on L4 (g2-standard-8, install-nvidia-driver:latest, one SDK process):
        PyTorch RunInference over images; the COS installer lines show the driver install,
        the job processes for 35 minutes and stops cleanly. PyTorch logs no device line, so the
        driver lines are the GPU evidence. Gzip-compressed Cloud Storage sink shard. Nothing may
        fire.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver='latest', num_workers=2,
               max_workers=2, experiments=['no_use_multiple_sdk_containers'],
               image='us-docker.pkg.dev/retail-recs-prod/images/vit-embed:2024-06-01', disk=100)
    j = c.job('product-image-embeddings', '2024-06-01T05:00:27Z', region='us-east4',
              zone='us-east4-a', project='retail-recs-prod', python='3.11', beam='2.56.0',
              workers=2)
    ready = N.bring_up(j, cf)
    for i, w in enumerate(j.w):
        j.wlog(ready + 25 + i, w, 'Loaded model from gs://retail-recs-models/vit-b16/model.pt',
               src='user-code', module='/opt/pipeline/embed.py:52')
    end = ready + 2100
    for w in j.w:
        N.sdk_shutdown(j, w, end - 35)
    N.teardown(j, cf, end, n=2)
    c.output('export.ndjson.gz')
    c.not_fire('gpu-driver-missing', 'gpu-not-used', 'gpu-out-of-memory')
