from corpuslib import noise as N, texts as T

STEP = 'EmbedListings'
STAGE = 'S01:ReadListings/Read+Normalize+EmbedListings+WriteEmbeddings/Write'
SP = T.sp('3.11')
ERR = ('RuntimeError: Deterministic behavior was enabled with either `torch.use_deterministic_algorithms(True)` or '
       '`at::Context::setDeterministicAlgorithms(true)`, but this operation is not deterministic because it uses '
       'CuBLAS and you have CUDA >= 10.2. To enable deterministic behavior in this case, you must set an environment '
       'variable before running your PyTorch application: CUBLAS_WORKSPACE_CONFIG=:4096:8 or '
       'CUBLAS_WORKSPACE_CONFIG=:16:8. For more information, go to '
       'https://docs.nvidia.com/cuda/cublas/index.html#results-reproducibility')
SRC_CUBLAS = ('pytorch/pytorch aten/src/ATen/Context.cpp Context::alertCuBLASConfigNotDeterministic (TORCH_CHECK, the '
              '#results-reproducibility link of 2.x), raised by the first cuBLAS GEMM when '
              'CUBLAS_WORKSPACE_CONFIG is unset (public reports: pytorch/vision#3422, pytorch/tutorials#2758, '
              'Lightning-AI/litgpt#2124); frames composed from torch/nn/modules (module.py, linear.py line 117 of '
              '2.4), transformers models/bert/modeling_bert.py and Beam\'s compiled DoFnRunner frame; line numbers '
              'plausible, not exact', 'V-code')
SRC_DETERMINISM = ('the pipeline\'s own INFO line announcing its reproducibility settings (composed)', 'I')
SRC_TYPED = ('pytorch/pytorch torch/storage.py _warn_typed_storage_removal: "TypedStorage is deprecated. It will be '
             'removed in the future and UntypedStorage will be the only storage class. This should only matter to '
             'you if you are using storages directly.  To access UntypedStorage directly, use '
             'tensor.untyped_storage() instead." (a UserWarning of torch 2.x while older checkpoints load; harmless)',
             'V-code')


def build(c):
    c.describe('''
        PyTorch determinism without the cuBLAS workspace setting (issue 40, runtime): a listing
        deduplication job embeds product titles with a BERT-base encoder on T4 workers. For embeddings that
        are identical across reruns, EmbedListings.setup() seeds the RNGs and calls
        torch.use_deterministic_algorithms(True); the team's notebook image exports
        CUBLAS_WORKSPACE_CONFIG=:4096:8, the Dataflow image does not. The first nn.Linear of the first
        bundle raises "RuntimeError: Deterministic behavior was enabled with either
        `torch.use_deterministic_algorithms(True)` or `at::Context::setDeterministicAlgorithms(true)`, but
        this operation is not deterministic because it uses CuBLAS and you have CUDA >= 10.2 …
        CUBLAS_WORKSPACE_CONFIG=:4096:8 or CUBLAS_WORKSPACE_CONFIG=:16:8 …"; the job message repeats it,
        four attempts fail the job. cublas-workspace-config-missing fires and its first fix is the ENV line
        in the image. Red herrings: the DoFn's own INFO line announcing determinism (no error), torch's
        TypedStorage deprecation UserWarning while the checkpoint loads, and the words "cuBLAS" and "CUDA >=
        10.2" in the error, which are neither cuBLAS failing to start (cublas-handle-failed) nor a CUDA
        version problem (cuda-driver-too-old); no operation lacks a deterministic implementation, so
        torch-nondeterministic-op stays quiet.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE],
               image='europe-west1-docker.pkg.dev/kiosk-market/dataflow/listing-embedder:1.8.2')
    j = c.job('listing-dedup-embeddings', '2025-06-17T02:00:04Z', region='europe-west1', zone='europe-west1-c',
              project='kiosk-market', python='3.11', beam='2.60.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 8
    j.wlog(t, w, 'Determinism enabled for reproducible embeddings: torch.use_deterministic_algorithms(True), '
           'cudnn.benchmark=False, seed=1729', src=SRC_DETERMINISM, module='/app/dedup/embed.py', line=41,
           thread='Thread-11', step=STEP)
    j.docker_lines(t + 3.2, w, [
        '%s/torch/_utils.py:831: UserWarning: TypedStorage is deprecated. It will be removed in the future and '
        'UntypedStorage will be the only storage class. This should only matter to you if you are using storages '
        'directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead.' % SP,
        '  return self.fget.__get__(instance, owner)()'], sev='ERROR', src=SRC_TYPED)
    j.wlog(t + 9, w, 'Loaded encoder gs://kiosk-market-models/listing-bert-base/v4 on cuda:0 (110M parameters)',
           src=SRC_DETERMINISM, module='/app/dedup/embed.py', line=49, thread='Thread-11', step=STEP)
    tb = T.user_tb('3.11', [
        '  File "apache_beam/runners/common.py", line 1495, in apache_beam.runners.common.DoFnRunner.process',
        '  File "/app/dedup/embed.py", line 63, in process',
        '    out = self._model(**enc)',
        '  File "%s/torch/nn/modules/module.py", line 1553, in _wrapped_call_impl' % SP,
        '    return self._call_impl(*args, **kwargs)',
        '  File "%s/torch/nn/modules/module.py", line 1562, in _call_impl' % SP,
        '    return forward_call(*args, **kwargs)',
        '  File "%s/transformers/models/bert/modeling_bert.py", line 1141, in forward' % SP,
        '    encoder_outputs = self.encoder(',
        '  File "%s/transformers/models/bert/modeling_bert.py", line 694, in forward' % SP,
        '    layer_outputs = layer_module(',
        '  File "%s/transformers/models/bert/modeling_bert.py", line 584, in forward' % SP,
        '    self_attention_outputs = self.attention(',
        '  File "%s/transformers/models/bert/modeling_bert.py", line 514, in forward' % SP,
        '    self_outputs = self.self(',
        '  File "%s/transformers/models/bert/modeling_bert.py", line 394, in forward' % SP,
        '    query_layer = self.transpose_for_scores(self.query(current_states))',
        '  File "%s/torch/nn/modules/linear.py", line 117, in forward' % SP,
        '    return F.linear(input, self.weight, self.bias)',
    ], ERR + " [while running '%s']" % STEP)
    t = N.failed_attempts(j, t + 14, w, tb, STEP, src=SRC_CUBLAS,
                          cite='RuntimeError: Deterministic behavior was enabled with either '
                               '`torch.use_deterministic_algorithms(True)` … it uses CuBLAS and you have CUDA >= '
                               '10.2 … CUBLAS_WORKSPACE_CONFIG=:4096:8 …', gap=31.0, mark='cublas',
                          msg_cite='Error message from worker: … Deterministic behavior was enabled … it uses CuBLAS '
                                   'and you have CUDA >= 10.2 …')
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('cublas-workspace-config-missing', marks=['cublas', 'cublas-msg'])
    c.fire('work-item-failed', marks=['wif'], caused_by='cublas-workspace-config-missing')
    c.fire('workflow-failed', marks=['wif'], caused_by='cublas-workspace-config-missing')
    c.not_fire('torch-nondeterministic-op', 'cublas-handle-failed', 'cuda-driver-too-old', 'gpu-out-of-memory',
               'cuda-libraries-missing', 'torch-load-weights-only')
    c.no_unexplained()
