from corpuslib import noise as N
from corpuslib.model_servers import SRC_RELAY, relayed, start_failed

STEP = 'RunInference/BeamML_RunInference'
STAGE = 'S01:ReadTickets/Read+RunInference/BeamML_RunInference+WriteLabels/Write'
TP = 'RuntimeError: please set tensor_parallel_size (2) to less than max local gpu count (1)'
SRC_TP = ('vllm-project/vllm vllm/executor/mp_distributed_executor.py _check_cuda (0.7–0.9: "please set '
          'tensor_parallel_size ({}) to less than max local gpu count ({})", raised as RuntimeError); '
          'vllm-project/vllm#5790 quotes the error; the line as Beam relays the server\'s stderr', 'V-code')
SRC_CFG = ('vllm-project/vllm vllm/engine/llm_engine.py "Initializing a V0 LLM engine (v%s) with config: '
           '…" (0.8.x), abridged; healthy near miss', 'V-code')


def build(c):
    c.describe('''
        Tensor parallelism larger than the worker: a ticket classifier with Beam's vLLM model
        handler, launched with vllm_server_kwargs tensor-parallel-size 2 (and the mp executor)
        after the pipeline moved from g2-standard-24 (two L4s) to g2-standard-8, which carries one
        L4. The server logs its engine configuration (tensor_parallel_size=2: the healthy near
        miss) and stops: "RuntimeError: please set tensor_parallel_size (2) to less than max local
        gpu count (1)", relayed by Beam at INFO; Beam raises "Failed to start vLLM server" four
        times and the work item fails. llm-tensor-parallel-gpus fires and explains the model
        server symptom and the job failure.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE])
    j = c.job('classify-tickets-qwen', '2025-06-03T08:40:12Z', region='us-central1',
              zone='us-central1-c', python='3.11', beam='2.64.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 25
    for attempt in range(4):
        port = 44100 + attempt
        relayed(j, t, "Starting service with ['/usr/local/bin/python', '-m', "
                "'vllm.entrypoints.openai.api_server', '--model', 'Qwen/Qwen2.5-7B-Instruct', "
                "'--tensor-parallel-size', '2', '--distributed-executor-backend', 'mp', '--port', '%d']" % port,
                SRC_RELAY)
        relayed(j, t + 7, "INFO 06-03 08:4%d:21 [llm_engine.py:240] Initializing a V0 LLM engine (v0.8.5) with "
                "config: model='Qwen/Qwen2.5-7B-Instruct', speculative_config=None, tokenizer='Qwen/Qwen2.5-7B-Instruct', "
                "dtype=torch.bfloat16, max_seq_len=32768, tensor_parallel_size=2, pipeline_parallel_size=1, "
                "quantization=None, enforce_eager=False, seed=0" % (3 + attempt), (SRC_CFG[0] % '0.8.5', SRC_CFG[1]))
        relayed(j, t + 9, TP, SRC_TP, mark='tp' if attempt == 0 else None)
        start_failed(j, t + 16, attempt, STEP, mark='beam' if attempt == 0 else None)
        t += 55.0
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [j.w[0]] * 4)
    c.output('export.json')
    c.fire('llm-tensor-parallel-gpus', marks=['tp'])
    c.fire('model-server-start-failed', marks=['beam'], captures={'server': 'vLLM'}, caused_by='llm-tensor-parallel-gpus')
    c.fire('work-item-failed', marks=['wif'], caused_by='llm-tensor-parallel-gpus')
    c.fire('workflow-failed', marks=['wif'], caused_by='llm-tensor-parallel-gpus')
    c.not_fire('cuda-device-out-of-range', 'llm-engine-gpu-memory-short', 'gpu-out-of-memory')
