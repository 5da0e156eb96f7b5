from corpuslib import noise as N, texts as T

STEP = 'EmbedQueries'
STAGE = 'S01:ReadQueries/Read+EmbedQueries+WriteEmbeddings/Write'
SP = T.sp('3.10')
OP = 'SentencepieceOp'


def notfound(host):
    return ("Op type not registered '%s' in binary running on %s. Make sure the Op and Kernel are registered in the "
            "binary running in this process. Note that if you are loading a saved graph which used ops from tf.contrib, "
            "accessing (e.g.) `tf.contrib.resampler` should be done before importing the graph, as contrib ops are "
            "lazily registered when the module is first accessed." % (OP, host))


SRC_OP = ('tensorflow/tensorflow tensorflow/core/framework/op.cc OpNotFound, raised through tensorflow/python/framework/'
          'ops.py _get_op_def (KeyError first) and re-raised by tensorflow/python/saved_model/load.py as FileNotFoundError '
          'with the experimental_io_device hint, as tensorflow/hub#705 and tensorflow/tfjs#5734 quote the chain; '
          'SentencepieceOp is registered by tensorflow/text sentencepiece_ops.cc; frames and line numbers composed', 'V-code')
SRC_PIP = ('pip "Successfully installed …" line relayed by the SDK container\'s boot to the worker-startup log '
           '(value chosen)', 'I')


def build(c):
    c.describe('''
        A TF Hub model whose graph uses TensorFlow Text ops (issue 40, TensorFlow): a query-embedding DoFn
        loads the multilingual Universal Sentence Encoder with hub.load() in setup(). tensorflow-text is in
        the image (pip installed it), but the DoFn's module only imports tensorflow and tensorflow_hub, so the
        SentencepieceOp kernel library is never loaded in the worker process: loading fails with KeyError
        'SentencepieceOp' → NotFoundError "Op type not registered 'SentencepieceOp' in binary running on …"
        → FileNotFoundError (the same text plus an experimental_io_device hint that points away from the
        cause). Four attempts fail the job. tf-op-not-registered fires and its first fix says to import
        tensorflow_text. Red herrings: TensorFlow's start-up lines on a working T4 and the FileNotFoundError's
        device hint.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE])
    j = c.job('search-query-embeddings-daily', '2025-10-14T05:00:12Z', region='europe-west1',
              zone='europe-west1-b', python='3.10', beam='2.64.0', workers=1)
    w = j.w[0]
    ready = N.bring_up(j, cf, tf=True)
    j.startup(ready - 12.0, w, 'Successfully installed tensorflow-hub-0.16.1 tensorflow-text-2.15.0', src=SRC_PIP)
    t = ready + 25
    first = [
        'Traceback (most recent call last):',
        '  File "%s/tensorflow/python/framework/ops.py", line 4166, in _get_op_def' % SP,
        '    return self._op_def_cache[type]',
        "KeyError: '%s'" % OP,
        '',
        T.DURING,
        '',
        'Traceback (most recent call last):',
        '  File "%s/tensorflow/python/saved_model/load.py", line 1021, in load_partial' % SP,
        '    loader = Loader(object_graph_proto, saved_model_proto, export_dir,',
        '  File "%s/tensorflow/python/saved_model/load.py", line 164, in __init__' % SP,
        '    function_deserialization.load_function_def_library(',
        '  File "%s/tensorflow/python/saved_model/function_deserialization.py", line 405, in load_function_def_library' % SP,
        '    func_graph = function_def_lib.function_def_to_graph(',
        '  File "%s/tensorflow/python/framework/ops.py", line 4171, in _get_op_def' % SP,
        '    pywrap_tf_session.TF_GraphGetOpDef(',
        'tensorflow.python.framework.errors_impl.NotFoundError: ' + notfound(w),
        '',
        T.DURING,
        '',
        'Traceback (most recent call last):',
        '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._invoke_setup',
        '  File "/app/embed_queries.py", line 29, in setup',
        '    self._encoder = hub.load(self._model_url)',
        '  File "%s/tensorflow_hub/module_v2.py", line 126, in load' % SP,
        '    obj = tf.compat.v1.saved_model.load_v2(module_path, tags=tags, options=options)',
        '  File "%s/tensorflow/python/saved_model/load.py", line 912, in load' % SP,
        '    result = load_partial(export_dir, None, tags, options)["root"]',
        '  File "%s/tensorflow/python/saved_model/load.py", line 1024, in load_partial' % SP,
        '    raise FileNotFoundError(',
    ]
    exc = ('FileNotFoundError: ' + notfound(w) + "\n You may be trying to load on a different device from the "
           "computational device. Consider setting the `experimental_io_device` option in "
           "`tf.saved_model.LoadOptions` to the io_device such as '/job:localhost'. [while running '%s']" % STEP)
    tb = '\n'.join(first + [exc])
    t = N.failed_attempts(j, t, w, tb, STEP, src=SRC_OP, cite="Op type not registered 'SentencepieceOp'", gap=35.0,
                          mark='op', msg_cite="Error message from worker: … Op type not registered 'SentencepieceOp' …")
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('tf-op-not-registered', marks=['op', 'op-msg'], captures={'op': OP, 'tf_text_op': OP})
    c.fire('work-item-failed', marks=['wif'], caused_by='tf-op-not-registered')
    c.fire('workflow-failed', marks=['wif'], caused_by='tf-op-not-registered')
    c.no_unexplained()
    c.not_fire('cloud-storage-read-denied', 'hf-repo-id-invalid', 'keras3-savedmodel-load', 'gpu-not-used',
               'cudnn-version-mismatch')
