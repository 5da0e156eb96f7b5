from corpuslib import noise as N, texts as T

STEP = 'TagProducts'
STEPS = ['S01:ReadProducts/Read+TagProducts+WriteTags/Write']
PY = '3.11'
SP = T.sp(PY)
SRC_ERR = ('huggingface/transformers src/transformers/modeling_utils.py PreTrainedModel.cuda (4.43 to 4.4x): '
           '"Calling `cuda()` is not supported for `4-bit` quantized models with the installed version of '
           'bitsandbytes. The current device is `{self.device}`. If you intended to move the model, please install '
           'bitsandbytes >= 0.43.2." (the .to() twin is quoted by a public notebook traceback through accelerate '
           'big_modeling.py dispatch_model); the DoFn frames and line numbers are ours', 'V-code')
SRC_UNUSED = ('huggingface/transformers src/transformers/utils/quantization_config.py BitsAndBytesConfig.__init__: '
              'logger.info(f"Unused kwargs: {list(kwargs.keys())}. These kwargs are not used in {self.__class__}.") '
              'when a pre-quantized checkpoint\'s quantization_config is read, as public LLaMA-Factory and vLLM '
              'logs print it', 'V-code')
SRC_LOWCPU = ('huggingface/transformers src/transformers/modeling_utils.py from_pretrained (4.4x): "`low_cpu_mem_usage` '
              'was None, now default to True since model is quantized." (printed next to the Unused kwargs line in '
              'public logs)', 'V-code')
SRC_USER = ('the pipeline\'s own loading line (composition)', 'I')


def build(c):
    c.describe('''
        A 4-bit bitsandbytes model moved with .cuda() (issue 40, models): a product-tagging DoFn on
        Beam 2.58 loads the pre-quantized checkpoint unsloth/Qwen2.5-7B-Instruct-bnb-4bit with
        device_map={'': 0} on an n1-standard-8 worker with one T4, and then calls .cuda() on it, as
        the float16 version of the DoFn did. The image pins bitsandbytes 0.42 under transformers
        4.44, so PreTrainedModel.cuda raises "ValueError: Calling `cuda()` is not supported for
        `4-bit` quantized models with the installed version of bitsandbytes. The current device is
        `cuda:0`. If you intended to move the model, please install bitsandbytes >= 0.43.2." in
        setup on each of four attempts; the job fails. bnb-quantized-model-moved leads and captures
        cuda, 4-bit and 0.43.2; its first fix removes the .cuda() call, its second names
        bitsandbytes >= 0.43.2. Transformers' healthy notes about the pre-quantized checkpoint
        ("Unused kwargs: ['_load_in_4bit', '_load_in_8bit', 'quant_method'] …", "`low_cpu_mem_usage`
        was None, now default to True since model is quantized.") are the near misses.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=2,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS, disk=100)
    j = c.job('product-tags-qwen-4bit', '2024-09-24T08:41:55Z', region='europe-west4', zone='europe-west4-a',
              python=PY, beam='2.58.1', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 14
    j.wlog(t, w, "Loading unsloth/Qwen2.5-7B-Instruct-bnb-4bit (pre-quantized, bitsandbytes 4-bit) with "
           "device_map={'': 0}", src=SRC_USER, module='/app/tagging/dofn.py', step=STEP)
    j.docker(t + 2.1, w, "Unused kwargs: ['_load_in_4bit', '_load_in_8bit', 'quant_method']. These kwargs are not "
             "used in <class 'transformers.utils.quantization_config.BitsAndBytesConfig'>.", sev='ERROR',
             src=SRC_UNUSED, mark='unused')
    j.docker(t + 2.4, w, '`low_cpu_mem_usage` was None, now default to True since model is quantized.', sev='ERROR',
             src=SRC_LOWCPU, mark='lowcpu')
    t += 52
    err = ('ValueError: Calling `cuda()` is not supported for `4-bit` quantized models with the installed version of '
           'bitsandbytes. The current device is `cuda:0`. If you intended to move the model, please install '
           'bitsandbytes >= 0.43.2.')
    tb = T.augmented_tb(PY, [
        '  File "/app/tagging/dofn.py", line 41, in setup',
        '    ).cuda()',
        '  File "%s/transformers/modeling_utils.py", line 2864, in cuda' % SP,
        '    raise ValueError(',
    ], err, STEP)
    N.failing_attempts(j, cf, w, t, tb, STEP, STEPS[0], SRC_ERR, 'bnb', 58.0)
    c.output('export.json')
    c.fire('bnb-quantized-model-moved', marks=['bnb'],
           captures={'method': 'cuda', 'bits': '4-bit', 'bnb_min': '0.43.2'})
    c.fire('work-item-failed', marks=['wif'], caused_by='bnb-quantized-model-moved')
    c.fire('workflow-failed', marks=['wif'], caused_by='bnb-quantized-model-moved')
    c.not_fire('bitsandbytes-gpu-unsupported', 'quantization-gpu-too-old', 'llm-quantization-mismatch',
               'meta-tensor-not-materialized', 'hf-pipeline-device-with-device-map', 'gpu-not-used')
    c.no_unexplained()
