from corpuslib import noise as N, texts as T

STEP = 'ExtractAttributes'
STEPS = ['S01:ReadProducts/Read+ExtractAttributes+WriteRows/Write']
ARCH = ("ValueError: The checkpoint you are trying to load has model type `qwen3` but Transformers does not "
        "recognize this architecture. This could be because of an issue with the checkpoint, or because your "
        "version of Transformers is out of date.")
SRC_ARCH = ('huggingface/transformers src/transformers/models/auto/configuration_auto.py '
            'AutoConfig.from_pretrained (the ValueError raised from the KeyError of CONFIG_MAPPING), as a qwen3 '
            'traceback from configuration_auto.py quotes it', 'V-code')
SP = T.sp('3.11')


def build(c):
    c.describe('''
        transformers older than the model (issue 40, models and the hub): a DoFn's setup at
        /app/extract.py:27 loads Qwen/Qwen3-8B with AutoModelForCausalLM.from_pretrained on an L4,
        but the image pins transformers 4.46, which predates Qwen3 (4.51). AutoConfig raises
        "ValueError: The checkpoint you are trying to load has model type `qwen3` but Transformers
        does not recognize this architecture …"; Beam re-raises it with the step; four attempts fail
        the job. transformers-architecture-unknown fires and names the model type.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('catalog-attributes-qwen3', '2026-06-02T04:00:05Z', region='us-central1',
              zone='us-central1-a', python='3.11', beam='2.65.0', workers=1)
    ready = N.bring_up(j, cf)
    tb = T.user_tb('3.11', [
        '  File "%s/apache_beam/runners/common.py", line 1562, in _invoke_setup' % SP,
        '    self.do_fn_invoker.invoke_setup()',
        '  File "/app/extract.py", line 27, in setup',
        '    self._model = AutoModelForCausalLM.from_pretrained(MODEL_ID, torch_dtype="auto", device_map="cuda")',
        '  File "%s/transformers/models/auto/auto_factory.py", line 526, in from_pretrained' % SP,
        '    config, kwargs = AutoConfig.from_pretrained(',
        '  File "%s/transformers/models/auto/configuration_auto.py", line 1036, in from_pretrained' % SP,
        '    raise ValueError(',
    ], ARCH + " [while running '%s']" % STEP)
    t = ready + 40
    t = N.failed_attempts(j, t, j.w[0], tb, STEP, src=SRC_ARCH, cite='does not recognize this architecture',
                          gap=45.0, mark='arch')
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json')
    c.fire('transformers-architecture-unknown', marks=['arch'], captures={'model_type': 'qwen3'})
    c.fire('work-item-failed', marks=['wif'], caused_by='transformers-architecture-unknown')
    c.fire('workflow-failed', marks=['wif'], caused_by='transformers-architecture-unknown')
    c.not_fire('gpu-out-of-memory', 'remote-code-package-missing', 'hf-hub-unreachable')
