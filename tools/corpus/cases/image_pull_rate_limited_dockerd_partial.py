from corpuslib import noise as N

IMG = 'acmevision/beam-detect-gpu:2.50.0-cu118'
ERR_429 = ('toomanyrequests: You have reached your pull rate limit. You may increase the limit by '
           'authenticating and upgrading: https://www.docker.com/increase-rate-limit')
SRC_429 = ('dockerd "Error response from daemon: toomanyrequests: You have reached your pull rate limit. '
           'You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit" '
           '(docker/hub-feedback#2429, caprover/caprover#935, the 2020-2024 wording) inside kubelet\'s '
           '"PullImage from image service failed" err="..." image="..." line of Dataflow workers '
           '(GoogleCloudPlatform/DataflowTemplates#1487); the image name is ours', 'V-other')
SRC_SYNC = ('kubelet pod_workers.go "Error syncing pod, skipping" err="failed to \\"StartContainer\\" for '
            '\\"sdk-0-0\\" with ErrImagePull / ImagePullBackOff: \\"Back-off pulling image ...\\"" as '
            'Dataflow workers print it (GoogleCloudPlatform/DataflowTemplates#1761, #1817); the '
            'ErrImagePull form carrying the daemon error is kubelet\'s, the text inside is docker\'s', 'V-other')


def pull_failed(j, t, w, mark=None):
    j.kubelet(t, w, '"PullImage from image service failed" err="rpc error: code = Unknown desc = Error '
              'response from daemon: %s" image="%s"' % (ERR_429, IMG), sev='ERROR', src=SRC_429, mark=mark)


def sync_err_pull(j, t, w, uid, mark=None):
    j.kubelet(t, w, '"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"sdk-0-0\\" '
              'with ErrImagePull: \\"rpc error: code = Unknown desc = Error response from daemon: %s\\"" '
              'pod="default/%s" podUID=%s' % (ERR_429, w, uid), sev='ERROR', src=SRC_SYNC, mark=mark)


def sync_backoff(j, t, w, uid):
    j.kubelet(t, w, '"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"sdk-0-0\\" '
              'with ImagePullBackOff: \\"Back-off pulling image \\\\\\"%s\\\\\\"\\"" pod="default/%s" '
              'podUID=%s' % (IMG, w, uid), sev='ERROR', src='df-templates-1761')


def build(c):
    c.describe('''
        Docker Hub's anonymous pull limit, 2023 wording, seen through dockerd (a different variant
        from the 2025 "unauthenticated pull rate limit" through containerd): a batch object-detection
        job on three T4 workers without external IPs pulls its SDK image
        acmevision/beam-detect-gpu:2.50.0-cu118 from Docker Hub anonymously through the subnetwork's
        Cloud NAT address. The first worker's first pull gets "toomanyrequests: You have reached your
        pull rate limit. You may increase the limit by authenticating and upgrading: …" once, and
        kubelet's retry 2.5 minutes later gets through: its SDK harness starts and it works (the
        healthy near miss: a 429 a later pull on the same worker got past is not the finding). The
        other two workers keep getting the 429 in kubelet's "PullImage from image service failed"
        line and "Error syncing pod … ErrImagePull / ImagePullBackOff" for 45 minutes and never start
        an SDK process, so the job runs on a third of its workers. The export was taken 52 minutes in,
        with the job still running. container-image-pull-rate-limited fires on the two starved
        workers and explains container-image-pull-failed; no stall is reported.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=3,
               max_workers=3, experiments=['no_use_multiple_sdk_containers'], image=IMG, disk=50,
               extra_options={'use_public_ips': False,
                              'subnetwork': 'regions/us-central1/subnetworks/dataflow-private'})
    j = c.job('detect-shelf-images-backfill', '2023-10-17T14:02:09Z', region='us-central1',
              zone='us-central1-b', python='3.10', beam='2.50.0', workers=3)
    N.submit(j, cf)
    N.started(j, cf, 59.0, n=3)
    uids = ['5b0c9e7a-1f2d-4c3b-9a8e-7d6f5e4c3b2a', '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
            '2c4e6a8b-0d1f-4a3c-9e5b-7d9f1b3d5f7a']
    # worker 0: one 429, then kubelet's retry gets through and the SDK starts
    w0 = j.w[0]
    t = N.vm_boot(j, w0, 64.0)
    t = N.driver_install(j, w0, cf, t + 2.0)
    j.kubelet(t + 3.0, w0, 'Checking docker image integrity of %s' % IMG, src='df-templates-1761')
    pull_failed(j, t + 9.4, w0, mark='transient')
    sync_err_pull(j, t + 9.9, w0, uids[0])
    sync_backoff(j, t + 24.0, w0, uids[0])
    N.sdk_boot(j, w0, cf, t + 160.0)
    N.runnerv2_notice(j, 105.0)
    # workers 1 and 2: the limit stays exhausted; kubelet backs off up to 5 minutes between pulls
    for i, w in enumerate(j.w[1:]):
        t = N.vm_boot(j, w, 70.3 + i * 6.1)
        t = N.driver_install(j, w, cf, t + 2.0)
        k = 0
        while t < 52 * 60 - 330:
            j.kubelet(t + 3.0, w, 'Checking docker image integrity of %s' % IMG, src='df-templates-1761')
            pull_failed(j, t + 9.6, w, mark='ratelimit' if (i, k) == (0, 0) else None)
            sync_err_pull(j, t + 10.1, w, uids[i + 1], mark='pullerr' if (i, k) == (0, 0) else None)
            sync_backoff(j, t + 25.0, w, uids[i + 1])
            t += min(20.0 * 2 ** k, 300.0) + 14.0
            k += 1
    c.output('export.json')
    c.fire('container-image-pull-rate-limited', marks=['ratelimit'], captures={'image': IMG})
    c.fire('container-image-pull-failed', marks=['pullerr'], caused_by='container-image-pull-rate-limited')
    c.not_fire('container-crash-loop', 'workers-stuck-no-activity', 'hf-hub-rate-limited', 'worker-disk-full')
