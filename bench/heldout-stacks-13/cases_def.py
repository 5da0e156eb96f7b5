# Case definitions for heldout-stacks-13. exec'd by make.py (helpers come from make.py's globals).

def base_case(**kw):
    c = dict(region="us-central1", zone="us-central1-a", maxw=4, driver="550.90.07")
    c.update(kw)
    c["pyroot"] = "/usr/local/lib/python%s/site-packages" % c["py"]
    c["pyroot_user"] = "/usr/local/lib/python%s/site-packages/%s" % (c["py"], c.get("user_logger", "pipeline/transforms.py:88"))
    c["workers"] = ["%s-%s-harness-%s" % (c["job_name"][:22], c["job_id"][5:13].replace("-", "").replace("_", ""), s) for s in c["wsuffix"]]
    c["image_uri"] = c.get("image_uri", "us-central1-docker.pkg.dev/%s/ml/%s" % (c["project"], c["image_tag"]))
    return c

def W(c, w, p, t, sev, msg, logger=None, thread="Thread-17", step=""):
    return (t, "worker", sev, msg, c["workers"][w], p, logger or c["pyroot_user"], thread, step)

def D(c, w, t, sev, msg):
    return (t, "docker", sev, msg, c["workers"][w])

def failed_batch(c, rng, attempt, step, nw=1, t_run=300.0, gap=150.0, extra_end=0, n_target=None, procs=("sdk-0-0",)):
    ev = job_start(c, nw)
    for i in range(nw):
        ev += start_block(c, c["workers"][i], 30 + i * 4, procs)
    ev.append((t_run - 60, "job", "INFO", "Workers have started successfully."))
    ev.append((t_run - 55, "job", "INFO", "Executing operation %s" % step))
    t = t_run
    workers_used = []
    for k in range(4):
        wi = k % nw
        lines, trace = attempt(c, rng, t, wi, k)
        ev += lines
        ev.append((t + 8, "job", "ERROR", "Error message from worker: " + trace))
        workers_used.append(c["workers"][wi])
        t += gap
    n_target = n_target or rng.randint(125, 185)
    ev += filler_lines(c, rng, max(0, n_target - len(ev) - 8), t_run - 40, t - gap, c["workers"][:nw], procs)
    ev.append((t + 2, "job", "ERROR", wf_failed(step, workers_used)))
    ev += teardown(t + 4, nw)
    return ev

# =========================================================== hs13-01
C01 = base_case(case="hs13-01", py="3.11", project="tessera-trust-safety", job_id="2025-06-17_03_12_44-4471902295517310926",
    job_name="toxicity-backfill-20250617", wsuffix=["q7vd"], machine="g2-standard-8", image_tag="toxicity-worker:2025.06.2",
    start="2025-06-17T10:12:44", shape="gcloud", file="export.json", outcome="failed",
    pip_installed="transformers-4.53.0 tokenizers-0.21.2 safetensors-0.5.3 huggingface-hub-0.33.1 regex-2024.11.6",
    options="{'runner': 'DataflowRunner', 'project': 'tessera-trust-safety', 'region': 'us-central1', 'sdk_container_image': 'us-central1-docker.pkg.dev/tessera-trust-safety/ml/toxicity-worker:2025.06.2', 'requirements_file': 'requirements.txt', 'dataflow_service_options': ['worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver'], 'machine_type': 'g2-standard-8', 'experiments': ['use_runner_v2', 'use_unified_worker', 'beam_fn_api'], 'save_main_session': True}",
    user_logger="toxscore/pipeline.py:142",
    stack="Beam 2.66.0 (Py 3.11); 1 x g2-standard-8 (NVIDIA L4); image FROM pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime, transformers floated to 4.53.0",
    family="transformers torch.load safety gate (torch < 2.6 with a .bin checkpoint)",
    one_line="Unpinned transformers resolved to 4.53 on a torch 2.5.1 image; the fine-tuned XLM-R checkpoint is pytorch_model.bin only, so from_pretrained refuses torch.load (CVE-2025-32434) in every setup().",
    summary="The image is built on pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime and requirements.txt says only 'transformers>=4.40', so the worker boot installed transformers 4.53.0. Since 4.50-4.52 transformers refuses to call torch.load on torch < 2.6 because of CVE-2025-32434. The team's fine-tuned checkpoint in gs://tessera-ts-models/xlmr-toxicity-v3/ was saved with safe_serialization=False (pytorch_model.bin, no model.safetensors), so HuggingFaceModelHandlerTensor.load_model -> from_pretrained raises ValueError in every setup and the work item fails 4 times.",
    fix="Either upgrade the image to torch >= 2.6 (e.g. a cu126 base) or re-save the checkpoint as safetensors (save_pretrained(safe_serialization=True)); pin transformers in requirements.txt to the version the image was tested with.",
    setup=dict(hardware="1 x g2-standard-8, 1 x NVIDIA L4 (24 GB), us-central1-a", sdk="apache-beam[gcp] 2.66.0, Python 3.11",
        image="custom: FROM pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime + apache-beam 2.66.0; requirements.txt: transformers>=4.40 (resolved 4.53.0)",
        pipeline="ReadFromBigQuery -> Tokenize -> RunInference(HuggingFaceModelHandlerTensor, XLMRobertaForSequenceClassification, device='GPU') -> WriteToBigQuery",
        gpu_option="--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"),
)
CVE_MSG = ("ValueError: Due to a serious vulnerability issue in `torch.load`, even with `weights_only=True`, we now require users "
           "to upgrade torch to at least v2.6 in order to use the function. This version restriction does not apply when loading "
           "files with safetensors.\nSee the vulnerability report here https://nvd.nist.gov/vuln/detail/CVE-2025-32434")
C01["evidence"] = [
    "Due to a serious vulnerability issue in `torch.load`, even with `weights_only=True`, we now require users to upgrade torch to at least v2.6 in order to use the function.",
    "in check_torch_load_is_safe",
    "Loading model from gs://tessera-ts-models/xlmr-toxicity-v3/ (files: config.json, pytorch_model.bin, sentencepiece.bpe.model, tokenizer.json)",
    "Successfully installed transformers-4.53.0",
    "torch=2.5.1+cu124 cuda_available=True device=NVIDIA L4",
    "The job failed because a work item has failed 4 times.",
]
C01["red_herrings"] = [
    (PIP_ROOT, "pip's standard root-user warning on stderr (ERROR only because docker stderr is ERROR)."),
    ("ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.\ngoogle-cloud-aiplatform 1.97.0 requires shapely<3.0.0, which is not installed.",
     "A resolver conflict about an unused optional dependency of aiplatform; nothing imports shapely."),
    (TOK_FORK, "tokenizers advice printed after fork; only disables tokenizer parallelism."),
    ("Retrying (Retry(total=2, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='storage.googleapis.com', port=443): Read timed out. (read timeout=60)\")': /download/storage/v1/b/tessera-ts-models/o/xlmr-toxicity-v3%2Fpytorch_model.bin?alt=media",
     "A single retried GCS read; the download then completed (the error happens after the file is read)."),
]
C01["sources"] = [
    (CVE_MSG.splitlines()[0], "huggingface/transformers src/transformers/utils/import_utils.py check_torch_load_is_safe (v4.52-v4.53); real output quoted in many public READMEs/logs (e.g. find_string hits 58764474770, 29322402891)"),
    (PIP_ROOT, "pypa/pip src/pip/_internal/cli/req_command.py warn_if_run_as_root"),
    ("ERROR: pip's dependency resolver does not currently take into account all the packages that are installed.", "pypa/pip src/pip/_internal/operations/check.py / resolver conflict message"),
    (TOK_FORK, "huggingface/tokenizers bindings/python/src/utils/parallelism.rs"),
    ("Python sdk harness started with pipeline_options / Control channel established.", "apache/beam sdks/python/apache_beam/runners/worker/sdk_worker_main.py, sdk_worker.py"),
    ("Installing GPU driver version / Verifying GPU driver installation / Finished installing the drivers.", "GoogleCloudPlatform/cos-gpu-installer strings (as listed in reference dataflow-log-signatures.md §2e)"),
    ("Workflow failed. Causes: ... The job failed because a work item has failed 4 times ...", "Dataflow job message, apache/beam#30482 wording"),
]
C01["synthetic"] = ["all ids, names, timestamps, bucket and image names", "pipeline INFO lines (toxscore/pipeline.py)", "traceback line numbers", "placement of driver lines in the system log"]

def ev01(c, rng):
    py = c["pyroot"]
    def attempt(c, rng, t, wi, k):
        p = "sdk-0-0"
        L = [W(c, wi, p, t, "INFO", "torch=2.5.1+cu124 cuda_available=True device=NVIDIA L4"),
             W(c, wi, p, t + 0.4, "INFO", "Loading model from gs://tessera-ts-models/xlmr-toxicity-v3/ (files: config.json, pytorch_model.bin, sentencepiece.bpe.model, tokenizer.json)")]
        if k == 0:
            L.append(W(c, wi, p, t + 1.0, "WARNING", C01["red_herrings"][3][0], logger=py + "/urllib3/connectionpool.py:870"))
        frames = beam_setup_frames(py) + [
            (py + "/apache_beam/ml/inference/base.py", 1560, "setup", "self._model = self._load_model()"),
            (py + "/apache_beam/ml/inference/base.py", 1523, "_load_model", "model = self._shared_model_handle.acquire(load, tag=self._cur_tag)"),
            (py + "/apache_beam/utils/shared.py", 238, "acquire", "return self._shared_map.acquire(self._key, constructor_fn, tag)"),
            (py + "/apache_beam/ml/inference/base.py", 1498, "load", "model = self._model_handler.load_model()"),
            (py + "/apache_beam/ml/inference/huggingface_inference.py", 366, "load_model", "model = self._model_class.from_pretrained("),
            (py + "/transformers/modeling_utils.py", 311, "_wrapper", "return func(*args, **kwargs)"),
            (py + "/transformers/modeling_utils.py", 4839, "from_pretrained", ") = cls._load_pretrained_model("),
            (py + "/transformers/modeling_utils.py", 5257, "_load_pretrained_model", "state_dict = load_state_dict(shard_file, map_location=\"meta\", weights_only=weights_only)"),
            (py + "/transformers/modeling_utils.py", 549, "load_state_dict", "check_torch_load_is_safe()"),
            (py + "/transformers/utils/import_utils.py", 1517, "check_torch_load_is_safe", "raise ValueError("),
        ]
        trace = tb(frames, CVE_MSG)
        L.append(W(c, wi, p, t + 4.2, "ERROR", "Error in _RunInferenceDoFn.setup; retrying.\n" + trace if False else trace,
                   logger=py + "/apache_beam/runners/worker/sdk_worker.py:315", thread="Thread-14"))
        L.append(D(c, wi, t + 5, "ERROR", TOK_FORK))
        return L, trace
    ev = failed_batch(c, rng, attempt, "ReadScores/Read+Tokenize+RunInference/BeamML_RunInference", t_run=330)
    ev.append(D(c, 0, 180, "ERROR", C01["red_herrings"][1][0]))
    return ev
C01["filler"] = ["Read {n} comments from BigQuery page {s}", "Tokenized batch of {n} comments (max_len=256) in {ms} ms",
                 "Language mix in batch: en={n} de={s} other={s}", "Prefetching shard {s} of export tessera_ts.comments_{k}"]
C01["events"] = ev01

# =========================================================== hs13-02
C02 = base_case(case="hs13-02", py="3.12", project="northwind-support-ai", job_id="2025-09-03_06_41_08-15820311945720461883",
    job_name="ticket-triage-backfill", wsuffix=["m2kc", "x81p"], machine="g2-standard-24", image_tag="triage-llm:0.9.4",
    start="2025-09-03T13:41:08", shape="explorer", file="downloaded-logs-20250903-151207.json", outcome="failed", maxw=2,
    pip_installed="accelerate-1.6.0 sentencepiece-0.2.0 protobuf-5.29.4",
    options="{'runner': 'DataflowRunner', 'project': 'northwind-support-ai', 'region': 'us-central1', 'sdk_container_image': 'us-central1-docker.pkg.dev/northwind-support-ai/ml/triage-llm:0.9.4', 'dataflow_service_options': ['worker_accelerator=type:nvidia-l4;count:2;install-nvidia-driver'], 'machine_type': 'g2-standard-24', 'max_num_workers': 2, 'experiments': ['use_runner_v2', 'no_use_multiple_sdk_containers'], 'save_main_session': True}",
    user_logger="triage/generate.py:61",
    stack="Beam 2.64.0 (Py 3.12); 2 x g2-standard-24 (2 x NVIDIA L4); torch 2.6.0 + transformers 4.51.3 + accelerate 1.6.0",
    family="transformers pipeline device placement (device= together with device_map='auto')",
    one_line="setup() builds pipeline(..., device=0, device_map='auto') to split Qwen2.5-14B over two L4s; accelerate dispatches the model, then Pipeline refuses to move it ('loaded with `accelerate` ... discard the `device` argument').",
    summary="GenerateTriage.setup() calls transformers.pipeline('text-generation', model='Qwen/Qwen2.5-14B-Instruct', device=0, device_map='auto', torch_dtype=torch.bfloat16) so the 14B model is sharded over the two L4s. pipeline() only warns that both `device` and `device_map` were given, loads the model through accelerate (hf_device_map set), and Pipeline.__init__ then raises ValueError because a model dispatched by accelerate cannot be moved to one device. Every setup fails after the ~4 minute checkpoint load, four times.",
    fix="Drop device=0 (keep device_map='auto', optionally with max_memory per GPU) when creating the pipeline.",
    setup=dict(hardware="up to 2 x g2-standard-24, each 2 x NVIDIA L4 (24 GB), us-central1-a", sdk="apache-beam[gcp] 2.64.0, Python 3.12",
        image="custom: nvidia/cuda:12.4.1-runtime-ubuntu22.04 + torch 2.6.0 + transformers 4.51.3 + accelerate 1.6.0",
        pipeline="ReadFromText(gs) -> ParDo(GenerateTriage) with transformers pipeline -> WriteToBigQuery",
        gpu_option="--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:2;install-nvidia-driver"),
)
DEVMAP_ERR = ("ValueError: The model has been loaded with `accelerate` and therefore cannot be moved to a specific device. "
              "Please discard the `device` argument when creating your pipeline object.")
DEVMAP_WARN = ("Both `device` and `device_map` are specified. `device` will override `device_map`. You will most likely "
               "encounter unexpected behavior. Please remove `device` and keep `device_map`.")
C02["evidence"] = [
    "The model has been loaded with `accelerate` and therefore cannot be moved to a specific device. Please discard the `device` argument when creating your pipeline object.",
    DEVMAP_WARN,
    "Building text-generation pipeline: model=Qwen/Qwen2.5-14B-Instruct device=0 device_map=auto dtype=torch.bfloat16",
    "Loading checkpoint shards: 100%|██████████| 8/8 [03:41<00:00, 27.66s/it]",
    "The job failed because a work item has failed 4 times.",
]
C02["red_herrings"] = [
    ("Sliding Window Attention is enabled but not implemented for `sdpa`; unexpected results may be encountered.",
     "Qwen2 config advisory printed by transformers at load; irrelevant for 1-2k-token tickets."),
    ("Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed. Falling back to regular HTTP download. For better performance, install the package with: `pip install huggingface_hub[hf_xet]` or `pip install hf_xet`",
     "Download-speed advisory from huggingface_hub; the snapshot downloaded fine over HTTP."),
    ("Memory usage after model load: gpu0 allocated=0.0 GiB, cached out of memory guard set to 22.5 GiB",
     "The pipeline's own memory log mentions 'out of memory' only as a guard name."),
    (PIP_ROOT, "pip root-user warning on stderr."),
]
C02["sources"] = [
    (DEVMAP_ERR, "huggingface/transformers src/transformers/pipelines/base.py Pipeline.__init__ (v4.51.3)"),
    (DEVMAP_WARN, "huggingface/transformers src/transformers/pipelines/__init__.py pipeline() (v4.51.3)"),
    ("Loading checkpoint shards: 100%|...", "transformers modeling_utils logging.tqdm desc='Loading checkpoint shards'"),
    ("Sliding Window Attention is enabled but not implemented for `sdpa`; unexpected results may be encountered.", "transformers models/qwen2/modeling_qwen2.py (v4.48-4.51)"),
    ("Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed...", "huggingface/huggingface_hub src/huggingface_hub/file_download.py (v0.30+)"),
]
C02["synthetic"] = ["ids, names, timestamps", "pipeline INFO lines (triage/generate.py)", "traceback line numbers", "memory guard line"]

def ev02(c, rng):
    py = c["pyroot"]
    def attempt(c, rng, t, wi, k):
        p = "sdk-0-0"
        L = [W(c, wi, p, t - 240, "INFO", "Building text-generation pipeline: model=Qwen/Qwen2.5-14B-Instruct device=0 device_map=auto dtype=torch.bfloat16"),
             D(c, wi, t - 239, "ERROR", DEVMAP_WARN),
             D(c, wi, t - 236, "ERROR", C02["red_herrings"][1][0]),
             D(c, wi, t - 228, "ERROR", "Loading checkpoint shards:   0%|          | 0/8 [00:00<?, ?it/s]"),
             D(c, wi, t - 120, "ERROR", "Loading checkpoint shards:  50%|█████     | 4/8 [01:49<01:49, 27.40s/it]"),
             D(c, wi, t - 6, "ERROR", "Loading checkpoint shards: 100%|██████████| 8/8 [03:41<00:00, 27.66s/it]"),
             D(c, wi, t - 5, "ERROR", C02["red_herrings"][0][0])]
        if k == 0:
            L.append(W(c, wi, p, t - 2, "INFO", C02["red_herrings"][2][0]))
        frames = beam_setup_frames(py) + [
            (py + "/triage/generate.py", 58, "setup", "self._pipe = pipeline("),
            (py + "/transformers/pipelines/__init__.py", 1203, "pipeline", "return pipeline_class(model=model, framework=framework, task=task, **kwargs)"),
            (py + "/transformers/pipelines/text_generation.py", 119, "__init__", "super().__init__(*args, **kwargs)"),
            (py + "/transformers/pipelines/base.py", 941, "__init__", "raise ValueError("),
        ]
        trace = tb(frames, DEVMAP_ERR)
        L.append(W(c, wi, p, t, "ERROR", trace, logger=py + "/apache_beam/runners/worker/sdk_worker.py:315", thread="Thread-12"))
        return L, trace
    return failed_batch(c, rng, attempt, "ReadTickets/Read+GenerateTriage+FormatRows", nw=2, t_run=420, gap=300)
C02["filler"] = ["Read {n} tickets from gs://northwind-support-exports/2025-08/part-{k}.jsonl", "Prompt template v{s} rendered for {n} tickets",
                 "Ticket length p95={k} chars", "Language detection: {n} en, {s} es"]
C02["events"] = ev02

# =========================================================== hs13-03
C03 = base_case(case="hs13-03", py="3.11", project="ostrava-legal-nlp", job_id="2025-11-12_01_05_33-9028136655402137719",
    job_name="contract-summaries-internlm", wsuffix=["b3wn"], machine="g2-standard-12", image_tag="vllm-beam:0.9.2-b2.67",
    start="2025-11-12T09:05:33", shape="sink", file="gcs-sink-export.ndjson", outcome="failed", region="europe-west4", zone="europe-west4-a",
    pip_installed="openai-1.93.0 jsonschema-4.24.0",
    options="{'runner': 'DataflowRunner', 'project': 'ostrava-legal-nlp', 'region': 'europe-west4', 'sdk_container_image': 'europe-west4-docker.pkg.dev/ostrava-legal-nlp/ml/vllm-beam:0.9.2-b2.67', 'dataflow_service_options': ['worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver'], 'machine_type': 'g2-standard-12', 'experiments': ['use_runner_v2'], 'save_main_session': True}",
    image_uri="europe-west4-docker.pkg.dev/ostrava-legal-nlp/ml/vllm-beam:0.9.2-b2.67",
    user_logger="apache_beam/ml/inference/vllm_inference.py:154",
    stack="Beam 2.67.0 (Py 3.11); 1 x g2-standard-12 (NVIDIA L4); vLLM 0.9.2 via VLLMCompletionsModelHandler",
    family="vLLM server configuration (custom-code model without --trust-remote-code)",
    one_line="The model was switched to internlm/internlm2_5-7b-chat, whose config needs custom code; vllm_server_kwargs lack trust-remote-code, so the server dies on config load (relayed at INFO) and Beam only says 'Failed to start vLLM server'.",
    summary="Beam's VLLMCompletionsModelHandler starts 'python -m vllm.entrypoints.openai.api_server --model internlm/internlm2_5-7b-chat ...'. The InternLM2.5 repo defines its config through auto_map (configuration_internlm2.py), so transformers' AutoConfig refuses to load it without trust_remote_code and vLLM re-raises it as 'Failed to load the model config ... consider setting `trust_remote_code=True` ... `--trust-remote-code` flag'. The server exits during start-up; Beam retries the start and raises its generic exception; the work item fails 4 times.",
    fix="Add 'trust-remote-code': '' to vllm_server_kwargs (after reviewing the repo code and pinning a revision), or use a model whose architecture is native to transformers.",
    setup=dict(hardware="1 x g2-standard-12, 1 x NVIDIA L4 (24 GB), europe-west4-a", sdk="apache-beam[gcp] 2.67.0, Python 3.11",
        image="custom: vllm/vllm-openai:v0.9.2 base + apache-beam 2.67.0",
        pipeline="ReadFromParquet -> BuildPrompt -> RunInference(VLLMCompletionsModelHandler('internlm/internlm2_5-7b-chat', vllm_server_kwargs={'max-model-len': '8192'})) -> WriteToParquet",
        gpu_option="--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"),
)
TRC = ("ValueError: Loading internlm/internlm2_5-7b-chat requires you to execute the configuration file in that repo on your local "
       "machine. Make sure you have read the code there to avoid malicious use, then set the option `trust_remote_code=True` to remove this error.")
VWRAP = ("RuntimeError: Failed to load the model config. If the model is a custom model not yet available in the HuggingFace "
         "transformers library, consider setting `trust_remote_code=True` in LLM or using the `--trust-remote-code` flag in the CLI.")
BEAMV = "Failed to start vLLM server, polling process exited with code 1.  Next time a request is tried, the server will be restarted"
C03["evidence"] = [
    "Failed to load the model config. If the model is a custom model not yet available in the HuggingFace transformers library, consider setting `trust_remote_code=True` in LLM or using the `--trust-remote-code` flag in the CLI.",
    "Loading internlm/internlm2_5-7b-chat requires you to execute the configuration file in that repo on your local machine.",
    "The above exception was the direct cause of the following exception:",
    BEAMV,
    "The job failed because a work item has failed 4 times.",
]
C03["red_herrings"] = [
    ("Automatically detected platform cuda.", "vLLM INFO relayed by the DoFn."),
    ("Starting server with command: python -m vllm.entrypoints.openai.api_server --model internlm/internlm2_5-7b-chat --port 52371 --max-model-len 8192",
     "Beam handler's own start-up log; not an error."),
    ("No module named 'vllm._version'", "vLLM prints this version-detection warning in some builds; harmless."),
    ("Error retrieving server stats: Connection refused", "Pipeline polling the metrics port before the server is up; expected during start-up (the server never comes up for another reason)."),
    (PIP_ROOT, "pip root-user warning on stderr."),
]
C03["sources"] = [
    (VWRAP, "vllm-project/vllm vllm/transformers_utils/config.py get_config (v0.9.x): raise RuntimeError(err_msg) from e"),
    (TRC, "huggingface/transformers src/transformers/dynamic_module_utils.py resolve_trust_remote_code; real output in vllm-project/vllm issues (e.g. InternVL2 usage issue)"),
    (BEAMV, "apache/beam sdks/python/apache_beam/ml/inference/vllm_inference.py _VLLMModelServer.start_server"),
    ("Automatically detected platform cuda.", "vllm/platforms/__init__.py"),
]
C03["synthetic"] = ["ids, names, timestamps, port numbers", "Beam 'Starting server with command' wording", "pipeline INFO lines", "traceback line numbers", "metrics poller line"]

def ev03(c, rng):
    py = c["pyroot"]; vl = "/usr/local/lib/python3.12/dist-packages"
    relay = py + "/apache_beam/ml/inference/vllm_inference.py:154"
    def attempt(c, rng, t, wi, k):
        p = "sdk-0-0"; L = []
        for r in range(3):
            tt = t - 60 + r * 19
            L.append(W(c, wi, p, tt, "INFO", C03["red_herrings"][1][0], logger=py + "/apache_beam/ml/inference/vllm_inference.py:132"))
            L.append(W(c, wi, p, tt + 3.1, "INFO", "INFO 11-12 09:%02d:%02d [__init__.py:244] Automatically detected platform cuda." % (10 + k * 3, r * 17 % 60), logger=relay))
            if r == 0:
                L.append(W(c, wi, p, tt + 3.3, "INFO", "WARNING 11-12 09:%02d:%02d [__init__.py:29] No module named 'vllm._version'" % (10 + k * 3, r), logger=relay))
            tr = ("Traceback (most recent call last):\n"
                  '  File "%s/vllm/transformers_utils/config.py", line 347, in get_config\n    config = AutoConfig.from_pretrained(\n'
                  '  File "%s/transformers/models/auto/configuration_auto.py", line 1135, in from_pretrained\n    trust_remote_code = resolve_trust_remote_code(\n'
                  '  File "%s/transformers/dynamic_module_utils.py", line 711, in resolve_trust_remote_code\n    raise ValueError(\n' % (vl, vl, vl)) + TRC
            for ln in tr.split("\n"):
                L.append(W(c, wi, p, tt + 7.0, "INFO", ln, logger=relay))
            L.append(W(c, wi, p, tt + 7.01, "INFO", "", logger=relay))
            L.append(W(c, wi, p, tt + 7.02, "INFO", "The above exception was the direct cause of the following exception:", logger=relay))
            L.append(W(c, wi, p, tt + 7.03, "INFO", VWRAP, logger=relay))
            if r == 1:
                L.append(W(c, wi, p, tt + 9, "WARNING", C03["red_herrings"][3][0], logger=py + "/legalsum/monitor.py:44"))
        frames = beam_setup_frames(py) + [
            (py + "/apache_beam/ml/inference/base.py", 1560, "setup", "self._model = self._load_model()"),
            (py + "/apache_beam/ml/inference/vllm_inference.py", 211, "load_model", "return getVLLMClient(self._model_server.get_server_port())"),
            (py + "/apache_beam/ml/inference/vllm_inference.py", 173, "start_server", "self.start_server(retries - 1)"),
            (py + "/apache_beam/ml/inference/vllm_inference.py", 167, "start_server", "raise Exception("),
        ]
        trace = tb(frames, "Exception: " + BEAMV)
        L.append(W(c, wi, p, t, "ERROR", trace, logger=py + "/apache_beam/runners/worker/sdk_worker.py:315", thread="Thread-9"))
        return L, trace
    return failed_batch(c, rng, attempt, "ReadContracts/Read+BuildPrompt+RunInference/BeamML_RunInference", t_run=380, gap=110)
C03["filler"] = ["Built prompt for contract {k} ({n} clauses)", "Contract {k}: {n} sections after split", "Parquet row group {s} read ({n} rows)"]
C03["events"] = ev03

# =========================================================== hs13-04 (stuck)
C04 = base_case(case="hs13-04", py="3.11", project="helio-imaging", job_id="2025-05-21_22_03_19-1728390045521893210",
    job_name="sat-tiles-segment-nightly", wsuffix=["4rts", "9hvl"], machine="n1-standard-8", image_tag="unused",
    image_uri="docker.io/helioimaging/beam-seg-gpu:2.65.0-cu124", driver="550.90.07",
    start="2025-05-22T05:03:19", shape="gz", file="logs.ndjson.gz", outcome="stuck", region="us-east1", zone="us-east1-c", maxw=8,
    pip_installed="", options="", stack="Beam 2.65.0 (Py 3.11); 2 x n1-standard-8 + NVIDIA T4, no public IPs (Cloud NAT); custom image on Docker Hub",
    family="custom container image pull (Docker Hub anonymous pull rate limit)",
    one_line="The SDK image lives on Docker Hub and workers pull it anonymously through a Cloud NAT IP shared with CI; Docker Hub answers 429 toomanyrequests, kubelet backs off, no SDK ever starts; stuck 1h.",
    summary="sdk_container_image is docker.io/helioimaging/beam-seg-gpu:2.65.0-cu124, pulled without credentials. The workers have no external IPs and egress through a Cloud NAT address that is shared with the team's GKE CI runners, which had used up Docker Hub's unauthenticated pull allowance (per source IP). Every pull of the ~9 GB image gets 'toomanyrequests: You have reached your unauthenticated pull rate limit', kubelet goes into ImagePullBackOff and the SDK container never starts, so Dataflow fails the job after 1h without worker activity.",
    fix="Mirror the image to Artifact Registry in the job's region (or use an Artifact Registry remote repository for Docker Hub) and point sdk_container_image at it; do not pull worker images anonymously from Docker Hub.",
    setup=dict(hardware="2 x n1-standard-8 + 1 x NVIDIA T4 each, us-east1-c, --no_use_public_ips", sdk="apache-beam[gcp] 2.65.0, Python 3.11",
        image="docker.io/helioimaging/beam-seg-gpu:2.65.0-cu124 (public Docker Hub repo, ~9.1 GB)",
        pipeline="MatchFiles(gs) -> DecodeTiles -> RunInference(PytorchModelHandlerTensor, U-Net) -> WriteToGCS",
        gpu_option="--dataflow_service_options=worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"),
)
RL = ("toomanyrequests: You have reached your unauthenticated pull rate limit. https://www.docker.com/increase-rate-limit")
C04["evidence"] = [
    "toomanyrequests: You have reached your unauthenticated pull rate limit. https://www.docker.com/increase-rate-limit",
    "ImagePullBackOff",
    "Back-off pulling image",
    "The Dataflow job appears to be stuck because no worker activity has been seen in the last 1h.",
]
C04["red_herrings"] = [
    ("Failed to get system container stats for \"/system.slice/docker.service\": failed to get cgroup stats for \"/system.slice/docker.service\": failed to get container info for \"/system.slice/docker.service\": unknown container \"/system.slice/docker.service\"",
     "Well-known benign kubelet cadvisor message on COS."),
    ("nvidia-smi: NVIDIA-SMI 550.90.07  Driver Version: 550.90.07  CUDA Version: 12.4", "Driver installed fine; the GPU is not the problem."),
    ("Unable to retrieve status info from SDK harness sdk-0-0 within allowed time", "Consequence, not cause: there is no SDK harness because its image never arrived."),
    ("google_metadata_script_runner: Found shutdown-script in metadata.", "Normal VM metadata noise."),
]
C04["sources"] = [
    (RL, "Docker Hub registry error text (docs.docker.com/docker-hub/usage/, widely quoted, e.g. find_string hits 5264593465, 58600171884)"),
    ("Error syncing pod ... ErrImagePull / ImagePullBackOff / Back-off pulling image", "kubernetes pkg/kubelet (pod_workers.go klog.ErrorS 'Error syncing pod, skipping'; images/image_manager.go 'Back-off pulling image')"),
    (STUCK, "Dataflow job message (reference dataflow-log-signatures.md §2d)"),
    ("Unable to retrieve status info from SDK harness", "Dataflow common-errors page (reference §2f7)"),
]
C04["synthetic"] = ["ids, names, timestamps, pod UIDs, digests", "exact interleaving of kubelet/docker lines", "nvidia-smi summary line format"]

def ev04(c, rng):
    ev = job_start(c, 2)
    img = c["image_uri"]
    for i, w in enumerate(c["workers"]):
        t0 = 30 + i * 5
        ev += [(t0, "system", "INFO", "Linux version 6.6.56+ (builder@localhost) #1 SMP PREEMPT_DYNAMIC", w),
               (t0 + 1, "system", "INFO", "google_metadata_script_runner: Found shutdown-script in metadata.", w),
               (t0 + 9, "system", "INFO", "Installing GPU driver version 550.90.07", w),
               (t0 + 50, "system", "INFO", "Verifying GPU driver installation", w),
               (t0 + 52, "system", "INFO", "Finished installing the drivers.", w),
               (t0 + 53, "worker-startup", "INFO", "nvidia-smi: NVIDIA-SMI 550.90.07  Driver Version: 550.90.07  CUDA Version: 12.4", w),
               (t0 + 60, "kubelet", "INFO", "Pulling image \"%s\"" % img, w)]
        pod = "df-%s-%s" % (c["job_name"][:18], w[-4:])
        t = t0 + 64
        k = 0
        while t < 3780:
            msg = ('"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"sdk-0-0\\" with ErrImagePull: \\"rpc error: code = Unknown desc = Error response from daemon: %s\\"" pod="default/%s" podUID=%s'
                   % (RL, pod, "7f3c%04x-1b2e-4c55-9a1d-0c3e5f7a%04x" % (i, i)))
            ev.append((t, "docker", "ERROR", "Error response from daemon: %s" % RL, w))
            ev.append((t + 0.3, "kubelet", "ERROR", "E0522 %s   1533 pod_workers.go:1301] %s" % ("05:%02d:%02d.%06d" % (int(t // 60) % 60, int(t) % 60, rng.randint(0, 999999)), msg), w))
            ev.append((t + 12, "kubelet", "INFO", 'I0522 pod_workers "Back-off pulling image \\"%s\\"" err="ImagePullBackOff" pod="default/%s"' % (img, pod) if False else
                       'E0522 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"sdk-0-0\\" with ImagePullBackOff: \\"Back-off pulling image \\\\\\"%s\\\\\\"\\"" pod="default/%s"' % (img, pod), w))
            if k % 3 == 1:
                ev.append((t + 40, "kubelet", "ERROR", C04["red_herrings"][0][0], w))
            if k % 4 == 2:
                ev.append((t + 70, "worker", "WARNING", "Unable to retrieve status info from SDK harness sdk-0-0 within allowed time", w, "sdk-0-0", "/usr/local/bin/dataflow-harness:worker_status.go:211", "main"))
            ev.append((t + 300, "kubelet", "INFO", "Pulling image \"%s\"" % img, w))
            t += 300 + rng.uniform(0, 8)
            k += 1
    ev.append((3795, "job", "ERROR", STUCK))
    ev += teardown(3797, 2)
    return ev
C04["events"] = ev04

# =========================================================== hs13-05 (streaming, failed, cancelled)
C05 = base_case(case="hs13-05", py="3.11", project="quayside-commerce", job_id="2025-10-07_04_18_52-6620194873345110297",
    job_name="review-embed-stream", wsuffix=["d2nf"], machine="g2-standard-8", image_tag="review-embed:2025.10.1",
    start="2025-10-07T11:18:52", shape="gcloud", file="export.json", outcome="failed", maxw=3,
    pip_installed="sentence-transformers-4.1.0",
    options="{'runner': 'DataflowRunner', 'project': 'quayside-commerce', 'region': 'us-central1', 'streaming': True, 'enable_streaming_engine': True, 'sdk_container_image': 'us-central1-docker.pkg.dev/quayside-commerce/ml/review-embed:2025.10.1', 'dataflow_service_options': ['worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver'], 'machine_type': 'g2-standard-8', 'experiments': ['use_runner_v2', 'no_use_multiple_sdk_containers', 'enable_streaming_engine'], 'save_main_session': True}",
    user_logger="reviews/embed.py:77",
    stack="Beam 2.68.0 (Py 3.11), streaming; 1 x g2-standard-8 (NVIDIA L4); transformers 4.56.1 + tokenizers 0.22.0",
    family="thread safety of a shared Hugging Face fast tokenizer (Beam harness threads)",
    one_line="A module-level fast tokenizer is shared by two DoFns that call it with different truncation lengths from concurrent bundle threads; the Rust tokenizer raises 'RuntimeError: Already borrowed', bundles retry forever and the backlog grows until the operator cancels.",
    summary="reviews/embed.py creates one AutoTokenizer at import time and both EmbedTitle (max_length=64) and EmbedBody (max_length=384) call it. Beam's Python harness processes many streaming bundles concurrently in threads of one SDK process (no_use_multiple_sdk_containers), and every call with different truncation/padding makes transformers call set_truncation_and_padding, which mutably borrows the Rust tokenizer. Overlapping calls raise 'RuntimeError: Already borrowed'; the failing bundles are retried forever by the streaming runner, throughput collapses, the backlog grows and the operator cancelled the job.",
    fix="Give each DoFn instance (or each thread) its own tokenizer (create it in setup(), or use threading.local()), or serialize tokenizer calls with a lock; do not share one fast tokenizer across threads with changing truncation/padding.",
    setup=dict(hardware="1-3 x g2-standard-8, 1 x NVIDIA L4 each, us-central1-a", sdk="apache-beam[gcp] 2.68.0, Python 3.11, streaming with Streaming Engine",
        image="custom: torch 2.7.1+cu126, transformers 4.56.1, tokenizers 0.22.0, sentence-transformers 4.1.0",
        pipeline="ReadFromPubSub -> Parse -> EmbedTitle / EmbedBody (shared module-level tokenizer + e5-base on cuda) -> WriteToBigQuery (Storage Write API)",
        gpu_option="--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"),
)
AB = "RuntimeError: Already borrowed"
C05["evidence"] = [
    "RuntimeError: Already borrowed",
    "in set_truncation_and_padding",
    "self._tokenizer.enable_truncation(**target)",
    "Shared tokenizer intfloat/multilingual-e5-base loaded at import (id=0x7f3a2c1e5b50)",
    "Autoscaling: Raised the number of workers to 3 so that the pipeline can catch up with its backlog and keep up with its input rate.",
]
C05["red_herrings"] = [
    (TOK_FORK, "tokenizers fork advice; about parallelism after fork, not the threading bug."),
    ("Could not set Pub/Sub ack deadline, retrying: 503 The service was unable to fulfill your request. Please try again. [code=8a75]",
     "A transient Pub/Sub retry that succeeded."),
    ("BertModel LOAD REPORT: embeddings.position_ids | UNEXPECTED", "Benign unexpected buffer key noted at load; model works."),
    ("torch.cuda.OutOfMemoryError is handled by splitting the batch (max_batch=128)", "Pipeline's own note about its OOM guard; no OOM happened."),
]
C05["sources"] = [
    (AB, "huggingface/tokenizers#537 'RuntimeError: Already borrowed' (thread-shared fast tokenizer); traceback frames from transformers tokenization_utils_fast.py set_truncation_and_padding"),
    ("Autoscaling: Raised the number of workers to N so that the pipeline can catch up with its backlog and keep up with its input rate.", "Dataflow job message (reference §2i)"),
    (TOK_FORK, "huggingface/tokenizers parallelism.rs"),
]
C05["synthetic"] = ["ids, names, timestamps", "pipeline INFO lines", "Pub/Sub retry wrapper line", "load report line", "traceback line numbers", "cancellation is visible only as teardown (the cancel itself was done in the console)"]

def ev05(c, rng):
    py = c["pyroot"]
    ev = job_start(c, 1, streaming=True)
    ev += start_block(c, c["workers"][0], 30)
    ev += [(200, "job", "INFO", "Workers have started successfully."),
           (205, "job", "INFO", "Executing operation ReadReviews/Read+Parse+EmbedTitle+EmbedBody+WriteEmbeddings")]
    p = "sdk-0-0"
    ev.append(W(c, 0, p, 190, "INFO", "Shared tokenizer intfloat/multilingual-e5-base loaded at import (id=0x7f3a2c1e5b50)"))
    ev.append(W(c, 0, p, 196, "WARNING", "BertModel LOAD REPORT: embeddings.position_ids | UNEXPECTED", logger=py + "/reviews/embed.py:91"))
    ev.append(W(c, 0, p, 197, "INFO", "torch.cuda.OutOfMemoryError is handled by splitting the batch (max_batch=128)"))
    ev.append(D(c, 0, 199, "ERROR", TOK_FORK))
    t = 260.0
    n = 0
    while t < 2500:
        fn = rng.choice([("EmbedTitle", 64), ("EmbedBody", 384)])
        frames = [
            (py + "/apache_beam/runners/common.py", 1498, "apache_beam.runners.common.DoFnRunner.process", "return self.do_fn_invoker.invoke_process(windowed_value)"),
            (py + "/apache_beam/runners/common.py", 912, "apache_beam.runners.common.PerWindowInvoker.invoke_process", "self._invoke_process_per_window("),
            (py + "/reviews/embed.py", 118, "process", "enc = TOKENIZER(texts, truncation=True, max_length=%d, padding=True, return_tensors='pt')" % fn[1]),
            (py + "/transformers/tokenization_utils_base.py", 2938, "__call__", "encodings = self._call_one(text=text, text_pair=text_pair, **all_kwargs)"),
            (py + "/transformers/tokenization_utils_base.py", 3048, "_call_one", "return self.batch_encode_plus("),
            (py + "/transformers/tokenization_utils_base.py", 3249, "batch_encode_plus", "return self._batch_encode_plus("),
            (py + "/transformers/tokenization_utils_fast.py", 541, "_batch_encode_plus", "self.set_truncation_and_padding("),
            (py + "/transformers/tokenization_utils_fast.py", 491, "set_truncation_and_padding", "self._tokenizer.enable_truncation(**target)"),
        ]
        msg = tb(frames, AB)
        ev.append(W(c, 0, p, t, "ERROR", msg, logger=py + "/apache_beam/runners/worker/sdk_worker.py:315", thread="Thread-%d" % rng.randint(20, 60)))
        if n % 3 == 0:
            ev.append((t + 2, "job", "ERROR", "Error message from worker: generic::unknown: " + msg))
        t += rng.uniform(40, 110); n += 1
    ev.append((900, "job", "INFO", "Autoscaling: Raised the number of workers to 3 so that the pipeline can catch up with its backlog and keep up with its input rate."))
    ev += start_block(c, c["workers"][0], 905)[-11:-8]
    ev.append(W(c, 0, p, 1300, "WARNING", C05["red_herrings"][1][0], logger=py + "/apache_beam/io/gcp/pubsub.py:512"))
    ev += filler_lines(c, rng, max(0, 150 - len(ev) - 6), 210, 2500, c["workers"][:1], (p,))
    ev += teardown(2560, 3)
    return ev
C05["filler"] = ["Embedded {n} reviews (title) in {ms} ms", "Embedded {n} reviews (body) in {ms} ms", "Pub/Sub batch of {n} messages parsed",
                 "Watermark lag {n}s", "Rows appended to reviews_emb stream: {n}"]
C05["events"] = ev05

# =========================================================== hs13-06 (succeeded, silently wrong)
C06 = base_case(case="hs13-06", py="3.11", project="brightloom-creative", job_id="2025-08-19_08_30_02-3389471120958802245",
    job_name="catalog-hero-images-sdxl", wsuffix=["t6gm", "c0rz"], machine="g2-standard-8", image_tag="sdxl-batch:2025.08",
    start="2025-08-19T15:30:02", shape="explorer", file="downloaded-logs-20250819-184415.json", outcome="succeeded", maxw=2,
    pip_installed="diffusers-0.32.2 accelerate-1.4.0",
    options="{'runner': 'DataflowRunner', 'project': 'brightloom-creative', 'region': 'us-central1', 'sdk_container_image': 'us-central1-docker.pkg.dev/brightloom-creative/ml/sdxl-batch:2025.08', 'dataflow_service_options': ['worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver'], 'machine_type': 'g2-standard-8', 'experiments': ['use_runner_v2', 'no_use_multiple_sdk_containers'], 'save_main_session': True}",
    user_logger="hero/render.py:103",
    stack="Beam 2.66.0 (Py 3.11); 2 x g2-standard-8 (NVIDIA L4); diffusers 0.32.2 SDXL 1.0 + fine-tuned VAE in fp16",
    family="diffusers SDXL VAE fp16 overflow (NaN latents decoded to black images)",
    one_line="The fine-tuned SDXL VAE was loaded in float16 with force_upcast=false copied from sdxl-vae-fp16-fix while its weights are the original SDXL VAE; decode overflows to NaN, numpy warns 'invalid value encountered in cast' and ~all 18k images are black, yet the job succeeds.",
    summary="RenderHero loads StableDiffusionXLPipeline in torch.float16 with vae=AutoencoderKL.from_pretrained('gs://.../vae-brightloom-v2', torch_dtype=torch.float16). That VAE was fine-tuned from the original SDXL VAE, but its config.json was copied from madebyollin/sdxl-vae-fp16-fix and says force_upcast: false, so diffusers does not upcast the VAE to float32 before decoding. The original SDXL VAE overflows in fp16, the decoded images are NaN, and diffusers' numpy conversion prints 'RuntimeWarning: invalid value encountered in cast' (to stderr, once per process) and writes all-black PNGs. The job succeeds; only the pipeline's own mean-brightness stats show it.",
    fix="Set force_upcast=true in the VAE config (or call pipe.upcast_vae()/load the VAE in float32), or use the fp16-fix VAE weights; add a check that rejects all-black outputs.",
    setup=dict(hardware="2 x g2-standard-8, 1 x NVIDIA L4 each, us-central1-a", sdk="apache-beam[gcp] 2.66.0, Python 3.11",
        image="custom: torch 2.6.0+cu124, diffusers 0.32.2, transformers 4.48.3",
        pipeline="ReadFromBigQuery(prompts) -> RenderHero (StableDiffusionXLPipeline, 30 steps, 1024x1024) -> WriteToGCS(PNG) -> WriteToBigQuery(metadata)",
        gpu_option="--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"),
)
CASTW = "/usr/local/lib/python3.11/site-packages/diffusers/image_processor.py:147: RuntimeWarning: invalid value encountered in cast"
C06["evidence"] = [
    "RuntimeWarning: invalid value encountered in cast",
    '  images = (images * 255).round().astype("uint8")',
    "VAE gs://brightloom-creative-models/sdxl/vae-brightloom-v2 loaded: dtype=torch.float16 force_upcast=False",
    "Batch stats: mean_pixel=0.00 black_frames=8/8",
    "Worker pool stopped.",
]
C06["red_herrings"] = [
    ("Token indices sequence length is longer than the specified maximum sequence length for this model (91 > 77). Running this sequence through the model will result in indexing errors",
     "CLIP prompt truncation notice; long prompts are truncated to 77 tokens by design."),
    ("The following part of your input was truncated because CLIP can only handle sequences up to 77 tokens: ['with soft studio lighting , 8 k']",
     "Same truncation, diffusers wording."),
    ("Keyword arguments {'safety_checker': None} are not expected by StableDiffusionXLPipeline and will be ignored.", "Harmless leftover kwarg."),
    ("100%|██████████| 30/30 [00:19<00:00,  1.55it/s]", "tqdm progress bar on stderr (ERROR only because of stderr)."),
    ("Retrying upload of gs://brightloom-hero/2025-08-19/sku-88412.png after 503 Service Unavailable (attempt 2/5)", "A retried upload that then succeeded."),
]
C06["sources"] = [
    ("RuntimeWarning: invalid value encountered in cast / images = (images * 255).round().astype(\"uint8\")", "numpy cast warning raised in huggingface/diffusers src/diffusers/image_processor.py numpy_to_pil (v0.32.x); the SDXL fp16-VAE NaN/black-image problem is documented in diffusers issues and in the madebyollin/sdxl-vae-fp16-fix model card"),
    ("Token indices sequence length is longer than the specified maximum sequence length ...", "transformers tokenization_utils_base.py _eventual_warn_about_too_long_sequence"),
    ("The following part of your input was truncated because CLIP can only handle sequences up to 77 tokens", "diffusers pipeline_stable_diffusion_xl.py encode_prompt"),
    ("Keyword arguments {...} are not expected by ... and will be ignored.", "diffusers pipeline_utils.py from_pretrained"),
]
C06["synthetic"] = ["ids, names, timestamps, paths", "pipeline INFO/stat lines", "upload retry line", "line number 147 of image_processor.py"]

def ev06(c, rng):
    py = c["pyroot"]
    ev = job_start(c, 2)
    for i in range(2):
        ev += start_block(c, c["workers"][i], 30 + i * 3)
    ev += [(240, "job", "INFO", "Workers have started successfully."),
           (245, "job", "INFO", "Executing operation ReadPrompts/Read+RenderHero+WritePng+FormatMeta")]
    p = "sdk-0-0"
    for i in range(2):
        t = 250 + i * 4
        ev += [W(c, i, p, t, "INFO", "VAE gs://brightloom-creative-models/sdxl/vae-brightloom-v2 loaded: dtype=torch.float16 force_upcast=False"),
               D(c, i, t + 20, "ERROR", C06["red_herrings"][2][0]),
               W(c, i, p, t + 60, "INFO", "SDXL pipeline ready on cuda:0 (fp16), scheduler=EulerDiscreteScheduler"),
               D(c, i, t + 70, "ERROR", C06["red_herrings"][0][0]),
               D(c, i, t + 70.1, "ERROR", C06["red_herrings"][1][0]),
               D(c, i, t + 90, "ERROR", C06["red_herrings"][3][0]),
               D(c, i, t + 91, "ERROR", CASTW),
               D(c, i, t + 91.01, "ERROR", '  images = (images * 255).round().astype("uint8")')]
        for b in range(14):
            tb_ = t + 95 + b * 410 + rng.uniform(0, 30)
            ev.append(W(c, i, p, tb_, "INFO", "Batch stats: mean_pixel=0.00 black_frames=8/8"))
            if b % 4 == 0:
                ev.append(D(c, i, tb_ - 2, "ERROR", "100%%|██████████| 30/30 [00:%02d<00:00,  1.%02dit/s]" % (rng.randint(18, 21), rng.randint(40, 60))))
    ev.append(W(c, 1, p, 3100, "WARNING", C06["red_herrings"][4][0], logger=py + "/hero/io.py:57"))
    ev += filler_lines(c, rng, max(0, 165 - len(ev) - 6), 250, 5900, c["workers"], (p,))
    ev += teardown(6000, 2)
    return ev
C06["filler"] = ["Rendered {n} images so far ({ms} ms/img)", "Wrote gs://brightloom-hero/2025-08-19/sku-{k}.png", "Prompt batch {n} fetched (8 prompts)"]
C06["events"] = ev06

def simple_case(cid, **kw):
    c = base_case(case=cid, **kw)
    return c

# =========================================================== hs13-07 bitsandbytes 8-bit .to()
C07 = base_case(case="hs13-07", py="3.11", project="larkspur-claims", job_id="2025-04-29_09_14_27-7745910284420317786",
    job_name="claims-extract-llama-int8", wsuffix=["h5sq"], machine="g2-standard-8", image_tag="claims-int8:1.4.0",
    start="2025-04-29T16:14:27", shape="sink", file="gcs-sink-export.ndjson", outcome="failed",
    pip_installed="bitsandbytes-0.45.3 accelerate-1.3.0",
    options="{'runner': 'DataflowRunner', 'project': 'larkspur-claims', 'region': 'us-central1', 'sdk_container_image': 'us-central1-docker.pkg.dev/larkspur-claims/ml/claims-int8:1.4.0', 'dataflow_service_options': ['worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver'], 'machine_type': 'g2-standard-8', 'experiments': ['use_runner_v2'], 'save_main_session': True}",
    user_logger="claims/handler.py:52",
    stack="Beam 2.63.0 (Py 3.11); 1 x g2-standard-8 (NVIDIA L4); transformers 4.49.0 + bitsandbytes 0.45.3 (8-bit)",
    family="bitsandbytes 8-bit quantized model moved with .to()",
    one_line="The custom ModelHandler loads Llama-3.1-8B with BitsAndBytesConfig(load_in_8bit=True) and then calls model.to('cuda') (kept from the fp16 handler); transformers forbids .to on 8-bit bnb models and load_model fails 4 times.",
    summary="ClaimsLlamaHandler.load_model() was switched to 8-bit loading (quantization_config=BitsAndBytesConfig(load_in_8bit=True), device_map={'': 0}) to fit next to a second model, but still ends with 'return model.to(self._device)'. For bitsandbytes 8-bit models PreTrainedModel.to raises ValueError ('`.to` is not supported for `8-bit` bitsandbytes models'), so RunInference's setup fails on every attempt.",
    fix="Remove the .to(device) call (the model is already placed by device_map), or use 4-bit with bitsandbytes >= 0.43.2 where .to is allowed.",
    setup=dict(hardware="1 x g2-standard-8, 1 x NVIDIA L4, us-central1-a", sdk="apache-beam[gcp] 2.63.0, Python 3.11",
        image="custom: torch 2.5.1+cu124, transformers 4.49.0, bitsandbytes 0.45.3, accelerate 1.3.0",
        pipeline="ReadFromAvro -> RunInference(ClaimsLlamaHandler: meta-llama/Llama-3.1-8B-Instruct, 8-bit) -> ParseJson -> WriteToBigQuery",
        gpu_option="--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"),
)
BNB = ("ValueError: `.to` is not supported for `8-bit` bitsandbytes models. Please use the model as it is, since the model has "
       "already been set to the correct devices and casted to the correct `dtype`.")
C07["evidence"] = [
    "`.to` is not supported for `8-bit` bitsandbytes models. Please use the model as it is, since the model has already been set to the correct devices and casted to the correct `dtype`.",
    "return model.to(self._device)",
    "Loading meta-llama/Llama-3.1-8B-Instruct with quantization=bnb-int8 device_map={'': 0}",
    "The job failed because a work item has failed 4 times.",
]
C07["red_herrings"] = [
    ("The `load_in_4bit` and `load_in_8bit` arguments are deprecated and will be removed in the future versions. Please, pass a `BitsAndBytesConfig` object in `quantization_config` argument instead.",
     "Deprecation warning from a helper that probes the old kwargs; not the failure."),
    ("Setting `pad_token_id` to `eos_token_id`:128001 for open-end generation.", "Normal generate() notice from an earlier smoke test step."),
    ("MatMul8bitLt: inputs will be cast from torch.float32 to float16 during quantization", "bitsandbytes info warning."),
    (PIP_ROOT, "pip root-user warning on stderr."),
]
C07["sources"] = [
    (BNB, "huggingface/transformers src/transformers/modeling_utils.py PreTrainedModel.to (v4.45-4.49)"),
    ("The `load_in_4bit` and `load_in_8bit` arguments are deprecated ...", "transformers modeling_utils.py from_pretrained"),
    ("Setting `pad_token_id` to `eos_token_id`:... for open-end generation.", "transformers generation/utils.py"),
    ("MatMul8bitLt: inputs will be cast from torch.float32 to float16 during quantization", "bitsandbytes autograd/_functions.py"),
]
C07["synthetic"] = ["ids, names, timestamps", "handler code and log lines", "traceback line numbers"]

def ev07(c, rng):
    py = c["pyroot"]
    def attempt(c, rng, t, wi, k):
        p = "sdk-0-0"
        L = [W(c, wi, p, t - 90, "INFO", "Loading meta-llama/Llama-3.1-8B-Instruct with quantization=bnb-int8 device_map={'': 0}"),
             D(c, wi, t - 88, "ERROR", C07["red_herrings"][0][0]),
             D(c, wi, t - 80, "ERROR", "Loading checkpoint shards:   0%|          | 0/4 [00:00<?, ?it/s]"),
             D(c, wi, t - 3, "ERROR", "Loading checkpoint shards: 100%|██████████| 4/4 [01:14<00:00, 18.61s/it]")]
        frames = beam_setup_frames(py) + [
            (py + "/apache_beam/ml/inference/base.py", 1560, "setup", "self._model = self._load_model()"),
            (py + "/apache_beam/ml/inference/base.py", 1498, "load", "model = self._model_handler.load_model()"),
            (py + "/claims/handler.py", 49, "load_model", "return model.to(self._device)"),
            (py + "/transformers/modeling_utils.py", 3248, "to", "raise ValueError("),
        ]
        trace = tb(frames, BNB)
        L.append(W(c, wi, p, t, "ERROR", trace, logger=py + "/apache_beam/runners/worker/sdk_worker.py:315", thread="Thread-11"))
        return L, trace
    ev = failed_batch(c, rng, attempt, "ReadClaims/Read+RunInference/BeamML_RunInference+ParseJson", t_run=420, gap=140)
    ev.append(W(c, 0, "sdk-0-0", 260, "INFO", "Smoke test generate(): " + C07["red_herrings"][1][0]))
    ev.append(D(c, 0, 262, "ERROR", C07["red_herrings"][2][0]))
    return ev
C07["filler"] = ["Read {n} claim documents from avro shard {s}", "Prompt built for claim {k} ({n} tokens)", "Schema v{s} loaded for extraction"]
C07["events"] = ev07

# =========================================================== hs13-08 two vLLM servers on one L4
C08 = base_case(case="hs13-08", py="3.12", project="meridale-cx", job_id="2025-07-30_02_44_10-11802977316604522391",
    job_name="call-notes-triage-summarize", wsuffix=["p9za", "r1ux"], machine="g2-standard-8", image_tag="vllm-beam:0.9.2",
    start="2025-07-30T09:44:10", shape="gz", file="logs.ndjson.gz", outcome="failed", maxw=2,
    pip_installed="langdetect-1.0.9",
    options="{'runner': 'DataflowRunner', 'project': 'meridale-cx', 'region': 'us-central1', 'sdk_container_image': 'us-central1-docker.pkg.dev/meridale-cx/ml/vllm-beam:0.9.2', 'dataflow_service_options': ['worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver'], 'machine_type': 'g2-standard-8', 'experiments': ['use_runner_v2', 'no_use_multiple_sdk_containers'], 'save_main_session': True}",
    user_logger="apache_beam/ml/inference/vllm_inference.py:154",
    stack="Beam 2.66.0 (Py 3.12); 2 x g2-standard-8 (NVIDIA L4); vLLM 0.9.2, two VLLMCompletionsModelHandler steps",
    family="GPU shared by two vLLM servers (gpu_memory_utilization budget)",
    one_line="Two RunInference steps each start their own vLLM server on the one L4; the first (triage, Qwen2.5-1.5B) reserves 90% of the GPU, so the second (summary, Qwen2.5-7B-AWQ) fails 'Free memory on device ... less than desired GPU memory utilization (0.9, ...)'.",
    summary="The pipeline has two RunInference transforms with VLLMCompletionsModelHandler (Qwen/Qwen2.5-1.5B-Instruct for triage, Qwen/Qwen2.5-7B-Instruct-AWQ for summaries) that Dataflow fuses into one stage, so both vLLM OpenAI servers run on the same 22 GiB L4. vLLM's default gpu_memory_utilization 0.9 makes the first server claim ~19.8 GiB; the second finds only ~2.7 GiB free at start-up and vLLM's worker raises ValueError. Beam's server wrapper retries and gives up, and the work item fails 4 times. The first server's log is healthy.",
    fix="Give each server an explicit share (e.g. vllm_server_kwargs={'gpu-memory-utilization': '0.25'} and '0.6'), or serve both models from one server / run the steps on separate workers (resource hints, or a Reshuffle plus separate pipelines).",
    setup=dict(hardware="2 x g2-standard-8, 1 x NVIDIA L4 (22.05 GiB usable) each", sdk="apache-beam[gcp] 2.66.0, Python 3.12",
        image="custom: vllm/vllm-openai:v0.9.2 + apache-beam 2.66.0",
        pipeline="ReadFromJson -> RunInference(VLLMCompletionsModelHandler Qwen2.5-1.5B triage) -> RunInference(VLLMCompletionsModelHandler Qwen2.5-7B-AWQ summary) -> WriteToBigQuery",
        gpu_option="--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"),
)
FREE = ("ValueError: Free memory on device (2.71/22.05 GiB) on startup is less than desired GPU memory utilization (0.9, 19.84 GiB). "
        "Decrease GPU memory utilization or reduce GPU memory used by other processes.")
C08["evidence"] = [
    "Free memory on device (2.71/22.05 GiB) on startup is less than desired GPU memory utilization (0.9, 19.84 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.",
    "--model Qwen/Qwen2.5-7B-Instruct-AWQ",
    "Available KV cache memory: 15.96 GiB",
    BEAMV,
    "The job failed because a work item has failed 4 times.",
]
C08["red_herrings"] = [
    ("Available KV cache memory: 15.96 GiB", "The first server (1.5B) started fine; large KV cache is exactly the reservation that starves the second server, but the line itself is normal INFO."),
    ("awq quantization is not fully optimized yet. The speed can be slower than non-quantized models.", "vLLM performance advisory for AWQ."),
    ("Using max model len 32768", "Normal vLLM config echo."),
    ("Error retrieving server stats: Connection refused", "Metrics poller before the server is up."),
]
C08["sources"] = [
    (FREE, "vllm-project/vllm vllm/v1/worker/gpu_worker.py init_device (0.9.x); real outputs with this shape quoted publicly (find_string hits 58916437416, 69028986412)"),
    ("Available KV cache memory: ... GiB", "vllm/v1/worker/gpu_worker.py determine_available_memory / gpu_model_runner"),
    ("awq quantization is not fully optimized yet...", "vllm/config.py _verify_quantization"),
    (BEAMV, "apache/beam sdks/python/apache_beam/ml/inference/vllm_inference.py"),
]
C08["synthetic"] = ["ids, names, timestamps, ports, PIDs", "Beam 'Starting server with command' wording", "pipeline INFO lines", "traceback line numbers"]

def ev08(c, rng):
    py = c["pyroot"]; relay = py + "/apache_beam/ml/inference/vllm_inference.py:154"; vl = "/usr/local/lib/python3.12/dist-packages"
    def attempt(c, rng, t, wi, k):
        p = "sdk-0-0"; L = []
        t0 = t - 150
        def R(dt, s):
            L.append(W(c, wi, p, t0 + dt, "INFO", s, logger=relay))
        L.append(W(c, wi, p, t0, "INFO", "Starting server with command: python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-1.5B-Instruct --port 41%03d" % rng.randint(100, 999), logger=py + "/apache_beam/ml/inference/vllm_inference.py:132"))
        R(4, "INFO 07-30 09:%02d:11 [__init__.py:244] Automatically detected platform cuda." % (50 + k))
        R(9, "INFO 07-30 09:%02d:16 [config.py:1472] Using max model len 32768" % (50 + k))
        R(40, "INFO 07-30 09:%02d:47 [gpu_worker.py:232] Available KV cache memory: 15.96 GiB" % (50 + k))
        R(70, "INFO:     Application startup complete.")
        for r in range(2):
            tt = 80 + r * 25
            L.append(W(c, wi, p, t0 + tt, "INFO", "Starting server with command: python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-7B-Instruct-AWQ --port 52%03d" % rng.randint(100, 999), logger=py + "/apache_beam/ml/inference/vllm_inference.py:132"))
            R(tt + 4, "INFO 07-30 09:%02d:%02d [__init__.py:244] Automatically detected platform cuda." % (51 + k, tt % 60))
            R(tt + 8, "WARNING 07-30 09:%02d:%02d [config.py:1044] awq quantization is not fully optimized yet. The speed can be slower than non-quantized models." % (51 + k, tt % 60))
            trace = ("Traceback (most recent call last):\n"
                     '  File "%s/vllm/v1/engine/core.py", line 506, in run_engine_core\n    raise e\n'
                     '  File "%s/vllm/v1/executor/abstract.py", line 53, in _init_executor\n    self.collective_rpc("init_device")\n'
                     '  File "%s/vllm/v1/worker/gpu_worker.py", line 166, in init_device\n    raise ValueError(\n' % (vl, vl, vl)) + FREE
            for ln in trace.split("\n"):
                R(tt + 15, ln)
            R(tt + 16, "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}")
            if r == 0:
                L.append(W(c, wi, p, t0 + tt + 5, "WARNING", "Error retrieving server stats: Connection refused", logger=py + "/cx/monitor.py:40"))
        frames = beam_setup_frames(py) + [
            (py + "/apache_beam/ml/inference/base.py", 1560, "setup", "self._model = self._load_model()"),
            (py + "/apache_beam/ml/inference/vllm_inference.py", 211, "load_model", "return getVLLMClient(self._model_server.get_server_port())"),
            (py + "/apache_beam/ml/inference/vllm_inference.py", 167, "start_server", "raise Exception("),
        ]
        tr = tb(frames, "Exception: " + BEAMV)
        L.append(W(c, wi, p, t, "ERROR", tr, logger=py + "/apache_beam/runners/worker/sdk_worker.py:315", thread="Thread-10"))
        return L, tr
    return failed_batch(c, rng, attempt, "ReadNotes/Read+Triage+Summarize+FormatRows", nw=2, t_run=450, gap=200)
C08["filler"] = ["Read {n} call notes from gs://meridale-cx-exports/notes-{k}.json", "Triage prompt batch {s} built ({n} notes)", "Language {s}: {n} notes"]
C08["events"] = ev08

# =========================================================== hs13-09 silent CPU (handler default device)
C09 = base_case(case="hs13-09", py="3.11", project="fjordline-vision", job_id="2026-01-14_05_02_51-2236619884015278810",
    job_name="dock-camera-defects-backfill", wsuffix=["a1bc", "k2dd", "n7ee", "w3ff"], machine="g2-standard-4", image_tag="defects:2026.01.1",
    start="2026-01-14T13:02:51", shape="gcloud", file="export.json", outcome="succeeded", region="europe-west1", zone="europe-west1-b", maxw=4,
    image_uri="europe-west1-docker.pkg.dev/fjordline-vision/ml/defects:2026.01.1",
    pip_installed="timm-1.0.13", user_logger="defects/pipeline.py:64",
    options="{'runner': 'DataflowRunner', 'project': 'fjordline-vision', 'region': 'europe-west1', 'sdk_container_image': 'europe-west1-docker.pkg.dev/fjordline-vision/ml/defects:2026.01.1', 'dataflow_service_options': ['worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver'], 'machine_type': 'g2-standard-4', 'max_num_workers': 4, 'experiments': ['use_runner_v2', 'no_use_multiple_sdk_containers']}",
    stack="Beam 2.69.0 (Py 3.11); 1-4 x g2-standard-4 (NVIDIA L4); torch 2.7.1+cu126, timm ConvNeXt",
    family="silent CPU inference (Beam PyTorch handler left at its default device)",
    one_line="PytorchModelHandlerTensor was created without device='GPU' (default 'CPU'); the L4 works (cuda available) but Beam loads and runs the model on the CPU; the job succeeds ~10x slower and scales to 4 workers.",
    summary="The refactored pipeline builds PytorchModelHandlerTensor(state_dict_path=..., model_class=ConvNeXtDefect, model_params=...) and lost the device='GPU' argument. Beam's handler defaults to device='CPU', logs 'Loading state_dict_path ... onto a cpu device' and runs every batch on the 4 vCPUs. The driver and GPU are fine (torch reports cuda available), so nothing fails: the backfill takes ~6 h instead of ~35 min and autoscaling raises the pool to the maximum.",
    fix="Pass device='GPU' to PytorchModelHandlerTensor (and alert on the 'onto a cpu device' line / GPU utilisation metric).",
    setup=dict(hardware="1-4 x g2-standard-4, 1 x NVIDIA L4 each, europe-west1-b", sdk="apache-beam[gcp] 2.69.0, Python 3.11",
        image="custom: torch 2.7.1+cu126, torchvision 0.22.1, timm 1.0.13",
        pipeline="MatchFiles(gs://fjordline-dock-cam/2025/**.jpg) -> Decode/Resize -> RunInference(PytorchModelHandlerTensor(ConvNeXtDefect), default device) -> WriteToBigQuery",
        gpu_option="--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"),
)
C09["evidence"] = [
    "Loading state_dict_path gs://fjordline-vision-models/defects/convnext_tiny_v5.pt onto a cpu device",
    "torch 2.7.1+cu126 cuda.is_available()=True device_count=1 name=NVIDIA L4",
    "Batch of 32 frames scored in 11874 ms",
    "Autoscaling: Raised the number of workers to 4 based on the rate of progress in the currently running stage(s).",
    "Worker pool stopped.",
]
C09["red_herrings"] = [
    ("/usr/local/lib/python3.11/site-packages/torchvision/io/image.py:14: UserWarning: Failed to load image Python extension: 'libc10_cuda.so: cannot open shared object file: No such file or directory'If you don't plan on using image functionality from `torchvision.io`, you can ignore this warning. Otherwise, there might be something wrong with your environment. Did you have `libjpeg` or `libpng` installed before building `torchvision` from source?",
     "torchvision.io image extension warning; the pipeline decodes with PIL, so it is irrelevant (and not the reason for CPU inference)."),
    ("Corrupt JPEG data: 2 extraneous bytes before marker 0xd9", "libjpeg warning for one truncated frame; frame still decoded."),
    ("Skipping unreadable frame gs://fjordline-dock-cam/2025/11/03/cam07/141522.jpg: cannot identify image file", "One bad file, skipped by design."),
    ("Unable to establish connection to metadata server, retrying (attempt 1)", "Transient metadata retry at start-up."),
]
C09["sources"] = [
    ("Loading state_dict_path %s onto a %s device", "apache/beam sdks/python/apache_beam/ml/inference/pytorch_inference.py _load_model (device default 'CPU' in PytorchModelHandlerTensor)"),
    ("Autoscaling: Raised the number of workers to N based on the rate of progress in the currently running stage(s).", "Dataflow job message (reference §1.8/§2i)"),
    ("Failed to load image Python extension ...", "pytorch/vision torchvision/io/image.py warning"),
    ("Corrupt JPEG data: N extraneous bytes before marker 0xd9", "libjpeg-turbo jcmsg warning text"),
]
C09["synthetic"] = ["ids, names, timestamps, paths", "pipeline INFO/timing lines", "metadata retry line"]

def ev09(c, rng):
    py = c["pyroot"]
    ev = job_start(c, 1)
    ev += start_block(c, c["workers"][0], 30)
    ev += [(240, "job", "INFO", "Workers have started successfully."), (245, "job", "INFO", "Executing operation MatchFrames/Read+Decode+RunInference+WriteDefects")]
    starts = {0: 30, 1: 1250, 2: 1900, 3: 1905}
    for i in range(1, 4):
        ev += start_block(c, c["workers"][i], starts[i])[-14:]
    ev.append((1240, "job", "INFO", "Autoscaling: Raised the number of workers to 2 based on the rate of progress in the currently running stage(s)."))
    ev.append((1890, "job", "INFO", "Autoscaling: Raised the number of workers to 4 based on the rate of progress in the currently running stage(s)."))
    p = "sdk-0-0"
    for i in range(4):
        t = starts[i] + 200
        ev += [W(c, i, p, t, "INFO", "torch 2.7.1+cu126 cuda.is_available()=True device_count=1 name=NVIDIA L4"),
               D(c, i, t + 1, "ERROR", C09["red_herrings"][0][0]),
               W(c, i, p, t + 3, "INFO", "Loading state_dict_path gs://fjordline-vision-models/defects/convnext_tiny_v5.pt onto a cpu device",
                 logger=py + "/apache_beam/ml/inference/pytorch_inference.py:106"),
               W(c, i, p, t + 9, "INFO", "Finished loading PyTorch model.", logger=py + "/apache_beam/ml/inference/base.py:1503")]
        for b in range(6):
            ev.append(W(c, i, p, t + 60 + b * 900 + rng.uniform(0, 60), "INFO", "Batch of 32 frames scored in %d ms" % (11874 if (i == 0 and b == 0) else rng.randint(10900, 13200))))
    ev.append(W(c, 0, p, 80, "WARNING", C09["red_herrings"][3][0], logger=py + "/google/auth/compute_engine/_metadata.py:142"))
    ev.append(D(c, 1, 3000, "ERROR", C09["red_herrings"][1][0]))
    ev.append(W(c, 2, p, 4100, "WARNING", C09["red_herrings"][2][0], logger=py + "/defects/decode.py:31"))
    ev += filler_lines(c, rng, max(0, 200 - len(ev) - 6), 300, 21000, c["workers"], (p,))
    ev += teardown(21400, 4)
    return ev
C09["filler"] = ["Scored {n} frames so far on this worker", "Decoded {n} frames from cam{s}", "Defect candidates in batch: {s}", "Wrote {n} rows to dock_defects_2025"]
C09["events"] = ev09

# =========================================================== hs13-10 accelerate missing
C10 = base_case(case="hs13-10", py="3.10", project="pinecrest-health-nlp", job_id="2025-03-18_07_25_40-5120839977104528840",
    job_name="discharge-notes-coding", wsuffix=["z8qa"], machine="a2-highgpu-1g", image_tag="unused",
    image_uri="gcr.io/pinecrest-health-nlp/beam-medcoder:2025-03-14", driver="550.90.07",
    start="2025-03-18T14:25:40", shape="explorer", file="downloaded-logs-20250318-153901.json", outcome="failed", region="us-east4", zone="us-east4-c",
    pip_installed="transformers-4.48.3 sentencepiece-0.2.0 tokenizers-0.21.0",
    options="{'runner': 'DataflowRunner', 'project': 'pinecrest-health-nlp', 'region': 'us-east4', 'sdk_container_image': 'gcr.io/pinecrest-health-nlp/beam-medcoder:2025-03-14', 'dataflow_service_options': ['worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver'], 'machine_type': 'a2-highgpu-1g', 'experiments': ['use_runner_v2', 'no_use_multiple_sdk_containers'], 'save_main_session': True}",
    user_logger="medcoder/model.py:40",
    stack="Beam 2.63.0 (Py 3.10); 1 x a2-highgpu-1g (NVIDIA A100 40GB); torch 2.5.1, transformers 4.48.3, no accelerate",
    family="missing Python dependency for big-model loading (accelerate not installed)",
    one_line="setup() loads the 8B coder with device_map='cuda' but the slimmed image dropped accelerate; transformers raises 'Using `low_cpu_mem_usage=True` or a `device_map` requires Accelerate' in every setup.",
    summary="The image was rebuilt on 2025-03-14 from a slimmed requirements list that no longer contains accelerate. MedCoder.setup() calls AutoModelForCausalLM.from_pretrained('/models/medcoder-8b', torch_dtype=torch.bfloat16, device_map='cuda'); with a device_map transformers needs accelerate and raises ImportError before loading anything, so every attempt of the work item fails.",
    fix="Add accelerate (>=0.26.0) back to the image/requirements, or load without device_map and call .to('cuda').",
    setup=dict(hardware="1 x a2-highgpu-1g (1 x NVIDIA A100 40GB), us-east4-c", sdk="apache-beam[gcp] 2.63.0, Python 3.10",
        image="gcr.io/pinecrest-health-nlp/beam-medcoder:2025-03-14 (torch 2.5.1+cu124, transformers 4.48.3; accelerate removed)",
        pipeline="ReadFromBigQuery(notes) -> Redact -> MedCoder (Llama-3.1-8B fine-tune, bf16) -> WriteToBigQuery",
        gpu_option="--dataflow_service_options=worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver"),
)
ACC = "ImportError: Using `low_cpu_mem_usage=True` or a `device_map` requires Accelerate: `pip install 'accelerate>=0.26.0'`"
C10["evidence"] = [
    "Using `low_cpu_mem_usage=True` or a `device_map` requires Accelerate: `pip install 'accelerate>=0.26.0'`",
    "Loading /models/medcoder-8b (bf16, device_map='cuda')",
    "The job failed because a work item has failed 4 times.",
]
C10["red_herrings"] = [
    ("2025-03-18 14:31:02.118843: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:8310] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered",
     "TensorFlow (pulled in by a redaction library) factory-registration noise; harmless."),
    ("2025-03-18 14:31:02.131007: E external/local_xla/xla/stream_executor/cuda/cuda_blas.cc:1418] Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered",
     "Same harmless TF factory noise."),
    ("Redactor fallback: spaCy model en_core_web_trf not found, using en_core_web_sm", "Redaction falls back to the small model by design."),
    ("Found device 0 with properties: name=NVIDIA A100-SXM4-40GB, 39.4 GiB free (no out of memory risk for 16 GB model)", "Own diagnostic; mentions out of memory harmlessly."),
]
C10["sources"] = [
    (ACC, "huggingface/transformers src/transformers/modeling_utils.py from_pretrained (v4.46-4.49; ACCELERATE_MIN_VERSION 0.26.0); real tracebacks quoted publicly"),
    ("Unable to register cuDNN factory / cuBLAS factory ...", "tensorflow xla stream_executor cuda_dnn.cc / cuda_blas.cc (TF 2.16-2.18)"),
]
C10["synthetic"] = ["ids, names, timestamps", "pipeline INFO lines, redactor fallback line, device diagnostic", "traceback line numbers"]

def ev10(c, rng):
    py = c["pyroot"]
    def attempt(c, rng, t, wi, k):
        p = "sdk-0-0"
        L = [D(c, wi, t - 20, "ERROR", C10["red_herrings"][0][0]), D(c, wi, t - 19.99, "ERROR", C10["red_herrings"][1][0]),
             W(c, wi, p, t - 15, "WARNING", C10["red_herrings"][2][0], logger=py + "/medcoder/redact.py:22"),
             W(c, wi, p, t - 4, "INFO", C10["red_herrings"][3][0]),
             W(c, wi, p, t - 2, "INFO", "Loading /models/medcoder-8b (bf16, device_map='cuda')")]
        frames = beam_setup_frames(py) + [
            (py + "/medcoder/model.py", 37, "setup", "self._model = AutoModelForCausalLM.from_pretrained("),
            (py + "/transformers/models/auto/auto_factory.py", 564, "from_pretrained", "return model_class.from_pretrained("),
            (py + "/transformers/modeling_utils.py", 3620, "from_pretrained", "raise ImportError("),
        ]
        trace = tb(frames, ACC)
        L.append(W(c, wi, p, t, "ERROR", trace, logger=py + "/apache_beam/runners/worker/sdk_worker.py:315", thread="Thread-13"))
        return L, trace
    return failed_batch(c, rng, attempt, "ReadNotes/Read+Redact+MedCoder+ToRows", t_run=360, gap=75)
C10["filler"] = ["Read {n} discharge notes (page {s})", "Redacted {n} PHI spans in {ms} ms", "Note length p95={k} chars"]
C10["events"] = ev10

# =========================================================== hs13-11 healthy JAX batch
C11 = base_case(case="hs13-11", py="3.12", project="tidewater-climate", job_id="2025-12-02_11_09_37-13377902184561022107",
    job_name="ensemble-downscale-dec", wsuffix=["f4ra", "u8tb"], machine="a2-highgpu-1g", image_tag="jax-downscale:0.7.2",
    start="2025-12-02T19:09:37", shape="sink", file="gcs-sink-export.ndjson", outcome="succeeded", maxw=2, region="us-central1", zone="us-central1-f",
    pip_installed="xarray-2025.11.0 zarr-3.1.3", user_logger="downscale/run.py:120",
    options="{'runner': 'DataflowRunner', 'project': 'tidewater-climate', 'region': 'us-central1', 'sdk_container_image': 'us-central1-docker.pkg.dev/tidewater-climate/ml/jax-downscale:0.7.2', 'dataflow_service_options': ['worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver'], 'machine_type': 'a2-highgpu-1g', 'experiments': ['use_runner_v2', 'no_use_multiple_sdk_containers']}",
    stack="Beam 2.69.0 (Py 3.12); 2 x a2-highgpu-1g (NVIDIA A100 40GB); jax[cuda12] 0.7.2 + Flax",
    family="healthy (noise only)",
    one_line="Healthy: JAX found the A100 and downscaled all ensemble members; buffer-donation warnings, XLA autotuner/ptxas notes, a caught RESOURCE_EXHAUSTED retry with a smaller tile and a retried GCS 429 are noise.",
    summary="No failure. JAX initialised the CUDA backend on each A100 (devices=[CudaDevice(id=0)]), compiled the downscaling step once per worker, processed all 50 ensemble members and the job finished with a normal teardown.",
    fix="None needed.",
    setup=dict(hardware="2 x a2-highgpu-1g (NVIDIA A100 40GB)", sdk="apache-beam[gcp] 2.69.0, Python 3.12",
        image="custom: jax[cuda12]==0.7.2, flax 0.11, xarray, zarr", pipeline="Create(members) -> LoadFields(zarr) -> Downscale (jax.jit) -> WriteZarr",
        gpu_option="--dataflow_service_options=worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver"),
)
C11["evidence"] = ["JAX devices: [CudaDevice(id=0)] backend=gpu", "Member 49 downscaled", "Worker pool stopped."]
C11["red_herrings"] = [
    ("UserWarning: Some donated buffers were not usable: ShapedArray(float32[1,721,1440,8]).\nSee an explanation at https://jax.readthedocs.io/en/latest/faq.html#buffer-donation.",
     "JAX buffer-donation advisory; only costs a copy."),
    ("Tile 1024x1024 hit RESOURCE_EXHAUSTED: Out of memory while trying to allocate 18.73GiB; retrying with 512x512 tiles", "Pipeline's own caught and handled OOM; retry succeeded."),
    ("Retrying GCS read of gs://tidewater-era5/zarr/t2m/.zarray after 429 Too Many Requests (attempt 2)", "Retried read that succeeded."),
    ("Operation ongoing in step s3 for at least 05m00s without outputting or completing in state process", "Lull warning during the first jit compile; the step then completed."),
    ("W external/xla/xla/service/gpu/nvptx_compiler.cc:930] The NVIDIA driver's CUDA version is 12.4 which is older than the PTX compiler version 12.8.93. Because the driver is older than the PTX compiler version, XLA is disabling parallel compilation, which may slow down compilation. You should update your NVIDIA driver or use the NVIDIA-provided CUDA forward compatibility packages.",
     "XLA only disables parallel compilation; compiled and ran correctly."),
    (PIP_ROOT, "pip root-user warning."),
]
C11["sources"] = [
    ("Some donated buffers were not usable: ...", "jax-ml/jax jax/_src/interpreters/mlir.py / pxla warning text"),
    ("The NVIDIA driver's CUDA version is ... older than the PTX compiler version ...", "openxla/xla xla/service/gpu/nvptx_compiler.cc"),
    ("Operation ongoing in step ... for at least ... without outputting or completing in state process", "Dataflow worker lull warning (reference §2f7)"),
]
C11["synthetic"] = ["ids, names, timestamps", "pipeline lines incl. caught OOM and GCS retry wording", "source line numbers"]

def ev11(c, rng):
    py = c["pyroot"]; p = "sdk-0-0"
    ev = job_start(c, 2)
    for i in range(2):
        ev += start_block(c, c["workers"][i], 30 + i * 3)
    ev += [(240, "job", "INFO", "Workers have started successfully."), (245, "job", "INFO", "Executing operation CreateMembers/Read+LoadFields+Downscale+WriteZarr")]
    for i in range(2):
        t = 250 + i * 5
        ev += [W(c, i, p, t, "INFO", "JAX devices: [CudaDevice(id=0)] backend=gpu"),
               D(c, i, t + 30, "ERROR", C11["red_herrings"][4][0]),
               W(c, i, p, t + 330, "WARNING", C11["red_herrings"][3][0], logger="/opt/google/dataflow/harness:progress.go:118", thread="worker"),
               D(c, i, t + 360, "ERROR", "/usr/local/lib/python3.12/site-packages/jax/_src/interpreters/mlir.py:1178: " + C11["red_herrings"][0][0])]
        for m in range(i, 50, 2):
            ev.append(W(c, i, p, t + 400 + m * 95 + rng.uniform(0, 20), "INFO", "Member %d downscaled" % m))
    ev.append(W(c, 0, p, 1400, "WARNING", C11["red_herrings"][1][0], logger=py + "/downscale/run.py:151"))
    ev.append(W(c, 1, p, 900, "WARNING", C11["red_herrings"][2][0], logger=py + "/downscale/io.py:77"))
    ev += filler_lines(c, rng, max(0, 170 - len(ev) - 6), 300, 5100, c["workers"], (p,))
    ev += teardown(5300, 2)
    return ev
C11["filler"] = ["Loaded {n} time steps for member {s}", "Downscale step {n} took {ms} ms", "Wrote chunk {k} to gs://tidewater-downscaled/dec/"]
C11["events"] = ev11

# =========================================================== hs13-12 healthy streaming PyTorch
C12 = base_case(case="hs13-12", py="3.11", project="cobalt-media-ops", job_id="2026-02-10_00_15_03-8871203356612049971",
    job_name="clip-tagging-stream", wsuffix=["j3mx", "s5kp"], machine="g2-standard-8", image_tag="clip-tagger:2026.02.0",
    start="2026-02-10T08:15:03", shape="gz", file="logs.ndjson.gz", outcome="succeeded", maxw=3,
    pip_installed="open-clip-torch-3.1.0 ftfy-6.3.1", user_logger="tagger/dofn.py:95",
    options="{'runner': 'DataflowRunner', 'project': 'cobalt-media-ops', 'region': 'us-central1', 'streaming': True, 'enable_streaming_engine': True, 'sdk_container_image': 'us-central1-docker.pkg.dev/cobalt-media-ops/ml/clip-tagger:2026.02.0', 'dataflow_service_options': ['worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver'], 'machine_type': 'g2-standard-8', 'experiments': ['use_runner_v2', 'no_use_multiple_sdk_containers']}",
    stack="Beam 2.70.0 (Py 3.11), streaming; 1-2 x g2-standard-8 (NVIDIA L4); torch 2.8.0 + torch.compile, open_clip",
    family="healthy (noise only)",
    one_line="Healthy streaming: CLIP tagging on the L4 keeps up; Inductor's 'Not enough SMs to use max_autotune_gemm mode', TF32 advice, a caught OOM batch split, a retried BigQuery 503 and tokenizers fork notices are noise.",
    summary="No failure. The streaming job tagged Pub/Sub video keyframes with an open_clip ViT-B/16 compiled by torch.compile on the L4, autoscaled to 2 workers at peak and back, with stable latency for the whole export window.",
    fix="None needed.",
    setup=dict(hardware="1-2 x g2-standard-8, NVIDIA L4", sdk="apache-beam[gcp] 2.70.0, Python 3.11, streaming (Streaming Engine)",
        image="custom: torch 2.8.0+cu128, open-clip-torch 3.1.0", pipeline="ReadFromPubSub -> FetchFrame -> TagFrames (torch.compile mode='max-autotune') -> WriteToBigQuery",
        gpu_option="--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"),
)
C12["evidence"] = ["Model ready on cuda:0 (NVIDIA L4), compiled in 212 s", "Window 08:45-08:46: 1184 frames tagged, p95 latency 0.41 s", "Autoscaling: Resized worker pool from 2 to 1."]
C12["red_herrings"] = [
    ("Not enough SMs to use max_autotune_gemm mode", "Inductor skips GEMM autotuning on GPUs with few SMs; other autotuning still applies."),
    ("TensorFloat32 tensor cores for float32 matrix multiplication available but not enabled. Consider setting `torch.set_float32_matmul_precision('high')` for better performance.",
     "Performance advice from Inductor."),
    ("CUDA out of memory on batch of 256 frames; splitting into 2 x 128", "Pipeline's own caught OOM, retried with smaller batches successfully."),
    ("Retrying BigQuery Storage Write append after 503 Service Unavailable (attempt 1)", "Retried append that succeeded."),
    (TOK_FORK, "tokenizers fork notice on stderr."),
]
C12["sources"] = [
    ("Not enough SMs to use max_autotune_gemm mode", "pytorch/pytorch torch/_inductor/utils.py is_big_gpu (v2.x)"),
    ("TensorFloat32 tensor cores for float32 matrix multiplication available but not enabled...", "pytorch/pytorch torch/_inductor/compile_fx.py"),
    (TOK_FORK, "huggingface/tokenizers parallelism.rs"),
    ("Autoscaling: Resized worker pool from N to M.", "Dataflow job message (reference §2i)"),
]
C12["synthetic"] = ["ids, names, timestamps", "pipeline window/latency lines, OOM split and BigQuery retry wording"]

def ev12(c, rng):
    py = c["pyroot"]; p = "sdk-0-0"
    ev = job_start(c, 1, streaming=True)
    ev += start_block(c, c["workers"][0], 30)
    ev += [(240, "job", "INFO", "Workers have started successfully."), (245, "job", "INFO", "Executing operation ReadFrames/Read+FetchFrame+TagFrames+WriteTags")]
    ev += start_block(c, c["workers"][1], 1500)[-11:]
    ev.append((1490, "job", "INFO", "Autoscaling: Raised the number of workers to 2 so that the pipeline can catch up with its backlog and keep up with its input rate."))
    ev.append((3300, "job", "INFO", "Autoscaling: Resized worker pool from 2 to 1."))
    for i, t in ((0, 250), (1, 1600)):
        ev += [D(c, i, t + 60, "ERROR", "W0210 %s.%06d 412 torch/_inductor/utils.py:1436] [0/0] Not enough SMs to use max_autotune_gemm mode" % ("08:%02d:%02d" % (20 + i * 22, t % 60), rng.randint(0, 999999))),
               D(c, i, t + 61, "ERROR", "/usr/local/lib/python3.11/site-packages/torch/_inductor/compile_fx.py:282: UserWarning: " + C12["red_herrings"][1][0]),
               D(c, i, t + 62, "ERROR", TOK_FORK),
               W(c, i, p, t + 212, "INFO", "Model ready on cuda:0 (NVIDIA L4), compiled in 212 s" if i == 0 else "Model ready on cuda:0 (NVIDIA L4), compiled in 198 s")]
    for m in range(30):
        tm = 600 + m * 60
        ev.append(W(c, 0, p, tm, "INFO", "Window 08:%02d-08:%02d: %d frames tagged, p95 latency 0.%02d s" % ((30 + m) % 60, (31 + m) % 60, 1184 if m == 15 else rng.randint(700, 1500), 41 if m == 15 else rng.randint(30, 60))))
    ev.append(W(c, 0, p, 1800, "WARNING", C12["red_herrings"][2][0], logger=py + "/tagger/dofn.py:131"))
    ev.append(W(c, 1, p, 2400, "WARNING", C12["red_herrings"][3][0], logger=py + "/apache_beam/io/gcp/bigquery_tools.py:1620"))
    ev += filler_lines(c, rng, max(0, 160 - len(ev)), 300, 3600, c["workers"][:1], (p,))
    return ev
C12["filler"] = ["Fetched keyframe {k} ({n} KiB)", "Tagged batch of {n} frames in {ms} ms", "Top tag share: outdoor={s}%"]
C12["events"] = ev12

CASES = [C01, C02, C03, C04, C05, C06, C07, C08, C09, C10, C11, C12]
