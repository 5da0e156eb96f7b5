from corpuslib import noise as N, texts as T

STEP = 'GenerateSummaries'
STEPS = ['S01:ReadTickets/Read+GenerateSummaries+WriteSummaries/Write']
SP = T.sp('3.11')
SRC_CAPTURE = ('vllm-project/vllm vllm/worker/model_runner.py (0.6.4 – 0.10, V0): "Capturing cudagraphs for decoding. '
               '… If out-of-memory error occurs during cudagraph capture, consider decreasing `gpu_memory_utilization` '
               'or switching to eager mode. …" at INFO (one line from 0.7), printed by healthy starts too; vLLM\'s '
               'logger writes to stderr, which Dataflow stores at ERROR (vllm-project/vllm#15598)', 'V-code')
SRC_OOM = ('vllm-project/vllm#15598 (gpu_memory_utilization 0.98, out of memory in the capture) and #15105 (the '
           'torch.OutOfMemoryError text with "allocated in private pools (e.g., CUDA Graphs)"): V0 capture_model → '
           'graph_runner.capture → torch.cuda.graph → capture_end; the DoFn builds vllm.LLM in setup (frames of '
           'vllm/entrypoints/llm.py and engine/llm_engine.py, line numbers and sizes ours)', 'V-other')


def build(c):
    c.describe('''
        vLLM's CUDA-graph capture runs out of memory (issue 40, model servers): a ticket-summary
        DoFn builds vllm.LLM(…, gpu_memory_utilization=0.97) in setup on a g2-standard-8 worker with
        one L4 (vLLM 0.7, the V0 engine in the SDK process). The weights and the KV cache take 97 % of
        the GPU; capturing the CUDA graphs then fails with "torch.OutOfMemoryError: CUDA out of memory.
        Tried to allocate 20.00 MiB … with 128.00 MiB allocated in private pools (e.g., CUDA Graphs)"
        under capture_model and torch.cuda.graph, on each of four attempts; the job fails. vLLM's INFO
        advisory about cudagraph capture (on stderr, so at ERROR) precedes each attempt and is not the
        finding. llm-cuda-graph-capture-oom leads and explains gpu-out-of-memory; its first fix is a
        lower gpu_memory_utilization or enforce_eager, not a bigger KV cache.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('ticket-summaries-vllm-l4', '2025-03-28T05:00:09Z', region='us-east4', zone='us-east4-a',
              python='3.11', beam='2.63.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 60
    err = ('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of '
           '22.05 GiB of which 13.12 MiB is free. Including non-PyTorch memory, this process has 22.03 GiB memory in '
           'use. Of the allocated memory 21.44 GiB is allocated by PyTorch, with 128.00 MiB allocated in private pools '
           '(e.g., CUDA Graphs), and 76.35 MiB is reserved by PyTorch but unallocated. If reserved but unallocated '
           'memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See '
           'documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)')
    for attempt in range(4):
        j.docker(t, w, "INFO 03-28 05:0%d:%02d [model_runner.py:1442] Capturing cudagraphs for decoding. This may lead "
                 "to unexpected consequences if the model is not static. To run the model in eager mode, set "
                 "'enforce_eager=True' or use '--enforce-eager' in the CLI. If out-of-memory error occurs during "
                 "cudagraph capture, consider decreasing `gpu_memory_utilization` or switching to eager mode. You can "
                 "also reduce the `max_num_seqs` as needed to decrease memory usage." % (2 + attempt, 11 + attempt),
                 sev='ERROR', src=SRC_CAPTURE)
        tb = T.user_tb('3.11', [
            '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
            '  File "apache_beam/runners/common.py", line 602, in apache_beam.runners.common.DoFnInvoker.invoke_setup',
            '  File "/app/summaries/dofn.py", line 31, in setup',
            '    self.llm = LLM(model=self.model_id, gpu_memory_utilization=0.97)',
            '  File "%s/vllm/entrypoints/llm.py", line 241, in __init__' % SP,
            '    self.llm_engine = self.engine_class.from_engine_args(',
            '  File "%s/vllm/engine/llm_engine.py", line 287, in __init__' % SP,
            '    self._initialize_kv_caches()',
            '  File "%s/vllm/worker/worker.py", line 313, in _warm_up_model' % SP,
            '    self.model_runner.capture_model(self.gpu_cache)',
            '  File "%s/vllm/worker/model_runner.py", line 1533, in capture_model' % SP,
            '    graph_runner.capture(**capture_inputs)',
            '  File "%s/vllm/worker/model_runner.py", line 1911, in capture' % SP,
            '    with torch.cuda.graph(self._graph, pool=memory_pool, stream=stream):',
            '  File "%s/torch/cuda/graphs.py", line 186, in __exit__' % SP,
            '    self.cuda_graph.capture_end()',
        ], err)
        j.wlog(t + 6, w, T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR', src=SRC_OOM,
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (11 + attempt),
               step=STEP, mark='capture' if attempt == 0 else None)
        t += 95.0
    N.fail_work_item_4(j, cf, t + 2.0, STEPS[0], [w] * 4)
    c.output('export.json')
    c.fire('llm-cuda-graph-capture-oom', marks=['capture'])
    c.fire('gpu-out-of-memory', marks=['capture'], caused_by='llm-cuda-graph-capture-oom')
    c.fire('work-item-failed', marks=['wif'], caused_by='gpu-out-of-memory')
    c.fire('workflow-failed', marks=['wif'], caused_by='gpu-out-of-memory')
    c.not_fire('llm-engine-gpu-memory-short', 'llm-context-exceeds-kv-cache', 'multiple-processes-per-gpu')
    c.no_unexplained()
