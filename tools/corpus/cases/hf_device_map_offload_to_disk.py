from corpuslib import noise as N, texts as T

STEP = 'SummarizeClaims'
STEPS = ['S01:ReadClaims/Read+SummarizeClaims+WriteSummaries/Write']
SP = T.sp('3.10')
SRC = ('huggingface/transformers src/transformers/modeling_utils.py _load_pretrained_model (4.3x – 4.4x): "The current '
       '`device_map` had weights offloaded to the disk. Please provide an `offload_folder` for them. Alternatively, '
       'make sure you have `safetensors` installed if the model you are using offers the weights in this format." '
       'raised from from_pretrained with device_map="auto" (a public DeepSeek report\'s traceback through '
       'modeling_utils.py; line numbers ours)', 'V-code')


def build(c):
    c.describe('''
        A model too large for the GPU and the worker's memory (issue 40, models): a claim-summary DoFn
        loads a 13 B model in float16 (26 GB of .bin shards) with device_map="auto" on a g2-standard-4
        worker (one L4 of 24 GB, 16 GB of RAM). accelerate fills the GPU, then the host memory, and
        the rest would go to disk: transformers stops with "ValueError: The current `device_map` had
        weights offloaded to the disk. Please provide an `offload_folder` for them. …" in setup,
        four times; the job fails. model-offloaded-to-disk leads; its first fix names the L4's 24 GB
        and a larger GPU or half-precision/quantized weights, not the offload folder.''')
    cf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('claims-summaries-13b', '2025-02-18T06:00:05Z', region='us-central1', zone='us-central1-b',
              python='3.10', beam='2.62.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 40
    err = ('ValueError: The current `device_map` had weights offloaded to the disk. Please provide an `offload_folder` '
           'for them. Alternatively, make sure you have `safetensors` installed if the model you are using offers '
           'the weights in this format.')
    tb = T.augmented_tb('3.10', [
        '  File "/app/claims/dofn.py", line 35, in setup',
        '    self.model = AutoModelForCausalLM.from_pretrained(self.path, device_map="auto", torch_dtype=torch.float16)',
        '  File "%s/transformers/modeling_utils.py", line 3480, in from_pretrained' % SP,
        '    ) = cls._load_pretrained_model(',
        '  File "%s/transformers/modeling_utils.py", line 3601, in _load_pretrained_model' % SP,
        '    raise ValueError(',
    ], err, STEP)
    N.failing_attempts(j, cf, w, t, tb, STEP, STEPS[0], SRC, 'offload', 70.0)
    c.output('export.json')
    c.fire('model-offloaded-to-disk', marks=['offload'])
    c.fire('work-item-failed', marks=['wif'], caused_by='model-offloaded-to-disk')
    c.fire('workflow-failed', marks=['wif'], caused_by='model-offloaded-to-disk')
    c.not_fire('host-out-of-memory', 'gpu-out-of-memory', 'worker-disk-full')
    c.no_unexplained()
