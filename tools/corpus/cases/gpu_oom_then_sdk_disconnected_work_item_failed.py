from corpuslib import noise as N, texts as T

STEP = 'S03:ReadFrames/Read+Detect+WriteDetections/Write/WriteImpl/WriteBundles'
OOM = ('RuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB (GPU 0; 5.70 GiB total '
       'capacity; 2.97 GiB already allocated; 340.50 MiB free; 3.57 GiB reserved in total by '
       'PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid '
       'fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF')


def build(c):
    c.describe('''
        Cause and symptoms (issue 3's example): on a P4 worker the detector runs out of GPU
        memory ("RuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB ...", real text
        from yyliu01/RPL#14), the SDK process dies, and Dataflow reports "Error message from
        worker: generic::aborted: SDK harness sdk-0-0 disconnected." (real form) and "Data channel
        closed, unable to receive additional data from SDK sdk-0-0" (apache/beam#25273). After
        four attempts: "The job failed because a work item has failed 4 times ... Root cause:
        Timed out waiting for an update from the worker." (apache/beam#30482). The GPU OOM is
        the root cause; disconnect, lost contact and work-item failure are folded under it.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-p4', driver=True, num_workers=2,
               max_workers=2, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/traffic-cams-ai/yolo:torch1.12', disk=50,
               steps=[STEP.split(':', 1)[1]])
    j = c.job('traffic-cam-detections-p4', '2022-11-28T22:05:40Z', region='us-central1',
              zone='us-central1-c', project='traffic-cams-ai', python='3.9', beam='2.43.0',
              workers=2)
    ready = N.bring_up(j, cf)
    tb = T.torch_oom_tb('3.9', OOM, step='Detect')
    t = ready + 75
    for attempt in range(4):
        w = j.w[attempt % 2]
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (2 + attempt), tb), sev='ERROR',
               src='rpl-14', module='apache_beam/runners/worker/sdk_worker.py', line=303,
               cite=OOM, mark='oom' if attempt == 0 else None, thread='Thread-%d' % (11 + attempt),
               step='Detect')
        j.msg(t + 31.0, 'Error message from worker: generic::aborted: SDK harness sdk-0-0 '
              'disconnected.', sev='ERROR', src='beam-25273',
              mark='disc' if attempt == 0 else None)
        j.msg(t + 31.4, 'Error message from worker: Data channel closed, unable to receive '
              'additional data from SDK sdk-0-0', sev='ERROR', src='beam-25273')
        t += 190.0
    N.fail(j, cf, t + 40, T.work_item_failed_4([j.w[0], j.w[1], j.w[0], j.w[1]], step=STEP),
           src='beam-30482', mark='wif', n=2,
           cite='Workflow failed. Causes: S03:… failed., The job failed because a work item has '
                'failed 4 times. … Root cause: Timed out waiting for an update from the worker. …')
    c.output('export.json')
    c.fire('gpu-out-of-memory', marks=['oom'])
    c.fire('sdk-harness-disconnected', marks=['disc'], caused_by='gpu-out-of-memory')
    c.fire('worker-lost-contact', marks=['wif'], caused_by='gpu-out-of-memory')
    c.fire('work-item-failed', marks=['wif'], caused_by='gpu-out-of-memory')
    c.may_fire('workflow-failed')
    c.not_fire('host-out-of-memory')
