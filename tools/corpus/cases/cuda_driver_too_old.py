from corpuslib import noise as N, texts as T

EXC = ('tensorflow.python.framework.errors_impl.InternalError: cudaGetDevice() failed. Status: '
       'CUDA driver version is insufficient for CUDA runtime version')


def build(c):
    c.describe('''
        The image's CUDA runtime is newer than the driver Dataflow installed on the T4 worker
        (COS driver 470.82.01): TensorFlow fails with "InternalError: cudaGetDevice() failed.
        Status: CUDA driver version is insufficient for CUDA runtime version" (real,
        tensorflow/tensorflow#41401 / mlcommons training_results_v0.7#5, outside Dataflow). The fix
        is a newer driver (install-nvidia-driver:latest or a matching version) or an older CUDA
        base image. NDJSON sink shard; the export ends while retrying.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/sentiment-lab/tf-serving-batch:2.16-cuda12.3', disk=60)
    j = c.job('review-sentiment-cuda12', '2024-05-21T08:50:02Z', region='us-central1',
              zone='us-central1-a', project='sentiment-lab', python='3.11', beam='2.56.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    tb = T.user_tb('3.11', [
        '  File "/opt/pipeline/classify.py", line 27, in setup',
        '    self._model = tf.keras.models.load_model(self._path)',
        '  File "/usr/local/lib/python3.11/site-packages/tensorflow/python/eager/context.py", '
        'line 642, in ensure_initialized',
        '    context_handle = pywrap_tfe.TFE_NewContext(opts)'], EXC)
    t = ready + 11
    for k in range(2):
        j.wlog(t, w, 'Error processing instruction process_bundle-%d. Original traceback is'
               % (1 + k), exception=tb, sev='ERROR', src='tf-41401', cite=EXC,
               module='apache_beam/runners/worker/sdk_worker.py', line=303,
               mark='old' if k == 0 else None, thread='Thread-%d' % (7 + k))
        t += 45.0
    c.output('export.ndjson')
    c.fire('cuda-driver-too-old', marks=['old'])
    c.not_fire('gpu-driver-missing', 'cuda-libraries-missing')
