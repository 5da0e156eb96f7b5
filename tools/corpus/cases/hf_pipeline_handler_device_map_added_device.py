from corpuslib import noise as N, texts as T

STEP = 'Summarize/BeamML_RunInference'
STEPS = ['S01:ReadTickets/Read+DetectLanguage/BeamML_RunInference+Summarize/BeamML_RunInference+'
         'WriteSummaries/Write']
PY = '3.11'
SP = T.sp(PY)
SRC_ERR = ('huggingface/transformers src/transformers/pipelines/base.py Pipeline.__init__ (4.32 on, '
           'huggingface/transformers#25207): "ValueError: The model has been loaded with `accelerate` and therefore '
           'cannot be moved to a specific device. Please discard the `device` argument when creating your pipeline '
           'object."; the call through apache_beam/ml/inference/huggingface_inference.py '
           'HuggingFacePipelineModelHandler.load_model (pipeline(task=..., model=..., **load_pipeline_args), the '
           'handler adding a device to load_pipeline_args when they hold none) and transformers/pipelines/__init__.py '
           'pipeline(); line numbers ours', 'V-code')
SRC_BOTH = ('huggingface/transformers src/transformers/pipelines/__init__.py pipeline() (4.2x to 4.5x): '
            'logger.warning("Both `device` and `device_map` are specified. `device` will override `device_map`. You '
            'will most likely encounter unexpected behavior. Please remove `device` and keep `device_map`."), on '
            'stderr through transformers\' own stream handler', 'V-code')
SRC_DEVICE = ('huggingface/transformers src/transformers/pipelines/base.py Pipeline.__init__ (4.4x): '
              'logger.warning(f"Device set to use {self.device}") once the pipeline is built', 'V-code')
SRC_SHARDS = ('transformers modeling_utils.py logging.tqdm(desc="Loading checkpoint shards") progress line on '
              'stderr (counts and times ours)', 'V-code')


def build(c):
    c.describe('''
        Beam's pipeline handler adds a device to a device_map load (issue 40, models and
        multi-GPU): a support-ticket job on Beam 2.60 runs two RunInference steps with
        HuggingFacePipelineModelHandler on g2-standard-24 workers (two L4s). The small
        language-detection pipeline gets load_pipeline_args={'device': 0} and loads fine
        ("Device set to use cuda:0", the healthy near miss); the summarizer gets
        load_pipeline_args={'device_map': 'auto', 'torch_dtype': torch.bfloat16} and no device, so
        the handler puts a GPU device into load_pipeline_args itself. pipeline() warns "Both `device`
        and `device_map` are specified", accelerate spreads the 14 B checkpoint over both GPUs, and
        Pipeline.__init__ raises "ValueError: The model has been loaded with `accelerate` and
        therefore cannot be moved to a specific device. Please discard the `device` argument …" on
        each of four attempts; the job fails. hf-pipeline-device-with-device-map leads; its fixes
        say to drop device= (here: keep the handler from adding one) and keep device_map="auto".
        Written as a Cloud Storage sink shard (NDJSON).''')
    cf = N.cfg(machine='g2-standard-24', gpu='nvidia-l4', gpu_count=2, driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS, disk=200)
    j = c.job('ticket-summaries-hf-0611', '2025-06-11T13:20:08Z', region='us-central1', zone='us-central1-c',
              python=PY, beam='2.60.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 18
    # the healthy pipeline of the first step: built with device=0, no device_map
    j.docker(t, w, 'Device set to use cuda:0', sev='ERROR', src=SRC_DEVICE, mark='healthy-device')
    t += 6
    j.docker(t, w, 'Both `device` and `device_map` are specified. `device` will override `device_map`. You will most '
             'likely encounter unexpected behavior. Please remove `device` and keep `device_map`.',
             sev='ERROR', src=SRC_BOTH, mark='both')
    t += 190
    j.docker(t, w, 'Loading checkpoint shards: 100%|██████████| 8/8 [03:08<00:00, 23.52s/it]', sev='ERROR',
             src=SRC_SHARDS)
    t += 3
    err = ('ValueError: The model has been loaded with `accelerate` and therefore cannot be moved to a specific '
           'device. Please discard the `device` argument when creating your pipeline object.')
    tb = T.augmented_tb(PY, [
        '  File "%s/apache_beam/ml/inference/base.py", line 1461, in _run_inference' % SP,
        '    self._model = self._load_model()',
        '  File "%s/apache_beam/ml/inference/base.py", line 1411, in _load_model' % SP,
        '    model = self._shared_model_handle.acquire(load, tag=self._cur_tag)',
        '  File "%s/apache_beam/utils/multi_process_shared.py", line 218, in acquire' % SP,
        '    return self._shared_handle.acquire(constructor, tag)',
        '  File "%s/apache_beam/ml/inference/base.py", line 1377, in load' % SP,
        '    model = self._model_handler.load_model()',
        '  File "%s/apache_beam/ml/inference/huggingface_inference.py", line 709, in load_model' % SP,
        '    return pipeline(',
        '  File "%s/transformers/pipelines/__init__.py", line 1164, in pipeline' % SP,
        '    return pipeline_class(model=model, framework=framework, task=task, **kwargs)',
        '  File "%s/transformers/pipelines/base.py", line 873, in __init__' % SP,
        '    raise ValueError(',
    ], err, STEP)
    N.failing_attempts(j, cf, w, t, tb, STEP, STEPS[0], SRC_ERR, 'accel', 205.0)
    c.output('export-000000000000.ndjson')
    c.fire('hf-pipeline-device-with-device-map', marks=['accel'])
    c.fire('work-item-failed', marks=['wif'], caused_by='hf-pipeline-device-with-device-map')
    c.fire('workflow-failed', marks=['wif'], caused_by='hf-pipeline-device-with-device-map')
    c.not_fire('meta-tensor-not-materialized', 'cuda-device-out-of-range', 'gpu-out-of-memory',
               'tensors-on-different-devices', 'bnb-quantized-model-moved', 'gpu-not-used')
    c.no_unexplained()
