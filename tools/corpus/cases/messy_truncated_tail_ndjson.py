from corpuslib import noise as N

MSG = ("Startup of the worker pool in zone us-central1-a failed to bring up any of the desired 1 "
       "workers. ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS: The zone 'projects/python-docs-"
       "samples-tests/zones/us-central1-a' does not have enough resources available to fulfill "
       "the request.  '(resource type:compute)'.")


def build(c):
    c.describe('''
        Truncated tail: an NDJSON shard whose copy was interrupted - the last line stops in the
        middle of an entry and has no newline. The truncation must be reported (one entry
        skipped) and the complete lines diagnosed: ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS in
        us-central1-a (python-docs-samples#5247 text) repeated while Dataflow retries. The cut
        makes it an input not read in full: the verdict says so beside the failure, and the run
        exits 2 (issue 37).''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, zone_pinned=True)
    j = c.job('tensorflow-gpu-landsat-0116', '2021-01-16T03:02:14Z', region='us-central1',
              zone='us-central1-a', project='python-docs-samples-tests', python='3.8',
              beam='2.26.0', workers=0)
    N.submit(j, cf, steps=['Create/Read+Process images+Save to GCS'])
    t = 80.0
    for k in range(5):
        j.msg(t, MSG, sev='ERROR', src='pds-5247', mark=('rpe' if k in (0, 1) else None))
        t += 355.0
    c.output('export.ndjson', truncate=True)
    c.fire('zone-resource-pool-exhausted', marks=['rpe'], captures={'zone': 'us-central1-a'})
