from corpuslib import noise as N

TPL = ("Startup of the worker pool in zone us-east5-a failed to bring up any of the desired 1 "
       "workers. Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors#"
       "worker-pool-failure for help troubleshooting. QUOTA_EXCEEDED: Instance '%s' creation "
       "failed: Quota 'NVIDIA_H100_GPUS' exceeded. Limit: 0.0 in region us-east5.")


def build(c):
    c.describe('''
        GPU quota of a new GPU family (issue 40, GPU families and capacity): a batch job asks for
        one H100 on an a3-highgpu-1g worker (worker_accelerator type nvidia-h100-80gb) in a
        project that has no H100 quota in us-east5. Dataflow's worker-pool message carries Compute
        Engine's "QUOTA_EXCEEDED: … Quota 'NVIDIA_H100_GPUS' exceeded. Limit: 0.0 in region
        us-east5." — the template of the T4 case (google/dataflow-ml-starter README) with the
        H100 metric name, which Compute Engine's published quota enum does not list yet (quota
        requests and Terraform errors name it, so the rule takes any metric name). The GPU-table
        facts give the H100's capability (9.0) and memory (80 GB) and the machine/GPU fit is ok.
        The failure folds under gpu-quota-exceeded; the stockout rule stays quiet.''')
    cf = N.cfg(machine='a3-highgpu-1g', gpu='nvidia-h100-80gb', driver=True, num_workers=1,
               max_workers=1)
    j = c.job('llm-eval-h100', '2026-02-02T19:20:11Z', region='us-east5',
              zone='us-east5-a', project='acme-llm-eval', python='3.11', beam='2.69.0',
              workers=0, worker_prefix='llm-eval-h100')
    N.submit(j, cf, steps=['ReadPrompts/Read+RunInference/BeamML_RunInference+WriteScores/Write'])
    t = 71.0
    for k in range(4):
        j.msg(t, TPL % j.add_worker(), sev='ERROR', src=('the T4 case\'s Dataflow worker-pool QUOTA_EXCEEDED message '
                                                          '(google/dataflow-ml-starter README) with the NVIDIA_H100_GPUS '
                                                          'metric as quota requests and Terraform errors name it', 'tmpl'),
              mark='quota' if k == 0 else None)
        t += 610.0
    N.fail(j, cf, t, N.UNABLE_TO_BRING_UP, src='cloudml-54', mark='wf')
    c.output('export.json')
    c.fire('gpu-quota-exceeded', marks=['quota'],
           captures={'quota': 'NVIDIA_H100_GPUS', 'limit': '0.0', 'region': 'us-east5'})
    c.fire('workflow-failed', marks=['wf'], caused_by='gpu-quota-exceeded')
    c.not_fire('zone-resource-pool-exhausted', 'gpu-machine-type-mismatch', 'accelerator-machine-mismatch')
