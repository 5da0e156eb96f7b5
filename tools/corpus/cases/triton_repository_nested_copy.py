from corpuslib import noise as N, texts as T

STEP = 'EmbedProducts'
STEPS = ['S01:ReadProducts/Read+EmbedProducts+WriteVectors/Write']
PY = '3.10'
SP = T.sp(PY)
REPO = 'gs://acme-catalog-models/triton/catalog_repo'
POLL = ("\"Poll failed for model directory 'catalog_repo': Invalid model name: Could not determine backend for "
        "model 'catalog_repo' with no backend in model configuration. Expected model name of the form "
        "'model.<backend_name>'.\"")
SRC_POLL = ('triton-inference-server/core src/model_repository_manager/model_repository_manager.cc Poll ("Poll '
            'failed for model directory \'X\': " + status) and src/model_config_utils.cc AutoCompleteBackendFields '
            '("Invalid model name: Could not determine backend for model \'X\' with no backend in model '
            'configuration. Expected model name of the form \'model.<backend_name>\'.", core PR #111); the '
            'JSON-quoted message of Triton 24.05+ (triton-inference-server/common logging.cc); the line as a '
            'public OpenShift troubleshooting note quotes it for a stray lost+found directory (model name, pid, '
            'times and line number ours)', 'V-code')
SRC_EXIT = ('triton-inference-server/server src/main.cc ("error: creating server: " + the status code string + '
            '" - " + message) and core model_repository_manager.cc ("failed to load all models")', 'V-code')
SRC_OK = ('triton-inference-server/core src/pinned_memory_manager.cc, src/cuda_memory_manager.cc, src/metrics.cc '
          'and src/server.cc (the model table of a repository that yielded no model: header only): what Triton '
          'prints on a healthy start too, a near miss', 'V-code')
SRC_DOFN = ('the pipeline\'s own DoFn: copies the repository with "gcloud storage cp -r" into /models, starts '
            'tritonserver in setup(), relays its output line by line at INFO and raises when it exits '
            '(composition; "cp -r gs://…/catalog_repo /models" creates /models/catalog_repo/…, one level too '
            'deep, as cp does), [I]', 'I')


def build(c):
    c.describe('''
        Triton Inference Server refuses a repository copied one level too deep (issue 40, model
        servers; the family of heldout-stacks-12's hs12-01, another variant): a product-embedding DoFn
        copies its Triton repository with "gcloud storage cp -r gs://acme-catalog-models/triton/catalog_repo
        /models", which creates /models/catalog_repo/<models>, and starts tritonserver 24.08
        --model-repository=/models in setup. Triton takes catalog_repo for a model: it has no
        config.pbtxt and no model file Triton recognises, so with auto-complete on the poll says
        "Poll failed for model directory 'catalog_repo': Invalid model name: Could not determine backend
        for model 'catalog_repo' …" (JSON-quoted, 24.05+), the model table stays empty and the server
        exits with "failed to load all models". The DoFn relays Triton's output at INFO through its
        own logger and raises; four attempts, the job fails. triton-model-load-failed names the
        directory and explains model-server-start-failed; the DoFn's generic RuntimeError is listed
        at info. Near misses: Triton's healthy start-up lines (pinned and CUDA memory pools, GPU
        metrics), the empty model table, the DoFn's copy summary naming catalog_repo. Exported as a
        Cloud Storage sink shard (NDJSON, unordered).''')
    cf = N.cfg(machine='n1-highmem-8', gpu='nvidia-tesla-v100', driver=True, num_workers=1, max_workers=2,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS,
               image='europe-west4-docker.pkg.dev/acme-catalog/dataflow/catalog-triton:24.08-b2.61.0')
    j = c.job('catalog-embed-triton', '2026-03-18T09:30:05Z', region='europe-west4',
              zone='europe-west4-b', python=PY, beam='2.61.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    relay = dict(module='catalog_embed/triton_server.py', thread='Thread-9', step=STEP)
    t = ready + 20
    for attempt in range(4):
        first = attempt == 0
        m = 33 + 2 * attempt
        stamp = lambda lvl, s, us: '%s0318 09:%02d:%02d.%06d 2%02d' % (lvl, m, s, us, 11 + attempt)
        j.wlog(t, w, 'Copied 11 objects from %s to /models (412.7 MiB)' % REPO, src=SRC_DOFN, line=41, **relay)
        j.wlog(t + 0.2, w, 'Starting tritonserver --model-repository=/models --exit-on-error=true '
               '--http-port=8000 --grpc-port=8001 --metrics-port=8002', src=SRC_DOFN, line=58, **relay)
        lines = [
            (stamp('I', 11, 102311) + " pinned_memory_manager.cc:277] \"Pinned memory pool is created at "
             "'0x7f1c4e000000' with size 268435456\"", SRC_OK, None),
            (stamp('I', 11, 106540) + ' cuda_memory_manager.cc:107] "CUDA memory pool is created on device 0 '
             'with size 67108864"', SRC_OK, None),
            (stamp('E', 11, 118842) + ' model_repository_manager.cc:1460] ' + POLL, SRC_POLL,
             'poll' if first else None),
            (stamp('I', 11, 119407) + ' server.cc:674] ', SRC_OK, None),
            ('+-------+---------+--------+', SRC_OK, None),
            ('| Model | Version | Status |', SRC_OK, None),
            ('+-------+---------+--------+', SRC_OK, None),
            ('+-------+---------+--------+', SRC_OK, None),
            (stamp('I', 11, 184522) + ' metrics.cc:877] "Collecting metrics for GPU 0: Tesla V100-SXM2-16GB"',
             SRC_OK, None),
            ('error: creating server: Internal - failed to load all models', SRC_EXIT, 'start' if first else None),
        ]
        for k, (text, src, mark) in enumerate(lines):
            j.wlog(t + 3.0 + 0.01 * k, w, 'tritonserver: ' + text, src=src, cite=text, mark=mark, line=77,
                   **relay)
        tb = T.augmented_tb(PY, [
            '  File "%s/catalog_embed/triton_server.py", line 92, in setup' % SP,
            '    raise RuntimeError("tritonserver exited with code %d before it became ready" % code)',
        ], 'RuntimeError: tritonserver exited with code 1 before it became ready', STEP)
        j.wlog(t + 5, w, T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR', src=SRC_DOFN,
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (11 + attempt),
               step=STEP, mark='dofn' if first else None)
        t += 120.0
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [w] * 4)
    c.output('export-000000000000.ndjson')
    c.fire('triton-model-load-failed', marks=['poll'],
           captures={'model': 'catalog_repo', 'no_backend': 'catalog_repo'})
    c.fire('model-server-start-failed', marks=['start'], caused_by='triton-model-load-failed')
    c.fire('work-item-failed', marks=['wif'], caused_by='triton-model-load-failed')
    c.fire('workflow-failed', marks=['wif'], caused_by='triton-model-load-failed')
    c.not_fire('triton-model-on-cpu', 'gpu-out-of-memory', 'tensorrt-engine-incompatible', 'gpu-not-used')
    # the DoFn's generic RuntimeError: listed below the cause the rule names, at info
    c.unexplained(exception='RuntimeError', message='tritonserver exited with code 1 before it became ready',
                  user_frame='triton_server.py:92', step=STEP, marks=['dofn'], severity='info')
