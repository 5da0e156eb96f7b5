from corpuslib import noise as N
from corpuslib.model_servers import SRC_RELAY, relayed, start_failed

STEP = 'RunInference/BeamML_RunInference'
STAGE = 'S01:ReadDocs/Read+RunInference/BeamML_RunInference+WriteSummaries/Write'
ARCH = ("(APIServer pid=%d) Value error, Model architectures ['Qwen3ForCausalLM'] are not supported for now. "
        "Supported architectures: dict_keys(['AquilaModel', 'AquilaForCausalLM', 'ArcticForCausalLM', "
        "'BaiChuanForCausalLM', 'BloomForCausalLM', 'LlamaForCausalLM', 'MistralForCausalLM', "
        "'Qwen2ForCausalLM', 'Qwen2MoeForCausalLM'])")
SRC_ARCH = ('vllm-project/vllm vllm/model_executor/models/registry.py _raise_for_unsupported ("Model architectures '
            '{architectures} are not supported for now. Supported architectures: {all_supported_archs}"), relayed '
            'by pydantic as "Value error, …" as in vllm-project/vllm#27314 (supported list shortened)', 'V-code')
SRC_RESOLVED = ('vLLM INFO "Resolved architecture: Qwen2ForCausalLM" (model.py, public vLLM start-up logs): a near '
                'miss from another run of the image', 'V-other')


def build(c):
    c.describe('''
        A model newer than the image's vLLM (issue 40, model servers): a batch job with Beam's vLLM
        model handler serves Qwen3 8B from an image that pins an older vLLM, on a g2-standard-8 worker
        with one nvidia-l4. The server stops at its config check: "Value error, Model architectures
        ['Qwen3ForCausalLM'] are not supported for now. Supported architectures: dict_keys([…])",
        relayed by Beam; Beam raises "Failed to start vLLM server" four times and the work item fails.
        llm-architecture-unsupported fires and names the architecture. A near miss in the same export:
        a healthy "Resolved architecture: Qwen2ForCausalLM" INFO from the image's earlier Qwen2 run.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE])
    j = c.job('doc-summaries-qwen3', '2026-06-02T10:00:01Z', region='us-central1',
              zone='us-central1-a', python='3.11', beam='2.65.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 25
    relayed(j, t - 12, '(APIServer pid=150) INFO 06-02 10:02:27 [model.py:547] Resolved architecture: '
            'Qwen2ForCausalLM', SRC_RESOLVED)
    for attempt in range(4):
        relayed(j, t, "Starting service with ['/usr/local/bin/python', '-m', "
                "'vllm.entrypoints.openai.api_server', '--model', 'Qwen/Qwen3-8B', '--port', '%d']"
                % (42000 + attempt), SRC_RELAY)
        relayed(j, t + 7, ARCH % (210 + attempt), SRC_ARCH, mark='arch' if attempt == 0 else None)
        start_failed(j, t + 15, attempt, STEP, mark='beam' if attempt == 0 else None)
        t += 60.0
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [j.w[0]] * 4)
    c.output('export.json')
    c.fire('llm-architecture-unsupported', marks=['arch'], captures={'architecture': 'Qwen3ForCausalLM'})
    c.fire('model-server-start-failed', marks=['beam'], captures={'server': 'vLLM'},
           caused_by='llm-architecture-unsupported')
    c.fire('work-item-failed', marks=['wif'], caused_by='llm-architecture-unsupported')
    c.fire('workflow-failed', marks=['wif'], caused_by='llm-architecture-unsupported')
    c.not_fire('transformers-architecture-unknown', 'cuda-extension-abi-mismatch')
