from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
OOM = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 318.00 MiB. GPU 0 has a "
       "total capacity of 23.53 GiB of which 315.44 MiB is free. Including non-PyTorch memory, "
       "this process has 23.20 GiB memory in use. Of the allocated memory 21.29 GiB is allocated "
       "by PyTorch, with 46.00 MiB allocated in private pools (e.g., CUDA Graphs), and 231.26 MiB "
       "is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try "
       "setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See "
       "documentation for Memory Management  "
       "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")


def build(c):
    c.describe('''
        Newest PyTorch wording, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate
        318.00 MiB. GPU 0 has a total capacity of 23.53 GiB ..." (real text, dify-official-plugins
        #599, seen outside Dataflow), on an L4 worker (g2-standard-8, one SDK process) running a
        7B-parameter HuggingFace model. The traceback is in jsonPayload.exception of the worker
        entry and in the job message. Cloud Storage sink shard (NDJSON, unordered).''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver='latest', num_workers=1,
               max_workers=2, experiments=['no_use_multiple_sdk_containers'],
               image='us-docker.pkg.dev/support-llm-eval/beam/llm-judge:2025.02', disk=200)
    j = c.job('llm-judge-eval-0214', '2025-02-14T09:30:12Z', region='us-central1',
              zone='us-central1-a', project='support-llm-eval', python='3.11', beam='2.62.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    tb = T.torch_oom_tb('3.11', OOM)
    t = ready + 210
    for attempt in range(2):
        j.wlog(t, w, 'Error processing instruction process_bundle-%d. Original traceback is'
               % (7 + attempt), sev='ERROR', exception=tb, src='dify-599',
               module='apache_beam/runners/worker/sdk_worker.py', line=303, cite=OOM,
               mark='oom' if attempt == 0 else None, thread='Thread-%d' % (17 + attempt),
               step=STEP)
        j.msg(t + 3.6, T.worker_error_msg(tb, STEP + '-ptransform-31'), sev='ERROR',
              src='dify-599', cite='Error message from worker: generic::unknown: Traceback … '
                                   'torch.OutOfMemoryError: CUDA out of memory. …')
        t += 180.0
    c.output('export.ndjson')
    c.fire('gpu-out-of-memory', marks=['oom'])
    c.not_fire('multiple-processes-per-gpu')
