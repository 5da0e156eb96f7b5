from corpuslib import noise as N, texts as T

STEP = 'DetectObjects'
STAGE = 'S01:ReadFrames/Read+DetectObjects+WriteBoxes/Write'
BUSY = 'RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable'
ADVICE = ('CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace '
          'below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\n'
          'Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.')
SRC_BUSY = ('pytorch/pytorch c10/cuda/CUDAException.cpp ("CUDA error: " + cudaGetErrorString of '
            'cudaErrorDevicesUnavailable, then the asynchronous-error advice), as '
            'Tencent-Hunyuan/InstantCharacter#21 and cositools/cosipy#631 quote it; that a second SDK '
            'process on an exclusive-process GPU gets it is the CUDA Runtime API\'s description of the '
            'error (composition)', 'V-other')
SRC_OK = ('a DoFn\'s own INFO line after loading its model on the GPU (synthetic)', 'I')
SP = T.sp('3.11')


def build(c):
    c.describe('''
        GPU busy or unavailable: an object-detection DoFn on an n1-standard-4 worker with one
        nvidia-tesla-t4 and the default SDK processes (no no_use_multiple_sdk_containers: one per
        vCPU). The GPU admits one context (exclusive-process compute mode): the first SDK process
        (sdk-0-0) loads the model and logs it at INFO (the healthy near miss), the second one's
        model.to("cuda") in setup at /app/detect.py:41 fails with "RuntimeError: CUDA error:
        CUDA-capable device(s) is/are busy or unavailable" four times and the job fails.
        cuda-device-busy fires and explains the symptoms; gpu-out-of-memory does not.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, steps=[STAGE])
    j = c.job('detect-frames-t4', '2025-11-04T07:30:11Z', region='us-central1',
              zone='us-central1-a', python='3.11', beam='2.66.0', workers=1)
    ready = N.bring_up(j, cf)
    j.wlog(ready + 12, j.w[0], 'Loaded detector weights on cuda:0 (Tesla T4) in 6.2s', sev='INFO',
           src=SRC_OK, module='/app/detect.py', line=44, thread='Thread-9', step=STEP)
    tb = T.user_tb('3.11', [
        '  File "%s/apache_beam/runners/common.py", line 1562, in _invoke_setup' % SP,
        '    self.do_fn_invoker.invoke_setup()',
        '  File "/app/detect.py", line 41, in setup',
        '    self.model = self.model.to("cuda")',
        '  File "%s/torch/nn/modules/module.py", line 1355, in to' % SP,
        '    return self._apply(convert)',
    ], BUSY + '\n' + ADVICE + " [while running '%s']" % STEP)
    t = ready + 30
    t = N.failed_attempts(j, t, j.w[0], tb, STEP, src=SRC_BUSY, cite=BUSY, gap=31.0, sdk='sdk-0-1', mark='busy')
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [j.w[0]] * 4)
    c.output('export.json')
    c.fire('cuda-device-busy', marks=['busy'])
    c.fire('work-item-failed', marks=['wif'], caused_by='cuda-device-busy')
    c.fire('workflow-failed', marks=['wif'], caused_by='cuda-device-busy')
    c.not_fire('gpu-out-of-memory', 'cuda-device-side-assert', 'gpu-driver-missing', 'cuda-device-out-of-range')
