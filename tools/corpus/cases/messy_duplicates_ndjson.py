from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
OOM = ('RuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB (GPU 0; 5.70 GiB total '
       'capacity; 2.97 GiB already allocated; 340.50 MiB free; 3.57 GiB reserved in total by '
       'PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid '
       'fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF')


def build(c):
    c.describe('''
        Duplicated entries: two overlapping log sinks wrote into the same bucket, so six entries
        appear twice in the NDJSON shard with the same insertId and timestamp (among them the
        OOM entry and two job messages). gpudiag must de-duplicate them, report 6 duplicates, and
        count the OOM once. Signal: "RuntimeError: CUDA out of memory. Tried to allocate 602.00
        MiB (GPU 0; 5.70 GiB total capacity; ...)" (real, yyliu01/RPL#14, outside Dataflow) on a
        P4 worker. Evidence lines name the first copy.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-p4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/seg-lab-3321/deeplab:torch1.11', disk=50)
    j = c.job('street-scene-segmentation', '2022-04-12T16:20:45Z', region='us-central1',
              zone='us-central1-c', project='seg-lab-3321', python='3.8', beam='2.37.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    tb = T.torch_oom_tb('3.8', OOM)
    t = ready + 120
    e = j.wlog(t, w, T.instruction_error('process_bundle-5', tb), sev='ERROR', src='rpl-14',
               module='apache_beam/runners/worker/sdk_worker.py', line=303, cite=OOM, mark='oom',
               thread='Thread-23', step=STEP)
    m = j.msg(t + 3.2, T.worker_error_msg(tb, STEP + '-ptransform-40'), sev='ERROR', src='rpl-14',
              cite='Error message from worker: generic::unknown: Traceback … RuntimeError: CUDA '
                   'out of memory. Tried to allocate 602.00 MiB …', mark='jm')
    j.wlog(t + 150, w, T.instruction_error('process_bundle-6', tb), sev='ERROR', src='rpl-14',
           module='apache_beam/runners/worker/sdk_worker.py', line=303, cite=OOM,
           thread='Thread-24', step=STEP, mark='oom2')
    c.output('export.ndjson')
    dup_entries = [e, m]
    noise = [x for x in c.entries if x.log in ('kubelet', 'system', 'job-message')
             and x is not m][:4]
    c.outputs[0].duplicates = dup_entries + noise
    c.fire('gpu-out-of-memory', marks=['oom'])
