from corpuslib import noise as N, texts as T

STEP = 'Summarise'
STAGE = 'S02:ReadTickets/Read+Summarise+WriteSummaries/Write'
SP = T.sp('3.11')
NAN = 'RuntimeError: probability tensor contains either `inf`, `nan` or element < 0'
SRC_NAN = ('pytorch/pytorch aten/src/ATen/native/Distributions.cpp multinomial (TORCH_CHECK), reached from '
           'transformers generation/utils.py _sample (torch.multinomial of the softmax of the next-token scores); '
           'meta-llama/llama#380 (a bfloat16 model sampled in float16)', 'V-code')
SRC_GEMMA = ('transformers models/gemma2 "It is strongly recommended to train Gemma2 models with the `eager` attention '
             'implementation instead of `sdpa`" (a load-time WARNING): a near miss', 'V-other')


def build(c):
    c.describe('''
        Sampling from a bfloat16 model run in float16 (issue 40, PyTorch/transformers): a ticket-summary DoFn
        loads google/gemma-2-2b-it on a T4 — which has no bfloat16 — with torch_dtype=torch.float16 and calls
        generate(do_sample=True, temperature=0.7). Gemma 2's activations overflow float16, the logits turn to
        inf/NaN, and torch.multinomial refuses them: "RuntimeError: probability tensor contains either
        `inf`, `nan` or element < 0". The traceback reaches the worker log, the job message repeats it and
        four attempts fail the job. sampling-probabilities-invalid fires. Near misses in the same export:
        transformers' load-time WARNING about Gemma 2's attention implementation, and generate()'s
        pad_token_id note.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE])
    j = c.job('ticket-summaries-gemma2', '2026-04-21T09:10:05Z', region='us-central1',
              zone='us-central1-b', python='3.11', beam='2.64.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 30
    j.wlog(t - 20, j.w[0], 'It is strongly recommended to train Gemma2 models with the `eager` attention implementation '
           'instead of `sdpa`. Use `eager` with `AutoModelForCausalLM.from_pretrained("<path-to-checkpoint>", '
           'attn_implementation="eager")`.', sev='WARNING', src=SRC_GEMMA,
           module='%s/transformers/models/gemma2/modeling_gemma2.py' % SP, line=612)
    j.wlog(t - 10, j.w[0], 'Setting `pad_token_id` to `eos_token_id`:1 for open-end generation.', sev='WARNING',
           src=SRC_GEMMA, module='%s/transformers/generation/utils.py' % SP, line=1852)
    tb = T.user_tb('3.11', [
        '  File "apache_beam/runners/common.py", line 1501, in apache_beam.runners.common.DoFnRunner.process',
        '  File "/app/summarise.py", line 64, in process',
        '    out = self._model.generate(**enc, do_sample=True, temperature=0.7, max_new_tokens=256)',
        '  File "%s/torch/utils/_contextlib.py", line 116, in decorate_context' % SP,
        '    return func(*args, **kwargs)',
        '  File "%s/transformers/generation/utils.py", line 2255, in generate' % SP,
        '    result = self._sample(',
        '  File "%s/transformers/generation/utils.py", line 3297, in _sample' % SP,
        '    next_tokens = torch.multinomial(probs, num_samples=1).squeeze(1)',
    ], NAN + " [while running '%s']" % STEP)
    t = N.failed_attempts(j, t, j.w[0], tb, STEP, src=SRC_NAN,
                          cite='probability tensor contains either `inf`, `nan` or element < 0', gap=45.0,
                          bundle=7, thread=14, mark='nan',
                          msg_cite='Error message from worker: … probability tensor contains either `inf`, `nan` '
                                   'or element < 0')
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [j.w[0]] * 4)
    c.output('export.json')
    c.fire('sampling-probabilities-invalid', marks=['nan', 'nan-msg'])
    c.fire('work-item-failed', marks=['wif'], caused_by='sampling-probabilities-invalid')
    c.fire('workflow-failed', marks=['wif'], caused_by='sampling-probabilities-invalid')
    c.not_fire('bf16-unsupported-gpu', 'gpu-out-of-memory', 'cuda-device-side-assert')
