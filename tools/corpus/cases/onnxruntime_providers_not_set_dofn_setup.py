from corpuslib import noise as N, texts as T

STEP = 'RemoveBackground'
STAGE = 'S01:ReadCatalog/Read+ScoreQuality+RemoveBackground+WriteCutouts/Write'
SP = T.sp('3.10')
PROVIDERS = "['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'AzureExecutionProvider', 'CPUExecutionProvider']"
ORT = ("ValueError: This ORT build has %s enabled. Since ORT 1.9, you are required to explicitly set the providers "
       "parameter when instantiating InferenceSession. For example, onnxruntime.InferenceSession(..., providers=%s, "
       "...)" % (PROVIDERS, PROVIDERS))
SRC_ORT = ('microsoft/onnxruntime onnxruntime/python/onnxruntime_inference_collection.py '
           'InferenceSession._create_inference_session (1.16.0: raise ValueError(f"This ORT build has '
           '{available_providers} enabled. Since ORT 1.9, you are required to explicitly set the providers parameter '
           'when instantiating InferenceSession. For example, onnxruntime.InferenceSession(..., '
           'providers={available_providers}, ...)"), quoted in microsoft/hummingbird#736); the onnxruntime-gpu 1.16.0 '
           'provider list, the frames (__init__ lines 419/432, _create_inference_session line 451) and "raise e" as '
           'rhasspy/piper#219 prints them; the Beam setup frames and the DoFn frame composed', 'V-other')
SRC_OK = ('the pipeline\'s own INFO lines: onnxruntime version, ort.get_available_providers() and the quality model\'s '
          'session.get_providers() (a session created with providers=[...]); a near miss, composed', 'I')


def _setup_tb():
    """A DoFn whose setup() builds the session: Beam's setup frames (sdk_worker → bundle processor →
    DoOperation.setup → DoFnRunner.setup), then the pipeline's frame and onnxruntime 1.16.0's."""
    return T.user_tb('3.10', [
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 295, in _execute' % SP,
        '    response = task()',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 370, in <lambda>' % SP,
        '    lambda: self.create_worker().do_instruction(request), request)',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 629, in do_instruction' % SP,
        '    return getattr(self, request_type)(',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 660, in process_bundle' % SP,
        '    bundle_processor = self.bundle_processor_cache.get(',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 491, in get' % SP,
        '    processor = bundle_processor.BundleProcessor(',
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 904, in __init__' % SP,
        '    op.setup(self.data_sampler)',
        '  File "apache_beam/runners/worker/operations.py", line 875, in '
        'apache_beam.runners.worker.operations.DoOperation.setup',
        '  File "apache_beam/runners/common.py", line 1471, in apache_beam.runners.common.DoFnRunner.setup',
        '  File "apache_beam/runners/common.py", line 1467, in '
        'apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
        '  File "apache_beam/runners/common.py", line 1507, in '
        'apache_beam.runners.common.DoFnRunner._reraise_augmented',
        '  File "apache_beam/runners/common.py", line 1465, in '
        'apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
        '  File "apache_beam/runners/common.py", line 552, in '
        'apache_beam.runners.common.DoFnInvoker.invoke_setup',
        '  File "%s/catalog/cutout.py", line 48, in setup' % SP,
        '    self._session = ort.InferenceSession(self._local_model, sess_options=so)',
        '  File "%s/onnxruntime/capi/onnxruntime_inference_collection.py", line 432, in __init__' % SP,
        '    raise e',
        '  File "%s/onnxruntime/capi/onnxruntime_inference_collection.py", line 419, in __init__' % SP,
        '    self._create_inference_session(providers, provider_options, disabled_optimizers)',
        '  File "%s/onnxruntime/capi/onnxruntime_inference_collection.py", line 451, in _create_inference_session'
        % SP,
        '    raise ValueError(',
    ], ORT + " [while running '%s']" % STEP)


def build(c):
    c.describe('''
        A DoFn that builds its ONNX Runtime session without providers= (issue 40, execution-provider
        selection): a product-catalogue job cuts products out of their photos with a U^2-Net
        segmentation model on one T4 worker. The image was rebuilt on 2023-09-21 with an unpinned
        onnxruntime-gpu, which resolved to 1.16.0; the RemoveBackground DoFn creates its session in
        setup() with ort.InferenceSession(path, sess_options=so) and no providers. With four providers
        available (TensorRT, CUDA, Azure, CPU) ONNX Runtime raises "ValueError: This ORT build has
        ['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'AzureExecutionProvider',
        'CPUExecutionProvider'] enabled. Since ORT 1.9, you are required to explicitly set the providers
        parameter …" while the bundle processor sets the DoFn up, four times, and the job fails.
        onnxruntime-providers-not-set fires with the provider list. Near misses: the pipeline's own
        INFO lines naming onnxruntime's available providers, and an earlier quality-scoring DoFn whose
        session was created with providers=[...] and logs session.get_providers() with
        CUDAExecutionProvider first (healthy; neither gpu-not-used nor this rule).''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=2,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE],
               image='europe-west4-docker.pkg.dev/tessellate-retail/beam/catalog-cutouts:2023-09-21')
    j = c.job('catalog-cutouts-0921', '2023-09-21T14:12:40Z', region='europe-west4', zone='europe-west4-a',
              project='tessellate-retail', python='3.10', beam='2.50.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    j.wlog(ready + 6.0, w, 'onnxruntime 1.16.0 (device GPU); available providers %s' % PROVIDERS, src=SRC_OK,
           module='/usr/local/lib/python3.10/site-packages/catalog/quality.py', line=31, thread='Thread-11',
           step='ScoreQuality', mark='avail')
    j.wlog(ready + 7.4, w, "quality model gs://tessellate-models/quality/iqa-v3.onnx: session providers "
           "['CUDAExecutionProvider', 'CPUExecutionProvider']", src=SRC_OK,
           module='/usr/local/lib/python3.10/site-packages/catalog/quality.py', line=44, thread='Thread-11',
           step='ScoreQuality', mark='ok-session')
    tb = _setup_tb()
    t = N.failed_attempts(j, ready + 9.0, w, tb, STEP, src=SRC_ORT,
                          cite='ValueError: This ORT build has [\'TensorrtExecutionProvider\', \'CUDAExecutionProvider\', '
                               '\'AzureExecutionProvider\', \'CPUExecutionProvider\'] enabled. Since ORT 1.9, you are '
                               'required to explicitly set the providers parameter …',
                          gap=38.0, mark='ort',
                          msg_cite='Error message from worker: … ValueError: This ORT build has […] enabled. Since ORT '
                                   '1.9, you are required to explicitly set the providers parameter …')
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('onnxruntime-providers-not-set', marks=['ort', 'ort-msg'], captures={'providers': PROVIDERS})
    c.fire('work-item-failed', marks=['wif'], caused_by='onnxruntime-providers-not-set')
    c.fire('workflow-failed', marks=['wif'], caused_by='onnxruntime-providers-not-set')
    c.not_fire('gpu-not-used', 'onnxruntime-input-invalid', 'onnx-model-too-new', 'tensorrt-engine-incompatible',
               'cuda-libraries-missing')
    c.no_unexplained()
