from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
STAGE = 'S01:ReadImages/Read+Preprocess+RunInference/BeamML_RunInference+WriteLabels/Write'
SP = T.sp('3.11')
ORT = ("onnxruntime.capi.onnxruntime_pybind11_state.InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : "
       "Failed to load model with error: /onnxruntime_src/onnxruntime/core/graph/model.cc:179 "
       "onnxruntime::Model::Model(onnx::ModelProto&&, const onnxruntime::PathString&, const "
       "onnxruntime::IOnnxRuntimeOpSchemaRegistryList*, const onnxruntime::logging::Logger&, const "
       "onnxruntime::ModelOptions&) Unsupported model IR version: 10, max supported IR version: 9")
SRC_MEMCPY = ('microsoft/onnxruntime onnxruntime/core/optimizer/transformer_memcpy.cc: the WARNING "N Memcpy nodes '
              'are added to the graph main_graph for CUDAExecutionProvider. It might have negative impact on '
              'performance …" of a session that loaded (quoted in many public ONNX Runtime GPU logs); the logger '
              'prefix as ORT formats it, values ours', 'V-code')


def build(c):
    c.describe('''
        A model exported by a newer ONNX than the image's ONNX Runtime (issue 40, version skew): an
        image-labelling job's image has onnxruntime-gpu 1.17.1 (ONNX IR version 9 at most), and the
        classifier was re-exported with torch 2.3 and onnx 1.16, which stamps IR version 10. Beam's
        ONNX model handler reads the model from Cloud Storage and passes its bytes to
        InferenceSession, which refuses it: "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Failed to
        load model with error: … Unsupported model IR version: 10, max supported IR version: 9",
        four times, and the job fails. onnx-model-too-new fires with both versions. Near miss: the
        ORT WARNING about Memcpy nodes from a second, older model that the same DoFn loaded fine on
        the GPU, which is neither a failure nor the CPU fallback of gpu-not-used.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], image='us-docker.pkg.dev/acme-vision/beam/labeler:ort-1.17',
               steps=[STAGE])
    j = c.job('image-labels-ort-t4', '2025-03-04T11:06:12Z', region='us-east4', zone='us-east4-c',
              python='3.11', beam='2.62.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    j.wlog(ready + 11, w, '2025-03-04 11:09:31.402917 [W:onnxruntime:, transformer_memcpy.cc:74 ApplyImpl] 4 '
           'Memcpy nodes are added to the graph main_graph for CUDAExecutionProvider. It might have negative impact '
           'on performance (including unable to run CUDA graph). Set session_options.log_severity_level=1 to see '
           'the detail logs before this message.', sev='WARNING', src=SRC_MEMCPY, module='/app/labeler/dofns.py',
           line=58, step='Preprocess')
    tb = T.user_tb('3.11', [
        '  File "%s/apache_beam/ml/inference/base.py", line 1436, in _load_model' % SP,
        '    model = self._shared_model_handle.acquire(load, tag=self._cur_tag)',
        '  File "%s/apache_beam/utils/shared.py", line 312, in acquire' % SP,
        '    return _shared_map.acquire(self._key, constructor_fn, tag)',
        '  File "%s/apache_beam/ml/inference/base.py", line 1417, in load' % SP,
        '    model = self._model_handler.load_model()',
        '  File "%s/apache_beam/ml/inference/onnx_inference.py", line 131, in load_model' % SP,
        '    ort_session = ort.InferenceSession(',
        '  File "%s/onnxruntime/capi/onnxruntime_inference_collection.py", line 419, in __init__' % SP,
        '    self._create_inference_session(providers, provider_options, disabled_optimizers)',
        '  File "%s/onnxruntime/capi/onnxruntime_inference_collection.py", line 474, in _create_inference_session'
        % SP,
        '    sess = C.InferenceSession(session_options, self._model_bytes, False, self._read_config_from_model)',
        '           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
    ], ORT + " [while running '%s']" % STEP)
    t = N.failed_attempts(j, ready + 24, w, tb, STEP, src='ort-ir-too-new',
                          cite='… Unsupported model IR version: 10, max supported IR version: 9', gap=29.0,
                          mark='ir', msg_cite='Error message from worker: … Unsupported model IR version: 10, max '
                          'supported IR version: 9')
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('onnx-model-too-new', marks=['ir', 'ir-msg'], captures={'model_ir': '10', 'max_ir': '9'})
    c.fire('work-item-failed', marks=['wif'], caused_by='onnx-model-too-new')
    c.fire('workflow-failed', marks=['wif'], caused_by='onnx-model-too-new')
    c.not_fire('gpu-not-used', 'tensorrt-engine-incompatible', 'numpy-abi-mismatch', 'cuda-libraries-missing')
    c.no_unexplained()
