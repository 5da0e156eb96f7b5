from corpuslib import noise as N


def build(c):
    c.describe('''
        Application-class NVIDIA Xids (13/31/43/45/68/109: the GPU stays healthy): the kernel log
        of a T4 worker shows "NVRM: Xid (PCI:0000:00:05): 43, pid=1045242, name=pt_main_thread, Ch
        00000008" twice and an MMU fault "NVRM: Xid (PCI:0000:00:05): 31, pid=2512125,
        name=python3.10, Ch 00000008, intr 00000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_8
        faulted @ 0x73ac_1c000000. Fault is of type FAULT_PDE ACCESS_TYPE_VIRT_WRITE" (real lines,
        akash-network/support#244; that Dataflow's system log carries them is inferred). The fix
        points at the user code / CUDA kernels, not the VM. NDJSON sink shard.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/traffic-cams-ai/custom-kernels:0.9', disk=60)
    j = c.job('flow-estimation-custom-ops', '2024-08-01T23:05:50Z', region='us-central1',
              zone='us-central1-b', project='traffic-cams-ai', python='3.10', beam='2.58.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 610
    j.system(t - 0.0001, w, 'NVRM: GPU at PCI:0000:00:05: GPU-efbdfde9-5798-a6e7-4c46-12518fa15375',
             src='akash-244')
    j.system(t, w, 'NVRM: Xid (PCI:0000:00:05): 43, pid=1045242, name=pt_main_thread, Ch 00000008',
             src='akash-244', mark='xid')
    j.system(t + 68.0, w, 'NVRM: Xid (PCI:0000:00:05): 43, pid=1084984, name=pt_main_thread, '
             'Ch 00000008', src='akash-244')
    j.system(t + 412.0, w, 'NVRM: Xid (PCI:0000:00:05): 31, pid=2512125, name=python3.10, Ch '
             '00000008, intr 00000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_8 faulted @ '
             '0x73ac_1c000000. Fault is of type FAULT_PDE ACCESS_TYPE_VIRT_WRITE', src='akash-244',
             mark='xid31')
    c.output('export.ndjson')
    c.fire('gpu-xid-error', marks=['xid', 'xid31'])
