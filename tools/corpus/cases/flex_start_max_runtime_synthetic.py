from corpuslib import noise as N

DAY = 86400.0


def build(c):
    c.describe('''
        SYNTHETIC (no public log text exists): a week-long flex-start batch job on one L4 worker.
        Flex-start VMs have a maximum run time of seven days (Dataflow GPU page); after 7 days the
        system log says "Instance <worker> was terminated because it reached its max run
        duration." (our wording, aligned with the rule's own example) and Dataflow provisions a
        replacement worker, which boots and installs the driver again. The export ends while the
        replacement is working.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, flex=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='us-docker.pkg.dev/genomics-var/beam/deepvariant-gpu:1.6', disk=200)
    j = c.job('wgs-variant-calling-cohort7', '2025-11-03T06:00:55Z', region='us-central1',
              zone='us-central1-a', project='genomics-var', python='3.11', beam='2.69.0')
    j.msg(0.3, 'FLEX_START is enabled for job %s' % j.id, src='flex-start-es',
          cite='FLEX_START is enabled for job JOB_ID')
    ready = N.bring_up(j, cf, t0=0.4, boot_at=1450.0)
    w = j.w[0]
    for d in range(7):
        j.wlog(ready + 3600 + d * DAY, w, 'Called variants for %d of 412 samples' % (d * 58 + 31),
               src='user-code', module='/opt/pipeline/call.py:203')
    t_term = 1450.0 + 7 * DAY + 12.0
    j.system(t_term, w, 'Instance %s was terminated because it reached its max run duration.' % w,
             src='flex-max-runtime', mark='term',
             cite='Instance <worker> was terminated because it reached its max run duration.')
    w2 = j.add_worker()
    N.started(j, cf, t_term + 410.0)
    t = N.full_worker_boot(j, w2, cf, t_term + 420.0)
    j.wlog(t + 3600, w2, 'Called variants for 408 of 412 samples', src='user-code',
           module='/opt/pipeline/call.py:203')
    c.output('export.ndjson')
    c.fire('flex-start-max-runtime', marks=['term'])
