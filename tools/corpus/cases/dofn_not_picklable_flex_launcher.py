from corpuslib import noise as N

SP = '/usr/local/lib/python3.11/site-packages'
PICKLING = '_pickle.PicklingError: Pickling client objects is explicitly not supported.'
SECOND = 'Clients have non-trivial state that is local and unpickleable.'
SRC_TB = ('googleapis/python-cloud-core google/cloud/client.py Client.__getstate__ (raise PicklingError('
          '"Pickling client objects is explicitly not supported." "\\n" "Clients have non-trivial state that '
          'is local and unpickleable.")), as google/turbinia#70 shows it raised; Beam\'s pickling of a ParDo\'s '
          'DoFn at construction (apache_beam/transforms/ptransform.py PTransformWithSideInputs.__init__ '
          '"self.fn = pickler.loads(pickler.dumps(self.fn))", internal/pickler.py and dill_pickler.py dumps, '
          'which retries with dill\'s trace on: the "During handling" chain); one INFO entry per line as the '
          'launcher stores a program\'s traceback (python-docs-samples#4891); main.py frames and dill line '
          'numbers composed', 'V-code')
SRC_DILL_TRACE = ('uqfoundation/dill dill/_dill.py trace output ("T4: <class …>", "D2: <dict object at …>") that '
                  'Beam\'s dill_pickler.dumps turns on (dill.detect.trace / dill._dill._trace(True)) when the first '
                  'dumps fails, logged at INFO by the "dill" logger; values composed (a near miss)', 'V-code')


def build(c):
    c.describe('''
        A Flex Template launch that fails while Beam pickles the pipeline: the template's main.py
        builds beam.ParDo(FetchAndCaption(bucket)), whose __init__ creates a
        google.cloud.storage.Client() and keeps it on self. ParDo's constructor pickles the DoFn
        (ptransform.py "self.fn = pickler.loads(pickler.dumps(self.fn))"); the client's
        __getstate__ raises "_pickle.PicklingError: Pickling client objects is explicitly not
        supported." / "Clients have non-trivial state that is local and unpickleable.", Beam's
        dill_pickler retries with dill's trace on, so dill's INFO trace lines ("T4: <class
        '__main__.FetchAndCaption'>", "D2: <dict object …>") and a second traceback ("During
        handling of the above exception, another exception occurred:") follow. The launcher log
        keeps the program's output one INFO entry per line; then "Error: Template launch failed:
        exit status 13" and the job message "Error occurred in the launcher container: Template
        launch failed. See console logs.". No worker ever starts. dofn-not-picklable fires on the
        PicklingError lines of the launcher log. Red herrings: Beam's BeamDeprecationWarning
        printed at INFO before the failure, and dill's trace lines. Beside it, in the same project
        export, a healthy GPU batch job of the same team.''')
    j = c.job('catalog-caption-flex', '2025-04-14T10:02:47Z', region='us-east4', zone='us-east4-c',
              project='catalog-ml-prod', python='3.11', beam='2.63.0', workers=0)
    stage = 'gs://dataflow-staging-us-east4-402118837466/staging/template_launches/%s' % j.id
    args = ('--runner=DataflowRunner --job_name=catalog-caption-flex --project=catalog-ml-prod '
            '--region=us-east4 --sdk_container_image=us-east4-docker.pkg.dev/catalog-ml-prod/images/'
            'caption-gpu:1.4 --dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1;'
            'install-nvidia-driver --machine_type=g2-standard-8 --template_location=%s/job_object' % stage)
    j.msg(2.3, 'Console log from launcher will be available at %s/console_logs.' % stage,
          src='ft-console-log-msg',
          cite='Console log from launcher will be available at gs://…/template_launches/JOB_ID/console_logs.')
    N.flex_launcher_start(j, args, 29.0)
    j.launcher_lines(41.0, [
        '%s/apache_beam/io/gcp/bigquery.py:2095: BeamDeprecationWarning: options is deprecated since '
        'First stable release. References to <pipeline>.options will not be supported' % SP,
        '  temp_location = pcoll.pipeline.options.view_as(',
    ], src='beam-options-deprecation', mark='deprecation')
    first = [
        'Traceback (most recent call last):',
        '  File "%s/apache_beam/internal/dill_pickler.py", line 420, in dumps' % SP,
        "    s = dill.dumps(o, byref=settings['dill_byref'])",
        '  File "%s/dill/_dill.py", line 288, in dumps' % SP,
        '    dump(obj, file, protocol, byref, fmode, recurse, **kwds)#, strictio)',
        '  File "%s/dill/_dill.py", line 260, in dump' % SP,
        '    Pickler(file, protocol, **_kwds).dump(obj)',
        '  File "%s/dill/_dill.py", line 428, in dump' % SP,
        '    StockPickler.dump(self, obj)',
        '  File "/usr/local/lib/python3.11/pickle.py", line 487, in dump',
        '    self.save(obj)',
        '  File "/usr/local/lib/python3.11/pickle.py", line 578, in save',
        '    rv = reduce(self.proto)',
        '  File "%s/google/cloud/client.py", line 194, in __getstate__' % SP,
        '    raise PicklingError(',
    ]
    j.launcher_lines(52.0, first, src=SRC_TB, mark='traceback', cite='Traceback (most recent call last):')
    # the exception's own lines, 10 µs after the last frame line (one block of output)
    j.launcher_lines(52.0 + len(first) * 0.00001, [PICKLING, SECOND], src=SRC_TB, mark='pickling',
                     cite=PICKLING)
    j.launcher_lines(52.01, [
        "INFO:dill:T4: <class '__main__.FetchAndCaption'>",
        '# T4',
        'INFO:dill:D2: <dict object at 0x7f2b1c0d8a40>',
    ], src=SRC_DILL_TRACE, mark='dill-trace')
    second = [
        '',
        'During handling of the above exception, another exception occurred:',
        '',
        'Traceback (most recent call last):',
        '  File "/dataflow/template/main.py", line 112, in <module>',
        '    run()',
        '  File "/dataflow/template/main.py", line 97, in run',
        "    | 'Caption' >> beam.ParDo(FetchAndCaption(known_args.images_bucket))",
        '  File "%s/apache_beam/transforms/core.py", line 1468, in __init__' % SP,
        '    super().__init__(fn, *args, **kwargs)',
        '  File "%s/apache_beam/transforms/ptransform.py", line 869, in __init__' % SP,
        '    self.fn = pickler.loads(pickler.dumps(self.fn))',
        '  File "%s/apache_beam/internal/pickler.py", line 46, in dumps' % SP,
        '    return desired_pickle_lib.dumps(',
        '  File "%s/apache_beam/internal/dill_pickler.py", line 424, in dumps' % SP,
        "    s = dill.dumps(o, byref=settings['dill_byref'])",
        '  File "%s/google/cloud/client.py", line 194, in __getstate__' % SP,
        '    raise PicklingError(',
        PICKLING,
        SECOND,
    ]
    j.launcher_lines(52.02, second, src=SRC_TB)
    j.launcher(52.6, 'Error: Template launch failed: exit status 13', sev='ERROR', line=None,
               src='docs-template-launch', mark='launch-failed')
    j.msg(59.0, 'Error occurred in the launcher container: Template launch failed. See console logs.',
          sev='ERROR', src='ft-launch-failed-msg', mark='launcher-msg')

    hcf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=2,
                steps=N.STEPS_CPU)
    h = c.job('catalog-embed-nightly', '2025-04-14T09:40:12Z', region='us-east4', zone='us-east4-c',
              project='catalog-ml-prod', python='3.11', beam='2.63.0')
    ready = N.bring_up(h, hcf, steps=N.STEPS_CPU)
    end = ready + 720
    N.sdk_shutdown(h, h.w[0], end - 25)
    N.teardown(h, hcf, end)

    c.output('export.json')
    c.fire('dofn-not-picklable', marks=['pickling'], captures={'object': 'client'}, job=j)
    c.job_truth(j, outcome='failed', verdict='failed',
                not_fire=['python-module-missing', 'main-session-not-saved', 'workflow-failed',
                          'pip-install-failed'])
    c.job_truth(h, outcome='succeeded', verdict='ok')
