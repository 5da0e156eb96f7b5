from corpuslib import noise as N

SRC_PROBE = ('pytorch/pytorch c10/cuda/CUDACachingAllocator.cpp out-of-memory message (2.x wording with '
             '"Including non-PyTorch memory"), caught by the pipeline\'s own batch-size probe and logged at WARNING '
             'through Python logging; the probe pattern is the one of accelerate.utils.find_executable_batch_size',
             'V-code')


def build(c):
    c.describe('''
        Healthy GPU job that catches an out-of-memory error and goes on (issue 40's near miss, "a retried
        transient error"): a sentence-embedding DoFn on an L4 probes its batch size at start-up — it tries
        512, catches torch.OutOfMemoryError, logs it at WARNING through Python logging and settles on 256,
        as accelerate's find_executable_batch_size does — then embeds for 30 minutes and the job succeeds.
        gpu-out-of-memory matches the logged text, but every entry is one the program logged below ERROR
        in the worker log of a job that succeeded: the finding is information and the verdict OK.''')
    cf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', driver='latest', num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], disk=100)
    j = c.job('listing-embeddings-backfill', '2026-05-11T07:00:12Z', region='us-central1',
              zone='us-central1-a', python='3.11', beam='2.65.0', workers=1)
    ready = N.bring_up(j, cf)
    j.wlog(ready + 30, j.w[0], 'Batch-size probe: trying batch_size=512', src=SRC_PROBE,
           module='/app/embed.py', line=58)
    j.wlog(ready + 34, j.w[0], 'Batch-size probe: batch_size=512 failed, halving. torch.OutOfMemoryError: CUDA out of '
           'memory. Tried to allocate 3.00 GiB. GPU 0 has a total capacity of 22.05 GiB of which 1.91 GiB is free. '
           'Including non-PyTorch memory, this process has 20.12 GiB memory in use. Of the allocated memory 19.43 GiB '
           'is allocated by PyTorch, and 402.18 MiB is reserved by PyTorch but unallocated.', sev='WARNING',
           src=SRC_PROBE, module='/app/embed.py', line=64, mark='probe')
    j.wlog(ready + 38, j.w[0], 'Batch-size probe: using batch_size=256', src=SRC_PROBE, module='/app/embed.py',
           line=70)
    end = ready + 1800
    N.sdk_shutdown(j, j.w[0], end - 35)
    N.teardown(j, cf, end, n=1)
    c.output('export.json')
    c.fire('gpu-out-of-memory', marks=['probe'])
    c.not_fire('gpu-driver-missing', 'gpu-not-used', 'multiple-processes-per-gpu')
