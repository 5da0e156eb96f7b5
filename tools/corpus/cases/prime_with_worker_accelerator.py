from corpuslib import noise as N


def build(c):
    c.describe('''
        Dataflow Prime wants GPUs as an accelerator resource hint, not worker_accelerator (Dataflow
        GPU page, "Use GPUs with Dataflow Prime"). The pipeline options echoed by the SDK harness
        contain both enable_prime and worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver
        (real line format; the combination is SYNTHETIC, no error text is known). The job runs.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'], prime=True,
               image='gcr.io/sentiment-lab/distilbert-tf:2.12', disk=50)
    j = c.job('review-sentiment-prime', '2023-08-22T11:03:47Z', region='us-central1',
              zone='us-central1-a', project='sentiment-lab', python='3.10', beam='2.49.0')
    ready = N.bring_up(j, cf, tf=True)
    w = j.w[0]
    end = ready + 1400
    N.sdk_shutdown(j, w, end - 20)
    N.teardown(j, cf, end)
    c.output('export.json')
    c.fire('prime-with-worker-accelerator', marks=[])   # fact rule: no evidence line asserted
