from corpuslib import noise as N, texts as T

STEP = 'Detect'
OOM = ('RuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB (GPU 0; 14.58 GiB total '
       'capacity; 12.97 GiB already allocated; 340.50 MiB free; 13.57 GiB reserved in total by '
       'PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid '
       'fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF')
DECODE = ("UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid "
          "start byte")
STEPS = ['S02:ReadFrames/Read+ParseLabels+Detect+WriteDetections/Write']


def build(c):
    c.describe('''
        A rule finding beside an unrelated user exception: the detector runs out of GPU memory on
        every attempt ("RuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB ...",
        yyliu01/RPL#14 wording) and the job fails after four attempts; gpu-out-of-memory fires
        and explains the work-item failure. Earlier, twice on one worker, step ParseLabels hit a
        frame whose label file is not UTF-8: /app/detect/labels.py line 23 raises
        "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start
        byte" (CPython's codec message) and Beam adds " [while running 'ParseLabels']"; those
        bundles were retried and succeeded. No rule knows the decode error; it precedes the
        failure of a failed job, so it is an error-level group, listed after the findings while
        the GPU OOM stays the most likely cause.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2,
               max_workers=2, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/traffic-cams-ai/yolo:torch2.1', disk=50, steps=STEPS)
    j = c.job('traffic-cam-detect-t4', '2024-03-27T06:31:09Z', region='us-central1',
              zone='us-central1-f', project='traffic-cams-ai', python='3.10', beam='2.54.0',
              workers=2)
    ready = N.bring_up(j, cf)
    dec_frames = [
        '  File "/app/detect/labels.py", line 23, in parse_label',
        '    return json.loads(blob.decode("utf-8"))',
    ]
    dec = T.augmented_tb('3.10', dec_frames, DECODE, 'ParseLabels')
    for k, t in enumerate((ready + 20.0, ready + 64.0)):
        j.wlog(t, j.w[1], T.instruction_error('process_bundle-%d' % (2 + k), dec), sev='ERROR',
               src=('CPython codec error text "\'utf-8\' codec can\'t decode byte 0xff in position '
                    '0: invalid start byte" (Objects/exceptions.c UnicodeDecodeError.__str__)',
                    'V-code'), cite=DECODE, module='apache_beam/runners/worker/sdk_worker.py',
               line=303, thread='Thread-%d' % (9 + k), step='ParseLabels',
               mark='decode' if k == 0 else None)
    c.source("… [while running 'ParseLabels']", 'beam-reraise')
    tb = T.torch_oom_tb('3.10', OOM, step=STEP)
    t = ready + 130.0
    for attempt in range(4):
        w = j.w[attempt % 2]
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (11 + attempt), tb), sev='ERROR',
               src='rpl-14', cite=OOM, module='apache_beam/runners/worker/sdk_worker.py', line=303,
               thread='Thread-%d' % (14 + attempt), step=STEP,
               mark='oom' if attempt == 0 else None)
        t += 95.0
    N.fail(j, cf, t + 5.0, T.work_item_failed_4_plain(STEPS[0], [j.w[0], j.w[1], j.w[0], j.w[1]]),
           src=('current work-item-failed wording (apache/beam#30482) without "Root cause:" '
                'lines (composition)', 'I'), mark='wif', n=2,
           cite='Workflow failed. Causes: S02:… failed., The job failed because a work item has '
                'failed 4 times. …')
    c.output('export.json')
    c.fire('gpu-out-of-memory', marks=['oom'])
    c.fire('work-item-failed', marks=['wif'], caused_by='gpu-out-of-memory')
    c.fire('workflow-failed', marks=['wif'], caused_by='gpu-out-of-memory')
    c.not_fire('host-out-of-memory')
    c.unexplained(exception='UnicodeDecodeError', message="codec can't decode byte 0xff",
                  user_frame='labels.py:23', step='ParseLabels', marks=['decode'], severity='info')
