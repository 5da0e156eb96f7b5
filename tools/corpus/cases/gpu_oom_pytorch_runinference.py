from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
OOM = ('RuntimeError: CUDA out of memory. Tried to allocate 16.00 MiB (GPU 0; 39.59 GiB total '
       'capacity; 666.60 MiB already allocated; 13.19 MiB free; 682.00 MiB reserved in total by '
       'PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid '
       'fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF')


def build(c):
    c.describe('''
        PyTorch RunInference on an A100 (a2-highgpu-1g, one SDK process): a batch too large for
        the GPU raises "CUDA out of memory. Tried to allocate 16.00 MiB (GPU 0; 39.59 GiB total
        capacity; ...)" (real text from apache/beam#22811 with the RuntimeError prefix of that
        PyTorch era). The SDK logs the failed instruction with the traceback in the message, the
        job message repeats it, and Dataflow retries the bundle on the same worker. The export
        was taken while the job was still running (no final failure). gcloud array, newest first.''')
    cf = N.cfg(machine='a2-highgpu-1g', gpu='nvidia-tesla-a100', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='us-central1-docker.pkg.dev/acme-ml-prod/dataflow/torch-infer:1.13-cu117',
               disk=100)
    j = c.job('clip-embeddings-backfill', '2022-09-06T21:08:19Z', region='us-central1',
              zone='us-central1-c', python='3.9', beam='2.41.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    j.wlog(ready + 20, w, 'Loaded model from gs://acme-ml-dataflow/models/clip-vit-b32/model.pt',
           src='user-code', module='/opt/pipeline/handlers.py:41')
    tb = T.torch_oom_tb('3.9', OOM)
    t = ready + 95
    for attempt in range(3):
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (4 + attempt), tb), sev='ERROR',
               src='beam-22811', module='apache_beam/runners/worker/sdk_worker.py', line=303,
               cite=OOM, mark='oom' if attempt == 0 else None, thread='Thread-%d' % (41 + attempt),
               step=STEP)
        j.msg(t + 4.0, T.worker_error_msg(tb, STEP + '-ptransform-58'), sev='ERROR',
              src='beam-22811', cite='Error message from worker: generic::unknown: Traceback … '
                                     'CUDA out of memory. Tried to allocate 16.00 MiB …')
        t += 140.0
    c.output('export.json')
    c.fire('gpu-out-of-memory', marks=['oom'])
    c.not_fire('multiple-processes-per-gpu', 'host-out-of-memory')
