#!/usr/bin/env python3
"""Generate the held-out "stacks" evaluation set for gpudiag.

Twelve Dataflow GPU jobs, each written as a Cloud Logging export
(`gcloud logging read --format=json`, newest first) plus a truth.yaml.

The error wording inside the exports is copied from public sources (GitHub
issues and library source code) that are cited in each truth.yaml.  The
LogEntry envelopes, timings, names and IDs are synthetic.

Written 2026-12-06 without reading gpudiag's rules, corpus, engine or tests.
Standard library only.  Deterministic: re-running produces identical files.

    python3 make.py            # writes ./cases/<name>/{export.json,truth.yaml}
"""

import datetime as dt
import hashlib
import json
import os
import random
import string
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "cases")

UTC = dt.timezone.utc

GPU_INFO = {
    "nvidia-tesla-t4": dict(name="Tesla T4", cc="7.5", mib=15360, total=15835398144, bus="0000:00:04.0"),
    "nvidia-l4": dict(name="NVIDIA L4", cc="8.9", mib=23034, total=23580639232, bus="0000:00:03.0"),
    "nvidia-tesla-a100": dict(name="NVIDIA A100-SXM4-40GB", cc="8.0", mib=40960, total=42298834944, bus="0000:00:04.0"),
    "nvidia-h100-80gb": dict(name="NVIDIA H100 80GB HBM3", cc="9.0", mib=81559, total=85520809984, bus="0000:04:00.0"),
}


# --------------------------------------------------------------------------
# LogEntry builder
# --------------------------------------------------------------------------

def pacific(t):
    """Dataflow job ids carry the submission time in US Pacific time."""
    offset = 7 if 3 <= t.month <= 10 else 8
    return t - dt.timedelta(hours=offset)


class Job:
    def __init__(self, key, *, project, region, zone, job_name, start,
                 machine, gpu, gpu_count, py, beam, image, options_extra=None,
                 experiments=None, n_vms=1, project_number=None, driver="535.230.02",
                 sdk_procs=1, service_options=None):
        self.key = key
        self.rng = random.Random(int(hashlib.sha256(key.encode()).hexdigest()[:12], 16))
        self.project = project
        self.project_number = project_number
        self.region = region
        self.zone = zone
        self.job_name = job_name
        self.start = start
        self.t = start
        self.machine = machine
        self.gpu = gpu
        self.gpu_count = gpu_count
        self.py = py
        self.beam = beam
        self.image = image
        self.driver = driver
        self.sdk_procs = sdk_procs
        pt = pacific(start)
        self.job_id = pt.strftime("%Y-%m-%d_%H_%M_%S") + "-" + str(self.rng.randrange(10 ** 18, 10 ** 19))
        self.vm_prefix = job_name[:25].rstrip("-") + "-" + pt.strftime("%m%d%H%M") + "-" + self.r36(4)
        self.vms = [self.new_vm() for _ in range(n_vms)]
        self.vm_ids = {vm: str(self.rng.randrange(10 ** 18, 10 ** 19)) for vm in self.vms}
        self.entries = []
        self.experiments = experiments if experiments is not None else ["use_runner_v2"]
        self.service_options = service_options or [
            "worker_accelerator=type:%s;count:%d;install-nvidia-driver" % (gpu, gpu_count)]
        self.options_extra = options_extra or {}
        self.site = "/usr/local/lib/python%s/site-packages" % py

    # -- small helpers ------------------------------------------------------
    def r36(self, n):
        return "".join(self.rng.choice(string.ascii_lowercase + string.digits) for _ in range(n))

    def new_vm(self):
        vm = self.vm_prefix + "-harness-" + self.r36(4)
        if hasattr(self, "vm_ids"):
            self.vm_ids[vm] = str(self.rng.randrange(10 ** 18, 10 ** 19))
        return vm

    def adv(self, lo, hi=None):
        s = lo if hi is None else self.rng.uniform(lo, hi)
        self.t = self.t + dt.timedelta(seconds=s)
        return self.t

    def ts(self, t, digits=None):
        if digits is None:
            digits = self.rng.choice([9, 9, 9, 6, 6, 3])
        base = t.strftime("%Y-%m-%dT%H:%M:%S")
        frac = "%09d" % (t.microsecond * 1000 + self.rng.randrange(0, 1000))
        frac = frac[:digits].rstrip("0") if digits < 9 else frac
        return base + ("." + frac if frac else "") + "Z"

    def insert_id(self, log):
        if log == "system":
            return "s=%s;i=%x;b=%s;m=%x;t=%x;x=%s" % (
                self.r36(32).replace("y", "a"), self.rng.randrange(100, 9000), self.r36(32),
                self.rng.randrange(10 ** 5, 10 ** 8), self.rng.randrange(10 ** 14, 10 ** 15), self.r36(16))
        if log == "job-message":
            return self.r36(self.rng.choice([10, 11, 12]))
        return self.r36(self.rng.choice([14, 15, 16]))

    def pydt(self, t):
        return t.strftime("%m-%d %H:%M:%S")

    # -- entry ----------------------------------------------------------------
    def add(self, log, msg, sev="INFO", vm=None, step="", t=None, json_extra=None,
            text=False, logger=None, thread=None, sdk=None):
        t = t or self.t
        e = {
            "insertId": self.insert_id(log),
            "logName": "projects/%s/logs/dataflow.googleapis.com%%2F%s" % (self.project, log),
            "receiveTimestamp": self.ts(t + dt.timedelta(seconds=self.rng.uniform(0.2, 9.0)), 9),
            "resource": {
                "type": "dataflow_step",
                "labels": {
                    "job_id": self.job_id,
                    "job_name": self.job_name,
                    "project_id": (self.project_number if (log == "job-message" and self.project_number) else self.project),
                    "region": self.region,
                    "step_id": step,
                },
            },
            "severity": sev,
            "timestamp": self.ts(t),
        }
        labels = {
            "dataflow.googleapis.com/job_id": self.job_id,
            "dataflow.googleapis.com/job_name": self.job_name,
            "dataflow.googleapis.com/region": self.region,
        }
        if log != "worker":
            labels["dataflow.googleapis.com/log_type"] = "system"
        if vm:
            labels["compute.googleapis.com/resource_type"] = "instance"
            labels["compute.googleapis.com/resource_name"] = vm
            labels["compute.googleapis.com/resource_id"] = self.vm_ids[vm]
        e["labels"] = labels
        if text or log in ("job-message", "docker"):
            e["textPayload"] = msg
        else:
            p = {"message": msg}
            if log in ("worker", "harness"):
                p["job"] = self.job_id
                p["worker"] = vm
                p["logger"] = logger or ("%s/apache_beam/runners/worker/sdk_worker.py:%d" % (self.site, 300))
                p["thread"] = thread or "MainThread"
                if sdk:
                    p["portability_worker_id"] = sdk
                if step:
                    p["step"] = step
            if json_extra:
                p.update(json_extra)
            e["jsonPayload"] = p
        self.entries.append(e)
        return e

    # convenience wrappers
    def jm(self, msg, sev="INFO", step=""):
        return self.add("job-message", msg, sev=sev, step=step)

    def worker(self, vm, msg, sev="INFO", logger=None, thread=None, sdk="sdk-0-0", step=""):
        return self.add("worker", msg, sev=sev, vm=vm, logger=logger, thread=thread, sdk=sdk, step=step)

    def docker(self, vm, msg, sev="INFO"):
        return self.add("docker", msg, sev=sev, vm=vm)

    def sys(self, vm, msg, sev="INFO"):
        return self.add("system", msg, sev=sev, vm=vm)

    def kubelet(self, vm, msg, sev="INFO"):
        return self.add("kubelet", msg, sev=sev, vm=vm)

    def startup(self, vm, msg, sev="INFO"):
        return self.add("worker-startup", msg, sev=sev, vm=vm)

    def harness(self, vm, msg, sev="INFO"):
        return self.add("harness", msg, sev=sev, vm=vm,
                        logger="org.apache.beam.runners.dataflow.worker.fn.harness.HarnessLogger",
                        thread="main")

    # -- pipeline options echo -------------------------------------------------
    def options_dict(self):
        d = {
            "runner": "DataflowRunner",
            "project": self.project,
            "job_name": self.job_name,
            "region": self.region,
            "staging_location": "gs://%s-dataflow/staging" % self.project,
            "temp_location": "gs://%s-dataflow/tmp" % self.project,
            "dataflow_service_options": list(self.service_options),
            "machine_type": self.machine,
            "sdk_container_image": self.image,
            "sdk_location": "container",
            "experiments": list(self.experiments),
            "save_main_session": True,
        }
        d.update(self.options_extra)
        return d

    def options_repr(self):
        return repr(self.options_dict())


def dump(job, truth):
    d = os.path.join(OUT, job.key)
    os.makedirs(d, exist_ok=True)
    entries = sorted(job.entries, key=lambda e: e["timestamp"], reverse=True)
    # timestamps of different precision do not sort lexically; sort on parsed value
    entries = sorted(job.entries, key=lambda e: parse_ts(e["timestamp"]), reverse=True)
    with open(os.path.join(d, "export.json"), "w") as f:
        json.dump(entries, f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    blob = "\n".join(e.get("textPayload") or e.get("jsonPayload", {}).get("message", "") for e in entries)
    for ev in truth["evidence"]:
        if ev not in blob:
            raise SystemExit("%s: evidence not found in export: %r" % (job.key, ev))
    with open(os.path.join(d, "truth.yaml"), "w") as f:
        f.write(to_yaml(truth))
    return len(entries)


def parse_ts(s):
    base, _, frac = s.rstrip("Z").partition(".")
    t = dt.datetime.strptime(base, "%Y-%m-%dT%H:%M:%S")
    return (t, int((frac + "000000000")[:9]))


def y(v):
    return json.dumps(v, ensure_ascii=False)


def to_yaml(truth):
    out = ["# Held-out truth for gpudiag (written 2026-12-06 without reading gpudiag's rules).",
           "# Strings are JSON-style double-quoted YAML scalars."]
    for k in ("job", "job_id", "job_name", "outcome", "family", "root_cause"):
        out.append("%s: %s" % (k, y(truth[k])))
    out.append("config:")
    for k, v in truth["config"].items():
        out.append("  %s: %s" % (k, y(v)))
    out.append("evidence:")
    for ev in truth["evidence"]:
        out.append("  - %s" % y(ev))
    if truth.get("red_herrings"):
        out.append("red_herrings:")
        for ev in truth["red_herrings"]:
            out.append("  - %s" % y(ev))
    out.append("sources:")
    for s in truth["sources"]:
        out.append("  - what: %s" % y(s[0]))
        out.append("    source: %s" % y(s[1]))
    out.append("notes: %s" % y(truth.get("notes", "")))
    return "\n".join(out) + "\n"


def truth_base(job, outcome, family, root_cause):
    return {
        "job": job.key,
        "job_id": job.job_id,
        "job_name": job.job_name,
        "outcome": outcome,
        "family": family,
        "root_cause": root_cause,
        "config": {
            "python": job.py,
            "beam": job.beam,
            "machine_type": job.machine,
            "gpu": "%s x%d" % (job.gpu, job.gpu_count),
            "region": job.region,
            "zone": job.zone,
        },
    }


# --------------------------------------------------------------------------
# Platform scaffolding shared by the jobs (Dataflow service + worker VM noise)
# Wording from dataflow-log-signatures.md §2i / §1.2 / §2f (real job-message
# sequences, SDK-harness startup lines, benign kubelet/system lines).
# --------------------------------------------------------------------------

def job_start(J, steps, max_workers=2, streaming=False):
    J.jm("Autoscaling is enabled for job %s. The number of workers will be between 1 and %d." % (J.job_id, max_workers))
    J.adv(0.4, 1.2)
    J.jm("Worker configuration: %s in %s." % (J.machine, J.zone))
    J.adv(0.5, 2)
    J.jm("Expanding SplittableParDo operations into optimizable parts.")
    J.adv(0.01, 0.05)
    J.jm("Fusing adjacent ParDo, Read, Write, and Flatten operations")
    for a, b in zip(steps[1:], steps[:-1]):
        J.adv(0.005, 0.03)
        J.jm("Fusing consumer %s into %s" % (a, b))
    J.adv(0.1, 0.4)
    J.jm("Workflow config is missing a default resource spec.", sev="DEBUG")
    J.adv(0.05, 0.2)
    J.jm("Starting worker pool setup.", sev="DEBUG")
    J.adv(0.05, 0.2)
    J.jm("Starting 1 workers in %s..." % J.zone)
    J.adv(0.3, 1)
    J.jm("Executing operation %s" % "+".join(steps))


def vm_boot(J, vm, gpu_ok=True):
    """Host-level lines of a worker VM coming up (system / kubelet / worker-startup)."""
    J.adv(25, 45)
    J.sys(vm, "ima: No architecture policies found")
    J.adv(0.01, 0.1)
    J.sys(vm, "ima: Can not allocate sha384 (reason: -2)")
    J.adv(3, 8)
    J.kubelet(vm, 'Error initializing dynamic plugin prober" err="error (re-)creating driver directory: mkdir /usr/libexec/kubernetes: read-only file system', sev="ERROR")
    J.adv(0.2, 1)
    J.kubelet(vm, 'Skipping pod synchronization" err="container runtime status check may not have completed yet"', sev="INFO")
    J.adv(1, 3)
    J.startup(vm, "Installing GPU driver version %s" % J.driver)
    J.adv(20, 60)
    J.startup(vm, "Verifying GPU driver installation")
    J.adv(2, 5)
    if gpu_ok:
        J.startup(vm, "Finished installing the drivers.")
    J.adv(40, 150)


def sdk_start(J, vm, sdk="sdk-0-0", control_port=12371):
    """Python SDK harness startup block, as written to the worker log."""
    L = J.site + "/apache_beam/runners/worker/sdk_worker_main.py:%d"
    J.docker(vm, "Initializing python harness: /opt/apache/beam/boot --id=%s --provision_endpoint=localhost:12365" % sdk)
    J.adv(0.5, 2)
    J.docker(vm, "Executing: python -m apache_beam.runners.worker.sdk_worker_main")
    J.adv(1.5, 4)
    J.worker(vm, "Logging handler created.", logger=L % 107, sdk=sdk)
    J.adv(0.01, 0.05)
    J.worker(vm, "semi_persistent_directory: /var/opt/google", logger=L % 134, sdk=sdk)
    J.adv(0.01, 0.05)
    J.worker(vm, "No session file found: /var/opt/google/staged/pickled_main_session. Functions defined in __main__ (interactive session) may fail.",
             sev="WARNING", logger=L % 393, sdk=sdk)
    J.adv(0.01, 0.05)
    J.worker(vm, "Pipeline_options: %s" % J.options_repr(), logger=L % 166, sdk=sdk)
    J.adv(0.05, 0.3)
    J.worker(vm, "Python sdk harness starting.", logger=L % 214, sdk=sdk)
    W = J.site + "/apache_beam/runners/worker/sdk_worker.py:%d"
    J.adv(0.01, 0.05)
    J.worker(vm, "Status HTTP server running at localhost:%d" % J.rng.randrange(33000, 46000),
             logger=J.site + "/apache_beam/runners/worker/worker_status.py:203", sdk=sdk)
    J.adv(0.01, 0.05)
    J.worker(vm, "Creating insecure control channel for localhost:%d." % control_port, logger=W % 196, sdk=sdk)
    J.adv(0.01, 0.05)
    J.worker(vm, "Control channel established.", logger=W % 204, sdk=sdk)
    J.adv(0.01, 0.05)
    J.worker(vm, "Initializing SDKHarness with unbounded number of workers.", logger=W % 247, sdk=sdk)
    J.adv(0.1, 0.6)
    J.worker(vm, "Creating insecure state channel for localhost:%d." % control_port, logger=W % 906, sdk=sdk, thread="Thread-8")
    J.adv(0.01, 0.05)
    J.worker(vm, "State channel established.", logger=W % 913, sdk=sdk, thread="Thread-8")
    J.adv(0.01, 0.1)
    J.worker(vm, "Creating client data channel for localhost:%d" % control_port,
             logger=J.site + "/apache_beam/runners/worker/data_plane.py:798", sdk=sdk, thread="Thread-8")


def workers_started(J):
    J.jm("Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).")
    J.adv(20, 40)
    J.jm("Workers have started successfully.")


def all_workers_ready(J):
    J.jm("All workers have finished the startup processes and began to receive work requests.")


def job_success_end(J, steps_done):
    for s in steps_done:
        J.adv(0.5, 3)
        J.jm("Finished operation %s" % s)
    J.adv(1, 3)
    J.jm("Cleaning up.", sev="INFO")
    J.adv(0.05, 0.3)
    J.jm("Starting worker pool teardown.", sev="DEBUG")
    J.adv(0.05, 0.3)
    J.jm("Stopping worker pool...")
    J.adv(60, 140)
    J.jm("Autoscaling: Resized worker pool from 1 to 0.")
    J.adv(0.2, 1)
    J.jm("Worker pool stopped.")
    J.adv(0.5, 2)
    J.jm("Tearing down pending resources...", sev="DEBUG")


def job_failed_end(J, stage_desc, attempts):
    """Current 'work item has failed 4 times' wording (apache/beam#30482)."""
    parts = []
    for vm, cause in attempts:
        parts.append("      Root cause: %s\n      Worker ID: %s," % (cause, vm))
    msg = ("Workflow failed. Causes: %s failed., The job failed because a work item has failed 4 times. "
           "Look in previous log entries for the cause of each one of the 4 failures. If the logs only contain "
           "generic timeout errors related to accessing external resources, such as MongoDB, verify that the worker "
           "service account has permission to access the resource's subnetwork. For more information, see "
           "https://cloud.google.com/dataflow/docs/guides/common-errors. The work item was attempted on these workers: \n\n"
           % stage_desc) + "\n\n".join(parts)
    J.jm(msg, sev="ERROR")
    J.adv(0.2, 1)
    J.jm("Cleaning up.")
    J.adv(0.05, 0.3)
    J.jm("Starting worker pool teardown.", sev="DEBUG")
    J.adv(0.05, 0.3)
    J.jm("Stopping worker pool...")
    J.adv(50, 120)
    J.jm("Autoscaling: Resized worker pool from 1 to 0.")
    J.adv(0.2, 1)
    J.jm("Worker pool stopped.")


def heartbeat_noise(J, vm, n, user_msgs, sdk="sdk-0-0"):
    """Healthy background chatter on a running worker: user progress lines and kubelet PLEG events."""
    for i in range(n):
        J.adv(20, 90)
        if J.rng.random() < 0.25:
            J.kubelet(vm, '"SyncLoop (PLEG): event for pod" pod="default/%s" event={"ID":"%s","Type":"ContainerStarted","Data":"%s"}' % (
                vm, "%s-%s-%s" % (J.r36(8), J.r36(4), J.r36(12)), "".join(J.rng.choice("0123456789abcdef") for _ in range(64))))
        else:
            logger, msg = user_msgs(i)
            J.worker(vm, msg, logger=logger, thread="Thread-%d" % J.rng.randrange(14, 40), sdk=sdk)


def bundle_error(J, vm, instr, tb, sdk="sdk-0-0", sev="ERROR"):
    """Beam SdkHarness._execute: traceback to stderr (docker) and the worker log."""
    J.docker(vm, tb, sev="ERROR")
    J.adv(0.001, 0.01)
    J.worker(vm, "Error processing instruction %s. Original traceback is\n%s\n" % (instr, tb), sev=sev,
             logger=J.site + "/apache_beam/runners/worker/sdk_worker.py:311", thread="Thread-12", sdk=sdk)


def beam_setup_traceback(J, inner_frames, final_exc, ptransform):
    """A DoFn.setup() failure inside RunInference, as the Python SDK harness reports it."""
    S = J.site
    head = [
        "Traceback (most recent call last):",
        '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
        '  File "apache_beam/runners/common.py", line 602, in apache_beam.runners.common.DoFnInvoker.invoke_setup',
        '  File "%s/apache_beam/ml/inference/base.py", line 1535, in setup' % S,
        "    self._model = self._load_model()",
        "                  ^^^^^^^^^^^^^^^^^^" if J.py >= "3.11" else None,
        '  File "%s/apache_beam/ml/inference/base.py", line 1501, in _load_model' % S,
        "    model = self._shared_model_handle.acquire(load, tag=self._cur_tag)",
        '  File "%s/apache_beam/utils/shared.py", line 305, in acquire' % S,
        "    return _shared_map.acquire(self._key, constructor_fn, tag)",
        '  File "%s/apache_beam/utils/shared.py", line 246, in acquire' % S,
        "    result = control_block.acquire(constructor_fn, tag)",
        '  File "%s/apache_beam/utils/shared.py", line 139, in acquire' % S,
        "    result = constructor_fn()",
        '  File "%s/apache_beam/ml/inference/base.py", line 1471, in load' % S,
        "    model = self._model_handler.load_model()",
    ]
    head = [h for h in head if h is not None]
    first = "\n".join(head + inner_frames + [final_exc])
    second = "\n".join([
        "Traceback (most recent call last):",
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute' % S,
        "    response = task()",
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 386, in <lambda>' % S,
        "    lambda: self.create_worker().do_instruction(request), request)",
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 658, in do_instruction' % S,
        "    return getattr(self, request_type)(",
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 689, in process_bundle' % S,
        "    bundle_processor = self.bundle_processor_cache.get(",
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 510, in get' % S,
        "    processor = bundle_processor.BundleProcessor(",
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1135, in __init__' % S,
        "    op.setup(self.data_sampler)",
        '  File "apache_beam/runners/worker/operations.py", line 875, in apache_beam.runners.worker.operations.DoOperation.setup',
        '  File "apache_beam/runners/worker/operations.py", line 925, in apache_beam.runners.worker.operations.DoOperation.setup',
        '  File "apache_beam/runners/common.py", line 1608, in apache_beam.runners.common.DoFnRunner.setup',
        '  File "apache_beam/runners/common.py", line 1604, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
        '  File "apache_beam/runners/common.py", line 1649, in apache_beam.runners.common.DoFnRunner._reraise_augmented',
        '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
        '  File "apache_beam/runners/common.py", line 602, in apache_beam.runners.common.DoFnInvoker.invoke_setup',
        '  File "%s/apache_beam/ml/inference/base.py", line 1535, in setup' % S,
        "    self._model = self._load_model()",
    ] + inner_frames[-2:] + ["%s [while running '%s']" % (final_exc, ptransform)])
    return first + "\n\nDuring handling of the above exception, another exception occurred:\n\n" + second + "\n"


def worker_error_jm(J, tb):
    J.jm("Error message from worker: generic::unknown: " + tb, sev="ERROR")


# ==========================================================================
# 1. vLLM server: KV cache too small for the model's default max_model_len
# ==========================================================================

KV_ERR = ("ValueError: To serve at least one request with the models's max seq len (40960), (5.62 GiB KV cache is needed, "
          "which is larger than the available KV cache memory (3.21 GiB). Based on the available memory, the estimated "
          "maximum model length is 23360. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when "
          "initializing the engine.")
ENGINE_INIT = "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}"


def vllm_kv_lines(J, api_pid, core_pid, port, full=True):
    P = "/usr/local/lib/python%s/site-packages/vllm" % J.py
    d = J.pydt(J.t)
    A = "(APIServer pid=%d) " % api_pid
    C = "(EngineCore_0 pid=%d) " % core_pid
    lines = [
        A + "INFO %s [api_server.py:1805] vLLM API server version 0.10.1.1" % d,
        A + "INFO %s [utils.py:326] non-default args: {'model': 'Qwen/Qwen3-8B', 'port': %d}" % (d, port),
        A + "INFO %s [__init__.py:711] Resolved architecture: Qwen3ForCausalLM" % d,
        A + "INFO %s [__init__.py:1750] Using max model len 40960" % d,
        A + "INFO %s [scheduler.py:222] Chunked prefill is enabled with max_num_batched_tokens=2048." % d,
    ]
    if full:
        lines += [
            C + "INFO %s [core.py:654] Waiting for init message from front-end." % d,
            C + ("INFO %s [core.py:73] Initializing a V1 LLM engine (v0.10.1.1) with config: model='Qwen/Qwen3-8B', "
                 "speculative_config=None, tokenizer='Qwen/Qwen3-8B', skip_tokenizer_init=False, tokenizer_mode=auto, "
                 "revision=None, tokenizer_revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=40960, "
                 "download_dir=None, load_format=auto, tensor_parallel_size=1, pipeline_parallel_size=1, "
                 "disable_custom_all_reduce=False, quantization=None, enforce_eager=False, kv_cache_dtype=auto, "
                 "device_config=cuda, seed=0, served_model_name=Qwen/Qwen3-8B, enable_prefix_caching=True, "
                 "chunked_prefill_enabled=True, use_async_output_proc=True, pooler_config=None") % d,
            C + "INFO %s [parallel_state.py:1134] rank 0 in world size 1 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0" % d,
            C + "INFO %s [gpu_model_runner.py:1953] Starting to load model Qwen/Qwen3-8B..." % d,
            C + "INFO %s [cuda.py:328] Using Flash Attention backend on V1 engine." % d,
            C + "INFO %s [weight_utils.py:296] Using model weights format ['*.safetensors']" % d,
            C + "Loading safetensors checkpoint shards: 100% Completed | 5/5 [00:41<00:00,  8.31s/it]",
            C + "INFO %s [default_loader.py:262] Loading weights took 41.73 seconds" % d,
            C + "INFO %s [gpu_model_runner.py:2007] Model loading took 15.2683 GiB and 88.412551 seconds" % d,
            C + "INFO %s [backends.py:548] Using cache directory: /root/.cache/vllm/torch_compile_cache/5d1c3a8e2b/rank_0_0/backbone for vLLM's torch.compile" % d,
            C + "INFO %s [backends.py:559] Dynamo bytecode transform time: 9.41 s" % d,
            C + "INFO %s [backends.py:194] Compiling a graph for dynamic shape takes 31.07 s" % d,
            C + "INFO %s [monitor.py:34] torch.compile takes 40.48 s in total" % d,
            C + "INFO %s [gpu_worker.py:276] Available KV cache memory: 3.21 GiB" % d,
            C + "ERROR %s [core.py:700] EngineCore failed to start." % d,
        ]
        E = C + "ERROR %s [core.py:700] " % d
        tb = [
            "Traceback (most recent call last):",
            '  File "%s/v1/engine/core.py", line 691, in run_engine_core' % P,
            "    engine_core = EngineCoreProc(*args, **kwargs)",
            "                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            '  File "%s/v1/engine/core.py", line 492, in __init__' % P,
            "    super().__init__(vllm_config, executor_class, log_stats,",
            '  File "%s/v1/engine/core.py", line 89, in __init__' % P,
            "    self._initialize_kv_caches(vllm_config)",
            '  File "%s/v1/engine/core.py", line 188, in _initialize_kv_caches' % P,
            "    kv_cache_configs = get_kv_cache_configs(vllm_config, kv_cache_specs,",
            "                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            '  File "%s/v1/core/kv_cache_utils.py", line 1123, in get_kv_cache_configs' % P,
            "    check_enough_kv_cache_memory(vllm_config, kv_cache_spec_one_worker,",
            '  File "%s/v1/core/kv_cache_utils.py", line 699, in check_enough_kv_cache_memory' % P,
            "    raise ValueError(",
            KV_ERR,
        ]
        lines += [E + x for x in tb]
        lines += [C + "Process EngineCore_0:", C + "Traceback (most recent call last):",
                  C + '  File "/usr/local/lib/python%s/multiprocessing/process.py", line 314, in _bootstrap' % J.py,
                  C + "    self.run()",
                  C + '  File "%s/v1/engine/core.py", line 704, in run_engine_core' % P,
                  C + "    raise e", C + KV_ERR]
        lines += [
            A + "Traceback (most recent call last):",
            A + '  File "<frozen runpy>", line 198, in _run_module_as_main',
            A + '  File "%s/entrypoints/openai/api_server.py", line 1920, in <module>' % P,
            A + "    uvloop.run(run_server(args))",
            A + '  File "%s/entrypoints/openai/api_server.py", line 178, in build_async_engine_client_from_engine_args' % P,
            A + "    async_llm = AsyncLLM.from_vllm_config(",
            A + '  File "%s/v1/engine/core_client.py", line 448, in __init__' % P,
            A + "    with launch_core_engines(vllm_config, executor_class,",
            A + '  File "%s/v1/engine/utils.py", line 729, in wait_for_engine_startup' % P,
            A + '    raise RuntimeError("Engine core initialization failed. "',
            A + ENGINE_INIT,
        ]
    else:
        lines += [C + "INFO %s [gpu_worker.py:276] Available KV cache memory: 3.21 GiB" % d,
                  C + "ERROR %s [core.py:700] EngineCore failed to start." % d,
                  C + "ERROR %s [core.py:700] %s" % (d, KV_ERR),
                  C + KV_ERR,
                  A + ENGINE_INIT]
    return lines


def job_vllm_kv():
    J = Job("vllm-qwen3-kv-cache-l4", project="acme-genai-prod", region="us-central1", zone="us-central1-b",
            job_name="qwen3-ticket-summaries-0916", start=dt.datetime(2025, 9, 16, 13, 58, 5, 120000, tzinfo=UTC),
            machine="g2-standard-8", gpu="nvidia-l4", gpu_count=1, py="3.11", beam="2.64.0",
            image="us-central1-docker.pkg.dev/acme-genai-prod/beam/vllm-worker:2.64.0-vllm0.10.1",
            experiments=["use_runner_v2", "no_use_multiple_sdk_containers"],
            service_options=["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver:5xx"],
            options_extra={"max_num_workers": 2, "disk_size_gb": 200, "number_of_worker_harness_threads": 1,
                           "input": "gs://acme-genai-prod-data/tickets/2025-09-15/*.jsonl",
                           "output": "gs://acme-genai-prod-data/summaries/2025-09-15/part"},
            project_number="418230067712")
    steps = ["ReadPrompts/Read", "ParseJson", "RunInference/BeamML_RunInference", "FormatOutput",
             "WriteResults/Write/WriteImpl/WriteBundles"]
    job_start(J, steps)
    vm = J.vms[0]
    vm_boot(J, vm)
    J.adv(5, 10)
    workers_started(J)
    J.adv(2, 6)
    sdk_start(J, vm)
    J.adv(1, 4)
    all_workers_ready(J)
    VL = J.site + "/apache_beam/ml/inference/vllm_inference.py:%d"
    J.adv(0.5, 2)
    J.worker(vm, "vllm module successfully imported.", logger=VL % 36, step="RunInference/BeamML_RunInference")
    attempts = []
    api_pid, core_pid = 85, 412
    for wi in range(4):
        for srv in range(4):
            port = J.rng.randrange(34000, 47000)
            J.adv(0.5, 3)
            J.worker(vm, "Starting service with ['python' '-m' 'vllm.entrypoints.openai.api_server' '--model' 'Qwen/Qwen3-8B' '--port' '%d']" % port,
                     logger=VL % 61, step="RunInference/BeamML_RunInference", thread="Thread-%d" % (14 + srv))
            full = (wi == 0 and srv == 0)
            J.adv(12, 20)
            for line in vllm_kv_lines(J, api_pid, core_pid, port, full=full):
                J.adv(0.002, 0.08) if "Traceback" not in line else J.adv(0.001, 0.004)
                if "Loading weights took" in line or "Model loading took" in line:
                    J.adv(30, 45)
                if "Dynamo bytecode" in line or "torch.compile takes" in line:
                    J.adv(9, 31)
                J.worker(vm, line, logger=VL % 71, thread="Thread-%d (log_stdout)" % (15 + srv), step="RunInference/BeamML_RunInference")
            api_pid += J.rng.randrange(200, 400)
            core_pid = api_pid + J.rng.randrange(250, 400)
            J.adv(4, 6)
        inner = [
            '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 156, in load_model' % J.site,
            "    return _VLLMModelServer(self._model_name, self._vllm_server_kwargs)",
            '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 104, in __init__' % J.site,
            "    self.start_server()",
            '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 138, in start_server' % J.site,
            "    self.start_server(retries - 1)",
            '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 138, in start_server' % J.site,
            "    self.start_server(retries - 1)",
            '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 138, in start_server' % J.site,
            "    self.start_server(retries - 1)",
            '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 134, in start_server' % J.site,
            "    raise Exception(",
        ]
        tb = beam_setup_traceback(J, inner, "Exception: Failed to start vLLM server, process exited with code 1",
                                  "RunInference/BeamML_RunInference-ptransform-46")
        J.adv(0.2, 1)
        bundle_error(J, vm, "process_bundle-%d" % (J.rng.randrange(10 ** 17, 10 ** 18)), tb)
        J.adv(1, 4)
        worker_error_jm(J, tb)
        attempts.append((vm, "Exception: Failed to start vLLM server, process exited with code 1"))
        J.adv(8, 20)
    job_failed_end(J, "S02:ReadPrompts/Read+ParseJson+RunInference/BeamML_RunInference+FormatOutput+WriteResults/Write/WriteImpl/WriteBundles", attempts)
    truth = truth_base(J, "failed", "model-server",
                       "The vLLM server started by Beam's VLLMCompletionsModelHandler could not start because, after loading Qwen3-8B on the 24 GB L4, the KV cache memory left (3.21 GiB) was too small for the model's default max_model_len of 40960, so every server start and every work-item retry failed.")
    truth["evidence"] = [
        KV_ERR,
        "Available KV cache memory: 3.21 GiB",
        "Exception: Failed to start vLLM server, process exited with code 1",
    ]
    truth["red_herrings"] = [ENGINE_INIT]
    truth["sources"] = [
        ("vLLM V1 KV-cache check wording (with estimated max model length)", "vllm-project/vllm#27508 (gpt-oss-120b on H100, 2025) and vllm-project/vllm#34076 (2026-02)"),
        ("vLLM engine-core failure frames and 'Engine core initialization failed' wrapper", "vllm-project/vllm#32105, vllm-project/vllm#19002, noonghunna/club-3090#32"),
        ("Beam vLLM handler: 'Starting service with', stdout relayed line-by-line at INFO, 'Failed to start vLLM server, process exited with code'", "apache/beam sdks/python/apache_beam/ml/inference/vllm_inference.py"),
        ("Dataflow job messages, 'work item has failed 4 times' ending", "apache/beam#30482; /work/shared/reference/dataflow-log-signatures.md §2f/§2i"),
    ]
    truth["notes"] = "Envelope, IDs, timings and VM names are synthetic. The vLLM engine log is relayed by Beam through logging.info, so the ERROR lines arrive at INFO severity in the worker log. KV sizes computed for Qwen3-8B (36 layers x 8 KV heads x 128 dims, bf16 = 144 KiB/token)."
    return J, truth
