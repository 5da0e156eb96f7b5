from corpuslib import noise as N


def build(c):
    c.describe('''
        A malformed line in the middle of an NDJSON sink shard (line 31: an entry cut off
        mid-object by an interrupted write, followed by the next entry on its own line). It
        must be reported with file, line and byte offset and skipped; everything else is still
        diagnosed: the T4 job lacks install-nvidia-driver and TensorFlow logs "failed call to
        cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected" and "kernel driver
        does not appear to be running on this host" (older TF paths).''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=False, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/agri-yield-ml/field-seg:tf2.4-gpu', disk=60)
    j = c.job('field-boundary-seg-v1', '2021-03-18T19:38:02Z', region='us-central1',
              zone='us-central1-b', project='agri-yield-ml', python='3.8', beam='2.28.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 12
    j.docker(t, w, '2021-03-18 19:42:50.907401: E tensorflow/stream_executor/cuda/cuda_driver.cc:'
             '300] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected',
             sev='ERROR', src='tf-cuinit', mark='cuinit')
    j.docker(t + 0.001, w, '2021-03-18 19:42:50.907512: I tensorflow/stream_executor/cuda/'
             'cuda_diagnostics.cc:156] kernel driver does not appear to be running on this host '
             '(%s): /proc/driver/nvidia/version does not exist' % w, sev='ERROR', src='tf-cuinit')
    end = ready + 2400
    N.sdk_shutdown(j, w, end - 20)
    N.teardown(j, cf, end)
    raw = ('{"insertId":"1b7xq0mfk2a9c","jsonPayload":{"job":"%s","logger":"/usr/local/lib/'
           'python3.8/site-packages/apache_beam/runners/worker/sdk_worker.py:183","message":'
           '"Creating insecure control channel for localhost:12' % j.id)
    c.output('export.ndjson', malformed=(30, raw))
    c.fire('gpu-driver-missing', marks=['cuinit'], caused_by='gpu-driver-not-requested')
    c.fire('gpu-driver-not-requested', marks=[])  # the option alone tells
