from corpuslib import noise as N


def build(c):
    c.describe('''
        SYNTHETIC situation (no public log of it): a streaming pipeline submitted with
        provisioning_model:FLEX_START, which flex-start does not support (batch only, per the
        Dataflow GPU page). The SDK harness echoes 'streaming': True and the FLEX_START accelerator
        option in "Python sdk harness started with pipeline_options: {...}" and the job message
        "Autoscaling is enabled for Dataflow Streaming Engine. Workers will scale between 1 and
        100 unless maxNumWorkers is specified." (real text) is present. The job happens to get a
        worker and run; the configuration itself is the finding.''')
    cf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', driver=True, flex=True, num_workers=1,
               max_workers=1, streaming=True,
               experiments=['no_use_multiple_sdk_containers', 'enable_streaming_engine'],
               image='us-docker.pkg.dev/fraud-rt/beam/scorer:2025-10', disk=50,
               steps=['ReadTxns/Read+Score+WriteAlerts'])
    j = c.job('fraud-scoring-stream', '2025-10-30T15:02:19Z', region='us-central1',
              zone='us-central1-a', project='fraud-rt', python='3.12', beam='2.68.0')
    j.msg(0.3, 'FLEX_START is enabled for job %s' % j.id, src='flex-start-es',
          cite='FLEX_START is enabled for job JOB_ID')
    j.msg(4.0, 'Autoscaling is enabled for Dataflow Streaming Engine. Workers will scale between '
          '1 and 100 unless maxNumWorkers is specified.', sev='WARNING', src='jcbaey',
          mark='se')
    ready = N.bring_up(j, cf, steps=['ReadTxns/Read+Score+WriteAlerts'])
    w = j.w[0]
    for k in range(4):
        j.wlog(ready + 120 + k * 300, w, 'Scored %d transactions in the last 5 minutes' %
               (41230 + k * 977), src='user-code', module='/opt/pipeline/score.py:120')
    c.output('export.json')
    opts = [e for e in c.entries if e.mark and 'options' in e.mark]
    c.fire('flex-start-unsupported-config', marks=['se', 'options'], caused_by='flex-start-streaming')
    c.not_fire('flex-start-capacity-timeout')
    c.fire('flex-start-streaming', marks=[])  # 'streaming': True with FLEX_START, from the options
