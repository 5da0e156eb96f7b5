from corpuslib import noise as N


def build(c):
    c.describe('''
        The SDK container starts and dies again and again: boot.go logs "Python exited: exit
        status 1" after "ModuleNotFoundError: No module named 'pkg_resources'" (the setuptools
        82 break the Dataflow docs describe), and kubelet reports CrashLoopBackOff in both of its
        log forms - the old "Error syncing pod <uid> (\\"<pod>_default(<uid>)\\"), skipping: failed
        to \\"StartContainer\\" for \\"sdk-0-0\\" with CrashLoopBackOff: \\"Back-off 5m0s restarting
        failed container=...\\"" (apache/beam#19622) and the structured "Error syncing pod,
        skipping" err=... (loft-sh/vcluster#162), plus "RemoveContainer". After an hour the job
        fails with the real "no worker activity ... 1h" stall. CPU job. Both the crash loop and
        the stall are reported; the final failure may fold under either.''')
    img = 'us-central1-docker.pkg.dev/geo-etl/beam/tiles:2026.02'
    cf = N.cfg(machine='n1-standard-4', gpu=None, num_workers=1, max_workers=3, image=img,
               steps=['ReadTiles/Read+Reproject+WriteTiles/Write/WriteImpl/WriteBundles'])
    j = c.job('tiles-reproject-daily', '2026-02-16T04:00:21Z', region='us-central1',
              zone='us-central1-c', project='geo-etl', python='3.12', beam='2.71.0')
    N.submit(j, cf)
    N.started(j, cf, 61.0)
    w = j.w[0]
    t = N.vm_boot(j, w, 66.0)
    t = N.image_check(j, w, cf, t + 2.0)
    uid = 'd3a0b6f1-58c4-4b9e-9f0e-2f17c5a9e0b4'
    pod = '%s_default(%s)' % (w, uid)
    k = 0
    while t < 3500:
        j.docker(t, w, 'Initializing python harness: /opt/apache/beam/boot --id=sdk-0-0 '
                 '--provision_endpoint=localhost:12371', src='beam-boot')
        j.docker(t + 2.2, w, 'Executing: python -m apache_beam.runners.worker.sdk_worker_main',
                 src='beam-boot')
        j.docker(t + 3.9, w, "ModuleNotFoundError: No module named 'pkg_resources'",
                 sev='ERROR', src='docs-pkg-resources', mark='mnf' if k == 0 else None)
        j.docker(t + 4.0, w, 'Python exited: exit status 1', sev='ERROR', src='beam-boot')
        j.kubelet(t + 4.6, w, '"RemoveContainer" containerID="%064x"' % (0x4709e866a99b + k * 7919),
                  src='vcluster-162')
        if k % 2 == 0:
            j.kubelet(t + 5.1, w, 'Error syncing pod %s ("%s"), skipping: failed to '
                      '"StartContainer" for "sdk-0-0" with CrashLoopBackOff: "Back-off 5m0s '
                      'restarting failed container=sdk-0-0 pod=%s"' % (uid, pod, pod),
                      sev='ERROR', src='beam-19622', mark='crash' if k == 0 else None)
        else:
            j.kubelet(t + 5.1, w, '"Error syncing pod, skipping" err="failed to \\"StartContainer\\" '
                      'for \\"sdk-0-0\\" with CrashLoopBackOff: \\"back-off 5m0s restarting failed '
                      'container=sdk-0-0 pod=%s\\"" pod="default/%s" podUID=%s' % (pod, w, uid),
                      sev='ERROR', src='vcluster-162', mark='crash2' if k == 1 else None)
        t += 300.0 + (40 if k < 2 else 0)
        k += 1
    N.fail(j, cf, 61.0 + 34.0 + 3600.9, N.NO_ACTIVITY_1H, src='tfx-6386', mark='stall')
    c.output('export.json')
    c.fire('python-module-missing', marks=['mnf'], captures={'module': 'pkg_resources'})
    c.fire('container-crash-loop', marks=['crash', 'crash2'], caused_by='python-module-missing')
    c.fire('workers-stuck-no-activity', marks=['stall'], caused_by='python-module-missing')
    c.may_fire('workflow-failed')
