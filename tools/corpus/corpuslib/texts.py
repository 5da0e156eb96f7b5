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
