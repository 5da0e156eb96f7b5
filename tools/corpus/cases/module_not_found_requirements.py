from corpuslib import noise as N, texts as T

MOD = 'embed_pipeline.transforms'
EXC = "ModuleNotFoundError: No module named '%s'" % MOD
STEPS = ['S01:ReadImages/Read+Preprocess+RunInference/BeamML_RunInference+WriteResults/Write']


def build(c):
    c.describe('''
        A missing requirement of the pipeline's own package: the job was launched without
        --setup_file, so the workers lack the user's package and the SDK harness cannot unpickle
        the DoFn: dill's find_class raises "ModuleNotFoundError: No module named
        'embed_pipeline.transforms'", Beam's dill_pickler retries and raises it again "During
        handling of the above exception" (the shape of google/weather-tools#165, whose module is
        also the pipeline's own). python-module-missing names the module, and says it is
        most likely the pipeline's own code, since dill's find_class raised it while unpickling
        (venv-unavailable is about ensurepip); every frame is Beam's or dill's, and the failure
        happens while the bundle processor is built, before any step runs. Worker-log and job-message copies (the job message
        keeps the newlines, as in #165) on both workers; four attempts, then "A work item was
        attempted 4 times without success".''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=2,
               max_workers=2, experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('embed-images-setupfile', '2024-02-20T09:02:33Z', region='europe-west4',
              zone='europe-west4-a', python='3.10', beam='2.53.0', workers=2)
    ready = N.bring_up(j, cf)
    tb = T.module_not_found_chain('3.10', MOD)
    t = ready + 3
    for attempt in range(4):
        w = j.w[attempt % 2]
        first = attempt == 0
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR',
               src='weather-165', cite=EXC, module='apache_beam/runners/worker/sdk_worker.py',
               line=303, thread='Thread-%d' % (12 + attempt), mark='mnf' if first else None)
        j.msg(t + 1.8, 'Error message from worker: ' + tb, sev='ERROR', src='weather-165',
              cite='Error message from worker: Traceback (most recent call last): … ' + EXC,
              mark='mnf-msg' if first else None)
        t += 21.0
    msg = ('Workflow failed. Causes: %s failed., A work item was attempted 4 times without '
           'success. The work item was attempted on: \n  ' % STEPS[0] +
           ',\n  '.join([j.w[0], j.w[1], j.w[0], j.w[1]]))
    N.fail(j, cf, t + 4.0, msg, src=('apache/beam#19306 wording "A work item was attempted 4 '
                                      'times without success." without its lost-contact '
                                      'sentence (composition)', 'I'), mark='wif', n=2,
           cite='Workflow failed. Causes: S01:… failed., A work item was attempted 4 times '
                'without success. …')
    c.output('export.json')
    c.fire('python-module-missing', marks=['mnf', 'mnf-msg'], captures={'module': MOD})
    c.fire('work-item-failed', marks=['wif'], caused_by='python-module-missing')
    c.fire('workflow-failed', marks=['wif'], caused_by='python-module-missing')
    c.not_fire('python-version-mismatch', 'beam-version-mismatch', 'venv-unavailable',
               'pip-install-failed')
    c.no_unexplained()
