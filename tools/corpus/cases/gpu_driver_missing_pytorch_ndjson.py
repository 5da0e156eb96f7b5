from corpuslib import noise as N, texts as T

STEP = 'S02:ReadFrames/Read+Detect+WriteDetections/Write/WriteImpl/WriteBundles'
EXC = ('RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA '
       'GPU and installed a driver from http://www.nvidia.com/Download/index.aspx')


def build(c):
    c.describe('''
        L4 job whose accelerator option lacks install-nvidia-driver
        (type:nvidia-l4;count:1). The DoFn's setup prints nvidia-smi output ("NVIDIA-SMI has
        failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest
        NVIDIA driver is installed and running.") and moving the model to cuda raises PyTorch's
        "RuntimeError: Found no NVIDIA driver on your system. ..." (source string of PyTorch
        c10/cuda). Every bundle fails and the job ends with "The job failed because a work item
        has failed 4 times". Root cause gpu-driver-missing; work-item-failed is its symptom.
        Cloud Storage sink shard (NDJSON). Traceback frames composed.''')
    cf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', driver=False, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='us-docker.pkg.dev/traffic-cams-ai/beam/yolo:8.1-cu121', disk=80,
               steps=[STEP.split(':', 1)[1]])
    j = c.job('traffic-cam-detections', '2024-08-19T04:10:27Z', region='us-west1',
              zone='us-west1-a', project='traffic-cams-ai', python='3.11', beam='2.58.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    tb = T.user_tb('3.11', [
        '  File "/opt/pipeline/detect.py", line 34, in setup',
        '    self._model = YOLO(self._weights).to("cuda")',
        '  File "/usr/local/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1152, in to',
        '    return self._apply(convert)',
        '  File "/usr/local/lib/python3.11/site-packages/torch/cuda/__init__.py", line 302, in _lazy_init',
        '    torch._C._cuda_init()'], EXC)
    t = ready + 4
    for attempt in range(4):
        j.docker(t, w, "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
                 "driver. Make sure that the latest NVIDIA driver is installed and running.",
                 sev='INFO', src='gcp-gpu-install-33', mark='smi' if attempt == 0 else None)
        j.wlog(t + 1.3, w, 'Error processing instruction process_bundle-%d. Original traceback is'
               % (1 + attempt), exception=tb, sev='ERROR', src='pytorch-c10', cite=EXC,
               module='apache_beam/runners/worker/sdk_worker.py', line=303,
               mark='nodrv' if attempt == 0 else None, thread='Thread-%d' % (9 + attempt))
        j.msg(t + 4.0, T.worker_error_msg(tb, 'Detect-ptransform-19'), sev='ERROR',
              src='pytorch-c10', cite='Error message from worker: generic::unknown: Traceback … '
                                      'RuntimeError: Found no NVIDIA driver on your system. …')
        t += 38.0
    N.sdk_shutdown(j, w, t)
    N.fail(j, cf, t + 6, T.work_item_failed_4_plain(STEP, [w] * 4), src='tfds-1473', mark='wif',
           cite='Workflow failed. Causes: S02:… failed., The job failed because a work item has failed 4 times. …')
    c.output('export.ndjson')
    c.fire('gpu-driver-missing', marks=['nodrv'], caused_by='gpu-driver-not-requested')
    c.fire('work-item-failed', marks=['wif'], caused_by='gpu-driver-missing')
    c.may_fire('workflow-failed')
    c.not_fire('cuda-libraries-missing', 'worker-lost-contact')
    c.fire('gpu-driver-not-requested', marks=[])  # the option alone tells
