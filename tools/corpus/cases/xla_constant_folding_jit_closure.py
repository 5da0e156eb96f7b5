import datetime as _dt

from corpuslib import noise as N, texts as T

STEP = 'Rescore/ParDo(RescoreFn)'
STAGES = ['S01:ReadCandidates/Read+Rescore/ParDo(RescoreFn)+WriteScores/Write']
PY = '3.12'
SP = T.sp(PY)
EXPLAIN = ("This isn't necessarily a bug; constant-folding is inherently a trade-off between compilation time and "
           "speed at runtime. XLA has some guards that attempt to keep constant folding from taking too long, but "
           "fundamentally you'll always be able to come up with an input program that takes a long time.")
BUG = "If you'd like to file a bug, run with envvar XLA_FLAGS=--xla_dump_to=/tmp/foo and attach the results."
# the instructions XLA folds, one per slow fold (operands are the closed-over tables, %constant.N)
INSTR = [
    '%gather.57 = f32[1048576,64]{1,0} gather(f32[4194304,64]{1,0} %constant.21, s32[1048576,1]{1,0} %constant.22), '
    'offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,64}',
    '%multiply.61 = f32[1048576,64]{1,0} multiply(f32[1048576,64]{1,0} %constant.63, f32[1048576,64]{1,0} '
    '%broadcast.60)',
    '%reduce.66 = f32[1048576]{0} reduce(f32[1048576,64]{1,0} %constant.64, f32[] %constant.65), dimensions={1}, '
    'to_apply=%region_2.62',
    '%scatter-add.71 = f32[4194304,64]{1,0} scatter(f32[4194304,64]{1,0} %broadcast.69, s32[1048576,1]{1,0} '
    '%constant.22, f32[1048576,64]{1,0} %constant.67), update_window_dims={1}, inserted_window_dims={0}, '
    'scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%region_3.68',
    '%dot.74 = f32[4194304,512]{1,0} dot(f32[4194304,64]{1,0} %constant.72, f32[64,512]{1,0} %constant.23), '
    'lhs_contracting_dims={1}, rhs_contracting_dims={0}',
    '%add.77 = f32[4194304,512]{1,0} add(f32[4194304,512]{1,0} %constant.75, f32[4194304,512]{1,0} %broadcast.76)',
    '%reduce.81 = f32[4194304]{0} reduce(f32[4194304,512]{1,0} %constant.78, f32[] %constant.65), dimensions={1}, '
    'to_apply=%region_4.79',
    '%dot.88 = f32[4194304,4194304]{1,0} dot(f32[4194304,64]{1,0} %constant.72, f32[64,4194304]{1,0} %constant.86), '
    'lhs_contracting_dims={1}, rhs_contracting_dims={0}',
]
THRESH = ['1s', '2s', '4s', '8s', '16s', '32s', '1m4s', '2m8s']
# how long each fold took (absl::FormatDuration); the last one never ends
TOOK = [1.912384, 3.407716, 7.120953, 12.804412, 29.531087, 51.226940, 112.318805, None]
SRC_ALARM = ('openxla/xla xla/service/hlo_constant_folding.cc: the slow-operation alarm "Constant folding an '
             'instruction is taking > %s:\\n\\n  %s\\n\\n%s" with its explanation text, the threshold doubling after each '
             'alarm that fired (1s << slow_op_counter_); logged by slow_operation_alarm.cc with LOG(ERROR) in absl\'s '
             'format, one docker entry per line; wording as jax-ml/jax#12789, #21300, #24707 quote it; the HLO '
             'instructions, durations and the absl line numbers are ours', 'V-code')
SRC_TOOK = ('openxla/xla xla/service/slow_operation_alarm.cc ~SlowOperationAlarm: "The operation took " + '
            'absl::FormatDuration(duration) + "\\n" + the alarm\'s message, as jax-ml/jax#24707 and #12789 show it; '
            'durations ours', 'V-code')
SRC_CONSTS = ('jax-ml/jax jax/_src/interpreters/mlir.py check_jaxpr_constants (JAX 0.6.1 on, PR #28157): '
              'warnings.warn("A large amount of constants were captured during lowering (%s total). If this is '
              'intentional, disable this warning by setting JAX_CAPTURED_CONSTANTS_WARN_BYTES=-1. To obtain a report '
              'of where these constants were encountered, set JAX_CAPTURED_CONSTANTS_REPORT_FRAMES=-1."), '
              'util.pprint_bytes format; the module line number is ours', 'V-code')
SRC_ABSL = ('absl logging notice "WARNING: All log messages before absl::InitializeLog() is called are written to '
            'STDERR" printed by jaxlib/TensorFlow at start-up (public logs)', 'V-other')
SRC_STACK = ('apache/beam worker_status.py lull message with the thread\'s stack; the JAX frames follow '
             'jax/_src/pjit.py, interpreters/pxla.py and compiler.py (cache_miss -> compile -> '
             'compile_or_get_cached -> backend_compile_and_load) with line numbers ours', 'I')


def _absl(j, t, line):
    x = j.start + _dt.timedelta(seconds=t)
    return 'E%s %s    1187 slow_operation_alarm.cc:%d] ' % (x.strftime('%m%d'), x.strftime('%H:%M:%S.%f'), line)


def _folds(j, w, t0, upto, mark_at=None):
    """The constant-folding passes of one SDK process from t0 on, until `upto` (job seconds): each slow fold's
    alarm at its threshold and, when it ends, "The operation took …". Returns nothing."""
    t = t0
    for k, (thr, took, instr) in enumerate(zip(THRESH, TOOK, INSTR)):
        secs = 2 ** k
        if t + secs > upto:
            return
        j.docker_lines(t + secs, w, [_absl(j, t + secs, 73) + 'Constant folding an instruction is taking > %s:' % thr,
                                     '  ' + instr, EXPLAIN, BUG],
                       src=SRC_ALARM, mark=mark_at.get(thr) if mark_at else None,
                       cite='Constant folding an instruction is taking > %s:' % thr)
        if took is None or t + took > upto:
            return
        mins, s = divmod(took, 60.0)
        dur = ('%dm%ss' % (mins, ('%.6f' % s).rstrip('0'))) if mins else ('%.6f' % took).rstrip('0') + 's'
        j.docker_lines(t + took, w, [_absl(j, t + took, 140) + 'The operation took %s' % dur,
                                     'Constant folding an instruction is taking > %s:' % thr,
                                     '  ' + instr, EXPLAIN, BUG],
                       src=SRC_TOOK, cite='The operation took %s' % dur)
        t += took + 0.4


def _stack():
    return T.py_stack(PY, [
        ('/app/rescore/dofn.py', 91, 'process', 'scores = self._score(batch["user_ids"], batch["item_ids"])'),
        (SP + '/jax/_src/traceback_util.py', 182, 'reraise_with_filtered_traceback', 'return fun(*args, **kwargs)'),
        (SP + '/jax/_src/pjit.py', 292, 'cache_miss', 'executable, pgle_profiler, const_args) = _python_pjit_helper('),
        (SP + '/jax/_src/pjit.py', 153, '_python_pjit_helper', 'out_flat, compiled, profiler, const_args = _pjit_call_impl_python('),
        (SP + '/jax/_src/pjit.py', 1789, '_pjit_call_impl_python', 'compiled = computation.compile()'),
        (SP + '/jax/_src/interpreters/pxla.py', 2521, 'compile', 'executable = UnloadedMeshExecutable.from_hlo('),
        (SP + '/jax/_src/interpreters/pxla.py', 3061, 'from_hlo', 'xla_executable = _cached_compilation('),
        (SP + '/jax/_src/interpreters/pxla.py', 2842, '_cached_compilation', 'xla_executable = compiler.compile_or_get_cached('),
        (SP + '/jax/_src/compiler.py', 478, 'compile_or_get_cached', 'return _compile_and_write_cache('),
        (SP + '/jax/_src/compiler.py', 746, '_compile_and_write_cache', 'executable = backend_compile_and_load('),
        (SP + '/jax/_src/profiler.py', 359, 'wrapper', 'return func(*args, **kwargs)'),
        (SP + '/jax/_src/compiler.py', 384, 'backend_compile_and_load', 'return backend.compile_and_load('),
    ])


def build(c):
    c.describe('''
        XLA constant-folding a jitted function's closed-over tables (JAX on an L4, a job that never fails and
        never progresses): RescoreFn.setup() unpickles a 2.7 GB embedding table and an index table as NumPy
        arrays and jits functools.partial(score, self.tables), so the tables are constants of the compiled
        program and the gathers, scatter-adds and products over them are folded by XLA on the host while the
        first batch compiles. JAX 0.7 warns that 2.73GB of constants were captured; XLA's slow-operation
        alarm then fires with doubling thresholds ("Constant folding an instruction is taking > 1s:", > 2s …
        > 1m4s, > 2m8s, each line split into its own docker entry), every finished fold followed by "The
        operation took …", and the eighth fold never ends. Beam logs "Operation ongoing in bundle … for
        PTransform{name=Rescore/ParDo(RescoreFn), state=process-msecs} … without outputting or completing"
        every five minutes with the stack in jax/_src/compiler.py; autoscaling adds a second worker, which
        stalls the same way. The job is still running when exported. xla-constant-folding-slow fires on the
        minute thresholds and processing-stuck folds under it; the "> 1s" to "> 32s" alarms and the
        captured-constants warning alone would not have fired it.''')
    cf = N.cfg(machine='g2-standard-16', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=3,
               experiments=['no_use_multiple_sdk_containers'], steps=STAGES,
               image='us-east4-docker.pkg.dev/shoplane-recs/dataflow/rescore-jax:0.7.1-cuda12')
    j = c.job('nightly-candidate-rescore', '2026-04-02T13:40:05Z', region='us-east4', zone='us-east4-c',
              python=PY, beam='2.66.0', workers=1)
    ready = N.bring_up(j, cf)
    w1 = j.w[0]
    j.docker(ready + 3.0, w1, 'WARNING: All log messages before absl::InitializeLog() is called are written to '
             'STDERR', sev='ERROR', src=SRC_ABSL)
    j.wlog(ready + 18.0, w1, 'Loaded rescoring tables from gs://shoplane-recs-models/rescore/2026-04-01/tables.pkl: '
           'item_emb (4194304, 64) float32, tower (64, 512) float32, index (1048576, 1) int32; 2.73 GB (numpy)',
           src='user-code', module='/app/rescore/dofn.py', line=64, step=STEP)
    j.wlog(ready + 18.4, w1, 'JAX devices: [CudaDevice(id=0)] (jax 0.7.1, NVIDIA L4)', src='user-code',
           module='/app/rescore/dofn.py', line=70, step=STEP)
    t0 = ready + 31.0
    j.docker_lines(t0, w1, [
        '%s/jax/_src/interpreters/mlir.py:1281: UserWarning: A large amount of constants were captured during '
        'lowering (2.73GB total). If this is intentional, disable this warning by setting '
        'JAX_CAPTURED_CONSTANTS_WARN_BYTES=-1. To obtain a report of where these constants were encountered, set '
        'JAX_CAPTURED_CONSTANTS_REPORT_FRAMES=-1.' % SP,
        '  warnings.warn(message)'], src=SRC_CONSTS,
        cite='UserWarning: A large amount of constants were captured during lowering (2.73GB total). …')
    end = t0 + 3300.0
    _folds(j, w1, t0 + 6.0, end, mark_at={'1m4s': 'fold'})
    # Beam's lull reports for the bundle, every five minutes
    for k in range(10):
        secs = 300.0 * (k + 1) + 0.31 + 0.07 * k
        j.wlog(t0 + secs, w1, T.lull_new('process_bundle-1', STEP, 'process-msecs', secs, _stack()),
               sev='WARNING', src='beam-lull-py-new', mark='lull' if k == 0 else None,
               module='apache_beam/runners/worker/worker_status.py', line=276, thread='lull_operation_logger',
               step=STEP, cite='Operation ongoing in bundle process_bundle-1 for PTransform{name=%s, '
                               'state=process-msecs} for at least %.2f seconds without outputting or '
                               'completing.' % (STEP, secs))
    # autoscaling adds a worker, which stalls the same way
    t2 = t0 + 1250.0
    j.msg(t2, 'Autoscaling: Raised the number of workers to 2 based on the rate of progress in the currently '
          'running stage(s).', src='t5-986')
    w2 = j.add_worker()
    r2 = N.full_worker_boot(j, w2, cf, t2 + 40.0)
    j.docker(r2 + 2.5, w2, 'WARNING: All log messages before absl::InitializeLog() is called are written to '
             'STDERR', sev='ERROR', src=SRC_ABSL)
    _folds(j, w2, r2 + 37.0, end)
    j.wlog(r2 + 37.0 + 300.35, w2, T.lull_new('process_bundle-2', STEP, 'process-msecs', 300.35, _stack()),
           sev='WARNING', src='beam-lull-py-new', module='apache_beam/runners/worker/worker_status.py', line=276,
           thread='lull_operation_logger', step=STEP)
    c.output('export.json')
    c.fire('xla-constant-folding-slow', marks=['fold'])
    c.fire('processing-stuck', marks=['lull'], caused_by='xla-constant-folding-slow',
           captures={'step': STEP, 'state': 'process-msecs'})
    c.not_fire('gpu-out-of-memory', 'host-out-of-memory', 'sdk-unresponsive', 'jax-ptx-compiler-missing',
               'work-item-failed', 'workflow-failed')
