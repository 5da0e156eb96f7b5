from corpuslib import noise as N, texts as T

EXC = ('MemoryError: std::bad_alloc: CUDA error at: ../include/rmm/mr/device/'
       'cuda_memory_resource.hpp:70: cudaErrorMemoryAllocation out of memory')


def build(c):
    c.describe('''
        Two inputs for one job, as a Cloud Storage sink writes them (one folder per log):
        export-job-message.ndjson holds the dataflow.googleapis.com/job-message shard,
        export-workers.ndjson.gz the worker, docker, kubelet and system entries (gzip). gpudiag is
        given both paths. The RMM wording "std::bad_alloc: CUDA error at:
        ../include/rmm/mr/device/cuda_memory_resource.hpp:70: cudaErrorMemoryAllocation out of
        memory" (real, rapidsai) sits in the worker shard (evidence line numbers below refer to
        export-workers.ndjson.gz); the job messages in the other shard give the job context.''')
    cf = N.cfg(machine='n1-highmem-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=2, experiments=['no_use_multiple_sdk_containers'],
               image='us-central1-docker.pkg.dev/fraud-feats/rapids/featurize:24.02', disk=100,
               steps=['ReadManifests/Read+ReadParquet+Featurize+WriteFeatures/Write/WriteImpl/'
                      'WriteBundles'])
    j = c.job('txn-featurize-hourly', '2024-03-04T11:00:37Z', region='us-central1',
              zone='us-central1-f', project='fraud-feats', python='3.10', beam='2.54.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    tb = T.cudf_oom_tb('3.10', EXC)
    j.wlog(ready + 333, w, T.instruction_error('process_bundle-9', tb), sev='ERROR',
           src='rapids-cudf', module='apache_beam/runners/worker/sdk_worker.py', line=303,
           cite=EXC, mark='oom', thread='Thread-10', step='Featurize')
    c.output('export-job-message.ndjson', logs=['job-message'])
    c.output('export-workers.ndjson.gz', logs=['worker', 'docker', 'kubelet', 'system',
                                               'worker-startup', 'harness'])
    c.fire('gpu-out-of-memory', marks=['oom'])
