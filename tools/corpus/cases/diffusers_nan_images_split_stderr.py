from corpuslib import noise as N

STEP = 'RefineRenders'
STEP_META = 'WriteMetadata'
STEPS = ['S02:ReadDrafts/Read+RefineRenders+WriteRenders/Write+WriteMetadata/Write']

SRC_CAST = ('numpy (1.24+) RuntimeWarning "invalid value encountered in cast" raised at huggingface/diffusers '
            'src/diffusers/image_processor.py VaeImageProcessor.numpy_to_pil, images = (images * 255).round()'
            '.astype("uint8"), printed by Python\'s warnings module ("{file}:{line}: RuntimeWarning: …" then the '
            'source line) on stderr, which the docker log stores one entry per line; public copies in '
            'huggingface/diffusers#5960 and #6815, zai-org/CogView4#14; the line number 91 is ours', 'V-other')
SRC_PANDAS = ('the same numpy warning from pandas\' astype (pandas/core/dtypes/astype.py) in the metadata '
              'step, a NaN score column cast to int: a near miss outside diffusers (file line ours)', 'I')
SRC_TQDM = ('diffusers DiffusionPipeline.__call__ progress bar (tqdm on stderr), as public diffusers logs '
            'print it; counts and rates are ours', 'V-other')
SRC_CONFIG = ('huggingface/diffusers configuration_utils.py extract_init_dict: logger.warning(f"The config '
              'attributes {config_dict} were passed to {cls.__name__}, but are not expected and will be ignored. '
              'Please verify your {cls.config_name} configuration file."); the attribute is ours', 'V-code')
SRC_TEAM = ('application log lines of the pipeline\'s own DoFns (synthetic)', 'I')


def build(c):
    c.describe('''
        diffusers decoding NaN images that are written black (the diffusers-nan-images family of
        heldout-stacks-13's hs13-06, another variant): a furniture-catalogue job on Beam 2.58.0 refines
        draft renders with StableDiffusionXLImg2ImgPipeline (diffusers 0.27.2, numpy 1.26) in float16 on
        n1-highmem-8 workers with a T4. To save memory the DoFn loads the original stabilityai/sdxl-vae
        with force_upcast=False, so diffusers never upcasts the VAE to float32 before decoding; the SDXL
        VAE overflows in float16, and numpy warns once per SDK process "RuntimeWarning: invalid value
        encountered in cast" at diffusers/image_processor.py, its source line `images = (images *
        255).round().astype("uint8")` in the next docker entry (stderr split per line). Every refined
        render is black (the DoFn's own stats: mean_luma=0.0); the job succeeds. diffusers-nan-images
        fires (warning). Near misses: the same numpy warning from pandas in the metadata step (a NaN
        score cast to int), the config warning about an unexpected VAE attribute, tqdm progress bars on
        stderr; safety-checker-black-images and gpu-not-used stay quiet.''')
    cf = N.cfg(machine='n1-highmem-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2, max_workers=2,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS, disk=120,
               image='europe-west1-docker.pkg.dev/holmwood-studio/dataflow/refine-sdxl:0.27.2')
    j = c.job('catalogue-render-refine', '2024-11-27T13:40:05Z', region='europe-west1', zone='europe-west1-c',
              project='holmwood-studio', python='3.10', beam='2.58.0', workers=2)
    ready = N.bring_up(j, cf)
    marks = []
    last = ready
    for i, w in enumerate(j.w):
        t = ready + 18.0 + 4.4 * i
        j.wlog(t, w, 'Loading StableDiffusionXLImg2ImgPipeline stabilityai/stable-diffusion-xl-refiner-1.0 '
               '(float16) with VAE stabilityai/sdxl-vae (float16, force_upcast=False) on cuda:0', src=SRC_TEAM,
               module='/usr/local/lib/python3.10/site-packages/refine/dofn.py', line=52, step=STEP)
        j.docker(t + 3.2, w, "The config attributes {'use_quant_conv': True} were passed to AutoencoderKL, but "
                 'are not expected and will be ignored. Please verify your config.json configuration file.',
                 sev='ERROR', src=SRC_CONFIG)
        t += 25.0
        for k in range(12):
            t += 21.0 + 0.9 * ((k * 5 + i) % 4)
            j.docker(t - 0.8, w, '100%%|██████████| 12/12 [00:08<00:00,  %.2fit/s]' % (1.41 + 0.02 * (k % 3)),
                     sev='ERROR', src=SRC_TQDM)
            if k == 0:
                m = 'cast-%d' % i
                marks.append(m)
                j.docker_lines(t - 0.3, w, [
                    '/usr/local/lib/python3.10/site-packages/diffusers/image_processor.py:91: RuntimeWarning: '
                    'invalid value encountered in cast',
                    '  images = (images * 255).round().astype("uint8")',
                ], sev='ERROR', src=SRC_CAST, mark=m)
            j.wlog(t, w, 'refined batch %s-%02d: 4 renders, mean_luma=0.0, wrote gs://holmwood-renders/2024-11-27/'
                   % ('a' if i == 0 else 'b', k + 1), src=SRC_TEAM,
                   module='/usr/local/lib/python3.10/site-packages/refine/dofn.py', line=97, step=STEP)
        j.docker_lines(t + 6.0, w, [
            '/usr/local/lib/python3.10/site-packages/pandas/core/dtypes/astype.py:133: RuntimeWarning: invalid '
            'value encountered in cast',
            '  return arr.astype(dtype, copy=True)',
        ], sev='ERROR', src=SRC_PANDAS, mark='pandas' if i == 0 else None)
        j.wlog(t + 7.0, w, 'WriteMetadata: 48 rows written', src=SRC_TEAM,
               module='/usr/local/lib/python3.10/site-packages/refine/meta.py', line=40, step=STEP_META)
        last = max(last, t + 7.0)
    end = last + 140.0
    for w in j.w:
        N.sdk_shutdown(j, w, end - 40.0)
    N.teardown(j, cf, end, n=2)
    c.output('export.json')
    c.fire('diffusers-nan-images', marks=marks, captures={'file': 'image_processor.py'})
    c.not_fire('safety-checker-black-images', 'gpu-not-used', 'gpu-out-of-memory')
    c.no_unexplained()
