from corpuslib import noise as N


def build(c):
    c.describe('''
        Symptoms without a visible cause (CPU job, 2019): the job ends with the old wording
        "Workflow failed. Causes: S13:write to bucket/.../FinalizeWrite failed., A work item was
        attempted 4 times without success. Each time the worker eventually lost contact with the
        service. The work item was attempted on: ..." (real, apache/beam#19306). No cause rule
        fires; the symptom rules stand alone and rank last: work-item-failed, worker-lost-contact,
        and the generic workflow-failed folded under work-item-failed.''')
    cf = N.cfg(machine='n1-standard-1', gpu=None, num_workers=4, max_workers=4,
               steps=['S13:write to bucket/Write/WriteImpl/FinalizeWrite/FinalizeWrite'])
    j = c.job('rajsubtest', '2019-02-04T09:13:57Z', region='us-central1', zone='us-central1-b',
              project='rajsub-dataflow-test', python='3.5', beam='2.9.0', workers=4)
    N.submit(j, cf, steps=['write to bucket/Write/WriteImpl/FinalizeWrite/FinalizeWrite'])
    N.started(j, cf, 110.0, n=4)
    for i, w in enumerate(j.w):
        N.vm_boot(j, w, 115.0 + i * 4.1)
    msg = ('Workflow failed. Causes: S13:write to bucket/Write/WriteImpl/FinalizeWrite/FinalizeWrite '
           'failed., A work item was attempted 4 times without success. Each time the worker '
           'eventually lost contact with the service. The work item was attempted on: \n  ' +
           ',\n  '.join(j.w))
    N.fail(j, cf, 223.1, msg, src='beam19306', mark='wf', n=4,
           cite='Workflow failed. Causes: S13:… failed., A work item was attempted 4 times without '
                'success. Each time the worker eventually lost contact with the service. …')
    c.output('export.json')
    c.fire('work-item-failed', marks=['wf'])
    c.fire('worker-lost-contact', marks=['wf'])
    c.fire('workflow-failed', marks=['wf'], caused_by='work-item-failed')
