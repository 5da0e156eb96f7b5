from corpuslib import noise as N


def build(c):
    c.describe('''
        Absence that fires: the accelerator option lacks install-nvidia-driver
        (type:nvidia-tesla-t4;count:1), the export holds the system, kubelet and docker logs of
        the worker for 40 minutes after "Workers have started successfully." and no GPU driver
        line ever appears. The pipeline (XGBoost) logs nothing GPU-specific, so only the
        absence rule leg can find it. No evidence line is required (absence finding).''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=False, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/churn-scoring/xgb-gpu:1.7', disk=40)
    j = c.job('churn-scoring-monthly', '2023-10-01T02:00:09Z', region='europe-west4',
              zone='europe-west4-b', project='churn-scoring', python='3.10', beam='2.50.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    for k in range(8):
        j.wlog(ready + 60 + k * 300, w, 'Scored %d accounts' % ((k + 1) * 250000),
               src='user-code', module='/opt/pipeline/score.py:88')
    end = ready + 2460
    N.sdk_shutdown(j, w, end - 15)
    N.teardown(j, cf, end)
    c.output('export.json')
    c.fire('gpu-driver-missing', marks=[], caused_by='gpu-driver-not-requested')
    c.fire('gpu-driver-not-requested', marks=[])  # the option alone tells
    c.fire('boot-disk-too-small', marks=[])  # disk_size_gb 40
