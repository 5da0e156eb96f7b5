from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
STEPS = ['S01:ReadReviews/Read+RunInference/BeamML_RunInference+WriteSentiment/Write']
SP = T.sp('3.10')
SRC_ORDINAL = ('pytorch/pytorch c10/cuda/CUDAException.cpp (torch 2.x): "RuntimeError: CUDA error: invalid device '
               'ordinal" with the "CUDA kernel errors might be asynchronously reported…", "For debugging consider '
               'passing CUDA_LAUNCH_BLOCKING=1." and "Compile with `TORCH_USE_CUDA_DSA`…" lines, as '
               'hpcaitech/Open-Sora#40 and OpenBMB/MiniCPM-V#356 quote them; apache/beam#31951: '
               'HuggingFacePipelineModelHandler.load_model set device \'cuda:1\' when a GPU was available and none '
               'was given (frames of apache_beam/ml/inference/huggingface_inference.py and transformers '
               'pipelines/base.py; line numbers ours)', 'V-code')


def build(c):
    c.describe('''
        Beam's Hugging Face pipeline handler asks for the second GPU of a one-GPU worker (issue 40,
        multi-GPU and Beam): a review-sentiment job on Beam 2.57 uses HuggingFacePipelineModelHandler
        without a device on n1-standard-4 workers with one T4. Before apache/beam#31951 (July 2024)
        the handler set device 'cuda:1' whenever it found a GPU, so the pipeline's model.to(device)
        raises "RuntimeError: CUDA error: invalid device ordinal" (with PyTorch 2's three advice
        lines) on each of four attempts; the job fails. cuda-device-out-of-range leads; its first
        fix says the worker has 1 × nvidia-tesla-t4 and to address GPUs from cuda:0, its third names
        the handler and Beam's change. CUDA_LAUNCH_BLOCKING in the advice line is not a device-side
        assert.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('review-sentiment-hf-0806', '2024-08-06T09:12:40Z', region='europe-west1', zone='europe-west1-b',
              python='3.10', beam='2.57.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 24
    err = ('RuntimeError: CUDA error: invalid device ordinal\nCUDA kernel errors might be asynchronously reported '
           'at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing '
           'CUDA_LAUNCH_BLOCKING=1.\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.')
    tb = T.augmented_tb('3.10', [
        '  File "%s/apache_beam/ml/inference/base.py", line 1429, in _run_inference' % SP,
        '    self._model = self._load_model()',
        '  File "%s/apache_beam/ml/inference/huggingface_inference.py", line 673, in load_model' % SP,
        '    return pipeline(',
        '  File "%s/transformers/pipelines/base.py", line 880, in __init__' % SP,
        '    self.model.to(self.device)',
        '  File "%s/torch/nn/modules/module.py", line 1152, in to' % SP,
        '    return self._apply(convert)',
    ], err, STEP)
    N.failing_attempts(j, cf, w, t, tb, STEP, STEPS[0], SRC_ORDINAL, 'ordinal', 29.0)
    c.output('export.json')
    c.fire('cuda-device-out-of-range', marks=['ordinal'])
    c.fire('work-item-failed', marks=['wif'], caused_by='cuda-device-out-of-range')
    c.fire('workflow-failed', marks=['wif'], caused_by='cuda-device-out-of-range')
    c.not_fire('cuda-device-side-assert', 'gpu-driver-missing', 'gpu-not-used')
    c.no_unexplained()
