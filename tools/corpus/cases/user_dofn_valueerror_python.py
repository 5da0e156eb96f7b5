from corpuslib import noise as N, texts as T

STEP = 'Embed'
EXC = "ValueError: Input contains NaN, infinity or a value too large for dtype('float32')."


def build(c):
    c.describe('''
        A user-code exception no rule knows (issue 15's example): on two T4 workers the DoFn of
        step 'Embed' calls sklearn's check_array in /app/pipeline.py line 88 and every bundle
        raises "ValueError: Input contains NaN, infinity or a value too large for
        dtype('float32')." (real sklearn text). Each attempt leaves two copies of one failure: the
        SDK harness's "Error processing instruction ... Original traceback is" on the worker log
        (in jsonPayload.message; Beam's re-raise adds " [while running 'Embed']") and the job
        message "Error message from worker: generic::unknown: Traceback ..." flattened onto one
        line (the stderr copy split across docker entries is docker-split-traceback's case).
        After four attempts the job fails with "A work item was attempted 4 times without success" (work-item-failed fires,
        workflow-failed folds under it). No cause rule fires; the ValueError must be the one
        error-level unexplained group, with its file:line and step.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2,
               max_workers=2, experiments=['no_use_multiple_sdk_containers'],
               image='us-central1-docker.pkg.dev/acme-ml-prod/dataflow/embed:2.53-gpu', disk=50,
               steps=['S02:ReadFeatures/Read+Embed+WriteEmbeddings/Write'])
    j = c.job('feature-embed-nightly', '2024-05-14T03:10:12Z', region='us-central1',
              zone='us-central1-b', python='3.10', beam='2.53.0', workers=2)
    ready = N.bring_up(j, cf)
    frames = T.sklearn_nan_frames('3.10', '/app/pipeline.py', 88,
                                  'features = check_array(batch, dtype=np.float32)')
    tb = T.augmented_tb('3.10', frames, EXC, STEP)
    t = ready + 42
    for attempt in range(4):
        w = j.w[attempt % 2]
        first = attempt == 0
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (7 + attempt), tb),
               sev='ERROR', src='sklearn-nan', cite=EXC, module='apache_beam/runners/worker/'
               'sdk_worker.py', line=303, thread='Thread-%d' % (21 + attempt), step=STEP,
               mark='nan' if first else None)
        j.msg(t + 2.6, 'Error message from worker: generic::unknown: ' + T.flatten(tb),
              sev='ERROR', src='jobmsg-flat', cite='Error message from worker: generic::unknown: '
              'Traceback (most recent call last): … ' + EXC + " [while running 'Embed']",
              mark='nan-msg' if first else None)
        t += 38.0
    c.source("ValueError: … [while running 'Embed']", 'beam-reraise')
    msg = ('Workflow failed. Causes: S02:ReadFeatures/Read+Embed+WriteEmbeddings/Write failed., '
           'A work item was attempted 4 times without success. The work item was attempted on: '
           '\n  ' + ',\n  '.join([j.w[0], j.w[1], j.w[0], j.w[1]]))
    N.fail(j, cf, t + 4.0, msg, src=('apache/beam#19306 wording "A work item was attempted 4 '
                                      'times without success." without its lost-contact '
                                      'sentence (composition)', 'I'), mark='wif', n=2,
           cite='Workflow failed. Causes: S02:… failed., A work item was attempted 4 times '
                'without success. …')
    c.output('export.json')
    c.fire('work-item-failed', marks=['wif'])
    c.fire('workflow-failed', marks=['wif'], caused_by='work-item-failed')
    c.not_fire('gpu-out-of-memory', 'worker-lost-contact', 'sdk-harness-disconnected')
    c.unexplained(exception='ValueError', message='Input contains NaN',
                  user_frame='pipeline.py:88', step=STEP, marks=['nan', 'nan-msg'],
                  key_strings=['Input contains NaN, infinity or a value too large'])
