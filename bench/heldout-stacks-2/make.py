#!/usr/bin/env python3
"""Generate the heldout-stacks-2 evaluation set for gpudiag.

Twelve synthetic Google Cloud Logging exports (``gcloud logging read
--format=json`` shape, newest first) of Apache Beam / Dataflow GPU jobs, each
with a ``truth.yaml``.  The *envelopes* (LogEntry JSON, insertIds, timestamps,
worker names, job ids, ordering, noise volume) are synthetic; the library and
platform *wording* of every evidence line was copied from public sources that
are cited in each truth.yaml (``sources``).

stdlib only, deterministic: running it twice produces byte-identical files.
Usage:  python3 make.py            (writes ./cases/<name>/{export.json,truth.yaml})
"""

import datetime as _dt
import hashlib
import json
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")

B36 = "0123456789abcdefghijklmnopqrstuvwxyz"
HEX = "0123456789abcdef"

SEV_OF_JOBMSG = {"DEBUG": "DEBUG", "DETAILED": "INFO", "BASIC": "INFO",
                 "WARNING": "WARNING", "ERROR": "ERROR"}


def _ns(year, month, day, hh, mm, ss):
    t = _dt.datetime(year, month, day, hh, mm, ss, tzinfo=_dt.timezone.utc)
    return int(t.timestamp()) * 1_000_000_000


def fmt_ts(ns, digits=9, strip=True):
    sec, frac = divmod(ns, 1_000_000_000)
    base = _dt.datetime.fromtimestamp(sec, tz=_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    f = ("%09d" % frac)[:digits]
    if strip:
        f = f.rstrip("0")
    return base + ("." + f if f else "") + "Z"


def tb(frames, last):
    """Python traceback text. frames: list of (file, line, func, code or None)."""
    out = ["Traceback (most recent call last):"]
    for fr in frames:
        f, ln, fn = fr[0], fr[1], fr[2]
        code = fr[3] if len(fr) > 3 else None
        out.append('  File "%s", line %d, in %s' % (f, ln, fn))
        if code:
            out.append("    " + code)
    out.append(last)
    return "\n".join(out)


class Job:
    """Accumulates LogEntry dicts for one Dataflow job."""

    def __init__(self, name, *, seed, project, project_number, region, zone, job_name,
                 job_id, start, machine, gpu, gpu_count, py, beam, image,
                 disk_gb=None, max_workers=1, jobmsg_project_number=False,
                 extra_experiments=(), harness_threads=None, driver_opt="install-nvidia-driver",
                 extra_options=None):
        self.name = name
        self.rng = random.Random(seed)
        self.project = project
        self.project_number = project_number
        self.region = region
        self.zone = zone
        self.job_name = job_name
        self.job_id = job_id
        self.now = start
        self.machine = machine
        self.gpu = gpu
        self.gpu_count = gpu_count
        self.py = py
        self.beam = beam
        self.image = image
        self.disk_gb = disk_gb
        self.max_workers = max_workers
        self.jobmsg_project_number = jobmsg_project_number
        self.extra_experiments = list(extra_experiments)
        self.harness_threads = harness_threads
        self.driver_opt = driver_opt
        self.extra_options = extra_options or {}
        self.entries = []
        self.vms = {}
        self.site = "/usr/local/lib/python%s/site-packages" % py
        self._seq = 0

    # ---- time -----------------------------------------------------------
    def wait(self, seconds):
        self.now += int(seconds * 1_000_000_000)

    def _step(self, lo=0.0004, hi=0.09):
        self.now += int(self.rng.uniform(lo, hi) * 1_000_000_000)

    # ---- ids --------------------------------------------------------------
    def _rand(self, alphabet, n):
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def vm(self, key="w0"):
        if key not in self.vms:
            short = self.job_name.replace("_", "-")[:26].rstrip("-")
            stamp = _dt.datetime.fromtimestamp(self.now // 1_000_000_000,
                                               tz=_dt.timezone.utc).strftime("%m%d%H%M")
            name = "%s-%s-%s-harness-%s" % (short, stamp, self._rand(B36[10:], 4), self._rand(B36[10:] + "0123456789", 4))
            vid = str(self.rng.randrange(10 ** 18, 9 * 10 ** 18))
            self.vms[key] = (name, vid)
        return self.vms[key]

    def pipeline_options(self, extra=None):
        acc = "worker_accelerator=type:%s;count:%d;%s" % (self.gpu, self.gpu_count, self.driver_opt)
        opts = {
            "runner": "DataflowRunner",
            "project": self.project,
            "job_name": self.job_name,
            "staging_location": "gs://%s-dataflow/staging" % self.project,
            "temp_location": "gs://%s-dataflow/tmp" % self.project,
            "region": self.region,
            "dataflow_service_options": [acc],
            "machine_type": self.machine,
            "max_num_workers": self.max_workers,
        }
        if self.disk_gb:
            opts["disk_size_gb"] = self.disk_gb
        if self.harness_threads:
            opts["number_of_worker_harness_threads"] = self.harness_threads
        opts["sdk_container_image"] = self.image
        opts["sdk_location"] = "container"
        exps = ["use_runner_v2", "no_use_multiple_sdk_containers"] + self.extra_experiments
        opts["experiments"] = exps + ["beam_fn_api", "use_unified_worker", "use_portable_job_submission"]
        opts["save_main_session"] = True
        opts.update(self.extra_options)
        if extra:
            opts.update(extra)
        return opts

    # ---- entry builders --------------------------------------------------
    def _base(self, log, severity, payload_key, payload, vm_key=None, digits=9, recv_hi=3.0,
              insert_id=None, step_id=""):
        self._seq += 1
        ns = self.now
        res_project = self.project
        if log == "job-message" and self.jobmsg_project_number:
            res_project = self.project_number
        labels = {}
        if vm_key is not None:
            vm_name, vm_id = self.vm(vm_key)
            labels.update({
                "compute.googleapis.com/resource_type": "instance",
                "compute.googleapis.com/resource_name": vm_name,
                "compute.googleapis.com/resource_id": vm_id,
            })
        if log != "worker" and log != "harness":
            labels["dataflow.googleapis.com/log_type"] = "system"
        labels.update({
            "dataflow.googleapis.com/region": self.region,
            "dataflow.googleapis.com/job_name": self.job_name,
            "dataflow.googleapis.com/job_id": self.job_id,
        })
        if insert_id is None:
            if log == "job-message":
                insert_id = self._rand(B36, self.rng.choice([10, 11, 12]))
            elif log == "system":
                insert_id = "s=%s;i=%x;b=%s;m=%x;t=%x;x=%s" % (
                    self._rand(HEX, 32), self.rng.randrange(100, 9000), self._rand(HEX, 32),
                    self.rng.randrange(10 ** 5, 10 ** 9), ns // 1000, self._rand(HEX, 16))
            else:
                insert_id = self._rand(B36, self.rng.choice([13, 14, 15]))
        entry = {"insertId": insert_id, payload_key: payload,
                 "resource": {"type": "dataflow_step", "labels": {
                     "job_id": self.job_id, "job_name": self.job_name,
                     "project_id": res_project, "region": self.region, "step_id": step_id}},
                 "timestamp": fmt_ts(ns, digits, strip=(self._seq % 3 != 0)),
                 "severity": severity,
                 "labels": labels,
                 "logName": "projects/%s/logs/dataflow.googleapis.com%%2F%s" % (self.project, log),
                 "receiveTimestamp": fmt_ts(ns + int(self.rng.uniform(0.15, recv_hi) * 1e9), 9, strip=False)}
        self.entries.append((ns, self._seq, entry))
        self._step()
        return entry

    def jm(self, text, importance="DETAILED"):
        return self._base("job-message", SEV_OF_JOBMSG[importance], "textPayload", text)

    def worker(self, msg, sev="INFO", logger=None, thread=None, sdk="sdk-0-0", vm_key="w0",
               step=None, exception=None):
        vm_name, _ = self.vm(vm_key)
        if logger is None:
            logger = self.site + "/apache_beam/runners/worker/sdk_worker_main.py:196"
        if thread is None:
            thread = "MainThread"
        p = {"job": self.job_id, "logger": logger, "message": msg,
             "portability_worker_id": sdk, "thread": thread, "worker": vm_name}
        if step:
            p["step"] = step
        if exception:
            p["exception"] = exception
        return self._base("worker", sev, "jsonPayload", p, vm_key=vm_key, recv_hi=8.0,
                          step_id=step or "")

    def docker(self, msg, sev="ERROR", vm_key="w0"):
        return self._base("docker", sev, "jsonPayload", {"message": msg}, vm_key=vm_key)

    def docker_lines(self, text, sev="ERROR", vm_key="w0", lo=0.0002, hi=0.004):
        for line in text.split("\n"):
            self.docker(line, sev, vm_key)
            self.now += int(self.rng.uniform(lo, hi) * 1e9)

    def kubelet(self, msg, sev="INFO", vm_key="w0"):
        return self._base("kubelet", sev, "jsonPayload", {"message": msg}, vm_key=vm_key)

    def system(self, msg, sev="INFO", vm_key="w0"):
        return self._base("system", sev, "jsonPayload", {"message": msg}, vm_key=vm_key, digits=6)

    def startup(self, msg, sev="INFO", vm_key="w0"):
        return self._base("worker-startup", sev, "jsonPayload", {"message": msg}, vm_key=vm_key)

    def harness(self, msg, sev="INFO", vm_key="w0"):
        vm_name, _ = self.vm(vm_key)
        return self._base("harness", sev, "jsonPayload",
                          {"message": msg, "worker": vm_name, "job": self.job_id}, vm_key=vm_key)

    # ---- composite blocks -------------------------------------------------
    def kt(self, fmt_letter="I"):
        """klog-style prefix for kubelet lines at the current time."""
        t = _dt.datetime.fromtimestamp(self.now / 1e9, tz=_dt.timezone.utc)
        return "%s%s %s" % (fmt_letter, t.strftime("%m%d"), t.strftime("%H:%M:%S.%f"))

    def tf_ts(self):
        t = _dt.datetime.fromtimestamp(self.now / 1e9, tz=_dt.timezone.utc)
        return t.strftime("%Y-%m-%d %H:%M:%S.%f")

    def absl(self, letter, tid, where, text):
        us = self.now // 1000
        return "%s0000 00:00:%d.%06d %7d %s] %s" % (letter, us // 1_000_000, us % 1_000_000, tid, where, text)

    def dataflow_prologue(self, fusions, first_op, workers=1, autoscale_msg=True):
        self.jm("Autoscaling is enabled for job %s. The number of workers will be between 1 and %d."
                % (self.job_id, self.max_workers), "DETAILED")
        self.jm("Autoscaling was automatically enabled for job %s." % self.job_id, "DETAILED")
        self.jm("Worker configuration: %s in %s." % (self.machine, self.zone), "BASIC")
        for t in ["Expanding SplittableParDo operations into optimizable parts.",
                  "Expanding CoGroupByKey operations into optimizable parts.",
                  "Expanding GroupByKey operations into optimizable parts.",
                  "Lifting ValueCombiningMappingFns into MergeBucketsMappingFns",
                  "Annotating graph with Autotuner information.",
                  "Fusing adjacent ParDo, Read, Write, and Flatten operations"]:
            self.jm(t, "DETAILED")
        for a, b in fusions:
            self.jm("Fusing consumer %s into %s" % (b, a), "DETAILED")
        self.jm("Workflow config is missing a default resource spec.", "DEBUG")
        self.jm("Adding StepResource setup and teardown to workflow graph.", "DEBUG")
        self.jm("Adding workflow start and stop steps.", "DEBUG")
        self.jm("Assigning stage ids.", "DEBUG")
        self.wait(2.1)
        self.jm("Starting worker pool setup.", "DEBUG")
        self.jm("Starting %d workers in %s..." % (workers, self.zone), "BASIC")
        self.jm("Executing operation %s" % first_op, "BASIC")

    def workers_up(self, **boot):
        self.jm("Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).", "DETAILED")
        self.wait(21)
        self.vm_boot(**boot)
        self.wait(4)
        self.jm("Workers have started successfully.", "DETAILED")

    def all_workers_ready(self):
        self.jm("All workers have finished the startup processes and began to receive work requests.", "BASIC")

    def vm_boot(self, vm_key="w0", driver="570.172.08", gpu_name="NVIDIA L4"):
        """Host-side noise on a fresh worker VM: kernel/journald, GPU driver install,
        kubelet start-up chatter (all benign)."""
        self.system("ima: No architecture policies found", vm_key=vm_key)
        self.system("ima: Can not allocate sha384 (reason: -2)", vm_key=vm_key)
        self.wait(4.2)
        self.startup("Checking if this is the only cos-gpu-installer that is running.", vm_key=vm_key)
        self.startup("Checking cached version", vm_key=vm_key)
        self.startup("Cache file /usr/local/nvidia/.cache not found.", vm_key=vm_key)
        self.startup("Did not find cached version, building the drivers...", vm_key=vm_key)
        self.wait(9.5)
        self.startup("Installing GPU driver version %s" % driver, vm_key=vm_key)
        self.wait(38.0)
        self.startup("Verifying GPU driver installation", vm_key=vm_key)
        self.startup("Finished installing the drivers.", vm_key=vm_key)
        self.wait(3.0)
        self.kubelet('%s     912 plugins.go:726] "Error initializing dynamic plugin prober" err="error (re-)creating driver directory: mkdir /usr/libexec/kubernetes: read-only file system"' % self.kt("E"), "ERROR", vm_key=vm_key)
        self.kubelet('%s     912 kubelet.go:2346] "Skipping pod synchronization" err="[container runtime status check may not have completed yet, PLEG is not healthy: pleg has yet to be successful]"' % self.kt("E"), "ERROR", vm_key=vm_key)
        self.wait(6.0)

    def sdk_boot(self, vm_key="w0", sdk="sdk-0-0", options=None, ctl_port=12371, status_port=None):
        """Python SDK container start: boot.go (docker log) then harness start (worker log)."""
        self.docker("Executing Python (worker %s): python -m apache_beam.runners.worker.sdk_worker_main" % sdk,
                    "INFO", vm_key)
        self.wait(2.4)
        main = self.site + "/apache_beam/runners/worker/sdk_worker_main.py"
        sw = self.site + "/apache_beam/runners/worker/sdk_worker.py"
        ws = self.site + "/apache_beam/runners/worker/worker_status.py"
        self.worker("Logging handler created.", logger=main + ":118", sdk=sdk, vm_key=vm_key)
        self.worker("semi_persistent_directory: /var/opt/google", logger=main + ":143", sdk=sdk, vm_key=vm_key)
        opts = options if options is not None else self.pipeline_options()
        self.worker("Pipeline_options: %r" % (opts,), logger=main + ":173", sdk=sdk, vm_key=vm_key)
        self.worker("Status HTTP server running at localhost:%d" % (status_port or self.rng.randrange(33000, 46000)),
                    logger=ws + ":139", thread="Thread-2", sdk=sdk, vm_key=vm_key)
        self.worker("Python sdk harness starting.", logger=main + ":226", sdk=sdk, vm_key=vm_key)
        self.worker("Creating insecure control channel for localhost:%d." % ctl_port, logger=sw + ":204", sdk=sdk, vm_key=vm_key)
        self.worker("Control channel established.", logger=sw + ":212", sdk=sdk, vm_key=vm_key)
        self.worker("Initializing SDKHarness with unbounded number of workers.", logger=sw + ":255", sdk=sdk, vm_key=vm_key)
        self.worker("Creating insecure state channel for localhost:%d." % ctl_port, logger=sw + ":1040", sdk=sdk, vm_key=vm_key,
                    thread="Thread-11")
        self.worker("State channel established.", logger=sw + ":1047", sdk=sdk, vm_key=vm_key, thread="Thread-11")
        self.worker("Creating client data channel for localhost:%d" % ctl_port,
                    logger=self.site + "/apache_beam/runners/worker/data_plane.py:803", sdk=sdk, vm_key=vm_key,
                    thread="Thread-11")

    def beam_setup_tb(self, tail_frames, last, py_site=None):
        s = py_site or self.site
        frames = [
            (s + "/apache_beam/runners/worker/sdk_worker.py", 313, "_execute", "response = task()"),
            (s + "/apache_beam/runners/worker/sdk_worker.py", 388, "<lambda>",
             "lambda: self.create_worker().do_instruction(request), request)"),
            (s + "/apache_beam/runners/worker/sdk_worker.py", 658, "do_instruction", "return getattr(self, request_type)("),
            (s + "/apache_beam/runners/worker/sdk_worker.py", 689, "process_bundle",
             "bundle_processor = self.bundle_processor_cache.get("),
            (s + "/apache_beam/runners/worker/sdk_worker.py", 512, "get", "processor = bundle_processor.BundleProcessor("),
            (s + "/apache_beam/runners/worker/bundle_processor.py", 1135, "__init__", "op.setup(self.data_sampler)"),
            ("apache_beam/runners/worker/operations.py", 875, "apache_beam.runners.worker.operations.DoOperation.setup"),
            ("apache_beam/runners/worker/operations.py", 925, "apache_beam.runners.worker.operations.DoOperation.setup"),
            ("apache_beam/runners/common.py", 1521, "apache_beam.runners.common.DoFnRunner.setup"),
            ("apache_beam/runners/common.py", 1517, "apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method"),
            ("apache_beam/runners/common.py", 1565, "apache_beam.runners.common.DoFnRunner._reraise_augmented"),
            ("apache_beam/runners/common.py", 1515, "apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method"),
            ("apache_beam/runners/common.py", 567, "apache_beam.runners.common.DoFnInvoker.invoke_setup"),
        ]
        return tb(frames + list(tail_frames), last)

    def beam_process_tb(self, tail_frames, last):
        s = self.site
        frames = [
            ("apache_beam/runners/common.py", 1498, "apache_beam.runners.common.DoFnRunner.process"),
            ("apache_beam/runners/common.py", 1050, "apache_beam.runners.common.PerWindowInvoker.invoke_process"),
            ("apache_beam/runners/common.py", 1215, "apache_beam.runners.common.PerWindowInvoker._invoke_process_per_window"),
            ("apache_beam/runners/common.py", 1594, "apache_beam.runners.common._OutputHandler.handle_process_outputs"),
        ]
        return tb(frames + list(tail_frames), last)

    def instr_error(self, text, vm_key="w0", sdk="sdk-0-0"):
        iid = "process_bundle-%d-%d" % (self.rng.randrange(10 ** 18, 9 * 10 ** 18), self.rng.randrange(1, 40))
        self.worker("Error processing instruction %s. Original traceback is\n%s\n" % (iid, text), "ERROR",
                    logger=self.site + "/apache_beam/runners/worker/sdk_worker.py:315",
                    thread="Thread-%d" % self.rng.randrange(12, 40), sdk=sdk, vm_key=vm_key)

    def work_item_failure(self, stage_desc, root_causes):
        parts = []
        for vm_name, rc in root_causes:
            parts.append("\n      Root cause: %s\n      Worker ID: %s," % (rc.split("\n")[0], vm_name))
        text = ("Workflow failed. Causes: %s failed., The job failed because a work item has failed 4 times. "
                "Look in previous log entries for the cause of each one of the 4 failures. If the logs only contain "
                "generic timeout errors related to accessing external resources, such as MongoDB, verify that the "
                "worker service account has permission to access the resource's subnetwork. For more information, "
                "see https://cloud.google.com/dataflow/docs/guides/common-errors. The work item was attempted on "
                "these workers: \n" % stage_desc) + "".join(parts)
        self.jm(text, "ERROR")

    def teardown(self, workers=1, failed=True):
        self.wait(0.8)
        self.jm("Cleaning up.", "DETAILED")
        self.jm("Starting worker pool teardown.", "DEBUG")
        self.jm("Stopping worker pool...", "BASIC")
        self.wait(95)
        self.jm("Autoscaling: Resized worker pool from %d to 0." % workers, "DETAILED")
        self.jm("Worker pool stopped.", "BASIC")
        self.jm("Tearing down pending resources...", "DEBUG")

    # ---- output -------------------------------------------------------------
    def export(self):
        ordered = sorted(self.entries, key=lambda e: (e[0], e[1]), reverse=True)
        return [e[2] for e in ordered]


def yq(s):
    return json.dumps(s, ensure_ascii=True)


def write_truth(path, t):
    lines = []
    for key in ["job", "outcome", "family", "root_cause", "setup", "evidence", "red_herrings", "sources", "synthetic"]:
        if key not in t:
            continue
        v = t[key]
        if isinstance(v, list):
            if not v:
                lines.append("%s: []" % key)
                continue
            lines.append("%s:" % key)
            for item in v:
                lines.append("  - %s" % yq(item))
        elif isinstance(v, dict):
            lines.append("%s:" % key)
            for k2, v2 in v.items():
                lines.append("  %s: %s" % (k2, yq(v2)))
        else:
            lines.append("%s: %s" % (key, yq(v)))
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


# =============================================================================
# 1. model-server: vLLM (via Beam's VLLMCompletionsModelHandler) asked for
#    bfloat16 on a Tesla T4 (compute capability 7.5).
# =============================================================================
def job_vllm_bf16_t4():
    j = Job("vllm-bf16-on-t4", seed=101, project="acme-genai-batch", project_number="318274650192",
            region="us-central1", zone="us-central1-c", job_name="ticket-summaries-vllm-20251002",
            job_id="2025-10-02_00_14_33-7741925538842230117", start=_ns(2025, 10, 2, 7, 14, 33),
            machine="n1-standard-8", gpu="nvidia-tesla-t4", gpu_count=1, py="3.12", beam="2.66.0",
            image="us-central1-docker.pkg.dev/acme-genai-batch/beam/vllm-runinference:0.8.3-py312",
            disk_gb=100, max_workers=2, jobmsg_project_number=True,
            extra_options={"input": "gs://acme-genai-batch-data/tickets/2025-10-01/*.jsonl",
                           "output_table": "acme-genai-batch:support.ticket_summaries"})
    s = j.site
    vi = s + "/apache_beam/ml/inference/vllm_inference.py"
    steps = "ReadTickets/Read+ParseJson+BuildPrompt+RunInference/BeamML_RunInference_Preprocess-0+RunInference/BeamML_RunInference+RunInference/BeamML_RunInference_Postprocess-0+ToRow+WriteToBigQuery/_StreamToBigQuery/StreamInsertRows/ParDo(BigQueryWriteFn)"
    j.dataflow_prologue([("ReadTickets/Read", "ParseJson"), ("ParseJson", "BuildPrompt"),
                         ("BuildPrompt", "RunInference/BeamML_RunInference")], steps)
    j.wait(41)
    j.workers_up(driver="550.90.07")
    j.sdk_boot()
    j.all_workers_ready()
    j.worker("vllm module successfully imported.", logger=vi + ":37")
    j.worker("Dataflow worker has 1 x nvidia-tesla-t4; model handler VLLMCompletionsModelHandler(model_name='Qwen/Qwen2.5-3B-Instruct')",
             logger="/usr/local/src/pipeline/summarize.py:64")

    def clock():
        t = _dt.datetime.fromtimestamp(j.now / 1e9, tz=_dt.timezone.utc)
        return t.strftime("%m-%d %H:%M:%S")

    relay_logger = vi + ":71"
    engine_tb = [
        "Process SpawnProcess-1:",
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.12/multiprocessing/process.py", line 314, in _bootstrap',
        "    self.run()",
        '  File "/usr/local/lib/python3.12/multiprocessing/process.py", line 108, in run',
        "    self._target(*self._args, **self._kwargs)",
        '  File "%s/vllm/engine/multiprocessing/engine.py", line 435, in run_mp_engine' % s,
        "    raise e",
        '  File "%s/vllm/engine/multiprocessing/engine.py", line 421, in run_mp_engine' % s,
        "    engine = MQLLMEngine.from_vllm_config(",
        '  File "%s/vllm/engine/multiprocessing/engine.py", line 128, in from_vllm_config' % s,
        "    return cls(",
        '  File "%s/vllm/engine/multiprocessing/engine.py", line 82, in __init__' % s,
        "    self.engine = LLMEngine(*args, **kwargs)",
        '  File "%s/vllm/engine/llm_engine.py", line 281, in __init__' % s,
        "    self.model_executor = executor_class(vllm_config=vllm_config, )",
        '  File "%s/vllm/executor/executor_base.py", line 52, in __init__' % s,
        "    self._init_executor()",
        '  File "%s/vllm/executor/uniproc_executor.py", line 46, in _init_executor' % s,
        '    self.collective_rpc("init_device")',
        '  File "%s/vllm/executor/uniproc_executor.py", line 56, in collective_rpc' % s,
        "    answer = run_method(self.driver_worker, method, args, kwargs)",
        '  File "%s/vllm/utils.py", line 2347, in run_method' % s,
        "    return func(*args, **kwargs)",
        '  File "%s/vllm/worker/worker_base.py", line 604, in init_device' % s,
        "    self.worker.init_device()  # type: ignore",
        '  File "%s/vllm/worker/worker.py", line 157, in init_device' % s,
        "    _check_if_gpu_supports_dtype(self.model_config.dtype)",
        '  File "%s/vllm/worker/worker.py", line 526, in _check_if_gpu_supports_dtype' % s,
        "    raise ValueError(",
        "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5. You can use float16 instead by explicitly setting the `dtype` flag in CLI, for example: --dtype=half.",
    ]
    api_tb = [
        "Traceback (most recent call last):",
        '  File "<frozen runpy>", line 198, in _run_module_as_main',
        '  File "<frozen runpy>", line 88, in _run_code',
        '  File "%s/vllm/entrypoints/openai/api_server.py", line 1121, in <module>' % s,
        "    uvloop.run(run_server(args))",
        '  File "%s/uvloop/__init__.py", line 109, in run' % s,
        "    return __asyncio.run(",
        '  File "%s/vllm/entrypoints/openai/api_server.py", line 1069, in run_server' % s,
        "    async with build_async_engine_client(args) as engine_client:",
        '  File "/usr/local/lib/python3.12/contextlib.py", line 210, in __aenter__',
        "    return await anext(self.gen)",
        '  File "%s/vllm/entrypoints/openai/api_server.py", line 146, in build_async_engine_client' % s,
        "    async with build_async_engine_client_from_engine_args(",
        '  File "/usr/local/lib/python3.12/contextlib.py", line 210, in __aenter__',
        "    return await anext(self.gen)",
        '  File "%s/vllm/entrypoints/openai/api_server.py", line 269, in build_async_engine_client_from_engine_args' % s,
        "    raise RuntimeError(",
        "RuntimeError: Engine process failed to start. See stack trace for the root cause.",
    ]

    def one_server_start(full):
        port = j.rng.randrange(38000, 52000)
        j.worker("Starting service with ['/usr/local/bin/python' '-m' 'vllm.entrypoints.openai.api_server' '--model' 'Qwen/Qwen2.5-3B-Instruct' '--port' '%d' '--dtype' 'bfloat16' '--max-model-len' '8192']" % port,
                 logger=vi + ":61")
        j.wait(6.3)
        th = "Thread-%d" % j.rng.randrange(20, 60)
        rel = lambda line: j.worker(line, logger=relay_logger, thread=th)
        rel("INFO %s [__init__.py:239] Automatically detected platform cuda." % clock())
        j.wait(3.1)
        if full:
            rel("INFO %s [api_server.py:1034] vLLM API server version 0.8.3" % clock())
            rel("INFO %s [config.py:600] This model supports multiple tasks: {'reward', 'classify', 'embed', 'score', 'generate'}. Defaulting to 'generate'." % clock())
        rel("WARNING %s [arg_utils.py:1708] Compute Capability < 8.0 is not supported by the V1 Engine. Falling back to V0. " % clock())
        rel("INFO %s [api_server.py:246] Started engine process with PID %d" % (clock(), j.rng.randrange(300, 4000)))
        j.wait(4.0)
        if full:
            rel("INFO %s [__init__.py:239] Automatically detected platform cuda." % clock())
        j.wait(2.2)
        rel("INFO %s [llm_engine.py:242] Initializing a V0 LLM engine (v0.8.3) with config: model='Qwen/Qwen2.5-3B-Instruct', speculative_config=None, tokenizer='Qwen/Qwen2.5-3B-Instruct', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, override_neuron_config=None, tokenizer_revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=8192, download_dir=None, load_format=auto, tensor_parallel_size=1, pipeline_parallel_size=1, disable_custom_all_reduce=False, quantization=None, enforce_eager=False, kv_cache_dtype=auto,  device_config=cuda, decoding_config=DecodingConfig(guided_decoding_backend='xgrammar', reasoning_backend=None), observability_config=ObservabilityConfig(show_hidden_metrics=False, otlp_traces_endpoint=None, collect_model_forward_time=False, collect_model_execute_time=False), seed=None, served_model_name=Qwen/Qwen2.5-3B-Instruct, num_scheduler_steps=1, multi_step_stream_outputs=True, enable_prefix_caching=None, chunked_prefill_enabled=False, use_async_output_proc=True, disable_mm_preprocessor_cache=False, mm_processor_kwargs=None, pooler_config=None, compilation_config={\"splitting_ops\":[],\"compile_sizes\":[],\"cudagraph_capture_sizes\":[256,248,240,232,224,216,208,200,192,184,176,168,160,152,144,136,128,120,112,104,96,88,80,72,64,56,48,40,32,24,16,8,4,2,1],\"max_capture_size\":256}, use_cached_outputs=True, " % clock())
        j.wait(1.4)
        if full or j.rng.random() < 0.3:
            rel("INFO %s [cuda.py:240] Cannot use FlashAttention-2 backend for Volta and Turing GPUs." % clock())
            rel("INFO %s [cuda.py:289] Using XFormers backend." % clock())
        j.wait(0.9)
        c = clock()
        if full:
            rel("ERROR %s [engine.py:448] Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5. You can use float16 instead by explicitly setting the `dtype` flag in CLI, for example: --dtype=half." % c)
            for line in engine_tb[1:]:
                rel("ERROR %s [engine.py:448] %s" % (c, line))
            for line in engine_tb:
                rel(line)
        else:
            rel("ERROR %s [engine.py:448] Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5. You can use float16 instead by explicitly setting the `dtype` flag in CLI, for example: --dtype=half." % c)
            for line in engine_tb[-1:]:
                rel(line)
        j.wait(1.6)
        for line in (api_tb if full else [api_tb[-1]]):
            rel(line)
        j.wait(4.9)

    last = ("Exception: Failed to start vLLM server, polling process exited with code 1.  Next time a request is tried, "
            "the server will be restarted [while running 'RunInference/BeamML_RunInference']")
    tail = [
        (s + "/apache_beam/ml/inference/base.py", 1617, "setup", "self._model = self._load_model()"),
        (s + "/apache_beam/ml/inference/base.py", 1588, "_load_model", "model = self._shared_model_handle.acquire(load, tag=self._cur_tag)"),
        (s + "/apache_beam/utils/multi_process_shared.py", 324, "acquire", "return _shared_map.acquire(self._key, constructor_fn, tag)"),
        (s + "/apache_beam/ml/inference/base.py", 1553, "load", "model = self._model_handler.load_model()"),
        (vi, 252, "load_model", "return _VLLMModelServer(self._model_name, self._vllm_server_kwargs)"),
        (vi, 111, "__init__", "self.start_server()"),
        (vi, 131, "start_server", "self.check_connectivity(retries)"),
        (vi, 158, "check_connectivity", "self.start_server(retries - 1)"),
        (vi, 131, "start_server", "self.check_connectivity(retries)"),
        (vi, 158, "check_connectivity", "self.start_server(retries - 1)"),
        (vi, 131, "start_server", "self.check_connectivity(retries)"),
        (vi, 158, "check_connectivity", "self.start_server(retries - 1)"),
        (vi, 131, "start_server", "self.check_connectivity(retries)"),
        (vi, 153, "check_connectivity", "raise Exception("),
    ]
    trace = j.beam_setup_tb(tail, last)
    vm_name = j.vm()[0]
    for attempt in range(4):
        for k in range(4):
            one_server_start(full=(attempt == 0 and k == 0))
        j.instr_error(trace)
        j.wait(1.2)
        j.jm("Error message from worker: " + trace, "ERROR")
        j.wait(20)
    j.work_item_failure("S04:ReadTickets/Read+ParseJson+BuildPrompt+RunInference/BeamML_RunInference",
                        [(vm_name, last)] * 4)
    j.teardown()
    truth = {
        "job": j.name, "outcome": "failed", "family": "model-server",
        "root_cause": "vLLM was started with --dtype bfloat16 on a Tesla T4 (compute capability 7.5), which cannot run bfloat16, so the vLLM server process died at engine start and Beam's VLLMCompletionsModelHandler gave up after its restarts.",
        "setup": {"gpu": "nvidia-tesla-t4 x1 on n1-standard-8", "python": j.py, "beam": j.beam, "stack": "vLLM 0.8.3 OpenAI server launched by apache_beam.ml.inference.vllm_inference", "region": j.region},
        "evidence": [
            "Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5.",
            "'--dtype' 'bfloat16'",
            "Failed to start vLLM server, polling process exited with code 1.",
        ],
        "red_herrings": [
            "Compute Capability < 8.0 is not supported by the V1 Engine. Falling back to V0.",
            "Cannot use FlashAttention-2 backend for Volta and Turing GPUs.",
            "RuntimeError: Engine process failed to start. See stack trace for the root cause.",
            "Error initializing dynamic plugin prober",
        ],
        "sources": [
            "vllm-project/vllm vllm/worker/worker.py _check_if_gpu_supports_dtype (ValueError text, read via code search)",
            "gensyn-ai/rl-swarm#122 (v0.8.3 V0 engine traceback frames and 'Initializing a V0 LLM engine (v0.8.3) with config:' line)",
            "substratusai/vllm-docker#37, vllm-project/vllm#1157, xming521/WeClone#85 (same ValueError on Tesla T4, 2024-2025)",
            "vllm-project/vllm#9990 and vllm-ascend issue texts ('RuntimeError: Engine process failed to start. See stack trace for the root cause.')",
            "vllm-project/vllm platforms/cuda.py via code search ('Cannot use FlashAttention-2 backend for Volta and Turing GPUs.'), issue texts with 'Using XFormers backend.' and 'ERROR ... engine.py:366] Bfloat16 ...'",
            "third-party vLLM notes quoting 'Compute Capability < 8.0 is not supported by the V1 Engine. Falling back to V0.'",
            "apache/beam sdks/python/apache_beam/ml/inference/vllm_inference.py (Starting service with ..., line-by-line INFO relay of server stdout, 'Failed to start vLLM server, polling process exited with code ... Next time a request is tried, the server will be restarted')",
            "shared/reference/dataflow-log-signatures.md sections 2f/2i (job-message wording, work item failed 4 times)",
        ],
    }
    return j, truth


# =============================================================================
# 2. inference-runtime: llama-cpp-python wheel compiled only for sm_89 (built on
#    an L4 dev box) running on a Tesla T4 -> CUDA kernel image missing -> abort.
# =============================================================================
def job_llamacpp_kernel_image():
    j = Job("llamacpp-no-kernel-image-t4", seed=202, project="northwind-analytics", project_number="905113348277",
            region="us-east1", zone="us-east1-c", job_name="gguf-review-summaries-0611",
            job_id="2025-06-11_09_02_47-4406781952313377410", start=_ns(2025, 6, 11, 16, 2, 47),
            machine="n1-standard-8", gpu="nvidia-tesla-t4", gpu_count=1, py="3.11", beam="2.63.0",
            image="us-east1-docker.pkg.dev/northwind-analytics/dataflow/llamacpp-worker:0.3.9-cu124",
            disk_gb=80, max_workers=1, harness_threads=1,
            extra_options={"gguf_path": "gs://northwind-models/gguf/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf"})
    s = j.site
    dofn = "/usr/local/src/reviews/llama_dofn.py"
    steps = "ReadReviews/Read+Batch/ParDo(_GlobalWindowsBatchingDoFn)+Summarize/ParDo(LlamaCppSummarizeFn)+Format+WriteSummaries/Write/WriteImpl/WriteBundles"
    j.dataflow_prologue([("ReadReviews/Read", "Batch/ParDo(_GlobalWindowsBatchingDoFn)"),
                         ("Batch/ParDo(_GlobalWindowsBatchingDoFn)", "Summarize/ParDo(LlamaCppSummarizeFn)")], steps)
    j.wait(46)
    j.workers_up(driver="550.90.07")
    j.all_workers_ready()
    vm_name = j.vm()[0]
    pod = "df-%s" % vm_name
    build = "/tmp/pip-install-q1w8x2ta/llama-cpp-python_5b2c1e0d8a9f4c7e9a3b6d0f1e2c4a77/vendor/llama.cpp/ggml/src/ggml-cuda/ggml-cuda.cu"
    for attempt in range(1, 5):
        j.sdk_boot()
        j.worker("Copying gs://northwind-models/gguf/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf to /tmp/models (4.58 GiB)",
                 logger=dofn + ":41")
        j.wait(19 if attempt == 1 else 2)
        load = [
            "ggml_cuda_init: GGML_CUDA_FORCE_MMQ:    no",
            "ggml_cuda_init: GGML_CUDA_FORCE_CUBLAS: no",
            "ggml_cuda_init: found 1 CUDA devices:",
            "  Device 0: Tesla T4, compute capability 7.5, VMM: yes",
            "llama_model_load_from_file_impl: using device CUDA0 (Tesla T4) - 14992 MiB free",
            "llama_model_loader: loaded meta data with 33 key-value pairs and 292 tensors from /tmp/models/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf (version GGUF V3 (latest))",
            "llama_model_loader: - type  f32:   66 tensors",
            "llama_model_loader: - type q4_K:  193 tensors",
            "llama_model_loader: - type q6_K:   33 tensors",
            "print_info: file format = GGUF V3 (latest)",
            "print_info: file type   = Q4_K - Medium",
            "print_info: file size   = 4.58 GiB (4.89 BPW) ",
            "load_tensors: offloading 32 repeating layers to GPU",
            "load_tensors: offloading output layer to GPU",
            "load_tensors: offloaded 33/33 layers to GPU",
            "load_tensors:        CUDA0 model buffer size =  4403.49 MiB",
            "load_tensors:   CPU_Mapped model buffer size =   281.81 MiB",
            "llama_context: constructing llama_context",
            "llama_context: n_seq_max     = 1",
            "llama_context: n_ctx         = 4096",
            "llama_context: n_ctx_per_seq = 4096",
            "llama_context: n_batch       = 512",
            "llama_context: flash_attn    = 0",
            "llama_context: n_ctx_per_seq (4096) < n_ctx_train (131072) -- the full capacity of the model will not be utilized",
            "llama_context:  CUDA_Host  output buffer size =     0.49 MiB",
            "llama_kv_cache_unified:      CUDA0 KV buffer size =   512.00 MiB",
            "llama_kv_cache_unified: KV self size  =  512.00 MiB, K (f16):  256.00 MiB, V (f16):  256.00 MiB",
            "llama_context:      CUDA0 compute buffer size =   296.00 MiB",
            "llama_context:  CUDA_Host compute buffer size =    16.01 MiB",
            "CUDA : ARCHS = 890 | USE_GRAPHS = 1 | PEER_MAX_BATCH_SIZE = 128 | CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | BMI2 = 1 | AVX512 = 1 | LLAMAFILE = 1 | OPENMP = 1 | AARCH64_REPACK = 1 | ",
            "Model metadata: {'general.name': 'Meta Llama 3.1 8B Instruct', 'general.architecture': 'llama', 'llama.context_length': '131072', 'general.file_type': '15', 'tokenizer.ggml.model': 'gpt2'}",
            "Using gguf chat template: {{- bos_token }}",
            "Using chat eos_token: <|eot_id|>",
            "Using chat bos_token: <|begin_of_text|>",
        ] if attempt == 1 else [
            "ggml_cuda_init: found 1 CUDA devices:",
            "  Device 0: Tesla T4, compute capability 7.5, VMM: yes",
            "load_tensors: offloaded 33/33 layers to GPU",
            "llama_context: n_ctx_per_seq (4096) < n_ctx_train (131072) -- the full capacity of the model will not be utilized",
            "CUDA : ARCHS = 890 | USE_GRAPHS = 1 | PEER_MAX_BATCH_SIZE = 128 | CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | BMI2 = 1 | AVX512 = 1 | LLAMAFILE = 1 | OPENMP = 1 | AARCH64_REPACK = 1 | ",
        ]
        j.docker_lines("\n".join(load), "ERROR")
        j.worker("Llama model ready in %.1fs (n_gpu_layers=-1, n_ctx=4096)" % (j.rng.uniform(8, 14)), logger=dofn + ":58")
        j.wait(1.7)
        crash = [
            "ggml_cuda_compute_forward: RMS_NORM failed",
            "CUDA error: no kernel image is available for execution on the device",
            "  current device: 0, in function ggml_cuda_compute_forward at %s:2353" % build,
            "  err",
            "%s:75: CUDA error" % build,
        ]
        j.docker_lines("\n".join(crash), "ERROR")
        j.wait(0.6)
        if attempt < 4:
            j.docker("Python (worker sdk-0-0) exited %d times: signal: aborted (core dumped)\nrestarting SDK process" % attempt, "WARNING")
        else:
            j.docker("Python (worker sdk-0-0) exited 4 times: signal: aborted (core dumped)\nout of retries, failing container", "ERROR")
        j.wait(1.0)
        j.jm("Error message from worker: generic::aborted: SDK harness sdk-0-0 disconnected.", "ERROR")
        j.wait(3.0)
    j.kubelet('%s     912 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"sdk-0-0\\" with CrashLoopBackOff: \\"back-off 10s restarting failed container=sdk-0-0 pod=%s_default(7c1f0a55d2e84b6c9f3e1a2b4c6d8e0f)\\"" pod="default/%s" podUID="7c1f0a55d2e84b6c9f3e1a2b4c6d8e0f"' % (j.kt("E"), pod, pod), "ERROR")
    j.wait(5)
    j.work_item_failure("S02:ReadReviews/Read+Batch/ParDo(_GlobalWindowsBatchingDoFn)+Summarize/ParDo(LlamaCppSummarizeFn)",
                        [(vm_name, "SDK harness sdk-0-0 disconnected.")] * 4)
    j.teardown()
    truth = {
        "job": j.name, "outcome": "failed", "family": "inference-runtime",
        "root_cause": "The llama-cpp-python wheel in the custom image was compiled only for CUDA arch 8.9 (ARCHS = 890), so on the Tesla T4 (compute capability 7.5) the first CUDA kernel failed with 'no kernel image is available', ggml aborted the process and the SDK harness crashed on every retry.",
        "setup": {"gpu": "nvidia-tesla-t4 x1 on n1-standard-8", "python": j.py, "beam": j.beam, "stack": "llama-cpp-python 0.3.9 (vendored llama.cpp, CUDA build) in a custom DoFn", "region": j.region},
        "evidence": [
            "CUDA error: no kernel image is available for execution on the device",
            "Device 0: Tesla T4, compute capability 7.5, VMM: yes",
            "CUDA : ARCHS = 890",
            "SDK harness sdk-0-0 disconnected.",
        ],
        "red_herrings": [
            "n_ctx_per_seq (4096) < n_ctx_train (131072) -- the full capacity of the model will not be utilized",
            "Skipping pod synchronization",
            "CrashLoopBackOff",
        ],
        "sources": [
            "boneylizard/llama-cpp-python-cu128-gemma3#6 (llama_cpp_python-0.3.9: 'ggml_cuda_compute_forward: RMS_NORM failed', 'CUDA error: no kernel image is available for execution on the device', 'current device: 0, in function ggml_cuda_compute_forward at ...ggml-cuda.cu:2353', 'ggml-cuda.cu:75: CUDA error')",
            "ZengboJamesWang/Qwen3.5-35B-A3B-openclaw-dgx-spark#3 (same abort text, 2026)",
            "ggml-org/llama.cpp ggml/src/ggml-cuda/ggml-cuda.cu via code search ('  Device %d: %s, compute capability %d.%d, VMM: %s')",
            "llama.cpp src via code search and user logs ('n_ctx_per_seq (%u) < n_ctx_train (%u) -- the full capacity of the model will not be utilized')",
            "apache/beam sdks/python/container/boot.go via code search ('Executing Python (worker %v): python %v', 'Python (worker %v) exited %v times: %v\\nrestarting SDK process', '...out of retries, failing container')",
            "shared/reference/dataflow-log-signatures.md a7/f7 ('Error message from worker: generic::aborted: SDK harness sdk-0-0 disconnected.') and f2 (CrashLoopBackOff kubelet form)",
        ],
    }
    return j, truth


# =============================================================================
# 3. jax: conda-forge jaxlib 0.4.31 in a custom image with cuDNN 8.9.7;
#    the CUDA plugin requires cuDNN >= 9.1, and the DoFn asks for jax.devices("cuda").
# =============================================================================
def job_jax_cudnn():
    j = Job("jax-outdated-cudnn-a100", seed=303, project="helio-forecasting", project_number="640029187731",
            region="us-central1", zone="us-central1-f", job_name="solar-ensemble-scoring-0819",
            job_id="2025-08-19_03_41_09-12890077414523364081", start=_ns(2025, 8, 19, 10, 41, 9),
            machine="a2-highgpu-1g", gpu="nvidia-tesla-a100", gpu_count=1, py="3.10", beam="2.60.0",
            image="us-docker.pkg.dev/helio-forecasting/containers/jax-flax-beam:2025.08.2",
            disk_gb=60, max_workers=3,
            extra_options={"checkpoint": "gs://helio-forecasting-models/flax/ensemble-v7/ckpt-120000"})
    j.site = "/opt/conda/lib/python3.10/site-packages"
    s = j.site
    dofn = "/opt/app/solar/score.py"
    xb = s + "/jax/_src/xla_bridge.py"
    steps = "ReadSites/Read+KeyBySite+Score/ParDo(FlaxEnsembleScoreFn)+WriteScores/WriteToParquet/Write/WriteImpl/WriteBundles"
    j.dataflow_prologue([("ReadSites/Read", "KeyBySite"), ("KeyBySite", "Score/ParDo(FlaxEnsembleScoreFn)")], steps)
    j.wait(51)
    j.workers_up(driver="570.172.08", gpu_name="NVIDIA A100-SXM4-40GB")
    j.sdk_boot()
    j.all_workers_ready()
    vm_name = j.vm()[0]
    for k in range(12):
        j.worker("Read %d site records from gs://helio-forecasting-data/sites/2025-08-18/part-%05d-of-00048.parquet" % (j.rng.randrange(1800, 2100), k),
                 logger="/opt/app/solar/io.py:29", thread="Thread-%d" % j.rng.randrange(12, 20))
        j.wait(j.rng.uniform(0.4, 1.6))
    cuda_err = ("Unable to use CUDA because of the following issues with CUDA components:\n"
                "Outdated cuDNN installation found.\n"
                "Version JAX was built against: 8907\n"
                "Minimum supported: 9100\n"
                "Installed version: 8907\n"
                "The local installation version must be no lower than 9100.")
    last = ("RuntimeError: Backend 'cuda' failed to initialize: " + cuda_err +
            ". Available backends are ['cpu'] [while running 'Score/ParDo(FlaxEnsembleScoreFn)']")
    tail = [
        (dofn, 52, "setup", 'devices = jax.devices("cuda")'),
        (s + "/jax/_src/xla_bridge.py", 1150, "devices", "return get_backend(backend).devices()"),
        (s + "/jax/_src/xla_bridge.py", 1024, "get_backend", "return _get_backend_uncached(platform)"),
        (s + "/jax/_src/xla_bridge.py", 1004, "_get_backend_uncached", "raise RuntimeError(f\"Backend '{platform}' failed to initialize: \""),
    ]
    trace = j.beam_setup_tb(tail, last)
    for attempt in range(4):
        j.worker("Restoring Flax checkpoint gs://helio-forecasting-models/flax/ensemble-v7/ckpt-120000 (jax 0.4.31, jaxlib 0.4.31, flax 0.8.5)",
                 logger=dofn + ":44")
        j.wait(2.5)
        if attempt == 0:
            j.worker("CUDA backend failed to initialize: " + cuda_err + ".(Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)",
                     "WARNING", logger=xb + ":895")
        j.wait(0.3)
        j.instr_error(trace)
        j.wait(1.0)
        j.jm("Error message from worker: " + trace, "ERROR")
        j.wait(17)
    j.work_item_failure("S03:ReadSites/Read+KeyBySite+Score/ParDo(FlaxEnsembleScoreFn)", [(vm_name, last)] * 4)
    j.teardown()
    truth = {
        "job": j.name, "outcome": "failed", "family": "jax",
        "root_cause": "The conda-based image ships cuDNN 8.9.7 but its jaxlib 0.4.31 CUDA plugin requires cuDNN >= 9.1, so JAX's CUDA backend refused to initialize and the DoFn's jax.devices('cuda') call failed on every attempt.",
        "setup": {"gpu": "nvidia-tesla-a100 x1 on a2-highgpu-1g", "python": j.py, "beam": j.beam, "stack": "JAX/jaxlib 0.4.31 (conda-forge) + Flax in a custom conda image", "region": j.region},
        "evidence": [
            "Outdated cuDNN installation found.",
            "Installed version: 8907",
            "The local installation version must be no lower than 9100.",
            "RuntimeError: Backend 'cuda' failed to initialize",
        ],
        "red_herrings": [
            "Error initializing dynamic plugin prober",
            "ima: Can not allocate sha384 (reason: -2)",
        ],
        "sources": [
            "rgommers/pixi-dev-scipystack#1 (exact 'RuntimeError: Backend 'cuda' failed to initialize: Unable to use CUDA because of the following issues with CUDA components: Outdated cuDNN installation found. Version JAX was built against: 8907 Minimum supported: 9100 Installed version: 8907 ... Available backends are ['cpu']' and xla_bridge.py:1004 frame)",
            "conda-forge/jax-feedstock#149 (2024-08, 'CUDA backend failed to initialize: Unable to use CUDA ... (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)', jax 0.4.31 requires cuDNN 9.1)",
            "jax-ml/jax jax_plugins/cuda/__init__.py _check_cuda_versions via code search (message template 'Outdated {name} installation found.' / 'The local installation version must be no lower than ...')",
            "shared/reference/dataflow-log-signatures.md 2f/2i (Dataflow job-message wording)",
        ],
    }
    return j, truth


# =============================================================================
# 4. pytorch-tensorflow: TF 2.18 and torch 2.5.1 in one image; pip left
#    nvidia-cudnn-cu12 9.1.0 (torch pin) while TF 2.18 needs >= 9.3.
# =============================================================================
def job_tf218_cudnn91():
    j = Job("tf218-cudnn-91-from-torch-pin", seed=404, project="lumen-retail-ml", project_number="774410298563",
            region="europe-west4", zone="europe-west4-b", job_name="shelf-image-classifier-nightly",
            job_id="2025-02-12_15_30_02-9012874465391027720", start=_ns(2025, 2, 12, 23, 30, 2),
            machine="g2-standard-8", gpu="nvidia-l4", gpu_count=1, py="3.11", beam="2.64.0",
            image="europe-west4-docker.pkg.dev/lumen-retail-ml/beam/vision-tf-torch:2025-02-10",
            disk_gb=50, max_workers=2, harness_threads=1,
            extra_options={"model_dir": "gs://lumen-retail-ml-models/shelf-classifier/saved_model/v31"})
    s = j.site
    steps = "MatchImages/Read+DecodeImage+RunInference/BeamML_RunInference_Preprocess-0+RunInference/BeamML_RunInference+RunInference/BeamML_RunInference_Postprocess-0+ToBigQueryRow+WriteLabels/StorageWriteToBigQuery"
    j.dataflow_prologue([("MatchImages/Read", "DecodeImage"), ("DecodeImage", "RunInference/BeamML_RunInference")], steps)
    j.wait(39)
    j.workers_up(driver="570.172.08")
    j.sdk_boot()
    j.all_workers_ready()
    vm_name = j.vm()[0]
    for k in range(8):
        j.worker("Matched %d images under gs://lumen-retail-ml-shelves/2025-02-12/store-%03d/" % (j.rng.randrange(300, 900), 100 + k),
                 logger="/srv/shelf/pipeline.py:58", thread="Thread-%d" % j.rng.randrange(12, 20))
        j.wait(j.rng.uniform(0.2, 0.9))

    def tf_import():
        tid = j.rng.randrange(200, 900)
        j.docker("%s: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:477] Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered" % j.tf_ts())
        j.docker("WARNING: All log messages before absl::InitializeLog() is called are written to STDERR")
        j.docker(j.absl("E", tid, "cuda_dnn.cc:8310", "Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered"))
        j.docker(j.absl("E", tid, "cuda_blas.cc:1418", "Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered"))
        j.docker("%s: I tensorflow/core/platform/cpu_feature_guard.cc:210] This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations." % j.tf_ts())
        j.docker("To enable the following instructions: AVX2 AVX512F AVX512_VNNI AVX512_BF16 AVX_VNNI AMX_TILE AMX_INT8 AMX_BF16 FMA, in other operations, rebuild TensorFlow with the appropriate compiler flags.")
        return tid

    last_tf = ("tensorflow.python.framework.errors_impl.FailedPreconditionError: Graph execution error:\n\n"
               "Detected at node StatefulPartitionedCall defined at (most recent call last):\n"
               "<stack traces unavailable>\n"
               "DNN library initialization failed. Look at the errors above for more details.\n"
               "\t [[{{node StatefulPartitionedCall}}]] [Op:__inference_serving_default_18344] [while running 'RunInference/BeamML_RunInference']")
    trace = j.beam_process_tb([
        (s + "/apache_beam/ml/inference/base.py", 1703, "process", "return self._run_inference(batch, inference_args)"),
        (s + "/apache_beam/ml/inference/base.py", 1669, "_run_inference", "raise e"),
        (s + "/apache_beam/ml/inference/base.py", 1655, "_run_inference", "result_generator = self._model_handler.run_inference("),
        (s + "/apache_beam/ml/inference/tensorflow_inference.py", 358, "run_inference", "return self._inference_fn(model, batch, inference_args, self._model_uri)"),
        (s + "/apache_beam/ml/inference/tensorflow_inference.py", 98, "default_tensor_inference_fn", "predictions = model(batched_tensors, **inference_args)"),
        (s + "/tensorflow/python/util/traceback_utils.py", 153, "error_handler", "raise e.with_traceback(filtered_tb) from None"),
        (s + "/tensorflow/python/eager/execute.py", 53, "quick_execute", "tensors = pywrap_tfe.TFE_Py_Execute(ctx._handle, device_name, op_name,"),
    ], last_tf)
    for attempt in range(4):
        if attempt == 0:
            tid = tf_import()
            j.wait(3.2)
            j.worker("Loading SavedModel from gs://lumen-retail-ml-models/shelf-classifier/saved_model/v31",
                     logger="/srv/shelf/pipeline.py:77")
            j.docker(j.absl("I", tid, "gpu_device.cc:2022", "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 20715 MB memory:  -> device: 0, name: NVIDIA L4, pci bus id: 0000:00:03.0, compute capability: 8.9"))
            j.wait(7.5)
            j.docker(j.absl("I", tid + 61, "service.cc:148", "XLA service 0x7f2c3c004a30 initialized for platform CUDA (this does not guarantee that XLA will be used). Devices:"))
            j.docker(j.absl("I", tid + 61, "service.cc:156", "  StreamExecutor device (0): NVIDIA L4, Compute Capability 8.9"))
        else:
            j.worker("Running inference on batch of 64 images", logger="/srv/shelf/pipeline.py:91")
            j.wait(1.4)
        j.docker(j.absl("E", tid + 61, "cuda_dnn.cc:522", "Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.3.0.  CuDNN library needs to have matching major version and equal or higher minor version. If using a binary install, upgrade your CuDNN library.  If building from sources, make sure the library loaded at runtime is compatible with the version specified during compile configuration."))
        j.docker(j.absl("E", tid + 61, "cuda_dnn.cc:522", "Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.3.0.  CuDNN library needs to have matching major version and equal or higher minor version. If using a binary install, upgrade your CuDNN library.  If building from sources, make sure the library loaded at runtime is compatible with the version specified during compile configuration."))
        j.docker("%s: W tensorflow/core/framework/op_kernel.cc:1841] OP_REQUIRES failed at xla_ops.cc:577 : FAILED_PRECONDITION: DNN library initialization failed. Look at the errors above for more details." % j.tf_ts())
        j.docker("%s: I tensorflow/core/framework/local_rendezvous.cc:405] Local rendezvous is aborting with status: FAILED_PRECONDITION: DNN library initialization failed. Look at the errors above for more details." % j.tf_ts())
        j.wait(0.4)
        j.instr_error(trace)
        j.wait(1.1)
        j.jm("Error message from worker: " + trace, "ERROR")
        j.wait(22)
    j.work_item_failure("S06:MatchImages/Read+DecodeImage+RunInference/BeamML_RunInference", [(vm_name, last_tf.split("\n")[0])] * 4)
    j.teardown()
    truth = {
        "job": j.name, "outcome": "failed", "family": "pytorch-tensorflow",
        "root_cause": "TensorFlow 2.18 was built against cuDNN 9.3 but the image (which also installs torch 2.5.1) loads cuDNN 9.1.0, so TF's DNN library failed to initialize at the first convolution and every inference bundle failed.",
        "setup": {"gpu": "nvidia-l4 x1 on g2-standard-8", "python": j.py, "beam": j.beam, "stack": "TensorFlow 2.18 SavedModel via TFModelHandlerTensor; torch 2.5.1 in the same image", "region": j.region},
        "evidence": [
            "Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.3.0.",
            "FAILED_PRECONDITION: DNN library initialization failed. Look at the errors above for more details.",
            "FailedPreconditionError: Graph execution error:",
        ],
        "red_herrings": [
            "Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered",
            "Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered",
            "Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered",
            "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 20715 MB memory",
        ],
        "sources": [
            "tensorflow/tensorflow#60913 comment 2025-02-04 (TF 2.18 absl format: 'cuda_dnn.cc:522] Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.3.0. ...' and 'op_kernel.cc:1841] OP_REQUIRES failed at xla_ops.cc:577 : FAILED_PRECONDITION: DNN library initialization failed. Look at the errors above for more details.')",
            "public TF 2.18 user logs via code search ('cuda_fft.cc:477] Unable to register cuFFT factory', 'cuda_dnn.cc:8310] Unable to register cuDNN factory', 'cuda_blas.cc:1418] Unable to register cuBLAS factory', 'cpu_feature_guard.cc:210')",
            "tensorflow/tensorflow#62075, #70947, openxla/xla#20803 (registration errors are noise)",
            "shared/reference/dataflow-log-signatures.md 2i (Created device ... line format)",
            "microsoft/onnxruntime#21684 comment table (torch 2.x pins cuDNN 9.1/8.9 wheels; context for the version clash)",
        ],
    }
    return j, truth


# =============================================================================
# 5. model-hub: diffusers FLUX.1-schnell snapshot download fills a 50 GB
#    worker disk (custom image already uses ~14 GB).
# =============================================================================
def job_hf_disk_full():
    j = Job("hf-download-disk-full-a100", seed=505, project="pixelforge-prod", project_number="218845503617",
            region="asia-southeast1", zone="asia-southeast1-c", job_name="catalog-hero-images-flux-1107",
            job_id="2025-11-07_18_05_44-3318804412957701225", start=_ns(2025, 11, 8, 2, 5, 44),
            machine="a2-highgpu-1g", gpu="nvidia-tesla-a100", gpu_count=1, py="3.12", beam="2.68.0",
            image="asia-southeast1-docker.pkg.dev/pixelforge-prod/beam/diffusers-gpu:0.35.1-cu126",
            disk_gb=50, max_workers=1, harness_threads=1, driver_opt="install-nvidia-driver:latest",
            extra_options={"model_id": "black-forest-labs/FLUX.1-schnell", "prompts": "gs://pixelforge-prod-jobs/hero/prompts-1107.jsonl"})
    s = j.site
    dofn = "/app/hero/flux_dofn.py"
    steps = "ReadPrompts/Read+Batch/ParDo(_GlobalWindowsBatchingDoFn)+Generate/ParDo(FluxGenerateFn)+UploadPngs"
    j.dataflow_prologue([("ReadPrompts/Read", "Batch/ParDo(_GlobalWindowsBatchingDoFn)"),
                         ("Batch/ParDo(_GlobalWindowsBatchingDoFn)", "Generate/ParDo(FluxGenerateFn)")], steps)
    j.wait(48)
    j.workers_up(driver="580.82.07")
    j.sdk_boot()
    j.all_workers_ready()
    vm_name = j.vm()[0]
    blobs = "/root/.cache/huggingface/hub/models--black-forest-labs--FLUX.1-schnell/blobs"
    last = "OSError: [Errno 28] No space left on device [while running 'Generate/ParDo(FluxGenerateFn)']"
    tail = [
        (dofn, 38, "setup", "self.pipe = FluxPipeline.from_pretrained("),
        (s + "/huggingface_hub/utils/_validators.py", 114, "_inner_fn", "return fn(*args, **kwargs)"),
        (s + "/diffusers/pipelines/pipeline_utils.py", 833, "from_pretrained", "cached_folder = cls.download("),
        (s + "/huggingface_hub/utils/_validators.py", 114, "_inner_fn", "return fn(*args, **kwargs)"),
        (s + "/diffusers/pipelines/pipeline_utils.py", 1577, "download", "cached_folder = snapshot_download("),
        (s + "/huggingface_hub/_snapshot_download.py", 332, "snapshot_download", "thread_map("),
        (s + "/tqdm/contrib/concurrent.py", 69, "thread_map", "return _executor_map(ThreadPoolExecutor, fn, *iterables, **tqdm_kwargs)"),
        ("/usr/local/lib/python3.12/concurrent/futures/_base.py", 449, "result", "return self.__get_result()"),
        ("/usr/local/lib/python3.12/concurrent/futures/_base.py", 401, "__get_result", "raise self._exception"),
        ("/usr/local/lib/python3.12/concurrent/futures/thread.py", 59, "run", "result = self.fn(*self.args, **self.kwargs)"),
        (s + "/huggingface_hub/_snapshot_download.py", 306, "_inner_hf_hub_download", "return hf_hub_download("),
        (s + "/huggingface_hub/file_download.py", 1010, "hf_hub_download", "return _hf_hub_download_to_cache_dir("),
        (s + "/huggingface_hub/file_download.py", 1171, "_hf_hub_download_to_cache_dir", "_download_to_tmp_and_move("),
        (s + "/huggingface_hub/file_download.py", 1723, "_download_to_tmp_and_move", "http_get("),
        (s + "/huggingface_hub/file_download.py", 494, "http_get", "temp_file.write(chunk)"),
    ]
    trace = j.beam_setup_tb(tail, last)
    fetched = 0
    for attempt in range(4):
        j.worker("Loading black-forest-labs/FLUX.1-schnell (torch_dtype=bfloat16) on cuda:0", logger=dofn + ":35")
        j.docker("Fetching 23 files:   0%|          | 0/23 [00:00<?, ?it/s]")
        j.worker("Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed. Falling back to regular HTTP download. For better performance, install the package with: `pip install huggingface_hub[hf_xet]` or `pip install hf_xet`",
                 "WARNING", logger=s + "/huggingface_hub/file_download.py:1694", thread="ThreadPoolExecutor-0_0")
        free = [6142.87, 5931.02, 5930.74, 5930.61][attempt]
        j.wait(2.0)
        j.docker("%s/huggingface_hub/file_download.py:752: UserWarning: Not enough free disk space to download the file. The expected file size is: 9983.45 MB. The target location %s only has %.2f MB free disk space." % (s, blobs, free))
        j.docker("  warnings.warn(")
        j.docker("%s/huggingface_hub/file_download.py:752: UserWarning: Not enough free disk space to download the file. The expected file size is: 9949.47 MB. The target location %s only has %.2f MB free disk space." % (s, blobs, free - 0.4))
        j.docker("  warnings.warn(")
        j.wait(62 if attempt == 0 else 5)
        j.docker("Fetching 23 files:  26%%|##6       | 6/23 [01:0%d<02:57, 10.41s/it]" % (attempt + 1))
        j.instr_error(trace)
        j.wait(1.0)
        j.jm("Error message from worker: " + trace, "ERROR")
        j.wait(25)
    j.work_item_failure("S02:ReadPrompts/Read+Batch/ParDo(_GlobalWindowsBatchingDoFn)+Generate/ParDo(FluxGenerateFn)", [(vm_name, last)] * 4)
    j.teardown()
    truth = {
        "job": j.name, "outcome": "failed", "family": "model-hub",
        "root_cause": "Downloading the ~33 GB FLUX.1-schnell snapshot from the Hugging Face Hub into the default cache on a 50 GB worker disk (already holding the ~14 GB image) ran out of disk space, so model loading in DoFn.setup failed with ENOSPC on every attempt.",
        "setup": {"gpu": "nvidia-tesla-a100 x1 on a2-highgpu-1g", "python": j.py, "beam": j.beam, "stack": "diffusers FluxPipeline.from_pretrained + huggingface_hub (no hf_xet)", "region": j.region},
        "evidence": [
            "UserWarning: Not enough free disk space to download the file.",
            "OSError: [Errno 28] No space left on device",
            "'disk_size_gb': 50",
        ],
        "red_herrings": [
            "Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed. Falling back to regular HTTP download.",
            "Error initializing dynamic plugin prober",
        ],
        "sources": [
            "huggingface/huggingface_hub src/huggingface_hub/file_download.py _check_disk_space via code search ('Not enough free disk space to download the file. The expected file size is: ... MB. The target location ... only has ... MB free disk space.')",
            "public logs via code search: 'huggingface_hub/file_download.py:752: UserWarning: Not enough free disk space to download the file.' (LUMI workshop notes) and the same warning followed by 'No space left on device (os error 28)' (2026 quantization log)",
            "public logs via code search ('Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed. Falling back to regular HTTP download. For better performance, install the package with: ...')",
            "huggingface/huggingface_hub file_download.py http_get via code search (frame names http_get/_download_to_tmp_and_move/_hf_hub_download_to_cache_dir)",
            "shared/reference/dataflow-log-signatures.md f4 ('No space left on device' on Dataflow workers; GPU images need larger disk_size_gb)",
        ],
    }
    return j, truth


# =============================================================================
# 6. multi-gpu: torchrun tensor-parallel worker group on 2 x L4 (no P2P, NCCL
#    uses SHM); the SDK container's /dev/shm is too small -> ncclSystemError.
# =============================================================================
def job_nccl_shm():
    j = Job("nccl-dev-shm-2xl4", seed=606, project="quanta-docs-ai", project_number="552901873340",
            region="us-east4", zone="us-east4-c", job_name="contract-extraction-tp2-0423",
            job_id="2025-04-23_06_12_51-8829101157340062218", start=_ns(2025, 4, 23, 13, 12, 51),
            machine="g2-standard-24", gpu="nvidia-l4", gpu_count=2, py="3.11", beam="2.65.0",
            image="us-east4-docker.pkg.dev/quanta-docs-ai/beam/tp-extractor:torch2.6-nccl2.21",
            disk_gb=120, max_workers=2, harness_threads=1,
            extra_options={"tp_size": 2, "model_path": "gs://quanta-docs-ai-models/extractor-14b/"})
    s = j.site
    dofn = "/workspace/extractor/tp_dofn.py"
    relay = dofn + ":97"
    steps = "ReadContracts/Read+Chunk+Extract/ParDo(TensorParallelExtractFn)+WriteJson/Write/WriteImpl/WriteBundles"
    j.dataflow_prologue([("ReadContracts/Read", "Chunk"), ("Chunk", "Extract/ParDo(TensorParallelExtractFn)")], steps)
    j.wait(44)
    j.workers_up(driver="570.172.08")
    j.sdk_boot()
    j.all_workers_ready()
    vm_name = j.vm()[0]
    host = vm_name
    last = ("RuntimeError: tensor-parallel worker group exited with code 1 (see torchrun output above) "
            "[while running 'Extract/ParDo(TensorParallelExtractFn)']")
    tail = [
        (dofn, 71, "setup", "self._group = TorchrunGroup.start(self._cmd, ready_timeout=900)"),
        (dofn, 118, "start", "raise RuntimeError("),
    ]
    trace = j.beam_setup_tb(tail, last)

    for attempt in range(4):
        j.worker("Launching: torchrun --standalone --nproc_per_node=2 /workspace/extractor/serve_tp.py --model /tmp/model --tp 2",
                 logger=dofn + ":66")
        j.wait(4.0)
        th = "Thread-%d" % j.rng.randrange(14, 30)
        rel = lambda line: j.worker(line, logger=relay, thread=th)
        full = attempt == 0
        if full:
            rel("%s 1211 torch/distributed/run.py:792] " % j.kt("W"))
            rel("%s 1211 torch/distributed/run.py:792] *****************************************" % j.kt("W"))
            rel("%s 1211 torch/distributed/run.py:792] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. " % j.kt("W"))
            rel("%s 1211 torch/distributed/run.py:792] *****************************************" % j.kt("W"))
        j.wait(9.0)
        pids = (1240 + attempt * 40, 1241 + attempt * 40)
        for r in (0, 1):
            p = pids[r]
            rel("%s:%d:%d [%d] NCCL INFO Bootstrap : Using eth0:10.150.0.37<0>" % (host, p, p, r))
            if full:
                rel("%s:%d:%d [%d] NCCL INFO cudaDriverVersion 12080" % (host, p, p, r))
        rel("NCCL version 2.21.5+cuda12.4")
        for r in (0, 1):
            p = pids[r]
            if full:
                rel("%s:%d:%d [%d] NCCL INFO NET/Plugin: No plugin found (libnccl-net.so)" % (host, p, p + 57, r))
                rel("%s:%d:%d [%d] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-net.so" % (host, p, p + 57, r))
                rel("%s:%d:%d [%d] NCCL INFO NET/Plugin: Using internal network plugin." % (host, p, p + 57, r))
                rel("%s:%d:%d [%d] NCCL INFO NET/IB : No device found." % (host, p, p + 57, r))
                rel("%s:%d:%d [%d] NCCL INFO NET/Socket : Using [0]eth0:10.150.0.37<0>" % (host, p, p + 57, r))
                rel("%s:%d:%d [%d] NCCL INFO Using network Socket" % (host, p, p + 57, r))
            if full:
                rel("%s:%d:%d [%d] NCCL INFO ncclCommInitRank comm 0x55d1c%04x rank %d nranks 2 cudaDev %d nvmlDev %d busId %d0 commId 0x5f0c2b7d9e4a1c33 - Init START" % (host, p, p + 57, r, 4096 + r * 512, r, r, r, 3 + r))
                rel("%s:%d:%d [%d] NCCL INFO comm 0x55d1c%04x rank %d nRanks 2 nNodes 1 localRanks 2 localRank %d MNNVL 0" % (host, p, p + 57, r, 4096 + r * 512, r, r))
        if full:
            rel("%s:%d:%d [1] NCCL INFO Trees [0] -1/-1/-1->1->0 [1] -1/-1/-1->1->0" % (host, pids[1], pids[1] + 57))
            rel("%s:%d:%d [1] NCCL INFO P2P Chunksize set to 131072" % (host, pids[1], pids[1] + 57))
            rel("%s:%d:%d [0] NCCL INFO Channel 00/02 :    0   1" % (host, pids[0], pids[0] + 57))
            rel("%s:%d:%d [0] NCCL INFO Channel 01/02 :    0   1" % (host, pids[0], pids[0] + 57))
        j.wait(0.7)
        segs = {}
        for r in (0, 1):
            p = pids[r]
            seg = "".join(j.rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") for _ in range(6))
            segs[r] = seg
            rel("%s:%d:%d [%d] misc/shmutils.cc:72 NCCL WARN Error: failed to extend /dev/shm/nccl-%s to 9637892 bytes" % (host, p, p + 57, r, seg))
            rel("%s:%d:%d [%d] misc/shmutils.cc:113 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-%s (size 9637888)" % (host, p, p + 57, r, seg))
            chain = ("transport/shm.cc:114 -> 2", "transport.cc:33 -> 2", "transport.cc:113 -> 2", "init.cc:1218 -> 2", "init.cc:1501 -> 2", "group.cc:64 -> 2 [Async thread]")
            for where in (chain if full else chain[:1]):
                rel("%s:%d:%d [%d] NCCL INFO %s" % (host, p, p + 57, r, where))
        j.wait(0.2)
        for r in (1, 0):
            frames = [
                "[rank%d]: Traceback (most recent call last):" % r,
                '[rank%d]:   File "/workspace/extractor/serve_tp.py", line 211, in <module>' % r,
                "[rank%d]:     main()" % r,
                '[rank%d]:   File "/workspace/extractor/serve_tp.py", line 174, in main' % r,
                "[rank%d]:     dist.barrier()" % r,
                '[rank%d]:   File "%s/torch/distributed/c10d_logger.py", line 81, in wrapper' % (r, s),
                "[rank%d]:     return func(*args, **kwargs)" % r,
                '[rank%d]:   File "%s/torch/distributed/distributed_c10d.py", line 4551, in barrier' % (r, s),
                "[rank%d]:     work = group.barrier(opts=opts)" % r,
                "[rank%d]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5" % r,
                "[rank%d]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. " % r,
                "[rank%d]: Last error:" % r,
                "[rank%d]: Error while creating shared memory segment /dev/shm/nccl-%s (size 9637888)" % (r, segs[r]),
            ]
            for line in (frames if full else frames[-4:]):
                rel(line)
        j.wait(1.5)
        rel("%s 1211 torch/distributed/elastic/multiprocessing/api.py:897] Sending process %d closing signal SIGTERM" % (j.kt("W"), pids[0]))
        rel("%s 1211 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 1 (pid: %d) of binary: /usr/local/bin/python3.11" % (j.kt("E"), pids[1]))
        summary = ["Traceback (most recent call last):",
                     '  File "/usr/local/bin/torchrun", line 8, in <module>',
                     "    sys.exit(main())",
                     '  File "%s/torch/distributed/elastic/multiprocessing/errors/__init__.py", line 355, in wrapper' % s,
                     "    return f(*args, **kwargs)",
                     '  File "%s/torch/distributed/run.py", line 918, in main' % s,
                     "    run(args)",
                     '  File "%s/torch/distributed/run.py", line 909, in run' % s,
                     "    elastic_launch(",
                     '  File "%s/torch/distributed/launcher/api.py", line 138, in __call__' % s,
                     "    return launch_agent(self._config, self._entrypoint, list(args))",
                     '  File "%s/torch/distributed/launcher/api.py", line 269, in launch_agent' % s,
                     "    raise ChildFailedError(",
                     "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
                     "============================================================",
                     "/workspace/extractor/serve_tp.py FAILED",
                     "------------------------------------------------------------",
                     "Failures:",
                     "  <NO_OTHER_FAILURES>",
                     "------------------------------------------------------------",
                     "Root Cause (first observed failure):",
                     "[0]:",
                     "  time      : %s" % _dt.datetime.fromtimestamp(j.now / 1e9, tz=_dt.timezone.utc).strftime("%Y-%m-%d_%H:%M:%S"),
                     "  host      : %s" % host,
                     "  rank      : 1 (local_rank: 1)",
                     "  exitcode  : 1 (pid: %d)" % pids[1],
                     "  error_file: <N/A>",
                     "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
                     "============================================================"]
        for line in (summary if full else summary[13:14] + summary[20:22] + summary[24:26]):
            rel(line)
        j.wait(0.5)
        j.instr_error(trace)
        j.wait(1.0)
        j.jm("Error message from worker: " + trace, "ERROR")
        j.wait(24)
    j.work_item_failure("S03:ReadContracts/Read+Chunk+Extract/ParDo(TensorParallelExtractFn)", [(vm_name, last)] * 4)
    j.teardown()
    truth = {
        "job": j.name, "outcome": "failed", "family": "multi-gpu",
        "root_cause": "NCCL could not create its shared-memory segment in the SDK container's small /dev/shm when the two L4 ranks (no P2P, so NCCL uses SHM) initialised their communicator, so torch.distributed raised ncclSystemError and the tensor-parallel worker group died on every attempt.",
        "setup": {"gpu": "nvidia-l4 x2 on g2-standard-24", "python": j.py, "beam": j.beam, "stack": "torch 2.6 torchrun (2 ranks, NCCL 2.21.5) launched from a DoFn; output relayed line by line at INFO", "region": j.region},
        "evidence": [
            "NCCL WARN Error while creating shared memory segment /dev/shm/nccl-",
            "NCCL WARN Error: failed to extend /dev/shm/nccl-",
            "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
            "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.",
        ],
        "red_herrings": [
            "NCCL INFO NET/Plugin: No plugin found (libnccl-net.so)",
            "NCCL INFO NET/IB : No device found.",
            "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default",
            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError",
        ],
        "sources": [
            "hiyouga/LlamaFactory#7233 (torch + NCCL 2.21.5: '[rank1]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5', 'ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.', 'Last error:', 'Error while creating shared memory segment /dev/shm/nccl-LeXlEJ (size 9637888)')",
            "NVIDIA/nccl-tests#166 ('misc/shmutils.cc NCCL WARN Error: failed to extend /dev/shm/nccl-... to ... bytes', 'NCCL WARN Error while creating shared memory segment', 'NCCL INFO transport/shm.cc:114 -> 2' chain)",
            "NVIDIA/nccl#342, NVIDIA/nccl#1683 (cause: container /dev/shm too small)",
            "vllm-project/vllm#10626 (NCCL INFO bootstrap/NET plugin/ncclCommInitRank/Trees/P2P Chunksize lines)",
            "pytorch/ci-infra#490 (2026 NCCL shm failure in CI pods)",
            "torch.distributed.run / elastic ChildFailedError summary layout (PyTorch torchrun output; line numbers synthetic)",
        ],
    }
    return j, truth


# =============================================================================
# 7. capacity: H100 (a3-highgpu-1g) zone resource pool exhausted; no worker
#    ever starts.
# =============================================================================
def job_h100_capacity():
    j = Job("h100-zone-exhausted", seed=707, project="orbit-llm-evals", project_number="102938475611",
            region="europe-west1", zone="europe-west1-b", job_name="nightly-evals-h100-20260114",
            job_id="2026-01-14_14_00_07-2210983344571092871", start=_ns(2026, 1, 14, 22, 0, 7),
            machine="a3-highgpu-1g", gpu="nvidia-h100-80gb", gpu_count=1, py="3.12", beam="2.69.0",
            image="europe-west1-docker.pkg.dev/orbit-llm-evals/beam/vllm-evals:0.11.0",
            disk_gb=200, max_workers=2, jobmsg_project_number=True)
    steps = "ReadEvalSet/Read+RunInference/BeamML_RunInference_Preprocess-0+RunInference/BeamML_RunInference+Score+WriteResults/StorageWriteToBigQuery"
    j.dataflow_prologue([("ReadEvalSet/Read", "RunInference/BeamML_RunInference"), ("RunInference/BeamML_RunInference", "Score")], steps)
    j.wait(70)
    short = j.job_name[:26]
    stamp = "01141400"
    for i in range(46):
        inst = "%s-%s-%s-harness-%s" % (short, stamp, j._rand(B36[10:], 4), j._rand(B36[10:] + "0123456789", 4))
        j.jm("Startup of the worker pool in zone europe-west1-b failed to bring up any of the desired 1 workers. "
             "Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors#worker-pool-failure for help troubleshooting. "
             "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS: Instance '%s' creation failed: The zone 'projects/orbit-llm-evals/zones/europe-west1-b' "
             "does not have enough resources available to fulfill the request.  '(resource type:compute)'." % inst, "ERROR")
        if i % 9 == 4:
            j.jm("Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).", "DETAILED")
        j.wait(j.rng.uniform(68, 86))
    j.jm("Workflow failed. Causes: Unable to bring up enough workers: minimum 1, actual 0. Please check your quota and retry later, or please try in a different zone.", "ERROR")
    j.wait(0.6)
    j.jm("Cleaning up.", "DETAILED")
    j.jm("Starting worker pool teardown.", "DEBUG")
    j.jm("Stopping worker pool...", "BASIC")
    j.wait(12)
    j.jm("Worker pool stopped.", "BASIC")
    j.jm("Tearing down pending resources...", "DEBUG")
    truth = {
        "job": j.name, "outcome": "failed", "family": "capacity",
        "root_cause": "Compute Engine had no a3-highgpu-1g (H100 80GB) capacity in europe-west1-b, so Dataflow could not create a single worker VM for about an hour and failed the job.",
        "setup": {"gpu": "nvidia-h100-80gb x1 on a3-highgpu-1g", "python": j.py, "beam": j.beam, "stack": "vLLM RunInference (never started)", "region": j.region},
        "evidence": [
            "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS",
            "does not have enough resources available to fulfill the request.",
            "Worker configuration: a3-highgpu-1g in europe-west1-b.",
            "Unable to bring up enough workers: minimum 1, actual 0.",
        ],
        "red_herrings": [
            "Workflow config is missing a default resource spec.",
            "Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).",
            "Please check your quota and retry later",
        ],
        "sources": [
            "GoogleCloudPlatform/pontem#251 (2024: 'Startup of the worker pool in zone ... failed to bring up any of the desired 1 workers. Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors#worker-pool-failure for help troubleshooting. ZONE_RESOURCE_POOL_EXHAUSTED: ...')",
            "apache/beam#26552 and GoogleCloudPlatform/python-docs-samples#5247 (ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS: Instance '...-harness-....' creation failed: The zone '...' does not have enough resources available to fulfill the request.  '(resource type:compute)'.)",
            "GoogleCloudPlatform/cloudml-samples#54 ('Workflow failed. Causes: Unable to bring up enough workers: minimum 1, actual 0. Please check your quota and retry later, or please try in a different zone.' - 2017 wording, reused)",
            "shared/reference/dataflow-log-signatures.md 2c (retries repeat the same job message; job-message ERROR)",
        ],
    }
    return j, truth


# =============================================================================
# 8. container-image: 20+ GB CUDA "devel" image cannot be unpacked on a 30 GB
#    boot disk -> ErrImagePull/ImagePullBackOff -> job stuck 1h.
# =============================================================================
def job_image_pull_disk():
    j = Job("image-pull-no-space-l4", seed=808, project="veridian-media", project_number="661207739902",
            region="us-west1", zone="us-west1-b", job_name="video-captioning-batch-0930",
            job_id="2025-09-30_11_20_18-6632017741209981034", start=_ns(2025, 9, 30, 18, 20, 18),
            machine="g2-standard-4", gpu="nvidia-l4", gpu_count=1, py="3.11", beam="2.67.0",
            image="us-west1-docker.pkg.dev/veridian-media/ml/captioner:cuda12.6-devel-torch2.7",
            disk_gb=30, max_workers=1)
    image = j.image
    steps = "ListVideos/Read+ExtractFrames+RunInference/BeamML_RunInference+WriteCaptions/Write/WriteImpl/WriteBundles"
    j.dataflow_prologue([("ListVideos/Read", "ExtractFrames"), ("ExtractFrames", "RunInference/BeamML_RunInference")], steps)
    j.wait(43)
    j.workers_up(driver="570.172.08")
    vm_name = j.vm()[0]
    pod = "df-%s" % vm_name
    uid = "3b9e1c7d0f2a4e6b8c1d3f5a7e9b2c4d"
    j.kubelet('%s     912 kubelet.go:2472] "SyncLoop ADD" source="file" pods=["default/%s"]' % (j.kt("I"), pod))
    j.kubelet('%s     912 kuberuntime_manager.go:1104] "Creating container in pod" containerType="container" container="sdk-0-0" pod="default/%s"' % (j.kt("I"), pod))
    layer_paths = [
        "/usr/local/cuda-12.6/targets/x86_64-linux/lib/libcublasLt.so.12.6.4.1",
        "/usr/local/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so",
        "/usr/local/cuda-12.6/targets/x86_64-linux/lib/libcusparse.so.12.5.4.2",
    ]
    for i in range(15):
        j.wait(j.rng.uniform(220, 290) if i else 95)
        lp = layer_paths[i % len(layer_paths)]
        err = ("rpc error: code = Unknown desc = failed to register layer: Error processing tar file(exit status 1): "
               "write %s: no space left on device" % lp)
        j.kubelet('%s     912 remote_image.go:180] "PullImage from image service failed" err="%s" image="%s"'
                  % (j.kt("E"), err, image), "ERROR")
        j.kubelet('%s     912 kuberuntime_manager.go:1256] container &Container{Name:sdk-0-0,Image:%s,Command:[],Args:[--id=1-1 --provision_endpoint=localhost:12371],} start failed in pod %s_default(%s): ErrImagePull: %s'
                  % (j.kt("E"), image, pod, uid, err), "ERROR")
        j.kubelet('%s     912 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"sdk-0-0\\" with ErrImagePull: \\"%s\\"" pod="default/%s" podUID="%s"'
                  % (j.kt("E"), err, pod, uid), "ERROR")
        if i in (0, 5, 11, 14):
            j.jm("Unable to pull container image due to error: Failed to pull image \"%s\": %s" % (image, err), "ERROR")
        j.wait(2.0)
        j.kubelet('%s     912 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"sdk-0-0\\" with ImagePullBackOff: \\"Back-off pulling image \\\\\\"%s\\\\\\"\\"" pod="default/%s" podUID="%s"'
                  % (j.kt("E"), image, pod, uid), "ERROR")
    j.wait(120)
    j.jm("Workflow failed. Causes: The Dataflow job appears to be stuck because no worker activity has been seen in the last 1h. Please check the worker logs in Stackdriver Logging. You can also get help with Cloud Dataflow at https://cloud.google.com/dataflow/support.", "ERROR")
    j.teardown()
    truth = {
        "job": j.name, "outcome": "failed", "family": "container-image",
        "root_cause": "The ~20 GB CUDA devel + torch custom image could not be unpacked on the 30 GB worker boot disk (no space left on device while registering layers), so the SDK container never started and Dataflow failed the job as stuck after 1h.",
        "setup": {"gpu": "nvidia-l4 x1 on g2-standard-4", "python": j.py, "beam": j.beam, "stack": "custom image FROM nvidia/cuda:12.6 devel + torch 2.7 (never started)", "region": j.region},
        "evidence": [
            "failed to register layer: Error processing tar file(exit status 1)",
            "no space left on device",
            "ImagePullBackOff",
            "no worker activity has been seen in the last 1h",
        ],
        "red_herrings": [
            "Error initializing dynamic plugin prober",
            "Skipping pod synchronization",
            "Finished installing the drivers.",
        ],
        "sources": [
            "NVIDIA-NeMo/Speech#1029, NVIDIA/nvidia-docker#792, tableau/tableau-server-in-kubernetes#14 ('failed to register layer: Error processing tar file(exit status 1): write ...: no space left on device'; 'Failed to pull image ...: rpc error: code = Unknown desc = failed to register layer: ...')",
            "kubernetes/kubernetes#32542 (kubelet 'Error syncing pod, skipping: failed to \"StartContainer\" for ... with ErrImagePull: \"failed to register layer: ... no space left on device\"')",
            "shared/reference/dataflow-log-signatures.md f1 ('Unable to pull container image due to error: ...' docs template), f2 (structured 'Error syncing pod, skipping' form, benign kubelet lines), 2d/d3 ('The Dataflow job appears to be stuck because no worker activity has been seen in the last 1h. ...'), f4 (disk)",
        ],
    }
    return j, truth


# =============================================================================
# 9. container-image (driver vs CUDA userland): RAPIDS cuDF UDF; the image's
#    nvvm/nvcc wheels (CUDA 12.9) emit PTX 8.8 but the worker driver is 12.8.
# =============================================================================
def job_rapids_ptx():
    j = Job("rapids-cudf-udf-ptx-version", seed=909, project="kestrel-risk", project_number="330918442751",
            region="asia-northeast1", zone="asia-northeast1-a", job_name="txn-features-cudf-20260302",
            job_id="2026-03-02_17_45_30-1175329965402118856", start=_ns(2026, 3, 3, 1, 45, 30),
            machine="g2-standard-16", gpu="nvidia-l4", gpu_count=1, py="3.12", beam="2.70.0",
            image="asia-northeast1-docker.pkg.dev/kestrel-risk/beam/rapids-features:25.06-py312",
            disk_gb=100, max_workers=4, harness_threads=1)
    s = j.site
    dofn = "/opt/features/cudf_dofn.py"
    steps = "ReadParquet/Read+Rebatch+Features/ParDo(CudfUdfFeaturesFn)+WriteFeatures/WriteToParquet/Write/WriteImpl/WriteBundles"
    j.dataflow_prologue([("ReadParquet/Read", "Rebatch"), ("Rebatch", "Features/ParDo(CudfUdfFeaturesFn)")], steps)
    j.wait(40)
    j.workers_up(driver="570.172.08")
    j.sdk_boot()
    j.all_workers_ready()
    vm_name = j.vm()[0]
    for k in range(10):
        j.worker("Loaded row group %d/24 of gs://kestrel-risk-lake/txn/dt=2026-03-01/part-%04d.parquet into cudf (%d rows)" % (k + 1, k // 3, j.rng.randrange(40000, 60000)),
                 logger="/opt/features/io_gpu.py:57", thread="Thread-%d" % j.rng.randrange(12, 20))
        j.wait(j.rng.uniform(0.3, 1.2))
    link = ("numba.cuda.cudadrv.driver.LinkerError: [222] Call to cuLinkAddData results in CUDA_ERROR_UNSUPPORTED_PTX_VERSION\n"
            "ptxas application ptx input, line 9; fatal   : Unsupported .version 8.8; current version is '8.7' "
            "[while running 'Features/ParDo(CudfUdfFeaturesFn)']")
    nc = s + "/numba_cuda/numba/cuda"
    trace = j.beam_process_tb([
        (dofn, 88, "process", "out = batch.apply(_risk_score_row, axis=1)"),
        (s + "/cudf/utils/performance_tracking.py", 51, "wrapper", "return func(*args, **kwargs)"),
        (s + "/cudf/core/dataframe.py", 4804, "apply", "return self._apply(func, _get_row_kernel, *args, **kwargs)"),
        (s + "/cudf/core/indexed_frame.py", 3492, "_apply", "kernel.forall(len(self))(*launch_args)"),
        (nc + "/dispatcher.py", 339, "__call__", "return self.dispatcher.call(args, self.griddim, self.blockdim,"),
        (nc + "/dispatcher.py", 539, "call", "kernel.launch(args, griddim, blockdim, stream, sharedmem)"),
        (nc + "/dispatcher.py", 317, "launch", "cufunc = self._codelibrary.get_cufunc()"),
        (nc + "/codegen.py", 265, "get_cufunc", "cubin = self.get_cubin(cc=device.compute_capability)"),
        (nc + "/codegen.py", 239, "get_cubin", "linker.add_ptx(ptx.encode(), ptx_name)"),
        (nc + "/cudadrv/driver.py", 2918, "add_ptx", 'raise LinkerError("%s\\n%s" % (e, self.error_log))'),
    ], link)
    for attempt in range(4):
        j.worker("cudf 25.06.00, numba-cuda 0.14.1, cuda-python 12.9.0; device NVIDIA L4 (cc 8.9)", logger=dofn + ":41")
        j.wait(3.3)
        j.worker("Rebatched 52,428 rows for UDF risk scoring", logger=dofn + ":84")
        j.docker("%s/dispatcher.py:579: NumbaPerformanceWarning: Grid size 1 will likely result in GPU under-utilization due to low occupancy." % nc)
        j.docker("  warn(NumbaPerformanceWarning(msg))")
        j.wait(2.6)
        j.instr_error(trace)
        j.wait(1.0)
        j.jm("Error message from worker: " + trace, "ERROR")
        j.wait(19)
    j.work_item_failure("S05:ReadParquet/Read+Rebatch+Features/ParDo(CudfUdfFeaturesFn)",
                        [(vm_name, "numba.cuda.cudadrv.driver.LinkerError: [222] Call to cuLinkAddData results in CUDA_ERROR_UNSUPPORTED_PTX_VERSION")] * 4)
    j.teardown()
    truth = {
        "job": j.name, "outcome": "failed", "family": "container-image",
        "root_cause": "The image's CUDA 12.9 NVVM/nvcc wheels made numba-cuda emit PTX ISA 8.8 for the cuDF row UDF, but the worker's NVIDIA driver only supports PTX 8.7 (CUDA 12.8), so linking the kernel failed with CUDA_ERROR_UNSUPPORTED_PTX_VERSION on every bundle.",
        "setup": {"gpu": "nvidia-l4 x1 on g2-standard-16", "python": j.py, "beam": j.beam, "stack": "RAPIDS cuDF 25.06 DataFrame.apply UDF (numba-cuda JIT)", "region": j.region},
        "evidence": [
            "Call to cuLinkAddData results in CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
            "Unsupported .version 8.8; current version is '8.7'",
        ],
        "red_herrings": [
            "NumbaPerformanceWarning: Grid size 1 will likely result in GPU under-utilization due to low occupancy.",
            "Error initializing dynamic plugin prober",
        ],
        "sources": [
            "rapidsai/cudf#18686 (2025-05: 'numba.cuda.cudadrv.driver.LinkerError: [222] Call to cuLinkAddData results in CUDA_ERROR_UNSUPPORTED_PTX_VERSION' / 'ptxas application ptx input, line 9; fatal   : Unsupported .version 8.8; current version is '8.7''; maintainers: PTX from CUDA 12.9 NVVM wheel newer than the driver)",
            "NVIDIA/numba-cuda#163, numba/numba#7006 (same LinkerError family, 2025)",
            "public log via code search ('numba_cuda/numba/cuda/dispatcher.py:579: NumbaPerformanceWarning: Grid size 1 will likely result in GPU under-utilization due to low occupancy.' + '  warn(NumbaPerformanceWarning(msg))')",
            "shared/reference/dataflow-log-signatures.md 2f/2i (Dataflow wording)",
        ],
    }
    return j, truth


# =============================================================================
# 10. SUCCEEDED but silently on CPU: torch 2.9 cu130 wheels on a CUDA 12.8
#     driver -> torch.cuda.is_available() False -> Beam HF handler uses CPU.
# =============================================================================
def job_silent_cpu():
    j = Job("silent-cpu-torch-cu130-driver-12080", seed=1010, project="sundial-support", project_number="487120993305",
            region="us-east1", zone="us-east1-d", job_name="ticket-sentiment-backfill-1121",
            job_id="2025-11-21_05_10_11-14471139875520331906", start=_ns(2025, 11, 21, 13, 10, 11),
            machine="g2-standard-8", gpu="nvidia-l4", gpu_count=1, py="3.12", beam="2.69.0",
            image="us-east1-docker.pkg.dev/sundial-support/beam/hf-pipeline:torch2.9-cu130",
            disk_gb=50, max_workers=4, jobmsg_project_number=True)
    s = j.site
    hf = s + "/apache_beam/ml/inference/huggingface_inference.py"
    steps = "ReadTickets/ReadFromBigQuery/Read+ExtractText+RunInference/BeamML_RunInference_Preprocess-0+RunInference/BeamML_RunInference+RunInference/BeamML_RunInference_Postprocess-0+ToRow+WriteSentiment/StorageWriteToBigQuery"
    j.dataflow_prologue([("ReadTickets/ReadFromBigQuery/Read", "ExtractText"), ("ExtractText", "RunInference/BeamML_RunInference")], steps)
    j.wait(44)
    j.workers_up(driver="570.172.08")
    workers = ["w0"]
    j.sdk_boot()
    j.all_workers_ready()

    def model_load(vk):
        j.docker("%s/torch/cuda/__init__.py:182: UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 12080). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org/ to install a PyTorch version that has been compiled with your version of the CUDA driver. (Triggered internally at /pytorch/c10/cuda/CUDAFunctions.cpp:119.)" % s, vm_key=vk)
        j.docker("  return torch._C._cuda_getDeviceCount() > 0", vm_key=vk)
        j.worker("HuggingFaceModelHandler specified a 'GPU' device, but GPUs are not available. Switching to CPU.", "WARNING",
                 logger=hf + ":112", vm_key=vk, thread="Thread-14")
        j.wait(1.2)
        j.docker("Device set to use cpu", vm_key=vk)

    model_load("w0")
    j.wait(600)
    j.jm("Autoscaling: Raised the number of workers to 4 based on the rate of progress in the currently running stage(s).", "DETAILED")
    j.wait(60)
    for k in range(1, 4):
        vk = "w%d" % k
        workers.append(vk)
        j.vm_boot(vm_key=vk, driver="570.172.08")
        j.sdk_boot(vm_key=vk)
        model_load(vk)
    done = {vk: 0 for vk in workers}
    for hour in range(14):
        j.wait(640)
        for vk in workers:
            j.wait(j.rng.uniform(4, 40))
            done[vk] += j.rng.randrange(1900, 2300) if vk == "w0" or hour else j.rng.randrange(500, 900)
            j.worker("Scored %d tickets so far on this worker (batch_size=16, device=cpu)" % done[vk],
                     logger="/srv/sentiment/pipeline.py:58", vm_key=vk, thread="Thread-14")
    j.wait(30)
    j.jm("Finished operation %s" % steps, "BASIC")
    j.jm("Cleaning up.", "DETAILED")
    j.jm("Starting worker pool teardown.", "DEBUG")
    j.jm("Stopping worker pool...", "BASIC")
    j.wait(100)
    j.jm("Autoscaling: Resized worker pool from 4 to 0.", "DETAILED")
    j.jm("Worker pool stopped.", "BASIC")
    j.jm("Tearing down pending resources...", "DEBUG")
    truth = {
        "job": j.name, "outcome": "succeeded", "family": "pytorch-tensorflow",
        "root_cause": "The job finished but never used the L4 GPUs: the image's PyTorch 2.9 CUDA 13.0 build needs a newer driver than the workers' CUDA 12.8 driver, so torch reported no usable GPU and Beam's HuggingFace pipeline handler silently switched inference to CPU.",
        "setup": {"gpu": "nvidia-l4 x1 on g2-standard-8 (autoscaled to 4)", "python": j.py, "beam": j.beam, "stack": "transformers pipeline via HuggingFacePipelineModelHandler(device='GPU'), torch 2.9.0+cu130", "region": j.region},
        "evidence": [
            "HuggingFaceModelHandler specified a 'GPU' device, but GPUs are not available. Switching to CPU.",
            "The NVIDIA driver on your system is too old (found version 12080).",
            "Device set to use cpu",
        ],
        "red_herrings": [
            "Error initializing dynamic plugin prober",
            "Skipping pod synchronization",
        ],
        "sources": [
            "pytorch/pytorch#162531 (2025-09, cu130 torch on a 12.8 driver: 'torch/cuda/__init__.py:182: UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 12080). ... (Triggered internally at .../c10/cuda/CUDAFunctions.cpp:119.)' and '  return torch._C._cuda_getDeviceCount() > 0')",
            "sgl-project/sglang#11395 (same warning, found version 12040, CUDA 13 upgrade)",
            "apache/beam sdks/python/apache_beam/ml/inference/huggingface_inference.py via code search (\"HuggingFaceModelHandler specified a 'GPU' device, but GPUs are not available. Switching to CPU.\")",
            "transformers pipeline output via code search ('Device set to use cpu'; one public note calls it 'the only sign' of a silent CPU fallback)",
            "shared/reference/dataflow-log-signatures.md 2i (normal job-message sequence, teardown)",
        ],
    }
    return j, truth


# =============================================================================
# 11. HEALTHY: TensorFlow 2.18 on L4 with the usual scary-looking noise.
# =============================================================================
def job_healthy_tf():
    j = Job("healthy-tf218-l4-noise", seed=1111, project="lumen-retail-ml", project_number="774410298563",
            region="us-central1", zone="us-central1-a", job_name="product-embeddings-tf-0527",
            job_id="2025-05-27_02_03_56-5521409934870012365", start=_ns(2025, 5, 27, 9, 3, 56),
            machine="g2-standard-8", gpu="nvidia-l4", gpu_count=1, py="3.11", beam="2.62.0",
            image="us-central1-docker.pkg.dev/lumen-retail-ml/beam/tf-embed:2.18.0",
            disk_gb=60, max_workers=2, harness_threads=1)
    s = j.site
    steps = "ReadImages/Read+Decode+RunInference/BeamML_RunInference_Preprocess-0+RunInference/BeamML_RunInference+RunInference/BeamML_RunInference_Postprocess-0+ToRow+WriteEmbeddings/StorageWriteToBigQuery"
    j.dataflow_prologue([("ReadImages/Read", "Decode"), ("Decode", "RunInference/BeamML_RunInference")], steps)
    j.wait(42)
    j.workers_up(driver="570.172.08")
    j.sdk_boot()
    j.all_workers_ready()
    tid = 417
    j.docker("%s: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:477] Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered" % j.tf_ts())
    j.docker("WARNING: All log messages before absl::InitializeLog() is called are written to STDERR")
    j.docker(j.absl("E", tid, "cuda_dnn.cc:8310", "Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered"))
    j.docker(j.absl("E", tid, "cuda_blas.cc:1418", "Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered"))
    j.docker("%s: I tensorflow/core/platform/cpu_feature_guard.cc:210] This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations." % j.tf_ts())
    j.docker("To enable the following instructions: AVX2 AVX512F AVX512_VNNI AVX512_BF16 AVX_VNNI AMX_TILE AMX_INT8 AMX_BF16 FMA, in other operations, rebuild TensorFlow with the appropriate compiler flags.")
    j.wait(4)
    j.worker("Loading SavedModel from gs://lumen-retail-ml-models/product-embedder/saved_model/v12", logger="/srv/embed/pipeline.py:52")
    j.docker(j.absl("I", tid, "gpu_device.cc:2022", "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 20715 MB memory:  -> device: 0, name: NVIDIA L4, pci bus id: 0000:00:03.0, compute capability: 8.9"))
    j.wait(6)
    j.worker("Compiled the loaded model, but the compiled metrics have yet to be built. `model.compile_metrics` will be empty until you train or evaluate the model.",
             "WARNING", logger=s + "/absl/logging/__init__.py:1026")
    j.wait(3)
    j.docker(j.absl("I", tid + 58, "service.cc:148", "XLA service 0x7f9e5c00b2f0 initialized for platform CUDA (this does not guarantee that XLA will be used). Devices:"))
    j.docker(j.absl("I", tid + 58, "service.cc:156", "  StreamExecutor device (0): NVIDIA L4, Compute Capability 8.9"))
    j.docker(j.absl("I", tid + 58, "cuda_dnn.cc:529", "Loaded cuDNN version 90300"))
    j.docker(j.absl("I", tid + 58, "device_compiler.h:188", "Compiled cluster using XLA!  This line is logged at most once for the lifetime of the process."))
    j.wait(40)
    j.docker(j.absl("W", tid + 61, "bfc_allocator.cc:310", "Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.10GiB with freed_by_count=0. The caller indicates that this is not a failure, but may mean that there could be performance gains if more memory were available."))
    total = 0
    for k in range(24):
        j.wait(j.rng.uniform(140, 200))
        total += j.rng.randrange(11000, 13000)
        j.worker("Embedded %d images (batch_size=256, device=/GPU:0)" % total, logger="/srv/embed/pipeline.py:88")
        if k == 9:
            j.docker(j.absl("W", tid + 61, "bfc_allocator.cc:310", "Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.10GiB with freed_by_count=0. The caller indicates that this is not a failure, but may mean that there could be performance gains if more memory were available."))
    j.wait(20)
    j.jm("Finished operation %s" % steps, "BASIC")
    j.teardown(failed=False)
    truth = {
        "job": j.name, "outcome": "succeeded", "family": "none",
        "root_cause": "none",
        "setup": {"gpu": "nvidia-l4 x1 on g2-standard-8", "python": j.py, "beam": j.beam, "stack": "TensorFlow 2.18 SavedModel via TFModelHandlerTensor", "region": j.region},
        "evidence": [
            "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 20715 MB memory:  -> device: 0, name: NVIDIA L4",
            "Loaded cuDNN version 90300",
            "Worker pool stopped.",
        ],
        "red_herrings": [
            "Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered",
            "Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered",
            "Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered",
            "Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.10GiB with freed_by_count=0. The caller indicates that this is not a failure",
            "Compiled the loaded model, but the compiled metrics have yet to be built.",
            "Error initializing dynamic plugin prober",
        ],
        "sources": [
            "public TF 2.18 logs via code search (cuda_fft.cc:477 / cuda_dnn.cc:8310 / cuda_blas.cc:1418 registration errors, cpu_feature_guard.cc:210)",
            "tensorflow/tensorflow#62075, #63109, openxla/xla#20803 (registration errors are harmless noise)",
            "talmolab/sleap#2142 via shared/reference 2b ('Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.10GiB with freed_by_count=0. The caller indicates that this is not a failure, ...')",
            "public logs via code search ('WARNING:absl:Compiled the loaded model, but the compiled metrics have yet to be built. `model.compile_metrics` will be empty until you train or evaluate the model.')",
            "shared/reference/dataflow-log-signatures.md 2i (absl 'Created device ... compute capability' format; benign kubelet/system lines)",
        ],
    }
    return j, truth


# =============================================================================
# 12. HEALTHY: ONNX Runtime CUDA EP embeddings on T4; HF Hub 429 retried once;
#     ORT partitioning warnings.
# =============================================================================
def job_healthy_ort():
    j = Job("healthy-ort-cuda-hf429-retry", seed=1212, project="fjord-search", project_number="903385124470",
            region="europe-west1", zone="europe-west1-d", job_name="kb-embeddings-onnx-0708",
            job_id="2025-07-08_08_33_12-10933751204698321555", start=_ns(2025, 7, 8, 15, 33, 12),
            machine="n1-standard-8", gpu="nvidia-tesla-t4", gpu_count=1, py="3.10", beam="2.58.0",
            image="europe-west1-docker.pkg.dev/fjord-search/beam/onnx-embedder:1.20.1-cu12",
            disk_gb=50, max_workers=3, harness_threads=1, jobmsg_project_number=True)
    s = j.site
    dofn = "/app/embedder/setup_model.py"
    steps = "ReadArticles/Read+Chunk+Tokenize+RunInference/BeamML_RunInference+Normalize+WriteVectors/Write/WriteImpl/WriteBundles"
    j.dataflow_prologue([("ReadArticles/Read", "Chunk"), ("Chunk", "Tokenize"), ("Tokenize", "RunInference/BeamML_RunInference")], steps)
    j.wait(47)
    j.workers_up(driver="550.90.07")
    j.sdk_boot()
    j.all_workers_ready()
    hfh = s + "/huggingface_hub/utils/_http.py"
    url = "https://huggingface.co/BAAI/bge-base-en-v1.5/resolve/a5beb1e3e68b9ab74eb54cfd186867f64f240e1a/onnx/model.onnx"
    j.worker("Downloading BAAI/bge-base-en-v1.5 onnx/model.onnx to /tmp/hf", logger=dofn + ":23")
    j.worker("HTTP Error 429 thrown while requesting GET %s" % url, "WARNING", logger=hfh + ":392")
    j.worker("Retrying in 1s [Retry 1/5].", "WARNING", logger=hfh + ":416")
    j.wait(1.3)
    j.worker("HTTP Error 429 thrown while requesting GET %s" % url, "WARNING", logger=hfh + ":392")
    j.worker("Retrying in 2s [Retry 2/5].", "WARNING", logger=hfh + ":416")
    j.wait(2.4)
    j.docker("model.onnx:   0%|          | 0.00/436M [00:00<?, ?B/s]")
    j.wait(6.1)
    j.docker("model.onnx: 100%|##########| 436M/436M [00:05<00:00, 79.8MB/s]")
    ort_t = lambda: _dt.datetime.fromtimestamp(j.now / 1e9, tz=_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f") + "%03d" % j.rng.randrange(1000)
    j.docker("%s [W:onnxruntime:, transformer_memcpy.cc:74 ApplyImpl] 12 Memcpy nodes are added to the graph main_graph for CUDAExecutionProvider. It might have negative impact on performance (including unable to run CUDA graph). Set session_options.log_severity_level=1 to see the detail logs before this message." % ort_t())
    j.docker("%s [W:onnxruntime:, session_state.cc:1166 VerifyEachNodeIsAssignedToAnEp] Some nodes were not assigned to the preferred execution providers which may or may not have an negative impact on performance. e.g. ORT explicitly assigns shape related ops to CPU to improve perf." % ort_t())
    j.docker("%s [W:onnxruntime:, session_state.cc:1168 VerifyEachNodeIsAssignedToAnEp] Rerunning with verbose output on a non-minimal build will show node assignments." % ort_t())
    j.worker("ONNX Runtime 1.20.1 session providers: ['CUDAExecutionProvider', 'CPUExecutionProvider']", logger=dofn + ":41")
    total = 0
    for k in range(26):
        j.wait(j.rng.uniform(95, 140))
        total += j.rng.randrange(30000, 36000)
        j.worker("Embedded %d chunks (batch=64) on CUDAExecutionProvider, p50 batch latency %.1f ms" % (total, j.rng.uniform(38, 47)),
                 logger="/app/embedder/pipeline.py:97")
        if k == 12:
            j.jm("Autoscaling: Raised the number of workers to 2 based on the rate of progress in the currently running stage(s).", "DETAILED")
            j.vm_boot(vm_key="w1", driver="550.90.07")
            j.sdk_boot(vm_key="w1")
            j.worker("HTTP Error 429 thrown while requesting GET %s" % url, "WARNING", logger=hfh + ":392", vm_key="w1")
            j.worker("Retrying in 1s [Retry 1/5].", "WARNING", logger=hfh + ":416", vm_key="w1")
            j.wait(3.0)
            j.docker("%s [W:onnxruntime:, transformer_memcpy.cc:74 ApplyImpl] 12 Memcpy nodes are added to the graph main_graph for CUDAExecutionProvider. It might have negative impact on performance (including unable to run CUDA graph). Set session_options.log_severity_level=1 to see the detail logs before this message." % ort_t(), vm_key="w1")
            j.worker("ONNX Runtime 1.20.1 session providers: ['CUDAExecutionProvider', 'CPUExecutionProvider']", logger=dofn + ":41", vm_key="w1")
    j.wait(30)
    j.jm("Finished operation %s" % steps, "BASIC")
    j.wait(0.8)
    j.jm("Cleaning up.", "DETAILED")
    j.jm("Starting worker pool teardown.", "DEBUG")
    j.jm("Stopping worker pool...", "BASIC")
    j.wait(95)
    j.jm("Autoscaling: Resized worker pool from 2 to 0.", "DETAILED")
    j.jm("Worker pool stopped.", "BASIC")
    j.jm("Tearing down pending resources...", "DEBUG")
    truth = {
        "job": j.name, "outcome": "succeeded", "family": "none",
        "root_cause": "none",
        "setup": {"gpu": "nvidia-tesla-t4 x1 on n1-standard-8 (autoscaled to 2)", "python": j.py, "beam": j.beam, "stack": "onnxruntime-gpu 1.20.1 CUDAExecutionProvider, model fetched with huggingface_hub", "region": j.region},
        "evidence": [
            "ONNX Runtime 1.20.1 session providers: ['CUDAExecutionProvider', 'CPUExecutionProvider']",
            "model.onnx: 100%|##########| 436M/436M",
            "Worker pool stopped.",
        ],
        "red_herrings": [
            "HTTP Error 429 thrown while requesting GET https://huggingface.co/BAAI/bge-base-en-v1.5/resolve/",
            "Retrying in 1s [Retry 1/5].",
            "Memcpy nodes are added to the graph main_graph for CUDAExecutionProvider. It might have negative impact on performance",
            "Some nodes were not assigned to the preferred execution providers which may or may not have an negative impact on performance.",
        ],
        "sources": [
            "huggingface/huggingface_hub src/huggingface_hub/utils/_http.py via code search (logger.warning 'HTTP Error {status} thrown while requesting {method} {url}' and 'Retrying in {sleep}s [Retry {n}/{max}].'; file_download.http_get retries GET on 429)",
            "infiniflow/ragflow#13703 (2026, 'session_state.cc:1166 VerifyEachNodeIsAssignedToAnEp] Some nodes were not assigned to the preferred execution providers which may or may not have an negative impact on performance. e.g. ORT explicitly assigns shape related ops to CPU to improve perf.' and ':1168 ... Rerunning with verbose output on a non-minimal build will show node assignments.')",
            "public logs via code search ('[W:onnxruntime:, transformer_memcpy.cc:74 ApplyImpl] N Memcpy nodes are added to the graph main_graph for CUDAExecutionProvider. It might have negative impact on performance (including unable to run CUDA graph). Set session_options.log_severity_level=1 to see the detail logs before this message.')",
            "microsoft/onnxruntime#10831 (node-placement warning is informational)",
            "shared/reference/dataflow-log-signatures.md 2i (healthy job-message sequence)",
        ],
    }
    return j, truth


JOBS = [job_vllm_bf16_t4, job_llamacpp_kernel_image, job_jax_cudnn, job_tf218_cudnn91, job_hf_disk_full,
        job_nccl_shm, job_h100_capacity, job_image_pull_disk, job_rapids_ptx, job_silent_cpu,
        job_healthy_tf, job_healthy_ort]

SYNTHETIC_NOTE = ("Envelope synthetic: LogEntry JSON, insertIds, timestamps, project/job/worker names, job ids, "
                  "ordering, user-code log lines and Python traceback line numbers/frames in Beam and library code. "
                  "Library/platform wording of evidence and red-herring lines copied from the cited sources.")


# Neutral directory names so the case id does not leak the answer; fixed shuffle.
CASE_DIR = {
    "healthy-ort-cuda-hf429-retry": "hs2-01",
    "jax-outdated-cudnn-a100": "hs2-02",
    "image-pull-no-space-l4": "hs2-03",
    "vllm-bf16-on-t4": "hs2-04",
    "silent-cpu-torch-cu130-driver-12080": "hs2-05",
    "nccl-dev-shm-2xl4": "hs2-06",
    "h100-zone-exhausted": "hs2-07",
    "tf218-cudnn-91-from-torch-pin": "hs2-08",
    "healthy-tf218-l4-noise": "hs2-09",
    "rapids-cudf-udf-ptx-version": "hs2-10",
    "llamacpp-no-kernel-image-t4": "hs2-11",
    "hf-download-disk-full-a100": "hs2-12",
}


def main():
    if os.path.isdir(CASES):
        shutil.rmtree(CASES)
    os.makedirs(CASES)
    problems = []
    summary = []
    for fn in JOBS:
        job, truth = fn()
        exp = job.export()
        d = os.path.join(CASES, CASE_DIR[job.name])
        os.makedirs(d)
        text = json.dumps(exp, indent=2, ensure_ascii=True) + "\n"
        with open(os.path.join(d, "export.json"), "w", encoding="utf-8") as f:
            f.write(text)
        truth.setdefault("synthetic", [SYNTHETIC_NOTE])
        write_truth(os.path.join(d, "truth.yaml"), truth)
        # --- self checks ---
        parsed = json.loads(text)
        msgs = []
        for e in parsed:
            msgs.append(e.get("textPayload") or e.get("jsonPayload", {}).get("message", ""))
        joined = "\n".join(msgs)
        for kind in ("evidence", "red_herrings"):
            for ev in truth[kind]:
                if ev not in joined or ev not in text:
                    problems.append("%s: %s not verbatim: %r" % (job.name, kind, ev))
        if not (60 <= len(parsed) <= 300):
            problems.append("%s: %d entries (want 60-300)" % (job.name, len(parsed)))
        ts = [e["timestamp"] for e in parsed]
        summary.append((CASE_DIR[job.name] + " " + job.name, len(parsed), len(text), hashlib.sha256(text.encode()).hexdigest()[:12]))
    total = 0
    for name, n, size, h in summary:
        total += size
        print("%-47s %4d entries %8d bytes sha256:%s" % (name, n, size, h))
    print("total bytes: %d" % total)
    if total >= 5 * 1024 * 1024:
        problems.append("set is %d bytes (>= 5 MB)" % total)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
