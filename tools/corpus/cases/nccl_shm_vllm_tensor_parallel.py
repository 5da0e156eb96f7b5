from corpuslib import noise as N, texts as T
from corpuslib.model_servers import SRC_RELAY, relayed, start_failed

STEP = 'RunInference/BeamML_RunInference'
STEPS = ['S01:ReadQuestions/Read+RunInference/BeamML_RunInference+WriteAnswers/Write']
VLLM = '/usr/local/lib/python3.11/site-packages/vllm'
TORCH = '/usr/local/lib/python3.11/site-packages/torch'
HOST = 'qa-llama70b-tp2-12040300-kq3p-harness-7v2d'
SRC_NCCL = ('NVIDIA/nccl src/misc/shmutils.cc (2.22.3+: "Error: failed to extend %s to %ld bytes, error: %s (%d)", '
            '"Error while creating shared memory segment %s (size %ld), error: %s (%d)"; the [date] prefix from 2.26), '
            'as ai-dynamo/dynamo#1408 and pytorch/ci-infra#490 show them (host, pids and segment names adapted)', 'V-code')
SRC_TORCH = ('pytorch/pytorch torch/csrc/distributed/c10d/NCCLUtils.hpp C10D_NCCL_CHECK with NCCL\'s last error, '
             'as hiyouga/LlamaFactory#7233 shows it (NCCLUtils.hpp:268, NCCL 2.21.5; here vLLM 0.11\'s torch and '
             'NCCL 2.27.3, the frames composed from vllm/distributed/parallel_state.py)', 'V-code')
SRC_CHATTER = ('NVIDIA/nccl src/bootstrap.cc ("Bootstrap: Using%s"), src/plugin/net.cc (2.23+: "NET/Plugin: Could '
               'not find: %s. Using internal network plugin."), src/transport.cc channel lines: healthy INFO', 'V-code')


def worker_traceback():
    return [
        'Traceback (most recent call last):',
        '  File "%s/v1/executor/multiproc_executor.py", line 464, in worker_main' % VLLM,
        '    worker = WorkerProc(*args, **kwargs)',
        '  File "%s/distributed/parallel_state.py", line 1091, in init_distributed_environment' % VLLM,
        '    _WORLD = init_world_group(ranks, local_rank, backend)',
        '  File "%s/distributed/device_communicators/pynccl.py", line 99, in __init__' % VLLM,
        '    self.comm: ncclComm_t = self.nccl.ncclCommInitRank(',
        '  File "%s/distributed/distributed_c10d.py", line 4635, in barrier' % TORCH,
        '    work = group.barrier(opts=opts)',
        'torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, '
        'unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.27.3',
        'ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ',
        'Last error:',
        'Error while creating shared memory segment /dev/shm/nccl-Qw3nTk (size 9637888), error: No space left on device (28)',
    ]


def build(c):
    c.describe('''
        A multi-GPU worker whose container /dev/shm is too small for NCCL (issue 40, multi-GPU): a
        batch job serves a 70B model with Beam's vLLM model handler on a g2-standard-24 worker with
        two L4 GPUs, tensor_parallel_size=2. vLLM's two GPU workers start NCCL; NCCL 2.27 cannot
        extend its segment in /dev/shm and warns "Error: failed to extend /dev/shm/nccl-… to N
        bytes, error: No space left on device (28)", then PyTorch raises "DistBackendError: NCCL
        error in: …, unhandled system error … Last error: Error while creating shared memory
        segment …". Beam relays every line at INFO; the engine never starts and Beam raises "Failed
        to start vLLM server", four attempts. nccl-shared-memory fires and leads; nccl-error folds
        under it, as does model-server-start-failed.
        NCCL's INFO chatter (Bootstrap, the network plugin fallback, channels via SHM) is a near
        miss, and the vLLM banner sets the framework facts. worker-disk-full stays quiet: /dev/shm is
        memory, not the worker's disk.''')
    cf = N.cfg(machine='g2-standard-24', gpu='nvidia-l4', gpu_count=2, driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('qa-llama70b-tp2', '2025-12-04T03:00:06Z', region='us-central1',
              zone='us-central1-a', python='3.11', beam='2.68.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 30
    for attempt in range(4):
        first = attempt == 0
        relayed(j, t, "Starting service with ['/usr/local/bin/python', '-m', 'vllm.entrypoints.openai.api_server', "
                "'--model', 'meta-llama/Llama-3.3-70B-Instruct', '--tensor-parallel-size', '2', "
                "'--quantization', 'fp8', '--port', '%d']" % (42000 + attempt), SRC_RELAY)
        relayed(j, t + 5, '(EngineCore_DP0 pid=%d) INFO 12-04 03:0%d:11 [core.py:93] Initializing a V1 LLM engine '
                "(v0.11.0) with config: model='meta-llama/Llama-3.3-70B-Instruct', speculative_config=None"
                % (510 + attempt, 2 + attempt), ('vllm-project/vllm vllm/v1/engine/core.py: the start-up banner', 'V-code'))
        pid = 612 + 2 * attempt
        chatter = [
            '%s:%d:%d [0] NCCL INFO Bootstrap: Using eth0:10.128.0.41<0>' % (HOST, pid, pid + 90),
            '%s:%d:%d [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.' % (HOST, pid, pid + 90),
            '%s:%d:%d [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct' % (HOST, pid, pid + 90),
        ]
        for k, line in enumerate(chatter):
            relayed(j, t + 20 + k * 0.01, line, SRC_CHATTER)
        for rank in range(2):
            relayed(j, t + 21 + rank * 0.02,
                    '[2025-12-04 03:0%d:32] %s:%d:%d [%d] misc/shmutils.cc:87 NCCL WARN Error: failed to extend '
                    '/dev/shm/nccl-Qw3nTk to 9637892 bytes, error: No space left on device (28)'
                    % (2 + attempt, HOST, pid + rank, pid + rank + 90, rank), SRC_NCCL,
                    mark='shm' if first and rank == 0 else None)
        at = t + 22
        block = []
        head = '(VllmWorker TP0 pid=%d) ERROR 12-04 03:0%d:32 [multiproc_executor.py:470] ' % (pid, 2 + attempt)
        for line in worker_traceback():
            at += 0.002
            block.append(relayed(j, at, head + line, SRC_TORCH, cite=line,
                                 mark='nccl' if first and 'DistBackendError' in line else None))
        for e in block[1:]:
            e.block_head = block[0]
        start_failed(j, at + 9.0, attempt, STEP, mark='beam' if first else None)
        t += 90.0
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json')
    c.fire('nccl-shared-memory', marks=['shm'], captures={'segment': '/dev/shm/nccl-Qw3nTk'})
    c.fire('model-server-start-failed', marks=['beam'], caused_by='nccl-shared-memory')
    c.fire('work-item-failed', marks=['wif'], caused_by='nccl-shared-memory')
    c.fire('workflow-failed', marks=['wif'], caused_by='nccl-shared-memory')
    # Beam relays the worker's traceback one line per entry, so the NCCL error's entry does not hold
    # its "Last error:" line: nccl-error fires on it and folds under its cause.
    c.fire('nccl-error', marks=['nccl'], captures={'nccl_error': 'unhandled system error'}, caused_by='nccl-shared-memory')
    c.not_fire('gpu-out-of-memory', 'llm-engine-gpu-memory-short', 'worker-disk-full')
