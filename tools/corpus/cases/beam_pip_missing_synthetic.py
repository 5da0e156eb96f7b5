from corpuslib import noise as N


def build(c):
    c.describe('''
        SYNTHETIC error text: a custom image for Beam 2.27 (older than 2.30) without pip at
        /usr/local/bin/pip. The old boot.go logs its real format strings ("Initializing python
        harness: ...", "Installing setup packages ...", "Found artifact: ...") and then "Failed
        to install required packages: failed to install requirements: fork/exec
        /usr/local/bin/pip: no such file or directory" - the wrapper is boot.go's, the fork/exec
        error is inferred (no public log of it). The SDK never starts; export taken after 15
        minutes.''')
    img = 'gcr.io/legacy-batch/beam-py38:2.27-slim'
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, image=img, disk=50)
    j = c.job('legacy-scoring-gpu', '2021-02-03T10:20:00Z', region='us-central1',
              zone='us-central1-a', project='legacy-batch', python='3.8', beam='2.27.0')
    N.submit(j, cf)
    N.started(j, cf, 60.0)
    w = j.w[0]
    t = N.vm_boot(j, w, 64.0)
    t = N.driver_install(j, w, cf, t + 2.0)
    t = N.image_check(j, w, cf, t + 2.0)
    for k in range(3):
        j.docker(t, w, 'Initializing python harness: /opt/apache/beam/boot --id=sdk-0-0 '
                 '--logging_endpoint=localhost:12370 --artifact_endpoint=localhost:12371 '
                 '--provision_endpoint=localhost:12372 --control_endpoint=localhost:12369',
                 src='beam-boot')
        j.docker(t + 1.5, w, 'Installing setup packages ...', src='beam-boot')
        j.docker(t + 1.6, w, 'Found artifact: requirements.txt', src='beam-boot')
        j.docker(t + 1.7, w, 'Found artifact: dataflow_python_sdk.tar', src='beam-boot')
        j.docker(t + 9.0, w, 'Failed to install required packages: failed to install '
                 'requirements: fork/exec /usr/local/bin/pip: no such file or directory',
                 sev='ERROR', src='pip-missing', mark='pip' if k == 0 else None)
        t += 300.0
    c.output('export.json')
    c.fire('beam-pip-missing', marks=['pip'])
