from corpuslib import noise as N, texts as T

EXC = ('MemoryError: std::bad_alloc: out_of_memory: CUDA error at: /__w/cudf/cudf/python/cudf/'
       'build/cp310-cp310-manylinux_2_28_x86_64/_deps/rmm-src/include/rmm/mr/device/'
       'cuda_memory_resource.hpp:69: cudaErrorMemoryAllocation out of memory')


def build(c):
    c.describe('''
        RAPIDS cuDF inside a DoFn on a T4 (n1-highmem-8, one SDK process): reading a large
        Parquet file fails with the RMM wording "MemoryError: std::bad_alloc: out_of_memory: CUDA
        error at: ... cuda_memory_resource.hpp:69: cudaErrorMemoryAllocation out of memory" (real
        text from rapidsai/cudf, outside Dataflow) - the literal phrase the Dataflow GPU
        troubleshooting page names. Gzip-compressed Cloud Storage sink shard.''')
    cf = N.cfg(machine='n1-highmem-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2,
               max_workers=4, experiments=['no_use_multiple_sdk_containers'],
               image='us-central1-docker.pkg.dev/fraud-feats/rapids/featurize:24.06', disk=100,
               steps=['ReadManifests/Read+ReadParquet+Featurize+WriteFeatures/Write/WriteImpl/'
                      'WriteBundles'])
    j = c.job('txn-featurize-daily', '2024-07-22T03:00:41Z', region='us-central1',
              zone='us-central1-f', project='fraud-feats', python='3.10', beam='2.57.0',
              workers=2)
    ready = N.bring_up(j, cf)
    tb = T.cudf_oom_tb('3.10', EXC)
    t = ready + 400
    for attempt, w in enumerate([j.w[1], j.w[0]]):
        j.docker(t - 0.05, w, tb, sev='ERROR', src='rapids-cudf', cite=EXC)
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (11 + attempt), tb), sev='ERROR',
               src='rapids-cudf', module='apache_beam/runners/worker/sdk_worker.py', line=303,
               cite=EXC, mark='oom' if attempt == 0 else None, thread='Thread-%d' % (8 + attempt),
               step='Featurize')
        t += 75.0
    c.output('export.ndjson.gz')
    c.fire('gpu-out-of-memory', marks=['oom'])
    c.not_fire('host-out-of-memory', 'multiple-processes-per-gpu')
