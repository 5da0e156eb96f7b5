from corpuslib import noise as N, texts as T

STEP = 'ScoreTickets'
STAGE = 'S01:ReadTickets/Read+ScoreTickets+WriteScores/Write'
SP = T.sp('3.11')
ERR = ('RuntimeError: Expected all tensors to be on the same device, but got mat1 is on cuda:1, different from '
       'other tensors on cuda:0 (when checking argument in method wrapper_CUDA_addmm)')
SRC_DEV = ('pytorch/pytorch aten/src/ATen/core/adaption.cpp common_device_check_failure, recent wording ("Expected all '
           'tensors to be on the same device, but got %s is on %s, different from other tensors on %s (when checking '
           'argument in method %s)"), raised by F.linear in a head the DoFn added after a device_map="auto" model '
           '(InternLM/InternLM#810 for the device_map shape); frames composed from torch and Beam frames', 'V-code')
SRC_GEN_WARN = ('huggingface/transformers generation/utils.py "You are calling .generate() with the `input_ids` being on a '
                'device type different than your model\'s device …" UserWarning (a near miss)', 'V-other')
SRC_DTYPE = ('transformers 4.56+ "`torch_dtype` is deprecated! Use `dtype` instead!" deprecation notice on stderr '
             '(public logs)', 'V-other')


def build(c):
    c.describe('''
        Cross-device tensors after device_map="auto" (issue 40, models): a ticket-scoring DoFn loads a 14 B
        model with device_map="auto" on a g2-standard-24 worker (two L4s), so accelerate puts its last layers
        on cuda:1, and then applies its own classification head built with torch.nn.Linear(...).to("cuda"),
        i.e. on cuda:0. The pooled hidden state leaves the model on cuda:1 and the head's F.linear raises
        "RuntimeError: Expected all tensors to be on the same device, but got mat1 is on cuda:1, different
        from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_addmm)" (recent PyTorch
        wording) on every bundle: in the worker log, and split one line per entry on docker stderr. Four
        attempts fail the job. tensors-on-different-devices fires and its first fix names the two GPUs.
        Red herrings: transformers' "`torch_dtype` is deprecated!" notice on stderr (ERROR severity, an
        API notice) and its WARNING about generate() inputs on another device type, from a summariser
        step that then runs.''')
    cf = N.cfg(machine='g2-standard-24', gpu='nvidia-l4', gpu_count=2, driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE])
    j = c.job('support-ticket-priority-scoring', '2026-02-11T15:20:41Z', region='us-central1',
              zone='us-central1-a', python='3.11', beam='2.66.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 30
    j.docker(t, w, '`torch_dtype` is deprecated! Use `dtype` instead!', sev='ERROR', src=SRC_DTYPE)
    j.wlog(t + 3, w, "Loading Qwen/Qwen2.5-14B-Instruct with device_map='auto' (bfloat16) across 2 visible GPUs",
           src='user-code', module='/app/score.py', line=41)
    j.wlog(t + 95, w, "hf_device_map: {'model.embed_tokens': 0, 'model.layers.0': 0, 'model.layers.23': 0, "
           "'model.layers.24': 1, 'model.layers.47': 1, 'model.norm': 1, 'lm_head': 1}", src='user-code',
           module='/app/score.py', line=47)
    j.wlog(t + 97, w, 'Priority head loaded from gs://tally-support-models/heads/priority-v7.pt and moved to cuda',
           src='user-code', module='/app/score.py', line=52)
    j.wlog(t + 120, w, "/usr/local/lib/python3.11/site-packages/transformers/generation/utils.py:2479: UserWarning: You "
           "are calling .generate() with the `input_ids` being on a device type different than your model's device. "
           "`input_ids` is on cpu, whereas the model is on cuda. You may experience unexpected behaviors or slower "
           "generation. Please make sure that you have put `input_ids` to the correct device by calling for example "
           "input_ids = input_ids.to('cuda') before running `.generate()`.", sev='WARNING', src=SRC_GEN_WARN,
           module='/app/summarise.py', line=63)
    frames = [
        '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
        '  File "/app/score.py", line 88, in process',
        '    logits = self.head(pooled)',
        '  File "%s/torch/nn/modules/module.py", line 1773, in _wrapped_call_impl' % SP,
        '    return self._call_impl(*args, **kwargs)',
        '  File "%s/torch/nn/modules/module.py", line 1784, in _call_impl' % SP,
        '    return forward_call(*args, **kwargs)',
        '  File "%s/torch/nn/modules/linear.py", line 125, in forward' % SP,
        '    return F.linear(input, self.weight, self.bias)',
    ]
    tb = T.user_tb('3.11', frames, ERR + " [while running '%s']" % STEP)
    t += 140
    for attempt in range(4):
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (attempt + 1), tb), sev='ERROR', src=SRC_DEV,
               cite='Expected all tensors to be on the same device, but got mat1 is on cuda:1',
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (11 + attempt),
               step=STEP, mark='dev' if attempt == 0 else None)
        if attempt == 0:
            j.docker_lines(t - 0.01, w, T.user_tb('3.11', frames, ERR).split('\n'), src=SRC_DEV, mark='dev-docker')
        t += 30
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('tensors-on-different-devices', marks=['dev'], captures={'gpu_a': 'cuda:1', 'gpu_b': 'cuda:0'})
    c.fire('work-item-failed', marks=['wif'], caused_by='tensors-on-different-devices')
    c.fire('workflow-failed', marks=['wif'], caused_by='tensors-on-different-devices')
    c.no_unexplained()
    c.not_fire('gpu-out-of-memory', 'cuda-device-out-of-range', 'model-offloaded-to-disk', 'nccl-error')
