import datetime as _dt

from corpuslib import noise as N, texts as T

STEP = 'TriageTickets'
STAGE = 'S01:ReadTickets/Read+BuildPrompts+TriageTickets+WriteTriage/Write'
SP = T.sp('3.10')
VLLM = SP + '/vllm'
MODEL = '/models/llama-3.1-8b-instruct'
ADAPTER = '/adapters/ticket-triage-r64'
RANK = 'ValueError: LoRA rank 64 is greater than max_lora_rank 16.'
SRC_V0 = ('vLLM 0.7.x V0 engine INFO lines ("Initializing an LLM engine (v…) with config: model=…", '
          '"Starting to load model …", "Loading model weights took … GB", "model weights take …; the rest of '
          'the memory reserved for KV Cache is …", "# cuda blocks: …, # CPU blocks: …", "Maximum concurrency for … '
          'tokens per request: …x", "Capturing cudagraphs for decoding. …", "Graph capturing finished in … secs") '
          'as public vLLM 0.7 logs show them (vllm/engine/llm_engine.py, worker.py, executor_base.py, '
          'model_runner.py); values adapted to an 8B model on an L4', 'V-other')
SRC_TQDM = ('vLLM LLM.generate progress bar on stderr ("Processed prompts:   0%|          | 0/16 [00:00<?, ?it/s, '
            'est. speed input: 0.00 toks/s, output: 0.00 toks/s]", vllm/entrypoints/llm.py _run_engine with tqdm) '
            'as public logs show it', 'V-other')
SRC_TOKENIZERS = ('huggingface/tokenizers bindings/python (the fork warning "huggingface/tokenizers: The current '
                  'process just got forked, after parallelism has already been used. Disabling parallelism to '
                  'avoid deadlocks..." and its advice lines), printed to stderr', 'V-code')


def hdr(j, t):
    """vLLM's own time stamp (MM-DD HH:MM:SS, UTC on the worker) for an entry `t` seconds after the job start."""
    return (j.start + _dt.timedelta(seconds=t)).strftime('%m-%d %H:%M:%S')


def engine_traceback():
    return T.user_tb('3.10', [
        '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
        '  File "apache_beam/runners/common.py", line 685, in apache_beam.runners.common.SimpleInvoker.invoke_process',
        '  File "/app/triage/dofns.py", line 118, in process',
        '    outputs = self.llm.generate(prompts, self.sampling, lora_request=self.lora)',
        '  File "%s/utils.py", line 1057, in inner' % VLLM,
        '    return fn(*args, **kwargs)',
        '  File "%s/entrypoints/llm.py", line 469, in generate' % VLLM,
        '    outputs = self._run_engine(use_tqdm=use_tqdm)',
        '  File "%s/entrypoints/llm.py", line 1397, in _run_engine' % VLLM,
        '    step_outputs = self.llm_engine.step()',
        '  File "%s/engine/llm_engine.py", line 1391, in step' % VLLM,
        '    outputs = self.model_executor.execute_model(',
        '  File "%s/executor/executor_base.py", line 139, in execute_model' % VLLM,
        '    output = self.collective_rpc("execute_model",',
        '  File "%s/executor/uniproc_executor.py", line 56, in collective_rpc' % VLLM,
        '    answer = run_method(self.driver_worker, method, args, kwargs)',
        '  File "%s/worker/worker_base.py", line 420, in execute_model' % VLLM,
        '    output = self.model_runner.execute_model(',
        '  File "%s/worker/model_runner.py", line 1661, in execute_model' % VLLM,
        '    self.set_active_loras(model_input.lora_requests,',
        '  File "%s/worker/model_runner.py", line 1363, in set_active_loras' % VLLM,
        '    self.lora_manager.set_active_adapters(lora_requests, lora_mapping)',
        '  File "%s/lora/worker_manager.py", line 167, in set_active_adapters' % VLLM,
        '    set_active_adapters_worker(requests, mapping, self._apply_adapters,',
        '  File "%s/lora/worker_manager.py", line 227, in _apply_adapters' % VLLM,
        '    self.add_adapter(lora)',
        '  File "%s/lora/worker_manager.py", line 240, in add_adapter' % VLLM,
        '    lora = self._load_adapter(lora_request)',
        '  File "%s/lora/worker_manager.py", line 134, in _load_adapter' % VLLM,
        '    raise e',
        '  File "%s/lora/worker_manager.py", line 101, in _load_adapter' % VLLM,
        '    peft_helper.validate_legal(self.lora_config)',
        '  File "%s/lora/peft_helper.py", line 94, in validate_legal' % VLLM,
        '    raise ValueError(f"{\' \'.join(error_msg)}")',
    ], RANK + " [while running '%s']" % STEP)


def build(c):
    c.describe('''
        A LoRA adapter above vLLM's rank limit, in-process (issue 40, model servers): a batch job triages
        support tickets with Llama 3.1 8B and a LoRA adapter on one L4 (g2-standard-8, one SDK process).
        The DoFn builds vLLM 0.7.3's LLM in setup() with enable_lora=True, max_loras=2 and no
        max_lora_rank, so the engine keeps vLLM's default of 16; the adapter was trained with r=64. The
        engine starts normally (its INFO lines on the container's stdout), the first generate() with
        the LoRARequest loads the adapter, and PEFTHelper.validate_legal raises "ValueError: LoRA rank
        64 is greater than max_lora_rank 16." through the V0 engine into the bundle's traceback; the
        same element fails four times and the job fails. vllm-lora-limit fires with the rank and the
        limit; work-item-failed and workflow-failed fold under it. Red herrings: the engine's KV-cache
        and memory lines, vLLM's progress bar and the tokenizers fork warning on stderr (docker, ERROR),
        and the DoFn's own line naming the adapter's r=64.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'],
               image='us-central1-docker.pkg.dev/harbor-support-ml/beam/ticket-triage:vllm-0.7.3-py310',
               disk=100, steps=[STAGE])
    j = c.job('ticket-triage-lora-0408', '2026-04-08T09:02:14Z', region='us-central1', zone='us-central1-a',
              python='3.10', beam='2.61.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 6
    j.wlog(t, w, 'Loading vLLM engine for %s with adapter ticket-triage (%s): r=64, lora_alpha=128, '
           'target_modules=[q_proj, k_proj, v_proj, o_proj]' % (MODEL, ADAPTER), src='user-code',
           module='/app/triage/dofns.py', line=74, step=STEP)
    engine = [
        ("INFO %s llm_engine.py:234] Initializing an LLM engine (v0.7.3) with config: model='%s', "
         "speculative_config=None, tokenizer='%s', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, "
         "override_neuron_config=None, tokenizer_revision=None, trust_remote_code=False, dtype=torch.bfloat16, "
         "max_seq_len=8192, download_dir=None, load_format=LoadFormat.AUTO, tensor_parallel_size=1, "
         "pipeline_parallel_size=1, disable_custom_all_reduce=False, quantization=None, enforce_eager=False, "
         "kv_cache_dtype=auto, device_config=cuda, seed=0, served_model_name=%s, use_v2_block_manager=True, "
         "enable_prefix_caching=False, chunked_prefill_enabled=False, use_async_output_proc=True"),
        'INFO %s model_runner.py:1110] Starting to load model ' + MODEL + '...',
        'INFO %s model_runner.py:1115] Loading model weights took 15.0295 GB',
        'INFO %s worker.py:267] model weights take 15.03GiB; non_torch_memory takes 0.08GiB; PyTorch '
        'activation peak memory takes 1.21GiB; the rest of the memory reserved for KV Cache is 2.42GiB.',
        'INFO %s executor_base.py:111] # cuda blocks: 1239, # CPU blocks: 2048',
        'INFO %s executor_base.py:116] Maximum concurrency for 8192 tokens per request: 2.42x',
        'INFO %s model_runner.py:1434] Capturing cudagraphs for decoding. This may lead to unexpected '
        'consequences if the model is not static. To run the model in eager mode, set \'enforce_eager=True\' or use '
        '\'--enforce-eager\' in the CLI. If out-of-memory error occurs during cudagraph capture, consider decreasing '
        '`gpu_memory_utilization` or switching to eager mode. You can also reduce the `max_num_seqs` as needed to '
        'decrease memory usage.',
        'INFO %s model_runner.py:1562] Graph capturing finished in 29 secs, took 0.61 GiB',
    ]
    gaps = [20, 2, 139, 6, 0.01, 0.01, 4, 29]
    at = t
    for k, line in enumerate(engine):
        at += gaps[k]
        text = line % ((hdr(j, at), MODEL, MODEL, MODEL) if k == 0 else hdr(j, at))
        j.docker(at, w, text, src=SRC_V0)
    t = at + 4
    j.docker_lines(t, w, [
        'huggingface/tokenizers: The current process just got forked, after parallelism has already been used. '
        'Disabling parallelism to avoid deadlocks...',
        'To disable this warning, you can either:',
        '\t- Avoid using `tokenizers` before the fork if possible',
        '\t- Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)',
    ], src=SRC_TOKENIZERS)
    tb = engine_traceback()
    for attempt in range(4):
        first = attempt == 0
        at = t + 6 + attempt * 41.0
        j.docker(at, w, 'Processed prompts:   0%|          | 0/16 [00:00<?, ?it/s, est. speed input: 0.00 toks/s, '
                 'output: 0.00 toks/s]', sev='ERROR', src=SRC_TQDM)
        j.wlog(at + 1.4, w, T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR',
               src='vllm-lora-rank', cite=RANK, module='apache_beam/runners/worker/sdk_worker.py', line=303,
               thread='Thread-%d' % (12 + attempt), step=STEP, mark='lora' if first else None)
        j.msg(at + 3.4, T.worker_error_msg(tb, STEP), sev='ERROR', src='vllm-lora-rank',
              cite='Error message from worker: … ' + RANK, mark='lora-msg' if first else None)
    N.fail_work_item_4(j, cf, t + 6 + 4 * 41.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('vllm-lora-limit', marks=['lora', 'lora-msg'],
           captures={'limit': 'max_lora_rank', 'rank': '64', 'max_lora_rank': '16'})
    c.fire('work-item-failed', marks=['wif'], caused_by='vllm-lora-limit')
    c.fire('workflow-failed', marks=['wif'], caused_by='vllm-lora-limit')
    c.not_fire('state-dict-mismatch', 'llm-context-exceeds-kv-cache', 'llm-engine-gpu-memory-short',
               'gpu-out-of-memory', 'model-server-start-failed', 'llm-request-token-limit')
    c.no_unexplained()
