from corpuslib import noise as N


def build(c):
    c.describe('''
        NVIDIA MPS only helps when several processes share a GPU, yet the job sets both
        use_nvidia_mps in worker_accelerator and --experiments=no_use_multiple_sdk_containers
        (one SDK process): the options echoed in "Python sdk harness started with
        pipeline_options: {...}" show both (real line format; the combination is SYNTHETIC as a
        log, it comes from the Dataflow MPS page's guidance). The job itself is healthy.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, mps=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='us-docker.pkg.dev/retail-recs-prod/images/vit-embed:2024-06-01', disk=100)
    j = c.job('product-image-embeddings-mps', '2024-06-25T05:00:31Z', region='us-east4',
              zone='us-east4-a', project='retail-recs-prod', python='3.11', beam='2.57.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    end = ready + 1800
    N.sdk_shutdown(j, w, end - 20)
    N.teardown(j, cf, end)
    c.output('export.ndjson')
    c.fire('mps-with-single-sdk-container', marks=[])   # fact rule: no evidence line asserted
