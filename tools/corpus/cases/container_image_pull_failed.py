from corpuslib import noise as N


def build(c):
    c.describe('''
        The worker cannot pull the SDK container image (a release-candidate tag that does not
        exist): kubelet logs "Checking docker image integrity of
        gcr.io/cloud-dataflow/v1beta3/beam_python3.11_sdk:2.59.0rc1", then "PullImage from image
        service failed" err="... manifest for ... not found: manifest unknown ..." and the
        structured "Error syncing pod, skipping" err="failed to \\"StartContainer\\" for
        \\"sdk-0-0\\" with ImagePullBackOff: ..." (real lines from Dataflow workers,
        GoogleCloudPlatform/DataflowTemplates#1487, #1761, #1817), again and again. The export
        was taken 25 minutes in, before any stall message.''')
    img = 'gcr.io/cloud-dataflow/v1beta3/beam_python3.11_sdk:2.59.0rc1'
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'], image=img, disk=50)
    j = c.job('df-test-big-query-to-elastic', '2024-08-27T21:07:30Z', region='us-central1',
              zone='us-central1-b', project='cloud-teleport-testing', python='3.11',
              beam='2.59.0rc1')
    N.submit(j, cf, steps=['ReadFromBigQuery/Read+PythonUdf+WriteToElasticsearch'])
    N.started(j, cf, 58.0)
    w = j.w[0]
    t = N.vm_boot(j, w, 63.0)
    t = N.driver_install(j, w, cf, t + 2.0)
    uid = '364a054aa3ad058d1dcf9ba9a850ce82'
    for k in range(6):
        j.kubelet(t, w, 'Checking docker image integrity of %s' % img, src='df-templates-1761')
        j.kubelet(t + 1.9, w, '"PullImage from image service failed" err="rpc error: code = Unknown '
                  'desc = Error response from daemon: manifest for %s not found: manifest unknown: '
                  'Failed to fetch \\"2.59.0rc1\\" from request \\"/v2/cloud-dataflow/v1beta3/'
                  'beam_python3.11_sdk/manifests/2.59.0rc1\\"." image="%s"' % (img, img),
                  sev='ERROR', src='df-templates-1487', mark='pull' if k == 0 else None)
        j.kubelet(t + 2.4, w, '"Error syncing pod, skipping" err="failed to \\"StartContainer\\" '
                  'for \\"sdk-0-0\\" with ImagePullBackOff: \\"Back-off pulling image '
                  '\\\\\\"%s\\\\\\"\\"" pod="default/%s" podUID=%s' % (img, w, uid), sev='ERROR',
                  src='df-templates-1761', mark='backoff' if k == 0 else None)
        t += 240.0
    c.output('export.json')
    c.fire('container-image-pull-failed', marks=['pull', 'backoff'])
    c.not_fire('container-crash-loop')
