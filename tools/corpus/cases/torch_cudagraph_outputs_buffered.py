import datetime as dt

from corpuslib import noise as N, texts as T

STEP = 'ScoreAccounts'
STAGE = 'S02:GroupByAccount/Read+BuildSequences+ScoreAccounts+WriteScores/WriteToBigQuery'
SP = T.sp('3.11')
MSG = ('RuntimeError: Error: accessing tensor output of CUDAGraphs that has been overwritten by a subsequent run. '
       'Stack trace: File "/app/churn/model.py", line 57, in forward\n'
       '    return self.head(torch.cat([h_seq, h_static], dim=-1)).sigmoid().squeeze(-1). To prevent overwriting, '
       'clone the tensor outside of torch.compile() or call torch.compiler.cudagraph_mark_step_begin() before each '
       'model invocation.')

SRC_OVERWRITTEN = ('pytorch/pytorch torch/_inductor/cudagraph_trees.py CUDAGraphTreeManager.dealloc_current_path_weakrefs '
                   '(2.2 to 2.9: "Error: accessing tensor output of CUDAGraphs that has been overwritten by a subsequent '
                   'run. " f"Stack trace: {stack_trace}. " "To prevent overwriting, clone the tensor outside of '
                   'torch.compile() or call torch.compiler.cudagraph_mark_step_begin() before each model invocation.", '
                   'raised as RuntimeError when the dead output is read), in the shape public tracebacks show '
                   '(pytorch/pytorch#170604, meta-pytorch/torchtune PR #1371); Beam\'s finish_bundle frames, the '
                   'churn package and line numbers are composed', 'V-code')
SRC_SMS = ('pytorch/pytorch torch/_inductor/utils.py is_big_gpu: log.warning("Not enough SMs to use max_autotune_gemm '
           'mode") on GPUs with fewer than 68 SMs (an L4 has 58), in the glog form a public parler-tts log prints '
           '("W0317 22:33:36.322000 1 torch/_inductor/utils.py:1137] [0/0] Not enough SMs to use max_autotune_gemm '
           'mode"); harmless, Inductor only skips its GEMM templates; time, pid and line adapted', 'V-other')
SRC_DYN = ('pytorch/pytorch torch/_inductor/cudagraph_utils.py maybe_warning_due_to_dynamic_shape: "CUDAGraph supports '
           'dynamic shapes by recording a new graph for each distinct input size. Recording too many CUDAGraphs may lead '
           'to extra overhead. We have observed N distinct sizes. …", printed on stderr as the same public parler-tts '
           'log shows it; a performance note, the count adapted', 'V-code')
SRC_TEAM = ('application log lines of the pipeline\'s own churn-scoring DoFn (synthetic)', 'I')


def glog(j, t, pid, path, line, text, lvl='W'):
    """torch._logging's glog-style prefix ('W0904 02:14:07.245000 57 torch/_inductor/utils.py:1137] ')."""
    x = j.start + dt.timedelta(seconds=t)
    return '%s%s %s %d %s:%d] %s' % (lvl, x.strftime('%m%d'), x.strftime('%H:%M:%S.%f'), pid, path, line, text)


def build(c):
    c.describe('''
        A torch.compile CUDA-graph output read after the next call overwrote it (PyTorch 2.6, mode="max-autotune",
        which replays CUDA graphs on a GPU just as "reduce-overhead" does): a weekly churn-scoring job runs a
        sequence model over each account's event history on two g2-standard-8 workers (one L4 each). The
        ScoreAccounts DoFn compiles the model with torch.compile(mode="max-autotune") in setup(), scores each
        batch under torch.inference_mode(), and appends the GPU tensor of scores to self._pending so that
        finish_bundle() can stack them and write one BigQuery batch per bundle. Every call of the compiled model
        starts a new CUDA-graph generation and marks the previous outputs dead; the first finish_bundle that
        stacks them raises "RuntimeError: Error: accessing tensor output of CUDAGraphs that has been overwritten by
        a subsequent run. Stack trace: File "/app/churn/model.py", line 57, in forward … To prevent overwriting,
        clone the tensor outside of torch.compile() or call torch.compiler.cudagraph_mark_step_begin() before each
        model invocation.", on both workers, four times, and the job fails. torch-cudagraph-output-overwritten fires
        with the frame, and folds the work-item failure. Red herrings: Inductor's "Not enough SMs to use
        max_autotune_gemm mode" on the L4 and the CUDA-graph dynamic-shape note ("We have observed 6 distinct
        sizes"), both on stderr at ERROR and both performance notes; the long first compile logged by the DoFn; the
        benign boot lines of every worker.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=2, max_workers=2,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE], disk=100,
               image='us-east1-docker.pkg.dev/tidewater-telecom/dataflow/churn-score:2025.09.1')
    j = c.job('churn-score-weekly', '2025-09-04T02:00:12Z', region='us-east1', zone='us-east1-c',
              project='tidewater-telecom', python='3.11', beam='2.64.0', workers=2)
    ready = N.bring_up(j, cf)

    pids = [61, 58]
    for i, w in enumerate(j.w):
        first = i == 0
        t = ready + 9.0 + 2.7 * i
        j.wlog(t, w, 'loaded churn-seq v12 from gs://tidewater-telecom-models/churn-seq/v12/model.pt onto cuda:0 '
               '(torch 2.6.0+cu124); compiling with torch.compile(mode="max-autotune")', src=SRC_TEAM,
               module='/app/churn/dofns.py', line=41, thread='Thread-4', step=STEP)
        j.docker(t + 14.2, w, glog(j, t + 14.2, pids[i], 'torch/_inductor/utils.py', 1137,
                                   '[0/0] Not enough SMs to use max_autotune_gemm mode'),
                 sev='ERROR', src=SRC_SMS, mark='sms' if first else None)
        j.wlog(t + 231.6 + 4.1 * i, w, 'warm-up batch of 256 accounts compiled and scored in %.1f s (autotuning '
               'included)' % (222.4 + 4.1 * i), src=SRC_TEAM, module='/app/churn/dofns.py', line=49,
               thread='Thread-4', step=STEP)
        j.docker(t + 288.0 + 3.0 * i, w, 'CUDAGraph supports dynamic shapes by recording a new graph for each '
                 'distinct input size. Recording too many CUDAGraphs may lead to extra overhead. We have observed 6 '
                 'distinct sizes. Please consider the following options for better performance: a) padding inputs to '
                 'a few fixed number of shapes; or b) set torch._inductor.config.triton.cudagraph_skip_dynamic_graphs='
                 'True. Set torch._inductor.config.triton.cudagraph_dynamic_shape_warn_limit=None to silence this '
                 'warning.', sev='ERROR', src=SRC_DYN, mark='dyn' if first else None)

    tb = T.user_tb('3.11', [
        '  File "apache_beam/runners/common.py", line 1596, in apache_beam.runners.common.DoFnRunner.finish',
        '  File "apache_beam/runners/common.py", line 600, in apache_beam.runners.common.DoFnInvoker.'
        'invoke_finish_bundle',
        '  File "/app/churn/dofns.py", line 112, in finish_bundle',
        '    scores = torch.stack(self._pending).float().cpu().numpy()',
        '             ^^^^^^^^^^^^^^^^^^^^^^^^^^',
    ], MSG + " [while running '%s']" % STEP)
    t = ready + 330.0
    for attempt in range(4):
        w = j.w[attempt % 2]
        j.wlog(t - 6.0, w, 'scored %d batches (%d accounts) in bundle; writing scores' % (38 + attempt, 9412 + 57 *
               attempt), src=SRC_TEAM, module='/app/churn/dofns.py', line=104, thread='Thread-%d' % (14 + attempt),
               step=STEP)
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (3 + attempt), tb), sev='ERROR', src=SRC_OVERWRITTEN,
               cite='RuntimeError: Error: accessing tensor output of CUDAGraphs that has been overwritten by a '
                    'subsequent run. …',
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (14 + attempt),
               step=STEP, mark='overwritten' if attempt == 0 else None)
        j.msg(t + 2.0, T.worker_error_msg(tb, STEP), sev='ERROR', src=SRC_OVERWRITTEN,
              cite='Error message from worker: … accessing tensor output of CUDAGraphs that has been overwritten by '
                   'a subsequent run …', mark='overwritten-msg' if attempt == 0 else None)
        t += 74.0 + 5.0 * attempt
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [j.w[k % 2] for k in range(4)], n=2)
    c.output('export.json')
    c.fire('torch-cudagraph-output-overwritten', marks=['overwritten', 'overwritten-msg'],
           captures={'frame_file': '/app/churn/model.py', 'frame_line': '57', 'frame_function': 'forward'})
    c.fire('work-item-failed', marks=['wif'], caused_by='torch-cudagraph-output-overwritten')
    c.fire('workflow-failed', marks=['wif'], caused_by='torch-cudagraph-output-overwritten')
    c.not_fire('torch-compile-recompile-limit', 'torch-compile-toolchain-missing', 'triton-gpu-too-old',
               'triton-shared-memory-exceeded', 'gpu-out-of-memory', 'llm-cuda-graph-capture-oom',
               'cuda-device-side-assert', 'processing-stuck')
    c.no_unexplained()
