from corpuslib import noise as N

TPL = ("Startup of the worker pool in zone us-central1-b failed to bring up any of the desired 1 "
       "workers. Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors#"
       "worker-pool-failure for help troubleshooting. QUOTA_EXCEEDED: Instance '%s' creation "
       "failed: Quota 'PREEMPTIBLE_NVIDIA_L4_GPUS' exceeded. Limit: 0.0 in region us-central1.")


def build(c):
    c.describe('''
        SYNTHETIC quota text: a flex-start L4 job in a project with no preemptible L4 quota.
        Flex-start consumes preemptible quota (Dataflow GPU page), so worker creation fails with
        "QUOTA_EXCEEDED ... Quota 'PREEMPTIBLE_NVIDIA_L4_GPUS' exceeded. Limit: 0.0 in region
        us-central1." - the metric name is real, the sentence is inferred from the NVIDIA_T4_GPUS
        case. After an hour the job fails with the real "no worker activity ... in the last 1h"
        stall. Two findings: the quota (captures quota/limit/region) and the flex-start
        capacity timeout it corroborates; the final failure may fold under either.
        The flex-start notice is also inferred. NDJSON sink shard.''')
    cf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', driver=True, flex=True, num_workers=1,
               max_workers=1, image='us-docker.pkg.dev/doc-ocr-batch/beam/ocr:2025-10-20')
    j = c.job('ocr-receipts-flex', '2025-10-28T08:14:02Z', region='us-central1',
              zone='us-central1-b', project='doc-ocr-batch', python='3.12', beam='2.68.0',
              workers=0)
    j.msg(0.3, 'FLEX_START is enabled for job %s' % j.id, src='flex-start-es',
          cite='FLEX_START is enabled for job JOB_ID')
    N.submit(j, cf, t=0.4, steps=['ReadPdfs/Read+Ocr+WriteText/Write/WriteImpl/WriteBundles'])
    t = 70.0
    for k in range(5):
        j.msg(t, TPL % j.add_worker(), sev='ERROR', src='quota-preemptible',
              mark='quota' if k == 0 else None, cite=TPL % '…-harness-…')
        t += 700.0
    N.fail(j, cf, 3608.4, N.NO_ACTIVITY_1H, src='tfx-6386', mark='stall')
    c.output('export.ndjson')
    c.fire('gpu-quota-exceeded', marks=['quota'],
           captures={'quota': 'PREEMPTIBLE_NVIDIA_L4_GPUS', 'limit': '0.0',
                     'region': 'us-central1'})
    c.fire('flex-start-capacity-timeout', marks=['stall'])
    c.may_fire('workflow-failed')
    c.not_fire('workers-stuck-no-activity', 'zone-resource-pool-exhausted')
