from corpuslib import noise as N, texts as T

EXC = ('RuntimeError: CUDA error: no kernel image is available for execution on the device\n'
       'CUDA kernel errors might be asynchronously reported at some other API call, so the '
       'stacktrace below might be incorrect.\nFor debugging consider passing '
       'CUDA_LAUNCH_BLOCKING=1.\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side '
       'assertions.')


def build(c):
    c.describe('''
        A wheel built without kernels for the T4's compute capability (7.5) - e.g. an AWQ
        quantised model whose kernels target sm_80+: "RuntimeError: CUDA error: no kernel image is
        available for execution on the device" with PyTorch's follow-up lines (real, AutoAWQ#584 on
        a Tesla T4, outside Dataflow). The fix is a GPU with a supported architecture (L4/A100)
        or a build for sm_75.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver='latest', num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='us-docker.pkg.dev/support-llm-eval/beam/awq-judge:0.2', disk=150)
    j = c.job('llm-judge-awq-t4', '2024-08-13T12:00:03Z', region='us-central1',
              zone='us-central1-b', project='support-llm-eval', python='3.10', beam='2.58.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    tb = T.user_tb('3.10', [
        '  File "/opt/pipeline/judge.py", line 66, in process',
        '    out = self._model.generate(**inputs, max_new_tokens=256)',
        '  File "/usr/local/lib/python3.10/site-packages/awq/models/base.py", line 111, in '
        'generate',
        '    return self.model.generate(*args, **kwargs)'], EXC)
    j.wlog(ready + 95, w, 'Error processing instruction process_bundle-2. Original traceback is',
           exception=tb, sev='ERROR', src='autoawq-584',
           cite='RuntimeError: CUDA error: no kernel image is available for execution on the device',
           module='apache_beam/runners/worker/sdk_worker.py', line=303, mark='arch',
           thread='Thread-9', step='Judge')
    c.output('export.json')
    c.fire('cuda-arch-unsupported', marks=['arch'])
