from corpuslib import noise as N

STEP = 'RenderPoses'
STEP_PLATES = 'RenderPlates'
STEPS = ['S01:ReadPoseSheets/Read+Reshuffle+RenderPoses+RenderPlates+WriteManifest/Write']
MODEL_DIR = '/opt/models/sd15-figure'
NSFW = ('Potential NSFW content was detected in one or more images. A black image will be returned instead. Try '
        'again with a different prompt and/or seed.')

SRC_NSFW = ('huggingface/diffusers src/diffusers/pipelines/stable_diffusion/safety_checker.py '
            'StableDiffusionSafetyChecker.forward (0.31.0): flagged images zeroed ("# black image"), then '
            'logger.warning("Potential NSFW content was detected in one or more images. A black image will be returned '
            'instead." " Try again with a different prompt and/or seed.") once per pipeline call with a flagged image '
            '(StableDiffusionControlNetPipeline.run_safety_checker), on stderr through diffusers\' default handler; '
            'seen verbatim in huggingface/diffusers#4906 and ActiveVisionLab/gaussctrl#11 (repeated per call)',
            'V-code')
SRC_DISABLED = ('huggingface/diffusers pipelines/stable_diffusion/pipeline_stable_diffusion.py __init__ (0.31.0): '
                'logger.warning(f"You have disabled the safety checker for {self.__class__} by passing '
                '`safety_checker=None`. Ensure that you abide to the conditions of the Stable Diffusion license …"), '
                'the plates pipeline built without a checker: the other warning, a near miss', 'V-code')
SRC_KWARGS = ('huggingface/diffusers pipelines/pipeline_utils.py DiffusionPipeline.from_pretrained (0.31.0): '
              'logger.warning(f"Keyword arguments {unused_kwargs} are not expected by {pipeline_class.__name__} and '
              'will be ignored."); the keyword is ours', 'V-code')
SRC_CONFIG = ('huggingface/diffusers configuration_utils.py extract_init_dict (0.31.0): logger.warning(f"The config '
              'attributes {config_dict} were passed to {cls.__name__}, but are not expected and will be ignored. '
              'Please verify your {cls.config_name} configuration file."); the attributes are ours', 'V-code')
SRC_TQDM = ('diffusers DiffusionPipeline.from_pretrained and __call__ progress bars (tqdm on stderr), as public '
            'diffusers logs print them; counts and rates are ours', 'V-other')
SRC_TEAM = ('application log lines of the pipeline\'s own DoFns (synthetic)', 'I')


def build(c):
    c.describe('''
        diffusers' safety checker blacking out renders in a job that succeeds (the safety-checker family,
        diffusers 0.31.0): an art-education app renders figure-drawing pose references with a
        StableDiffusionControlNetPipeline (SD 1.5 fine-tune plus the openpose ControlNet, float16, four images
        per call) in a DoFn on two g2-standard-8 workers with an L4 each. The fine-tune was saved with the
        standard StableDiffusionSafetyChecker; its concept scores trip on many figure poses, so diffusers
        replaces each flagged image with an all-black one and logs "Potential NSFW content was detected in one
        or more images. A black image will be returned instead. Try again with a different prompt and/or
        seed." once per flagged call: sixteen times across the two workers. The DoFn writes output.images
        without reading nsfw_content_detected; its own lines show the 1.7 KiB black PNGs beside ~500 KiB
        renders, and the job ends with "128 images written, 0 failed". safety-checker-black-images fires
        (warning) on all sixteen warnings. Red herrings: the background-plates pipeline, built with
        safety_checker=None, logs diffusers' other warning "You have disabled the safety checker for <class
        '…StableDiffusionPipeline'> by passing `safety_checker=None` …"; the DoFn's own summary naming
        safety_checker=StableDiffusionSafetyChecker; "Keyword arguments {'offload_state_dict': False} are not
        expected by StableDiffusionControlNetPipeline and will be ignored."; the ControlNet config's unexpected
        attributes; tqdm progress bars on stderr; the benign boot lines of every worker.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=2, max_workers=2,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS, disk=150,
               image='europe-west4-docker.pkg.dev/sketchwise-prod/dataflow/pose-renders:0.31.0-cu124')
    j = c.job('pose-reference-renders', '2025-11-18T22:05:11Z', region='europe-west4', zone='europe-west4-b',
              project='sketchwise-prod', python='3.11', beam='2.62.0', workers=2)
    ready = N.bring_up(j, cf)

    marks = []
    last = ready
    flagged = [[0, 2, 3, 5, 7, 8, 10, 13, 15], [1, 2, 4, 6, 9, 11, 14]]
    for i, w in enumerate(j.w):
        first = i == 0
        t = ready + 21.0 + 6.1 * i
        j.wlog(t, w, 'Loading StableDiffusionControlNetPipeline from %s with lllyasviel/control_v11p_sd15_openpose '
               '(float16) on cuda:0' % MODEL_DIR, src=SRC_TEAM, module='/app/poses/render.py', line=47,
               thread='Thread-4', step=STEP)
        j.docker(t + 0.8, w, "Keyword arguments {'offload_state_dict': False} are not expected by "
                 'StableDiffusionControlNetPipeline and will be ignored.', sev='ERROR', src=SRC_KWARGS,
                 mark='kwargs' if first else None)
        j.docker(t + 2.3, w, "The config attributes {'center_input_sample': False, 'out_channels': 4} were passed to "
                 'ControlNetModel, but are not expected and will be ignored. Please verify your config.json '
                 'configuration file.', sev='ERROR', src=SRC_CONFIG)
        j.docker(t + 9.7, w, 'Loading pipeline components...: 100%|██████████| 6/6 [00:07<00:00,  1.21s/it]',
                 sev='ERROR', src=SRC_TQDM)
        j.wlog(t + 10.4, w, 'pipeline ready: safety_checker=StableDiffusionSafetyChecker, '
               'requires_safety_checker=True, scheduler=UniPCMultistepScheduler, dtype=torch.float16',
               src=SRC_TEAM, module='/app/poses/render.py', line=66, thread='Thread-4', step=STEP,
               mark='summary' if first else None)
        j.docker(t + 12.0, w, "You have disabled the safety checker for <class 'diffusers.pipelines.stable_diffusion."
                 "pipeline_stable_diffusion.StableDiffusionPipeline'> by passing `safety_checker=None`. Ensure that "
                 'you abide to the conditions of the Stable Diffusion license and do not expose unfiltered results in '
                 'services or applications open to the public. Both the diffusers team and Hugging Face strongly '
                 'recommend to keep the safety filter enabled in all public facing circumstances, disabling it only '
                 'for use-cases that involve analyzing network behavior or auditing its results. For more '
                 'information, please have a look at https://github.com/huggingface/diffusers/pull/254 .',
                 sev='ERROR', src=SRC_DISABLED, mark='disabled' if first else None)
        t += 30.0
        for k in range(16):
            t += 38.0 + 1.3 * ((k * 7 + i * 3) % 5)
            if k % 5 == 0:
                j.docker(t - 4.1, w, '100%%|██████████| 30/30 [00:03<00:00,  %.2fit/s]' % (8.31 + 0.07 * (k % 3)),
                         sev='ERROR', src=SRC_TQDM)
            if k in flagged[i]:
                m = 'nsfw-%d-%d' % (i, k)
                if k in flagged[i][:2]:
                    # the report keeps the earliest copies of a repeated line (and the last two): the
                    # labels name the first two of each worker, the count says sixteen
                    marks.append(m)
                j.docker(t, w, NSFW, sev='ERROR', src=SRC_NSFW, mark=m)
                sizes = [1.7 if (k + n + i) % 3 == 0 else 480.0 + 9.7 * ((k + n) % 7) for n in range(4)]
                if all(s > 2 for s in sizes):
                    sizes[k % 4] = 1.7
            else:
                sizes = [480.0 + 9.7 * ((k + n) % 7) for n in range(4)]
            j.wlog(t + 0.9, w, 'uploaded pose sheet %s-%03d: 4 images to gs://sketchwise-pose-refs/2025-11-18/, sizes '
                   'KiB: %s' % ('a' if first else 'b', k + 1, ', '.join('%.1f' % s for s in sizes)),
                   src=SRC_TEAM, module='/app/poses/render.py', line=118, thread='Thread-4', step=STEP)
        j.wlog(t + 12.0, w, 'RenderPlates: 24 background plates written', src=SRC_TEAM,
               module='/app/poses/plates.py', line=71, thread='Thread-4', step=STEP_PLATES)
        last = max(last, t + 12.0)

    j.wlog(last + 20.0, j.w[0], 'RenderPoses done: 128 images written, 0 failed', src=SRC_TEAM,
           module='/app/poses/render.py', line=140, thread='Thread-4', step=STEP)
    end = last + 150.0
    for w in j.w:
        N.sdk_shutdown(j, w, end - 40.0)
    N.teardown(j, cf, end, n=2)
    c.output('export.json')
    c.fire('safety-checker-black-images', marks=marks, captures={'flagged': 'NSFW'})
    c.not_fire('gpu-not-used', 'model-head-randomly-initialized', 'gpu-out-of-memory', 'processing-stuck')
    c.no_unexplained()
