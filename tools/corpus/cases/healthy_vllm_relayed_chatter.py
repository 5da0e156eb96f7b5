from corpuslib import noise as N

SRC_CHATTER = ('vllm-project/vllm#29566 (2025): the APIServer and EngineCore INFO/WARNING lines '
               'verbatim (pids, dates and the model path adapted)', 'V')
SRC_NCCL = ('vllm-project/vllm#23278: the destroy_process_group() warning PyTorch writes to stderr at '
            'exit (the pid and time adapted)', 'V')
SRC_RELAY = ('apache/beam sdks/python/apache_beam/ml/inference/vllm_inference.py (2.64): start_process '
             're-logs each line of the server\'s output with logging.info', 'V-code')
SRC_TRT = ('HKUST-Aerial-Robotics/D2SLAM#52 (2024) and NVIDIA/TensorRT#2195: TensorRT logger lines of '
           'a healthy engine load, in the Python logger\'s `[…] [TRT] [L]` layout (the time adapted)', 'V')


def build(c):
    c.describe('''
        A healthy near miss of relayed output (issue 39): a batch job with Beam's vLLM model handler
        on an L4 worker whose server starts and answers. Beam re-logs every line of the server's
        output at INFO, each with its own level: INFO and WARNING chatter of the API server and the
        engine core ("Casting torch.bfloat16 to torch.float16." is a WARNING), real lines of
        vllm#29566. Before the model loads, a TensorRT engine of another step logs its healthy
        `[TRT] [I]` lines to stderr, which Dataflow stores at ERROR, and at exit PyTorch writes its
        destroy_process_group() warning to stderr (also ERROR). None of it is an error by its own
        level: no unexplained group at error, no finding, and the job succeeded.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'],
               steps=['S01:ReadPrompts/Read+RunInference/BeamML_RunInference+WriteAnswers/Write'])
    j = c.job('answer-vllm-l4-nightly', '2025-11-27T02:00:04Z', region='us-central1',
              zone='us-central1-c', python='3.11', beam='2.64.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 20
    for line in ['[11/27/2025-02:03:01] [TRT] [I] Loaded engine size: 6 MiB',
                 '[11/27/2025-02:03:01] [TRT] [I] [MemUsageChange] Init CUDA: CPU +571, GPU +0, now: CPU 801, GPU 369 (MiB)']:
        j.docker(t, j.w[0], line, sev='ERROR', src=SRC_TRT, cite=line)
        t += 0.2
    relay = dict(module='apache_beam/ml/inference/vllm_inference.py', line=91, thread='Thread-7')
    j.wlog(t + 1, j.w[0], "Starting service with ['/usr/local/bin/python', '-m', "
           "'vllm.entrypoints.openai.api_server', '--model', 'Qwen/Qwen2.5-7B-Instruct', '--port', '41003']",
           src=SRC_RELAY, **relay)
    chatter = [
        '(APIServer pid=231) INFO 11-27 02:03:05 [model.py:642] Resolved architecture: Qwen2ForCausalLM',
        '(APIServer pid=231) WARNING 11-27 02:03:05 [model.py:1978] Casting torch.bfloat16 to torch.float16.',
        '(APIServer pid=231) INFO 11-27 02:03:05 [model.py:1752] Using max model len 10000',
        '(APIServer pid=231) INFO 11-27 02:03:05 [scheduler.py:207] Chunked prefill is enabled with max_num_batched_tokens=10000.',
        '(APIServer pid=231) INFO 11-27 02:03:05 [vllm.py:508] Cudagraph is disabled under eager mode',
        "(EngineCore_DP0 pid=402) INFO 11-27 02:03:11 [core.py:93] Initializing a V1 LLM engine (v0.11.2) with config: model='Qwen/Qwen2.5-7B-Instruct'",
    ]
    for k, line in enumerate(chatter):
        j.wlog(t + 5 + k, j.w[0], line, src=SRC_CHATTER, cite=line, **relay)
    t += 300
    j.docker(t, j.w[0], '[rank0]:[W1127 02:08:24.981891507 ProcessGroupNCCL.cpp:1479] Warning: WARNING: '
             'destroy_process_group() was not called before program exit, which can leak resources. For more '
             'info, please see https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())',
             sev='ERROR', src=SRC_NCCL)
    N.sdk_shutdown(j, j.w[0], t + 5)
    N.teardown(j, cf, t + 40, n=1)
    c.output('export.json')
    c.not_fire('gpu-out-of-memory', 'gpu-not-used', 'cuda-libraries-missing')
    c.no_unexplained()
