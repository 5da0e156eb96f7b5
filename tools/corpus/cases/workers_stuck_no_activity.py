from corpuslib import noise as N


def build(c):
    c.describe('''
        The stall without flex-start: a CPU batch job with a custom container. The job messages
        say "Workers have started successfully." (real sequence from
        google-research/text-to-text-transfer-transformer#986), the worker VM boots and checks
        its image, but the SDK harness never logs anything, and 59 minutes later: "Workflow
        failed. Causes: The Dataflow job appears to be stuck because no worker activity has been
        seen in the last 1h. ..." No other signal explains it (typical of a custom container
        that never starts its SDK process).''')
    cf = N.cfg(machine='n1-standard-16', gpu=None, num_workers=1, max_workers=20,
               image='gcr.io/nlp-corpus-1207/c4-builder:0.3.2', disk=250)
    j = c.job('c4-multilingual-build', '2022-02-22T17:40:58Z', region='us-central1',
              zone='us-central1-c', project='nlp-corpus-1207', python='3.8', beam='2.36.0')
    N.submit(j, cf, steps=['create_wet_path_urls/Read+ReadAllFromText/ReadAllFiles/'
                           'ExpandIntoRanges+ReadAllFromText/ReadAllFiles/Reshard/AddRandomKeys'])
    j.msg(137.1, 'Value "ReadAllFromText/ReadAllFiles/Reshard/ReshufflePerKey/GroupByKey/Session" '
          'materialized.', sev='DEBUG', src='t5-986')
    N.started(j, cf, 165.8)
    w = j.w[0]
    t = N.vm_boot(j, w, 171.0)
    N.image_check(j, w, cf, t + 3.0)
    N.fail(j, cf, 165.8 + 34.0 + 3542.05, N.NO_ACTIVITY_1H, src='tfx-6386', mark='stall')
    c.output('export.json')
    c.fire('workers-stuck-no-activity', marks=['stall'])
    c.fire('workflow-failed', marks=['stall'], caused_by='workers-stuck-no-activity')
    c.not_fire('flex-start-capacity-timeout')
