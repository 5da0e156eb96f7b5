from corpuslib import noise as N, texts as T

STEP = 'Downscale'
STEPS = ['S01:ReadTiles/Read+Downscale+WriteTiles/Write']
SP = T.sp('3.10')
REQ = '/var/opt/google/staged/requirements.txt'
SRC_CHECK = ('jax-ml/jax jax/_src/lib/__init__.py check_jaxlib_version at jax-v0.4.26 ("jaxlib is version '
             '{jaxlib_version}, but this version of jax requires version >= {minimum_jaxlib_version}.", '
             'RuntimeError raised at line 64, called at line 75; _minimum_jaxlib_version "0.4.20" in '
             'jax/version.py); the wording as jax-ml/jax#15876 and suno-ai/bark#242 quote it; the import chain '
             'jax/__init__.py:37 → jax/_src/config.py:27 as at that tag, the frames between and above composed',
             'V-code')
SRC_PIP = ('pip\'s install output at the SDK container\'s start ("Collecting … (from … -r …requirements.txt (line '
           'N))", "Attempting uninstall", "Found existing installation", "Successfully uninstalled", '
           '"Successfully installed …"), standard pip wording; jax 0.4.26 declares no jaxlib requirement '
           '(jax-ml/jax setup.py at jax-v0.4.26; from 0.4.30 it does), so pip leaves jaxlib; package set '
           'composed', 'V-code')
SRC_RESOLVER = ('pip\'s resolver note "ERROR: pip\'s dependency resolver does not currently take into account all '
                'the packages that are installed. This behaviour is the source of the following dependency '
                'conflicts." with a "… requires …, but you have … which is incompatible." line; standard pip '
                'output, the packages composed', 'V-code')
SRC_INFO = ('a pipeline\'s own INFO line (composed)', 'I')


def build(c):
    c.describe('''
        jax and jaxlib of different releases (the JAX version-skew family): the custom container ships
        jax 0.4.16 with jaxlib 0.4.16+cuda12.cudnn89 for the L4. The job also stages a requirements file
        that pins flax==0.8.3 (copied from a research repo); flax needs jax>=0.4.19, so pip at worker start
        upgrades jax to 0.4.26 and, since jax 0.4.26 declares no jaxlib requirement, leaves jaxlib at
        0.4.16. The DoFn's setup() imports flax, jax checks jaxlib and raises "RuntimeError: jaxlib is
        version 0.4.16, but this version of jax requires version >= 0.4.20." on every attempt; the job
        fails after four. jax-jaxlib-version-skew leads. Red herrings: pip's resolver ERROR names
        orbax-checkpoint, not jaxlib; benign kubelet/system lines; the import fails before the GPU is
        touched, so neither gpu-driver-missing nor gpu-not-used fires, and the ImportError-shaped rule
        (import-name-version-skew) stays quiet.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS, disk=100,
               image='us-central1-docker.pkg.dev/ens-climate/images/downscale-jax:0.4.16-cu12',
               extra_options={'requirements_file': 'requirements.txt'})
    j = c.job('ens-downscale-flax-0519', '2024-05-19T06:40:12Z', region='us-central1',
              zone='us-central1-a', python='3.10', beam='2.56.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 3
    for k, line in enumerate([
            'Collecting flax==0.8.3 (from -r %s (line 2))' % REQ,
            'Collecting jax>=0.4.19 (from flax==0.8.3->-r %s (line 2))' % REQ,
            'Installing collected packages: jax, orbax-checkpoint, flax',
            '  Attempting uninstall: jax',
            '    Found existing installation: jax 0.4.16',
            '    Uninstalling jax-0.4.16:',
            '      Successfully uninstalled jax-0.4.16']):
        j.docker(t + k * 0.4, w, line, src=SRC_PIP)
    j.docker(t + 9.0, w, "ERROR: pip's dependency resolver does not currently take into account all the packages "
             "that are installed. This behaviour is the source of the following dependency conflicts.\n"
             "chex 0.1.82 requires jax>=0.4.6, but you have jax 0.4.26 which is incompatible.\n"
             "orbax-checkpoint 0.5.11 requires jax>=0.4.9, but you have jax 0.4.26 which is incompatible.",
             sev='ERROR', src=SRC_RESOLVER)
    j.docker(t + 9.6, w, 'Successfully installed flax-0.8.3 jax-0.4.26 orbax-checkpoint-0.5.11', src=SRC_PIP,
             mark='pip')
    j.wlog(t + 14, w, 'Downscale.setup: loading the flax model from gs://ens-climate-models/unet-4x/ckpt_120',
           src=SRC_INFO, module='/app/downscale.py', line=41)
    tb = T.augmented_tb('3.10', [
        '  File "/app/downscale.py", line 44, in setup',
        '    import flax.linen as nn',
        '  File "%s/flax/__init__.py", line 24, in <module>' % SP,
        '    from flax import core',
        '  File "%s/jax/__init__.py", line 37, in <module>' % SP,
        '    import jax.core as _core',
        '  File "%s/jax/_src/config.py", line 27, in <module>' % SP,
        '    from jax._src import lib',
        '  File "%s/jax/_src/lib/__init__.py", line 75, in <module>' % SP,
        '    version = check_jaxlib_version(',
        '  File "%s/jax/_src/lib/__init__.py", line 64, in check_jaxlib_version' % SP,
        '    raise RuntimeError(msg)',
    ], 'RuntimeError: jaxlib is version 0.4.16, but this version of jax requires version >= 0.4.20.', STEP)
    t = N.failed_attempts(j, t + 16, w, tb, STEP, src=SRC_CHECK,
                          cite='RuntimeError: jaxlib is version 0.4.16, but this version of jax requires version >= 0.4.20.',
                          gap=31.0, mark='skew',
                          msg_cite='Error message from worker: … jaxlib is version 0.4.16, but this version of jax '
                                   'requires version >= 0.4.20.')
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [w] * 4)
    c.output('export.json')
    c.fire('jax-jaxlib-version-skew', marks=['skew', 'skew-msg'], captures={'jaxlib': '0.4.16', 'required': '0.4.20'})
    c.fire('work-item-failed', marks=['wif'], caused_by='jax-jaxlib-version-skew')
    c.fire('workflow-failed', marks=['wif'], caused_by='jax-jaxlib-version-skew')
    c.not_fire('import-name-version-skew', 'gpu-driver-missing', 'gpu-not-used', 'pip-install-failed',
               'jax-cuda-libraries-outdated')
