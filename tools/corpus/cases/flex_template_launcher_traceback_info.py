from corpuslib import noise as N

CPE = ("subprocess.CalledProcessError: Command '['/usr/local/bin/python', '-m', 'pip', 'download', "
       "'--dest', '/tmp/dataflow-requirements-cache', '-r', '/dataflow/template/requirements.txt', "
       "'--exists-action', 'i', '--no-binary', ':all:']' returned non-zero exit status 1.")
SP = '/usr/local/lib/python3.7/site-packages'
TRACEBACK = [
    'Traceback (most recent call last):',
    '  File "/dataflow/template/main.py", line 61, in <module>',
    '    run()',
    '  File "/dataflow/template/main.py", line 55, in run',
    '    pipeline.run()',
    '  File "%s/apache_beam/pipeline.py", line 513, in run' % SP,
    '    return self.runner.run_pipeline(self, self._options)',
    '  File "%s/apache_beam/runners/portability/stager.py", line 559, in _populate_requirements_cache' % SP,
    '    processes.check_output(cmd_args, stderr=processes.STDOUT)',
    '  File "%s/apache_beam/utils/processes.py", line 91, in check_output' % SP,
    '    out = subprocess.check_output(*args, **kwargs)',
    '  File "/usr/local/lib/python3.7/subprocess.py", line 411, in check_output',
    '    **kwargs).stdout',
    '  File "/usr/local/lib/python3.7/subprocess.py", line 512, in run',
    '    output=stdout, stderr=stderr)',
    CPE,
]
WARNING = [
    '%s/apache_beam/io/gcp/bigquery.py:1881: BeamDeprecationWarning: options is deprecated since '
    'First stable release. References to <pipeline>.options will not be supported' % SP,
    '  temp_location = pcoll.pipeline.options.view_as(',
]


def build(c):
    c.describe('''
        A Python Flex Template launch whose program fails before the job has a worker: Beam's
        stager runs `pip download` of the template's requirements, pip fails, and the program's
        traceback (subprocess.CalledProcessError from stager._populate_requirements_cache, called
        from the template's main.py line 55) is what the launcher container prints. The launcher
        log stores that output one entry per line, at severity INFO, about 10 µs apart, as in
        python-docs-samples#4891 (whose frames below processes.py and the exception line are
        verbatim here; the frames above are ours). Before the traceback the program prints a
        handled BeamDeprecationWarning (two lines, also INFO); it must not become a group. The
        export is gcloud's newest-first array, so the lines come reversed. Reassembled by (job,
        launcher VM, log) and timestamp, the INFO lines are one traceback, and that traceback is
        the candidate whatever its severity: the report's most likely cause, with the user frame
        main.py:55. Then "Error: Template launch failed: exit status 13" (docs) and the job message
        "Error occurred in the launcher container: Template launch failed. See console logs."
        (python-docs-samples#6245). No rule of the pack names this cause. Beside it, a healthy
        Flex Template job of another team whose launcher prints the same deprecation warning at
        INFO: it stays OK with no group at error level.''')
    j = c.job('catalog-embed-flex', '2024-09-17T06:40:03Z', region='us-central1',
              zone='us-central1-a', project='retail-ml-prod', python='3.7', beam='2.40.0',
              workers=0)
    stage = 'gs://dataflow-staging-us-central1-715244150921/staging/template_launches/%s' % j.id
    args = ('--requirements_file=/dataflow/template/requirements.txt --runner=DataflowRunner '
            '--job_name=catalog-embed-flex --project=retail-ml-prod --region=us-central1 '
            '--template_location=%s/job_object' % stage)
    j.msg(2.1, 'Console log from launcher will be available at %s/console_logs.' % stage,
          src='ft-console-log-msg',
          cite='Console log from launcher will be available at gs://…/template_launches/JOB_ID/console_logs.')
    N.flex_launcher_start(j, args, 31.0)
    j.launcher_lines(44.0, WARNING, src='beam-options-deprecation', mark='warning')
    j.launcher_lines(71.0, TRACEBACK, src='ft-launcher-traceback-4891', mark='traceback',
                     cite=CPE)
    j.launcher(71.4, 'Error: Template launch failed: exit status 13', sev='ERROR', line=None,
               src='docs-template-launch', mark='launch-failed')
    j.msg(78.0, 'Error occurred in the launcher container: Template launch failed. See '
          'console logs.', sev='ERROR', src='ft-launch-failed-msg', mark='launcher-msg')

    hcf = N.cfg(machine='n1-standard-2', gpu=None, num_workers=1, max_workers=2, steps=N.STEPS_CPU)
    h = c.job('catalog-export-flex', '2024-09-17T06:10:41Z', region='us-central1',
              zone='us-central1-b', project='retail-ml-prod', python='3.7', beam='2.40.0')
    hstage = 'gs://dataflow-staging-us-central1-715244150921/staging/template_launches/%s' % h.id
    N.flex_launcher_start(h, '--runner=DataflowRunner --job_name=catalog-export-flex --project=retail-ml-prod '
              '--region=us-central1 --template_location=%s/job_object' % hstage, 1.0)
    h.launcher_lines(9.0, WARNING, src='beam-options-deprecation', mark='healthy-warning')
    ready = N.bring_up(h, hcf, steps=N.STEPS_CPU)
    end = ready + 600
    N.sdk_shutdown(h, h.w[0], end - 25)
    N.teardown(h, hcf, end)

    c.output('export.json')
    c.not_fire('workflow-failed', 'pip-install-failed', 'zone-resource-pool-exhausted')
    c.unexplained(exception='subprocess.CalledProcessError', message="'pip', 'download'",
                  user_frame='main.py:55', step=None, marks=['traceback'], job=j,
                  key_strings=["'pip', 'download'"])
    c.job_truth(j, outcome='failed', verdict='failed',
                not_fire=['workflow-failed', 'pip-install-failed', 'zone-resource-pool-exhausted'])
    c.job_truth(h, outcome='succeeded', verdict='ok')
