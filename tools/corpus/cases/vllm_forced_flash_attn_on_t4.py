from corpuslib import noise as N
from corpuslib.model_servers import SRC_RELAY, relayed, start_failed

STEP = 'RunInference/BeamML_RunInference'
STEPS = ['S01:ReadQuestions/Read+RunInference/BeamML_RunInference+WriteAnswers/Write']
FORCED = ("ValueError: Selected backend AttentionBackendEnum.FLASH_ATTN is not valid for this configuration. "
          "Reason: ['compute capability not supported']")
SRC_FORCED = ('vllm-project/vllm vllm/platforms/cuda.py get_attn_backend_cls (0.11 on): "Selected backend {} is '
              'not valid for this configuration. Reason: {}" for a backend forced with --attention-backend or '
              'VLLM_ATTENTION_BACKEND, as a report on an RTX 2060 SUPER (7.5) and the vLLM docs "Attention Backend '
              'Feature Support" quote it; "Engine core initialization failed. See root cause above." after it '
              '(the pid and line numbers adapted)', 'V-code')
SRC_FALLBACK = ('vllm-project/vllm vllm/attention/utils/fa_utils.py (0.7.3 on): "Cannot use FA version 2 is not '
                'supported due to FA2 is only supported on devices with compute capability >= 8", logged at ERROR '
                'while vLLM goes on to choose another backend — the near miss of this case', 'V-code')


def build(c):
    c.describe('''
        A FlashAttention backend forced on a T4 (issue 40, model servers): a question-answering job
        with Beam's vLLM model handler sets VLLM_ATTENTION_BACKEND=FLASH_ATTN in its image (copied
        from an L4 deployment) and runs on n1-standard-8 workers with one nvidia-tesla-t4. vLLM 0.11
        logs at ERROR, as it does on every Turing GPU, "Cannot use FA version 2 is not supported due to
        FA2 is only supported on devices with compute capability >= 8" — a fallback it would take if
        left to choose — and then refuses the forced backend: "ValueError: Selected backend
        AttentionBackendEnum.FLASH_ATTN is not valid for this configuration. Reason: ['compute
        capability not supported']", all relayed by Beam at INFO. Beam raises "Failed to start vLLM
        server" four times; the job fails. attention-kernel-gpu-too-old leads and explains the server
        start; the fallback line alone never fires it.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('faq-answers-qwen-t4', '2025-12-02T07:40:10Z', region='us-central1', zone='us-central1-f',
              python='3.11', beam='2.69.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 22
    for attempt in range(4):
        pid = 310 + 7 * attempt
        relayed(j, t, "Starting service with ['/usr/local/bin/python', '-m', "
                "'vllm.entrypoints.openai.api_server', '--model', 'Qwen/Qwen2.5-3B-Instruct', '--dtype', "
                "'half', '--port', '%d']" % (44100 + attempt), SRC_RELAY)
        relayed(j, t + 8, '(EngineCore_DP0 pid=%d) ERROR 12-02 07:4%d:31 [fa_utils.py:145] Cannot use FA version 2 '
                'is not supported due to FA2 is only supported on devices with compute capability >= 8'
                % (pid, 2 + attempt), SRC_FALLBACK, mark='fallback' if attempt == 0 else None)
        relayed(j, t + 8.4, '(EngineCore_DP0 pid=%d) ERROR 12-02 07:4%d:31 [core.py:708] %s' % (pid, 2 + attempt, FORCED),
                SRC_FORCED, mark='forced' if attempt == 0 else None)
        relayed(j, t + 9, '(APIServer pid=%d) RuntimeError: Engine core initialization failed. See root cause above. '
                'Failed core proc(s): {}' % (pid - 2), SRC_FORCED)
        start_failed(j, t + 18, attempt, STEP, mark='beam' if attempt == 0 else None)
        t += 58.0
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json')
    c.fire('attention-kernel-gpu-too-old', marks=['forced'], captures={'backend': 'FLASH_ATTN'})
    c.fire('model-server-start-failed', marks=['beam'], captures={'server': 'vLLM'},
           caused_by='attention-kernel-gpu-too-old')
    c.fire('work-item-failed', marks=['wif'], caused_by='attention-kernel-gpu-too-old')
    c.fire('workflow-failed', marks=['wif'], caused_by='attention-kernel-gpu-too-old')
    c.not_fire('bf16-unsupported-gpu', 'cuda-arch-unsupported', 'gpu-out-of-memory')
