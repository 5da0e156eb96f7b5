from corpuslib import noise as N


def build(c):
    c.describe('''
        Token order matters in worker_accelerator (Dataflow GPU page, "Verify your Dataflow job"):
        the job was submitted with worker_accelerator=count:1;type:nvidia-tesla-t4;install-nvidia-driver
        (count before type). The option is echoed in "Python sdk harness started with
        pipeline_options: {...}" (real line format; the mistake and its effect are SYNTHETIC, no
        error text is known). No driver line and no GPU device appear; those absences may or may
        not be reported on top of the configuration finding.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               accelerator='count:1;type:nvidia-tesla-t4;install-nvidia-driver',
               image='gcr.io/agri-yield-ml/field-seg:tf2.11-gpu', disk=60)
    j = c.job('field-boundary-seg-v3', '2023-03-02T09:18:25Z', region='us-central1',
              zone='us-central1-b', project='agri-yield-ml', python='3.9', beam='2.45.0')
    ready = N.bring_up(j, cf, driver_lines=False)
    w = j.w[0]
    end = ready + 2600
    N.sdk_shutdown(j, w, end - 20)
    N.teardown(j, cf, end)
    c.output('export.json')
    c.fire('accelerator-option-malformed', marks=[])   # fact rule: no evidence line asserted
    c.may_fire('gpu-driver-missing')
