from corpuslib import noise as N


def build(c):
    c.describe('''
        Near miss: a CPU-only job (no worker_accelerator) whose image ships TensorFlow logs the
        cudart dlerror "Could not load dynamic library 'libcudart.so.11.0'; dlerror:
        libcudart.so.11.0: cannot open shared object file: No such file or directory" followed by
        "Ignore above cudart dlerror if you do not have a GPU set up on your machine." (real, from
        python-docs-samples#5247). On a CPU job this is benign: neither cuda-libraries-missing nor
        gpu-driver-missing may fire. NDJSON sink shard.''')
    cf = N.cfg(machine='n1-standard-4', gpu=None, num_workers=1, max_workers=5,
               image='gcr.io/ads-ctr-model/tft-preprocess:1.4', disk=50,
               steps=['ReadClicks/Read+AnalyzeAndTransform/Transform+WriteExamples/Write/'
                      'WriteImpl/WriteBundles'])
    j = c.job('ctr-tft-preprocess', '2021-01-20T07:30:00Z', region='us-central1',
              zone='us-central1-f', project='ads-ctr-model', python='3.8', beam='2.27.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 9
    j.docker(t, w, "2021-01-20 07:32:41.524176: W tensorflow/stream_executor/platform/default/"
             "dso_loader.cc:60] Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
             "libcudart.so.11.0: cannot open shared object file: No such file or directory",
             sev='ERROR', src='pds-5247', mark='dlerror')
    j.docker(t + 0.0001, w, '2021-01-20 07:32:41.524235: I tensorflow/stream_executor/cuda/'
             'cudart_stub.cc:29] Ignore above cudart dlerror if you do not have a GPU set up on '
             'your machine.', sev='ERROR', src='pds-5247')
    end = ready + 1200
    N.sdk_shutdown(j, w, end - 20)
    N.teardown(j, cf, end)
    c.output('export.ndjson')
    c.not_fire('cuda-libraries-missing', 'gpu-driver-missing', 'gpu-not-used')
