from corpuslib import noise as N, texts as T

EXC = 'java.lang.ArrayIndexOutOfBoundsException: 1'
STEPS = ['S04:ReadRecords/Read+ParseFeatures+ScoreOnGpu+WriteScores/Write']


def build(c):
    c.describe('''
        A Java DoFn throwing (Runner v2 Java SDK harness on a T4 worker): ParseFeaturesFn.
        processElement (ParseFeaturesFn.java line 57) throws "java.lang.ArrayIndexOutOfBoundsException:
        1" (real text, GoogleCloudPlatform/dlp-dataflow-deidentification#74) on every attempt. The
        worker log has "Exception while trying to handle InstructionRequest <id>" (Beam's
        BeamFnControlClient) with the stack in jsonPayload.exception: Beam's UserCodeException
        wrapping it, then "Caused by:" with the user frame and "... 16 more"; the job message
        repeats it as "Error message from worker: generic::unknown: org.apache.beam.sdk.util.
        UserCodeException: ...". Four attempts, then "A work item was attempted 4 times without
        success". The innermost exception of the "Caused by:" chain is the cause; Java frames
        carry no Beam step.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2,
               max_workers=2, image='us-central1-docker.pkg.dev/acme-ml-prod/dataflow/score-java:1.4',
               disk=50, steps=STEPS)
    j = c.job('score-records-java-gpu', '2024-07-02T16:40:05Z', region='us-central1',
              zone='us-central1-a', python='3.10', beam='2.56.0', workers=2)
    N.submit(j, cf, steps=STEPS)
    N.started(j, cf, 60.0, n=2)
    for i, w in enumerate(j.w):
        t0 = N.vm_boot(j, w, 66.0 + i * 5.2)
        t0 = N.driver_install(j, w, cf, t0 + 2.0)
        N.image_check(j, w, cf, t0 + 3.0)
    trace = T.java_user_code_trace(EXC, 'com.acme.embed.ParseFeaturesFn', 'ParseFeaturesFn.java',
                                   57, 16)
    t = 260.0
    for attempt in range(4):
        w = j.w[attempt % 2]
        first = attempt == 0
        j.wlog(t, w, 'Exception while trying to handle InstructionRequest %d' % (31 + attempt * 7),
               sev='ERROR', src='java-trace', exception=trace, sdk='sdk-0-0',
               logger='org.apache.beam.fn.harness.control.BeamFnControlClient',
               thread='%d' % (29 + attempt), cite='Caused by: ' + EXC,
               mark='aioobe' if first else None)
        j.msg(t + 3.1, 'Error message from worker: generic::unknown: ' + trace, sev='ERROR',
              src='dlp-74', cite='Error message from worker: generic::unknown: org.apache.beam.'
              'sdk.util.UserCodeException: ' + EXC + ' …', mark='aioobe-msg' if first else None)
        t += 44.0
    c.source('Exception while trying to handle InstructionRequest {}',
             ('apache/beam sdks/java/harness BeamFnControlClient.delegateOnInstructionRequestType: '
              'LOG.error("Exception while trying to handle {} {}", …, e) and setError('
              'getStackTraceAsString(e))', 'V-code'))
    msg = ('Workflow failed. Causes: %s failed., A work item was attempted 4 times without '
           'success. The work item was attempted on: \n  ' % STEPS[0] +
           ',\n  '.join([j.w[0], j.w[1], j.w[0], j.w[1]]))
    N.fail(j, cf, t + 4.0, msg, src=('apache/beam#19306 wording "A work item was attempted 4 '
                                      'times without success." without its lost-contact '
                                      'sentence (composition)', 'I'), mark='wif', n=2,
           cite='Workflow failed. Causes: S04:… failed., A work item was attempted 4 times '
                'without success. …')
    c.output('export.json')
    c.fire('work-item-failed', marks=['wif'])
    c.fire('workflow-failed', marks=['wif'], caused_by='work-item-failed')
    c.not_fire('worker-lost-contact', 'host-out-of-memory')
    c.unexplained(exception='java.lang.ArrayIndexOutOfBoundsException',
                  message='ArrayIndexOutOfBoundsException: 1',
                  user_frame='ParseFeaturesFn.java:57', step=None,
                  marks=['aioobe', 'aioobe-msg'],
                  key_strings=['ArrayIndexOutOfBoundsException: 1'])
