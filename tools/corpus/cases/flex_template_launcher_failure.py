from corpuslib import noise as N

TE = ("TypeError: canonicalize_version() got an unexpected keyword argument "
      "'strip_trailing_zero'")
CPE = ("subprocess.CalledProcessError: Command '['/usr/local/bin/python', 'setup.py', 'sdist', "
       "'--dist-dir', '/tmp/tmp196n6g8d']' returned non-zero exit status 1.")


def build(c):
    c.describe('''
        A Python Flex Template job that never gets a worker: the launcher container runs the
        template's program, which builds the pipeline's package with setup.py, and setuptools >=
        71 breaks the build ("TypeError: canonicalize_version() got an unexpected keyword
        argument 'strip_trailing_zero'" ... "subprocess.CalledProcessError: Command
        '['/usr/local/bin/python', 'setup.py', 'sdist', ...]' returned non-zero exit status 1.",
        verbatim from the Dataflow docs "Template launch failed with error"). The launcher's
        own lines ("Started template launcher.", "Initialize Python template.", "Using launch
        args: [...]", "Executing: python ...", python-docs-samples#4891) and the program's output
        are dataflow.googleapis.com/launcher entries in the shape of a real one (DataflowTemplates,
        2023: jsonPayload message and line, the launcher-<digits> VM, the job's id in its
        resource labels); the launch ends with "Error: Template launch failed: exit status 13"
        (docs). The job messages say "Console log from launcher will be available at gs://...
        /console_logs." (mozilla/gcp-ingestion#1899) and, at ERROR, "Error occurred in the
        launcher container: Template launch failed. See console logs." (the exported entry of
        python-docs-samples#6245). No worker pool, no "Workflow failed". The job failed; no rule
        of the pack names this cause (nothing fires), so the job's verdict comes from its outcome
        alone and must not be OK. Beside it, in the same project export, a healthy batch job of
        another team. Launcher entries carry the job id as the real one does: no public text shows
        launcher entries without it.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1)
    j = c.job('invoice-ocr-flex', '2024-08-02T09:14:27Z', region='europe-west4',
              zone='europe-west4-a', project='fin-docs-ml', python='3.9', beam='2.57.0',
              workers=0)
    stage = 'gs://dataflow-staging-europe-west4-300711284512/staging/template_launches/%s' % j.id
    j.msg(2.1, 'Console log from launcher will be available at %s/console_logs.' % stage,
          src='ft-console-log-msg',
          cite='Console log from launcher will be available at gs://…/template_launches/JOB_ID/console_logs.')
    j.launcher(31.0, 'Started template launcher.', line='python_template_launcher.go:36',
               src='ft-launcher-2020')
    j.launcher(31.1, 'Initialize Python template.', line='python_template_launcher.go:38',
               src='ft-launcher-2020')
    args = ('--requirements_file=/dataflow/template/requirements.txt '
            '--setup_file=/dataflow/template/setup.py --runner=DataflowRunner '
            '--job_name=invoice-ocr-flex --temp_location=gs://fin-docs-ml-dataflow/tmp '
            '--project=fin-docs-ml --region=europe-west4 '
            '--template_location=%s/job_object '
            '--staging_location=gs://dataflow-staging-europe-west4-300711284512/staging' % stage)
    j.launcher(31.4, 'Using launch args: [/dataflow/template/main.py %s]' % args,
               line='python_template.go:63', src='ft-launcher-2020',
               cite='Using launch args: [/dataflow/template/main.py --requirements_file=… '
                    '--template_location=gs://…/template_launches/JOB_ID/job_object …]')
    j.launcher(31.5, 'Executing: python /dataflow/template/main.py %s' % args, line='exec.go:37',
               src='ft-launcher-2020', cite='Executing: python /dataflow/template/main.py …')
    t = 58.0
    for k, text in enumerate([
            TE,
            'ERROR:absl:Internal Error Type : RuntimeError',
            'ERROR:absl:Error Message : Full trace: Traceback (most recent call last):',
            'File "/usr/local/lib/python3.9/site-packages/apache_beam/utils/processes.py", line 89, in check_output',
            'out = subprocess.check_output(*args, **kwargs)',
            'File "/usr/local/lib/python3.9/subprocess.py", line 424, in check_output',
            'return run(*popenargs, stdout=PIPE, timeout=timeout, check=True,',
            'File "/usr/local/lib/python3.9/subprocess.py", line 528, in run',
            'raise CalledProcessError(retcode, process.args,',
            CPE]):
        j.launcher(t + k * 0.001, text, sev='ERROR' if k in (0, 1, 2, 9) else 'INFO',
                   src='docs-template-launch', mark='setuptools' if k == 0 else None)
    j.launcher(t + 0.4, 'Error: Template launch failed: exit status 13', sev='ERROR', line=None,
               src='docs-template-launch', mark='launch-failed')
    j.msg(t + 7.0, 'Error occurred in the launcher container: Template launch failed. See '
          'console logs.', sev='ERROR', src='ft-launch-failed-msg', mark='launcher-msg')

    hcf = N.cfg(machine='n1-standard-2', gpu=None, num_workers=1, max_workers=3, steps=N.STEPS_CPU)
    h = c.job('ledger-reconcile-nightly', '2024-08-02T09:00:05Z', region='europe-west4',
              zone='europe-west4-b', project='fin-docs-ml', python='3.11', beam='2.57.0')
    ready = N.bring_up(h, hcf, steps=N.STEPS_CPU)
    end = ready + 900
    N.sdk_shutdown(h, h.w[0], end - 25)
    N.teardown(h, hcf, end)

    c.output('export.json')
    c.not_fire('workflow-failed', 'pip-install-failed', 'zone-resource-pool-exhausted')
    # No rule knows setuptools' TypeError: it is the error the report leads with.
    c.unexplained(exception='TypeError', message="unexpected keyword argument 'strip_trailing_zero'",
                  user_frame=None, step=None, marks=['setuptools'], job=j,
                  key_strings=["unexpected keyword argument 'strip_trailing_zero'"])
    c.job_truth(j, outcome='failed', verdict='failed',
                not_fire=['workflow-failed', 'pip-install-failed', 'zone-resource-pool-exhausted'])
    c.job_truth(h, outcome='succeeded', verdict='ok')
