from corpuslib import noise as N


def build(c):
    c.describe('''
        Image built on an Apple Silicon laptop (linux/arm64) for x86 workers: the SDK container
        fails at once with "exec /opt/apache/beam/boot: exec format error" (real, Dataflow docs /
        google/dataflow-ml-starter), and kubelet then reports CrashLoopBackOff for sdk-0-0
        (structured form, loft-sh/vcluster#162). The architecture is the root cause; the crash
        loop is reported too. Export ends after 20 minutes. NDJSON sink shard.''')
    img = 'us-central1-docker.pkg.dev/acme-ml-prod/dataflow/gpu-infer:m2-build'
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'], image=img, disk=50)
    j = c.job('gpu-infer-dev-alice', '2024-02-27T15:33:09Z', region='us-central1',
              zone='us-central1-a', python='3.11', beam='2.54.0')
    N.submit(j, cf)
    N.started(j, cf, 60.0)
    w = j.w[0]
    t = N.vm_boot(j, w, 65.0)
    t = N.driver_install(j, w, cf, t + 2.0)
    t = N.image_check(j, w, cf, t + 2.0)
    uid = '7c1e55b2-0a9d-4c61-b2fe-51e0a2d4c6aa'
    pod = '%s_default(%s)' % (w, uid)
    for k in range(5):
        j.docker(t, w, 'exec /opt/apache/beam/boot: exec format error', sev='ERROR',
                 src='docs-arch', mark='arch' if k == 0 else None)
        j.kubelet(t + 1.2, w, '"Error syncing pod, skipping" err="failed to \\"StartContainer\\" '
                  'for \\"sdk-0-0\\" with CrashLoopBackOff: \\"back-off %s restarting failed '
                  'container=sdk-0-0 pod=%s\\"" pod="default/%s" podUID=%s'
                  % (['10s', '20s', '40s', '1m20s', '2m40s'][k], pod, w, uid), sev='ERROR',
                  src='vcluster-162', mark='crash' if k == 0 else None)
        t += [12, 24, 45, 85, 165][k]
    c.output('export.ndjson')
    c.fire('container-arch-mismatch', marks=['arch'])
    c.fire('container-crash-loop', marks=['crash'], caused_by='container-arch-mismatch')
