from corpuslib import noise as N, texts as T

STEP = 'TriageTickets'
STAGES = ['S01:ReadTickets/Read+Tokenize+TriageTickets+WriteLabels/Write']
SP = T.sp('3.11')
DESER = ('RuntimeError: Attempting to deserialize object on CUDA device 3 but torch.cuda.device_count() is 1. '
         'Please use torch.load with map_location to map your storages to an existing device.')
SRC_DESER = ('pytorch/pytorch torch/serialization.py _validate_device (validate_cuda_device in 1.x): "Attempting '
             'to deserialize object on CUDA device {device} but torch.cuda.device_count() is {device_count}. '
             'Please use torch.load with map_location to map your storages to an existing device.", raised from '
             'default_restore_location -> _deserialize when torch.load has no map_location (pytorch/pytorch#15541, '
             'Juyong/CaricatureFace#2); 2.x frame names as public tracebacks show them, line numbers adapted', 'V-code')
SRC_FW = ('pytorch/pytorch torch/serialization.py load() (2.4 and 2.5): the FutureWarning "You are using '
          '`torch.load` with `weights_only=False` (the current default value) …" printed by warnings to stderr '
          'with the caller\'s line, as public logs quote it', 'V-code')
FW = ("/app/triage/model.py:44: FutureWarning: You are using `torch.load` with `weights_only=False` (the current "
      "default value), which uses the default pickle module implicitly. It is possible to construct malicious "
      "pickle data which will execute arbitrary code during unpickling (See https://github.com/pytorch/pytorch/"
      "blob/main/SECURITY.md#untrusted-models for more details). In a future release, the default value for "
      "`weights_only` will be flipped to `True`. This limits the functions that could be executed during "
      "unpickling. Arbitrary objects will no longer be allowed to be loaded via this mode unless they are "
      "explicitly allowlisted by the user via `torch.serialization.add_safe_globals`. We recommend you start "
      "setting `weights_only=True` for any use case where you don't have full control of the loaded file. "
      "Please open an issue on GitHub for any issues related to this experimental feature.")


def build(c):
    c.describe('''
        A checkpoint that remembers the trainer's GPU (PyTorch, torch.load without map_location): the
        ticket-triage classifier was fine-tuned with DistributedDataParallel on a four-GPU machine, and
        every rank wrote ckpt_best.pt to the same path, so the file that survived is rank 3's and each
        tensor in it is tagged "cuda:3". TriageFn.setup() downloads it and calls torch.load(local_ckpt)
        with no map_location on a g2-standard-8 worker with one L4, where torch.cuda.device_count() is 1:
        "RuntimeError: Attempting to deserialize object on CUDA device 3 but torch.cuda.device_count() is 1.
        Please use torch.load with map_location to map your storages to an existing device." The traceback
        reaches the worker log four times, the job message repeats it, the job fails. The GPU works (the
        DoFn logs the L4 and device_count=1 before the load), and torch 2.4's weights_only FutureWarning
        points at the same line without being the failure. cuda-device-out-of-range fires with the device
        index and the count, and its first fix says map_location; torch-load-weights-only and the
        GPU-software rules stay quiet.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STAGES,
               image='europe-west4-docker.pkg.dev/helpdesk-ml/dataflow/triage:1.9.2')
    j = c.job('ticket-triage-nightly', '2026-03-11T06:20:04Z', region='europe-west4',
              zone='europe-west4-b', python='3.11', beam='2.62.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 20
    j.wlog(t, w, 'Downloading gs://helpdesk-ml-models/triage/deberta-v3-ft/ckpt_best.pt to /tmp/ckpt_best.pt',
           src='user-code', module='/app/triage/model.py', line=38, step=STEP)
    j.wlog(t + 6.4, w, 'torch 2.4.1+cu121, cuda available: True, device_count=1, device 0: NVIDIA L4',
           src='user-code', module='/app/triage/model.py', line=41, step=STEP)
    j.docker_lines(t + 6.5, w, [FW, '  state = torch.load(local_ckpt)'], src=SRC_FW,
                   cite='FutureWarning: You are using `torch.load` with `weights_only=False` …')
    tb = T.user_tb('3.11', [
        '  File "%s/apache_beam/runners/common.py", line 1562, in _invoke_setup' % SP,
        '    self.do_fn_invoker.invoke_setup()',
        '  File "%s/apache_beam/runners/common.py", line 599, in invoke_setup' % SP,
        '    self.signature.setup_lifecycle_method.method_value()',
        '  File "/app/triage/pipeline.py", line 63, in setup',
        '    self._model = load_classifier(self._ckpt_uri)',
        '  File "/app/triage/model.py", line 44, in load_classifier',
        '    state = torch.load(local_ckpt)',
        '  File "%s/torch/serialization.py", line 1097, in load' % SP,
        '    return _load(',
        '  File "%s/torch/serialization.py", line 1525, in _load' % SP,
        '    result = unpickler.load()',
        '  File "%s/torch/serialization.py", line 1492, in persistent_load' % SP,
        '    typed_storage = load_tensor(dtype, nbytes, key, _maybe_decode_ascii(location))',
        '  File "%s/torch/serialization.py", line 1466, in load_tensor' % SP,
        '    wrap_storage=restore_location(storage, location),',
        '  File "%s/torch/serialization.py", line 414, in default_restore_location' % SP,
        '    result = fn(storage, location)',
        '  File "%s/torch/serialization.py", line 391, in _deserialize' % SP,
        '    device = _validate_device(location, backend_name)',
        '  File "%s/torch/serialization.py", line 364, in _validate_device' % SP,
        '    raise RuntimeError(f\'Attempting to deserialize object on {backend_name.upper()} device \'',
    ], DESER + " [while running '%s']" % STEP)
    t = N.failed_attempts(j, t + 7.0, w, tb, STEP, src=SRC_DESER,
                          cite='Attempting to deserialize object on CUDA device 3 but torch.cuda.device_count() is 1',
                          gap=38.0, mark='deser',
                          msg_cite='Error message from worker: … Attempting to deserialize object on CUDA device 3')
    N.fail_work_item_4(j, cf, t + 3.0, STAGES[0], [w] * 4)
    c.output('export.json')
    c.fire('cuda-device-out-of-range', marks=['deser', 'deser-msg'],
           captures={'saved_device': '3', 'device_count': '1'})
    c.fire('work-item-failed', marks=['wif'], caused_by='cuda-device-out-of-range')
    c.fire('workflow-failed', marks=['wif'], caused_by='cuda-device-out-of-range')
    c.not_fire('torch-load-weights-only', 'gpu-not-used', 'gpu-driver-missing', 'torch-cpu-only-build',
               'state-dict-mismatch', 'gpu-hidden-by-visible-devices')
