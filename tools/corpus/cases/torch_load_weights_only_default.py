from corpuslib import noise as N, texts as T

STEP = 'Embed'
STEPS = ['S01:ReadImages/Read+Embed+WriteVectors/Write']
WO = ("_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two "
      "options, \x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, "
      "we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. "
      "Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in "
      "arbitrary code execution. Do it only if you got the file from a trusted source.\n\t(2) Alternatively, to "
      "load with `weights_only=True` please check the recommended steps in the following error message.\n\t"
      "WeightsUnpickler error: Unsupported global: GLOBAL torch.nn.modules.container.Sequential was not an "
      "allowed global by default. Please use `torch.serialization.add_safe_globals([Sequential])` or the "
      "`torch.serialization.safe_globals([Sequential])` context manager to allowlist this global if you trust "
      "this class/function.\n\nCheck the documentation of torch.load to learn more about types accepted by "
      "default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")
SRC_WO = ('pytorch/pytorch torch/serialization.py load(), _get_wo_message (2.6, PR #141304), with the ANSI '
          'bold span as raw logs keep it; the unsupported-global wording as e3nn/e3nn#519 and '
          'sktime/pytorch-forecasting#1998 quote it (the class of a whole saved model adapted)', 'V-code')
SP = T.sp('3.11')


def build(c):
    c.describe('''
        PyTorch 2.6's weights_only default (issue 40, PyTorch 2.x): a DoFn's setup at
        /app/embed.py:31 loads a whole saved model (torch.save(model)) with torch.load. The image
        picked up torch 2.6 through an unpinned requirements.txt, so torch.load refuses it:
        "_pickle.UnpicklingError: Weights only load failed. … In PyTorch 2.6, we changed the default
        value of the `weights_only` argument … Unsupported global: GLOBAL
        torch.nn.modules.container.Sequential was not an allowed global by default", with the ANSI
        bold span and tab-indented lines the message really has. Beam re-raises it with the step;
        four attempts fail the job. torch-load-weights-only fires and names the global.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('image-vectors-nightly', '2025-02-11T03:00:06Z', region='us-central1',
              zone='us-central1-f', python='3.11', beam='2.62.0', workers=1)
    ready = N.bring_up(j, cf)
    tb = T.user_tb('3.11', [
        '  File "%s/apache_beam/runners/common.py", line 1562, in _invoke_setup' % SP,
        '    self.do_fn_invoker.invoke_setup()',
        '  File "/app/embed.py", line 31, in setup',
        '    self._model = torch.load(local_path, map_location="cuda")',
        '  File "%s/torch/serialization.py", line 1470, in load' % SP,
        '    raise pickle.UnpicklingError(_get_wo_message(str(e))) from None',
    ], WO + " [while running '%s']" % STEP)
    t = ready + 35
    t = N.failed_attempts(j, t, j.w[0], tb, STEP, src=SRC_WO, cite='Weights only load failed', gap=40.0,
                          mark='wo')
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json')
    c.fire('torch-load-weights-only', marks=['wo'], captures={'global': 'torch.nn.modules.container.Sequential'})
    c.fire('work-item-failed', marks=['wif'], caused_by='torch-load-weights-only')
    c.fire('workflow-failed', marks=['wif'], caused_by='torch-load-weights-only')
    c.not_fire('gpu-out-of-memory', 'gpu-not-used', 'cuda-driver-too-old')
