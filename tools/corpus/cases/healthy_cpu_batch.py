from corpuslib import noise as N


def build(c):
    c.describe('''
        Healthy CPU batch job (word count style, three n1-standard-2 workers, default Beam SDK
        image, Runner v2): full job-message lifecycle from "Worker configuration" to "Worker
        pool stopped.", SDK harness startup on every worker (two SDK processes each), the
        benign kubelet/system lines listed by the Dataflow docs. No GPU anywhere; nothing may fire
        and no GPU check may even be inconclusive-worthy beyond "not applicable".''')
    cf = N.cfg(machine='n1-standard-2', gpu=None, num_workers=3, max_workers=10, sdk_procs=2,
               steps=N.STEPS_CPU)
    j = c.job('wordcount-shakespeare-nightly', '2024-05-02T01:00:03Z', region='europe-west1',
              zone='europe-west1-d', project='analytics-batch-eu', python='3.11', beam='2.56.0',
              workers=3)
    ready = N.bring_up(j, cf, steps=N.STEPS_CPU)
    end = ready + 540
    for w in j.w:
        for sdk in N.sdk_ids(cf):
            N.sdk_shutdown(j, w, end - 30, sdk=sdk)
    N.teardown(j, cf, end, n=3)
    c.output('export.json')
    c.not_fire('gpu-driver-missing', 'gpu-not-used', 'workers-stuck-no-activity')
