from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'


def oom(pid_self):
    return ('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.17 GiB. GPU 0 has a '
            'total capacity of 14.58 GiB of which 803.56 MiB is free. Process 3184 has 4.41 GiB '
            'memory in use. Process 3190 has 4.43 GiB memory in use. Process 3201 has 4.40 GiB '
            'memory in use. Including non-PyTorch memory, this process has 4.53 GiB memory in use. '
            'Of the allocated memory 4.21 GiB is allocated by PyTorch, and 166.29 MiB is reserved '
            'by PyTorch but unallocated. If reserved but unallocated memory is large try setting '
            'PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See '
            'documentation for Memory Management  '
            '(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)')


def build(c):
    c.describe('''
        The Dataflow anti-pattern: n1-standard-4 with one T4 runs four SDK processes (sdk-0-0 ...
        sdk-0-3, four portability_worker_id values on one worker, default
        use_multiple_sdk_containers), each loading its own copy of a 4 GiB PyTorch model onto
        the same GPU. Two of them hit "torch.OutOfMemoryError: CUDA out of memory. Tried to
        allocate 1.17 GiB. GPU 0 has a total capacity of 14.58 GiB ... Process 3184 has 4.41 GiB
        memory in use. ..." (PyTorch message format, numbers adapted to a T4). Both the GPU OOM and
        its cause, several processes per GPU, fire; which finding the OOM folds under is left to
        the ranker.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, sdk_procs=4,
               image='us-central1-docker.pkg.dev/acme-ml-prod/dataflow/torch-infer:2.3-cu121',
               disk=80)
    j = c.job('doc-embeddings-t4', '2024-09-17T10:12:33Z', region='us-central1',
              zone='us-central1-a', python='3.11', beam='2.59.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    for i, sdk in enumerate(N.sdk_ids(cf)):
        j.wlog(ready + 20 + i * 3.3, w, 'Loaded model from gs://acme-ml-dataflow/models/e5-large/'
               'model.pt', src='user-code', module='/opt/pipeline/handlers.py:41', sdk=sdk)
    t = ready + 140
    for k, sdk in enumerate(['sdk-0-2', 'sdk-0-3']):
        tb = T.torch_oom_tb('3.11', oom(3200 + k))
        j.wlog(t + k * 7.5, w, 'Error processing instruction process_bundle-%d. Original traceback '
               'is' % (5 + k), exception=tb, sev='ERROR', src='torch-multi-proc', sdk=sdk,
               module='apache_beam/runners/worker/sdk_worker.py', line=303, step=STEP,
               cite=oom(0)[:120] + ' …', mark='oom' if k == 0 else 'oom2',
               thread='Thread-%d' % (12 + k))
    c.output('export.json')
    c.fire('multiple-processes-per-gpu', marks=['oom'])
    c.fire('gpu-out-of-memory', marks=['oom'], caused_by='multiple-processes-per-gpu')
    c.not_fire('host-out-of-memory')
