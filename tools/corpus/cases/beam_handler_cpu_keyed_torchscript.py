from corpuslib import noise as N

STEP = 'ScoreListings'
STEPS = ['S03:ReadListings/Read+Tokenize+ScoreListings/BeamML_RunInference+WriteScores/Write']

SRC_LOAD = ('apache/beam sdks/python/apache_beam/ml/inference/pytorch_inference.py _load_model (2.44+, '
            'torch_script_model_path): logging.info("Loading state_dict_path %s onto a %s device", '
            'state_dict_path, device) with state_dict_path None for a TorchScript model and device '
            'torch.device(\'cpu\') (PytorchModelHandlerKeyedTensor device default \'CPU\'), then '
            '"Finished loading PyTorch model."', 'V-code')
SRC_CTOR = ('apache/beam pytorch_inference.py PytorchModelHandlerKeyedTensor.__init__: logging.info("Device is '
            'set to CPU") when device is not \'GPU\' (here device=\'cuda\'), printed where the pipeline is '
            'constructed', 'V-code')
SRC_DOFN = ('the pipeline\'s own DoFn lines: a start-up GPU check and throughput counters (synthetic)', 'I')


def build(c):
    c.describe('''
        Beam's PyTorch handler on the CPU of a GPU worker (the beam-model-handler-on-cpu family of
        heldout-stacks-13's hs13-09, another variant): a listing-quality job on Beam 2.56.0 scores
        tokenized listings with PytorchModelHandlerKeyedTensor(torch_script_model_path=...,
        device='cuda'). Beam selects the GPU only for the exact string 'GPU', so 'cuda' means the CPU:
        each of the two n1-standard-8 workers with a T4 logs "Loading state_dict_path None onto a cpu
        device" (state_dict_path is None for a TorchScript model). The pipeline's own GPU check says
        torch sees the T4 (cuda available=True); the job runs 2 h 40 min at a CPU's pace and
        succeeds: beam-model-handler-on-cpu fires (error, hides_failure), and gpu-not-used,
        torch-cpu-only-build and gpu-driver-missing stay quiet. Near misses: the handler
        constructor's "Device is set to CPU" in the harness start-up, the DoFn's healthy GPU check,
        "Finished loading PyTorch model.", the normal worker boot.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2, max_workers=2,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS, disk=80,
               image='us-central1-docker.pkg.dev/marketly-ml/dataflow/listing-quality:2.56.0-cu121')
    j = c.job('listing-quality-rescore', '2025-03-04T07:12:40Z', region='us-central1', zone='us-central1-c',
              project='marketly-ml', python='3.10', beam='2.56.0', workers=2)
    ready = N.bring_up(j, cf)
    marks = []
    for i, w in enumerate(j.w):
        t = ready + 14.0 + 5.3 * i
        j.wlog(t, w, 'GPU check: torch 2.3.1+cu121 cuda available=True device_count=1 name=Tesla T4',
               src=SRC_DOFN, module='/usr/local/lib/python3.10/site-packages/listing_quality/score.py', line=38,
               step=STEP)
        j.wlog(t + 0.6, w, 'Device is set to CPU', src=SRC_CTOR,
               module='apache_beam/ml/inference/pytorch_inference.py', line=388, step=STEP)
        m = 'cpu-%d' % i
        marks.append(m)
        j.wlog(t + 1.1, w, 'Loading state_dict_path None onto a cpu device', src=SRC_LOAD, mark=m,
               module='apache_beam/ml/inference/pytorch_inference.py', line=103, step=STEP)
        j.wlog(t + 6.8, w, 'Finished loading PyTorch model.', src=SRC_LOAD,
               module='apache_beam/ml/inference/pytorch_inference.py', line=127, step=STEP)
        for k in range(5):
            j.wlog(t + 1800.0 * (k + 1), w, 'scored %d listings so far (%.1f listings/s)'
                   % (61000 * (k + 1), 33.9 + 0.4 * ((k + i) % 3)), src=SRC_DOFN,
                   module='/usr/local/lib/python3.10/site-packages/listing_quality/score.py', line=71, step=STEP)
    end = ready + 9650.0
    for w in j.w:
        N.sdk_shutdown(j, w, end - 35.0)
    N.teardown(j, cf, end, n=2)
    c.output('export.ndjson')
    c.fire('beam-model-handler-on-cpu', marks=marks)
    c.not_fire('gpu-not-used', 'torch-cpu-only-build', 'gpu-driver-missing', 'cuda-libraries-missing')
    c.no_unexplained()
