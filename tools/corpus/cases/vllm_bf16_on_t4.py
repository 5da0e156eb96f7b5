from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
BF16 = ('ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your '
        'Tesla T4 GPU has compute capability 7.5. You can use float16 instead by explicitly setting the '
        '`dtype` flag in CLI, for example: --dtype=half.')
BEAM = ('Exception: Failed to start vLLM server, polling process exited with code 1.  Next time a '
        'request is tried, the server will be restarted')
SRC_BF16 = ('vllm-project/vllm vllm/platforms/cuda.py check_if_supports_dtype (≈0.8 on: "the `dtype`" '
            'with the space); NVIDIA-AI-Blueprints/bring-llms-to-nim#7 and substratusai/vllm-docker#37 '
            'quote the error on Turing GPUs (the GPU name as a T4 prints it)', 'V-code')
SRC_CAST = ('vllm-project/vllm#29566: "Casting torch.bfloat16 to torch.float16." is a WARNING vLLM prints '
            'when it picks float16 itself: a near miss', 'V')
SRC_RELAY = ('apache/beam sdks/python/apache_beam/ml/inference/vllm_inference.py (2.64): start_process '
             're-logs each line of the server\'s output with logging.info; "Failed to start vLLM '
             'server, polling process exited with code …" after its retries', 'V-code')


def relayed(j, t, line, src, mark=None):
    e = j.wlog(t, j.w[0], line, src=src, cite=line, mark=mark,
               module='apache_beam/ml/inference/vllm_inference.py', line=91, thread='Thread-7')
    e.fields['digits'] = 6
    return e


def build(c):
    c.describe('''
        bfloat16 on a T4 (issue 40, model servers): a batch job with Beam's vLLM model
        handler serving a bfloat16 model (Gemma 2 2B) on an n1-standard-8 worker with one
        nvidia-tesla-t4 (compute capability 7.5). The engine refuses to start: "Bfloat16 is only
        supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute
        capability 7.5. You can use float16 instead …", relayed by Beam at INFO; Beam then raises
        "Failed to start vLLM server" four times and the work item fails. bf16-unsupported-gpu fires
        with the GPU and its capability. A near miss in the same export: another run's healthy
        "Casting torch.bfloat16 to torch.float16." WARNING earlier in the day's chatter.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'],
               steps=['S01:ReadPrompts/Read+RunInference/BeamML_RunInference+WriteAnswers/Write'])
    j = c.job('classify-gemma2-t4', '2025-10-21T13:00:02Z', region='us-east1',
              zone='us-east1-c', python='3.11', beam='2.64.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 25
    relayed(j, t - 10, '(APIServer pid=188) WARNING 10-21 13:02:40 [model.py:1978] Casting torch.bfloat16 to '
            'torch.float16.', SRC_CAST)
    for attempt in range(4):
        relayed(j, t, "Starting service with ['/usr/local/bin/python', '-m', "
                "'vllm.entrypoints.openai.api_server', '--model', 'google/gemma-2-2b-it', '--dtype', "
                "'bfloat16', '--port', '%d']" % (43000 + attempt), SRC_RELAY)
        pid = 240 + attempt
        relayed(j, t + 9, '(EngineCore_DP0 pid=%d) ERROR 10-21 13:0%d:12 [core.py:718] %s' % (pid, attempt + 3, BF16),
                SRC_BF16, mark='bf16' if attempt == 0 else None)
        beam = T.user_tb('3.11', [
            '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 157, in __init__' % T.sp('3.11'),
            '    self.start_server()',
            '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 209, in start_server' % T.sp('3.11'),
            '    raise Exception(',
        ], BEAM)
        j.wlog(t + 18, j.w[0], T.instruction_error('process_bundle-%d' % (1 + attempt), beam),
               sev='ERROR', src=SRC_RELAY, cite=BEAM, module='apache_beam/runners/worker/sdk_worker.py',
               line=303, thread='Thread-%d' % (11 + attempt), step=STEP)
        t += 60.0
    N.fail_work_item_4(j, cf, t + 3.0, 'S01:ReadPrompts/Read+RunInference/BeamML_RunInference+WriteAnswers/Write',
                       [j.w[0]] * 4)
    c.output('export.json')
    c.fire('bf16-unsupported-gpu', marks=['bf16'], captures={'gpu': 'Tesla T4', 'capability': '7.5'})
    c.fire('work-item-failed', marks=['wif'], caused_by='bf16-unsupported-gpu')
    c.fire('workflow-failed', marks=['wif'], caused_by='bf16-unsupported-gpu')
    c.not_fire('cuda-arch-unsupported', 'gpu-out-of-memory', 'llm-engine-gpu-memory-short')
