from corpuslib import noise as N, texts as T

STEP = 'CaptionImages'
STEPS = ['S01:ReadImages/Read+CaptionImages+WriteCaptions/Write']
SP = T.sp('3.11')
FA = ('ImportError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: the '
      'package flash_attn seems to be not installed. Please refer to the documentation of '
      'https://huggingface.co/docs/transformers/perf_infer_gpu_one#flashattention-2 to install Flash Attention 2.')
SRC_FA = ('huggingface/transformers modeling_utils.py _flash_attn_2_can_dispatch (4.48 on; _check_and_enable_flash_attn_2 '
          'from 4.36): "FlashAttention2 has been toggled on, but it cannot be used due to the following error: the '
          'package flash_attn seems to be not installed. …", as QwenLM/Qwen3-TTS#372 and public model-validation '
          'notes quote it; the frames composed from transformers 4.5x', 'V-code')
SRC_FALLBACK = ('a script that tries flash_attention_2 and falls back to eager by itself (public DotsOCR notes '
                'print "FlashAttention2 not available, using eager attention"): a near miss', 'V-other')
SRC_SDPA = ('transformers\' "Sliding Window Attention is enabled but not implemented for `sdpa`; '
            'unexpected results may be encountered." (Qwen2 models, a public warning): a near miss', 'V-other')


def build(c):
    c.describe('''
        FlashAttention 2 requested without the package (transformers): an image-captioning DoFn loads a
        Qwen2-VL model with attn_implementation="flash_attention_2" in setup() on a g2-standard-4 worker
        with an L4 (Ampere-class, compute capability 8.9, so FlashAttention 2 would run). The custom image
        installs torch and transformers but not flash-attn, so from_pretrained raises "ImportError:
        FlashAttention2 has been toggled on, but it cannot be used due to the following error: the package
        flash_attn seems to be not installed." Four attempts, the job fails. flash-attn-not-installed leads,
        its first fix installing flash-attn (the GPU supports it), then attn_implementation="sdpa". Red
        herrings: a side step that falls back to eager attention by itself with a WARNING, and a healthy
        transformers warning from the text model; the GPU is not too old (no attention-kernel-gpu-too-old)
        and flash-attn is not a broken build (no cuda-extension-abi-mismatch).''')
    cf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS,
               image='us-docker.pkg.dev/acme-catalog/beam/captioner:2026.09')
    j = c.job('catalog-captions-l4', '2026-09-08T07:02:44Z', region='us-central1',
              zone='us-central1-a', python='3.11', beam='2.67.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 10
    j.wlog(t, j.w[0], 'FlashAttention2 not available, using eager attention', sev='WARNING', src=SRC_FALLBACK,
           module='/app/rerank_text.py', line=27)
    j.wlog(t + 3, j.w[0], 'Sliding Window Attention is enabled but not implemented for `sdpa`; unexpected results '
           'may be encountered.', sev='WARNING', src=SRC_SDPA,
           module='%s/transformers/models/qwen2/modeling_qwen2.py' % SP, line=394)
    t += 25
    tb = T.user_tb('3.11', [
        '  File "%s/apache_beam/runners/common.py", line 1562, in _invoke_setup' % SP,
        '    self.do_fn_invoker.invoke_setup()',
        '  File "/app/caption.py", line 38, in setup',
        '    self._model = Qwen2VLForConditionalGeneration.from_pretrained(',
        '  File "%s/transformers/modeling_utils.py", line 311, in _wrapper' % SP,
        '    return func(*args, **kwargs)',
        '  File "%s/transformers/modeling_utils.py", line 4753, in from_pretrained' % SP,
        '    model = cls(config, *model_args, **model_kwargs)',
        '  File "%s/transformers/modeling_utils.py", line 2277, in _check_and_adjust_attn_implementation' % SP,
        '    applicable_attn_implementation = self.get_correct_attn_implementation(',
        '  File "%s/transformers/modeling_utils.py", line 2423, in _flash_attn_2_can_dispatch' % SP,
        '    raise ImportError(f"{preface} the package flash_attn seems to be not installed. {install_message}")',
    ], FA + " [while running '%s']" % STEP)
    t = N.failed_attempts(j, t, j.w[0], tb, STEP, src=SRC_FA,
                          cite='ImportError: FlashAttention2 has been toggled on, … the package flash_attn seems to be not installed.',
                          gap=50.0, mark='fa',
                          msg_cite='Error message from worker: … the package flash_attn seems to be not installed.')
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json')
    c.fire('flash-attn-not-installed', marks=['fa', 'fa-msg'])
    c.fire('work-item-failed', marks=['wif'], caused_by='flash-attn-not-installed')
    c.fire('workflow-failed', marks=['wif'], caused_by='flash-attn-not-installed')
    c.not_fire('attention-kernel-gpu-too-old', 'cuda-extension-abi-mismatch', 'remote-code-package-missing',
               'import-name-version-skew')
