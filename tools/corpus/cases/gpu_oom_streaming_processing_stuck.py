from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
OOM = ('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 318.00 MiB. GPU 0 has a '
       'total capacity of 14.58 GiB of which 215.44 MiB is free. Including non-PyTorch memory, '
       'this process has 14.36 GiB memory in use. Of the allocated memory 13.81 GiB is allocated '
       'by PyTorch, and 402.17 MiB is reserved by PyTorch but unallocated.')


def build(c):
    c.describe('''
        Streaming PyTorch RunInference on a T4 (one SDK process): the model and a large batch do
        not fit the GPU, and "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate ..."
        (PyTorch 2.x wording, dify-official-plugins#599, numbers for a 16 GB T4) is logged for
        the bundle. A streaming job never reports "failed 4 times": Dataflow keeps retrying the
        bundle, and the SDK's lull reporter logs "Operation ongoing in bundle ... for
        PTransform{name=RunInference/BeamML_RunInference, state=process-msecs} for at least ...
        seconds without outputting or completing." with the stuck thread's stack (format string
        of Beam's worker_status.py, our values). The job is still running when exported. The
        GPU OOM is the cause; the stuck-processing warnings are folded under it. The
        combination of the two on one worker is ours (synthetic situation).''')
    cf = N.cfg(machine='n1-highmem-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=2, streaming=True,
               experiments=['no_use_multiple_sdk_containers', 'enable_streaming_engine'],
               image='us-central1-docker.pkg.dev/acme-ml-prod/dataflow/torch-stream:2.4-cu121',
               disk=50, steps=['ReadFrames/Read+Decode+' + STEP + '+WriteLabels'])
    j = c.job('frame-labels-stream', '2025-03-18T08:41:07Z', region='us-central1',
              zone='us-central1-b', python='3.11', beam='2.63.0')
    ready = N.bring_up(j, cf, steps=['ReadFrames/Read+Decode+' + STEP + '+WriteLabels'])
    w = j.w[0]
    j.wlog(ready + 25, w, 'Loaded model from gs://acme-ml-dataflow/models/vit-l16/model.pt',
           src='user-code', module='/opt/pipeline/handlers.py:52')
    tb = T.torch_oom_tb('3.11', OOM)
    t = ready + 110
    for attempt in range(3):
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (17 + attempt), tb), sev='ERROR',
               src='dify-599', module='apache_beam/runners/worker/sdk_worker.py', line=303,
               cite=OOM, mark='oom' if attempt == 0 else None,
               thread='Thread-%d' % (23 + attempt), step=STEP)
        t += 95.0
    base = T.sp('3.11')
    stack = T.py_stack('3.11', [
        (base + '/apache_beam/ml/inference/base.py', 1128, 'process',
         'return self._run_inference(batch, inference_args)'),
        (base + '/apache_beam/ml/inference/pytorch_inference.py', 155,
         'default_tensor_inference_fn', 'predictions = model(batched_tensors, **inference_args)'),
        (base + '/torch/nn/modules/module.py', 1527, '_call_impl',
         'return forward_call(*args, **kwargs)'),
        (base + '/torch/cuda/__init__.py', 954, 'synchronize',
         'return torch._C._cuda_synchronize()'),
    ])
    for k, secs in enumerate((301.84, 601.90, 902.13)):
        j.wlog(t + 60 + k * 300.0, w, T.lull_new('process_bundle-20', STEP, 'process-msecs',
                                                  secs, stack),
               sev='WARNING', src='beam-lull-py-new', mark='stuck' if k == 0 else None,
               module='apache_beam/runners/worker/worker_status.py', line=276,
               thread='lull_operation_logger',
               cite='Operation ongoing in bundle process_bundle-20 for PTransform{name='
                    'RunInference/BeamML_RunInference, state=process-msecs} for at least '
                    '%.2f seconds without outputting or completing.' % secs)
    c.output('export.json')
    c.fire('gpu-out-of-memory', marks=['oom'])
    c.fire('processing-stuck', marks=['stuck'], caused_by='gpu-out-of-memory',
           captures={'step': STEP, 'duration': '301.84 seconds', 'state': 'process-msecs'})
    c.not_fire('work-item-failed', 'multiple-processes-per-gpu', 'host-out-of-memory')
