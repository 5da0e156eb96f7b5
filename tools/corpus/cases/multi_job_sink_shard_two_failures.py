from corpuslib import noise as N, texts as T

OOM = ('RuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB (GPU 0; 5.70 GiB total '
       'capacity; 2.97 GiB already allocated; 340.50 MiB free; 3.57 GiB reserved in total by '
       'PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid '
       'fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF')
NODRV = ('RuntimeError: Found no NVIDIA driver on your system. Please check that you have an '
         'NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx')
OOM_STEP = 'S03:ReadFrames/Read+Detect+WriteDetections/Write/WriteImpl/WriteBundles'
DRV_STEP = 'S02:ReadClips/Read+Transcode+Classify+WriteLabels/Write/WriteImpl/WriteBundles'

# (name, start, region, zone, machine, python, beam, minutes of work): the healthy, short jobs
HEALTHY = [
    ('wordcount-access-logs', '2024-10-07T00:15:02Z', 'us-central1', 'us-central1-f',
     'n1-standard-2', '3.11', '2.59.0', 6),
    ('sessionize-clickstream', '2024-10-07T01:00:44Z', 'us-central1', 'us-central1-c',
     'n1-standard-4', '3.11', '2.59.0', 9),
    ('dedupe-orders-daily', '2024-10-07T02:52:19Z', 'us-east1', 'us-east1-b', 'n1-standard-2',
     '3.10', '2.57.0', 4),
    ('export-bq-to-gcs', '2024-10-07T02:58:51Z', 'europe-west1', 'europe-west1-d',
     'n1-standard-2', '3.11', '2.59.0', 5),
    ('geo-enrich-events', '2024-10-07T05:21:07Z', 'us-central1', 'us-central1-a',
     'n1-highmem-2', '3.12', '2.60.0', 7),
    ('compact-parquet-partitions', '2024-10-07T05:24:33Z', 'us-central1', 'us-central1-b',
     'n1-standard-4', '3.11', '2.59.0', 8),
]


def healthy(c, spec):
    name, start, region, zone, machine, py, beam, minutes = spec
    cf = N.cfg(machine=machine, gpu=None, num_workers=1, max_workers=4, steps=N.STEPS_CPU)
    j = c.job(name, start, region=region, zone=zone, project='media-pipelines', python=py,
              beam=beam, workers=1)
    ready = N.bring_up(j, cf, steps=N.STEPS_CPU, notice=False)
    end = ready + minutes * 60
    N.sdk_shutdown(j, j.w[0], end - 25)
    N.teardown(j, cf, end)
    return j


def build(c):
    c.describe('''
        One day's Cloud Storage sink shard (NDJSON) of a project with eight Dataflow jobs, entries
        interleaved by time as the sink writes them. Six short CPU batch jobs succeed (job
        messages from "Worker configuration" to "Worker pool stopped.", one worker, one SDK
        process). Two GPU jobs fail differently: on a P4 the detector runs out of GPU memory four
        times ("RuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB ...", real text,
        yyliu01/RPL#14) and the job ends with "The job failed because a work item has failed 4
        times ... Root cause: Timed out waiting for an update from the worker." (apache/beam#30482);
        an L4 job without install-nvidia-driver fails every bundle on PyTorch's "RuntimeError:
        Found no NVIDIA driver on your system. ..." (source string of PyTorch c10/cuda) after
        nvidia-smi's "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA
        driver" (real), ending in "The job failed because a work item has failed 4 times". Each
        failure belongs to its own job; the healthy jobs have nothing to report. Traceback frames
        composed.''')
    hs = [healthy(c, spec) for spec in HEALTHY[:3]]

    # GPU OOM job (P4, two workers)
    ocf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-p4', driver=True, num_workers=2,
                max_workers=2, experiments=['no_use_multiple_sdk_containers'],
                image='gcr.io/media-pipelines/yolo:torch1.13', disk=50,
                steps=[OOM_STEP.split(':', 1)[1]])
    o = c.job('frame-detections-p4', '2024-10-07T02:48:10Z', region='us-central1',
              zone='us-central1-c', project='media-pipelines', python='3.10', beam='2.59.0',
              workers=2)
    ready = N.bring_up(o, ocf)
    tb = T.torch_oom_tb('3.10', OOM, step='Detect')
    t = ready + 75
    for attempt in range(4):
        w = o.w[attempt % 2]
        o.wlog(t, w, T.instruction_error('process_bundle-%d' % (2 + attempt), tb), sev='ERROR',
               src='rpl-14', module='apache_beam/runners/worker/sdk_worker.py', line=303,
               cite=OOM, mark='oom' if attempt == 0 else None, thread='Thread-%d' % (11 + attempt),
               step='Detect')
        o.msg(t + 4.0, T.worker_error_msg(tb, 'Detect-ptransform-41'), sev='ERROR', src='rpl-14',
              cite='Error message from worker: generic::unknown: Traceback … CUDA out of memory. '
                   'Tried to allocate 602.00 MiB …')
        t += 170.0
    N.fail(o, ocf, t + 40, T.work_item_failed_4([o.w[0], o.w[1], o.w[0], o.w[1]], step=OOM_STEP),
           src='beam-30482', mark='wif-oom', n=2,
           cite='Workflow failed. Causes: S03:… failed., The job failed because a work item has '
                'failed 4 times. … Root cause: Timed out waiting for an update from the worker. …')

    hs += [healthy(c, spec) for spec in HEALTHY[3:]]

    # driver missing job (L4, no install-nvidia-driver)
    dcf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', driver=False, num_workers=1,
                max_workers=1, experiments=['no_use_multiple_sdk_containers'],
                image='us-docker.pkg.dev/media-pipelines/beam/clip-classify:2024-10', disk=80,
                steps=[DRV_STEP.split(':', 1)[1]])
    d = c.job('clip-classify-l4', '2024-10-07T05:20:56Z', region='us-central1',
              zone='us-central1-a', project='media-pipelines', python='3.11', beam='2.59.0')
    ready = N.bring_up(d, dcf)
    w = d.w[0]
    dtb = T.user_tb('3.11', [
        '  File "/opt/pipeline/classify.py", line 52, in setup',
        '    self._model = open_clip.create_model(self._arch, pretrained=self._ckpt).to("cuda")',
        '  File "/usr/local/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1160, in to',
        '    return self._apply(convert)',
        '  File "/usr/local/lib/python3.11/site-packages/torch/cuda/__init__.py", line 314, in _lazy_init',
        '    torch._C._cuda_init()'], NODRV)
    t = ready + 4
    for attempt in range(4):
        d.docker(t, w, "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
                 "driver. Make sure that the latest NVIDIA driver is installed and running.",
                 sev='INFO', src='gcp-gpu-install-33', mark='smi' if attempt == 0 else None)
        d.wlog(t + 1.3, w, 'Error processing instruction process_bundle-%d. Original traceback is'
               % (1 + attempt), exception=dtb, sev='ERROR', src='pytorch-c10', cite=NODRV,
               module='apache_beam/runners/worker/sdk_worker.py', line=303,
               mark='nodrv' if attempt == 0 else None, thread='Thread-%d' % (9 + attempt))
        d.msg(t + 4.0, T.worker_error_msg(dtb, 'Classify-ptransform-23'), sev='ERROR',
              src='pytorch-c10', cite='Error message from worker: generic::unknown: Traceback … '
                                      'RuntimeError: Found no NVIDIA driver on your system. …')
        t += 41.0
    N.sdk_shutdown(d, w, t)
    N.fail(d, dcf, t + 6, T.work_item_failed_4_plain(DRV_STEP, [w] * 4), src='tfds-1473',
           mark='wif-drv',
           cite='Workflow failed. Causes: S02:… failed., The job failed because a work item has '
                'failed 4 times. …')

    c.output('export.ndjson', order='oldest')
    c.fire('gpu-out-of-memory', marks=['oom'], job=o)
    c.fire('worker-lost-contact', marks=['wif-oom'], caused_by='gpu-out-of-memory', job=o)
    c.fire('work-item-failed', marks=['wif-oom'], caused_by='gpu-out-of-memory', job=o)
    c.fire('gpu-driver-missing', marks=['nodrv'], job=d, caused_by='gpu-driver-not-requested')
    c.fire('work-item-failed', marks=['wif-drv'], caused_by='gpu-driver-missing', job=d)
    c.fire('gpu-driver-not-requested', marks=[], job=d)  # the option alone tells
    c.may_fire('workflow-failed')
    c.not_fire('host-out-of-memory', 'cuda-libraries-missing', 'gpu-not-used')
    for j in hs:
        c.job_truth(j, outcome='succeeded', verdict='ok',
                    not_fire=['gpu-not-used', 'gpu-driver-missing', 'gpu-out-of-memory'])
    c.job_truth(o, outcome='failed', verdict='failed', may_fire=['workflow-failed'],
                not_fire=['host-out-of-memory', 'gpu-driver-missing'])
    c.job_truth(d, outcome='failed', verdict='failed', may_fire=['workflow-failed'],
                not_fire=['cuda-libraries-missing', 'gpu-out-of-memory', 'worker-lost-contact'])
