from corpuslib import noise as N, texts as T

STEP = 'SummarizeTickets'
STEPS = ['S01:ReadTickets/Read+CleanTickets+SummarizeTickets+WriteSummaries/Write']
SP = T.sp('3.12')
MODEL_DIR = '/models/ticket-bart-large-ft'
ACC = ('ValueError: Using a `device_map`, `tp_plan`, `torch.device` context manager or setting '
       '`torch.set_default_device(device)` requires `accelerate`. You can install it with `pip install accelerate`')
SRC_ACC = ('huggingface/transformers modeling_utils.py from_pretrained (4.5x; integrations/accelerate.py '
           'check_and_set_device_map later): ValueError("Using a `device_map`, `tp_plan`, `torch.device` context '
           'manager or setting `torch.set_default_device(device)` requires `accelerate`. You can install it with '
           '`pip install accelerate`"), caught by pipelines/base.py infer_framework_load_model and re-raised as '
           '"Could not load model … with any of the following classes: … See the original errors:\\n\\nwhile '
           'loading with …, an error is thrown:\\n{traceback}", the shape Hugging Face Space logs show for '
           'BartForConditionalGeneration; the pipeline frames and line numbers composed', 'V-code')
SRC_DTYPE = ('huggingface/transformers 4.56+ logger.warning_once "`torch_dtype` is deprecated! Use `dtype` '
             'instead!" on stderr (public logs quote it), a near miss that a working load prints too', 'V-code')
SRC_INFO = ('the pipeline\'s own INFO line (composed)', 'I')


def traceback():
    inner = '\n'.join([
        'Traceback (most recent call last):',
        '  File "%s/transformers/pipelines/base.py", line 293, in infer_framework_load_model' % SP,
        '    model = model_class.from_pretrained(model, **kwargs)',
        '  File "%s/transformers/models/auto/auto_factory.py", line 604, in from_pretrained' % SP,
        '    return model_class.from_pretrained(',
        '  File "%s/transformers/modeling_utils.py", line 277, in _wrapper' % SP,
        '    return func(*args, **kwargs)',
        '  File "%s/transformers/modeling_utils.py", line 4784, in from_pretrained' % SP,
        '    raise ValueError(',
        ACC,
    ])
    exc = ("ValueError: Could not load model %s with any of the following classes: (<class "
           "'transformers.models.auto.modeling_auto.AutoModelForSeq2SeqLM'>, <class "
           "'transformers.models.bart.modeling_bart.BartForConditionalGeneration'>). See the original errors:\n\n"
           "while loading with AutoModelForSeq2SeqLM, an error is thrown:\n%s\n\n"
           "while loading with BartForConditionalGeneration, an error is thrown:\n%s\n" % (MODEL_DIR, inner, inner))
    return T.augmented_tb('3.12', [
        '  File "/app/tickets/summarize.py", line 52, in setup',
        '    self._pipe = pipeline("summarization", model=MODEL_DIR, device_map="auto", torch_dtype=torch.bfloat16)',
        '  File "%s/transformers/pipelines/__init__.py", line 1027, in pipeline' % SP,
        '    framework, model = infer_framework_load_model(',
        '  File "%s/transformers/pipelines/base.py", line 333, in infer_framework_load_model' % SP,
        '    raise ValueError(',
    ], exc, STEP)


def build(c):
    c.describe('''
        accelerate missing for device_map (transformers 4.5x wording, Hugging Face pipeline): a support-ticket
        summarizer on an A100 builds its image from python:3.12-slim with only torch 2.8.0+cu128,
        transformers 4.57.1 and sentencepiece pinned; accelerate, which the team's notebooks had, is not in
        the list. SummarizeTickets.setup() calls pipeline("summarization", model=/models/ticket-bart-large-ft,
        device_map="auto", torch_dtype=torch.bfloat16); from_pretrained raises "ValueError: Using a `device_map`,
        `tp_plan`, `torch.device` context manager or setting `torch.set_default_device(device)` requires
        `accelerate`", which the pipeline catches for each candidate class and re-raises as "Could not load
        model … with any of the following classes … See the original errors". Four attempts, the job fails.
        hf-accelerate-missing leads (the message sits inside the pipeline's ValueError); work-item-failed and
        workflow-failed fold under it. Near misses: transformers' "`torch_dtype` is deprecated! Use `dtype`
        instead!" on stderr before the first load (listed at info level, not a cause), and the DoFn's own
        version line naming accelerate;
        python-module-missing stays quiet (no "No module named").''')
    cf = N.cfg(machine='a2-highgpu-1g', gpu='nvidia-tesla-a100', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS, disk=120,
               image='us-east1-docker.pkg.dev/helpwise-ai/beam/ticket-summarizer:2025-11-04')
    j = c.job('ticket-summaries-backfill', '2025-11-05T13:40:09Z', region='us-east1', zone='us-east1-b',
              project='helpwise-ai', python='3.12', beam='2.69.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 12
    j.wlog(t, w, 'SummarizeTickets.setup: torch 2.8.0+cu128, transformers 4.57.1, accelerate: not installed, '
           'device: NVIDIA A100-SXM4-40GB', src=SRC_INFO, module='/app/tickets/summarize.py', line=47)
    j.docker(t + 0.8, w, '`torch_dtype` is deprecated! Use `dtype` instead!', sev='ERROR', src=SRC_DTYPE)
    t = N.failed_attempts(j, t + 3.0, w, traceback(), STEP, src=SRC_ACC,
                          cite='ValueError: Using a `device_map`, `tp_plan`, `torch.device` context manager or '
                               'setting `torch.set_default_device(device)` requires `accelerate`. …',
                          gap=27.0, mark='acc',
                          msg_cite='Error message from worker: … ValueError: Could not load model … Using a '
                                   '`device_map`, … requires `accelerate` …')
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [w] * 4)
    c.output('export.json.gz')
    c.no_unexplained()
    c.fire('hf-accelerate-missing', marks=['acc', 'acc-msg'])
    c.fire('work-item-failed', marks=['wif'], caused_by='hf-accelerate-missing')
    c.fire('workflow-failed', marks=['wif'], caused_by='hf-accelerate-missing')
    c.not_fire('python-module-missing', 'bitsandbytes-gpu-unsupported', 'model-offloaded-to-disk',
               'gpu-out-of-memory', 'gpu-not-used', 'transformers-torch-too-old')
