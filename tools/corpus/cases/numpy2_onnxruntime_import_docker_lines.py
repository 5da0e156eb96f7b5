from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
STEPS = ['S01:ReadListings/Read+RunInference/BeamML_RunInference+WriteEmbeddings/Write']
SP = T.sp('3.10')
SRC_NUMPY = ('numpy/numpy numpy/core/_multiarray_umath.py __getattr__ (2.0.0 on): the refusal written to stderr, '
             'a blank line first and no newline after "Traceback (most recent call last):"; the docker log keeps '
             'one entry per line (apache/beam PR #33317); the version and frames as an onnxruntime 1.18 import '
             'under NumPy 2.0.2 prints them', 'V-code')
SRC_ORT = ('hacksider/Deep-Live-Cam#1055 and microsoft/onnxruntime#21063: onnxruntime ≤ 1.18 under NumPy 2 — '
           '"AttributeError: _ARRAY_API not found", "ImportError: numpy.core.multiarray failed to import", '
           '"SystemError: <built-in function __import__> returned a result with an exception set" (Beam\'s '
           'onnx_inference.py frames and line numbers ours)', 'V-other')

REFUSAL = [
    'A module that was compiled using NumPy 1.x cannot be run in',
    'NumPy 2.0.2 as it may crash. To support both 1.x and 2.x',
    'versions of NumPy, modules must be compiled with NumPy 2.0.',
    "Some module may need to rebuild instead e.g. with 'pybind11>=2.12'.",
    '',
    'If you are a user of the module, the easiest solution will be to',
    "downgrade to 'numpy<2' or try to upgrade the affected module.",
    'We expect that some modules will need time to support NumPy 2.',
    '',
    'Traceback (most recent call last):  File "/usr/local/lib/python3.10/site-packages/apache_beam/ml/inference/onnx_inference.py", line 112, in load_model',
    '    import onnxruntime as ort',
    '  File "/usr/local/lib/python3.10/site-packages/onnxruntime/capi/_pybind_state.py", line 32, in <module>',
    '    from .onnxruntime_pybind11_state import *  # noqa',
]


def build(c):
    c.describe('''
        NumPy 2 under a package built for NumPy 1 (issue 40, runtimes): a listing-embedding job with
        Beam's ONNX model handler installs onnxruntime-gpu 1.18 and, through an unpinned
        requirement, NumPy 2.0.2. Importing onnxruntime in the handler's load_model makes NumPy write
        its refusal to stderr ("A module that was compiled using NumPy 1.x cannot be run in / NumPy
        2.0.2 as it may crash …"), which the docker log keeps as one ERROR entry per line, the version
        on the second; the import then fails with "AttributeError: _ARRAY_API not found", "ImportError:
        numpy.core.multiarray failed to import" and a SystemError, four times, and the job fails.
        numpy-abi-mismatch leads and its first fix names NumPy 2.0.2; the SystemError is not an
        unexplained cause of its own.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('listing-embeddings-ort', '2024-07-02T03:10:00Z', region='us-central1', zone='us-central1-a',
              python='3.10', beam='2.57.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 20
    err = ('SystemError: <built-in function __import__> returned a result with an exception set')
    for attempt in range(4):
        j.docker_lines(t, w, REFUSAL, src=SRC_NUMPY, mark='refusal' if attempt == 0 else None)
        tb = T.augmented_tb('3.10', [
            '  File "%s/apache_beam/ml/inference/base.py", line 1429, in _run_inference' % SP,
            '    self._model = self._load_model()',
            '  File "%s/apache_beam/ml/inference/onnx_inference.py", line 112, in load_model' % SP,
            '    import onnxruntime as ort',
            '  File "%s/onnxruntime/capi/_pybind_state.py", line 32, in <module>' % SP,
            '    from .onnxruntime_pybind11_state import *  # noqa',
            'AttributeError: _ARRAY_API not found',
            'ImportError: numpy.core.multiarray failed to import',
            '',
            T.DIRECT,
            '',
            'Traceback (most recent call last):',
            '  File "%s/onnxruntime/capi/_pybind_state.py", line 32, in <module>' % SP,
            '    from .onnxruntime_pybind11_state import *  # noqa',
        ], err, STEP)
        j.wlog(t + 0.5, w, T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR', src=SRC_ORT,
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (11 + attempt),
               step=STEP, mark='import' if attempt == 0 else None)
        t += 33.0
    N.fail_work_item_4(j, cf, t + 2.0, STEPS[0], [w] * 4)
    c.output('export.json')
    c.fire('numpy-abi-mismatch', marks=['refusal', 'import'])
    c.fire('work-item-failed', marks=['wif'], caused_by='numpy-abi-mismatch')
    c.fire('workflow-failed', marks=['wif'], caused_by='numpy-abi-mismatch')
    c.not_fire('gpu-not-used', 'cuda-libraries-missing', 'beam-version-mismatch')
    c.no_unexplained()
