from corpuslib import noise as N

TPL = ("Startup of the worker pool in zone us-central1-a failed to bring up any of the desired 1 "
       "workers. Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors#"
       "worker-pool-failure for help troubleshooting. QUOTA_EXCEEDED: Instance '%s' creation "
       "failed: Quota 'NVIDIA_T4_GPUS' exceeded. Limit: 32.0 in region us-central1.")


def build(c):
    c.describe('''
        GPU quota: a PyTorch benchmark job asks for a T4 while the project's 32 T4s in
        us-central1 are all in use. "... QUOTA_EXCEEDED: Instance '...-harness-....' creation
        failed: Quota 'NVIDIA_T4_GPUS' exceeded. Limit: 32.0 in region us-central1." (real,
        google/dataflow-ml-starter README) repeats, then "Workflow failed. Causes: Unable to bring
        up enough workers: minimum 1, actual 0. Please check your quota and retry later, ..."
        (real, cloudml-samples#54). Captures quota, limit and region; the failure folds under the
        quota finding. This is not a stockout (zone-resource-pool-exhausted must stay quiet).''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1)
    j = c.job('benchmark-tests-pytorch-imagenet', '2023-05-04T17:52:33Z', region='us-central1',
              zone='us-central1-a', project='apache-beam-testing', python='3.8', beam='2.47.0',
              workers=0, worker_prefix='benchmark-tests-pytorch-i')
    N.submit(j, cf, steps=['ReadImageNames/Read+PreProcess+PyTorchRunInference/BeamML_'
                           'RunInference+WritePredictions/Write/WriteImpl/WriteBundles'])
    t = 64.0
    for k in range(4):
        j.msg(t, TPL % j.add_worker(), sev='ERROR', src='ml-starter-quota',
              mark='quota' if k == 0 else None, cite=TPL % 'benchmark-tests-pytorch-i-05041052-ufe3-harness-ww4n')
        t += 610.0
    N.fail(j, cf, t, N.UNABLE_TO_BRING_UP, src='cloudml-54', mark='wf')
    c.output('export.json')
    c.fire('gpu-quota-exceeded', marks=['quota'],
           captures={'quota': 'NVIDIA_T4_GPUS', 'limit': '32.0', 'region': 'us-central1'})
    c.fire('workflow-failed', marks=['wf'], caused_by='gpu-quota-exceeded')
    c.not_fire('zone-resource-pool-exhausted')
