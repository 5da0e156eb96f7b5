from corpuslib import noise as N

MSG = ("Workflow failed. Causes: Error:\n Message: The resource 'projects/geo-sat-imagery/zones/"
       "us-west4-a/acceleratorTypes/nvidia-tesla-t4' was not found\n HTTP Code: 404")


def build(c):
    c.describe('''
        SYNTHETIC wrapping: the job pins worker_zone us-west4-a, where T4 GPUs are not offered.
        The Compute Engine text "The resource 'projects/.../zones/us-west4-a/acceleratorTypes/
        nvidia-tesla-t4' was not found" is real (fastai/course-v3#430, outside Dataflow) and the
        "Workflow failed. Causes: Error: Message: ... HTTP Code: ..." envelope is real Dataflow
        wording from another error (googlecodelabs/feedback#967); their combination is inferred.
        Captures zone us-west4-a and gpu_type nvidia-tesla-t4.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, zone_pinned=True)
    j = c.job('sat-cloudmask-west', '2024-10-09T20:11:37Z', region='us-west4', zone='us-west4-a',
              project='geo-sat-imagery', python='3.11', beam='2.59.0', workers=0)
    N.submit(j, cf, steps=['ListScenes/Read+CloudMask+WriteMasks/Write/WriteImpl/WriteBundles'])
    N.fail(j, cf, 21.7, MSG, src='gce-accel-not-found', mark='nf',
           cite="The resource 'projects/…/zones/us-west4-a/acceleratorTypes/nvidia-tesla-t4' was "
                "not found")
    c.source('Workflow failed. Causes: Error:\n Message: … HTTP Code: …', 'codelabs-967')
    c.output('export.json')
    c.fire('gpu-type-unavailable', marks=['nf'],
           captures={'zone': 'us-west4-a', 'gpu_type': 'nvidia-tesla-t4'})
    c.fire('workflow-failed', marks=['nf'], caused_by='gpu-type-unavailable')
