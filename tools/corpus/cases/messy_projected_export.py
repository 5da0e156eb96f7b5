from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
OOM = ('RuntimeError: CUDA out of memory. Tried to allocate 16.00 MiB (GPU 0; 39.59 GiB total '
       'capacity; 666.60 MiB already allocated; 13.19 MiB free; 682.00 MiB reserved in total by '
       'PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid '
       'fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF')


def build(c):
    c.describe('''
        Projected export: `gcloud logging read ... --format="json(timestamp, jsonPayload.message)"`
        (the projection a 2026 oneuptime.com blog uses). Every entry keeps only timestamp and,
        for jsonPayload logs, jsonPayload.message: no logName, resource, labels, severity or
        insertId, and the job messages (textPayload) are reduced to a bare timestamp. The PyTorch
        OOM (apache/beam#22811 text) is in the worker message and must still be found; job facts
        are mostly unknown. Entries with only a timestamp still count as entries.''')
    cf = N.cfg(machine='a2-highgpu-1g', gpu='nvidia-tesla-a100', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='us-central1-docker.pkg.dev/acme-ml-prod/dataflow/torch-infer:1.13-cu117',
               disk=100)
    j = c.job('clip-embeddings-rerun', '2022-09-07T10:02:51Z', region='us-central1',
              zone='us-central1-c', python='3.9', beam='2.41.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    tb = T.torch_oom_tb('3.9', OOM)
    t = ready + 88
    for attempt in range(2):
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (3 + attempt), tb), sev='ERROR',
               src='beam-22811', module='apache_beam/runners/worker/sdk_worker.py', line=303,
               cite=OOM, mark='oom' if attempt == 0 else None, thread='Thread-%d' % (30 + attempt))
        j.msg(t + 4.0, T.worker_error_msg(tb, STEP + '-ptransform-58'), sev='ERROR',
              src='beam-22811', cite='Error message from worker: … CUDA out of memory …')
        t += 133.0
    c.output('export.json', projection=['timestamp', 'jsonPayload.message'])
    c.fire('gpu-out-of-memory', marks=['oom'])
