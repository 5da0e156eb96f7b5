from corpuslib import noise as N, texts as T

STEP = 'EmbedPages'
STAGE = 'S01:ReadPages/Read+EmbedPages+WriteEmbeddings/Write'
SP = T.sp('3.11')
OOR = ("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
       "OutOfResources: out of resource: shared memory, Required: 98304, Hardware limit: 65536. Reducing block sizes "
       "or `num_stages` may help.\n\n"
       "Set TORCH_LOGS=\"+dynamo\" and TORCHDYNAMO_VERBOSE=1 for more information\n\n\n"
       "You can suppress this exception and fall back to eager by setting:\n"
       "    import torch._dynamo\n"
       "    torch._dynamo.config.suppress_errors = True\n")
SRC_OOR = ('triton-lang/triton python/triton/runtime/errors.py OutOfResources ("out of resource: shared memory, '
           'Required: …, Hardware limit: …. Reducing block sizes or `num_stages` may help."), raised by '
           'compiler.py _init_handles, wrapped by torch/_dynamo BackendCompilerFailed ("backend=\'inductor\' raised:'
           '\\nOutOfResources: …", as pytorch/pytorch#139755 quotes it; FlexAttention on a 64 KiB GPU as in '
           'pytorch/pytorch#133254 and vllm-project/vllm#39018); frames composed', 'V-code')
SRC_AUTOTUNE = ('pytorch/pytorch torch/_inductor/select_algorithm.py: max-autotune logging a candidate it drops '
                '("W… select_algorithm.py:1517] [2/0] out of resource: shared memory, Required: …, Hardware limit: '
                '…" in facebookresearch/sam2#592); the compile goes on (values for a T4 composed)', 'V-other')


def build(c):
    c.describe('''
        A Triton kernel needs more shared memory than the T4 has (issue 40, torch.compile): a page-embedding
        DoFn compiles its ViT encoder, which uses FlexAttention, with torch.compile(mode="max-autotune") on
        T4 workers. While tuning the matmuls, Inductor drops candidates that do not fit and logs them as
        warnings in the container's stderr ("select_algorithm.py:1517] … out of resource: shared memory,
        Required: 131072, Hardware limit: 65536 …"): red herrings, the compile goes on. The FlexAttention
        kernel's default tiles need 98304 bytes, and Triton refuses it: "BackendCompilerFailed:
        backend='inductor' raised: OutOfResources: out of resource: shared memory, Required: 98304, Hardware
        limit: 65536". Four attempts fail; the job fails. triton-shared-memory-exceeded leads (limit 65536),
        its first fix names the A100 launch options; triton-gpu-too-old and torch-compile-toolchain-missing
        stay quiet.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE])
    j = c.job('docs-page-embeddings-vit', '2026-06-02T09:41:15Z', region='europe-west4', zone='europe-west4-b',
              python='3.11', beam='2.63.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 35
    j.docker_lines(t, w, [
        'W0602 09:45:31.412000 412 site-packages/torch/_inductor/select_algorithm.py:1517] [0/0] out of resource: '
        'shared memory, Required: 131072, Hardware limit: 65536. Reducing block sizes or `num_stages` may help.',
    ], src=SRC_AUTOTUNE)
    j.docker_lines(t + 0.4, w, [
        'W0602 09:45:31.806000 412 site-packages/torch/_inductor/select_algorithm.py:1517] [0/0] out of resource: '
        'shared memory, Required: 98304, Hardware limit: 65536. Reducing block sizes or `num_stages` may help.',
    ], src=SRC_AUTOTUNE)
    tb = T.user_tb('3.11', [
        '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
        '  File "/app/embed_pages.py", line 88, in process',
        '    emb = self._encoder(pixels)',
        '  File "%s/torch/_dynamo/eval_frame.py", line 465, in _fn' % SP,
        '    return fn(*args, **kwargs)',
        '  File "%s/torch/_dynamo/convert_frame.py", line 1269, in __call__' % SP,
        '    return self._torchdynamo_orig_callable(',
        '  File "%s/torch/_dynamo/output_graph.py", line 1513, in _call_user_compiler' % SP,
        '    raise BackendCompilerFailed(self.compiler_fn, e) from e',
    ], OOR + "[while running '%s']" % STEP)
    t = N.failed_attempts(j, t + 40, w, tb, STEP, src=SRC_OOR,
                          cite='OutOfResources: out of resource: shared memory, Required: 98304, Hardware limit: 65536',
                          gap=75.0, mark='oor',
                          msg_cite="Error message from worker: … backend='inductor' raised: OutOfResources: out of "
                                   "resource: shared memory, Required: 98304, Hardware limit: 65536 …")
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('triton-shared-memory-exceeded', marks=['oor', 'oor-msg'], captures={'required': '98304', 'limit': '65536'})
    c.fire('work-item-failed', marks=['wif'], caused_by='triton-shared-memory-exceeded')
    c.fire('workflow-failed', marks=['wif'], caused_by='triton-shared-memory-exceeded')
    c.not_fire('triton-gpu-too-old', 'torch-compile-toolchain-missing', 'gpu-out-of-memory', 'nccl-shared-memory')
    c.no_unexplained()
