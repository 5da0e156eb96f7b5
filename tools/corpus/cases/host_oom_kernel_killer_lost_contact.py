from corpuslib import noise as N, texts as T

STEP = 'S02:ReadImages/Read+Embed+WriteEmbeddings/Write/WriteImpl/WriteBundles'


def build(c):
    c.describe('''
        Host (VM) memory, not GPU memory: on an n1-standard-4 T4 worker, four SDK processes each
        hold a copy of a large model in RAM. The system log shows the kernel OOM killer
        ("oom-kill:constraint=CONSTRAINT_NONE,...task=python,pid=3178", "Out of memory: Killed
        process 3178 (python) total-vm:8543420kB, anon-rss:7322012kB, ...", "oom_reaper: reaped
        process 3178 (python) ..."; real kernel lines from dask/distributed#6110, seen outside
        Dataflow), then "SDK harness sdk-0-1 disconnected." and finally the work-item failure with
        "Root cause: The worker lost contact with the service." (tensorflow/datasets#1473 wording).
        host-out-of-memory is the root cause; gpu-out-of-memory must stay quiet.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, sdk_procs=4, image='gcr.io/photo-dedupe/clip-embed:2.1', disk=50,
               steps=[STEP.split(':', 1)[1]])
    j = c.job('photo-dedupe-embeddings', '2022-07-19T12:31:08Z', region='us-east1',
              zone='us-east1-c', project='photo-dedupe', python='3.9', beam='2.40.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 300
    for attempt in range(4):
        pid = 3178 + attempt * 911
        j.system(t, w, 'oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,'
                 'mems_allowed=0,global_oom,task_memcg=/kubepods/besteffort/pod%s,task=python,'
                 'pid=%d,uid=0' % ('6f1c2a0e-1b7d-4f52-a8e4-%012d' % (417 + attempt), pid),
                 src='dask-6110')
        j.system(t + 0.00004, w, 'Out of memory: Killed process %d (python) total-vm:8543420kB, '
                 'anon-rss:7322012kB, file-rss:0kB, shmem-rss:8kB, UID:0 pgtables:14980kB '
                 'oom_score_adj:0' % pid, src='dask-6110', mark='oomk' if attempt == 0 else None)
        j.system(t + 0.46, w, 'oom_reaper: reaped process %d (python), now anon-rss:0kB, '
                 'file-rss:0kB, shmem-rss:12kB' % pid, src='dask-6110')
        j.msg(t + 29.0, 'Error message from worker: generic::aborted: SDK harness sdk-0-%d '
              'disconnected.' % (1 + attempt % 3), sev='ERROR', src='beam-25273',
              mark='disc' if attempt == 0 else None)
        t += 420.0
    N.fail(j, cf, t, T.work_item_failed_4_lost_contact(STEP, [w] * 4), src='tfds-1473',
           mark='wif', cite='Workflow failed. Causes: S02:… failed., The job failed because a work '
                            'item has failed 4 times. … Root cause: The worker lost contact with '
                            'the service.')
    c.output('export.json')
    c.fire('host-out-of-memory', marks=['oomk'])
    c.fire('sdk-harness-disconnected', marks=['disc'], caused_by='host-out-of-memory')
    c.fire('worker-lost-contact', marks=['wif'], caused_by='host-out-of-memory')
    c.fire('work-item-failed', marks=['wif'], caused_by='host-out-of-memory')
    c.may_fire('workflow-failed')
    c.not_fire('gpu-out-of-memory', 'multiple-processes-per-gpu')
