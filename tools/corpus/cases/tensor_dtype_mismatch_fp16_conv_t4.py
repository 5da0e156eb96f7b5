from corpuslib import noise as N, texts as T

STEP = 'ClassifyPhotos'
STAGE = 'S01:ReadPhotos/Read+DecodePhotos+ClassifyPhotos+WriteLabels/Write'
SP = T.sp('3.11')
ERR = ('RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the '
       'same')
SRC_DT = ('pytorch/pytorch aten/src/ATen/native/Convolution.cpp check_input_same_type_as_parameters ("Input type (…) '
          'and weight type (…) should be the same", both tensors on the GPU): a model cast with .half() fed float32 '
          'images; frames composed from torch, torchvision and Beam frames', 'V-code')
SRC_CAST_WARN = ('transformers flash-attention "The input hidden states seems to be silently casted in float32 … We '
                 'will cast back the input in torch.float16." warning (a run that goes on): a near miss', 'V-other')
SRC_AMP = ('torch.cuda.amp FutureWarning "`torch.cuda.amp.autocast(args...)` is deprecated. Please use '
           '`torch.amp.autocast(\'cuda\', args...)` instead." (public logs; PyTorch "Automatic Mixed Precision '
           'package - torch.amp")', 'V-other')


def build(c):
    c.describe('''
        A dtype mismatch (issue 40, models): a photo-classification DoFn loads an EfficientNet
        checkpoint, calls .half().to("cuda") to fit larger batches on the T4, and moves each decoded
        batch with .to("cuda") only, so the images stay float32. The first convolution refuses:
        "RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor)
        should be the same" (both on the GPU: a dtype difference, not a device one). Four attempts
        fail in process(), in the worker log and one docker stderr entry per traceback line; the job
        fails. tensor-dtype-mismatch fires with both types; tensors-on-different-devices, which
        owns the CPU/GPU variant of the same sentence, must not. Red herrings: transformers' WARNING
        that it cast hidden states back to float16 in a captioning side step that then works, and
        PyTorch's FutureWarning about torch.cuda.amp.autocast on stderr at ERROR.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE])
    j = c.job('photo-moderation-classify', '2025-11-04T18:02:27Z', region='us-central1', zone='us-central1-f',
              python='3.11', beam='2.64.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 15
    j.docker(t, w, "%s/apache_beam/ml/inference/pytorch_inference.py:312: FutureWarning: "
             "`torch.cuda.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cuda', args...)` "
             "instead." % SP, sev='ERROR', src=SRC_AMP)
    j.wlog(t + 20, w, 'The input hidden states seems to be silently casted in float32, this might be related to '
           'the fact you have upcasted embedding or layer norm layers in float32. We will cast back the input in '
           'torch.float16.', sev='WARNING', src=SRC_CAST_WARN,
           module='%s/transformers/modeling_flash_attention_utils.py' % SP, line=228)
    frames = [
        '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
        '  File "/app/classify.py", line 72, in process',
        '    logits = self.model(batch.to("cuda"))',
        '  File "%s/torch/nn/modules/module.py", line 1751, in _wrapped_call_impl' % SP,
        '    return self._call_impl(*args, **kwargs)',
        '  File "%s/torch/nn/modules/module.py", line 1762, in _call_impl' % SP,
        '    return forward_call(*args, **kwargs)',
        '  File "%s/torchvision/models/efficientnet.py", line 343, in forward' % SP,
        '    return self._forward_impl(x)',
        '  File "%s/torchvision/models/efficientnet.py", line 333, in _forward_impl' % SP,
        '    x = self.features(x)',
        '  File "%s/torch/nn/modules/conv.py", line 554, in forward' % SP,
        '    return self._conv_forward(input, self.weight, self.bias)',
        '  File "%s/torch/nn/modules/conv.py", line 549, in _conv_forward' % SP,
        '    return F.conv2d(',
    ]
    tb = T.user_tb('3.11', frames, ERR + " [while running '%s']" % STEP)
    t += 41
    for attempt in range(4):
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (attempt + 1), tb), sev='ERROR', src=SRC_DT,
               cite=ERR, module='apache_beam/runners/worker/sdk_worker.py', line=303,
               thread='Thread-%d' % (11 + attempt), step=STEP, mark='dtype' if attempt == 0 else None)
        if attempt == 0:
            j.docker_lines(t - 0.01, w, T.user_tb('3.11', frames, ERR).split('\n'), src=SRC_DT, mark='dtype-docker')
        t += 37
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('tensor-dtype-mismatch', marks=['dtype'],
           captures={'dtype_a': 'torch.cuda.FloatTensor', 'dtype_b': 'torch.cuda.HalfTensor'})
    c.fire('work-item-failed', marks=['wif'], caused_by='tensor-dtype-mismatch')
    c.fire('workflow-failed', marks=['wif'], caused_by='tensor-dtype-mismatch')
    c.no_unexplained()
    c.not_fire('tensors-on-different-devices', 'bf16-unsupported-gpu', 'sampling-probabilities-invalid',
               'gpu-out-of-memory')
