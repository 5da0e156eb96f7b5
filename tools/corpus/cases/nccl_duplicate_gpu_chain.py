from corpuslib import noise as N, texts as T

STEP = 'ShardedGenerate'
EXC = ('torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/'
       'NCCLUtils.hpp:275, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.20.5\n'
       'ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n'
       'Last error:\n'
       'Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 10')


def build(c):
    c.describe('''
        A cause on the lines after a generic exception (issue 39, "The cause chain"): a DoFn on a
        two-L4 g2-standard-24 worker joins a two-rank torch.distributed group in its setup, one
        rank per SDK process, and both processes pick CUDA device 0. PyTorch raises
        "torch.distributed.DistBackendError: NCCL error in: …, invalid usage (run with
        NCCL_DEBUG=WARN for details), NCCL version 2.20.5", then NCCL's fixed sentence for the
        class, "Last error:", and the reason "Duplicate GPU detected : rank 1 and rank 0 both on
        CUDA device 10" (the four lines verbatim from verl-project/verl#161; the shape from
        PyTorch's NCCLUtils.cpp getNcclErrorDetailStr). The first two lines are generic
        (rules/generic-errors.yaml); the report must name the Duplicate GPU line first, then the
        wrapper, then the user's file:line and step. The frames below the user's are
        torch.distributed's barrier (composition). Since issue 40 nccl-ranks-share-gpu knows the
        reason and leads the report.''')
    cf = N.cfg(machine='g2-standard-24', gpu='nvidia-l4', gpu_count=2, driver=True, num_workers=1,
               max_workers=1, steps=['S01:ReadPrompts/Read+ShardedGenerate+WriteText/Write'])
    j = c.job('sharded-generate-l4', '2025-10-02T14:20:07Z', region='us-central1',
              zone='us-central1-a', python='3.11', beam='2.66.0', workers=1)
    ready = N.bring_up(j, cf)
    base = T.sp('3.11')
    frames = [
        '  File "/app/generate/sharded.py", line 61, in setup',
        '    dist.barrier(device_ids=[self.local_rank])',
        '  File "%s/torch/distributed/c10d_logger.py", line 79, in wrapper' % base,
        '    return func(*args, **kwargs)',
        '  File "%s/torch/distributed/distributed_c10d.py", line 3936, in barrier' % base,
        '    work = default_pg.barrier(opts=opts)',
    ]
    tb = T.augmented_tb('3.11', frames, EXC, STEP)
    t = ready + 20
    src = ('verl-project/verl#161 (2025): the DistBackendError, ncclInvalidUsage, "Last error:" and "Duplicate '
           'GPU detected" lines verbatim; Beam\'s re-raise and the torch frames composed', 'V')
    t = N.failed_attempts(j, t, j.w[0], tb, STEP, src=src,
                          cite='Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 10', gap=41.0,
                          bundle=2, thread=12, mark='dup')
    N.fail_work_item_4(j, cf, t + 3.0, 'S01:ReadPrompts/Read+ShardedGenerate+WriteText/Write', [j.w[0]] * 4)
    c.output('export.json')
    # Since issue 40 a rule knows the reason NCCL gives: nccl-ranks-share-gpu reads it in the same
    # entry and leads; the generic wrapper lines are its evidence's cause chain.
    c.fire('nccl-ranks-share-gpu', marks=['dup'], captures={'rank_a': '1', 'rank_b': '0', 'bus_id': '10'})
    c.fire('work-item-failed', marks=['wif'], caused_by='nccl-ranks-share-gpu')
    c.fire('workflow-failed', marks=['wif'], caused_by='nccl-ranks-share-gpu')
    c.not_fire('gpu-out-of-memory', 'worker-lost-contact', 'nccl-error')
