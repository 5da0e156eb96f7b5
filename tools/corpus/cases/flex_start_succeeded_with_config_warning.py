from corpuslib import noise as N

STEPS = ['ReadScans/Read+ReadAllFiles+Preprocess+RunInference/BeamML_RunInference+WriteMasks/'
         'Write/WriteImpl/WriteBundles']


def build(c):
    c.describe('''
        A flex-start batch job on T4s that got its workers, ran for 40 minutes and succeeded: the
        job messages go from "Worker configuration" to "Worker pool stopped." with no failure
        message, TensorFlow on the worker logs "Created TensorFlow device (... GPU:0 ...) ->
        physical GPU (... Tesla T4 ...)" (real lines), and the SDK harness echoes the options with
        worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver:5xx;provisioning_model:FLEX_START
        (the Dataflow GPU page's example). The job also left horizontal autoscaling on: "Autoscaling
        is enabled for job ... The number of workers will be between 1 and 4." (real wording,
        gcp-variant-transforms#48), which flex-start does not support, so
        flex-start-unsupported-config fires (an error-severity configuration rule). The job
        nevertheless succeeded: the finding is a risk for the next run, the job's verdict is at
        most a warning and never FAILED (issue 14). The combination is synthetic as a log; every
        line is real text.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver='5xx', flex=True,
               num_workers=1, max_workers=4, experiments=['no_use_multiple_sdk_containers'],
               image='us-central1-docker.pkg.dev/derm-ai/beam/lesion-seg:tf2.4-cu110', disk=80,
               steps=STEPS)
    j = c.job('lesion-segmentation-batch', '2025-09-17T08:30:12Z', region='us-central1',
              zone='us-central1-f', project='derm-ai', python='3.8', beam='2.48.0',
              job_number='3312660184773105529')
    ready = N.bring_up(j, cf, tf=True, steps=STEPS, autoscaling_mark='autoscaling')
    w = j.w[0]
    for k in range(4):
        j.wlog(ready + 300 + k * 540, w, 'Segmented %d scans in the last 9 minutes' % (1890 + 37 * k),
               src='user-code', module='/opt/pipeline/segment.py:77')
    end = ready + 2400
    N.sdk_shutdown(j, w, end - 20)
    N.teardown(j, cf, end)
    c.output('export.json')
    c.fire('flex-start-unsupported-config', marks=['autoscaling'], captures={'max_workers': '4'},
           job=j, caused_by='flex-start-autoscaling')
    c.not_fire('flex-start-capacity-timeout', 'workers-stuck-no-activity', 'gpu-driver-missing',
               'workflow-failed')
    c.job_truth(j, outcome='succeeded', verdict='warning',
                not_fire=['flex-start-capacity-timeout', 'workers-stuck-no-activity',
                          'gpu-driver-missing', 'workflow-failed'])
    c.fire('flex-start-autoscaling', marks=[], job=j)  # the options echo: max_num_workers 4 above num_workers
