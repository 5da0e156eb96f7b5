from corpuslib import noise as N

STEP = 'RerankPassages'
STEPS = ['S02:ReadQueries/Read+RerankPassages+WriteScores/Write']
SRC_TRITON = ('triton-inference-server pytorch_backend src/libtorch.cc TRITONBACKEND_ModelInstanceInitialize '
              '("TRITONBACKEND_ModelInstanceInitialize: " + name + " (" + TRITONSERVER_InstanceGroupKindString(kind) '
              '+ " device " + device_id + ")") and python_backend src/python_be.cc (the same line), in the glog '
              'form of r24.08; real CPU output of the onnxruntime backend in triton-inference-server/'
              'onnxruntime_backend#265 (model names, pids and times ours)', 'V-code')
SRC_START = ('triton-inference-server/core src/metrics.cc ("Collecting metrics for GPU %d: %s"), '
             'src/cuda_memory_manager.cc ("CUDA memory pool is created on device %d with size %d") and '
             'server src/grpc/grpc_server.cc ("Started GRPCInferenceService at %s"): what a healthy start prints, '
             'on stderr (ERROR in the docker log)', 'V-code')
SRC_DOFN = ('the pipeline\'s own DoFn: tritonserver started in setup(), throughput lines ([I])', 'I')


def build(c):
    c.describe('''
        Triton pinned to the CPU by its model configuration (issue 40, items 1 and 8; the family of
        heldout-stacks-11's hs11-02, another variant): a passage-reranking job starts Triton 24.08
        next to the SDK process on a2-highgpu-1g workers. The reranker's config.pbtxt, copied from
        the team's CI repository, declares instance_group [{ kind: KIND_CPU, count: 2 }], so the
        PyTorch backend logs "TRITONBACKEND_ModelInstanceInitialize: reranker_0_0 (CPU device 0)".
        Triton sees the A100 (CUDA memory pool, GPU metrics); the job succeeds after 3 hours at a
        CPU's pace: triton-model-on-cpu, and the verdict is FAILED although the job reported
        success. Near misses: the Python backend's tokenizer model on the CPU (by design), Triton's
        start-up lines on stderr at ERROR, the GPU metrics line.''')
    cf = N.cfg(machine='a2-highgpu-1g', gpu='nvidia-tesla-a100', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS,
               image='us-central1-docker.pkg.dev/acme-search/dataflow/rerank-triton:24.08-b2.60.0')
    j = c.job('passage-rerank-backfill', '2025-09-10T02:00:07Z', region='us-central1',
              zone='us-central1-a', python='3.10', beam='2.60.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 15
    stamp = lambda s, us: 'I0910 02:%02d:%02d.%06d 88' % (4 + s // 60, s % 60, us)
    lines = [
        ('cuda_memory_manager.cc:107] CUDA memory pool is created on device 0 with size 67108864', SRC_START, None),
        ('python_be.cc:2362] TRITONBACKEND_ModelInstanceInitialize: tokenize_0_0 (CPU device 0)', SRC_TRITON, None),
        ('libtorch.cc:2666] TRITONBACKEND_ModelInstanceInitialize: reranker_0_0 (CPU device 0)', SRC_TRITON, 'cpu'),
        ('libtorch.cc:2666] TRITONBACKEND_ModelInstanceInitialize: reranker_0_1 (CPU device 0)', SRC_TRITON, None),
        ('model_lifecycle.cc:838] successfully loaded \'reranker\'', SRC_START, None),
        ('metrics.cc:877] Collecting metrics for GPU 0: NVIDIA A100-SXM4-40GB', SRC_START, None),
        ('grpc_server.cc:2463] Started GRPCInferenceService at 0.0.0.0:8001', SRC_START, None),
    ]
    for i, (text, src, mark) in enumerate(lines):
        j.docker(t + i * 0.7, w, '%s %s' % (stamp(i, 120004 + 9173 * i), text), sev='ERROR', src=src, mark=mark)
    j.wlog(t + 8, w, 'Triton is ready (reranker, tokenize); scoring batches of 64 query-passage pairs', src=SRC_DOFN,
           module='rerank/triton_dofn.py', line=58, step=STEP)
    for k in range(4):
        j.wlog(t + 900 + k * 2400, w, 'reranked %d pairs so far (41.2 pairs/s)' % (37000 * (k + 1)), src=SRC_DOFN,
               module='rerank/triton_dofn.py', line=97, step=STEP)
    end = t + 10900
    N.sdk_shutdown(j, w, end - 30)
    N.teardown(j, cf, end)
    c.output('export.json')
    c.fire('triton-model-on-cpu', marks=['cpu'], captures={'backend': 'libtorch', 'instance': 'reranker_0_0', 'model': 'reranker'})
    c.not_fire('gpu-not-used', 'model-server-start-failed')
