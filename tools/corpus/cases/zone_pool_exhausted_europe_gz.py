from corpuslib import noise as N

MSG = ("Startup of the worker pool in zone europe-west1-c failed to bring up any of the desired 1 "
       "workers. Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors#"
       "worker-pool-failure for help troubleshooting. ZONE_RESOURCE_POOL_EXHAUSTED: Instance "
       "creation failed: The zone 'projects/project/zones/europe-west1-c' does not have enough "
       "resources available to fulfill the request.  Try a different zone, or try again later.")


def build(c):
    c.describe('''
        The plain ZONE_RESOURCE_POOL_EXHAUSTED wording with the help link and "Try a different
        zone, or try again later." (real, GoogleCloudPlatform/pontem#251, project name as
        published) for an L4 job in europe-west1-c, three times. gcloud array output that the user
        gzip-compressed (export.json.gz): the reader must detect gzip by magic bytes. The
        export ends while Dataflow still retries.''')
    cf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', driver='latest', num_workers=1,
               max_workers=1, zone_pinned=True)
    j = c.job('beamapp-mlopsuser-0404093011-552610', '2024-04-04T09:30:11Z',
              region='europe-west1', zone='europe-west1-c', project='project', python='3.11',
              beam='2.55.0', workers=0)
    N.submit(j, cf, steps=['Read/Impulse+Read/Map(<lambda at iobase.py:911>)+Embed+Write'])
    for k, t in enumerate([71.0, 455.0, 842.0]):
        j.msg(t, MSG, sev='ERROR', src='pontem-251', mark='rpe' if k == 0 else None)
    c.output('export.json.gz')
    c.fire('zone-resource-pool-exhausted', marks=['rpe'], captures={'zone': 'europe-west1-c'})
