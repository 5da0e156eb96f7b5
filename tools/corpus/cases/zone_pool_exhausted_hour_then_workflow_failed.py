from corpuslib import noise as N

TPL = ("Startup of the worker pool in zone us-central1-b failed to bring up any of the desired 5 "
       "workers. Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors#"
       "worker-pool-failure for help troubleshooting. ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS: "
       "Instance '%s' creation failed: The zone 'projects/speech-asr-batch/zones/us-central1-a' "
       "does not have enough resources available to fulfill the request.  '(resource "
       "type:compute)'.")


def build(c):
    c.describe('''
        Cause and symptom: a 5-worker V100 job cannot get capacity. "Startup of the worker pool in
        zone us-central1-b failed to bring up any of the desired 5 workers. ...
        ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS: Instance '...-harness-....' creation failed:
        The zone 'projects/.../zones/us-central1-a' does not have enough resources ..." (real
        wording from apache/beam#26552, with the sentence zone differing from the Compute Engine
        zone) repeats for an hour, then the job ends with "Workflow failed. Causes: Unable to bring
        up enough workers: minimum 1, actual 0. ..." (real, cloudml-samples#54). The zone capture
        is the zone of the sentence. workflow-failed is folded under the pool exhaustion.
        Cloud Storage sink shard (NDJSON).''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-v100', driver=True, num_workers=5,
               max_workers=5, image='gcr.io/speech-asr-batch/whisper-batch:2023-05')
    j = c.job('whisper-transcribe-backlog', '2023-05-03T13:47:12Z', region='us-central1',
              zone='us-central1-b', project='speech-asr-batch', python='3.10', beam='2.46.0',
              workers=0)
    N.submit(j, cf, steps=['ReadAudio/Read+Transcribe+WriteTranscripts/Write/WriteImpl/'
                           'WriteBundles'])
    t = 96.0
    k = 0
    while t < 3660:
        inst = j.add_worker()
        j.msg(t, TPL % inst, sev='ERROR', src='beam-26552', mark='rpe' if k == 0 else None,
              cite=TPL % '…-harness-…')
        t += 298.0 + (k % 3) * 41
        k += 1
    N.fail(j, cf, t + 12, N.UNABLE_TO_BRING_UP, src='cloudml-54', mark='wf', n=5)
    c.output('export.ndjson')
    c.fire('zone-resource-pool-exhausted', marks=['rpe'], captures={'zone': 'us-central1-b'})
    c.fire('workflow-failed', marks=['wf'], caused_by='zone-resource-pool-exhausted')
    c.not_fire('gpu-quota-exceeded', 'workers-stuck-no-activity')
