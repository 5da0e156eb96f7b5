from corpuslib import noise as N

MSG = ("Workflow failed. Causes: One or more operations had an error: 'operation-1718031539870-"
       "61a8e5b0b1e2d-8e0fd3b0-3c0d2a4e': [UNSUPPORTED_OPERATION] '4 vCpus with 16384 MiB memory "
       "is an invalid configuration for 2 count of 'nvidia-l4' in family 'g2-standard'.'.")


def build(c):
    c.describe('''
        GPU count does not fit the machine type: worker_accelerator asks for 2 L4 GPUs on a
        g2-standard-4 (which carries exactly one). The job fails at startup with "Workflow
        failed. Causes: One or more operations had an error: 'operation-...':
        [UNSUPPORTED_OPERATION] '4 vCpus with 16384 MiB memory is an invalid configuration for 2
        count of 'nvidia-l4' in family 'g2-standard'.'." - the Dataflow right-fitting page's
        template with our values (V-tmpl).''')
    cf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', gpu_count=2, driver=True, num_workers=1,
               max_workers=1)
    j = c.job('video-captioning-l4x2', '2024-06-10T14:58:56Z', region='us-central1',
              zone='us-central1-a', project='media-ai-lab', python='3.11', beam='2.56.0',
              workers=0)
    N.submit(j, cf, steps=['ReadClips/Read+Caption+WriteCaptions/Write/WriteImpl/WriteBundles'])
    N.fail(j, cf, 31.2, MSG, src='docs-invalid-config', mark='cfg',
           cite="… '4 vCpus with 16384 MiB memory is an invalid configuration for 2 count of "
                "'nvidia-l4' in family 'g2-standard'.'.")
    c.output('export.json')
    c.fire('accelerator-machine-mismatch', marks=['cfg'])
    c.fire('workflow-failed', marks=['cfg'], caused_by='accelerator-machine-mismatch')
