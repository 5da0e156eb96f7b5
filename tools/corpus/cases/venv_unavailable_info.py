from corpuslib import noise as N


def build(c):
    c.describe('''
        A slim custom image without python3-venv: the SDK container logs, at INFO severity
        although it is fatal, "The virtual environment was not created successfully because
        ensurepip is not available. On Debian/Ubuntu systems, you need to install the python3-venv
        package using the following command." (real, google/dataflow-ml-starter README), split
        over entries as the README shows. The rule must not filter on severity.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='us-central1-docker.pkg.dev/ml-starter/beam/pytorch-slim:2.47', disk=50)
    j = c.job('benchmark-tests-pytorch-slim', '2023-05-06T15:10:02Z', region='us-central1',
              zone='us-central1-a', project='ml-starter', python='3.10', beam='2.47.0')
    N.submit(j, cf)
    N.started(j, cf, 60.0)
    w = j.w[0]
    t = N.vm_boot(j, w, 64.0)
    t = N.driver_install(j, w, cf, t + 2.0)
    t = N.image_check(j, w, cf, t + 2.0)
    for k in range(2):
        j.docker(t, w, 'Initializing python harness: /opt/apache/beam/boot --id=sdk-0-0 '
                 '--provision_endpoint=localhost:12371', src='beam-boot')
        j.docker(t + 3.0, w, 'The virtual environment was not created successfully because '
                 'ensurepip is not', sev='INFO', src='ml-starter-venv', mark='venv' if k == 0 else None)
        j.docker(t + 3.0001, w, 'available. On Debian/Ubuntu systems, you need to install the '
                 'python3-venv', sev='INFO', src='ml-starter-venv')
        j.docker(t + 3.0002, w, 'package using the following command.', sev='INFO',
                 src='ml-starter-venv')
        t += 310.0
    c.output('export.json')
    c.fire('venv-unavailable', marks=['venv'])
