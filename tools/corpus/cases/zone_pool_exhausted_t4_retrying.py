from corpuslib import noise as N

MSG = ("Startup of the worker pool in zone us-central1-a failed to bring up any of the desired 1 "
       "workers. ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS: The zone 'projects/python-docs-"
       "samples-tests/zones/us-central1-a' does not have enough resources available to fulfill "
       "the request.  '(resource type:compute)'.")


def build(c):
    c.describe('''
        GPU job pinned to us-central1-a (worker_zone set) with a T4: Compute Engine has no
        capacity, and Dataflow logs "Startup of the worker pool in zone us-central1-a failed to
        bring up any of the desired 1 workers. ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS: ..."
        (real text from Google's own Dataflow GPU sample test, python-docs-samples#5247) seven
        times over 40 minutes while it retries. No worker ever starts, so there are no worker
        logs. The export was taken while the job was still retrying.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, zone_pinned=True,
               image='gcr.io/python-docs-samples-tests/dataflow/tensorflow-gpu:latest')
    j = c.job('tensorflow-gpu-landsat-0115', '2021-01-15T22:21:03Z', region='us-central1',
              zone='us-central1-a', project='python-docs-samples-tests', python='3.8',
              beam='2.26.0', workers=0)
    N.submit(j, cf, steps=['Create/Read+Process images+Save to GCS'])
    t = 75.0
    for k in range(7):
        j.msg(t, MSG, sev='ERROR', src='pds-5247', mark='rpe' if k == 0 else 'rpe-more')
        t += 360.0 + k * 17
    c.output('export.json')
    c.fire('zone-resource-pool-exhausted', marks=['rpe'], captures={'zone': 'us-central1-a'})
    c.not_fire('gpu-quota-exceeded', 'workflow-failed')
