from corpuslib import noise as N


def build(c):
    c.describe('''
        Absence with a horizon not reached: a T4 job without install-nvidia-driver, exported
        three minutes after "Workers have started successfully." The export has system and
        kubelet logs (no driver line among them yet), but it ends long before any reasonable
        driver-install horizon, so gpu-driver-missing is inconclusive.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=False, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/churn-scoring/xgb-gpu:1.7', disk=40)
    j = c.job('churn-scoring-adhoc', '2023-09-27T14:31:50Z', region='europe-west4',
              zone='europe-west4-b', project='churn-scoring', python='3.10', beam='2.50.0')
    N.submit(j, cf)
    N.started(j, cf, 59.0)
    w = j.w[0]
    N.vm_boot(j, w, 64.0)
    N.image_check(j, w, cf, 81.0)
    N.sdk_boot(j, w, cf, 95.0)
    N.runnerv2_notice(j, 105.0)
    j.wlog(93.0 + 180, w, 'Scored 10000 accounts', src='user-code',
           module='/opt/pipeline/score.py:88')
    c.output('export.json')
    c.inconclusive('gpu-driver-missing')
    c.fire('gpu-driver-not-requested', marks=[])  # the option alone tells
    c.fire('boot-disk-too-small', marks=[])  # disk_size_gb 40
