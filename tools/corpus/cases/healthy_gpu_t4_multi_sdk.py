from corpuslib import noise as N


def build(c):
    c.describe('''
        Healthy GPU job with the default Python worker parallelism: n1-standard-4 with one T4
        runs four SDK processes (sdk-0-0 ... sdk-0-3, distinct portability_worker_id on one
        worker), each loading a small TensorFlow model onto the same GPU - and the memory
        suffices: no OOM anywhere. multiple-processes-per-gpu needs the OOM to fire, so nothing
        fires. NDJSON sink shard.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, sdk_procs=4,
               image='gcr.io/sentiment-lab/distilbert-tf:2.12', disk=50)
    j = c.job('review-sentiment-small', '2023-08-14T18:22:10Z', region='us-central1',
              zone='us-central1-a', project='sentiment-lab', python='3.10', beam='2.49.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    date = j.start.strftime('%Y-%m-%dT%H:%M:%SZ')
    for i, sdk in enumerate(N.sdk_ids(cf)):
        N.tf_gpu_lines(j, w, ready + 10 + i * 2.1, date, mb=3200)
    end = ready + 1500
    for sdk in N.sdk_ids(cf):
        N.sdk_shutdown(j, w, end - 20, sdk=sdk)
    N.teardown(j, cf, end)
    c.output('export.ndjson')
    c.not_fire('multiple-processes-per-gpu', 'gpu-out-of-memory')
