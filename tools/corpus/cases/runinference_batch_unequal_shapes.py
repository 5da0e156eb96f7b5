from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
STAGE = 'S02:ReadTickets/Read+Tokenize+RunInference/BeamML_RunInference+WriteLabels/Write'
SP = T.sp('3.11')
MODEL = 'gs://tallis-support-models/triage/distilbert_triage_v7.pt'
STACK = ("RuntimeError: stack expects each tensor to be equal size, but got [46] at entry 0 and [61] at entry 1 "
         "[while running '%s']" % STEP)
SRC_STACK = ('pytorch/pytorch aten/src/ATen/native/TensorShape.cpp check_stack_inputs ("stack expects each tensor '
             'to be equal size, but got … at entry 0 and … at entry i"), raised from apache/beam apache_beam/ml/'
             'inference/pytorch_inference.py default_keyed_tensor_inference_fn "batched_tensors = '
             'torch.stack(key_to_tensor_list[key])" as the Beam "About Beam ML" troubleshooting section '
             '"Unable to batch tensor elements" quotes it; frames, line numbers and Python 3.11 caret lines '
             'composed from the Beam sources', 'V-code')
SRC_LOAD = ('apache/beam apache_beam/ml/inference/pytorch_inference.py _load_model logging.info("Loading '
            'state_dict_path %s onto a %s device") and "Finished loading PyTorch model."', 'V-code')
SRC_TYPED = ('torch/_utils.py UserWarning "TypedStorage is deprecated. It will be removed in the future and '
             'UntypedStorage will be the only storage class. …" on stderr while torch.load reads a checkpoint '
             '(public logs of torch 2.0/2.1); a warning of a working load', 'V-other')


def carets(code, expr, indent=4):
    """The caret line Python 3.11 prints under `expr` in the source line `code`."""
    return ' ' * (indent + code.index(expr)) + '^' * len(expr)


def frame(path, line, fn, code, expr=None):
    out = ['  File "%s", line %d, in %s' % (path, line, fn), '    ' + code]
    if expr:
        out.append(carets(code, expr))
    return out


def build(c):
    c.describe('''
        RunInference cannot stack a batch of token sequences of different lengths (PyTorch, keyed
        tensors). A support-ticket triage job tokenizes each ticket on its own (truncation=True,
        max_length=256, no padding to a fixed length) and sends the dict of input_ids and attention_mask
        tensors through KeyedModelHandler(PytorchModelHandlerKeyedTensor(DistilBERT classifier)) on a T4.
        BatchElements starts with batches of one element, so the first bundles classify tickets fine;
        when it grows the batch to two, default_keyed_tensor_inference_fn's
        torch.stack(key_to_tensor_list[key]) meets input_ids of 46 and 61 tokens: "RuntimeError: stack
        expects each tensor to be equal size, but got [46] at entry 0 and [61] at entry 1". The traceback
        (Python 3.11, with caret lines) reaches the worker log and the job messages, four attempts on
        the two workers fail the job. batch-elements-unequal-shapes fires first. Red herrings and near
        misses: torch's TypedStorage UserWarning on stderr at ERROR while the checkpoint loads, the
        user's WARNING that a long ticket was truncated to 256 tokens (a shape message of a working
        step), the INFO lines of the bundles that succeeded with batches of one.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2, max_workers=2,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE])
    j = c.job('support-ticket-triage-daily', '2025-09-22T05:30:12Z', region='europe-west1',
              zone='europe-west1-b', python='3.11', beam='2.57.0', workers=2)
    ready = N.bring_up(j, cf)
    t = ready + 12
    for i, w in enumerate(j.w):
        j.wlog(t + i * 1.7, w, 'Loading state_dict_path %s onto a cuda device' % MODEL, src=SRC_LOAD,
               module='%s/apache_beam/ml/inference/pytorch_inference.py' % SP, line=88, step=STEP)
        j.docker(t + i * 1.7 + 3.1, w, '%s/torch/_utils.py:831: UserWarning: TypedStorage is deprecated. It will '
                 'be removed in the future and UntypedStorage will be the only storage class. This should only '
                 'matter to you if you are using storages directly.  To access UntypedStorage directly, use '
                 'tensor.untyped_storage() instead of tensor.storage()\n  return self.fget.__get__(instance, '
                 'owner)()' % SP, sev='ERROR', src=SRC_TYPED)
        j.wlog(t + i * 1.7 + 6.4, w, 'Finished loading PyTorch model.', src=SRC_LOAD,
               module='%s/apache_beam/ml/inference/pytorch_inference.py' % SP, line=103, step=STEP)
    t += 14
    j.wlog(t, j.w[0], 'Ticket TCK-48377: 611 tokens, truncated to 256', sev='WARNING', src='user-code',
           module='/app/triage/tokenize.py', line=41, step='Tokenize')
    for k, (tck, label, p) in enumerate((('TCK-48210', 'billing', 0.93), ('TCK-48214', 'login', 0.88),
                                         ('TCK-48219', 'shipping', 0.79))):
        j.wlog(t + 2.5 + k * 1.9, j.w[k % 2], 'Classified %s as %s (p=%.2f)' % (tck, label, p), src='user-code',
               module='/app/triage/postprocess.py', line=27, step='WriteLabels')

    keyed = 'results = self._unkeyed.run_inference(unkeyed_batch, model, inference_args)'
    stack = 'batched_tensors = torch.stack(key_to_tensor_list[key])'
    tb = T.user_tb('3.11', [
        '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
        '  File "apache_beam/runners/common.py", line 912, in '
        'apache_beam.runners.common.PerWindowInvoker.invoke_process',
        '  File "apache_beam/runners/common.py", line 1057, in '
        'apache_beam.runners.common.PerWindowInvoker._invoke_process_per_window',
    ] + frame('%s/apache_beam/ml/inference/base.py' % SP, 1478, 'process',
              'return self._run_inference(batch, inference_args)', 'self._run_inference(batch, inference_args)')
      + frame('%s/apache_beam/ml/inference/base.py' % SP, 1448, '_run_inference', 'raise e')
      + frame('%s/apache_beam/ml/inference/base.py' % SP, 1434, '_run_inference',
              'result_generator = self._model_handler.run_inference(', 'self._model_handler.run_inference(')
      + frame('%s/apache_beam/ml/inference/base.py' % SP, 618, 'run_inference', keyed,
              keyed[len('results = '):])
      + frame('%s/apache_beam/ml/inference/pytorch_inference.py' % SP, 480, 'run_inference',
              'return self._inference_fn(', 'self._inference_fn(')
      + frame('%s/apache_beam/ml/inference/pytorch_inference.py' % SP, 388, 'default_keyed_tensor_inference_fn',
              stack, stack[len('batched_tensors = '):]),
        STACK)
    t = N.failed_attempts(j, t + 19.0, j.w[0], tb, STEP, src=SRC_STACK,
                          cite='RuntimeError: stack expects each tensor to be equal size, but got [46] at entry 0 '
                               'and [61] at entry 1', gap=31.0, bundle=9, mark='stack',
                          msg_cite='Error message from worker: … stack expects each tensor to be equal size, but '
                                   'got [46] at entry 0 and [61] at entry 1')
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [j.w[0]] * 4, n=2)
    c.output('export.json')
    c.fire('batch-elements-unequal-shapes', marks=['stack', 'stack-msg'],
           captures={'shape_a': '[46]', 'shape_b': '[61]'})
    c.fire('work-item-failed', marks=['wif'], caused_by='batch-elements-unequal-shapes')
    c.fire('workflow-failed', marks=['wif'], caused_by='batch-elements-unequal-shapes')
    c.no_unexplained()
    c.not_fire('gpu-out-of-memory', 'tensor-dtype-mismatch', 'state-dict-mismatch', 'tokenizer-pad-token-missing',
               'gpu-not-used', 'gpu-driver-missing')
