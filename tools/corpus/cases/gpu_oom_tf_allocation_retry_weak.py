from corpuslib import noise as N


def build(c):
    c.describe('''
        Weak evidence only: TensorFlow logs "I ... failed to allocate 4.00G (4294967296 bytes) from
        device: CUDA_ERROR_OUT_OF_MEMORY: out of memory" a few times (an I-level allocation
        retry, real text from cortexlabs/cortex#853 / talmolab/sleap#2142) but the job finishes
        normally. gpu-out-of-memory fires on the CUDA_ERROR_OUT_OF_MEMORY text with its confidence
        lowered for weak evidence (issue 3); no symptom follows.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/medimg-research/seg-infer:tf2.4', disk=60)
    j = c.job('ct-segmentation-infer-small', '2021-06-04T09:12:45Z', region='us-central1',
              zone='us-central1-a', project='medimg-research', python='3.8', beam='2.29.0')
    ready = N.bring_up(j, cf, tf=True)
    w = j.w[0]
    t = ready + 180
    for k in range(3):
        ts = j.start.strftime('%Y-%m-%d') + ' 09:%02d:%02d.%06d' % (19 + k, 7 + k * 11, 412345 + k)
        j.docker(t + k * 660, w, '%s: I tensorflow/stream_executor/cuda/cuda_driver.cc:801] '
                 'failed to allocate 4.00G (4294967296 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY:'
                 ' out of memory' % ts, sev='ERROR', src='sleap-2142',
                 mark='retry' if k == 0 else None)
    end = t + 2100
    N.sdk_shutdown(j, w, end - 30)
    N.teardown(j, cf, end)
    c.output('export.json')
    c.fire('gpu-out-of-memory', marks=['retry'])
