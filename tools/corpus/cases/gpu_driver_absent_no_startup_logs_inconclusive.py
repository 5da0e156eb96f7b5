from corpuslib import noise as N


def build(c):
    c.describe('''
        Absence that cannot be decided: a T4 job whose accelerator option lacks
        install-nvidia-driver, exported with a filter on the job-message and worker logs only
        (no system, worker-startup or docker logs). No driver line can appear in such an export,
        and the pipeline code logs nothing GPU-specific, so gpu-driver-missing must be reported
        as inconclusive, not as a finding and not as clean.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=False, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/churn-scoring/xgb-gpu:1.7', disk=40)
    j = c.job('churn-scoring-weekly', '2023-09-25T02:00:14Z', region='europe-west4',
              zone='europe-west4-b', project='churn-scoring', python='3.10', beam='2.50.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    for k in range(5):
        j.wlog(ready + 60 + k * 301, w, 'Scored %d accounts' % ((k + 1) * 250000),
               src='user-code', module='/opt/pipeline/score.py:88')
    end = ready + 1700
    N.sdk_shutdown(j, w, end - 15)
    N.teardown(j, cf, end)
    c.output('export.json', logs=['job-message', 'worker'])
    c.inconclusive('gpu-driver-missing')
    c.fire('gpu-driver-not-requested', marks=[])  # the option alone tells
    c.fire('boot-disk-too-small', marks=[])  # disk_size_gb 40
