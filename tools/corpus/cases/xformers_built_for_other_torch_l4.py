from corpuslib import noise as N, texts as T

STEP = 'Inpaint'
STEPS = ['S01:ReadMasks/Read+Inpaint+WriteImages/Write']
SP = T.sp('3.11')
REQ = '/var/opt/google/staged/requirements.txt'
NOOP = ("NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
        "     query       : shape=(1, 2, 1, 40) (torch.float32)\n"
        "     key         : shape=(1, 2, 1, 40) (torch.float32)\n"
        "     value       : shape=(1, 2, 1, 40) (torch.float32)\n"
        "     attn_bias   : <class 'NoneType'>\n"
        "     p           : 0.0\n"
        "`fa3F@0.0.0` is not supported because:\n"
        "    requires device with capability > (9, 0) but your GPU has capability (8, 9) (too old)\n"
        "    dtype=torch.float32 (supported: {torch.float16, torch.bfloat16})\n"
        "    operator wasn't built - see `python -m xformers.info` for more info\n"
        "`fa2F@0.0.0` is not supported because:\n"
        "    xFormers wasn't build with CUDA support\n"
        "    dtype=torch.float32 (supported: {torch.float16, torch.bfloat16})\n"
        "    operator wasn't built - see `python -m xformers.info` for more info\n"
        "`cutlassF-pt` is not supported because:\n"
        "    xFormers wasn't build with CUDA support")
SRC_NOOP = ('facebookresearch/xformers xformers/ops/fmha/dispatch.py _run_priority_list ("No operator found for '
            '`{name}` with inputs:" and "`{op.NAME}` is not supported because:") and ops/fmha/common.py '
            'not_supported_reasons at v0.0.28.post3 ("xFormers wasn\'t build with CUDA support", "requires device '
            'with capability > (9, 0) … (too old)" of fa3F, "operator wasn\'t built - see `python -m xformers.info` '
            'for more info"); the shape as yufu-wang/PromptHMR#4 and kijai/ComfyUI-DepthAnythingV2#27 show it; '
            'diffusers attention_processor.py probes with a float32 q of shape (1, 2, 40) (bmaltais/kohya_ss#1651 '
            'frames); the frame line numbers composed', 'V-code')
SRC_WARN = ('facebookresearch/xformers xformers/_cpp_lib.py xFormersInvalidLibException, logged "WARNING[XFORMERS]: '
            '…" (facebookresearch/xformers#982, yangjianxin1/Firefly#258); versions adapted', 'V-code')
SRC_PIP = ('pip\'s install output at the SDK container\'s start, standard pip wording; the package set composed',
           'V-code')
SRC_INFO = ('a pipeline\'s own INFO line (composed)', 'I')


def build(c):
    c.describe('''
        xFormers built for another torch (the xFormers build-mismatch family), on an L4: the custom image
        pairs torch 2.5.1+cu124 with the xformers 0.0.28.post3 wheel built for it. The job's requirements
        file pins torch==2.6.0 (bumped for another service), so pip at worker start replaces torch;
        xFormers' kernels no longer load, which xFormers reports only as a WARNING at import ("xFormers can't
        load C++/CUDA extensions. xFormers was built for: PyTorch 2.5.1+cu124 with CUDA 1204 (you have
        2.6.0+cu124)"). The DoFn's setup() calls pipe.enable_xformers_memory_efficient_attention(); diffusers'
        probe finds no operator ("NotImplementedError: No operator found for
        `memory_efficient_attention_forward` with inputs: … xFormers wasn't build with CUDA support") on
        each of four attempts. xformers-build-mismatch leads. Red herrings in the same message: fa3F's
        "requires device with capability > (9, 0) but your GPU has capability (8, 9) (too old)" (the L4 is
        an Ada GPU, FlashAttention 3 is optional) and the float32 probe dtype, so attention-kernel-gpu-too-old
        stays quiet; the warning has no "undefined symbol" (cuda-extension-abi-mismatch) and torch is a CUDA
        build (torch-cpu-only-build).''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS, disk=120,
               image='europe-west4-docker.pkg.dev/retail-vis/images/sd-inpaint:torch2.5.1-xf0.0.28',
               extra_options={'requirements_file': 'requirements.txt'})
    j = c.job('catalog-inpaint-backfill', '2025-03-04T09:20:31Z', region='europe-west4',
              zone='europe-west4-a', python='3.11', beam='2.62.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 3
    for k, line in enumerate([
            'Collecting torch==2.6.0 (from -r %s (line 1))' % REQ,
            'Installing collected packages: triton, nvidia-cusparselt-cu12, torch',
            '  Attempting uninstall: torch',
            '    Found existing installation: torch 2.5.1',
            '    Uninstalling torch-2.5.1:',
            '      Successfully uninstalled torch-2.5.1',
            'Successfully installed nvidia-cusparselt-cu12-0.6.2 torch-2.6.0 triton-3.2.0']):
        j.docker(t + k * 0.5, w, line, src=SRC_PIP, mark='pip' if k == 6 else None)
    t += 20
    j.wlog(t, w, "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
           "    PyTorch 2.5.1+cu124 with CUDA 1204 (you have 2.6.0+cu124)\n"
           "    Python  3.11.10 (you have 3.11.10)\n"
           "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)\n"
           "  Memory-efficient attention, SwiGLU, sparse and more won't be available.\n"
           "  Set XFORMERS_MORE_DETAILS=1 for more details", sev='WARNING', src=SRC_WARN, mark='warn',
           module='xformers/_cpp_lib.py', line=148)
    j.wlog(t + 2, w, 'Inpaint.setup: loading stable-diffusion-2-inpainting from /models/sd2-inpaint (fp16)',
           src=SRC_INFO, module='/app/inpaint.py', line=51)
    tb = T.augmented_tb('3.11', [
        '  File "/app/inpaint.py", line 58, in setup',
        '    self._pipe.enable_xformers_memory_efficient_attention()',
        '  File "%s/diffusers/pipelines/pipeline_utils.py", line 1697, in enable_xformers_memory_efficient_attention' % SP,
        '    self.set_use_memory_efficient_attention_xformers(True, attention_op)',
        '  File "%s/diffusers/pipelines/pipeline_utils.py", line 1723, in set_use_memory_efficient_attention_xformers' % SP,
        '    fn_recursive_set_mem_eff(module)',
        '  File "%s/diffusers/models/attention_processor.py", line 398, in set_use_memory_efficient_attention_xformers' % SP,
        '    raise e',
        '  File "%s/diffusers/models/attention_processor.py", line 392, in set_use_memory_efficient_attention_xformers' % SP,
        '    _ = xformers.ops.memory_efficient_attention(q, q, q)',
        '  File "%s/xformers/ops/fmha/__init__.py", line 306, in memory_efficient_attention' % SP,
        '    return _memory_efficient_attention(',
        '  File "%s/xformers/ops/fmha/__init__.py", line 467, in _memory_efficient_attention' % SP,
        '    return _memory_efficient_attention_forward(',
        '  File "%s/xformers/ops/fmha/__init__.py", line 486, in _memory_efficient_attention_forward' % SP,
        '    op = _dispatch_fw(inp, False)',
        '  File "%s/xformers/ops/fmha/dispatch.py", line 135, in _dispatch_fw' % SP,
        '    return _run_priority_list(',
        '  File "%s/xformers/ops/fmha/dispatch.py", line 76, in _run_priority_list' % SP,
        '    raise NotImplementedError(msg)',
    ], NOOP, STEP)
    t = N.failed_attempts(j, t + 6, w, tb, STEP, src=SRC_NOOP,
                          cite='NotImplementedError: No operator found for `memory_efficient_attention_forward` '
                               'with inputs: … xFormers wasn\'t build with CUDA support',
                          gap=48.0, mark='noop',
                          msg_cite='Error message from worker: … No operator found for '
                                   '`memory_efficient_attention_forward` …')
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [w] * 4)
    c.output('export.json')
    c.fire('xformers-build-mismatch', marks=['noop', 'noop-msg'], captures={'op': 'memory_efficient_attention_forward'})
    c.fire('work-item-failed', marks=['wif'], caused_by='xformers-build-mismatch')
    c.fire('workflow-failed', marks=['wif'], caused_by='xformers-build-mismatch')
    c.not_fire('attention-kernel-gpu-too-old', 'cuda-extension-abi-mismatch', 'torch-cpu-only-build',
               'gpu-driver-missing', 'bf16-unsupported-gpu')
