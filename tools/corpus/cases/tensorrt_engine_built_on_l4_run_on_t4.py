from corpuslib import noise as N, texts as T

STEP = 'DetectObjects'
STEPS = ['S01:ReadFrames/Read+DetectObjects+WriteDetections/Write']
SP = T.sp('3.10')
SRC_TRT = ('TensorRT 10 runtime (closed source): "IRuntime::deserializeCudaEngine: Error Code 6: API Usage Error (The '
           'engine plan file is generated on an incompatible device, expecting compute X got compute Y, please '
           'rebuild.)" as deepinsight/insightface#2882 logs it (TRT 10.8; the compute pair and the date adapted: '
           'the worker is a T4, 7.5, the engine was built on an L4, 8.9)', 'V-other')
SRC_NONE = ('Linaom1214/TensorRT-For-YOLO-Series#17: the caller then fails on the None engine '
            '("\'NoneType\' object has no attribute \'create_execution_context\'")', 'V-other')
SRC_LAZY = ('TensorRT 8.6+ runtime: the [TRT] [W] lazy-loading advice every process prints at start-up, a near '
            'miss on stderr (Dataflow stores stderr at ERROR)', 'V-other')


def traceback():
    return T.user_tb('3.10', [
        '  File "%s/apache_beam/runners/common.py", line 1498, in process' % SP,
        '    return self.do_fn_invoker.invoke_process(windowed_value)',
        '  File "/app/detect.py", line 44, in setup',
        '    self._context = self._engine.create_execution_context()',
    ], "AttributeError: 'NoneType' object has no attribute 'create_execution_context'")


def build(c):
    c.describe('''
        A TensorRT engine built on another GPU (issue 40, inference runtimes): the team built its
        YOLO detector's TensorRT 10 engine on an L4 development VM and baked the .engine file into
        the SDK container image; the Dataflow job runs on T4 workers. At the DoFn's setup TensorRT
        refuses the plan ("generated on an incompatible device, expecting compute 7.5 got compute
        8.9, please rebuild") on stderr, and the DoFn fails on the None engine. Four attempts, the
        job fails. tensorrt-engine-incompatible fires with both compute capabilities, and its fix
        names the workers' GPU and its capability from the GPU table; the TensorRT lazy-loading
        [W] line on stderr is a near miss. Exported as an NDJSON sink shard.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2, max_workers=2,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS,
               image='us-central1-docker.pkg.dev/acme-vision/beam/detector-trt10:2026.02')
    j = c.job('frame-detections-hourly', '2026-02-17T16:00:09Z', region='us-central1',
              zone='us-central1-f', python='3.10', beam='2.63.0', workers=2)
    ready = N.bring_up(j, cf)
    t = ready + 20
    for attempt in range(4):
        w = j.w[attempt % 2]
        j.docker(t - 1, w, '[02/17/2026-16:0%d:%02d] [TRT] [W] CUDA lazy loading is not enabled. Enabling it can '
                 'significantly reduce device memory usage and speed up TensorRT initialization. See "Lazy Loading" '
                 'section of CUDA documentation https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#lazy-loading'
                 % (3 + attempt, 10 + attempt), sev='ERROR', src=SRC_LAZY)
        j.docker(t, w, '[02/17/2026-16:0%d:%02d] [TRT] [E] IRuntime::deserializeCudaEngine: Error Code 6: API Usage '
                 'Error (The engine plan file is generated on an incompatible device, expecting compute 7.5 got '
                 'compute 8.9, please rebuild.)' % (3 + attempt, 11 + attempt), sev='ERROR', src=SRC_TRT,
                 mark='trt' if attempt == 0 else None)
        j.wlog(t + 1.5, w, T.instruction_error('process_bundle-%d' % (1 + attempt), traceback()), sev='ERROR',
               src=SRC_NONE, module='apache_beam/runners/worker/sdk_worker.py', line=303,
               thread='Thread-%d' % (11 + attempt), step=STEP)
        t += 50.0
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0], j.w[1], j.w[0], j.w[1]])
    c.output('export-000000000000.json', shape='ndjson')
    c.fire('tensorrt-engine-incompatible', marks=['trt'], captures={'gpu_worker_cc': '7.5', 'gpu_engine_cc': '8.9'})
    c.fire('work-item-failed', marks=['wif'], caused_by='tensorrt-engine-incompatible')
    c.fire('workflow-failed', marks=['wif'], caused_by='tensorrt-engine-incompatible')
    c.not_fire('gpu-driver-missing', 'cuda-libraries-missing', 'gpu-out-of-memory')
