from corpuslib import noise as N, texts as T

STEP = 'ScoreChurn'
STEPS = ['S01:ReadCustomers/Read+ScoreChurn+WriteScores/Write']
KERAS = ("ValueError: File format not supported: filepath=gs://acme-ml-models/churn_dnn/v31. Keras 3 only "
         "supports V3 `.keras` files and legacy H5 format files (`.h5` extension). Note that the legacy SavedModel "
         "format is not supported by `load_model()` in Keras 3. In order to reload a TensorFlow SavedModel as an "
         "inference-only layer in Keras 3, use `keras.layers.TFSMLayer(gs://acme-ml-models/churn_dnn/v31, "
         "call_endpoint='serving_default')` (note that your `call_endpoint` might have a different name).")
SRC_KERAS = ('keras-team/keras keras/src/saving/saving_api.py load_model (Keras 3), as public reports after '
             'TensorFlow 2.16 quote it (CCSI-Toolset/FOQUS#1202, gatewayd-io/DeepSQLi#9)', 'V-code')
SP = T.sp('3.10')


def build(c):
    c.describe('''
        Keras 3 and a legacy SavedModel (issue 40, TensorFlow 2.16+): a DoFn's setup at
        /app/score.py:22 loads a model Keras 2 saved as a TF SavedModel directory with
        tf.keras.models.load_model; the image's unpinned tensorflow became 2.17, whose Keras 3
        refuses it: "ValueError: File format not supported: filepath=gs://… Keras 3 only supports V3
        `.keras` files and legacy H5 format files …"; four attempts fail the job.
        keras3-savedmodel-load fires.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('churn-scoring-weekly', '2026-03-09T02:30:03Z', region='us-central1',
              zone='us-central1-b', python='3.10', beam='2.63.0', workers=1)
    ready = N.bring_up(j, cf)
    tb = T.user_tb('3.10', [
        '  File "%s/apache_beam/runners/common.py", line 1562, in _invoke_setup' % SP,
        '    self.do_fn_invoker.invoke_setup()',
        '  File "/app/score.py", line 22, in setup',
        '    self._model = tf.keras.models.load_model(MODEL_DIR)',
        '  File "%s/keras/src/saving/saving_api.py", line 206, in load_model' % SP,
        '    raise ValueError(',
    ], KERAS + " [while running '%s']" % STEP)
    t = ready + 35
    t = N.failed_attempts(j, t, j.w[0], tb, STEP, src=SRC_KERAS, cite='Keras 3 only supports V3', gap=40.0,
                          mark='keras')
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json')
    c.fire('keras3-savedmodel-load', marks=['keras'])
    c.fire('work-item-failed', marks=['wif'], caused_by='keras3-savedmodel-load')
    c.fire('workflow-failed', marks=['wif'], caused_by='keras3-savedmodel-load')
    c.not_fire('gpu-out-of-memory', 'cloud-storage-read-denied', 'gpu-not-used')
