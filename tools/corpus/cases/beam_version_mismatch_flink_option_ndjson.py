from corpuslib import noise as N


def build(c):
    c.describe('''
        Beam SDK version mismatch seen at harness start: a launcher with a newer Beam passes an
        option value the older SDK in the image rejects: "sdk_worker_main.py: error: argument
        --flink_version: invalid choice: '1.16' (choose from '1.12', '1.13', '1.14', '1.15')"
        (real, Dataflow custom-container troubleshooting page), printed on the SDK container's
        stderr each time it restarts. NDJSON sink shard; export taken after 10 minutes.''')
    img = 'gcr.io/recsys-lab/ranker:beam2.43'
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, image=img, disk=50)
    j = c.job('ranker-eval-beam-upgrade', '2023-04-11T12:40:10Z', region='us-central1',
              zone='us-central1-b', project='recsys-lab', python='3.9', beam='2.43.0')
    N.submit(j, cf)
    N.started(j, cf, 60.0)
    w = j.w[0]
    t = N.vm_boot(j, w, 64.0)
    t = N.driver_install(j, w, cf, t + 2.0)
    t = N.image_check(j, w, cf, t + 2.0)
    for k in range(3):
        j.docker(t, w, 'Executing: python -m apache_beam.runners.worker.sdk_worker_main',
                 src='beam-boot')
        j.docker(t + 2.3, w, "sdk_worker_main.py: error: argument --flink_version: invalid "
                 "choice: '1.16' (choose from '1.12', '1.13', '1.14', '1.15')", sev='ERROR',
                 src='flink-version', mark='flink' if k == 0 else None)
        j.docker(t + 2.4, w, 'Python exited: exit status 2', sev='ERROR', src='beam-boot')
        t += 150.0
    c.output('export.ndjson')
    c.fire('beam-version-mismatch', marks=['flink'])
