from corpuslib import noise as N, texts as T

STEP = 'GenerateThumbnails'
STAGE = 'S01:ReadPrompts/Read+GenerateThumbnails+WriteImages/Write'
SP = T.sp('3.10')
SKEW = ("ImportError: cannot import name 'cached_download' from 'huggingface_hub' "
        "(%s/huggingface_hub/__init__.py)" % SP)
SRC_SKEW = ('CPython Python/ceval.c import_from ("cannot import name %R from %R (%S)"); the diffusers '
            '0.2x import "from huggingface_hub import cached_download, hf_hub_download, model_info" in '
            'diffusers/utils/dynamic_modules_utils.py; huggingface_hub 0.26.0 removed cached_download '
            '(Tencent-Hunyuan/Hunyuan3D-1#59, YanjieZe/3D-Diffusion-Policy#91 quote the error)', 'V-other')
SRC_FALLBACK = ('the pipeline\'s own WARNING after an optional import failed (synthetic): quotes the '
                'ImportError\'s message without raising it', 'I')


def build(c):
    c.describe('''
        Two packages in the image that do not fit: a thumbnail pipeline pins diffusers 0.21 but
        leaves huggingface_hub unpinned, so the image build resolves huggingface_hub 0.26, which no
        longer has cached_download. The DoFn's setup at /app/thumbs.py:23 imports diffusers, whose
        dynamic_modules_utils imports cached_download: "ImportError: cannot import name
        'cached_download' from 'huggingface_hub' (…/huggingface_hub/__init__.py)" four times, then
        the job fails. import-name-version-skew fires and names both. Near miss in the same export:
        the pipeline's own WARNING that an optional xFormers import failed and it fell back, which
        quotes a "cannot import name" message without raising it.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], image='europe-docker.pkg.dev/acme-ml/img/thumbs:7',
               steps=[STAGE])
    j = c.job('thumbnails-sd-l4', '2025-02-12T10:05:19Z', region='europe-west4', zone='europe-west4-b',
              python='3.10', beam='2.61.0', workers=1)
    ready = N.bring_up(j, cf)
    j.wlog(ready + 9, j.w[0], "Failed to import xformers, falling back to PyTorch SDPA attention: cannot "
           "import name 'memory_efficient_attention' from 'xformers.ops' (%s/xformers/ops/__init__.py)" % SP,
           sev='WARNING', src=SRC_FALLBACK, module='/app/thumbs.py', line=17, thread='Thread-9', step=STEP)
    tb = T.user_tb('3.10', [
        '  File "%s/apache_beam/runners/common.py", line 1562, in _invoke_setup' % SP,
        '    self.do_fn_invoker.invoke_setup()',
        '  File "/app/thumbs.py", line 23, in setup',
        '    from diffusers import StableDiffusionPipeline',
        '  File "%s/diffusers/__init__.py", line 5, in <module>' % SP,
        '    from .utils import (',
        '  File "%s/diffusers/utils/__init__.py", line 38, in <module>' % SP,
        '    from .dynamic_modules_utils import get_class_from_dynamic_module',
        '  File "%s/diffusers/utils/dynamic_modules_utils.py", line 28, in <module>' % SP,
        '    from huggingface_hub import cached_download, hf_hub_download, model_info',
    ], SKEW + " [while running '%s']" % STEP)
    N.failing_attempts(j, cf, j.w[0], ready + 20, tb, STEP, STAGE, SRC_SKEW, 'skew', 24.0)
    c.output('export.json')
    c.fire('import-name-version-skew', marks=['skew'],
           captures={'name': 'cached_download', 'module': 'huggingface_hub'})
    c.fire('work-item-failed', marks=['wif'], caused_by='import-name-version-skew')
    c.fire('workflow-failed', marks=['wif'], caused_by='import-name-version-skew')
    c.not_fire('system-library-missing', 'numpy-abi-mismatch', 'remote-code-package-missing')
