from corpuslib import noise as N

HOST = 'rerank-l4x2-nightly-02210200-w4qk-harness-8m1c'
SRC_NCCL = ('NVIDIA/nccl src/bootstrap.cc, src/plugin/net.cc (2.18: "NET/Plugin : Plugin load (%s) returned %d : %s", '
            '"NET/Plugin : No plugin found, using internal implementation", pytorch/pytorch#113245), src/transport.cc '
            'channel lines and "Init COMPLETE": healthy INFO that mentions shared objects and shared memory', 'V-code')
SRC_TFTRT = ('tensorflow/tensorflow tensorflow/compiler/tf2tensorrt/utils/py_utils.cc: "TF-TRT Warning: Could not find '
             'TensorRT" at import (hiyouga/LlamaFactory#3673: "Just ignore it."), on stderr', 'V-code')
SRC_XF = ('facebookresearch/xformers xformers/_cpp_lib.py: the WARNING[XFORMERS] text for a build of another torch '
          'patch release, not fatal (baichuan-inc/Baichuan2#248); versions adapted', 'V-code')
SRC_PG = ('pytorch/pytorch ProcessGroupNCCL.cpp: the destroy_process_group() warning printed at exit after a '
          'successful run (modelscope/ms-swift#7992)', 'V-code')
SRC_TRITON = ('vllm-project/vllm vllm/triton_utils/importing.py: "Triton not installed or not compatible; certain '
              'GPU-related functions will not be available." (INFO)', 'V-code')


def build(c):
    c.describe('''
        A healthy near miss for the multi-GPU and runtime rules (issue 40): a batch re-ranking job
        on a g2-standard-24 worker (two L4s) runs a torch.distributed group of two ranks in one SDK
        process and succeeds. Its logs hold what looks alarming and is not: NCCL's INFO chatter,
        including the network plugin that "cannot open shared object file" and channels "via SHM",
        TensorFlow's "TF-TRT Warning: Could not find TensorRT" on stderr (stored at ERROR), an
        xFormers warning about a build for another torch patch release, vLLM's "Triton not
        installed or not compatible" INFO, and PyTorch's destroy_process_group() warning at exit.
        No rule fires and no error-level group is unexplained.''')
    cf = N.cfg(machine='g2-standard-24', gpu='nvidia-l4', gpu_count=2, driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'],
               steps=['S01:ReadQueries/Read+Rerank+WriteRanked/Write'])
    j = c.job('rerank-l4x2-nightly', '2026-02-21T10:00:05Z', region='us-central1',
              zone='us-central1-b', python='3.11', beam='2.70.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 15
    j.docker(t, j.w[0], '2026-02-21 10:04:11.204511: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] '
             'TF-TRT Warning: Could not find TensorRT', sev='ERROR', src=SRC_TFTRT)
    j.docker(t + 2, j.w[0], "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
             "    PyTorch 2.5.1+cu124 with CUDA 1204 (you have 2.5.0+cu124)\n"
             "    Python  3.11.10 (you have 3.11.9)\n"
             "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)\n"
             "  Memory-efficient attention, SwiGLU, sparse and more won't be available.\n"
             "  Set XFORMERS_MORE_DETAILS=1 for more details", sev='ERROR', src=SRC_XF)
    j.wlog(t + 3, j.w[0], 'Triton not installed or not compatible; certain GPU-related functions will not be available.',
           src=SRC_TRITON, module='vllm/triton_utils/importing.py', line=64, thread='MainThread')
    pid = 311
    for k, line in enumerate([
        '%s:%d:%d [0] NCCL INFO Bootstrap : Using eth0:10.128.0.77<0>',
        '%s:%d:%d [0] NCCL INFO NET/Plugin : Plugin load (libnccl-net.so) returned 2 : libnccl-net.so: cannot open '
        'shared object file: No such file or directory',
        '%s:%d:%d [0] NCCL INFO NET/Plugin : No plugin found, using internal implementation',
        '%s:%d:%d [0] NCCL INFO Channel 00/02 :    0   1',
        '%s:%d:%d [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct',
        '%s:%d:%d [0] NCCL INFO comm 0x5591c8e0 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 2000 commId '
        '0x1d2c8f0a61b3e27c - Init COMPLETE',
    ]):
        j.docker(t + 10 + k * 0.01, j.w[0], line % (HOST, pid, pid + 70), src=SRC_NCCL)
    t += 900
    j.docker(t, j.w[0], '[rank0]:[W221 10:19:32.953145631 ProcessGroupNCCL.cpp:1538] Warning: WARNING: '
             'destroy_process_group() was not called before program exit, which can leak resources. For more info, '
             'please see https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())',
             sev='ERROR', src=SRC_PG)
    N.sdk_shutdown(j, j.w[0], t + 5)
    N.teardown(j, cf, t + 40, n=1)
    c.output('export.json')
    c.not_fire('nccl-error', 'nccl-shared-memory', 'nccl-ranks-share-gpu', 'cuda-extension-abi-mismatch',
               'torch-cpu-only-build', 'tensorrt-engine-incompatible', 'triton-gpu-too-old',
               'torch-compile-toolchain-missing', 'cuda-libraries-missing', 'gpu-not-used', 'worker-disk-full')
    c.no_unexplained()
