from corpuslib import noise as N, texts as T

STEP = 'DraftReplies'
STAGE = 'S02:ReadTickets/Read+ExtractEntities+DraftReplies+WriteDrafts/Write'
PY = '3.10'
SP = T.sp(PY)
ERR = ('ValueError: Quantization method specified in the model config (gptq) does not match the quantization '
       'method specified in the `quantization` argument (awq).')
SRC_ERR = ('vllm-project/vllm vllm/config.py ModelConfig._verify_quantization (0.6.x: the override list, then '
           'raise ValueError("Quantization method specified in the model config ({quant_method}) does not match the '
           'quantization method specified in the `quantization` argument ({self.quantization}).")), reached from '
           'vllm.LLM() through EngineArgs.create_engine_config; the same mismatch as a vLLM 0.5.0.post1 report '
           '(gptq vs gptq_marlin) and intel/auto-round#2242 (LLM() with a GPTQ export); Beam\'s lifecycle frames '
           '(DoFnRunner._invoke_lifecycle_method re-raising with the step) and the line numbers composed', 'V-code')
SRC_APP = ('the pipeline\'s own INFO line naming the model and its vLLM arguments (composition), a near miss', 'I')
SRC_HF = ('transformers quantizers/auto.py merge_quantization_configs UserWarning "You passed `quantization_config` or '
          'equivalent parameters to `from_pretrained` but the model you\'re loading already has a `quantization_config` '
          'attribute. The `quantization_config` from the model will be used.However, loading attributes (e.g. […]) '
          'will be overwritten with the one you passed to `from_pretrained`. The rest will be ignored." (public '
          'lm-eval logs): a healthy near miss', 'V-other')


def build(c):
    c.describe('''
        A quantization argument left over from the previous model (issue 40, model servers), vLLM run
        in-process: a batch job drafts support replies with a DoFn that builds vllm.LLM (vLLM 0.6.3.post1)
        in setup() with quantization="awq" — set when the job served an AWQ build — but the model was
        switched to the GPTQ export TheBloke/Mistral-7B-Instruct-v0.2-GPTQ. vLLM reads quant_method gptq
        from the checkpoint and refuses: "ValueError: Quantization method specified in the model config
        (gptq) does not match the quantization method specified in the `quantization` argument (awq).",
        raised through Beam's setup() of the DraftReplies step on every attempt; the work item fails four
        times. No model server is involved (model-server-start-failed stays quiet) and the L4 is fine
        (quantization-gpu-too-old stays quiet). llm-quantization-mismatch leads with both methods. Near
        misses: the DoFn's own INFO line naming 'quantization': 'awq', and transformers' UserWarning in
        the ExtractEntities step that it keeps the checkpoint's quantization_config (a healthy load).''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE],
               image='europe-west4-docker.pkg.dev/harbor-desk-ml/dataflow/reply-drafter:vllm0.6.3-beam2.60')
    j = c.job('support-reply-drafts', '2025-02-18T06:30:04Z', region='europe-west4', zone='europe-west4-a',
              python=PY, beam='2.60.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 9
    j.docker_lines(t, w, [
        "%s/transformers/quantizers/auto.py:212: UserWarning: You passed `quantization_config` or equivalent "
        "parameters to `from_pretrained` but the model you're loading already has a `quantization_config` attribute. "
        "The `quantization_config` from the model will be used.However, loading attributes (e.g. ['use_exllama']) "
        "will be overwritten with the one you passed to `from_pretrained`. The rest will be ignored." % SP,
        '  warnings.warn(warning_msg)',
    ], src=SRC_HF, mark='hf-warning')
    frames = T._frames_bundle(PY) + [
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1046, in __init__' % SP,
        '    op.setup(self.data_sampler)',
        '  File "apache_beam/runners/worker/operations.py", line 873, in '
        'apache_beam.runners.worker.operations.DoOperation.setup',
        '  File "apache_beam/runners/worker/operations.py", line 923, in '
        'apache_beam.runners.worker.operations.DoOperation.setup',
        '  File "apache_beam/runners/common.py", line 1471, in apache_beam.runners.common.DoFnRunner.setup',
        '  File "apache_beam/runners/common.py", line 1467, in '
        'apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
        '  File "apache_beam/runners/common.py", line 1507, in apache_beam.runners.common.DoFnRunner._reraise_augmented',
        '  File "apache_beam/runners/common.py", line 1465, in '
        'apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
        '  File "apache_beam/runners/common.py", line 552, in apache_beam.runners.common.DoFnInvoker.invoke_setup',
        '  File "/app/drafter.py", line 38, in setup',
        '    self.llm = LLM(model=self.model_id, **self.vllm_kwargs)',
        '  File "%s/vllm/entrypoints/llm.py", line 214, in __init__' % SP,
        '    self.llm_engine = LLMEngine.from_engine_args(',
        '  File "%s/vllm/engine/llm_engine.py", line 573, in from_engine_args' % SP,
        '    engine_config = engine_args.create_engine_config()',
        '  File "%s/vllm/engine/arg_utils.py", line 903, in create_engine_config' % SP,
        '    model_config = self.create_model_config()',
        '  File "%s/vllm/engine/arg_utils.py", line 839, in create_model_config' % SP,
        '    return ModelConfig(',
        '  File "%s/vllm/config.py", line 207, in __init__' % SP,
        '    self._verify_quantization()',
        '  File "%s/vllm/config.py", line 298, in _verify_quantization' % SP,
        '    raise ValueError(',
    ]
    tb = T.user_tb(PY, frames, ERR + " [while running '%s']" % STEP)
    t += 31
    for attempt in range(4):
        first = attempt == 0
        j.wlog(t, w, "Loading TheBloke/Mistral-7B-Instruct-v0.2-GPTQ with vLLM arguments {'quantization': 'awq', "
               "'max_model_len': 8192, 'gpu_memory_utilization': 0.9}", src=SRC_APP, module='/app/drafter.py:36',
               thread='Thread-%d' % (11 + attempt), step=STEP, mark='app' if first else None)
        j.wlog(t + 6.2, w, T.instruction_error('process_bundle-%d' % (attempt + 1), tb), sev='ERROR', src=SRC_ERR,
               cite=ERR, module='apache_beam/runners/worker/sdk_worker.py', line=303,
               thread='Thread-%d' % (11 + attempt), step=STEP, mark='mismatch' if first else None)
        j.msg(t + 8.2, T.worker_error_msg(tb, STEP), sev='ERROR', src=SRC_ERR, cite=ERR,
              mark='mismatch-msg' if first else None)
        t += 41
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('llm-quantization-mismatch', marks=['mismatch'],
           captures={'config_method': 'gptq', 'argument': 'awq'})
    c.fire('work-item-failed', marks=['wif'], caused_by='llm-quantization-mismatch')
    c.fire('workflow-failed', marks=['wif'], caused_by='llm-quantization-mismatch')
    c.no_unexplained()
    c.not_fire('model-server-start-failed', 'quantization-gpu-too-old', 'llm-architecture-unsupported',
               'gpu-out-of-memory')
