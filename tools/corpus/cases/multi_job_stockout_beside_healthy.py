from corpuslib import noise as N

TPL = ("Startup of the worker pool in zone us-central1-b failed to bring up any of the desired 2 "
       "workers. Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors#"
       "worker-pool-failure for help troubleshooting. ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS: "
       "Instance '%s' creation failed: The zone 'projects/media-ml-prod/zones/us-central1-b' "
       "does not have enough resources available to fulfill the request.  '(resource "
       "type:compute)'.")


def build(c):
    c.describe('''
        Project-wide export (gcloud array, newest first) of two jobs of one project on one
        morning. A T4 GPU job cannot get capacity: "Startup of the worker pool in zone
        us-central1-b failed to bring up any of the desired 2 workers. ...
        ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS: Instance '...-harness-....' creation failed:
        The zone ... does not have enough resources ..." (real wording, apache/beam#26552) every
        five minutes for 40 minutes, then "Workflow failed. Causes: Unable to bring up enough
        workers: minimum 1, actual 0. ..." (real, cloudml-samples#54). Beside it, in the same hour,
        a healthy CPU word-count job with three workers and two SDK processes each, which has many
        more entries than the failed job (the healthy job must not be the one named). Per job: the
        GPU job failed with the stockout as cause; the CPU job succeeded with nothing to report.''')
    gcf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2,
                max_workers=2, image='us-central1-docker.pkg.dev/media-ml-prod/beam/thumbs:2024-04')
    g = c.job('thumbnail-embeddings-t4', '2024-04-16T07:02:11Z', region='us-central1',
              zone='us-central1-b', project='media-ml-prod', python='3.11', beam='2.55.1',
              workers=0)
    N.submit(g, gcf, steps=['ReadThumbs/Read+Embed+WriteEmbeddings/Write/WriteImpl/WriteBundles'])
    t = 96.0
    k = 0
    while t < 2400:
        inst = g.add_worker()
        g.msg(t, TPL % inst, sev='ERROR', src='beam-26552', mark='rpe' if k == 0 else None,
              cite=TPL % '…-harness-…')
        t += 300.0 + (k % 2) * 17
        k += 1
    N.fail(g, gcf, t + 12, N.UNABLE_TO_BRING_UP, src='cloudml-54', mark='wf', n=2)

    ccf = N.cfg(machine='n1-standard-2', gpu=None, num_workers=3, max_workers=10, sdk_procs=2,
                steps=N.STEPS_CPU)
    h = c.job('wordcount-logs-hourly', '2024-04-16T07:05:40Z', region='us-central1',
              zone='us-central1-f', project='media-ml-prod', python='3.11', beam='2.55.1',
              workers=3)
    ready = N.bring_up(h, ccf, steps=N.STEPS_CPU)
    end = ready + 780
    for w in h.w:
        for sdk in N.sdk_ids(ccf):
            N.sdk_shutdown(h, w, end - 30, sdk=sdk)
    N.teardown(h, ccf, end, n=3)

    c.output('export.json')
    c.fire('zone-resource-pool-exhausted', marks=['rpe'], captures={'zone': 'us-central1-b'},
           job=g)
    c.fire('workflow-failed', marks=['wf'], caused_by='zone-resource-pool-exhausted', job=g)
    c.not_fire('gpu-quota-exceeded', 'workers-stuck-no-activity', 'gpu-not-used',
               'gpu-driver-missing')
    c.job_truth(g, outcome='failed', verdict='failed',
                not_fire=['gpu-quota-exceeded', 'workers-stuck-no-activity'])
    c.job_truth(h, outcome='succeeded', verdict='ok',
                not_fire=['gpu-not-used', 'gpu-driver-missing', 'zone-resource-pool-exhausted'])
