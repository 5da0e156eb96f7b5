from corpuslib import noise as N


def build(c):
    c.describe('''
        A 14 GB CUDA image on a 25 GB boot disk (disk_size_gb=25): pulling it fails with
        "failed to register layer: Error processing tar file(exit status 1): write
        /usr/local/cuda-11.8/targets/x86_64-linux/lib/libcublasLt.so.11: no space left on device"
        (docker's real wording, seen outside Dataflow, inside the real Dataflow kubelet
        "PullImage from image service failed" line format), followed by ErrImagePull. The full
        disk is the root cause; the image-pull failure is reported alongside.''')
    img = 'us-central1-docker.pkg.dev/acme-ml-prod/dataflow/triton-infer:24.01-py3'
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'], image=img, disk=25)
    j = c.job('triton-batch-scoring', '2024-01-22T19:45:00Z', region='us-central1',
              zone='us-central1-f', python='3.10', beam='2.53.0')
    N.submit(j, cf)
    N.started(j, cf, 60.0)
    w = j.w[0]
    t = N.vm_boot(j, w, 64.0)
    t = N.driver_install(j, w, cf, t + 2.0)
    uid = '0f4e3c2a-9d18-4b57-8a21-6c3e5f7a9b10'
    for k in range(3):
        j.kubelet(t, w, 'Checking docker image integrity of %s' % img, src='df-templates-1761')
        j.kubelet(t + 412.0, w, '"PullImage from image service failed" err="rpc error: code = '
                  'Unknown desc = failed to register layer: Error processing tar file(exit status '
                  '1): write /usr/local/cuda-11.8/targets/x86_64-linux/lib/libcublasLt.so.11: no '
                  'space left on device" image="%s"' % img, sev='ERROR', src='docker-no-space',
                  mark='disk' if k == 0 else None)
        j.kubelet(t + 412.5, w, '"Error syncing pod, skipping" err="failed to \\"StartContainer\\" '
                  'for \\"sdk-0-0\\" with ErrImagePull: \\"rpc error: code = Unknown desc = failed '
                  'to register layer: Error processing tar file(exit status 1): write '
                  '/usr/local/cuda-11.8/targets/x86_64-linux/lib/libcublasLt.so.11: no space left on '
                  'device\\"" pod="default/%s" podUID=%s' % (w, uid), sev='ERROR',
                  src='df-templates-1761', mark='pullerr' if k == 0 else None)
        t += 600.0
    c.output('export.json')
    c.fire('worker-disk-full', marks=['disk'])
    c.fire('container-image-pull-failed', marks=['pullerr'], caused_by='worker-disk-full')
