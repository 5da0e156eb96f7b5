from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
STAGE = 'S02:ReadShelfImages/Read+Preprocess+RunInference/BeamML_RunInference+WriteLabels/Write'
SP = T.sp('3.11')

# torchvision ResNet-50's parameter and buffer names, in state_dict order (a prefix of them)
RESNET_KEYS = ['conv1.weight', 'bn1.weight', 'bn1.bias', 'bn1.running_mean', 'bn1.running_var']
for layer, blocks in ((1, 3), (2, 4), (3, 6), (4, 3)):
    for b in range(blocks):
        for k in (1, 2, 3):
            RESNET_KEYS += ['layer%d.%d.conv%d.weight' % (layer, b, k)] + [
                'layer%d.%d.bn%d.%s' % (layer, b, k, s) for s in ('weight', 'bias', 'running_mean', 'running_var')]
        if b == 0:
            RESNET_KEYS += ['layer%d.0.downsample.0.weight' % layer] + [
                'layer%d.0.downsample.1.%s' % (layer, s) for s in ('weight', 'bias', 'running_mean', 'running_var')]
RESNET_KEYS += ['fc.weight', 'fc.bias']

ERR = ('RuntimeError: Error(s) in loading state_dict for ResNet:\n\tMissing key(s) in state_dict: %s. \n\t'
       'Unexpected key(s) in state_dict: %s. ' % (
           ', '.join('"%s"' % k for k in RESNET_KEYS), ', '.join('"module.%s"' % k for k in RESNET_KEYS)))
SRC_SD = ('pytorch/pytorch torch/nn/modules/module.py load_state_dict ("Error(s) in loading state_dict for {}:\\n\\t{}", '
          '"Missing key(s) in state_dict: …", "Unexpected key(s) in state_dict: …") as abeardear/pytorch-YOLO-v1#4 and '
          'bearpaw/pytorch-classification#27 quote it for a DataParallel checkpoint; raised from apache/beam '
          'apache_beam/ml/inference/pytorch_inference.py _load_model in RunInference setup (apache/beam#22402 for the '
          'setup frames); key list of torchvision resnet50, frame line numbers ours', 'V-code')
SRC_HF_WARN = ('huggingface/transformers modeling_utils.py "Some weights of … were not initialized from the model '
               'checkpoint at … and are newly initialized: […]" warning of a run that goes on (a near miss)', 'V-other')
SRC_NVML = ('torch/cuda/__init__.py "UserWarning: Can\'t initialize NVML" warnings.warn line on stderr (public logs); '
            'here noise of a working GPU', 'V-other')


def build(c):
    c.describe('''
        A checkpoint saved from a DistributedDataParallel-wrapped model (issue 40, models): RunInference
        with PytorchModelHandlerTensor(state_dict_path=gs://…/resnet50_ddp_e30.pt, model_class=resnet50)
        builds a plain torchvision ResNet-50 and load_state_dict refuses the file: "Error(s) in loading
        state_dict for ResNet: Missing key(s) in state_dict: "conv1.weight", … Unexpected key(s) in
        state_dict: "module.conv1.weight", …" — every key carries DDP's module. prefix. Both workers fail
        in setup (the report runs to 17,000 characters, under Dataflow's 30,000-character crop), the job
        message repeats it, four attempts fail the job. state-dict-mismatch fires and its first fix names the module. prefix.
        Red herrings: torch's "Can't initialize NVML" warning on stderr of a working T4, and a
        transformers "Some weights … were not initialized" WARNING from the caption model of another
        step (a run that goes on).''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2, max_workers=2,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE])
    j = c.job('shelf-audit-classify-nightly', '2025-06-09T09:12:37Z', region='europe-west4',
              zone='europe-west4-a', python='3.11', beam='2.61.0', workers=2)
    ready = N.bring_up(j, cf)
    t = ready + 20
    for w in j.w:
        j.docker(t, w, "/usr/local/lib/python3.11/site-packages/torch/cuda/__init__.py:654: UserWarning: Can't "
                 "initialize NVML", sev='ERROR', src=SRC_NVML)
    j.wlog(t + 4, j.w[1], "Some weights of BlipForConditionalGeneration were not initialized from the model checkpoint "
           "at Salesforce/blip-image-captioning-base and are newly initialized: ['text_decoder.cls.predictions.decoder.bias']"
           "\nYou should probably TRAIN this model on a down-stream task to be able to use it for predictions and "
           "inference.", sev='WARNING', src=SRC_HF_WARN, module='/app/captions.py', line=31)
    j.wlog(t + 6, j.w[0], 'Loading state_dict_path gs://halden-vision-models/shelf/resnet50_ddp_e30.pt onto a ResNet '
           'model.', src='user-code', module='/app/classify.py', line=58)
    tb = T.user_tb('3.11', [
        '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._invoke_setup',
        '  File "%s/apache_beam/ml/inference/base.py", line 1360, in setup' % SP,
        '    self._model = self._load_model()',
        '  File "%s/apache_beam/ml/inference/base.py", line 1316, in _load_model' % SP,
        '    model = self._shared_model_handle.acquire(load, tag=self._cur_tag)',
        '  File "%s/apache_beam/utils/shared.py", line 324, in acquire' % SP,
        '    return _shared_map.acquire(self._key, constructor_fn, tag)',
        '  File "%s/apache_beam/ml/inference/base.py", line 1295, in load' % SP,
        '    model = self._model_handler.load_model()',
        '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 273, in load_model' % SP,
        '    model, device = _load_model(',
        '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 94, in _load_model' % SP,
        '    model.load_state_dict(state_dict)',
        '  File "%s/torch/nn/modules/module.py", line 2584, in load_state_dict' % SP,
        '    raise RuntimeError(',
    ], ERR + " [while running '%s']" % STEP)
    t += 15
    for attempt in range(4):
        w = j.w[attempt % 2]
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (attempt + 1), tb), sev='ERROR', src=SRC_SD,
               cite='RuntimeError: Error(s) in loading state_dict for ResNet:', module='apache_beam/runners/worker/sdk_worker.py',
               line=303, thread='Thread-%d' % (11 + attempt), step=STEP, mark='sd' if attempt == 0 else None)
        j.msg(t + 2, T.worker_error_msg(tb, STEP), sev='ERROR', src=SRC_SD,
              cite='Error message from worker: … Error(s) in loading state_dict for ResNet:',
              mark='sd-msg' if attempt == 0 else None)
        t += 45
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [j.w[0], j.w[1], j.w[0], j.w[1]], n=2)
    c.output('export.json')
    c.fire('state-dict-mismatch', marks=['sd', 'sd-msg'], captures={'model': 'ResNet', 'ddp_prefix': 'module.'})
    c.fire('work-item-failed', marks=['wif'], caused_by='state-dict-mismatch')
    c.fire('workflow-failed', marks=['wif'], caused_by='state-dict-mismatch')
    c.no_unexplained()
    c.not_fire('gpu-driver-missing', 'gpu-out-of-memory', 'torch-load-weights-only', 'gpu-not-used')
