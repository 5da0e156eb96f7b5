from corpuslib import noise as N


def build(c):
    c.describe('''
        A C extension holds the GIL for minutes: the runner harness logs "Unable to retrieve
        status info from SDK harness sdk-0-0 within allowed time" and then "SDK worker appears to
        be permanently unresponsive. Aborting the SDK" (Dataflow/Beam docs text; the harness log
        placement is inferred), followed by the job message "SDK harness sdk-0-0 disconnected.".
        sdk-unresponsive is the cause of the disconnect.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/genomics-var/pileup-gpu:0.4', disk=100)
    j = c.job('pileup-images-chr1', '2023-12-05T16:44:30Z', region='us-central1',
              zone='us-central1-f', project='genomics-var', python='3.10', beam='2.52.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 1200
    j.harness(t, w, 'Unable to retrieve status info from SDK harness sdk-0-0 within allowed time',
              sev='WARNING', src='docs-unresponsive')
    j.harness(t + 600.0, w, 'SDK worker appears to be permanently unresponsive. Aborting the SDK',
              sev='ERROR', src='docs-unresponsive', mark='unresp')
    j.msg(t + 604.0, 'Error message from worker: generic::aborted: SDK harness sdk-0-0 '
          'disconnected.', sev='ERROR', src='beam-25273', mark='disc')
    c.output('export.json')
    c.fire('sdk-unresponsive', marks=['unresp'])
    c.fire('sdk-harness-disconnected', marks=['disc'], caused_by='sdk-unresponsive')
