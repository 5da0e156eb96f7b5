from corpuslib import noise as N, texts as T

STEP = 'Embed/BeamML_RunInference'
STAGE = 'S02:ReadQueries/Read+Tokenize+Embed/BeamML_RunInference+WriteEmbeddings/Write'
SP = T.sp('3.11')
SHARDING = "NamedSharding(mesh=Mesh('batch': 2), spec=PartitionSpec('batch',))"
ERR = ("ValueError: One of pjit arguments with pytree key path tokens was given the sharding of %s, which implies "
       "that the global size of its dimension 0 should be divisible by 2, but it is equal to 23 (full shape: "
       "(23, 128))" % SHARDING)
SRC_JAX = ('jax-ml/jax jax/_src/pjit.py pjit_check_aval_sharding at jax-v0.4.30 (f"One of {what_aval}{name_str} was '
           'given the sharding of {s}, which implies that the global size of its dimension {i} should be divisible by '
           '{size}, but it is equal to {shape[i]} (full shape: {shape})", what_aval "pjit arguments", name_str " with '
           'pytree key path {name}") and sharding_impls.py NamedSharding.__repr__ ("NamedSharding(mesh=Mesh(\'batch\': '
           '2), spec=PartitionSpec(\'batch\',))"); the Beam RunInference frames follow apache/beam base.py, the model '
           'handler\'s frame and the values are composed', 'V-code')
SRC_PROBE = ('jax-ml/jax jax/_src/xla_bridge.py backends(): logger.info "Unable to initialize backend \'%s\': %s" for '
             'backends that fail quietly, as google-deepmind/alphafold3#172 shows it on a GPU machine ("… \'tpu\': '
             'INTERNAL: Failed to open libtpu.so: libtpu.so: cannot open shared object file: No such file or '
             'directory"); harmless on a GPU worker', 'V-other')
SRC_TEAM = ('the pipeline\'s own log lines: the mesh and shardings it builds in load_model and the batches it '
            'embedded (a near miss that names the sharding; composed)', 'I')


def _tb():
    return T.augmented_tb('3.11', [
        '  File "%s/apache_beam/ml/inference/base.py", line 1399, in process' % SP,
        '    return self._run_inference(batch, inference_args)',
        '  File "%s/apache_beam/ml/inference/base.py", line 1385, in _run_inference' % SP,
        '    result_generator = self._model_handler.run_inference(',
        '  File "%s/query_embed/handlers.py", line 88, in run_inference' % SP,
        '    vectors = self._embed(model, tokens)',
        '  File "%s/jax/_src/traceback_util.py", line 179, in reraise_with_filtered_traceback' % SP,
        '    return fun(*args, **kwargs)',
        '  File "%s/jax/_src/pjit.py", line 1326, in pjit_check_aval_sharding' % SP,
        '    raise ValueError(f"One of {what_aval}{name_str} was given the sharding "',
    ], ERR, STEP)


def build(c):
    c.describe('''
        A jitted JAX embedder whose batch is sharded over the two GPUs of a worker (issue 40, JAX sharding
        vs. batch size; JAX 0.4.30, the pjit wording): a query-embedding job runs RunInference with a
        custom model handler on g2-standard-24 workers (2 × L4). load_model builds Mesh(jax.devices(),
        ('batch',)) and jax.jit(embed, in_shardings=(replicated, NamedSharding(mesh, P('batch')))).
        RunInference batches between 16 and 64 elements; the batches of 16, 32 and 64 split evenly over
        the two GPUs, but the last batch of a bundle has 23 queries, and JAX raises "One of pjit
        arguments with pytree key path tokens was given the sharding of NamedSharding(mesh=Mesh('batch':
        2), spec=PartitionSpec('batch',)), which implies that the global size of its dimension 0 should
        be divisible by 2, but it is equal to 23 (full shape: (23, 128))"; every retry of the bundle
        ends the same way and the job fails. jax-shard-not-divisible fires with the divisor and the size.
        Near misses: the handler's own lines naming its mesh and sharding and the full batches it
        embedded, and JAX's INFO probe of the TPU backend (libtpu.so missing, harmless on GPUs).''')
    cf = N.cfg(machine='g2-standard-24', gpu='nvidia-l4', gpu_count=2, driver=True, num_workers=1, max_workers=3,
               experiments=['no_use_multiple_sdk_containers'], steps=['S01:ReadQueries/Read+Tokenize', STAGE],
               image='us-central1-docker.pkg.dev/orchard-search/beam/query-embed:jax0.4.30-b2.57')
    j = c.job('query-embeddings-nightly', '2024-07-18T03:05:11Z', region='us-central1', zone='us-central1-b',
              project='orchard-search', python='3.11', beam='2.57.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    j.wlog(ready + 4.0, w, "Unable to initialize backend 'tpu': INTERNAL: Failed to open libtpu.so: libtpu.so: "
           "cannot open shared object file: No such file or directory", src=SRC_PROBE,
           module='jax/_src/xla_bridge.py', line=906, thread='Thread-12', step=STEP)
    j.wlog(ready + 5.1, w, "jax 0.4.30: 2 devices [cuda(id=0), cuda(id=1)]; mesh Mesh('batch': 2); token sharding "
           "%s" % SHARDING, src=SRC_TEAM, module='%s/query_embed/handlers.py' % SP, line=52,
           thread='Thread-12', step=STEP, mark='mesh')
    t = ready + 31.0
    for k, n in enumerate((16, 32, 64, 64, 64)):
        j.wlog(t + 3.2 * k, w, 'embedded batch %d: %d queries on 2 devices' % (k + 1, n), src=SRC_TEAM,
               module='%s/query_embed/handlers.py' % SP, line=91, thread='Thread-12', step=STEP,
               mark='batch' if k == 0 else None)
    t = N.failed_attempts(j, t + 19.0, w, _tb(), STEP, src=SRC_JAX, bundle=3, thread=12,
                          cite='ValueError: One of pjit arguments with pytree key path tokens was given the sharding '
                               'of NamedSharding(…), which implies that the global size of its dimension 0 should be '
                               'divisible by 2, but it is equal to 23 (full shape: (23, 128))',
                          gap=47.0, mark='shard',
                          msg_cite='Error message from worker: … which implies that the global size of its dimension 0 '
                                   'should be divisible by 2, but it is equal to 23 …')
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.ndjson')
    c.fire('jax-shard-not-divisible', marks=['shard', 'shard-msg'],
           captures={'what': 'pjit arguments', 'dim': '0', 'divisor': '2', 'size': '23', 'shape': '(23, 128)'})
    c.fire('work-item-failed', marks=['wif'], caused_by='jax-shard-not-divisible')
    c.fire('workflow-failed', marks=['wif'], caused_by='jax-shard-not-divisible')
    c.not_fire('system-library-missing', 'gpu-not-used', 'jax-cuda-libraries-outdated', 'jax-jaxlib-version-skew',
               'llm-tensor-parallel-gpus', 'batch-elements-unequal-shapes')
    c.no_unexplained()
