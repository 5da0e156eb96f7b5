from corpuslib import noise as N, texts as T

STEP = 'Summarise'
STEPS = ['S01:ReadTickets/Read+Summarise+WriteSummaries/Write']
SP = T.sp('3.11')
E = '\x1b'
SRC_TGI = ('huggingface/text-generation-inference launcher/src/main.rs and server/text_generation_server/models/'
           'flash_causal_lm.py warmup (v2.x): "Method Warmup encountered an error.", "Not enough memory to handle N '
           'prefill tokens. You need to decrease `--max-batch-prefill-tokens`", "Shard complete standard error output:", '
           '"Shard 0 failed to start", "Error: ShardCannotStart"; the lines as huggingface/text-generation-inference#1067 '
           'and #1627 show them, with the ANSI colours tracing keeps on a pipe (#1763); model, times and pids adapted',
           'V-code')
SRC_OK = ('huggingface/text-generation-inference launcher/src/main.rs: "Default `max_batch_prefill_tokens` to N", '
          '"Starting shard", "Waiting for shard to be ready...": healthy INFO chatter', 'V-code')
SRC_DOFN = ('the pipeline\'s own DoFn, which starts text-generation-launcher in setup() and raises when it exits '
            '(composition, [I])', 'I')


def colour(level, target, text, ts, span=''):
    """One line of the launcher's compact tracing output with its ANSI colours (a pipe keeps them)."""
    col = {'INFO': '32m ', 'ERROR': '31m', 'WARN': '33m '}[level]
    head = '%s[2m%s%s[0m %s[%s%s%s[0m ' % (E, ts, E, E, col, level.strip(), E)
    if span:
        head += '%s[1m%s%s[0m%s[2m:%s[0m ' % (E, span, E, E, E)
    return head + '%s[2m%s%s[0m%s[2m:%s[0m %s' % (E, target, E, E, E, text)


def build(c):
    c.describe('''
        Text Generation Inference started by a DoFn does not fit its warm-up (issue 40, model
        servers): a batch job summarises tickets with Mistral-7B-Instruct-v0.3 in 16 bits on a
        g2-standard-8 (one L4, 24 GB). The DoFn's setup starts text-generation-launcher with its
        defaults; the launcher writes to the container's stdout, so its lines reach the docker log at
        INFO, ANSI colours and all. The warm-up fails: "Method Warmup encountered an error." and
        "RuntimeError: Not enough memory to handle 8192 prefill tokens. You need to decrease
        `--max-batch-prefill-tokens`" in the shard's standard error output, then "Shard 0 failed to
        start" and "Error: ShardCannotStart"; the DoFn raises, four attempts. tgi-prefill-memory-short
        leads with the prefill size and the L4's 24 GB in its fix; the torch OOM folds under it and the
        start failure and the job's end under that. The launcher's INFO chatter ("Default `max_batch_prefill_tokens` to 8192",
        "Waiting for shard to be ready...") is a near miss.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('ticket-summaries-tgi', '2026-01-14T08:00:03Z', region='europe-west4',
              zone='europe-west4-a', python='3.11', beam='2.69.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 20
    for attempt in range(4):
        first = attempt == 0
        m = 4 + attempt * 2
        ts = lambda s: '2026-01-14T08:%02d:%02d.%06dZ' % (m, s, 112233 + s)
        j.docker(t, j.w[0], colour('INFO', 'text_generation_launcher', 'Default `max_batch_prefill_tokens` to 8192',
                                   ts(1)), src=SRC_OK)
        j.docker(t + 1, j.w[0], colour('INFO', 'text_generation_launcher', 'Starting shard rank=0', ts(2),
                                       span='shard-manager'), src=SRC_OK)
        j.docker(t + 11, j.w[0], colour('INFO', 'text_generation_launcher', 'Waiting for shard to be ready... rank=0',
                                        ts(12), span='shard-manager'), src=SRC_OK)
        j.docker(t + 38, j.w[0], colour('ERROR', 'text_generation_launcher', 'Method Warmup encountered an error.',
                                        ts(39)), src=SRC_TGI)
        j.docker(t + 38.2, j.w[0], colour('ERROR', 'text_generation_launcher', 'Shard complete standard error output:\n\n'
                                          'Traceback (most recent call last):\n'
                                          '  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/models/'
                                          'flash_causal_lm.py", line 1488, in warmup\n'
                                          '    _, _batch, _ = self.generate_token(batch)\n'
                                          'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.75 GiB. GPU 0 '
                                          'has a total capacity of 22.03 GiB of which 1.21 GiB is free.\n\n'
                                          'During handling of the above exception, another exception occurred:\n\n'
                                          'RuntimeError: Not enough memory to handle 8192 prefill tokens. You need to '
                                          'decrease `--max-batch-prefill-tokens` rank=0', ts(39), span='shard-manager'),
                 src=SRC_TGI, mark='prefill' if first else None,
                 cite='Not enough memory to handle 8192 prefill tokens')
        j.docker(t + 38.3, j.w[0], colour('ERROR', 'text_generation_launcher', 'Shard 0 failed to start', ts(39)),
                 src=SRC_TGI, mark='shard' if first else None)
        j.docker(t + 38.31, j.w[0], 'Error: ShardCannotStart', src=SRC_TGI)
        tb = T.user_tb('3.11', [
            '  File "%s/apache_beam/runners/common.py", line 1498, in process' % SP,
            '    return self.do_fn_invoker.invoke_process(windowed_value)',
            '  File "/app/summarise.py", line 58, in setup',
            '    raise RuntimeError("text-generation-launcher exited with code %d" % code)',
        ], 'RuntimeError: text-generation-launcher exited with code 1')
        j.wlog(t + 39, j.w[0], T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR', src=SRC_DOFN,
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (11 + attempt),
               step=STEP)
        t += 70.0
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json')
    c.fire('tgi-prefill-memory-short', marks=['prefill'], captures={'prefill_tokens': '8192'})
    # the shard's torch OOM is the same failure, seen one level down: it folds under the TGI rule,
    # and the symptoms fold step by step under it (tgi → OOM → start failure, work item, job)
    c.fire('gpu-out-of-memory', marks=['prefill'], caused_by='tgi-prefill-memory-short')
    c.fire('model-server-start-failed', marks=['shard'], captures={'server': 'text_generation_launcher'},
           caused_by='gpu-out-of-memory')
    c.fire('work-item-failed', marks=['wif'], caused_by='gpu-out-of-memory')
    c.fire('workflow-failed', marks=['wif'], caused_by='gpu-out-of-memory')
    c.not_fire('llm-engine-gpu-memory-short')
