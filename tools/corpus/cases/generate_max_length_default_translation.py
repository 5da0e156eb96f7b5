from corpuslib import noise as N

STEP = 'TranslateTickets/RunInference/BeamML_RunInference'
STEP_TITLES = 'SuggestTitles/RunInference/BeamML_RunInference'
STEPS = ['S01:ReadTickets/Read+Clean+TranslateTickets/RunInference/BeamML_RunInference+SuggestTitles/RunInference/'
         'BeamML_RunInference+WriteTickets/Write']
TF = '/usr/local/lib/python3.11/site-packages/transformers'

SRC_DEFAULT = ('huggingface/transformers src/transformers/generation/utils.py _validate_generated_length (4.32 on, only '
               'when generation_config.max_length == 20): warnings.warn("Using the model-agnostic default `max_length` '
               '(={…}) to control the generation length. We recommend setting `max_new_tokens` to control the maximum '
               'length of the generation.", UserWarning), printed by the warnings module with its source line, one '
               'docker entry per stderr line (apache/beam PR #33317); the line number is composed for 4.47.1 '
               '(a 4.38 write-up shows utils.py:1178)', 'V-code')
SRC_CHECK = ('huggingface/transformers src/transformers/pipelines/text2text_generation.py TranslationPipeline.check_inputs: '
             'logger.warning(f"Your input_length: {input_length} is bigger than 0.9 * max_length: {max_length}. You '
             'might consider increasing your max_length manually, e.g. translator(\'...\', max_length=400)"), on '
             'stderr through transformers\' default handler; the input lengths are composed', 'V-code')
SRC_BOTH = ('huggingface/transformers src/transformers/generation/utils.py _prepare_generated_length: logger.warning('
            '"Both `max_new_tokens` (={…}) and `max_length`(={…}) seem to have been set. `max_new_tokens` will take '
            'precedence. Please refer to the documentation for more information. '
            '(https://huggingface.co/docs/transformers/main/en/main_classes/text_generation)"): a near miss (the '
            'title step sets max_new_tokens)', 'V-code')
SRC_SEQ = ('huggingface/transformers src/transformers/pipelines/base.py Pipeline.__call__: warnings.warn("You seem to '
           'be using the pipelines sequentially on GPU. In order to maximize efficiency please use a dataset", '
           'UserWarning) after ten calls on a CUDA device, as public logs print it; harmless advice; line number '
           'composed', 'V-code')
SRC_DEVICE = ('huggingface/transformers pipelines: "Device set to use cuda:0" when a pipeline is created on the GPU '
              '(4.47-era output in public notebooks)', 'V-other')
SRC_TEAM = ('application log lines of the pipeline\'s own DoFns (synthetic)', 'I')


def build(c):
    c.describe('''
        Hugging Face generation cut at the model-agnostic default max_length of 20 (the max_length family,
        the pipeline() variant): a nightly job translates German support tickets to English with Beam's
        HuggingFacePipelineModelHandler (task "translation", a fine-tuned mT5-small whose saved
        generation_config has no length) and inference_args={"num_beams": 4}, on two n1-standard-8 workers
        with a T4 each, transformers 4.47.1. generate() falls back to max_length=20 and says so once per
        SDK process on stderr ("…/transformers/generation/utils.py:1375: UserWarning: Using the
        model-agnostic default `max_length` (=20) to control the generation length. We recommend setting
        `max_new_tokens` …", split one line per docker entry), and TranslationPipeline adds "Your
        input_length: 46 is bigger than 0.9 * max_length: 20" for long tickets. Every translation stops at
        20 tokens; the job succeeds and writes them. generate-max-length-default fires (warning) on the
        UserWarning and on the pipeline's check. Near misses in the same export: the title step passes
        max_new_tokens=24 beside max_length=64 and transformers logs "Both `max_new_tokens` (=24) and
        `max_length`(=64) seem to have been set …" (max_new_tokens wins, nothing is cut at 20); the
        pipeline's "You seem to be using the pipelines sequentially on GPU" advice; "Device set to use
        cuda:0"; a BigQuery write retried once; the benign boot lines of every worker.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2, max_workers=2,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS, disk=100,
               image='europe-west3-docker.pkg.dev/nordwind-support/ml/ticket-translate:4.47.1-cu121')
    j = c.job('support-tickets-translate-nightly', '2025-06-17T01:15:09Z', region='europe-west3',
              zone='europe-west3-b', project='nordwind-support', python='3.11', beam='2.62.0', workers=2)
    ready = N.bring_up(j, cf)

    last = ready
    for i, w in enumerate(j.w):
        first = i == 0
        t = ready + 18.0 + 4.4 * i
        j.wlog(t, w, 'Loading translation pipeline nordwind-support/mt5-small-tickets-de-en (revision 3f2a9c1) '
               'on cuda:0', src=SRC_TEAM, module='/app/tickets/handlers.py', line=52, thread='Thread-4', step=STEP)
        j.docker(t + 7.5, w, 'Device set to use cuda:0', sev='ERROR', src=SRC_DEVICE)
        j.docker(t + 9.0, w, 'Device set to use cuda:0', sev='ERROR', src=SRC_DEVICE)
        j.docker_lines(t + 12.2, w, [
            '%s/generation/utils.py:1375: UserWarning: Using the model-agnostic default `max_length` (=20) to '
            'control the generation length. We recommend setting `max_new_tokens` to control the maximum length '
            'of the generation.' % TF,
            '  warnings.warn(',
        ], src=SRC_DEFAULT, mark='default' if first else 'default-%d' % i,
            cite='…/transformers/generation/utils.py:1375: UserWarning: Using the model-agnostic default '
                 '`max_length` (=20) to control the generation length. …')
        for k, n in enumerate([46, 31, 58] if first else [39, 44]):
            j.docker(t + 12.9 + 3.1 * k, w, "Your input_length: %d is bigger than 0.9 * max_length: 20. You might "
                     "consider increasing your max_length manually, e.g. translator('...', max_length=400)" % n,
                     sev='ERROR', src=SRC_CHECK, mark='check-%d-%d' % (i, k))
        j.docker(t + 14.0, w, 'Both `max_new_tokens` (=24) and `max_length`(=64) seem to have been set. '
                 '`max_new_tokens` will take precedence. Please refer to the documentation for more information. '
                 '(https://huggingface.co/docs/transformers/main/en/main_classes/text_generation)',
                 sev='ERROR', src=SRC_BOTH, mark='both' if first else None)
        j.docker_lines(t + 61.0, w, [
            '%s/pipelines/base.py:1281: UserWarning: You seem to be using the pipelines sequentially on GPU. In '
            'order to maximize efficiency please use a dataset' % TF,
            '  warnings.warn(',
        ], src=SRC_SEQ, mark='seq' if first else None)
        if first:
            j.wlog(t + 95.0, w, 'BigQuery write to nordwind-support:tickets.translated_en failed (503 Service '
                   'Unavailable: Visibility check was unavailable); retrying in 1.0 s', sev='WARNING', src=SRC_TEAM,
                   module='/app/tickets/sinks.py', line=63, thread='Thread-4', step=STEP_TITLES)
        for k in range(5):
            t += 540.0 + 31.0 * k + 17.0 * i
            j.wlog(t, w, 'translated batch of 32 tickets in %.1f s; output tokens mean %.1f, max 20; titles mean '
                   '%.1f tokens' % (2.6 + 0.1 * k, 19.1 + 0.1 * (k % 3), 9.4 + 0.3 * k), src=SRC_TEAM,
                   module='/app/tickets/handlers.py', line=97, thread='Thread-4', step=STEP)
        last = max(last, t)

    end = last + 150.0
    for w in j.w:
        N.sdk_shutdown(j, w, end - 40.0)
    N.teardown(j, cf, end, n=2)
    c.output('export.json')
    c.fire('generate-max-length-default', marks=['default', 'default-1', 'check-0-0', 'check-0-1', 'check-0-2',
                                                 'check-1-0', 'check-1-1'])
    c.not_fire('gpu-not-used', 'llm-request-token-limit', 'tokenizer-pad-token-missing', 'processing-stuck')
    c.no_unexplained()
