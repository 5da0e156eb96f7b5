from corpuslib import noise as N, texts as T

STEP = 'EmbedListings'
STAGE = 'S01:ReadListings/Read+EmbedListings+WriteEmbeddings/Write'
SP = T.sp('3.10')
ALIAS = ("AttributeError: module 'numpy' has no attribute 'object'.\n"
         "`np.object` was a deprecated alias for the builtin `object`. To avoid this error in existing code, use "
         "`object` by itself. Doing this will not modify any behavior and is safe. \n"
         "The aliases was originally deprecated in NumPy 1.20; for more details and guidance see the original "
         "release note at:\n"
         "    https://numpy.org/devdocs/release/1.20.0-notes.html#deprecations")
SRC_SKIMAGE = ('numpy/numpy numpy/__init__.py (1.24 on): the DeprecationWarning "`np.bool8` is a deprecated alias '
               'for `np.bool_`.  (Deprecated NumPy 1.24)" for a name that still works; scikit-image 0.19 '
               'skimage/util/dtype.py names np.bool8 (path and line ours)', 'V-code')


def build(c):
    c.describe('''
        Code written for NumPy < 1.24 under NumPy 1.26 (issue 40, version skew): a listing-embedding
        job's image pins onnx 1.10.2 (for an old export script) beside onnxruntime-gpu, and leaves
        NumPy unpinned, so the image gets NumPy 1.26.4. The DoFn's setup() imports onnx.numpy_helper,
        whose onnx/mapping.py still maps STRING to np.dtype(np.object): "AttributeError: module
        'numpy' has no attribute 'object'. `np.object` was a deprecated alias for the builtin
        `object` …", four times, and the job fails. numpy-alias-removed fires and names onnx and the
        alias. Near miss in the same export: scikit-image's DeprecationWarning for np.bool8, a name
        that still works in 1.26; not the binary mismatch of numpy-abi-mismatch.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'],
               image='europe-west1-docker.pkg.dev/acme-market/beam/listing-embed:2024.11.2', steps=[STAGE])
    j = c.job('listing-embeddings-l4', '2024-11-19T15:20:44Z', region='europe-west1', zone='europe-west1-b',
              python='3.10', beam='2.60.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    j.wlog(ready + 8, w, '%s/skimage/util/dtype.py:27: DeprecationWarning: `np.bool8` is a deprecated alias for '
           '`np.bool_`.  (Deprecated NumPy 1.24)' % SP, sev='WARNING', src=SRC_SKIMAGE, module='py.warnings',
           step=STEP)
    tb = T.user_tb('3.10', [
        '  File "%s/apache_beam/runners/common.py", line 1562, in _invoke_setup' % SP,
        '    self.do_fn_invoker.invoke_setup()',
        '  File "/app/embed/dofns.py", line 31, in setup',
        '    from onnx import numpy_helper',
        '  File "%s/onnx/numpy_helper.py", line 11, in <module>' % SP,
        '    from onnx import mapping',
        '  File "%s/onnx/mapping.py", line 27, in <module>' % SP,
        '    int(TensorProto.STRING): np.dtype(np.object)',
        '  File "%s/numpy/__init__.py", line 324, in __getattr__' % SP,
        '    raise AttributeError(__former_attrs__[attr])',
    ], ALIAS)
    t = N.failed_attempts(j, ready + 20, w, tb, STEP, src='numpy-alias-removed',
                          cite="AttributeError: module 'numpy' has no attribute 'object'.", gap=31.0,
                          mark='alias', msg_cite="Error message from worker: … module 'numpy' has no attribute "
                          "'object' …")
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('numpy-alias-removed', marks=['alias', 'alias-msg'], captures={'package': 'onnx', 'alias': 'object'})
    c.fire('work-item-failed', marks=['wif'], caused_by='numpy-alias-removed')
    c.fire('workflow-failed', marks=['wif'], caused_by='numpy-alias-removed')
    c.not_fire('numpy-abi-mismatch', 'import-name-version-skew', 'beam-version-mismatch')
    c.no_unexplained()
