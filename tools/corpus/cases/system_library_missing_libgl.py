from corpuslib import noise as N, texts as T

STEP = 'CropFaces'
STAGE = 'S01:ReadImages/Read+CropFaces+RunInference/BeamML_RunInference+WriteResults/Write'
LIBGL = 'ImportError: libGL.so.1: cannot open shared object file: No such file or directory'
SRC_LIBGL = ('opencv/opencv-python#370 (2020 on): "ImportError: libGL.so.1: cannot open shared object '
             'file: No such file or directory" from cv2/__init__.py bootstrap in slim images; the '
             'frames of opencv-python 4.x\'s loader', 'V-other')
SRC_TV = ('pytorch/vision torchvision/io/image.py (0.15–0.16): UserWarning "Failed to load image Python '
          'extension: \'…\'If you don\'t plan on using image functionality from `torchvision.io`, you can '
          'ignore this warning. …"; the library named in it is ours', 'V-code')
SP = T.sp('3.11')


def build(c):
    c.describe('''
        A system library missing from a slim custom image: the pipeline's CropFaces DoFn imports
        OpenCV (opencv-python) in setup at /app/faces.py:18, and the image, built FROM
        python:3.11-slim with the pipeline's requirements, has no libGL: "ImportError: libGL.so.1:
        cannot open shared object file: No such file or directory" four times, then the job fails.
        system-library-missing fires and names libGL.so.1; cuda-libraries-missing does not (the GPU
        libraries are there). Near miss in the same export: torchvision's start-up UserWarning
        that its optional image extension did not load (names a library, not a failure).''')
    cf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], image='us-docker.pkg.dev/acme-ml/img/faces:slim-3',
               steps=[STAGE])
    j = c.job('crop-faces-l4', '2025-09-09T16:20:40Z', region='us-east4', zone='us-east4-c',
              python='3.11', beam='2.65.0', workers=1)
    ready = N.bring_up(j, cf)
    j.wlog(ready + 8, j.w[0], "%s/torchvision/io/image.py:13: UserWarning: Failed to load image Python "
           "extension: 'libjpeg.so.8: cannot open shared object file: No such file or directory'If you don't "
           "plan on using image functionality from `torchvision.io`, you can ignore this warning. Otherwise, "
           "there might be something wrong with your environment. Did you have `libjpeg` or `libpng` installed "
           "before building `torchvision` from source?" % SP, sev='WARNING', src=SRC_TV,
           module='%s/torchvision/io/image.py' % SP, line=13, thread='MainThread')
    tb = T.user_tb('3.11', [
        '  File "%s/apache_beam/runners/common.py", line 1562, in _invoke_setup' % SP,
        '    self.do_fn_invoker.invoke_setup()',
        '  File "/app/faces.py", line 18, in setup',
        '    import cv2',
        '  File "%s/cv2/__init__.py", line 181, in <module>' % SP,
        '    bootstrap()',
        '  File "%s/cv2/__init__.py", line 153, in bootstrap' % SP,
        '    native_module = importlib.import_module("cv2")',
        '  File "/usr/local/lib/python3.11/importlib/__init__.py", line 126, in import_module',
        '    return _bootstrap._gcd_import(name[level:], package, level)',
    ], LIBGL + " [while running '%s']" % STEP)
    N.failing_attempts(j, cf, j.w[0], ready + 20, tb, STEP, STAGE, SRC_LIBGL, 'libgl', 27.0)
    c.output('export.json')
    c.fire('system-library-missing', marks=['libgl'], captures={'library': 'libGL.so.1'})
    c.fire('work-item-failed', marks=['wif'], caused_by='system-library-missing')
    c.fire('workflow-failed', marks=['wif'], caused_by='system-library-missing')
    c.not_fire('cuda-libraries-missing', 'gpu-driver-missing', 'import-name-version-skew')
