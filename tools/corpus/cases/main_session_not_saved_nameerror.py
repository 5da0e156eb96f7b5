from corpuslib import noise as N, texts as T

STEP = 'ParseRequests'
STAGE = 'S02:ReadRequests/Read+ParseRequests+Score/BeamML_RunInference+WriteScores/Write'
SP = T.sp('3.10')
EXC = "NameError: name 'json' is not defined"
SRC_NAME = ('python/cpython Python/ceval.c NAME_ERROR_MSG ("name \'%.200s\' is not defined"), re-raised by '
            'apache_beam/runners/common.py _reraise_augmented with " [while running \'STEP\']" as in '
            'google-research/tapas#121 ("NameError: name \'beam\' is not defined [while running \'Parse\']") and '
            'google/weather-tools#123; the lambda in main.py and the frames are composed', 'V-other')
SRC_SESSION = ('apache/beam sdks/python/apache_beam/runners/worker/sdk_worker_main.py _load_main_session: '
               'WARNING "No session file found: %s. Functions defined in __main__ (interactive session) may '
               'fail." when the job was launched without --save_main_session', 'V-code')
SRC_PROBE = ('the Phi-3 modeling code\'s logger.warning "`flash-attention` package not found, consider '
             'installing for better performance: …" (public Phi-3 logs): a near miss', 'V-other')


def build(c):
    c.describe('''
        A name of the launch script's main module missing on the workers: main.py imports json at
        the top and parses each request with beam.Map(lambda line: json.loads(line)); the job
        was launched without --save_main_session on Beam 2.60 (dill, the default pickler through
        2.64), so the lambda's globals are the workers'
        __main__ (Beam's harness), which has no json. Every bundle fails with "NameError: name
        'json' is not defined [while running 'ParseRequests']" in the worker log and the job
        message; four attempts fail the job. The harness's own WARNING "No session file found:
        … Functions defined in __main__ (interactive session) may fail." is in the export (healthy
        by itself; here it explains the failure but is not the evidence). A red herring on the
        same worker: a model's WARNING that flash-attention is not installed ("No module named
        'flash_attn'"), which is not a failure; python-module-missing must stay quiet.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE])
    j = c.job('support-ticket-scoring', '2025-09-22T13:05:40Z', region='us-central1',
              zone='us-central1-f', python='3.10', beam='2.60.0', workers=1)
    ready = N.bring_up(j, cf)
    j.wlog(ready + 0.8, j.w[0], 'No session file found: /var/opt/google/staged/pickled_main_session. '
           'Functions defined in __main__ (interactive session) may fail.', sev='WARNING',
           src=SRC_SESSION, module='apache_beam/runners/worker/sdk_worker_main.py', line=245,
           mark='session-warning')
    j.wlog(ready + 20.0, j.w[0], '`flash-attention` package not found, consider installing for better '
           "performance: No module named 'flash_attn'.", sev='WARNING', src=SRC_PROBE,
           module='/root/.cache/huggingface/modules/transformers_modules/microsoft/Phi-3-mini-4k-instruct/'
           'modeling_phi3.py', line=56, mark='fa-probe')
    tb = T.user_tb('3.10', [
        '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
        '  File "apache_beam/runners/common.py", line 685, in apache_beam.runners.common.SimpleInvoker.invoke_process',
        '  File "%s/apache_beam/transforms/core.py", line 2040, in <lambda>' % SP,
        '    wrapper = lambda x: [fn(x)]',
        '  File "/dataflow/scoring/main.py", line 57, in <lambda>',
        '    | "ParseRequests" >> beam.Map(lambda line: json.loads(line))',
    ], EXC + " [while running '%s']" % STEP)
    t = ready + 45.0
    t = N.failed_attempts(j, t, j.w[0], tb, STEP, src=SRC_NAME, cite=EXC, gap=12.0, mark='nameerror',
                          msg_cite="Error message from worker: … NameError: name 'json' is not defined "
                                   "[while running 'ParseRequests']")
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [j.w[0]] * 4)
    c.output('export.json')
    c.fire('main-session-not-saved', marks=['nameerror', 'nameerror-msg'], captures={'name': 'json'})
    c.fire('work-item-failed', marks=['wif'], caused_by='main-session-not-saved')
    c.fire('workflow-failed', marks=['wif'], caused_by='main-session-not-saved')
    c.not_fire('python-module-missing', 'beam-version-mismatch', 'python-version-mismatch',
               'dofn-not-picklable', 'attention-kernel-gpu-too-old')
