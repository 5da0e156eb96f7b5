from corpuslib import noise as N


def build(c):
    c.describe('''
        Hardware-class NVIDIA Xid: mid-job, the worker's kernel (system log) reports "NVRM: GPU at
        PCI:0000:00:04: GPU-979426f2-...", "NVRM: Xid (PCI:0000:00:04): 79, pid='<unknown>',
        name=<unknown>, GPU has fallen off the bus." and "NVRM: GPU 0000:00:04.0: GPU has fallen
        off the bus." (real lines, akash-network/support#209, PCI address adapted to a GCE
        worker; that Dataflow's system log carries kernel NVRM lines is inferred). Xid 79 is a
        hardware/driver class error: the fix is to replace the VM, not to change code. The
        export ends right after. (The rule pack reports hardware Xids as gpu-xid-hardware;
        issue 3 folds both classes into gpu-xid-error.)''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2,
               max_workers=2, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/medimg-research/seg-infer:tf2.11', disk=60)
    j = c.job('ct-segmentation-q3', '2024-04-08T07:25:13Z', region='us-central1',
              zone='us-central1-a', project='medimg-research', python='3.10', beam='2.55.0',
              workers=2)
    ready = N.bring_up(j, cf, tf=True)
    w = j.w[1]
    t = ready + 1730
    j.system(t, w, 'NVRM: GPU at PCI:0000:00:04: GPU-979426f2-893a-7cbb-c4cf-81472f89a462',
             src='akash-209')
    j.system(t + 0.00002, w, "NVRM: Xid (PCI:0000:00:04): 79, pid='<unknown>', name=<unknown>, "
             "GPU has fallen off the bus.", src='akash-209', mark='xid')
    j.system(t + 0.00004, w, 'NVRM: GPU 0000:00:04.0: GPU has fallen off the bus.',
             src='akash-209')
    c.output('export.json')
    # Issue 3 names one rule, gpu-xid-error, with application and hardware classes; the rule pack
    # splits the hardware class into gpu-xid-hardware. Labelled as the pack reports it.
    c.fire('gpu-xid-hardware', marks=['xid'])
    c.not_fire('gpu-xid-error')
