from corpuslib import noise as N, texts as T

STEP = 'ScoreListings'
STAGE = 'S01:ReadListings/Read+ScoreListings+WriteScores/Write'
SP = T.sp('3.11')
ERR = ('NotImplementedError: Cannot copy out of meta tensor; no data! Please use torch.nn.Module.to_empty() '
       'instead of torch.nn.Module.to() when moving module from meta to a different device.')
SRC_META = ('pytorch/pytorch aten/src/ATen/native/Copy.cpp copy_impl ("Cannot copy out of meta tensor; no data!") '
            're-raised by torch/nn/modules/module.py Module.to convert() with the to_empty() sentence (2.1 on); '
            'a model built under accelerate.init_empty_weights() whose checkpoint lacked some weights, then '
            '.to("cuda") (tloen/alpaca-lora#368, lm-sys/FastChat#1741 for the shape); frames composed from torch '
            'and Beam frames', 'V-code')
SRC_OFFLOAD_WARN = ('huggingface/accelerate big_modeling.py dispatch_model warning "Some parameters are on the meta '
                    'device because they were offloaded to the cpu." (a load that then works): a near miss', 'V-other')
SRC_DTYPE = ('transformers 4.56+ "`torch_dtype` is deprecated! Use `dtype` instead!" deprecation notice on stderr '
             '(public logs)', 'V-other')
SRC_MISSING = ('the pipeline\'s own log of accelerate load_checkpoint_in_model, which does not check the state dict '
               'against the model (Accelerate "Loading big models into memory", "Limits and further development") '
               '(synthetic)', 'I')


def build(c):
    c.describe('''
        A model left on the meta device (issue 40, models): a listing-scoring DoFn builds its own
        ranking model (a transformer encoder plus a pricing head) under accelerate's
        init_empty_weights() to save host memory, fills it with load_checkpoint_in_model from a
        checkpoint exported before the pricing head existed, and moves it with .to("cuda"). The head
        never received values, so PyTorch refuses: "NotImplementedError: Cannot copy out of meta tensor;
        no data! Please use torch.nn.Module.to_empty() instead of torch.nn.Module.to() when moving module
        from meta to a different device." It happens in setup() on each of four attempts (worker log,
        and one docker stderr entry per traceback line), and the job fails. meta-tensor-not-materialized
        fires. Red herrings: accelerate's WARNING "Some parameters are on the meta device because they
        were offloaded to the cpu." from a summariser step whose device_map load then works,
        transformers' "`torch_dtype` is deprecated!" notice on stderr at ERROR, and the pipeline's
        own INFO line about the checkpoint it loaded.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE])
    j = c.job('marketplace-listing-scores', '2026-01-20T06:40:12Z', region='us-east1', zone='us-east1-c',
              python='3.11', beam='2.67.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 12
    j.docker(t, w, '`torch_dtype` is deprecated! Use `dtype` instead!', sev='ERROR', src=SRC_DTYPE)
    j.wlog(t + 31, w, 'Some parameters are on the meta device because they were offloaded to the cpu.',
           sev='WARNING', src=SRC_OFFLOAD_WARN, module='/usr/local/lib/python3.11/site-packages/accelerate/'
           'big_modeling.py', line=450)
    j.wlog(t + 44, w, 'Loaded ranker weights from gs://mkt-ranking-models/ranker/2025-11-03/model.safetensors '
           '(412 tensors) into ListingRanker', src=SRC_MISSING, module='/app/ranker.py', line=58)
    frames = [
        '  File "apache_beam/runners/common.py", line 1588, in apache_beam.runners.common.DoFnRunner._invoke_setup',
        '  File "/app/ranker.py", line 61, in setup',
        '    self.model = model.to("cuda").eval()',
        '  File "%s/torch/nn/modules/module.py", line 1355, in to' % SP,
        '    return self._apply(convert)',
        '  File "%s/torch/nn/modules/module.py", line 915, in _apply' % SP,
        '    module._apply(fn)',
        '  File "%s/torch/nn/modules/module.py", line 942, in _apply' % SP,
        '    param_applied = fn(param)',
        '  File "%s/torch/nn/modules/module.py", line 1348, in convert' % SP,
        '    raise NotImplementedError(',
    ]
    tb = T.user_tb('3.11', frames, ERR + " [while running '%s']" % STEP)
    t += 46
    for attempt in range(4):
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (attempt + 1), tb), sev='ERROR', src=SRC_META,
               cite='NotImplementedError: Cannot copy out of meta tensor; no data! Please use '
                    'torch.nn.Module.to_empty() …',
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (11 + attempt),
               step=STEP, mark='meta' if attempt == 0 else None)
        if attempt == 0:
            j.docker_lines(t - 0.01, w, T.user_tb('3.11', frames, ERR).split('\n'), src=SRC_META,
                           mark='meta-docker')
        t += 52
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('meta-tensor-not-materialized', marks=['meta'])
    c.fire('work-item-failed', marks=['wif'], caused_by='meta-tensor-not-materialized')
    c.fire('workflow-failed', marks=['wif'], caused_by='meta-tensor-not-materialized')
    c.no_unexplained()
    c.not_fire('tensors-on-different-devices', 'model-offloaded-to-disk', 'state-dict-mismatch',
               'gpu-out-of-memory')
