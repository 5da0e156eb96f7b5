"""Multi-line texts (tracebacks) wrapping real signal lines.

The final exception line (the signal) is real text from the source named where it is used;
the frames above it are composed from real Beam / PyTorch / TensorFlow module paths
(source key 'synthetic-frames', tag I).
"""


def sp(py):
    return '/usr/local/lib/python%s/site-packages' % py


def _frames_bundle(py, venv=None):
    base = venv or sp(py)
    return [
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 300, in _execute' % base,
        '    response = task()',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 375, in <lambda>' % base,
        '    lambda: self.create_worker().do_instruction(request), request)',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 639, in do_instruction' % base,
        '    return getattr(self, request_type)(',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 670, in process_bundle' % base,
        '    bundle_processor = self.bundle_processor_cache.get(',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 491, in get' % base,
        '    processor = bundle_processor.BundleProcessor(',
    ]


def unknown_opcode_tb(py='3.8', venv=None):
    """Python-version mismatch: DoFn unpickling through apache_beam/internal/pickler.py."""
    base = venv or sp(py)
    lines = ['Traceback (most recent call last):'] + _frames_bundle(py, venv) + [
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 908, in __init__' % base,
        '    self.ops = self.create_execution_tree(self.process_bundle_descriptor)',
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1240, in '
        'create_execution_tree' % base,
        '    return collections.OrderedDict([(',
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1630, in create_par_do'
        % base,
        '    return _create_pardo_operation(',
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1672, in '
        '_create_pardo_operation' % base,
        '    dofn_data = pickler.loads(serialized_fn)',
        '  File "%s/apache_beam/internal/pickler.py", line 51, in loads' % base,
        '    return desired_pickle_lib.loads(',
        '  File "%s/apache_beam/internal/dill_pickler.py", line 289, in loads' % base,
        '    return dill.loads(s)',
        '  File "%s/dill/_dill.py", line 275, in loads' % base,
        '    return load(file, ignore, **kwds)',
        '  File "%s/dill/_dill.py", line 270, in load' % base,
        '    return Unpickler(file, ignore=ignore, **kwds).load()',
        '  File "%s/dill/_dill.py", line 472, in load' % base,
        '    obj = StockUnpickler.load(self)',
        'SystemError: unknown opcode',
    ]
    return '\n'.join(lines)


def compat_tb(py, sub, run):
    """Newer Beam: explicit environment-compatibility RuntimeError (bundle_processor.py)."""
    base = sp(py)
    lines = ['Traceback (most recent call last):'] + _frames_bundle(py) + [
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1043, in __init__' % base,
        '    _verify_descriptor_created_in_a_compatible_env(process_bundle_descriptor)',
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1016, in '
        '_verify_descriptor_created_in_a_compatible_env' % base,
        '    raise RuntimeError(',
        'RuntimeError: Pipeline construction environment and pipeline runtime environment are '
        'not compatible. If you use a custom container image, check that the Python interpreter '
        'minor version and the Apache Beam version in your image match the versions used at '
        'pipeline construction time. Submission environment: %s. Runtime environment: %s.'
        % (sub, run),
    ]
    return '\n'.join(lines)


def _frames_process(py, step):
    base = sp(py)
    return [
        'Traceback (most recent call last):',
        '  File "apache_beam/runners/common.py", line 1435, in '
        'apache_beam.runners.common.DoFnRunner.process',
        '  File "apache_beam/runners/common.py", line 851, in '
        'apache_beam.runners.common.PerWindowInvoker.invoke_process',
        '  File "apache_beam/runners/common.py", line 995, in '
        'apache_beam.runners.common.PerWindowInvoker._invoke_process_per_window',
        '  File "%s/apache_beam/ml/inference/base.py", line 1128, in process' % base,
        '    return self._run_inference(batch, inference_args)',
        '  File "%s/apache_beam/ml/inference/base.py", line 1094, in _run_inference' % base,
        '    result_generator = self._model_handler.run_inference(',
    ]


def torch_oom_tb(py, exc_line, step='RunInference/BeamML_RunInference'):
    base = sp(py)
    lines = _frames_process(py, step) + [
        '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 497, in run_inference'
        % base,
        '    return self._inference_fn(',
        '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 155, in '
        'default_tensor_inference_fn' % base,
        '    predictions = model(batched_tensors, **inference_args)',
        '  File "%s/torch/nn/modules/module.py", line 1518, in _wrapped_call_impl' % base,
        '    return self._call_impl(*args, **kwargs)',
        '  File "%s/torch/nn/modules/module.py", line 1527, in _call_impl' % base,
        '    return forward_call(*args, **kwargs)',
        '  File "%s/torchvision/models/resnet.py", line 285, in forward' % base,
        '    return self._forward_impl(x)',
        '  File "%s/torch/nn/modules/conv.py", line 456, in _conv_forward' % base,
        '    return F.conv2d(input, weight, bias, self.stride,',
        exc_line,
    ]
    return '\n'.join(lines)


def tf_oom_tb(py, exc_line):
    base = sp(py)
    lines = _frames_process(py, 'RunInference') + [
        '  File "%s/apache_beam/ml/inference/tensorflow_inference.py", line 267, in run_inference'
        % base,
        '    return self._inference_fn(model, batch, inference_args, self._model_uri)',
        '  File "%s/apache_beam/ml/inference/tensorflow_inference.py", line 97, in '
        'default_numpy_inference_fn' % base,
        '    return utils._convert_to_result(batch, model.predict(vectorized_batch, **inference_args),',
        '  File "%s/keras/src/utils/traceback_utils.py", line 70, in error_handler' % base,
        '    raise e.with_traceback(filtered_tb) from None',
        '  File "%s/tensorflow/python/eager/execute.py", line 53, in quick_execute' % base,
        '    tensors = pywrap_tfe.TFE_Py_Execute(ctx._handle, device_name, op_name,',
        exc_line,
    ]
    return '\n'.join(lines)


def cudf_oom_tb(py, exc_line):
    base = sp(py)
    lines = [
        'Traceback (most recent call last):',
        '  File "apache_beam/runners/common.py", line 1435, in '
        'apache_beam.runners.common.DoFnRunner.process',
        '  File "apache_beam/runners/common.py", line 637, in '
        'apache_beam.runners.common.SimpleInvoker.invoke_process',
        '  File "/opt/pipeline/featurize.py", line 88, in process',
        '    gdf = cudf.read_parquet(io.BytesIO(blob))',
        '  File "%s/cudf/io/parquet.py", line 559, in read_parquet' % base,
        '    return _parquet_to_frame(',
        '  File "%s/cudf/io/parquet.py", line 809, in _read_parquet' % base,
        '    return libparquet.read_parquet(',
        '  File "parquet.pyx", line 254, in cudf._lib.parquet.read_parquet',
        exc_line,
    ]
    return '\n'.join(lines)


def user_tb(py, frames, exc_line):
    lines = ['Traceback (most recent call last):'] + list(frames) + [exc_line]
    return '\n'.join(lines)


def worker_error_msg(tb, step):
    """Job message repeating a worker failure (Runner v2 wording)."""
    return 'Error message from worker: generic::unknown: %s [while running \'%s\']' % (tb, step)


def instruction_error(instr, tb):
    """sdk_worker.py: 'Error processing instruction %s. Original traceback is\\n%s\\n'."""
    return 'Error processing instruction %s. Original traceback is\n%s\n' % (instr, tb)


# ---- standard failure endings (job-message) -------------------------------------------------


def work_item_failed_4(workers, root='Timed out waiting for an update from the worker. For more '
                       'information, see https://cloud.google.com/dataflow/docs/guides/'
                       'common-errors#worker-lost-contact.', step=None):
    """Current wording (apache/beam#30482, tensorflow/datasets#1473)."""
    head = ''
    if step:
        head = 'Workflow failed. Causes: %s failed., ' % step
    s = (head + 'The job failed because a work item has failed 4 times. Look in previous log '
         'entries for the cause of each one of the 4 failures. If the logs only contain generic '
         'timeout errors related to accessing external resources, such as MongoDB, verify that '
         'the worker service account has permission to access the resource\'s subnetwork. For '
         'more information, see https://cloud.google.com/dataflow/docs/guides/common-errors. '
         'The work item was attempted on these workers: \n')
    parts = []
    for w in workers:
        parts.append('\n      Root cause: %s\n      Worker ID: %s' % (root, w))
    return s + ',\n'.join(parts)


def work_item_failed_4_lost_contact(step, workers):
    """tensorflow/datasets#1473 (2020) wording: 'Root cause: The worker lost contact …'."""
    s = ('Workflow failed. Causes: %s failed., The job failed because a work item has failed 4 '
         'times. Look in previous log entries for the cause of each one of the 4 failures. For '
         'more information, see https://cloud.google.com/dataflow/docs/guides/common-errors. The '
         'work item was attempted on these workers: \n' % step)
    parts = ['  %s\n      Root cause: The worker lost contact with the service.' % w
             for w in workers]
    return s + ',\n'.join(parts)


def work_item_failed_4_plain(step, workers):
    """Work-item failure without per-worker 'Root cause:' lines (composition, tag I)."""
    s = ('Workflow failed. Causes: %s failed., The job failed because a work item has failed 4 '
         'times. Look in previous log entries for the cause of each one of the 4 failures. For '
         'more information, see https://cloud.google.com/dataflow/docs/guides/common-errors. The '
         'work item was attempted on these workers: \n' % step)
    return s + ',\n'.join('  %s' % w for w in workers)


# ---- stuck operations (lull reports of the Python SDK harness) ------------------------------


def lull_new(instr, step, state, seconds, stack):
    """worker_status.py, newer Beam: the bundle, the PTransform and the thread's stack."""
    return ('Operation ongoing in bundle %s for PTransform{name=%s, state=%s} for at least %.2f '
            'seconds without outputting or completing.\nCurrent Traceback:\n%s'
            % (instr, step, state, seconds, stack))


def lull_old(step, state, seconds, stack):
    """sdk_worker.py / worker_status.py, older Beam: note the two spaces before "without"."""
    return ('Operation ongoing for over %.2f seconds in state %s in step %s  without returning. '
            'Current Traceback:\n%s' % (seconds, state, step, stack))


def py_stack(py, frames):
    """A thread stack as traceback.format_stack prints it, joined with newlines by the SDK."""
    out = ['  File "/usr/local/lib/python%s/threading.py", line 1002, in _bootstrap\n'
           '    self._bootstrap_inner()\n' % py]
    for f, line, fn, code in frames:
        out.append('  File "%s", line %d, in %s\n    %s\n' % (f, line, fn, code))
    return '\n'.join(out)


# ---- errors no rule explains (issue 15: unexplained errors) ---------------------------------
#
# The exception lines are real (sources.py keys named where each case uses them); the Beam frames
# around them follow real worker tracebacks: compiled `apache_beam/runners/common.py` frames
# printed without a code line (leap-stc/cmip6-leap-feedstock PR #9, pangeo-forge/staged-recipes
# PR #138), the sdk_worker.py/bundle_processor.py/operations.py chain of a failing bundle
# (ray-project/ray_beam_runner#60, google/weather-tools#224). Line numbers are ours.

DURING = 'During handling of the above exception, another exception occurred:'
DIRECT = 'The above exception was the direct cause of the following exception:'


def _invoke_frames():
    """DoFnRunner.process down to the user's process() (compiled Beam frames, no code lines)."""
    return [
        '  File "apache_beam/runners/common.py", line 1435, in '
        'apache_beam.runners.common.DoFnRunner.process',
        '  File "apache_beam/runners/common.py", line 637, in '
        'apache_beam.runners.common.SimpleInvoker.invoke_process',
    ]


def _bundle_frames(py):
    """sdk_worker._execute down to DoFnRunner._reraise_augmented (the re-raise with the step)."""
    base = sp(py)
    return [
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 300, in _execute' % base,
        '    response = task()',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 375, in <lambda>' % base,
        '    lambda: self.create_worker().do_instruction(request), request)',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 639, in do_instruction' % base,
        '    return getattr(self, request_type)(',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 677, in process_bundle' % base,
        '    bundle_processor.process_bundle(instruction_id))',
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1113, in process_bundle'
        % base,
        '    input_op_by_transform_id[element.transform_id].process_encoded(',
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 237, in process_encoded'
        % base,
        '    self.output(decoded_value)',
        '  File "apache_beam/runners/worker/operations.py", line 570, in '
        'apache_beam.runners.worker.operations.Operation.output',
        '  File "apache_beam/runners/worker/operations.py", line 263, in '
        'apache_beam.runners.worker.operations.SingletonElementConsumerSet.receive',
        '  File "apache_beam/runners/worker/operations.py", line 950, in '
        'apache_beam.runners.worker.operations.DoOperation.process',
        '  File "apache_beam/runners/worker/operations.py", line 951, in '
        'apache_beam.runners.worker.operations.DoOperation.process',
        '  File "apache_beam/runners/common.py", line 1437, in '
        'apache_beam.runners.common.DoFnRunner.process',
        '  File "apache_beam/runners/common.py", line 1526, in '
        'apache_beam.runners.common.DoFnRunner._reraise_augmented',
    ]


def augmented_tb(py, user_frames, exc_line, step):
    """A DoFn's exception as the SDK harness formats it on Python 3: the original traceback,
    then Beam's re-raise with " [while running '<step>']" appended to the message
    (apache/beam common.py DoFnRunner._reraise_augmented; raised inside the `except`, so
    Python prints "During handling of the above exception, another exception occurred:")."""
    first = ['Traceback (most recent call last):'] + _invoke_frames() + list(user_frames)
    second = (['Traceback (most recent call last):'] + _bundle_frames(py) + _invoke_frames() +
              list(user_frames))
    return '\n'.join(first + [exc_line, '', DURING, ''] + second +
                     [exc_line + " [while running '%s']" % step])


def flatten(text):
    """A multi-line traceback as the Dataflow console's job-log panel copies it: one line, each
    line stripped and joined with a space (tensorflow/tfx#3772, GoogleCloudPlatform/
    mlops-with-vertex-ai#4, leap-stc/cmip6-leap-feedstock PR #9)."""
    return ' '.join(ln.strip() for ln in text.split('\n') if ln.strip())


def middle_crop(text, keep_head, keep_tail):
    """Cut the middle out of an over-long message, marking the cut with '...' (the way Beam's
    DataflowWorkerLoggingHandler crops messages over MESSAGE_MAX_LENGTH)."""
    if len(text) <= keep_head + keep_tail:
        return text
    return text[:keep_head] + '...' + text[-keep_tail:]


def sklearn_nan_frames(py, user_file, line, code):
    """The user's process() calling sklearn's check_array, which raises the NaN ValueError
    (frame shape of dipanjanS/practical-machine-learning-with-python#6: check_array ->
    _assert_all_finite)."""
    base = sp(py)
    return [
        '  File "%s", line %d, in process' % (user_file, line),
        '    ' + code,
        '  File "%s/sklearn/utils/validation.py", line 800, in check_array' % base,
        '    _assert_all_finite(array, allow_nan=force_all_finite == "allow-nan")',
        '  File "%s/sklearn/utils/validation.py", line 114, in _assert_all_finite' % base,
        '    raise ValueError(',
    ]


def module_not_found_chain(py, module):
    """A DoFn that cannot be unpickled because a module of the user's own package is missing
    on the worker: dill's find_class raises ModuleNotFoundError, Beam's dill_pickler.loads
    retries with tracing on and the same error is raised again while handling the first
    (google/weather-tools#165: "Error message from worker: Traceback … ModuleNotFoundError: No
    module named 'download_pipeline.config' / During handling of the above exception, another
    exception occurred: … sdk_worker.py … _execute")."""
    base = sp(py)
    dill = [
        '  File "%s/apache_beam/internal/dill_pickler.py", line 285, in loads' % base,
        '    return dill.loads(s)',
        '  File "%s/dill/_dill.py", line 275, in loads' % base,
        '    return load(file, ignore, **kwds)',
        '  File "%s/dill/_dill.py", line 270, in load' % base,
        '    return Unpickler(file, ignore=ignore, **kwds).load()',
        '  File "%s/dill/_dill.py", line 472, in load' % base,
        '    obj = StockUnpickler.load(self)',
        '  File "%s/dill/_dill.py", line 462, in find_class' % base,
        '    return StockUnpickler.find_class(self, module, name)',
    ]
    exc = "ModuleNotFoundError: No module named '%s'" % module
    second = ['Traceback (most recent call last):'] + _frames_bundle(py) + [
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1672, in '
        '_create_pardo_operation' % base,
        '    dofn_data = pickler.loads(serialized_fn)',
        '  File "%s/apache_beam/internal/pickler.py", line 51, in loads' % base,
        '    return desired_pickle_lib.loads(',
        '  File "%s/apache_beam/internal/dill_pickler.py", line 289, in loads' % base,
        '    return dill.loads(s)',
    ] + dill[2:]
    return '\n'.join(['Traceback (most recent call last):'] + dill + [exc, '', DURING, ''] +
                     second + [exc])


def grpc_permission_denied_chain(py, user_file, line, code, step, details, debug):
    """A Google client call in a DoFn refused by IAM: grpc raises _InactiveRpcError, api_core
    raises PermissionDenied "from" it (the direct cause), and Beam re-raises that with the step
    while handling it. Formats: grpc/_channel.py _InactiveRpcError repr, google/api_core
    grpc_helpers.py error_remapped_callable ("raise exceptions.from_grpc_error(exc) from exc",
    message "403 <details>")."""
    base = sp(py)
    rpc = [
        'Traceback (most recent call last):',
        '  File "%s/google/api_core/grpc_helpers.py", line 76, in error_remapped_callable' % base,
        '    return callable_(*args, **kwargs)',
        '  File "%s/grpc/_channel.py", line 1161, in __call__' % base,
        '    return _end_unary_response_blocking(state, call, False, None)',
        '  File "%s/grpc/_channel.py", line 1004, in _end_unary_response_blocking' % base,
        '    raise _InactiveRpcError(state)  # pytype: disable=not-instantiable',
        'grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:',
        '\tstatus = StatusCode.PERMISSION_DENIED',
        '\tdetails = "%s"' % details,
        '\tdebug_error_string = "%s"' % debug,
        '>',
    ]
    user = [
        '  File "%s", line %d, in process' % (user_file, line),
        '    ' + code,
        '  File "%s/google/cloud/pubsub_v1/publisher/client.py", line 272, in publish' % base,
        '    future = sequencer.publish(message, retry=retry, timeout=timeout)',
        '  File "%s/google/api_core/grpc_helpers.py", line 78, in error_remapped_callable' % base,
        '    raise exceptions.from_grpc_error(exc) from exc',
    ]
    exc = 'google.api_core.exceptions.PermissionDenied: 403 %s' % details
    second = ['Traceback (most recent call last):'] + _invoke_frames() + user
    third = (['Traceback (most recent call last):'] + _bundle_frames(py) + _invoke_frames() +
             user)
    return '\n'.join(rpc + ['', DIRECT, ''] + second + [exc, '', DURING, ''] + third +
                     [exc + " [while running '%s']" % step])


# ---- Java (Dataflow Runner v2 Java SDK harness) ----------------------------------------------


def java_user_code_trace(exc, user_class, user_file, user_line, more):
    """A DoFn exception in the Java SDK harness as Throwable.printStackTrace prints it: Beam's
    UserCodeException wrapping the user's exception, then "Caused by:" with the user frame and
    "... N more" (frames: GoogleCloudPlatform/DataflowTemplates PR #4203 "UserCodeException.wrap
    (UserCodeException.java:39)", "…$DoFnInvoker$….invokeProcessElement",
    "FnApiDoFnRunner.processElementForWindowObservingParDo(FnApiDoFnRunner.java:645)";
    GoogleCloudPlatform/DataflowJavaSDK#589 "Caused by: org.apache.beam.sdk.util.UserCodeException")."""
    return '\n'.join([
        'org.apache.beam.sdk.util.UserCodeException: %s' % exc,
        '\tat org.apache.beam.sdk.util.UserCodeException.wrap(UserCodeException.java:39)',
        '\tat %s$DoFnInvoker$5b3e4a1c.invokeProcessElement(Unknown Source)' % user_class,
        '\tat org.apache.beam.fn.harness.FnApiDoFnRunner.processElementForWindowObservingParDo('
        'FnApiDoFnRunner.java:645)',
        '\tat org.apache.beam.fn.harness.data.PCollectionConsumerRegistry$MetricTrackingFnDataReceiver'
        '.accept(PCollectionConsumerRegistry.java:375)',
        '\tat org.apache.beam.fn.harness.data.PCollectionConsumerRegistry$MetricTrackingFnDataReceiver'
        '.accept(PCollectionConsumerRegistry.java:303)',
        '\tat org.apache.beam.fn.harness.BeamFnDataReadRunner.forwardElementToConsumer('
        'BeamFnDataReadRunner.java:213)',
        '\tat org.apache.beam.sdk.fn.data.BeamFnDataInboundObserver.multiplexElements('
        'BeamFnDataInboundObserver.java:172)',
        '\tat org.apache.beam.fn.harness.control.ProcessBundleHandler.processBundle('
        'ProcessBundleHandler.java:537)',
        '\tat org.apache.beam.fn.harness.control.BeamFnControlClient.delegateOnInstructionRequestType('
        'BeamFnControlClient.java:150)',
        '\tat org.apache.beam.fn.harness.control.BeamFnControlClient$InboundObserver.lambda$onNext$0('
        'BeamFnControlClient.java:115)',
        '\tat java.base/java.util.concurrent.Executors$RunnableAdapter.call(Executors.java:539)',
        '\tat java.base/java.util.concurrent.FutureTask.run(FutureTask.java:264)',
        '\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)',
        '\tat java.base/java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:635)',
        '\tat java.base/java.lang.Thread.run(Thread.java:833)',
        'Caused by: %s' % exc,
        '\tat %s.processElement(%s:%d)' % (user_class, user_file, user_line),
        '\t... %d more' % more,
    ])
