from corpuslib import noise as N

TPL = ("Startup of the worker pool in zone us-central1-a failed to bring up any of the desired 1 "
       "workers. Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors#"
       "worker-pool-failure for help troubleshooting. UNSUPPORTED_OPERATION: Instance '%s' "
       "creation failed: Instances with guest accelerators do not support live migration.")


def build(c):
    c.describe('''
        An accelerator machine type (g2-standard-8, which always carries an L4) without the
        worker_accelerator service option: Dataflow creates a VM with the default live-migration
        policy and Compute Engine refuses: "UNSUPPORTED_OPERATION: Instance '...' creation failed:
        Instances with guest accelerators do not support live migration." (Dataflow docs
        template with our values; the Compute Engine sentence is real, loft-sh/devpod#973).
        Repeats while Dataflow retries; the export ends before the job fails.''')
    cf = N.cfg(machine='g2-standard-8', gpu=None, num_workers=1, max_workers=1,
               image='us-docker.pkg.dev/media-ai-lab/beam/whisper:2024-06')
    j = c.job('podcast-asr-g2', '2024-06-12T09:40:21Z', region='us-central1',
              zone='us-central1-a', project='media-ai-lab', python='3.11', beam='2.56.0',
              workers=0)
    N.submit(j, cf, steps=['ReadAudio/Read+Transcribe+WriteText/Write/WriteImpl/WriteBundles'])
    t = 52.0
    for k in range(3):
        j.msg(t, TPL % j.add_worker(), sev='ERROR', src='gce-live-migration',
              mark='lm' if k == 0 else None, cite=TPL % '…-harness-…')
        t += 420.0
    c.output('export.json')
    c.fire('accelerator-option-missing', marks=['lm'])
    c.not_fire('zone-resource-pool-exhausted', 'gpu-quota-exceeded')
