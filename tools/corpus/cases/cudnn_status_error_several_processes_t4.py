from corpuslib import noise as N, texts as T

STEP = 'ClassifyFrames'
STEPS = ['S01:ReadFrames/Read+ClassifyFrames+WriteLabels/Write']
SP = T.sp('3.10')
STATUS = 'RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED'
SRC_CUDNN = ('pytorch/pytorch aten/src/ATen/cuda/Exceptions.h AT_CUDNN_CHECK ("cuDNN error: " + '
             'cudnnGetErrorString(status)) raised from F.conv2d at the first convolution, as '
             'deepseek-ai/DeepSeek-VL#30 and yukkyo/PyTorch-FilterResponseNormalizationLayer#4 show it; the '
             'torchvision/torch frames composed from torch 2.x', 'V-code')
SRC_FACTORY = ('TensorFlow\'s duplicate cuDNN factory registration at import (healthy, bmaltais/kohya_ss#3320 '
               'form), from TensorFlow installed beside torch in the image: a near miss', 'V-other')
SRC_TV = ('torchvision models/_utils.py UserWarning "The parameter \'pretrained\' is deprecated since 0.13 …" '
          '(public torchvision logs): a near miss', 'V-other')


def build(c):
    c.describe('''
        cuDNN could not start in several SDK processes sharing one T4 (PyTorch): a frame classifier
        (a torchvision ResNet-50 plus a large re-ranking head) runs in a DoFn on n1-standard-4 workers
        with one T4 and no no_use_multiple_sdk_containers, so Dataflow starts four SDK processes per
        worker and each loads its own model copy onto the GPU in setup(). The first convolution then
        fails in the later processes with "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED":
        cuDNN found no GPU memory for its handle. Four attempts on different SDK processes, the job
        fails. cudnn-status-error leads, its first fix one SDK process per GPU (the facts count four
        per GPU). Red herrings: TensorFlow's healthy "Unable to register cuDNN factory" line at import
        (the image carries TensorFlow too), torchvision's deprecation warning, and no out-of-memory
        text anywhere, so neither gpu-out-of-memory nor multiple-processes-per-gpu may fire.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               steps=STEPS, sdk_procs=4, image='us-docker.pkg.dev/acme-media/beam/frames-torch:2026.05')
    j = c.job('frame-classifier-t4', '2026-05-21T09:14:02Z', region='us-east1',
              zone='us-east1-c', python='3.10', beam='2.65.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 12
    j.docker(t, j.w[0], 'E0000 00:00:1779354860.118203      41 cuda_dnn.cc:8310] Unable to register cuDNN factory: '
             'Attempting to register factory for plugin cuDNN when one has already been registered',
             sev='ERROR', src=SRC_FACTORY)
    j.wlog(t + 4, j.w[0], '%s/torchvision/models/_utils.py:208: UserWarning: The parameter \'pretrained\' is '
           'deprecated since 0.13 and may be removed in the future, please use \'weights\' instead.' % SP,
           sev='WARNING', src=SRC_TV, module='py.warnings', sdk='sdk-0-1')
    t += 30
    for attempt in range(4):
        first = attempt == 0
        sdk = 'sdk-0-%d' % (1 + attempt % 3)
        tb = T.user_tb('3.10', [
            '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
            '  File "/app/classify.py", line 63, in process',
            '    logits = self._model(batch.to("cuda", non_blocking=True))',
            '  File "%s/torch/nn/modules/module.py", line 1751, in _call_impl' % SP,
            '    return forward_call(*args, **kwargs)',
            '  File "%s/torchvision/models/resnet.py", line 268, in forward' % SP,
            '    x = self.conv1(x)',
            '  File "%s/torch/nn/modules/conv.py", line 549, in _conv_forward' % SP,
            '    return F.conv2d(',
        ], STATUS + " [while running '%s']" % STEP)
        j.wlog(t, j.w[0], T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR', src=SRC_CUDNN,
               cite='RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED',
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (11 + attempt),
               step=STEP, sdk=sdk, mark='cudnn' if first else None)
        j.msg(t + 2, T.worker_error_msg(tb, STEP), sev='ERROR', src=SRC_CUDNN,
              cite='Error message from worker: … cuDNN error: CUDNN_STATUS_NOT_INITIALIZED',
              mark='cudnn-msg' if first else None)
        t += 45.0
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json')
    c.fire('cudnn-status-error', marks=['cudnn', 'cudnn-msg'], captures={'status': 'CUDNN_STATUS_NOT_INITIALIZED'})
    c.fire('work-item-failed', marks=['wif'], caused_by='cudnn-status-error')
    c.fire('workflow-failed', marks=['wif'], caused_by='cudnn-status-error')
    c.not_fire('gpu-out-of-memory', 'multiple-processes-per-gpu', 'cublas-handle-failed', 'cudnn-version-mismatch',
               'gpu-memory-taken-at-start', 'cuda-libraries-missing')
