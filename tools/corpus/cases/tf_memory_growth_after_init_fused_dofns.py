import calendar
import datetime as dt

from corpuslib import noise as N, texts as T

START = '2026-04-21T02:14:37Z'
STEP = 'RecognizeText'
STAGE = 'S02:DecodePages+DetectFields/BeamML_RunInference+NormalizeBoxes+RecognizeText+WriteResults/Write'
SP = T.sp('3.11')
USER = '/usr/local/lib/python3.11/site-packages/claims_ocr'
ERR = 'RuntimeError: Physical devices cannot be modified after being initialized'

SRC_CFG = ('tensorflow/tensorflow tensorflow/python/eager/context.py Context.set_memory_growth ("Physical devices '
           'cannot be modified after being initialized", raised once the runtime exists) called through '
           'tensorflow/python/framework/config.py set_memory_growth, as neureal/neureal-ai-agent#3 and '
           'hunglc007/tensorflow-yolov4-tflite#171 quote it; Beam setup() frames (DoOperation.setup, '
           'DoFnRunner._invoke_lifecycle_method, _reraise_augmented) and all line numbers composed', 'V-code')
SRC_DEVICE = ('tensorflow/tensorflow core/common_runtime/gpu/gpu_device.cc: the INFO line naming the device it '
              'created, in the absl "I0000 00:00:<epoch>" form of TF 2.16+ on stderr (public notebook logs; '
              'tensorflow/tensorflow#62170 shows the text); thread id and line number adapted', 'V-other')
SRC_HANDLED = ('a DoFn that catches the RuntimeError, logs it with its traceback at WARNING and carries on '
               '(composed after public code that tests for "cannot be modified after being initialized" and '
               'skips)', 'I')


def _epoch(t):
    base = calendar.timegm(dt.datetime.strptime(START, '%Y-%m-%dT%H:%M:%SZ').timetuple())
    return base + t


def _setup_frames():
    return [
        '  File "apache_beam/runners/common.py", line 1571, in '
        'apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
        '  File "apache_beam/runners/common.py", line 596, in apache_beam.runners.common.DoFnInvoker.invoke_setup',
        '  File "%s/recognize.py", line 47, in setup' % USER,
        '    tf.config.experimental.set_memory_growth(gpu, True)',
        '  File "%s/tensorflow/python/framework/config.py", line 754, in set_memory_growth' % SP,
        '    context.context().set_memory_growth(device, enable)',
        '  File "%s/tensorflow/python/eager/context.py", line 1845, in set_memory_growth' % SP,
        '    raise RuntimeError(',
    ]


def setup_tb():
    """setup() raising inside BundleProcessor creation, re-raised by Beam with the step name."""
    first = ['Traceback (most recent call last):'] + _setup_frames()
    second = ['Traceback (most recent call last):',
              '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute' % SP,
              '    response = task()',
              '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 386, in <lambda>' % SP,
              '    lambda: self.create_worker().do_instruction(request), request)',
              '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 658, in do_instruction' % SP,
              '    return getattr(self, request_type)(',
              '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 689, in process_bundle' % SP,
              '    bundle_processor = self.bundle_processor_cache.get(',
              '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 512, in get' % SP,
              '    processor = bundle_processor.BundleProcessor(',
              '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1135, in __init__' % SP,
              '    op.setup(self.data_sampler)',
              '  File "apache_beam/runners/worker/operations.py", line 875, in '
              'apache_beam.runners.worker.operations.DoOperation.setup',
              '  File "apache_beam/runners/worker/operations.py", line 925, in '
              'apache_beam.runners.worker.operations.DoOperation.setup',
              '  File "apache_beam/runners/common.py", line 1619, in apache_beam.runners.common.DoFnRunner.setup',
              '  File "apache_beam/runners/common.py", line 1575, in '
              'apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
              '  File "apache_beam/runners/common.py", line 1662, in '
              'apache_beam.runners.common.DoFnRunner._reraise_augmented',
              ] + _setup_frames()
    return '\n'.join(first + [ERR, '', T.DURING, ''] + second + [ERR + " [while running '%s']" % STEP])


def handled_tb():
    return '\n'.join([
        'NormalizeBoxes.setup: TensorFlow already initialized in this process, skipping GPU memory growth',
        'Traceback (most recent call last):',
        '  File "%s/boxes.py", line 23, in _enable_growth' % USER,
        '    tf.config.experimental.set_memory_growth(gpu, True)',
        '  File "%s/tensorflow/python/framework/config.py", line 754, in set_memory_growth' % SP,
        '    context.context().set_memory_growth(device, enable)',
        '  File "%s/tensorflow/python/eager/context.py", line 1845, in set_memory_growth' % SP,
        '    raise RuntimeError(',
        ERR,
    ])


def build(c):
    c.describe('''
        TensorFlow configured after its runtime started, by a DoFn fused behind a model handler (issue 40,
        TensorFlow 2.18): a claims-form OCR job runs RunInference with a TensorFlow model handler
        (DetectFields) and two DoFns, NormalizeBoxes and RecognizeText, fused into one stage and so run in
        the same SDK process. The model handler loads its SavedModel first, which initialises TensorFlow
        and creates the T4 device ("Created device … with 13775 MB memory"). RecognizeText.setup() then
        calls tf.config.experimental.set_memory_growth, which TensorFlow only accepts before that point:
        "RuntimeError: Physical devices cannot be modified after being initialized [while running
        'RecognizeText']", on each of four attempts, and the work item fails. tf-config-after-init fires
        on the worker traceback and the job message. Red herrings: the absl "Unable to register
        cuDNN/cuFFT/cuBLAS factory" lines on stderr (stored at ERROR), the device created fine, the
        pipeline's INFO line announcing memory growth, and NormalizeBoxes catching the same RuntimeError
        and logging it at WARNING with "already initialized …, skipping", which must not count.''')
    cf = N.cfg(machine='n1-highmem-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE],
               image='europe-docker.pkg.dev/acme-claims/beam/claims-ocr-tf218:2026.04.2')
    j = c.job('claims-form-ocr-tf-t4', START, region='europe-west4', zone='europe-west4-a', python='3.11',
              beam='2.62.0', workers=1)
    w = j.w[0]
    ready = N.bring_up(j, cf)
    t = ready + 8.0
    tid = 57
    # TensorFlow's start-up on stderr when the model handler imports it: healthy
    j.docker(t, w, 'WARNING: All log messages before absl::InitializeLog() is called are written to STDERR',
             sev='ERROR', src='absl-tf-factory')
    for k, (lib, cc, line) in enumerate([('cuFFT', 'cuda_fft.cc', 485), ('cuDNN', 'cuda_dnn.cc', 8454),
                                         ('cuBLAS', 'cuda_blas.cc', 1452)]):
        j.docker(t + 0.01 * (k + 1), w, 'E0000 00:00:%d.%06d %7d %s:%d] Unable to register %s factory: Attempting '
                 'to register factory for plugin %s when one has already been registered'
                 % (_epoch(t), 118203 + 6000 * k, tid, cc, line, lib, lib), sev='ERROR',
                 src='tf-fft-factory' if lib == 'cuFFT' else 'absl-tf-factory')
    t += 14.0
    j.docker(t, w, 'I0000 00:00:%d.482211 %7d gpu_device.cc:2022] Created device '
             '/job:localhost/replica:0/task:0/device:GPU:0 with 13775 MB memory:  -> device: 0, name: Tesla T4, '
             'pci bus id: 0000:00:04.0, compute capability: 7.5' % (_epoch(t), tid), sev='ERROR', src=SRC_DEVICE,
             mark='device')
    t += 3.0
    j.wlog(t, w, handled_tb(), sev='WARNING', src=SRC_HANDLED, module='%s/boxes.py' % USER, line=27)
    j.wlog(t + 0.6, w, 'RecognizeText.setup: enabling GPU memory growth before loading the recogniser',
           src='user-code', module='%s/recognize.py' % USER, line=44)
    t += 1.0
    t = N.failed_attempts(j, t, w, setup_tb(), STEP, src=SRC_CFG,
                          cite='RuntimeError: Physical devices cannot be modified after being initialized',
                          gap=31.0, mark='cfg',
                          msg_cite="Error message from worker: … Physical devices cannot be modified after being "
                                   "initialized [while running 'RecognizeText']")
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('tf-config-after-init', marks=['cfg', 'cfg-msg'],
           captures={'setting': 'Physical devices', 'device_config': 'Physical'})
    c.fire('work-item-failed', marks=['wif'], caused_by='tf-config-after-init')
    c.fire('workflow-failed', marks=['wif'], caused_by='tf-config-after-init')
    c.no_unexplained()
    c.not_fire('gpu-out-of-memory', 'cudnn-status-error', 'gpu-memory-taken-at-start', 'multiple-processes-per-gpu',
               'gpu-not-used', 'cuda-libraries-missing', 'cudnn-version-mismatch', 'tf-op-not-registered',
               'keras3-savedmodel-load', 'cuda-fork-reinit')
