from corpuslib import noise as N, texts as T

STEP = 'EmbedProducts'
STAGE = 'S01:ReadProducts/Read+BuildFeatures+BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+EmbedProducts+WriteVectors/Write'
PY = '3.10'
SP = T.sp(PY)
GRAPH = ('__inference__embed_impl_1187[_XlaMustCompile=true,config_proto=13561319589895757934,'
         'executor_type=11160318154034397263]')
UNSUPPORTED = ("Detected unsupported operations when trying to compile graph %s on XLA_GPU_JIT: StringFormat (No "
               "registered 'StringFormat' OpKernel for XLA_GPU_JIT devices compatible with node {{node "
               "StringFormat}}){{node StringFormat}}" % GRAPH)
TAIL = ("\ttf2xla conversion failed while converting %s. Run with TF_DUMP_GRAPH_PREFIX=/path/to/dump/dir and "
        "--vmodule=xla_compiler=2 to obtain a dump of the compiled functions. [Op:__inference__embed_impl_1187]" % GRAPH)
SRC_XLA = ('tensorflow/tensorflow tensorflow/compiler/tf2xla/xla_compiler.cc ValidateGraph ("Detected unsupported '
           'operations when trying to compile graph … on XLA_GPU_JIT: OP (No registered \'OP\' OpKernel for '
           'XLA_GPU_JIT devices …)") and "tf2xla conversion failed while converting …", raised through '
           'tensorflow/python/eager/execute.py quick_execute; StringFormat is what tf.print builds inside a '
           'jit_compile function (tensorflow/tensorflow#126007 quotes it on XLA_CPU_JIT); the "The op is created at" '
           'frames, the graph id and Beam\'s frames are composed', 'V-code')
SRC_OPREQ = ('TensorFlow\'s stderr line for the failed XLA launch, "W … op_kernel.cc:…] OP_REQUIRES failed at '
             'xla_ops.cc:… : INVALID_ARGUMENT: …" (the shape microsoft/tensorflow-directml-plugin#332 quotes for '
             'xla_ops.cc), in the docker log at ERROR; line numbers composed', 'I')
SRC_FACTORY = ('TensorFlow 2.15 duplicate CUDA plugin registration at import, "E external/local_xla/xla/stream_executor/'
               'cuda/cuda_dnn.cc:9261] Unable to register cuDNN factory …" and the cuFFT/cuBLAS lines '
               '(tensorflow/tensorflow#62075): healthy near misses', 'V-other')
SRC_XLA_OK = ('TensorFlow 2.15 XLA start-up lines "XLA service 0x… initialized for platform CUDA (this does not '
              'guarantee that XLA will be used). Devices:", "StreamExecutor device (0): Tesla T4, Compute Capability '
              '7.5", "Loaded cuDNN version 8906" and "Compiled cluster using XLA!  This line is logged at most once '
              'for the lifetime of the process." as public TF 2.15 logs print them (addresses, times composed): the '
              'warm-up of another jit_compile function that compiles, a near miss', 'V-other')
SRC_KERAS = ('tf.keras (2.15) saving: absl WARNING "Compiled the loaded model, but the compiled metrics have yet to be '
             'built. `model.compile_metrics` will be empty until you train or evaluate the model." (public logs): a '
             'near miss', 'V-other')


def ts(j, t):
    import datetime as dt
    return (j.start + dt.timedelta(seconds=t)).strftime('%Y-%m-%d %H:%M:%S.%f')


def build(c):
    c.describe('''
        A jit_compile function with an op XLA cannot compile (issue 40, TensorFlow): a product-embedding
        DoFn (TensorFlow 2.15, tf.keras, one T4 on n1-standard-8) wraps its scoring in
        tf.function(jit_compile=True) "for speed": _normalize and _embed_impl. A debugging
        tf.print("batch", tf.shape(ids)) left in _embed_impl adds a StringFormat op, which has no XLA
        kernel, and jit_compile has must-compile semantics: every call raises InvalidArgumentError
        "Detected unsupported operations when trying to compile graph __inference__embed_impl_1187[…] on
        XLA_GPU_JIT: StringFormat (No registered 'StringFormat' OpKernel for XLA_GPU_JIT devices …)"
        (TensorFlow's stderr repeats it as an OP_REQUIRES line). Four attempts fail, the job fails.
        tf-xla-must-compile-failed fires with the op. Red herrings: the warm-up of _normalize in setup(),
        which XLA compiles ("XLA service … initialized for platform CUDA", "Compiled cluster using XLA!"),
        TensorFlow's duplicate cuDNN/cuFFT/cuBLAS factory registrations at import, Keras's "compiled metrics
        have yet to be built" WARNING, and the benign kubelet lines.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'],
               image='us-central1-docker.pkg.dev/shopline-ml/beam/product-embed:tf2.15-b2.55', steps=[STAGE])
    j = c.job('product-embeddings-nightly-0514', '2024-05-14T09:05:27Z', region='us-central1', zone='us-central1-f',
              python=PY, beam='2.55.1', workers=1)
    w = j.w[0]
    ready = N.bring_up(j, cf, tf=True)
    t = ready + 6
    for k, (lib, line) in enumerate([('cuDNN', 'cuda_dnn.cc:9261'), ('cuFFT', 'cuda_fft.cc:607'),
                                     ('cuBLAS', 'cuda_blas.cc:1515')]):
        j.docker(t + k * 0.001, w, '%s: E external/local_xla/xla/stream_executor/cuda/%s] Unable to register %s '
                 'factory: Attempting to register factory for plugin %s when one has already been registered'
                 % (ts(j, t + k * 0.001), line, lib, lib), sev='ERROR', src=SRC_FACTORY)
    t += 14
    j.wlog(t, w, 'Compiled the loaded model, but the compiled metrics have yet to be built. `model.compile_metrics` '
           'will be empty until you train or evaluate the model.', sev='WARNING', src=SRC_KERAS,
           module='absl', line=None)
    j.wlog(t + 0.4, w, 'loaded product tower from gs://shopline-ml-models/product-tower/v31 (embedding dim 256)',
           src='user-code', module='/app/embed_products.py', line=47)
    t += 2
    for k, line in enumerate([
            'I external/local_xla/xla/service/service.cc:168] XLA service 0x55d1c2a8e9f0 initialized for platform '
            'CUDA (this does not guarantee that XLA will be used). Devices:',
            'I external/local_xla/xla/service/service.cc:176]   StreamExecutor device (0): Tesla T4, Compute '
            'Capability 7.5',
            'I external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:454] Loaded cuDNN version 8906',
            'I ./tensorflow/compiler/jit/device_compiler.h:186] Compiled cluster using XLA!  This line is logged at '
            'most once for the lifetime of the process.']):
        at = t + k * 0.7
        j.docker(at, w, '%s: %s' % (ts(j, at), line), sev='ERROR', src=SRC_XLA_OK)
    j.wlog(t + 3.5, w, 'warm-up done: _normalize compiled for batch shape (256, 48)', src='user-code',
           module='/app/embed_products.py', line=71)
    t += 20
    exc = ('tensorflow.python.framework.errors_impl.InvalidArgumentError: ' + UNSUPPORTED + '\nThe op is created at: \n'
           'File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process\n'
           'File "apache_beam/runners/common.py", line 685, in apache_beam.runners.common.SimpleInvoker.invoke_process\n'
           'File "/app/embed_products.py", line 88, in process\n'
           'File "/app/embed_products.py", line 61, in _embed_impl\n' + TAIL + " [while running '%s']" % STEP)
    tb = T.user_tb(PY, [
        '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
        '  File "apache_beam/runners/common.py", line 685, in apache_beam.runners.common.SimpleInvoker.invoke_process',
        '  File "/app/embed_products.py", line 88, in process',
        '    vectors = self._embed(ids, dense)',
        '  File "%s/tensorflow/python/util/traceback_utils.py", line 153, in error_handler' % SP,
        '    raise e.with_traceback(filtered_tb) from None',
        '  File "%s/tensorflow/python/eager/execute.py", line 53, in quick_execute' % SP,
        '    tensors = pywrap_tfe.TFE_Py_Execute(ctx._handle, device_name, op_name,',
    ], exc)
    for attempt in range(4):
        first = attempt == 0
        a = t + attempt * 31.0
        j.docker(a - 0.05, w, '%s: W tensorflow/core/framework/op_kernel.cc:1827] OP_REQUIRES failed at '
                 'xla_ops.cc:574 : INVALID_ARGUMENT: %s' % (ts(j, a - 0.05), UNSUPPORTED), sev='ERROR', src=SRC_OPREQ,
                 mark='stderr' if first else None)
        j.wlog(a, w, T.instruction_error('process_bundle-%d' % (2 + attempt), tb), sev='ERROR', src=SRC_XLA,
               cite='InvalidArgumentError: Detected unsupported operations … on XLA_GPU_JIT: StringFormat …',
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (14 + attempt),
               step=STEP, mark='xla' if first else None)
        j.msg(a + 2.1, T.worker_error_msg(tb, STEP), sev='ERROR', src=SRC_XLA,
              cite='Error message from worker: … Detected unsupported operations … StringFormat …',
              mark='xla-msg' if first else None)
    N.fail_work_item_4(j, cf, t + 4 * 31.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('tf-xla-must-compile-failed', marks=['xla', 'xla-msg', 'stderr'],
           captures={'op': 'StringFormat', 'device': 'GPU', 'function': '_embed_impl'})
    c.fire('work-item-failed', marks=['wif'], caused_by='tf-xla-must-compile-failed')
    c.fire('workflow-failed', marks=['wif'], caused_by='tf-xla-must-compile-failed')
    c.not_fire('tf-op-not-registered', 'xla-constant-folding-slow', 'gpu-not-used', 'cudnn-version-mismatch',
               'cuda-libraries-missing', 'keras3-savedmodel-load', 'gpu-out-of-memory', 'tf-config-after-init',
               'cudnn-status-error')
    c.no_unexplained()
