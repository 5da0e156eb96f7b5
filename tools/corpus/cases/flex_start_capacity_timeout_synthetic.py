from corpuslib import noise as N


def build(c):
    c.describe('''
        Flex-start batch job (worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver;
        provisioning_model:FLEX_START) that never obtains an L4: after the submission messages
        only the flex-start notice appears, no worker starts, and one hour later the job fails
        with "Workflow failed. Causes: The Dataflow job appears to be stuck because no worker
        activity has been seen in the last 1h. ..." (real, tensorflow/tfx#6386). SYNTHETIC: the
        notice "FLEX_START is enabled for job JOB_ID" is our English rendering of the Spanish
        and Korean doc pages; no English log of it is public.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, flex=True, num_workers=1,
               max_workers=1, image='us-docker.pkg.dev/doc-ocr-batch/beam/ocr:2025-10-20')
    j = c.job('ocr-invoices-backfill', '2025-10-21T06:05:44Z', region='us-central1',
              zone='us-central1-a', project='doc-ocr-batch', python='3.12', beam='2.68.0',
              workers=0)
    j.msg(0.4, 'FLEX_START is enabled for job %s' % j.id, src='flex-start-es', mark='flex',
          cite='FLEX_START is enabled for job JOB_ID')
    N.submit(j, cf, t=0.5, steps=['ReadPdfs/Read+Ocr+WriteText/Write/WriteImpl/WriteBundles'])
    N.fail(j, cf, 3607.3, N.NO_ACTIVITY_1H, src='tfx-6386', mark='stall', n=1)
    c.output('export.json')
    c.fire('flex-start-capacity-timeout', marks=['stall'])
    c.fire('workflow-failed', marks=['stall'], caused_by='flex-start-capacity-timeout')
    c.not_fire('workers-stuck-no-activity', 'zone-resource-pool-exhausted',
               'flex-start-unsupported-config')
