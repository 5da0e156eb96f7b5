from corpuslib import noise as N

CAUSE = ('Project acme-ml-prod has insufficient quota(s) to execute this workflow with 1 instances '
         'in region us-central1. Quota summary (required/available): 1/6987 instances, 8/0 CPUs, '
         '250/69951 disk GB, 0/4046 SSD disk GB, 1/293 instance groups, 1/293 managed instance '
         'groups, 1/268 instance templates, 1/241 in-use IP addresses.')


def build(c):
    c.describe('''
        A job-message cause no rule knows (issue 39, "Job-message causes"): an L4 job on
        g2-standard-8 is refused before any worker starts because the project's regional CPU
        quota is spent. Dataflow's pre-flight quota check says so in the failure message itself:
        "Workflow failed. Causes: Project … has insufficient quota(s) to execute this workflow with
        1 instances in region us-central1. Quota summary (required/available): 1/6987 instances,
        8/0 CPUs, …" (real wording of apache/beam#19325, BEAM-6203; project, region and the CPU
        count of a g2-standard-8 adapted). gpu-quota-exceeded must stay quiet (no GPU item in the
        summary); workflow-failed fires alone, and the verdict quotes the Causes clause instead of
        saying only that no rule explains the failure.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1)
    j = c.job('rerank-l4-batch', '2025-11-18T09:02:41Z', region='us-central1',
              zone='us-central1-a', python='3.11', beam='2.68.0', workers=0)
    N.submit(j, cf, steps=['S01:ReadQueries/Read+Rerank+WriteScores/Write'])
    N.fail(j, cf, 9.5, 'Workflow failed. Causes: ' + CAUSE,
           src=('apache/beam#19325 (BEAM-6203): "Workflow failed. Causes: Project apache-beam-testing '
                'has insufficient quota(s) to execute this workflow with 1 instances in region '
                'us-central1. Quota summary (required/available): 1/6987 instances, 1/0 CPUs, …" '
                '(project and CPU count adapted)', 'V'),
           mark='wf', n=0, cite='Workflow failed. Causes: Project acme-ml-prod has insufficient '
                                'quota(s) … 8/0 CPUs, …')
    c.output('export.json')
    c.fire('workflow-failed', marks=['wf'], caused_by=None)
    c.not_fire('gpu-quota-exceeded', 'zone-resource-pool-exhausted')
    c.no_unexplained()
