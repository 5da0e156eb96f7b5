from corpuslib import noise as N

STEPS = ['ReadTickets/Read+Embed/RunInference/BeamML_RunInference+WriteEmbeddings']


def build(c):
    c.describe('''
        A streaming embedding job on L4s that runs well: its one worker starts ("Workers have
        started successfully."), embeds tickets and logs its throughput. Forty minutes in the input
        rate doubles, Dataflow raises the number of workers to 2 to catch up with the backlog
        ("Autoscaling: Raised the number of workers to 2 so that the pipeline can catch up with its
        backlog …", reference §2i), and Compute Engine refuses the second worker: "Startup of the
        worker pool in zone us-central1-a failed to bring up any of the desired 1 workers. …
        QUOTA_EXCEEDED: … Quota 'NVIDIA_L4_GPUS' exceeded. Limit: 1.0 in region us-central1."
        (the dataflow-ml-starter sentence, reference §2c c6, with this job's values). The job keeps
        running on its first worker. Before the workers start, that sentence is why a job never
        ran (gpu-quota-exceeded); after, it is an autoscaling step that could not be taken: a
        warning (autoscaling-capacity-short), not FAILED. The export ends while the job runs.
        Synthetic combination of real lines.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1,
               max_workers=4, streaming=True,
               experiments=['no_use_multiple_sdk_containers', 'enable_streaming_engine'],
               image='us-central1-docker.pkg.dev/helpdesk-ml/beam/ticket-embed:2025-11', disk=50,
               steps=STEPS)
    j = c.job('ticket-embed-stream', '2025-11-20T09:12:03Z', region='us-central1',
              zone='us-central1-a', project='helpdesk-ml', python='3.11', beam='2.69.0')
    ready = N.bring_up(j, cf, steps=STEPS)
    w = j.w[0]
    for k in range(5):
        j.wlog(ready + 120 + k * 480, w, 'Embedded %d tickets in the last 8 minutes' % (5120 + 97 * k),
               src='user-code', module='/opt/pipeline/embed.py:64')
    t = ready + 2400
    j.msg(t, 'Autoscaling: Raised the number of workers to 2 so that the pipeline can catch up with '
             'its backlog and keep up with its input rate.', src='sig-2i')
    j.msg(t + 64, "Startup of the worker pool in zone us-central1-a failed to bring up any of the "
                  "desired 1 workers. Please refer to https://cloud.google.com/dataflow/docs/guides/"
                  "common-errors#worker-pool-failure for help troubleshooting. QUOTA_EXCEEDED: "
                  "Instance 'ticket-embed-stream-11200112-k3q7-harness-m2vd' creation failed: "
                  "Quota 'NVIDIA_L4_GPUS' exceeded. Limit: 1.0 in region us-central1.",
          sev='ERROR', src='ml-starter-quota', mark='quota')
    for k in range(2):
        j.wlog(t + 200 + k * 480, w, 'Embedded %d tickets in the last 8 minutes' % (9870 + 131 * k),
               src='user-code', module='/opt/pipeline/embed.py:64')
    c.output('export.json')
    c.fire('autoscaling-capacity-short', marks=['quota'], job=j, caused_by=None,
           captures={'zone': 'us-central1-a', 'reason': 'QUOTA_EXCEEDED', 'desired': '1'})
    c.not_fire('gpu-quota-exceeded', 'zone-resource-pool-exhausted', 'workflow-failed')
    c.job_truth(j, outcome='running', verdict='warning',
                not_fire=['gpu-quota-exceeded', 'zone-resource-pool-exhausted', 'workflow-failed'])
