from corpuslib import noise as N, texts as T

STEP = 'ForecastIce'
STAGE = 'S01:ReadGrids/Read+ForecastIce+WriteForecasts/Write'
SP = T.sp('3.11')
REMOVED = ('AttributeError: jax.tree_leaves was removed in JAX v0.6.0: use jax.tree.leaves (jax v0.4.25 or newer) '
           'or jax.tree_util.tree_leaves (any JAX version).')

SRC_REMOVED = ('jax-ml/jax jax/__init__.py _deprecations entry "tree_leaves" (0.6.0 to 0.8.3: "jax.tree_leaves was '
               'removed in JAX v0.6.0: use jax.tree.leaves (jax v0.4.25 or newer) or jax.tree_util.tree_leaves (any JAX '
               'version).", no function left) raised as AttributeError(message) by jax/_src/deprecations.py '
               'deprecation_getattr; the same wording for jax.tree_map quoted in waymo-research/waymax PR #77 and '
               'deepmodeling/jax-fem#65; the icecast package, its frames and line numbers are composed', 'V-code')
SRC_GETBACKEND = ('jax-ml/jax jax/lib/xla_bridge.py _deprecations "get_backend" (0.5 to 0.7: "jax.lib.xla_bridge.'
                  'get_backend is deprecated; use jax.extend.backend.get_backend.", a DeprecationWarning while the '
                  'function still works), printed by the warnings module as "<file>:<line>: DeprecationWarning: …" plus '
                  'the source line, one docker entry per stderr line (apache/beam PR #33317); file and line composed',
                  'V-code')
SRC_PROBE = ('jax-ml/jax jax/_src/xla_bridge.py backends(): logger.info "Unable to initialize backend \'%s\': %s" for '
             'backends that fail quietly, as google-deepmind/alphafold3#172 shows on a GPU machine (safe to ignore on a '
             'GPU, maintainers in #656)', 'V-other')
SRC_REMAT = ('openxla/xla xla/service/hlo_rematerialization.cc warning "Can\'t reduce memory use below %s (%d bytes) by '
             'rematerialization; only reduced to %s (%d bytes), down from %s (%d bytes) originally" in the form public '
             'JAX and Keras logs print it ("2024-04-21 19:01:14.883021: W external/local_xla/xla/service/'
             'hlo_rematerialization.cc:2941] …"); here the compile then fits and runs, a near miss for an out-of-memory '
             'reading; sizes, time and line adapted', 'V-other')
SRC_TEAM = ('application log lines of the pipeline\'s own forecast DoFn (synthetic)', 'I')


def build(c):
    c.describe('''
        A JAX API removed under a library written for an older JAX (JAX 0.7.0, the jax.tree_* aliases removed in
        0.6.0): a nightly sea-ice forecast job runs a Flax model from the team's `icecast` 1.4 package on two
        g2-standard-8 workers (one L4 each). The image's requirements pin flax and optax but leave jax to the
        resolver, so the August rebuild of the SDK container image took jax, jaxlib and the CUDA plugin 0.7.0
        (all of one release); icecast's rollout still flattens the ocean state with jax.tree_leaves. Setup works:
        JAX finds the L4 and the warm-up compile of the 1x448x304 grid fits after XLA's rematerialization pass
        warns that it could not get below its memory target. The first bundle
        of ForecastIce raises "AttributeError: jax.tree_leaves was removed in JAX v0.6.0: use jax.tree.leaves (jax
        v0.4.25 or newer) or jax.tree_util.tree_leaves (any JAX version).", on both workers, four times, and the
        job fails. jax-api-removed fires, naming icecast, tree_leaves, 0.6.0 and jax.tree.leaves, and folds the
        work-item failure. Red herrings: a DeprecationWarning from icecast's io module for
        jax.lib.xla_bridge.get_backend, a name that still works in 0.7.0 (the same deprecation machinery, not
        evidence); JAX's start-up probes of the ROCm and TPU backends at INFO ("Unable to initialize backend
        'tpu': INTERNAL: Failed to open libtpu.so …"); XLA's "Can't reduce memory use below 17.42GiB … by
        rematerialization" on stderr at ERROR, after which the compile fits (not gpu-out-of-memory); the benign
        boot lines of every worker. Not jax-jaxlib-version-skew (jax and jaxlib are both 0.7.0), not numpy-alias-removed.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=2, max_workers=2,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE], disk=100,
               image='europe-west4-docker.pkg.dev/polarfront-ml/dataflow/icecast-forecast:2025.08.1')
    j = c.job('seaice-forecast-nightly', '2025-08-14T01:10:27Z', region='europe-west4', zone='europe-west4-b',
              project='polarfront-ml', python='3.11', beam='2.66.0', workers=2)
    ready = N.bring_up(j, cf)

    for i, w in enumerate(j.w):
        first = i == 0
        t = ready + 6.0 + 3.1 * i
        j.wlog(t, w, "Unable to initialize backend 'rocm': module 'jaxlib.xla_extension' has no attribute "
               "'GpuAllocatorConfig'", src=SRC_PROBE, module='jax/_src/xla_bridge.py', line=906,
               thread='Thread-4', step=STEP)
        j.wlog(t + 0.02, w, "Unable to initialize backend 'tpu': INTERNAL: Failed to open libtpu.so: libtpu.so: "
               "cannot open shared object file: No such file or directory", src=SRC_PROBE,
               module='jax/_src/xla_bridge.py', line=906, thread='Thread-4', step=STEP,
               mark='tpu' if first else None)
        j.docker_lines(t + 0.6, w, [
            '%s/icecast/io.py:19: DeprecationWarning: jax.lib.xla_bridge.get_backend is deprecated; use '
            'jax.extend.backend.get_backend.' % SP,
            '  _BACKEND = xla_bridge.get_backend().platform',
        ], src=SRC_GETBACKEND, mark='getbackend' if first else None)
        j.wlog(t + 1.4, w, 'icecast 1.4.2 on jax 0.7.0 / jaxlib 0.7.0 (cuda12 plugin 0.7.0), devices: '
               '[CudaDevice(id=0)]; restoring gs://polarfront-ml-models/icecast/unet-v7/ckpt-118000',
               src=SRC_TEAM, module='/app/forecast/dofns.py', line=38, thread='Thread-4', step=STEP)
        j.docker(t + 19.5, w, '2025-08-14 01:%02d:%02d.%06d: W external/xla/xla/service/hlo_rematerialization.cc:3231] '
                 "Can't reduce memory use below 17.42GiB (18704629350 bytes) by rematerialization; only reduced to "
                 '18.06GiB (19391867904 bytes), down from 18.31GiB (19660303360 bytes) originally'
                 % (13 + i, 9 + 4 * i, 412377 + 1391 * i), sev='ERROR', src=SRC_REMAT, mark='remat' if first else None)
        j.wlog(t + 63.0 + 2.2 * i, w, 'warm-up forecast on a 1x448x304 dummy grid compiled and ran in %.1f s'
               % (57.4 + 2.2 * i), src=SRC_TEAM, module='/app/forecast/dofns.py', line=52, thread='Thread-4',
               step=STEP)

    tb = T.user_tb('3.11', [
        '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
        '  File "/app/forecast/dofns.py", line 71, in process',
        '    fc = rollout.forecast(self._params, state, horizon_days=self._horizon)',
        '  File "%s/icecast/rollout.py", line 88, in forecast' % SP,
        '    carry = _pack(state)',
        '  File "%s/icecast/rollout.py", line 41, in _pack' % SP,
        '    leaves = jax.tree_leaves(state)',
        '             ^^^^^^^^^^^^^^^',
        '  File "%s/jax/_src/deprecations.py", line 54, in getattr' % SP,
        '    raise AttributeError(message)',
    ], REMOVED + " [while running '%s']" % STEP)
    t = ready + 80.0
    for attempt in range(4):
        w = j.w[attempt % 2]
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (2 + attempt), tb), sev='ERROR', src=SRC_REMOVED,
               cite=REMOVED, module='apache_beam/runners/worker/sdk_worker.py', line=303,
               thread='Thread-%d' % (14 + attempt), step=STEP, mark='removed' if attempt == 0 else None)
        j.msg(t + 2.0, T.worker_error_msg(tb, STEP), sev='ERROR', src=SRC_REMOVED,
              cite='Error message from worker: … AttributeError: jax.tree_leaves was removed in JAX v0.6.0: …',
              mark='removed-msg' if attempt == 0 else None)
        t += 36.0 + 4.0 * attempt
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [j.w[k % 2] for k in range(4)], n=2)
    c.output('export.json')
    c.fire('jax-api-removed', marks=['removed', 'removed-msg'],
           captures={'package': 'icecast', 'module': 'jax', 'name': 'tree_leaves', 'removed_in': '0.6.0',
                     'replacement': 'jax.tree.leaves'})
    c.fire('work-item-failed', marks=['wif'], caused_by='jax-api-removed')
    c.fire('workflow-failed', marks=['wif'], caused_by='jax-api-removed')
    c.not_fire('jax-jaxlib-version-skew', 'numpy-alias-removed', 'import-name-version-skew', 'python-module-missing',
               'system-library-missing', 'jax-cuda-libraries-outdated', 'jax-ptx-compiler-missing', 'gpu-not-used',
               'gpu-out-of-memory', 'main-session-not-saved')
    c.no_unexplained()
