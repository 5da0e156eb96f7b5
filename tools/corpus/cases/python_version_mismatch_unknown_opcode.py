from corpuslib import noise as N, texts as T

STEP = 'S01:ReadImages/Read+ReadImages/ReadAllFiles+Segment+WriteMasks/Write/WriteImpl/WriteBundles'


def build(c):
    c.describe('''
        Python 3.8 custom container (apache/beam 2.46.0) launched from a Python 3.7 environment.
        The SDK harnesses start, then every bundle fails while unpickling the DoFn through
        apache_beam/internal/pickler.py: CPython prints "XXX lineno: 4, opcode: 120" on stderr
        (docker log) and the SDK logs "SystemError: unknown opcode" (worker log, traceback in the
        message). Dataflow repeats it as "Error message from worker" and fails the job after 4
        attempts. Root cause python-version-mismatch (interpreter 3.8 from the traceback paths);
        the work-item failure is its symptom. Frames around the real lines are composed.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=2,
               max_workers=2, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/vision-batch-4711/pano-seg:py38-beam2.46', disk=50,
               steps=[STEP.split(':', 1)[1]])
    j = c.job('pano-segmentation-batch', '2023-05-16T08:41:07Z', region='europe-west4',
              zone='europe-west4-a', project='vision-batch-4711', python='3.8', beam='2.46.0',
              workers=2)
    ready = N.bring_up(j, cf)
    tb = T.unknown_opcode_tb('3.8')
    t = ready + 8
    for attempt in range(4):
        w = j.w[attempt % 2]
        instr = 'process_bundle-%d' % (1 + attempt * 3)
        j.docker(t, w, 'XXX lineno: 4, opcode: 120', sev='ERROR', src='dill-438', mark='opcode')
        j.docker(t + 0.01, w, tb, sev='ERROR', src='dill-438', cite='SystemError: unknown opcode')
        j.wlog(t + 0.05, w, T.instruction_error(instr, tb), sev='ERROR', src='dill-438',
               module='apache_beam/runners/worker/sdk_worker.py', line=303,
               cite='SystemError: unknown opcode', mark='tb' if attempt == 0 else 'tb-more',
               thread='Thread-%d' % (20 + attempt))
        j.msg(t + 2.5, 'Error message from worker: ' + tb, sev='ERROR', src='beam-24906',
              cite='Error message from worker: Traceback (most recent call last): … '
                   'SystemError: unknown opcode', mark='jm-tb')
        t += 47.0
    for w in j.w:
        N.sdk_shutdown(j, w, t + 3)
    N.fail(j, cf, t + 10, T.work_item_failed_4_plain(STEP, j.w[:1] * 2 + j.w[1:] * 2),
           src='tfds-1473', mark='wif',
           cite='Workflow failed. Causes: S01:… failed., The job failed because a work item has failed 4 times. …')
    c.output('export.json')
    c.fire('python-version-mismatch', marks=['tb'], captures={'python_worker': '3.8'})
    c.fire('work-item-failed', marks=['wif'], caused_by='python-version-mismatch')
    c.may_fire('workflow-failed')
    c.not_fire('beam-version-mismatch', 'gpu-driver-missing', 'worker-lost-contact')
