from corpuslib import noise as N

STEP = 'ExtractShelfFeatures'
STEP_RESIZE = 'ResizeToBuckets'
STEPS = ['S01:ReadManifest/Read+LoadShelfImages+ResizeToBuckets+BatchElements/ParDo(_GlobalWindowsBatchingDoFn)'
         '+ExtractShelfFeatures+WriteFeatures/Write/WriteImpl/WriteBundles']
TAIL = ('triggered tf.function retracing. Tracing is expensive and the excessive number of tracings could be due to '
        '(1) creating @tf.function repeatedly in a loop, (2) passing tensors with different shapes, (3) passing Python '
        'objects instead of tensors. For (1), please define your @tf.function outside of the loop. For (2), '
        '@tf.function has experimental_relax_shapes=True option that relaxes argument shapes that can avoid '
        'unnecessary retracing. For (3), please refer to https://www.tensorflow.org/guide/function#controlling_retracing'
        ' and https://www.tensorflow.org/api_docs/python/tf/function for  more details.')
ADDRS = [('7f3c5a0e1d30', '7f3c5a0e5ee0', '7f3c61b2a4c0'), ('7fd10c6f3b80', '7fd10c6f7af0', '7fd1146d9e50')]

SRC_RETRACE = ('tensorflow/tensorflow tensorflow/python/eager/def_function.py (2.7/2.8-era copy) '
               '_FrequentTracingDetector.called_with_tracing: logging.warning("{} out of the last {} calls to {} '
               'triggered tf.function retracing. Tracing is expensive … experimental_relax_shapes=True … '
               'guide/function#controlling_retracing …"), at most FREQUENT_TRACING_WARNING_MAX_WARNING_PER_DETECTOR = 2 '
               'per function, on stderr with the tensorflow logger\'s "WARNING:tensorflow:" prefix; the Keras 2 name '
               '"Model.make_predict_function.<locals>.predict_function" as tensorflow/tensorflow#46012 and '
               'fastmachinelearning/hls4ml#359 print it (one model built per inference); addresses are ours', 'V-code')
SRC_WARMUP = ('the same TensorFlow warning, once: a tf.function warmed up in setup() over five bucket sizes reaches the '
              'threshold of 5 traced calls and then never traces again (a near miss; function name and address are '
              'ours)', 'V-code')
SRC_TEAM = ('application log lines of the pipeline\'s own DoFns (synthetic)', 'I')


def build(c):
    c.describe('''
        TensorFlow re-tracing a Keras predict function on every batch (the tf.function retracing family, the
        Keras variant, TensorFlow 2.8 wording): a nightly batch job extracts shelf-image features with a
        ResNet50 loaded once per worker in setup(), but its DoFn builds a new feature extractor for every batch
        (tf.keras.Model(model.input, model.get_layer('avg_pool').output)) and calls extractor.predict() on it.
        Each new Keras model wraps its own predict_function in a new tf.function, and all of them share one
        frequent-tracing detector (keyed by the function's code), so every batch traces and optimises the
        whole graph again. TensorFlow says so twice per worker on stderr ("WARNING:tensorflow:5 out of the last
        5 calls to <function Model.make_predict_function.<locals>.predict_function …> triggered tf.function
        retracing …", then "6 out of the last 6 …", experimental_relax_shapes wording) and then stays silent;
        the DoFn's own lines show ~1.4 s per batch of 32 on a T4 for three hours, and the job succeeds.
        tf-function-retracing fires (warning) on the second warning of each worker. Near miss in the same
        export: ResizeToBuckets warms its own tf.function up in setup() over five padded sizes and TensorFlow
        warns once, "5 out of the last 5 calls to <function ResizeToBuckets.setup.<locals>.resize …>" (a
        start-up retrace that stops). Red herrings: TensorFlow's device lines (the GPU is used) and the benign
        boot lines of every worker.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2, max_workers=2,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS, disk=100,
               image='us-east1-docker.pkg.dev/harbor-vision/dataflow/shelf-features:tf2.8.4-b2.46')
    j = c.job('shelf-features-nightly', '2024-02-06T03:30:07Z', region='us-east1', zone='us-east1-c',
              project='harbor-vision', python='3.9', beam='2.46.0', workers=2)
    ready = N.bring_up(j, cf, tf=True)

    last = ready
    for i, w in enumerate(j.w):
        first = i == 0
        a_warm, a5, a6 = ADDRS[i]
        t = ready + 15.0 + 5.2 * i
        j.wlog(t, w, 'Loaded ResNet50 shelf model from gs://harbor-vision-models/shelf-resnet50/2024-01-22 '
               '(tensorflow 2.8.4, 2048-d avg_pool features)', src=SRC_TEAM, module='/app/shelf/features.py',
               line=38, thread='Thread-4', step=STEP)
        j.wlog(t + 1.1, w, 'ResizeToBuckets: warming up resize for buckets 224, 256, 288, 320, 384', src=SRC_TEAM,
               module='/app/shelf/resize.py', line=27, thread='Thread-4', step=STEP_RESIZE)
        j.docker(t + 2.9, w, 'WARNING:tensorflow:5 out of the last 5 calls to <function ResizeToBuckets.setup.<locals>.'
                 'resize at 0x%s> %s' % (a_warm, TAIL), sev='ERROR', src=SRC_WARMUP,
                 mark='warmup' if first else 'warmup-%d' % i,
                 cite='WARNING:tensorflow:5 out of the last 5 calls to <function ResizeToBuckets.setup.<locals>.resize '
                      'at 0x%s> triggered tf.function retracing. …' % a_warm)
        t += 9.0
        # one new extractor per batch: every predict traces; the detector warns on the fifth and sixth
        for k in range(1, 7):
            secs = 1.47 - 0.01 * k + 0.03 * i
            t += secs + 0.2
            if k >= 5:
                addr = a5 if k == 5 else a6
                j.docker(t - 0.05, w, 'WARNING:tensorflow:%d out of the last %d calls to <function Model.'
                         'make_predict_function.<locals>.predict_function at 0x%s> %s' % (k, k, addr, TAIL),
                         sev='ERROR', src=SRC_RETRACE,
                         mark=('retrace-%d' % k) if first else 'retrace-%d-%d' % (k, i),
                         cite='WARNING:tensorflow:%d out of the last %d calls to <function Model.make_predict_function.'
                              '<locals>.predict_function at 0x%s> triggered tf.function retracing. …' % (k, k, addr))
        # silence from TensorFlow from here on; the DoFn's own throughput lines show every batch still slow
        done = 6 * 32
        for k in range(7):
            t += 1500.0 + 23.0 * k + 11.0 * i
            n = int((1500.0 + 23.0 * k) / 1.61)
            done += 32 * n
            j.wlog(t, w, 'extracted features for %d batches of 32 images (%d so far) at %.1f img/s; last batch '
                   '%.2f s' % (n, done, 32 * n / (1500.0 + 23.0 * k), 1.41 + 0.02 * (k % 3)), src=SRC_TEAM,
                   module='/app/shelf/features.py', line=71, thread='Thread-4', step=STEP,
                   mark='slow' if first and k == 0 else None)
        last = max(last, t)

    end = last + 180.0
    for w in j.w:
        N.sdk_shutdown(j, w, end - 40.0)
    N.teardown(j, cf, end, n=2)
    c.output('export.json')
    c.fire('tf-function-retracing', marks=['retrace-6', 'retrace-6-1'],
           captures={'traced': '6', 'calls': '6', 'function': 'Model.make_predict_function.<locals>.predict_function'})
    c.not_fire('gpu-not-used', 'processing-stuck', 'xla-constant-folding-slow', 'tf-config-after-init',
               'gpu-out-of-memory', 'batch-elements-unequal-shapes')
    c.no_unexplained()
