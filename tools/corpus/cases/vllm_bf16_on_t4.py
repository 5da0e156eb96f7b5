from corpuslib import noise as N
from corpuslib.model_servers import SRC_RELAY, relayed, start_failed

STEP = 'RunInference/BeamML_RunInference'
BF16 = ('ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your '
        'Tesla T4 GPU has compute capability 7.5. You can use float16 instead by explicitly setting the '
        '`dtype` flag in CLI, for example: --dtype=half.')
SRC_BF16 = ('vllm-project/vllm vllm/platforms/cuda.py check_if_supports_dtype (≈0.8 on: "the `dtype`" '
            'with the space); NVIDIA-AI-Blueprints/bring-llms-to-nim#7 and substratusai/vllm-docker#37 '
            'quote the error on Turing GPUs (the GPU name as a T4 prints it)', 'V-code')
SRC_CAST = ('vllm-project/vllm#29566: "Casting torch.bfloat16 to torch.float16." is a WARNING vLLM prints '
            'when it picks float16 itself: a near miss', 'V')


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
        start_failed(j, t + 18, attempt, STEP, mark='beam' if attempt == 0 else None)
        t += 60.0
    N.fail_work_item_4(j, cf, t + 3.0, 'S01:ReadPrompts/Read+RunInference/BeamML_RunInference+WriteAnswers/Write',
                       [j.w[0]] * 4)
    c.output('export.json')
    c.fire('bf16-unsupported-gpu', marks=['bf16'], captures={'gpu': 'Tesla T4', 'capability': '7.5'})
    c.fire('model-server-start-failed', marks=['beam'], captures={'server': 'vLLM'}, caused_by='bf16-unsupported-gpu')
    c.fire('work-item-failed', marks=['wif'], caused_by='bf16-unsupported-gpu')
    c.fire('workflow-failed', marks=['wif'], caused_by='bf16-unsupported-gpu')
    c.not_fire('cuda-arch-unsupported', 'gpu-out-of-memory', 'llm-engine-gpu-memory-short')
