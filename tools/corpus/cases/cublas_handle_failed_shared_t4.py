from corpuslib import noise as N, texts as T

STEP = 'Summarize'
STAGE = 'S01:ReadArticles/Read+Summarize+WriteSummaries/Write'
SP = T.sp('3.10')
CUBLAS = 'RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`'
SRC_CUBLAS = ('pytorch/pytorch aten/src/ATen/cuda/CublasHandlePool.cpp createCublasHandle and '
              'TORCH_CUDABLAS_CHECK ("CUDA error: <status> when calling `cublasCreate(handle)`"); '
              'Mukosame/AODA#9 (the error at F.linear, functional.py), pytorch/serve#1993 (running out of '
              'GPU memory)', 'V-other')
SRC_OK = ('a DoFn\'s own INFO line after loading its model on the GPU (synthetic)', 'I')


def build(c):
    c.describe('''
        cuBLAS cannot start on a shared GPU: a summarizer DoFn loads a 3B-parameter seq2seq model in
        float16 onto the one nvidia-tesla-t4 of an n1-standard-4 worker, with the default SDK
        processes (one per vCPU, no no_use_multiple_sdk_containers). Each process loads its own
        copy; the first ones log that they loaded (the healthy near miss), and the fourth, sdk-0-3,
        finds the GPU full at its first matrix product: "RuntimeError: CUDA error:
        CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`" at F.linear, four times,
        then the job fails. cublas-handle-failed fires (gpu-out-of-memory does not: the words name
        no out-of-memory).''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, steps=[STAGE])
    j = c.job('summarize-articles-t4', '2024-11-19T14:02:50Z', region='us-west1',
              zone='us-west1-b', python='3.10', beam='2.60.0', workers=1)
    ready = N.bring_up(j, cf)
    for i, sdk in enumerate(['sdk-0-0', 'sdk-0-1', 'sdk-0-2']):
        j.wlog(ready + 10 + 4 * i, j.w[0], 'Loaded summarizer (float16, 5.6 GB) on cuda:0', sev='INFO',
               src=SRC_OK, module='/app/summarize.py', line=52, thread='Thread-9', sdk=sdk, step=STEP)
    tb = T.user_tb('3.10', [
        '  File "/app/summarize.py", line 71, in process',
        '    ids = self.model.generate(**batch, max_new_tokens=128)',
        '  File "%s/torch/nn/modules/linear.py", line 125, in forward' % SP,
        '    return F.linear(input, self.weight, self.bias)',
    ], CUBLAS + " [while running '%s']" % STEP)
    t = ready + 40
    t = N.failed_attempts(j, t, j.w[0], tb, STEP, src=SRC_CUBLAS, cite=CUBLAS, gap=29.0, sdk='sdk-0-3',
                          mark='cublas')
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [j.w[0]] * 4)
    c.output('export.json')
    c.fire('cublas-handle-failed', marks=['cublas'], captures={'status': 'CUBLAS_STATUS_NOT_INITIALIZED'})
    c.fire('work-item-failed', marks=['wif'], caused_by='cublas-handle-failed')
    c.fire('workflow-failed', marks=['wif'], caused_by='cublas-handle-failed')
    c.not_fire('gpu-out-of-memory', 'multiple-processes-per-gpu', 'cuda-device-side-assert')
