from corpuslib import noise as N, texts as T

STEP = 'DetectDefects'
STEPS = ['S01:ReadImages/Read+DetectDefects+WriteDefects/Write']
SP = T.sp('3.11')
MISMATCH = ('Loaded runtime CuDNN library: 8.7.0 but source was compiled with: 8.9.4.  CuDNN library needs to have '
            'matching major version and equal or higher minor version. If using a binary install, upgrade your CuDNN '
            'library.  If building from sources, make sure the library loaded at runtime is compatible with the '
            'version specified during compile configuration.')
SRC_DNN = ('openxla/xla xla/stream_executor/cuda/cuda_dnn.cc as TensorFlow 2.15/2.16 logs it (external/local_xla path): '
           'the line verbatim from bmaltais/kohya_ss#2787 (8.7.0 / 8.9.4); timestamp and line number of this build '
           'adapted', 'V')
SRC_TF = ('tensorflow/tensorflow: "Failed to get convolution algorithm. This is probably because cuDNN failed to '
          'initialize, so try looking to see if a warning log message was printed above." raised as '
          'UnknownError/NotFoundError from a Conv2D, as TF 2.x users report it after the line above (the node name '
          'composed)', 'V-code')


def build(c):
    c.describe('''
        A cuDNN older than TensorFlow was built with (issue 40, PyTorch and TensorFlow 2.15+): a defect
        detector runs a Keras model in a DoFn on a T4. The custom image starts from a CUDA 11.8
        base with cuDNN 8.7 and installs tensorflow 2.15 without its CUDA extra, so XLA's stream
        executor refuses the library ("Loaded runtime CuDNN library: 8.7.0 but source was compiled
        with: 8.9.4. …") and the first convolution fails with "Failed to get convolution
        algorithm. This is probably because cuDNN failed to initialize". Four attempts, the job
        fails. cudnn-version-mismatch leads with both versions; TensorFlow's INFO line creating the
        GPU device, on stderr (stored at ERROR), is a near miss.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS,
               image='us-docker.pkg.dev/acme-vision/beam/defects-tf215:2026.07')
    j = c.job('defect-detector-t4', '2026-07-14T06:30:09Z', region='us-central1',
              zone='us-central1-a', python='3.11', beam='2.61.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 20
    for attempt in range(4):
        first = attempt == 0
        j.docker(t - 1, j.w[0], '2026-07-14 06:3%d:%02d.%06d: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1886] '
                 'Created device /job:localhost/replica:0/task:0/device:GPU:0 with 13775 MB memory:  -> device: 0, '
                 'name: Tesla T4, pci bus id: 0000:00:04.0, compute capability: 7.5' % (3 + attempt, 11 + attempt, 802113),
                 sev='ERROR', src=('tensorflow/tensorflow core/common_runtime/gpu/gpu_device.cc: the INFO line naming '
                                   'the device, on stderr (tensorflow/tensorflow#62170 shows its form)', 'V-code'))
        j.docker(t, j.w[0], '2026-07-14 06:3%d:%02d.%06d: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:447] '
                 % (3 + attempt, 12 + attempt, 104411) + MISMATCH, sev='ERROR', src=SRC_DNN,
                 mark='mismatch' if first else None)
        tb = T.augmented_tb('3.11', [
            '  File "/app/detect.py", line 52, in process',
            '    scores = self._model(batch, training=False)',
            '  File "%s/keras/src/utils/traceback_utils.py", line 70, in error_handler' % SP,
            '    raise e.with_traceback(filtered_tb) from None',
        ], 'tensorflow.python.framework.errors_impl.UnknownError: Exception encountered when calling layer '
           '\'conv2d\' (type Conv2D).\n\n{{function_node __wrapped__Conv2D_device_/job:localhost/replica:0/task:0/'
           'device:GPU:0}} Failed to get convolution algorithm. This is probably because cuDNN failed to initialize, '
           'so try looking to see if a warning log message was printed above. [Op:Conv2D]', STEP)
        j.wlog(t + 0.8, j.w[0], T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR', src=SRC_TF,
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (11 + attempt),
               step=STEP)
        t += 40.0
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json')
    c.fire('cudnn-version-mismatch', marks=['mismatch'], captures={'cudnn_runtime': '8.7.0', 'cudnn_compiled': '8.9.4'})
    c.fire('work-item-failed', marks=['wif'], caused_by='cudnn-version-mismatch')
    c.fire('workflow-failed', marks=['wif'], caused_by='cudnn-version-mismatch')
    c.not_fire('gpu-memory-taken-at-start', 'cuda-libraries-missing', 'gpu-not-used')
