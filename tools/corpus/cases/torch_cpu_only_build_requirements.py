from corpuslib import noise as N, texts as T

STEP = 'Classify'
STEPS = ['S01:ReadDocs/Read+Classify+WriteLabels/Write']
SP = T.sp('3.11')
SRC_ASSERT = ('pytorch/pytorch torch/cuda/__init__.py _lazy_init: raise AssertionError("Torch not compiled with CUDA '
              'enabled"), as m-bain/whisperX#983 shows it (torch 2.5; the line number of that release; the '
              'frames above it composed from Beam and torch.nn.Module.to)', 'V-code')
SRC_XF = ('facebookresearch/xformers xformers/_cpp_lib.py: WARNING[XFORMERS] "built for: PyTorch … (you have '
          '2.5.1+cpu)", as facebookresearch/xformers#982 and open-mmlab/PIA#30 show the "+cpu" form (versions '
          'adapted)', 'V-code')
SRC_PIP = ('pip\'s "Successfully installed …" line at the SDK container\'s start, with torch\'s CPU build from the '
           'index the requirements file names (apache/beam boot.go installs extra packages; versions adapted)', 'V-code')


def build(c):
    c.describe('''
        A CPU-only PyTorch in a GPU job (issue 40, PyTorch): the team's requirements.txt pins
        --extra-index-url https://download.pytorch.org/whl/cpu (copied from a CPU service), so the
        SDK container installs torch 2.5.1+cpu over the image's CUDA build. xFormers warns that it
        was built for 2.5.1+cu121 "(you have 2.5.1+cpu)"; the DoFn's setup moves the model to the
        GPU and torch raises "AssertionError: Torch not compiled with CUDA enabled". Four
        attempts, the job fails. torch-cpu-only-build leads with both lines as evidence; the
        GPU and its driver are fine (gpu-driver-missing stays quiet). pip's install line is a near
        miss.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('doc-labels-t4', '2026-06-02T13:10:07Z', region='europe-west1',
              zone='europe-west1-d', python='3.11', beam='2.67.0', workers=1)
    ready = N.bring_up(j, cf)
    j.docker(ready + 2, j.w[0], 'Successfully installed torch-2.5.1+cpu xformers-0.0.28.post3', src=SRC_PIP)
    t = ready + 20
    for attempt in range(4):
        first = attempt == 0
        j.docker(t, j.w[0], "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
                 "    PyTorch 2.5.1+cu121 with CUDA 1201 (you have 2.5.1+cpu)\n"
                 "    Python  3.11.10 (you have 3.11.10)\n"
                 "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)\n"
                 "  Memory-efficient attention, SwiGLU, sparse and more won't be available.\n"
                 "  Set XFORMERS_MORE_DETAILS=1 for more details", sev='ERROR', src=SRC_XF,
                 mark='xf' if first else None)
        tb = T.augmented_tb('3.11', [
            '  File "/app/classify.py", line 22, in setup',
            '    self._model = AutoModelForSequenceClassification.from_pretrained(self._path).to("cuda")',
            '  File "%s/torch/nn/modules/module.py", line 1340, in to' % SP,
            '    return self._apply(convert)',
            '  File "%s/torch/cuda/__init__.py", line 310, in _lazy_init' % SP,
            '    raise AssertionError("Torch not compiled with CUDA enabled")',
        ], 'AssertionError: Torch not compiled with CUDA enabled', STEP)
        j.wlog(t + 2, j.w[0], T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR', src=SRC_ASSERT,
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (11 + attempt),
               step=STEP, mark='assert' if first else None)
        t += 35.0
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.ndjson')
    c.fire('torch-cpu-only-build', marks=['assert', 'xf'], captures={'torch_build': '2.5.1+cpu'})
    c.fire('work-item-failed', marks=['wif'], caused_by='torch-cpu-only-build')
    c.fire('workflow-failed', marks=['wif'], caused_by='torch-cpu-only-build')
    c.not_fire('gpu-driver-missing', 'cuda-extension-abi-mismatch', 'gpu-not-used')
