from corpuslib import noise as N


def build(c):
    c.describe('''
        CUDA user-space libraries missing from the image on a GPU job: the same cudart dlerror
        that is benign on CPU ("Could not load dynamic library 'libcudart.so.11.0'; dlerror:
        libcudart.so.11.0: cannot open shared object file: No such file or directory" / "Ignore
        above cudart dlerror if you do not have a GPU set up on your machine."), here on a T4 job
        with install-nvidia-driver (real lines from Google's own Dataflow GPU sample test,
        python-docs-samples#5247), followed by "Cannot dlopen some GPU libraries. ... Skipping
        registering GPU devices..." (real TensorFlow lines). The driver is installed; the
        libraries are not.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/python-docs-samples-tests/dataflow/tensorflow-gpu:20210115', disk=50)
    j = c.job('tensorflow-gpu-landsat-0115b', '2021-01-15T22:25:40Z', region='us-central1',
              zone='us-central1-b', project='python-docs-samples-tests', python='3.8',
              beam='2.26.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 4
    j.docker(t, w, "2021-01-15 22:29:10.524176: W tensorflow/stream_executor/platform/default/"
             "dso_loader.cc:60] Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
             "libcudart.so.11.0: cannot open shared object file: No such file or directory",
             sev='ERROR', src='pds-5247', mark='dlerror')
    j.docker(t + 0.0001, w, '2021-01-15 22:29:10.524235: I tensorflow/stream_executor/cuda/'
             'cudart_stub.cc:29] Ignore above cudart dlerror if you do not have a GPU set up on '
             'your machine.', sev='ERROR', src='pds-5247')
    j.docker(t + 2.1, w, '2021-01-15 22:29:12.611090: W tensorflow/core/common_runtime/gpu/'
             'gpu_device.cc:1753] Cannot dlopen some GPU libraries. Please make sure the missing '
             'libraries mentioned above are installed properly if you would like to use GPU. '
             'Follow the guide at https://www.tensorflow.org/install/gpu for how to download and '
             'setup the required libraries for your platform.\nSkipping registering GPU '
             'devices...', sev='ERROR', src='tf-dlopen', mark='dlopen')
    end = ready + 1500
    N.sdk_shutdown(j, w, end - 20)
    N.teardown(j, cf, end)
    c.output('export.json')
    c.fire('cuda-libraries-missing', marks=['dlerror', 'dlopen'])
    c.not_fire('gpu-driver-missing')
