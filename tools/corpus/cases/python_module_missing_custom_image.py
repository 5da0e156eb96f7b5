from corpuslib import noise as N, texts as T

STEP = 'EmbedImages'
STAGE = 'S01:ReadManifest/Read+DecodeImages+EmbedImages+WriteEmbeddings/Write'
SP = T.sp('3.11')
IMAGE = 'europe-west4-docker.pkg.dev/catalog-ml/dataflow/clip-embed:2025-06-02'
EXC = "ModuleNotFoundError: No module named 'open_clip'"
SRC_MNF = ('python/cpython Lib/importlib/_bootstrap.py ("No module named {!r}", ModuleNotFoundError), '
           'raised in a DoFn\'s setup() and re-raised by apache_beam/runners/common.py '
           '_reraise_augmented with " [while running \'STEP\']"; frames composed from Beam\'s '
           'common.py/operations.py/bundle_processor.py paths', 'V-code')
SRC_TRT = ('apache/beam sdks/python/apache_beam/ml/inference/tensorrt_inference.py: logging.warning '
           '"tensorrt module was not found. This is ok as long as the specified runner has tensorrt '
           'dependencies installed." when the module\'s optional import fails (a near miss)', 'V-code')
SRC_SESSION = ('apache/beam sdks/python/apache_beam/runners/worker/sdk_worker_main.py _load_main_session: '
               'WARNING "No session file found: %s. Functions defined in __main__ (interactive session) may '
               'fail." when the job was launched without --save_main_session (healthy)', 'V-code')


def build(c):
    c.describe('''
        A PyPI package the custom SDK container image lacks: an image-embedding DoFn imports
        open_clip in setup(); the developer's machine has it, the image was built from an older
        requirements file without it. Every attempt to build the bundle processor fails in
        DoFn.setup() with "ModuleNotFoundError: No module named 'open_clip' [while running
        'EmbedImages']" (worker log, and the job message "Error message from worker: …"); four
        attempts fail the job. python-module-missing fires with the module, its first fix filled
        with the job's image. Red herrings on the same worker: Beam's tensorrt_inference
        optional-import WARNING ("tensorrt module was not found. This is ok …"), and the
        harness's WARNING that no main-session file was staged; neither is the cause, and
        main-session-not-saved must not fire. The traceback names no trust_remote_code check, no
        shared library and no "cannot import name", so the more specific rules stay quiet.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], image=IMAGE, steps=[STAGE])
    j = c.job('catalog-clip-embeddings', '2025-06-03T07:20:11Z', region='europe-west4',
              zone='europe-west4-b', python='3.11', beam='2.64.0', workers=1)
    ready = N.bring_up(j, cf)
    j.wlog(ready + 1.0, j.w[0], 'No session file found: /var/opt/google/staged/pickled_main_session. '
           'Functions defined in __main__ (interactive session) may fail.', sev='WARNING',
           src=SRC_SESSION, module='apache_beam/runners/worker/sdk_worker_main.py', line=245,
           mark='session-warning')
    j.wlog(ready + 9.0, j.w[0], 'tensorrt module was not found. This is ok as long as the specified '
           'runner has tensorrt dependencies installed.', sev='WARNING', src=SRC_TRT,
           module='apache_beam/ml/inference/tensorrt_inference.py', line=52, mark='trt-probe')
    tb = T.user_tb('3.11', [
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute' % SP,
        '    response = task()',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 669, in process_bundle' % SP,
        '    bundle_processor = self.bundle_processor_cache.get(',
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1102, in __init__' % SP,
        '    op.setup(self.data_sampler)',
        '  File "apache_beam/runners/worker/operations.py", line 882, in '
        'apache_beam.runners.worker.operations.DoOperation.setup',
        '  File "apache_beam/runners/common.py", line 1517, in apache_beam.runners.common.DoFnRunner.setup',
        '  File "apache_beam/runners/common.py", line 1513, in '
        'apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
        '  File "apache_beam/runners/common.py", line 1559, in '
        'apache_beam.runners.common.DoFnRunner._reraise_augmented',
        '  File "apache_beam/runners/common.py", line 1508, in '
        'apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
        '  File "apache_beam/runners/common.py", line 562, in apache_beam.runners.common.DoFnInvoker.invoke_setup',
        '  File "/usr/local/lib/python3.11/site-packages/catalog_embed/transforms.py", line 38, in setup',
        '    import open_clip',
    ], EXC + " [while running '%s']" % STEP)
    t = ready + 14.0
    t = N.failed_attempts(j, t, j.w[0], tb, STEP, src=SRC_MNF, cite=EXC, gap=31.0, mark='mnf',
                          msg_cite="Error message from worker: … ModuleNotFoundError: No module named "
                                   "'open_clip' [while running 'EmbedImages']")
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [j.w[0]] * 4)
    c.output('export.json')
    c.fire('python-module-missing', marks=['mnf', 'mnf-msg'], captures={'module': 'open_clip'})
    c.fire('work-item-failed', marks=['wif'], caused_by='python-module-missing')
    c.fire('workflow-failed', marks=['wif'], caused_by='python-module-missing')
    c.not_fire('main-session-not-saved', 'remote-code-package-missing', 'system-library-missing',
               'import-name-version-skew', 'cuda-extension-abi-mismatch', 'pip-install-failed',
               'venv-unavailable', 'beam-version-mismatch')
