from corpuslib import noise as N, texts as T

STEP = 'Preprocessor/Fix coordinates'
EXC = "AttributeError: 'OpenFile' object has no attribute 'data_vars'"
STEPS = ['S05:OpenURLWithFSSpec+Preprocessor/Fix coordinates+StoreToZarr/Rechunk']


def build(c):
    c.describe('''
        Only the job-message copy: the export was made from the job-message log alone (the
        worker, docker and system logs were not exported), and each failed attempt's copy is the
        flattened traceback of the console ("Error message from worker: generic::unknown:
        Traceback (most recent call last): File ... File ...", one line) with its middle cut out
        ("..."). What survives is the head (sdk_worker.py frames) and the tail: the user's
        recipe.py line 175 in _keep_only_variable_id (installed into site-packages as the
        pipeline's own package, which is still user code), "AttributeError: 'OpenFile' object has
        no attribute 'data_vars' [while running 'Preprocessor/Fix coordinates']" (real tail,
        leap-stc/cmip6-leap-feedstock PR #40). Four copies, then the work-item failure.''')
    cf = N.cfg(machine='n1-highmem-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=4,
               steps=STEPS)
    j = c.job('cmip6-sifb-zarr', '2023-09-05T15:20:41Z', region='us-central1',
              zone='us-central1-a', project='leap-pangeo', python='3.10', beam='2.53.0', workers=2)
    N.submit(j, cf, steps=STEPS)
    N.started(j, cf, 71.0, n=2)
    frames = [
        '  File "%s/feedstock/recipe.py", line 175, in _keep_only_variable_id' % T.sp('3.10'),
        '    keep = [v for v in ds.data_vars if v not in ds.coords]',
    ]
    tb = T.augmented_tb('3.10', frames, EXC, STEP)
    flat = 'Error message from worker: generic::unknown: ' + T.flatten(tb)
    cut = T.middle_crop(flat, 300, 640)
    assert '...' in cut and cut.endswith("[while running '%s']" % STEP)
    t = 240.0
    for attempt in range(4):
        j.msg(t, cut, sev='ERROR', src='leap-40', cite="… in _keep_only_variable_id " + EXC +
              " [while running '%s']" % STEP, mark='attr' if attempt == 0 else None)
        t += 52.0
    c.source('Error message from worker: Traceback (most recent call last): File … (one line)',
             'jobmsg-flat')
    c.source('… (middle of an over-long message cut out)',
             ('the cut of a job-message copy: Beam\'s DataflowWorkerLoggingHandler middle-crops '
              'worker messages over 30,000 characters (' + 'shared/reference/dataflow-log-'
              'signatures.md §1.5); that job-message copies are cut the same way is inferred', 'I'))
    N.fail(j, cf, t + 3.0, T.work_item_failed_4_plain(STEPS[0], [j.w[0], j.w[1], j.w[0], j.w[1]]),
           src=('current work-item-failed wording (apache/beam#30482) without "Root cause:" '
                'lines (composition)', 'I'), mark='wif', n=2,
           cite='Workflow failed. Causes: S05:… failed., The job failed because a work item has '
                'failed 4 times. …')
    c.output('export.json', logs=['job-message'])
    c.fire('work-item-failed', marks=['wif'])
    c.fire('workflow-failed', marks=['wif'], caused_by='work-item-failed')
    c.unexplained(exception='AttributeError', message="has no attribute 'data_vars'",
                  user_frame='recipe.py:175', step=STEP, marks=['attr'],
                  key_strings=["has no attribute 'data_vars'"])
