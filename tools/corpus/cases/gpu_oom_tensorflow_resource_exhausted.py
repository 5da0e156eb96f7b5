from corpuslib import noise as N, texts as T

EXC = ('tensorflow.python.framework.errors_impl.ResourceExhaustedError:  OOM when allocating '
       'tensor with shape[32,1024,64,64] and type float on /job:localhost/replica:0/task:0/'
       'device:GPU:0 by allocator GPU_0_bfc \t [[node model_10/batch_normalization_113/'
       'FusedBatchNormV3 (defined at ...) ]] Hint: If you want to see a list of allocated tensors '
       'when OOM happens, add report_tensor_allocations_upon_oom to RunOptions for current '
       'allocation info. [Op:__inference_train_function_859884]')


def build(c):
    c.describe('''
        TensorFlow on a T4 worker: the allocator first retries ("I ... failed to allocate 4.00G
        (4294967296 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory", logged at I on
        stderr), warns with the BFC "not a failure" line, then the op fails with
        "ResourceExhaustedError: OOM when allocating tensor with shape[32,1024,64,64] ...". The
        fatal line is the finding; the allocator lines corroborate it. TF stderr lands in the
        docker log at ERROR severity regardless of the I/W letter.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/medimg-research/seg-infer:tf2.4', disk=60)
    j = c.job('ct-segmentation-infer', '2021-06-03T15:44:02Z', region='us-central1',
              zone='us-central1-a', project='medimg-research', python='3.8', beam='2.29.0')
    ready = N.bring_up(j, cf, tf=True)
    w = j.w[0]
    t = ready + 300
    j.docker(t, w, '2021-06-03 15:53:33.501229: I tensorflow/stream_executor/cuda/cuda_driver.cc:'
             '801] failed to allocate 4.00G (4294967296 bytes) from device: CUDA_ERROR_OUT_OF_'
             'MEMORY: out of memory', sev='ERROR', src='sleap-2142', mark='retry')
    j.docker(t + 0.4, w, '2021-06-03 15:53:33.903812: W tensorflow/core/common_runtime/'
             'bfc_allocator.cc:275] Allocator (GPU_0_bfc) ran out of memory trying to allocate '
             '2.10GiB with freed_by_count=0. The caller indicates that this is not a failure, but '
             'may mean that there could be performance gains if more memory were available.',
             sev='ERROR', src='sleap-2142')
    tb = T.tf_oom_tb('3.8', EXC)
    j.wlog(t + 9.0, w, T.instruction_error('process_bundle-3', tb), sev='ERROR',
           src='tf-oom-fatal', module='apache_beam/runners/worker/sdk_worker.py', line=303,
           cite=EXC, mark='oom', thread='Thread-19', step='RunInference')
    j.msg(t + 12.0, T.worker_error_msg(tb, 'RunInference-ptransform-22'), sev='ERROR',
          src='tf-oom-fatal', cite='Error message from worker: generic::unknown: Traceback … '
                                   'ResourceExhaustedError:  OOM when allocating tensor …')
    c.output('export.json')
    c.fire('gpu-out-of-memory', marks=['oom'])
