from corpuslib import noise as N

MSG = ("Startup of the worker pool in zone europe-west1-c failed to bring up any of the desired 1 "
       "workers. Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors#"
       "worker-pool-failure for help troubleshooting. ZONE_RESOURCE_POOL_EXHAUSTED: Instance "
       "creation failed: The zone 'projects/project/zones/europe-west1-c' does not have enough "
       "resources available to fulfill the request.  Try a different zone, or try again later.")


def build(c):
    c.describe('''
        Messy order: a JSON array (gcloud shape, 2-space indent) whose entries are in no
        particular order - neither newest nor oldest first - as happens when several downloads
        are concatenated and re-serialised. Content: pool exhaustion in europe-west1-c
        (pontem#251 wording) four times, then "Workflow failed. Causes: Unable to bring up enough
        workers ...". The cause must still be seen before the symptom (timestamps decide, not
        file order), so workflow-failed folds under zone-resource-pool-exhausted.''')
    cf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', driver=True, num_workers=1,
               max_workers=1, zone_pinned=True)
    j = c.job('beamapp-mlopsuser-0405101530-771203', '2024-04-05T10:15:30Z',
              region='europe-west1', zone='europe-west1-c', project='project', python='3.11',
              beam='2.55.0', workers=0)
    N.submit(j, cf, steps=['Read/Impulse+Read/Map(<lambda at iobase.py:911>)+Embed+Write'])
    t = 68.0
    for k in range(4):
        j.msg(t, MSG, sev='ERROR', src='pontem-251', mark='rpe' if k == 0 else None)
        t += 900.0 + k * 3
    N.fail(j, cf, t, N.UNABLE_TO_BRING_UP, src='cloudml-54', mark='wf')
    c.output('export.json', order='shuffle')
    c.fire('zone-resource-pool-exhausted', marks=['rpe'], captures={'zone': 'europe-west1-c'})
    c.fire('workflow-failed', marks=['wf'], caused_by='zone-resource-pool-exhausted')
