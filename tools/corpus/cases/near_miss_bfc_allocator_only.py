from corpuslib import noise as N


def build(c):
    c.describe('''
        Near miss: a healthy TensorFlow job on a T4 logs the BFC allocator warning "Allocator
        (GPU_0_bfc) ran out of memory trying to allocate 2.10GiB with freed_by_count=0. The caller
        indicates that this is not a failure, but may mean that there could be performance gains if
        more memory were available." (real, talmolab/sleap#2142) and nothing else about memory.
        The job succeeds. gpu-out-of-memory must stay quiet.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/medimg-research/seg-infer:tf2.4', disk=60)
    j = c.job('ct-preview-thumbnails', '2021-06-07T12:01:30Z', region='us-central1',
              zone='us-central1-a', project='medimg-research', python='3.8', beam='2.29.0')
    ready = N.bring_up(j, cf, tf=True)
    w = j.w[0]
    t = ready + 240
    j.docker(t, w, '2021-06-07 12:08:01.118830: W tensorflow/core/common_runtime/bfc_allocator.cc:'
             '275] Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.10GiB with '
             'freed_by_count=0. The caller indicates that this is not a failure, but may mean that '
             'there could be performance gains if more memory were available.', sev='ERROR',
             src='sleap-2142', mark='bfc')
    end = t + 900
    N.sdk_shutdown(j, w, end - 25)
    N.teardown(j, cf, end)
    c.output('export.json')
    c.not_fire('gpu-out-of-memory')
