from corpuslib import noise as N, texts as T

STEP = 'Forecast/BeamML_RunInference'
STAGE = 'S01:ReadSeries/Read+Window+Forecast/BeamML_RunInference+WriteForecasts/Write'
SP = T.sp('3.10')
ERR = ("RuntimeError: cumsum_cuda_kernel does not have a deterministic implementation, but you set "
       "'torch.use_deterministic_algorithms(True)'. You can turn off determinism just for this operation, or you "
       "can use the 'warn_only=True' option, if that's acceptable for your application. You can also file an issue "
       "at https://github.com/pytorch/pytorch/issues to help us prioritize adding deterministic support for this "
       "operation.")
SRC_ALERT = ('pytorch/pytorch aten/src/ATen/Context.cpp Context::alertNotDeterministic (the 1.11+ wording with the '
             'warn_only option), called by cumsum_cuda_kernel for floating tensors (pytorch/pytorch#75693; the '
             'error as pytorch/pytorch#135021 and HKU-MedAI/MGCA#21 quote it); frames composed from apache/beam '
             'ml/inference/pytorch_inference.py (default_tensor_inference_fn), torch/nn/modules/module.py and the '
             'model\'s own forward; line numbers plausible, not exact', 'V-code')
SRC_OWN = ('the pipeline\'s own INFO lines (reproducibility settings, model load): composed', 'I')
SRC_NUMPY = ('pytorch/pytorch torch/csrc/utils/tensor_numpy.cpp: UserWarning "The given NumPy array is not writable, '
             'and PyTorch does not support non-writable tensors. This means writing to this tensor will result in '
             'undefined behavior. You may want to copy the array to protect its data or make it writable before '
             'converting it to a tensor. This type of warning will be suppressed for the rest of this program." '
             '(Triggered internally at …tensor_numpy.cpp:206.), printed once with the caller\'s line; harmless',
             'V-code')


def build(c):
    c.describe('''
        An operation with no deterministic implementation under PyTorch's deterministic mode (issue 40,
        runtime): a demand-forecast job scores store/item series with an N-BEATS-style model through
        RunInference's PyTorch model handler on T4 workers. For forecasts that are identical across
        reruns, the handler's load_model calls torch.use_deterministic_algorithms(True), and the image
        sets CUBLAS_WORKSPACE_CONFIG=:4096:8, so the matrix products pass. The model's forward, though,
        rebuilds levels with torch.cumsum on float tensors on the GPU, and PyTorch 2.2 has only a
        nondeterministic CUDA cumsum for them: "RuntimeError: cumsum_cuda_kernel does not have a
        deterministic implementation, but you set 'torch.use_deterministic_algorithms(True)'. You can
        turn off determinism just for this operation, or you can use the 'warn_only=True' option …",
        on each of four attempts, and the job fails. torch-nondeterministic-op fires and names
        cumsum_cuda_kernel; its first fix is warn_only=True. Red herrings: the handler's own line with
        the determinism settings and the CUBLAS_WORKSPACE_CONFIG value, and torch's "NumPy array is not
        writable" UserWarning (with its "Triggered internally at" suffix) as windows are converted.
        cublas-workspace-config-missing stays quiet: the variable is set and no CuBLAS message
        appears.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE],
               image='us-central1-docker.pkg.dev/larder-retail/forecast/nbeats-scorer:2.2.0')
    j = c.job('store-demand-forecast-weekly', '2025-03-10T05:30:09Z', region='us-central1', zone='us-central1-f',
              project='larder-retail', python='3.10', beam='2.58.1', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 7
    j.wlog(t, w, 'Reproducible scoring: torch.use_deterministic_algorithms(True), CUBLAS_WORKSPACE_CONFIG=:4096:8, '
           'seed=7', src=SRC_OWN, module='/app/forecast/handler.py', line=37, thread='Thread-11', step=STEP)
    j.wlog(t + 6, w, 'Loaded N-BEATS checkpoint gs://larder-forecast-models/nbeats/2025-03-09/model.pt on cuda:0',
           src=SRC_OWN, module='/app/forecast/handler.py', line=44, thread='Thread-11', step=STEP)
    j.docker_lines(t + 9, w, [
        '/app/forecast/window.py:58: UserWarning: The given NumPy array is not writable, '
        'and PyTorch does not support non-writable tensors. This means writing to this tensor will result in '
        'undefined behavior. You may want to copy the array to protect its data or make it writable before '
        'converting it to a tensor. This type of warning will be suppressed for the rest of this program. '
        '(Triggered internally at ../torch/csrc/utils/tensor_numpy.cpp:206.)',
        '  yield key, torch.from_numpy(window)'], sev='ERROR', src=SRC_NUMPY)
    tb = T.user_tb('3.10', [
        '  File "apache_beam/runners/common.py", line 1495, in apache_beam.runners.common.DoFnRunner.process',
        '  File "%s/apache_beam/ml/inference/base.py", line 1575, in process' % SP,
        '    return self._run_inference(batch, inference_args)',
        '  File "%s/apache_beam/ml/inference/base.py", line 1541, in _run_inference' % SP,
        '    result_generator = self._model_handler.run_inference(',
        '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 367, in run_inference' % SP,
        '    return self._inference_fn(',
        '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 149, in default_tensor_inference_fn' % SP,
        '    predictions = model(batched_tensors, **inference_args)',
        '  File "%s/torch/nn/modules/module.py", line 1511, in _wrapped_call_impl' % SP,
        '    return self._call_impl(*args, **kwargs)',
        '  File "%s/torch/nn/modules/module.py", line 1520, in _call_impl' % SP,
        '    return forward_call(*args, **kwargs)',
        '  File "/app/forecast/nbeats.py", line 112, in forward',
        '    level = torch.cumsum(trend_increments, dim=-1)',
    ], ERR + " [while running '%s']" % STEP)
    t = N.failed_attempts(j, t + 12, w, tb, STEP, src=SRC_ALERT,
                          cite='RuntimeError: cumsum_cuda_kernel does not have a deterministic implementation, but '
                               'you set \'torch.use_deterministic_algorithms(True)\'. …', gap=27.0, mark='op',
                          msg_cite='Error message from worker: … cumsum_cuda_kernel does not have a deterministic '
                                   'implementation …')
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('torch-nondeterministic-op', marks=['op', 'op-msg'], captures={'op': 'cumsum_cuda_kernel'})
    c.fire('work-item-failed', marks=['wif'], caused_by='torch-nondeterministic-op')
    c.fire('workflow-failed', marks=['wif'], caused_by='torch-nondeterministic-op')
    c.not_fire('cublas-workspace-config-missing', 'cuda-device-side-assert', 'gpu-out-of-memory',
               'batch-elements-unequal-shapes', 'tensor-dtype-mismatch')
    c.no_unexplained()
