from corpuslib import noise as N
from corpuslib.model_servers import SRC_RELAY, relayed, start_failed

STEP = 'RunInference/BeamML_RunInference'
STAGE = 'S01:ReadTickets/Read+RunInference/BeamML_RunInference+WriteLabels/Write'
QUANT = ('pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n'
         '  Value error, The quantization method modelopt is not supported for the current GPU. Minimum '
         'capability: 89. Current capability: 75. [type=value_error, input_value=ArgsKwargs((), '
         "{'model_config': ...}), input_type=ArgsKwargs]")
SRC_QUANT = ('vllm-project/vllm vllm/config/vllm.py VllmConfig._get_quantization_config ("The quantization method '
             '{quantization} is not supported for the current GPU. Minimum capability: … Current capability: …"), '
             'relayed by pydantic as "Value error, …"; ModelOpt FP8 needs 89 (a public g5 deployment note quotes '
             '"modelopt … Minimum capability: 89."); the T4 is 75', 'V-code')
SRC_AWQ = ('vllm-project/vllm config.py _verify_quantization: "awq quantization is not fully optimized yet. The '
           'speed can be slower than non-quantized models." (a WARNING in public vLLM logs): a near miss', 'V-other')


def build(c):
    c.describe('''
        An FP8 checkpoint on a T4 (issue 40, model servers): a batch job with Beam's vLLM model handler
        serves an FP8 (NVIDIA ModelOpt) build of Llama 3.1 8B on an n1-standard-8 worker with one
        nvidia-tesla-t4 (compute capability 7.5). vLLM refuses the quantization at start-up: "Value error,
        The quantization method modelopt is not supported for the current GPU. Minimum capability: 89.
        Current capability: 75.", relayed by Beam; Beam raises "Failed to start vLLM server" four times and
        the work item fails. quantization-gpu-too-old fires with the method and both capabilities. A near
        miss in the same export: a healthy "awq quantization is not fully optimized yet" WARNING from an
        earlier AWQ run.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE])
    j = c.job('ticket-triage-llama-fp8', '2026-05-12T07:00:03Z', region='us-central1',
              zone='us-central1-b', python='3.11', beam='2.66.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 25
    relayed(j, t - 12, '(APIServer pid=171) WARNING 05-12 07:02:41 [config.py:1085] awq quantization is not fully '
            'optimized yet. The speed can be slower than non-quantized models.', SRC_AWQ)
    for attempt in range(4):
        relayed(j, t, "Starting service with ['/usr/local/bin/python', '-m', "
                "'vllm.entrypoints.openai.api_server', '--model', '/models/llama-3.1-8b-instruct-fp8', "
                "'--port', '%d']" % (41000 + attempt), SRC_RELAY)
        relayed(j, t + 8, '(APIServer pid=%d) %s' % (230 + attempt, QUANT.split('\n')[1].strip()), SRC_QUANT,
                mark='quant' if attempt == 0 else None)
        start_failed(j, t + 16, attempt, STEP, mark='beam' if attempt == 0 else None)
        t += 60.0
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [j.w[0]] * 4)
    c.output('export.json')
    c.fire('quantization-gpu-too-old', marks=['quant'],
           captures={'method': 'modelopt', 'min_capability': '89', 'capability': '75'})
    c.fire('model-server-start-failed', marks=['beam'], captures={'server': 'vLLM'}, caused_by='quantization-gpu-too-old')
    c.fire('work-item-failed', marks=['wif'], caused_by='quantization-gpu-too-old')
    c.fire('workflow-failed', marks=['wif'], caused_by='quantization-gpu-too-old')
    c.not_fire('bf16-unsupported-gpu', 'cuda-arch-unsupported', 'attention-kernel-gpu-too-old')
