from corpuslib import noise as N, texts as T

STEP = 'cache_input/Execute'
EXC = 'ImportError: __import__ not found'
STEPS = ['S01:Start/Impulse+cache_input/Execute+prepare_target/Execute']


def build(c, sink=False):
    """sink=True: the sink-shard variant (docker-split-traceback-sink-shard)."""
    c.describe('''
        A traceback the docker log splits into one entry per stderr line: the SDK harness prints
        each failed bundle's traceback to stderr (sdk_worker.py _execute) and the docker log of
        the worker stores every line as its own ERROR entry, microseconds apart in the same
        second (as in apache/beam PR #33317). The traceback is real (pangeo-forge/staged-recipes
        PR #138): pangeo_forge_recipes calls the recipe's format_function and "/tmp/tmp1yj338fa/
        cached_recipe.py", line 12 raises "ImportError: __import__ not found"; Beam's re-raise adds
        " [while running 'cache_input/Execute']". The export was filtered to the job-message and
        docker logs (no worker log), and is gcloud's newest-first array, so the split lines come
        reversed, and interleaved at the same microseconds with the other worker's SDK container
        restarting (boot.go lines). Reassembled by (job, worker, log) and timestamp, the docker
        copy and the job-message copy "Error message from worker: generic::unknown: Traceback
        ..." are one failure: one error-level group, whose docker copy starts at its first
        line's entry. Four attempts on one worker, then the work-item failure.''')
    cf = N.cfg(machine='n1-highmem-4', gpu='nvidia-tesla-t4', driver=True, num_workers=2,
               max_workers=2, experiments=['no_use_multiple_sdk_containers'],
               image='pangeo/pangeo-forge-beam-images:0.9.0', steps=STEPS)
    j = c.job('pgf-gpcp-daily-recipe', '2022-06-27T22:58:12Z', region='us-central1',
              zone='us-central1-b', project='pangeo-forge-4967', python='3.9', beam='2.39.0',
              workers=2)
    ready = N.bring_up(j, cf)
    base = T.sp('3.9')
    frames = [
        '  File "%s/apache_beam/transforms/core.py", line 1805, in <lambda>' % base,
        '    wrapper = lambda x: [fn(*x)]',
        '  File "%s/pangeo_forge_recipes/executors/beam.py", line 40, in exec_stage' % base,
        '    self.stage.function(arg, config=self.config)  # type: ignore',
        '  File "%s/pangeo_forge_recipes/recipes/xarray_zarr.py", line 154, in cache_input' % base,
        '    fname = config.file_pattern[input_key]',
        '  File "%s/pangeo_forge_recipes/patterns.py", line 218, in __getitem__' % base,
        '    fname = self.format_function(**format_function_kwargs)',
        '  File "/tmp/tmp1yj338fa/cached_recipe.py", line 12, in format_function',
    ]
    tb = T.augmented_tb('3.9', frames, EXC, STEP)
    lines = [ln for ln in tb.split('\n') if ln]   # a blank stderr line makes no entry (inferred)
    w, other = j.w[0], j.w[1]
    t = ready + 35.0
    for attempt in range(4):
        first = attempt == 0
        j.docker_lines(t, w, lines, src='pangeo-138', cite=EXC,
                       mark='split' if first else None, step_us=11)
        # the other worker's SDK container restarting in the same microseconds
        restart = ['Initializing python harness: /opt/apache/beam/boot --id=sdk-0-0 '
                   '--provision_endpoint=localhost:12371',
                   'Executing: python -m apache_beam.runners.worker.sdk_worker_main']
        for k, text in enumerate(restart):
            j.docker_lines(t + 0.000015 + k * 0.000120, other, [text], sev='INFO',
                           src='beam-boot')
        j.msg(t + 1.9, 'Error message from worker: generic::unknown: ' + tb, sev='ERROR',
              src='pangeo-138', cite='Error message from worker: generic::unknown: Traceback … '
              + EXC + " [while running '%s']" % STEP, mark='split-msg' if first else None)
        t += 29.0
    c.source('one docker entry per stderr line, microseconds apart', 'beam-33317')
    c.source('print(traceback_string, file=sys.stderr)', 'beam-instruction-error')
    N.fail(j, cf, t + 4.0, T.work_item_failed_4_plain(STEPS[0], [w, w, w, w]),
           src=('current work-item-failed wording (apache/beam#30482) without "Root cause:" '
                'lines (composition)', 'I'), mark='wif', n=2,
           cite='Workflow failed. Causes: S01:… failed., The job failed because a work item has '
                'failed 4 times. …')
    if sink:    # a Cloud Storage sink: one shard per log, NDJSON in no particular order
        c.output('export-docker.ndjson', logs=['docker'])
        c.output('export-job-message.ndjson', logs=['job-message'])
    else:
        c.output('export.json', logs=['job-message', 'docker'])
    c.fire('work-item-failed', marks=['wif'])
    c.fire('workflow-failed', marks=['wif'], caused_by='work-item-failed')
    c.unexplained(exception='ImportError', message='__import__ not found',
                  user_frame='cached_recipe.py:12', step=STEP, marks=['split', 'split-msg'],
                  key_strings=['__import__ not found'])
