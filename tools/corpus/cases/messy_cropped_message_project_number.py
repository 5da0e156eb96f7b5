from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
OOM = ('RuntimeError: CUDA out of memory. Tried to allocate 16.00 MiB (GPU 0; 39.59 GiB total '
       'capacity; 666.60 MiB already allocated; 13.19 MiB free; 682.00 MiB reserved in total by '
       'PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid '
       'fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF')


def build(c):
    c.describe('''
        Two envelope quirks at once. (1) resource.labels.project_id is the project number
        (823514981911) while logName carries the project id, as in the real job-message example
        of the signatures file (§1.2 B). (2) The worker message is longer than Dataflow's 30,000
        character limit - the DoFn logged the repr of a whole batch before the traceback - and was
        middle-cropped: 15,000 characters, "...", the last 15,000 characters, so the head and the
        final "RuntimeError: CUDA out of memory ..." line survive (apache/beam#22811 text). The
        OOM must still be found.''')
    cf = N.cfg(machine='a2-highgpu-1g', gpu='nvidia-tesla-a100', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='europe-west4-docker.pkg.dev/hs-src-consolidation/beam/embed:1.13', disk=100)
    j = c.job('my-job-name-1w2', '2022-11-16T20:18:34Z', region='europe-west4',
              zone='europe-west4-a', project='trv-hs-src-consolidation-test',
              project_number='823514981911', python='3.9', beam='2.42.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    batch = 'Inference failed for batch: [' + ', '.join(
        "{'image_id': 'img-%06d', 'uri': 'gs://hs-src-images/2022/11/16/%06d.jpg', "
        "'width': 1024, 'height': 768}" % (i, i) for i in range(400)) + ']\n'
    full = batch + T.torch_oom_tb('3.9', OOM)
    assert len(full) > 30000
    cropped = full[:15000] + '...' + full[-15000:]
    j.wlog(ready + 240, w, cropped, sev='ERROR', src='beam-22811', cite=OOM, mark='oom',
           module='/opt/pipeline/handlers.py:77', thread='Thread-18', step=STEP)
    c.output('export.json')
    c.fire('gpu-out-of-memory', marks=['oom'])
