from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
STEPS = ['S01:ReadReviews/Read+Tokenize+RunInference/BeamML_RunInference+WriteScores/Write']
SP = T.sp('3.11')
SRC_ASSERT = ('pytorch/pytorch aten/src/ATen/native/cuda/Indexing.cu indexSelectLargeIndex: the kernel\'s '
              'CUDA_KERNEL_ASSERT printed on stderr, one line per failing thread, as huggingface/trl#2996 shows it '
              '(line 1308 of a torch 2.5 build; blocks and threads adapted)', 'V-other')
SRC_EXC = ('pytorch/pytorch c10/cuda/CUDAException.cpp (torch ≥2.2: "CUDA error: device-side assert triggered", '
           'the asynchronous-report advice without the trailing period, the TORCH_USE_CUDA_DSA line); the frames '
           'from Beam\'s PytorchModelHandlerKeyedTensor and torch.nn.functional.embedding (composition of real '
           'frames)', 'V-code')


def build(c):
    c.describe('''
        A device-side assert from data that does not fit the model (issue 40, PyTorch): a review
        scorer runs RunInference with a PyTorch model whose embedding has 30,522 rows (a BERT vocabulary),
        but the job's tokenizer step was switched to a larger vocabulary. On the T4 the embedding's
        index kernel asserts ("Indexing.cu:1308: indexSelectLargeIndex: … Assertion `srcIndex <
        srcSelectDimSize` failed.", on stderr, many threads), and PyTorch raises "RuntimeError: CUDA
        error: device-side assert triggered" with its advice lines. Four attempts on the same bundle,
        the job fails. cuda-device-side-assert fires on the assertion and the exception and its fix is
        the CUDA_LAUNCH_BLOCKING=1 rerun and the token-id check; the advice lines alone ("For
        debugging consider passing CUDA_LAUNCH_BLOCKING=1") are a near miss that names nothing.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('review-scores-nightly', '2026-04-09T01:30:07Z', region='us-east4',
              zone='us-east4-c', python='3.11', beam='2.65.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 30
    exc = ('RuntimeError: CUDA error: device-side assert triggered\n'
           'CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below '
           'might be incorrect.\n'
           'For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n'
           'Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.')
    for attempt in range(4):
        first = attempt == 0
        lines = ['../aten/src/ATen/native/cuda/Indexing.cu:1308: indexSelectLargeIndex: block: [%d,0,0], thread: '
                 '[%d,0,0] Assertion `srcIndex < srcSelectDimSize` failed.' % (212 + attempt, 64 + k) for k in range(3)]
        j.docker_lines(t, j.w[0], lines, src=SRC_ASSERT, mark='assert' if first else None,
                       cite='Assertion `srcIndex < srcSelectDimSize` failed.')
        tb = T.user_tb('3.11', [
            '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 578, in run_inference' % SP,
            '    return self._inference_fn(batch, model, self._device, inference_args, self._model_uri)',
            '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 214, in default_keyed_tensor_inference_fn' % SP,
            '    predictions = model(**key_to_batched_tensors, **inference_args)',
            '  File "%s/torch/nn/functional.py", line 2551, in embedding' % SP,
            '    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)',
        ], exc)
        j.wlog(t + 0.4, j.w[0], T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR',
               src=SRC_EXC, cite='CUDA error: device-side assert triggered',
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (11 + attempt),
               step=STEP, mark='exc' if first else None)
        t += 45.0
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json')
    c.fire('cuda-device-side-assert', marks=['assert', 'exc'])
    c.fire('work-item-failed', marks=['wif'], caused_by='cuda-device-side-assert')
    c.fire('workflow-failed', marks=['wif'], caused_by='cuda-device-side-assert')
    c.not_fire('gpu-out-of-memory', 'cuda-arch-unsupported', 'gpu-xid-error')
