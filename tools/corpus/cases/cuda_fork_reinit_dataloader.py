from corpuslib import noise as N, texts as T

STEP = 'EmbedImages'
STAGE = 'S01:ReadImages/Read+EmbedImages+WriteEmbeddings/Write'
SP = T.sp('3.10')
FORK = ("RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must "
        "use the 'spawn' start method")
SRC_FORK = ('pytorch/pytorch torch/cuda/__init__.py _lazy_init (raised when _is_in_bad_fork()), re-raised by the '
            'DataLoader worker as torch/_utils.py ExceptionWrapper does ("Caught RuntimeError in DataLoader worker '
            'process 0."); frames composed from real torch and Beam frames', 'V-code')
SRC_VLLM_WARN = ('vLLM "We must use the `spawn` multiprocessing start method. Overriding VLLM_WORKER_MULTIPROC_METHOD '
                 'to \'spawn\' … Reason: CUDA is initialized" (a WARNING in public vLLM logs): a near miss', 'V-other')


def build(c):
    c.describe('''
        CUDA initialised before a fork (issue 40, PyTorch): an image-embedding DoFn loads a CLIP model on
        the T4 in setup() and, in process(), wraps each batch in a DataLoader with num_workers=4 whose
        collate function moves tensors to the GPU. Python forks the workers (Linux default), and each
        fails with "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with
        multiprocessing, you must use the 'spawn' start method", re-raised as "Caught RuntimeError in
        DataLoader worker process 0"; the traceback reaches the worker log, the job message repeats it,
        four attempts fail the job. cuda-fork-reinit fires. A near miss in the same export: vLLM's healthy
        WARNING that it switches its own workers to spawn, from a side task in the same image.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE])
    j = c.job('catalog-image-embeddings', '2026-03-17T04:00:05Z', region='europe-west4',
              zone='europe-west4-a', python='3.10', beam='2.63.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 40
    j.wlog(t - 20, j.w[0], 'WARNING 03-17 04:03:10 [utils.py:2382] We must use the `spawn` multiprocessing start '
           'method. Overriding VLLM_WORKER_MULTIPROC_METHOD to \'spawn\'. See https://docs.vllm.ai/en/latest/'
           'getting_started/troubleshooting.html#python-multiprocessing for more information. Reason: CUDA is '
           'initialized', sev='WARNING', src=SRC_VLLM_WARN, module='/app/rerank.py', line=40)
    tb = T.user_tb('3.10', [
        '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
        '  File "/app/embed_images.py", line 77, in process',
        '    for batch in loader:',
        '  File "%s/torch/utils/data/dataloader.py", line 1344, in _next_data' % SP,
        '    return self._process_data(data)',
        '  File "%s/torch/utils/data/dataloader.py", line 1370, in _process_data' % SP,
        '    data.reraise()',
        '  File "%s/torch/_utils.py", line 706, in reraise' % SP,
        '    raise exception',
        'RuntimeError: Caught RuntimeError in DataLoader worker process 0.',
        'Original Traceback (most recent call last):',
        '  File "%s/torch/utils/data/_utils/worker.py", line 309, in _worker_loop' % SP,
        '    data = fetcher.fetch(index)  # type: ignore[possibly-undefined]',
        '  File "/app/embed_images.py", line 41, in collate_to_gpu',
        '    return torch.stack(images).to("cuda", non_blocking=True)',
        '  File "%s/torch/cuda/__init__.py", line 305, in _lazy_init' % SP,
        '    raise RuntimeError(',
    ], FORK + " [while running '%s']" % STEP)
    t = N.failed_attempts(j, t, j.w[0], tb, STEP, src=SRC_FORK,
                          cite='Cannot re-initialize CUDA in forked subprocess', gap=40.0, mark='fork',
                          msg_cite='Error message from worker: … Cannot re-initialize CUDA in forked subprocess')
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [j.w[0]] * 4)
    c.output('export.json')
    c.fire('cuda-fork-reinit', marks=['fork', 'fork-msg'])
    c.fire('work-item-failed', marks=['wif'], caused_by='cuda-fork-reinit')
    c.fire('workflow-failed', marks=['wif'], caused_by='cuda-fork-reinit')
    c.not_fire('gpu-driver-missing', 'gpu-out-of-memory', 'nccl-shared-memory')
