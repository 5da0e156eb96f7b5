from corpuslib import noise as N, texts as T

STEP = 'ClassifyReviews'
STEPS = ['S01:ReadReviews/Read+RunInference/BeamML_RunInference+WriteLabels/Write']
SP = T.sp('3.10')
MODEL_DIR = '/models/deberta-v3-large-reviews'
SRC_ST = ('huggingface/safetensors bindings/python/src/lib.rs and safetensors/src/tensor.rs read_metadata '
          '(≤0.5.x: the Debug name HeaderTooLarge), raised from safe_open in transformers '
          'modeling_utils.load_state_dict; microsoft/OmniParser#34 and codefuse-ai/MFTCoder#20 quote it '
          '(the paths adapted)', 'V-code')
SRC_SHARDS = ('huggingface/transformers modeling_utils.py: the tqdm "Loading checkpoint shards" bar on '
              'stderr, a near miss that a successful load prints', 'V-code')


def traceback():
    return T.user_tb('3.10', [
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 300, in _execute' % SP,
        '    response = task()',
        '  File "%s/apache_beam/ml/inference/base.py", line 1513, in setup' % SP,
        '    self._model = self._load_model()',
        '  File "%s/apache_beam/ml/inference/huggingface_inference.py", line 658, in load_model' % SP,
        '    return pipeline(task=self._task, model=self._model, **self._load_pipeline_args)',
        '  File "%s/transformers/pipelines/__init__.py", line 942, in pipeline' % SP,
        '    framework, model = infer_framework_load_model(',
        '  File "%s/transformers/modeling_utils.py", line 4225, in from_pretrained' % SP,
        '    ) = cls._load_pretrained_model(',
        '  File "%s/transformers/modeling_utils.py", line 4728, in _load_pretrained_model' % SP,
        '    state_dict = load_state_dict(shard_file, is_quantized=is_quantized)',
        '  File "%s/transformers/modeling_utils.py", line 555, in load_state_dict' % SP,
        '    with safe_open(checkpoint_file, framework="pt") as f:',
    ], 'safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge')


def build(c):
    c.describe('''
        A Git LFS pointer baked into the image in place of the weights (issue 40, models and the
        hub): the team's CI cloned its fine-tuned DeBERTa model with git on a runner without git-lfs
        and copied the folder into the SDK container image. On the T4 worker, Beam's Hugging Face
        pipeline handler loads /models/deberta-v3-large-reviews; safetensors reads the pointer's
        "version " as a header length and raises "Error while deserializing header: HeaderTooLarge"
        (safetensors 0.4). Four attempts, the job fails. model-file-lfs-pointer fires; the tokenizer
        files and the config load fine before it, and the job's other step logs the "Loading
        checkpoint shards: 100%" bar of a healthy load of another model (a near miss).''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS,
               image='europe-docker.pkg.dev/acme-ml-prod/beam/reviews-gpu:2026-03-02')
    j = c.job('review-labels-daily', '2026-03-03T05:00:12Z', region='europe-west4',
              zone='europe-west4-a', python='3.10', beam='2.62.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 25
    j.docker(t - 8, j.w[0], 'Loading checkpoint shards: 100%|██████████| 2/2 [00:04<00:00,  2.11s/it]',
             sev='ERROR', src=SRC_SHARDS)
    t = N.failed_attempts(j, t, j.w[0], traceback(), STEP, src=SRC_ST,
                          cite='Error while deserializing header: HeaderTooLarge', gap=40.0, mark='pointer')
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json.gz')
    c.fire('model-file-lfs-pointer', marks=['pointer'])
    c.fire('work-item-failed', marks=['wif'], caused_by='model-file-lfs-pointer')
    c.fire('workflow-failed', marks=['wif'], caused_by='model-file-lfs-pointer')
    c.not_fire('torch-load-weights-only', 'gpu-out-of-memory', 'hf-hub-unreachable')
