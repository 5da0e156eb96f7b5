import datetime as _dt

from corpuslib import noise as N, texts as T

STEP = 'ScoreWindows/BeamML_RunInference'
STAGE = 'S01:ReadTelemetry/Read+WindowReadings+BuildFeatures+ScoreWindows/BeamML_RunInference+WriteScores/Write'
SP = T.sp('3.11')
ORT = ('onnxruntime.capi.onnxruntime_pybind11_state.InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : '
       'Invalid rank for input: window Got: 4 Expected: 3 Please fix either the inputs or the model.')
SRC_ORT_W = ('microsoft/onnxruntime session_state.cc ("Some nodes were not assigned to the preferred execution '
             'providers which may or may not have an negative impact on performance. e.g. ORT explicitly assigns '
             'shape related ops to CPU to improve perf.", "Rerunning with verbose output on a non-minimal build will '
             'show node assignments.") and transformer_memcpy.cc ("N Memcpy nodes are added to the graph main_graph '
             'for CUDAExecutionProvider. …") WARNINGs of a session that loaded, on stderr, as public ONNX Runtime GPU '
             'logs show them; time stamps and line numbers ours', 'V-other')

def ort_ts(j, t):
    """ONNX Runtime's own time stamp for an entry `t` seconds after the job start."""
    return (j.start + _dt.timedelta(seconds=t)).strftime('%Y-%m-%d %H:%M:%S.%f')


def build(c):
    c.describe('''
        ONNX Runtime refuses an input of the wrong rank (issue 40, RunInference): a batch job scores
        turbine telemetry for anomalies with Beam's OnnxModelHandlerNumpy on a T4 (n1-standard-8, one SDK
        process). The model was exported with input "window" of shape [batch, 48, 6]. The feature DoFn
        was written for a notebook that called the session directly, so it emits each window already
        batched, np.expand_dims(window, 0) with shape (1, 48, 6); RunInference's default inference_fn
        stacks the elements of a batch with numpy.stack, which adds a dimension, and ONNX Runtime
        refuses the (32, 1, 48, 6) array: "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Invalid rank for
        input: window Got: 4 Expected: 3 Please fix either the inputs or the model." Every bundle fails
        the same way, four times, and the job fails. onnxruntime-input-invalid fires with the input name
        and both ranks; the job's failure folds under it. Red herrings: ONNX Runtime's placement and
        Memcpy WARNINGs on stderr (docker, ERROR) from a session that loaded on the GPU, and the DoFn's own
        line that logs the (1, 48, 6) shape and the session's declared input.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'],
               image='us-east1-docker.pkg.dev/northwind-energy/ml/turbine-scorer:ort-1.20.1-cu12',
               steps=[STAGE])
    j = c.job('turbine-anomaly-score-0317', '2026-03-17T05:40:22Z', region='us-east1', zone='us-east1-c',
              python='3.11', beam='2.64.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 9
    j.wlog(t + 2, w, 'BuildFeatures: turbine T-0417 window shape=(1, 48, 6) dtype=float32 (6 channels: rotor_rpm, '
           'gen_temp, nacelle_vib_x, nacelle_vib_y, pitch_deg, power_kw)', src='user-code',
           module='/app/scorer/features.py', line=88, step='BuildFeatures')
    j.docker(t + 5.2, w, '%s [W:onnxruntime:, session_state.cc:1168 VerifyEachNodeIsAssignedToAnEp] '
             'Some nodes were not assigned to the preferred execution providers which may or may not have an '
             'negative impact on performance. e.g. ORT explicitly assigns shape related ops to CPU to improve perf.'
             % ort_ts(j, t + 5.2), sev='ERROR', src=SRC_ORT_W)
    j.docker(t + 5.21, w, ort_ts(j, t + 5.21) + ' [W:onnxruntime:, session_state.cc:1170 '
             'VerifyEachNodeIsAssignedToAnEp] Rerunning with verbose output on a non-minimal build will show node '
             'assignments.', sev='ERROR', src=SRC_ORT_W)
    j.docker(t + 5.3, w, ort_ts(j, t + 5.3) + ' [W:onnxruntime:, transformer_memcpy.cc:74 ApplyImpl] 2 Memcpy '
             'nodes are added to the graph main_graph for CUDAExecutionProvider. It might have negative impact on '
             'performance (including unable to run CUDA graph). Set session_options.log_severity_level=1 to see the '
             'detail logs before this message.', sev='ERROR', src=SRC_ORT_W)
    j.wlog(t + 5.9, w, "ORT session ready on ['CUDAExecutionProvider', 'CPUExecutionProvider']: input 'window' "
           "tensor(float) ['batch', 48, 6], output 'anomaly_score' tensor(float) ['batch', 1]", src='user-code',
           module='/app/scorer/pipeline.py', line=131, step=STEP)
    tb = T.user_tb('3.11', [
        '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
        '  File "apache_beam/runners/common.py", line 685, in apache_beam.runners.common.SimpleInvoker.invoke_process',
        '  File "%s/apache_beam/ml/inference/base.py", line 1574, in process' % SP,
        '    return self._run_inference(batch, inference_args)',
        '  File "%s/apache_beam/ml/inference/base.py", line 1547, in _run_inference' % SP,
        '    raise e',
        '  File "%s/apache_beam/ml/inference/base.py", line 1533, in _run_inference' % SP,
        '    result_generator = self._model_handler.run_inference(',
        '  File "%s/apache_beam/ml/inference/onnx_inference.py", line 165, in run_inference' % SP,
        '    predictions = self._model_inference_fn(',
        '  File "%s/apache_beam/ml/inference/onnx_inference.py", line 67, in default_numpy_inference_fn' % SP,
        '    ort_outs = inference_session.run(None, ort_inputs)',
        '  File "%s/onnxruntime/capi/onnxruntime_inference_collection.py", line 266, in run' % SP,
        '    return self._sess.run(output_names, input_feed, run_options)',
        '           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
    ], ORT + " [while running '%s']" % STEP)
    t = N.failed_attempts(j, t + 8, w, tb, STEP, src='ort-invalid-rank',
                          cite='… Invalid rank for input: window Got: 4 Expected: 3 Please fix either the inputs or '
                          'the model.', gap=33.0, mark='rank',
                          msg_cite='Error message from worker: … Invalid rank for input: window Got: 4 Expected: 3 …')
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('onnxruntime-input-invalid', marks=['rank', 'rank-msg'],
           captures={'input': 'window', 'got_rank': '4', 'expected_rank': '3'})
    c.fire('work-item-failed', marks=['wif'], caused_by='onnxruntime-input-invalid')
    c.fire('workflow-failed', marks=['wif'], caused_by='onnxruntime-input-invalid')
    c.not_fire('batch-elements-unequal-shapes', 'tensor-dtype-mismatch', 'onnx-model-too-new', 'gpu-not-used',
               'numpy-abi-mismatch', 'cuda-libraries-missing')
    c.no_unexplained()
