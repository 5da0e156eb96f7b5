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
    # newest first; timestamps of different precision do not sort lexically, so sort on the
    # parsed value and break ties by emission order
    entries = [e for _, e in sorted(enumerate(job.entries), key=lambda p: (parse_ts(p[1]["timestamp"]), p[0]), reverse=True)]
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
    d = "{T}"
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
                if not full and "Available KV cache memory" in line:
                    J.adv(55, 80)
                J.worker(vm, line.replace("{T}", J.pydt(J.t)), logger=VL % 71, thread="Thread-%d (log_stdout)" % (15 + srv), step="RunInference/BeamML_RunInference")
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
    truth["notes"] = "Envelope, IDs, timings and VM names are synthetic. The vLLM engine log is relayed by Beam through logging.info, so the ERROR lines arrive at INFO severity in the worker log. KV sizes computed for Qwen3-8B (36 layers x 8 KV heads x 128 dims, bf16 = 144 KiB/token). Only the first server start is relayed in full; the 15 later starts (4 per work-item attempt, Beam's start_server retries) are abbreviated to their key lines to stay under 300 entries."
    return J, truth


# ==========================================================================
# 2. Text Generation Inference: warm-up OOM (max-batch-prefill-tokens too big)
# ==========================================================================

TGI_OOM = "Not enough memory to handle 30000 prefill tokens. You need to decrease `--max-batch-prefill-tokens`"


def tgi_json(ts, level, msg, target="text_generation_launcher", span=None):
    d = {"timestamp": ts, "level": level, "fields": {"message": msg}, "target": target}
    if span:
        d["span"] = span
        d["spans"] = [span]
    return json.dumps(d, ensure_ascii=False, separators=(",", ":"))


def job_tgi_warmup():
    J = Job("tgi-qwen14b-warmup-oom-a100", project="northwind-llm", region="europe-west4", zone="europe-west4-a",
            job_name="tgi-contract-extraction-1002", start=dt.datetime(2025, 10, 2, 9, 6, 41, 700000, tzinfo=UTC),
            machine="a2-highgpu-1g", gpu="nvidia-tesla-a100", gpu_count=1, py="3.11", beam="2.66.0",
            image="europe-west4-docker.pkg.dev/northwind-llm/containers/beam-tgi:2.66.0-tgi3.3.4",
            experiments=["use_runner_v2", "no_use_multiple_sdk_containers"],
            service_options=["worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver:latest"],
            options_extra={"max_num_workers": 1, "disk_size_gb": 250, "number_of_worker_harness_threads": 4,
                           "tgi_args": "--max-input-tokens 30000 --max-total-tokens 32000 --max-batch-prefill-tokens 30000"},
            driver="570.172.08")
    steps = ["ReadContracts/Read", "ChunkDocuments", "ExtractWithTGI", "ToBigQueryRows", "WriteToBigQuery/BigQueryBatchFileLoads/WriteRecordsToFile"]
    job_start(J, steps, max_workers=1)
    vm = J.vms[0]
    vm_boot(J, vm)
    J.adv(3, 8)
    workers_started(J)
    J.adv(2, 6)
    sdk_start(J, vm)
    J.adv(1, 3)
    all_workers_ready(J)
    J.adv(1, 3)
    J.jm("The Dataflow RunnerV2 container image of this job's workers will be ready for update in 7 days.")
    UL = J.site + "/contract_pipeline/tgi_runner.py:%d"
    cmd = ("text-generation-launcher --model-id Qwen/Qwen2.5-14B-Instruct --port 8080 --max-input-tokens 30000 "
           "--max-total-tokens 32000 --max-batch-prefill-tokens 30000 --json-output")
    attempts = []
    for wi in range(4):
        J.adv(0.5, 2)
        J.worker(vm, "Launching TGI: %s" % cmd, logger=UL % 41, step="ExtractWithTGI", thread="Thread-21")

        def relay(line, lvl="INFO"):
            J.worker(vm, line, logger=UL % 58, step="ExtractWithTGI", thread="Thread-22 (_pump_stdout)")

        def ts():
            return J.ts(J.t, 6)
        J.adv(0.3, 1)
        relay(tgi_json(ts(), "INFO", "Args {\n    model_id: \"Qwen/Qwen2.5-14B-Instruct\",\n    revision: None,\n    validation_workers: 2,\n    sharded: None,\n    num_shard: None,\n    quantize: None,\n    speculate: None,\n    dtype: None,\n    kv_cache_dtype: None,\n    trust_remote_code: false,\n    max_concurrent_requests: 128,\n    max_best_of: 2,\n    max_stop_sequences: 4,\n    max_top_n_tokens: 5,\n    max_input_tokens: Some(\n        30000,\n    ),\n    max_input_length: None,\n    max_total_tokens: Some(\n        32000,\n    ),\n    waiting_served_ratio: 0.3,\n    max_batch_prefill_tokens: Some(\n        30000,\n    ),\n    max_batch_total_tokens: None,\n    max_waiting_tokens: 20,\n    max_batch_size: None,\n    cuda_graphs: None,\n    hostname: \"%s\",\n    port: 8080,\n    shard_uds_path: \"/tmp/text-generation-server\",\n    master_addr: \"localhost\",\n    master_port: 29500,\n    huggingface_hub_cache: Some(\n        \"/data\",\n    ),\n    weights_cache_override: None,\n    disable_custom_kernels: false,\n    cuda_memory_fraction: 1.0,\n    rope_scaling: None,\n    rope_factor: None,\n    json_output: true,\n    otlp_endpoint: None,\n    otlp_service_name: \"text-generation-inference.router\",\n    cors_allow_origin: [],\n    api_key: None,\n    watermark_gamma: None,\n    watermark_delta: None,\n    ngrok: false,\n    ngrok_authtoken: None,\n    ngrok_edge: None,\n    tokenizer_config_path: None,\n    disable_grammar_support: false,\n    env: false,\n    max_client_batch_size: 4,\n    lora_adapters: None,\n    usage_stats: On,\n    payload_limit: 2000000,\n    enable_prefill_logprobs: false,\n    graceful_termination_timeout: 90,\n}" % vm))
        J.adv(0.5, 2)
        relay(tgi_json(ts(), "INFO", "Using attention flashinfer - Prefix caching true"))
        J.adv(0.01, 0.05)
        relay(tgi_json(ts(), "INFO", "Using default cuda graphs [1, 2, 4, 8, 16, 32]"))
        J.adv(0.05, 0.2)
        dl = {"name": "download"}
        relay(tgi_json(ts(), "INFO", "Starting check and download process for Qwen/Qwen2.5-14B-Instruct", span=dl))
        if wi == 0:
            for i in range(8):
                J.adv(2, 4)
                relay(tgi_json(ts(), "INFO", "Download file: model-%05d-of-00008.safetensors" % (i + 1), span=dl))
                J.adv(14, 26)
                relay(tgi_json(ts(), "INFO", "Download: [%d/8] -- ETA: 0:0%d:%02d" % (i + 1, max(0, 7 - i) // 3, J.rng.randrange(0, 59)), span=dl))
        else:
            J.adv(3, 6)
            relay(tgi_json(ts(), "INFO", "Files are already present on the host. Skipping download.", span=dl))
        J.adv(1, 3)
        relay(tgi_json(ts(), "INFO", "Successfully downloaded weights for Qwen/Qwen2.5-14B-Instruct"))
        sm = {"rank": 0, "name": "shard-manager"}
        J.adv(0.01, 0.05)
        relay(tgi_json(ts(), "INFO", "Starting shard", span=sm))
        J.adv(6, 9)
        relay(tgi_json(ts(), "INFO", "Using prefix caching = True", span=sm))
        J.adv(0.01, 0.05)
        relay(tgi_json(ts(), "INFO", "Using Attention = flashinfer", span=sm))
        for k in range(3):
            J.adv(10, 10.05)
            relay(tgi_json(ts(), "INFO", "Waiting for shard to be ready...", span=sm))
        J.adv(4, 8)
        relay(tgi_json(ts(), "INFO", "Server started at unix:///tmp/text-generation-server-0", span=sm))
        J.adv(0.2, 0.5)
        relay(tgi_json(ts(), "INFO", "Shard ready in 38.412911227s", span=sm))
        J.adv(0.1, 0.3)
        relay(tgi_json(ts(), "INFO", "Starting Webserver"))
        J.adv(1, 2)
        relay(json.dumps({"timestamp": ts(), "level": "INFO", "message": "Warming up model", "target": "text_generation_router_v3",
                          "filename": "backends/v3/src/lib.rs", "line_number": 125}, separators=(",", ":")))
        J.adv(6, 11)
        P = "/usr/src/.venv/lib/python3.11/site-packages"
        SV = "/usr/src/server/text_generation_server"
        shard_tb = "\n".join([
            "Method Warmup encountered an error.",
            "Traceback (most recent call last):",
            '  File "%s/models/flash_causal_lm.py", line 1546, in warmup' % SV,
            "    _, _batch, _ = self.generate_token(batch)",
            '  File "/usr/lib/python3.11/contextlib.py", line 81, in inner',
            "    return func(*args, **kwds)",
            '  File "%s/models/flash_causal_lm.py", line 1960, in generate_token' % SV,
            "    out, speculative_logits = self.forward(batch, adapter_data)",
            '  File "%s/models/flash_causal_lm.py", line 1862, in forward' % SV,
            "    logits, speculative_logits = self.model.forward(",
            '  File "%s/models/custom_modeling/flash_qwen2_modeling.py", line 429, in forward' % SV,
            "    hidden_states = self.model(",
            '  File "%s/torch/nn/modules/module.py", line 1773, in _wrapped_call_impl' % P,
            "    return self._call_impl(*args, **kwargs)",
            '  File "%s/models/custom_modeling/flash_qwen2_modeling.py", line 357, in forward' % SV,
            "    hidden_states, residual = layer(",
            '  File "%s/models/custom_modeling/flash_qwen2_modeling.py", line 289, in forward' % SV,
            "    mlp_output = self.mlp(normed_attn_res_output)",
            '  File "%s/models/custom_modeling/flash_qwen2_modeling.py", line 241, in forward' % SV,
            "    gate_up_states = self.gate_up_proj(hidden_states)",
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.58 GiB. GPU 0 has a total capacity of 39.39 GiB of which 3.12 GiB is free. Including non-PyTorch memory, this process has 36.26 GiB memory in use. Of the allocated memory 33.90 GiB is allocated by PyTorch, and 1.74 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)",
            "",
            "The above exception was the direct cause of the following exception:",
            "",
            "Traceback (most recent call last):",
            '  File "/usr/src/.venv/bin/text-generation-server", line 10, in <module>',
            "    sys.exit(app())",
            '  File "%s/grpc_interceptor/server.py", line 165, in invoke_intercept_method' % P,
            "    return await self.intercept(",
            '> File "%s/interceptor.py", line 24, in intercept' % SV,
            "    return await response",
            '  File "%s/server.py", line 144, in Warmup' % SV,
            "    self.model.warmup(batch, max_input_tokens, max_total_tokens)",
            '  File "%s/models/flash_causal_lm.py", line 1550, in warmup' % SV,
            "    raise RuntimeError(",
            "RuntimeError: " + TGI_OOM,
        ])
        relay(tgi_json(ts(), "ERROR", shard_tb, span=sm))
        J.adv(0.05, 0.2)
        relay(json.dumps({"timestamp": ts(), "level": "ERROR", "message": "Server error: " + TGI_OOM,
                          "target": "text_generation_router_v3::client", "filename": "backends/v3/src/client/mod.rs", "line_number": 45,
                          "span": {"max_batch_size": "None", "max_input_length": "Some(30000)", "max_prefill_tokens": 30000,
                                   "max_total_tokens": "Some(32000)", "name": "warmup"},
                          "spans": [{"max_batch_size": "None", "max_input_length": "Some(30000)", "max_prefill_tokens": 30000,
                                     "max_total_tokens": "Some(32000)", "name": "warmup"}]}, separators=(",", ":")))
        J.adv(0.01, 0.05)
        relay('Error: Backend(Warmup(Generation("%s")))' % TGI_OOM)
        J.adv(0.05, 0.2)
        relay(tgi_json(ts(), "ERROR", "Webserver Crashed"))
        J.adv(0.01, 0.03)
        relay(tgi_json(ts(), "INFO", "Shutting down shards"))
        J.adv(0.5, 1)
        relay(tgi_json(ts(), "INFO", "Terminating shard", span=sm))
        J.adv(0.01, 0.05)
        relay(tgi_json(ts(), "INFO", "Waiting for shard to gracefully shutdown", span=sm))
        J.adv(1, 2)
        relay(tgi_json(ts(), "INFO", "shard terminated", span=sm))
        J.adv(0.01, 0.05)
        relay("Error: WebserverFailed")
        inner = [
            '  File "%s/contract_pipeline/tgi_runner.py", line 93, in setup' % J.site,
            "    self._wait_until_healthy()",
            '  File "%s/contract_pipeline/tgi_runner.py", line 121, in _wait_until_healthy' % J.site,
            "    raise RuntimeError(",
        ]
        final = "RuntimeError: text-generation-launcher exited with code 1 before /health returned 200 (see the TGI output above)"
        tb = "\n".join(["Traceback (most recent call last):",
                        '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
                        '  File "apache_beam/runners/common.py", line 602, in apache_beam.runners.common.DoFnInvoker.invoke_setup'] + inner + [final]) + \
            "\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n" + \
            '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute\n    response = task()\n' % J.site + \
            '  File "apache_beam/runners/common.py", line 1649, in apache_beam.runners.common.DoFnRunner._reraise_augmented\n' + \
            "\n".join(inner) + "\n" + final + " [while running 'ExtractWithTGI-ptransform-39']\n"
        J.adv(0.5, 1.5)
        bundle_error(J, vm, "process_bundle-%d" % J.rng.randrange(10 ** 17, 10 ** 18), tb)
        J.adv(1, 3)
        worker_error_jm(J, tb)
        attempts.append((vm, final))
        J.adv(10, 30)
    job_failed_end(J, "S03:ReadContracts/Read+ChunkDocuments+ExtractWithTGI+ToBigQueryRows+WriteToBigQuery/BigQueryBatchFileLoads/WriteRecordsToFile", attempts)
    truth = truth_base(J, "failed", "model-server",
                       "Text Generation Inference, launched by the DoFn on the A100-40GB worker, ran out of GPU memory during its warm-up pass because --max-batch-prefill-tokens 30000 is too large for Qwen2.5-14B on 40 GB, so the launcher exited and the work item failed four times.")
    truth["evidence"] = [
        "RuntimeError: " + TGI_OOM,
        'Error: Backend(Warmup(Generation("%s")))' % TGI_OOM,
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.58 GiB.",
    ]
    truth["red_herrings"] = ["Webserver Crashed", "Error: WebserverFailed"]
    truth["sources"] = [
        ("TGI warm-up OOM message (flash_causal_lm.py) and 'Method Warmup encountered an error.' (interceptor.py)", "huggingface/text-generation-inference server/text_generation_server/models/flash_causal_lm.py, server/text_generation_server/interceptor.py"),
        ("Router warm-up error line with span fields (TGI 3.x, backends/v3/src/client/mod.rs:45)", "huggingface/text-generation-inference#3130 (gemma-3-27b-it, TGI 3.2.1, 2025-03)"),
        ("'Error: Warmup(Generation(...))' / 'Webserver Crashed' / 'Shutting down shards'", "huggingface/text-generation-inference#755, predibase/lorax#354; launcher/src/main.rs; backends/v3/src/main.rs (RouterError::Backend)"),
        ("'Files are already present on the host. Skipping download.'", "huggingface/text-generation-inference#1354"),
        ("PyTorch CUDA OOM wording (torch 2.x)", "dataflow-log-signatures.md §2b b3 (dify-official-plugins#599 wording)"),
    ]
    truth["notes"] = "The DoFn (contract_pipeline/tgi_runner.py) is synthetic user code that starts text-generation-launcher with --json-output and relays each stdout/stderr line through logging.info, so every TGI line (including ERROR ones) is INFO in the worker log. Envelope synthetic."
    return J, truth


# ==========================================================================
# 3. TensorRT: engine plan serialized by a different TensorRT version
# ==========================================================================

TRT_SER = ("[TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReaderInitCommon::46] Error Code 1: Serialization (Serialization "
           "assertion stdVersionRead == serializationVersion failed.Version tag does not match. Note: Current Version: 236, "
           "Serialized Engine Version: 237)")
TRT_DESER = "[TRT] [E] 4: [runtime.cpp::deserializeCudaEngine::66] Error Code 4: Internal Error (Engine deserialization failed.)"


def job_trt():
    J = Job("tensorrt-engine-version-t4", project="lumen-vision-prod", region="us-east1", zone="us-east1-c",
            job_name="shelf-detector-trt-nightly", start=dt.datetime(2025, 12, 2, 9, 11, 2, 300000, tzinfo=UTC),
            machine="n1-standard-8", gpu="nvidia-tesla-t4", gpu_count=1, py="3.10", beam="2.58.0",
            image="us-docker.pkg.dev/lumen-vision-prod/dataflow/beam-trt:2.58.0-trt8.6",
            experiments=["use_runner_v2", "no_use_multiple_sdk_containers"],
            options_extra={"max_num_workers": 3, "disk_size_gb": 80,
                           "engine_path": "gs://lumen-vision-models/shelf-detector/v14/model_fp16_b16.plan",
                           "input_glob": "gs://lumen-store-images/2025-12-01/*.jpg"},
            driver="535.230.02")
    steps = ["MatchImages/Match", "ReadImages", "Preprocess", "BatchElements/ParDo(_GlobalWindowsBatchingDoFn)",
             "RunInference/BeamML_RunInference", "PostprocessBoxes", "WriteDetections/Write/WriteImpl/WriteBundles"]
    job_start(J, steps, max_workers=3)
    vm = J.vms[0]
    vm_boot(J, vm)
    J.adv(4, 8)
    workers_started(J)
    J.adv(2, 5)
    sdk_start(J, vm)
    J.adv(1, 3)
    all_workers_ready(J)
    TL = J.site + "/apache_beam/ml/inference/tensorrt_inference.py:%d"
    J.adv(0.5, 1.5)
    J.worker(vm, "tensorrt module successfully imported.", logger=TL % 48, step="RunInference/BeamML_RunInference")
    attempts = []
    for wi in range(4):
        J.adv(2, 6)
        J.worker(vm, "Processed 2048 images in Preprocess (bundle 1)", logger=J.site + "/shelf_pipeline/preprocess.py:77",
                 step="Preprocess", thread="Thread-19")
        J.adv(0.5, 2)
        d = J.t.strftime("%m/%d/%Y-%H:%M:%S")
        J.docker(vm, "[%s] [TRT] [I] Loaded engine size: 98 MiB" % d, sev="ERROR")
        J.adv(0.05, 0.2)
        d = J.t.strftime("%m/%d/%Y-%H:%M:%S")
        J.docker(vm, "[%s] %s" % (d, TRT_SER), sev="ERROR")
        J.adv(0.001, 0.01)
        J.docker(vm, "[%s] %s" % (d, TRT_DESER), sev="ERROR")
        inner = [
            '  File "%s/apache_beam/ml/inference/tensorrt_inference.py", line 279, in load_model' % J.site,
            "    engine = _load_engine(self.engine_path)",
            '  File "%s/apache_beam/ml/inference/tensorrt_inference.py", line 62, in _load_engine' % J.site,
            "    assert engine",
        ]
        tb = beam_setup_traceback(J, inner, "AssertionError", "RunInference/BeamML_RunInference-ptransform-31")
        tb = tb.replace("AssertionError [while running", "AssertionError: [while running")
        J.adv(0.1, 0.5)
        bundle_error(J, vm, "process_bundle-%d" % J.rng.randrange(10 ** 17, 10 ** 18), tb)
        J.adv(1, 3)
        worker_error_jm(J, tb)
        attempts.append((vm, "AssertionError: [while running 'RunInference/BeamML_RunInference-ptransform-31']"))
        J.adv(6, 25)
    job_failed_end(J, "S05:BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+RunInference/BeamML_RunInference+PostprocessBoxes+WriteDetections/Write/WriteImpl/WriteBundles", attempts)
    truth = truth_base(J, "failed", "inference-runtime",
                       "The TensorRT engine plan loaded by Beam's TensorRTEngineHandlerNumPy was serialized by a different (newer) TensorRT version than the one in the worker image, so deserialize_cuda_engine returned None and Beam's `assert engine` failed on every attempt.")
    truth["evidence"] = [
        "Version tag does not match. Note: Current Version: 236, Serialized Engine Version: 237",
        "Error Code 4: Internal Error (Engine deserialization failed.)",
        "    assert engine",
    ]
    truth["red_herrings"] = ["AssertionError: [while running 'RunInference/BeamML_RunInference-ptransform-31']"]
    truth["sources"] = [
        ("TensorRT Python-logger serialization mismatch line (Current 236 vs Serialized 237)", "NVIDIA/TensorRT#3898 (2024-05, TRT 8.6 and 10.1 side by side)"),
        ("'[runtime.cpp::deserializeCudaEngine::66] Error Code 4: Internal Error (Engine deserialization failed.)'", "Ar-Ray-code/YOLOX-ROS#40; NVIDIA/TensorRT#2195"),
        ("Beam handler: `assert engine` in _load_engine, TRT logger at INFO, 'tensorrt module successfully imported.'", "apache/beam sdks/python/apache_beam/ml/inference/tensorrt_inference.py"),
    ]
    truth["notes"] = "TensorRT's logger writes to stderr, so its [I] and [E] lines land in the docker log at ERROR severity. Beam's own error is a bare AssertionError; the cause is only in the TRT lines. Envelope synthetic."
    return J, truth


# ==========================================================================
# 4. JAX: every SDK process on a 1-GPU worker preallocates 75% of the GPU
# ==========================================================================

JAX_DNN = "jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed. Look at the errors above for more details."


def sdk_start_short(J, vm, sdk):
    L = J.site + "/apache_beam/runners/worker/sdk_worker_main.py:%d"
    J.worker(vm, "Logging handler created.", logger=L % 107, sdk=sdk)
    J.adv(0.01, 0.05)
    J.worker(vm, "Pipeline_options: %s" % J.options_repr(), logger=L % 166, sdk=sdk)
    J.adv(0.05, 0.2)
    J.worker(vm, "Python sdk harness starting.", logger=L % 214, sdk=sdk)
    J.adv(0.05, 0.2)
    J.worker(vm, "Control channel established.", logger=J.site + "/apache_beam/runners/worker/sdk_worker.py:204", sdk=sdk)


def job_jax():
    J = Job("jax-prealloc-multi-sdk-a100", project="helio-forecast", region="us-central1", zone="us-central1-f",
            job_name="graphcast-style-scoring-0612", start=dt.datetime(2025, 6, 12, 8, 31, 12, 50000, tzinfo=UTC),
            machine="a2-highgpu-1g", gpu="nvidia-tesla-a100", gpu_count=1, py="3.11", beam="2.62.0",
            image="us-central1-docker.pkg.dev/helio-forecast/beam/jax-worker:2.62.0-jax0.5.3",
            experiments=["use_runner_v2"],
            service_options=["worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver"],
            options_extra={"max_num_workers": 4, "disk_size_gb": 100,
                           "params_path": "gs://helio-forecast-models/scorer/2025-06/params.msgpack"},
            sdk_procs=12)
    steps = ["ReadTiles/Read", "DecodeTiles", "ScoreWithJax", "WriteScores/Write/WriteImpl/WriteBundles"]
    job_start(J, steps, max_workers=4)
    vm = J.vms[0]
    vm_boot(J, vm)
    J.adv(3, 8)
    workers_started(J)
    J.adv(2, 5)
    sdk_start(J, vm, sdk="sdk-0-0")
    for i in range(1, 12):
        J.adv(0.05, 0.4)
        sdk_start_short(J, vm, "sdk-0-%d" % i)
    J.adv(1, 3)
    all_workers_ready(J)
    UL = J.site + "/helio_scoring/jax_scorer.py:%d"
    J.adv(1, 3)
    J.worker(vm, "Loading scorer params from gs://helio-forecast-models/scorer/2025-06/params.msgpack", logger=UL % 38,
             sdk="sdk-0-0", step="ScoreWithJax", thread="Thread-17")
    J.adv(6, 12)
    J.worker(vm, "JAX backend: gpu, devices=[CudaDevice(id=0)]", logger=UL % 44, sdk="sdk-0-0", step="ScoreWithJax", thread="Thread-17")
    attempts = []
    free_bytes = [655360, 917504, 524288, 786432]
    failing = ["sdk-0-3", "sdk-0-7", "sdk-0-1", "sdk-0-10"]
    for k, sdk in enumerate(failing):
        J.adv(2, 20)
        J.worker(vm, "Loading scorer params from gs://helio-forecast-models/scorer/2025-06/params.msgpack", logger=UL % 38,
                 sdk=sdk, step="ScoreWithJax", thread="Thread-17")
        J.adv(5, 9)
        if k == 0:
            J.docker(vm, "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR", sev="ERROR")
        pid = J.rng.randrange(300, 900)
        for _ in range(2):
            J.adv(0.0001, 0.01)
            u = "%06d" % J.t.microsecond
            md = J.t.strftime("%m%d %H:%M:%S")
            J.docker(vm, "E%s.%s %7d cuda_dnn.cc:532] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR" % (md, u, pid), sev="ERROR")
            J.docker(vm, "E%s.%s %7d cuda_dnn.cc:536] Memory usage: %d bytes free, %d bytes total." % (md, u, pid, free_bytes[k], GPU_INFO[J.gpu]["total"]), sev="ERROR")
        S = J.site
        inner = [
            '  File "%s/helio_scoring/jax_scorer.py", line 47, in setup' % S,
            "    self._rng = jax.random.PRNGKey(0)",
            "                ^^^^^^^^^^^^^^^^^^^^^",
            '  File "%s/jax/_src/random.py", line 233, in PRNGKey' % S,
            "    return _return_prng_keys(True, _key('PRNGKey', seed, impl))",
            "                                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            '  File "%s/jax/_src/random.py", line 195, in _key' % S,
            "    return prng.random_seed(seed, impl=impl)",
            "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            '  File "%s/jax/_src/prng.py", line 533, in random_seed' % S,
            "    seeds_arr = jnp.asarray(np.int64(seeds))",
            "                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            '  File "%s/jax/_src/numpy/lax_numpy.py", line 5732, in asarray' % S,
            "    return array(a, dtype=dtype, copy=bool(copy), order=order, device=device)",
            "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            '  File "%s/jax/_src/numpy/lax_numpy.py", line 5681, in array' % S,
            "    out_array: Array = lax_internal._convert_element_type(",
            "                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            "jax.errors.SimplifiedTraceback: For simplicity, JAX has removed its internal frames from the traceback of the following exception. Set JAX_TRACEBACK_FILTERING=off to include these.",
        ]
        tb = "\n".join(["Traceback (most recent call last):",
                        '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
                        '  File "apache_beam/runners/common.py", line 602, in apache_beam.runners.common.DoFnInvoker.invoke_setup'] + inner + [JAX_DNN]) + \
            "\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n" + \
            '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute\n    response = task()\n               ^^^^^^\n' % S + \
            '  File "apache_beam/runners/common.py", line 1649, in apache_beam.runners.common.DoFnRunner._reraise_augmented\n' + \
            "\n".join(inner[:2]) + "\n" + JAX_DNN + " [while running 'ScoreWithJax-ptransform-27']\n"
        J.adv(0.2, 0.6)
        bundle_error(J, vm, "process_bundle-%d" % J.rng.randrange(10 ** 17, 10 ** 18), tb, sdk=sdk)
        J.adv(1, 3)
        worker_error_jm(J, tb)
        attempts.append((vm, JAX_DNN))
    J.adv(5, 15)
    job_failed_end(J, "S02:ReadTiles/Read+DecodeTiles+ScoreWithJax+WriteScores/Write/WriteImpl/WriteBundles", attempts)
    truth = truth_base(J, "failed", "jax",
                       "Dataflow started one Python SDK process per vCPU (12) on the single-A100 worker and each imported JAX, which by default preallocates 75% of the GPU memory; the later processes found almost no free GPU memory, cuDNN could not create a handle and JAX raised 'DNN library initialization failed'.")
    truth["evidence"] = [
        "Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR",
        "Memory usage: 655360 bytes free, 42298834944 bytes total.",
        JAX_DNN,
    ]
    truth["red_herrings"] = ["JAX backend: gpu, devices=[CudaDevice(id=0)]"]
    truth["sources"] = [
        ("absl-format cuda_dnn.cc 'Could not create cudnn handle' / 'Memory usage: N bytes free, M bytes total.' and the XlaRuntimeError FAILED_PRECONDITION wording (jax 0.5/0.6, 2025)", "jax-ml/jax#28752"),
        ("Maintainer explanation: by default JAX reserves 75% of GPU memory per process, so a second process misses memory", "jax-ml/jax#15361 (comment by nouiz, NVIDIA)"),
        ("Default 75% preallocation; 'Running multiple JAX processes concurrently' as an OOM cause", "jax-ml/jax docs/gpu_memory_allocation.rst; jax-ml/jax PR #1075"),
        ("JAX SimplifiedTraceback line", "jax-ml/jax#28752"),
        ("One SDK process per vCPU on Runner v2 Python; TensorFlow/JAX processes sharing one GPU", "dataflow-log-signatures.md §2b b1 (Dataflow GPU troubleshooting page)"),
    ]
    truth["notes"] = "The Pipeline_options echo shows no no_use_multiple_sdk_containers experiment and 12 portability_worker_id values (sdk-0-0..sdk-0-11) log on one a2-highgpu-1g VM. The first process (sdk-0-0) initialises fine. Free-byte figures are synthetic; A100-40GB total taken as 42298834944 bytes. Envelope synthetic."
    return J, truth


# ==========================================================================
# 5. PyTorch: old cu117 wheel on H100 (sm_90) -> no kernel image
# ==========================================================================

H100_WARN = [
    "/usr/local/lib/python3.10/site-packages/torch/cuda/__init__.py:155: UserWarning: ",
    "NVIDIA H100 80GB HBM3 with CUDA capability sm_90 is not compatible with the current PyTorch installation.",
    "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86.",
    "If you want to use the NVIDIA H100 80GB HBM3 GPU with PyTorch, please check the instructions at https://pytorch.org/get-started/locally/",
    "",
    "  warnings.warn(incompatible_device_warn.format(device_name, capability, \" \".join(arch_list), device_name))",
]
NO_KERNEL = ("RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
             "CUDA kernel errors might be asynchronously reported at some other API call,so the stacktrace below might be incorrect.\n"
             "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.")


def job_torch_h100():
    J = Job("torch113-h100-no-kernel-image", project="vela-retail-ml", region="us-east4", zone="us-east4-c",
            job_name="catalog-embeddings-h100-migr", start=dt.datetime(2026, 1, 20, 15, 2, 44, 910000, tzinfo=UTC),
            machine="a3-highgpu-1g", gpu="nvidia-h100-80gb", gpu_count=1, py="3.10", beam="2.55.1",
            image="us-east4-docker.pkg.dev/vela-retail-ml/beam/embedder:2.55.1-torch1.13.1-cu117",
            experiments=["use_runner_v2", "no_use_multiple_sdk_containers"],
            service_options=["worker_accelerator=type:nvidia-h100-80gb;count:1;install-nvidia-driver:latest"],
            options_extra={"max_num_workers": 2, "disk_size_gb": 120,
                           "state_dict_path": "gs://vela-retail-models/embedder/resnet152-catalog-v7.pt"},
            driver="570.172.08")
    steps = ["ReadCatalog/Read", "FetchImages", "ToTensor", "BatchElements/ParDo(_GlobalWindowsBatchingDoFn)",
             "RunInference/BeamML_RunInference", "WriteEmbeddings/Write/WriteImpl/WriteBundles"]
    job_start(J, steps, max_workers=2)
    vm = J.vms[0]
    vm_boot(J, vm)
    J.adv(3, 8)
    workers_started(J)
    J.adv(2, 5)
    sdk_start(J, vm)
    J.adv(1, 3)
    all_workers_ready(J)
    PL = J.site + "/apache_beam/ml/inference/pytorch_inference.py:%d"
    attempts = []
    for wi in range(4):
        J.adv(3, 9)
        J.worker(vm, "Loading state_dict_path gs://vela-retail-models/embedder/resnet152-catalog-v7.pt onto a cuda device",
                 logger=PL % 83, step="RunInference/BeamML_RunInference", thread="Thread-18")
        J.adv(2, 4)
        if wi == 0:
            for line in H100_WARN:
                J.adv(0.0001, 0.001)
                J.docker(vm, line, sev="ERROR")
        J.adv(4, 9)
        J.worker(vm, "Finished loading PyTorch model.", logger=PL % 97, step="RunInference/BeamML_RunInference", thread="Thread-18")
        S = J.site
        tb = "\n".join([
            "Traceback (most recent call last):",
            '  File "apache_beam/runners/common.py", line 1435, in apache_beam.runners.common.DoFnRunner.process',
            '  File "apache_beam/runners/common.py", line 637, in apache_beam.runners.common.SimpleInvoker.invoke_process',
            '  File "%s/apache_beam/ml/inference/base.py", line 1414, in process' % S,
            "    return self._run_inference(batch, inference_args)",
            '  File "%s/apache_beam/ml/inference/base.py", line 1390, in _run_inference' % S,
            "    raise e",
            '  File "%s/apache_beam/ml/inference/base.py", line 1376, in _run_inference' % S,
            "    result_generator = self._model_handler.run_inference(",
            '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 379, in run_inference' % S,
            "    return self._inference_fn(",
            '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 165, in default_tensor_inference_fn' % S,
            "    predictions = model(batched_tensors, **inference_args)",
            '  File "%s/torch/nn/modules/module.py", line 1194, in _call_impl' % S,
            "    return forward_call(*input, **kwargs)",
            '  File "%s/torchvision/models/resnet.py", line 285, in forward' % S,
            "    return self._forward_impl(x)",
            '  File "%s/torchvision/models/resnet.py", line 268, in _forward_impl' % S,
            "    x = self.conv1(x)",
            '  File "%s/torch/nn/modules/conv.py", line 459, in _conv_forward' % S,
            "    return F.conv2d(input, weight, bias, self.stride,",
            NO_KERNEL,
            "",
            "During handling of the above exception, another exception occurred:",
            "",
            "Traceback (most recent call last):",
            '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 300, in _execute' % S,
            "    response = task()",
            '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1237, in process_bundle' % S,
            "    input_op_by_transform_id[element.transform_id].process_encoded(",
            '  File "apache_beam/runners/common.py", line 1507, in apache_beam.runners.common.DoFnRunner._reraise_augmented',
            NO_KERNEL + " [while running 'RunInference/BeamML_RunInference-ptransform-52']",
            "",
        ])
        J.adv(1, 3)
        bundle_error(J, vm, "process_bundle-%d" % J.rng.randrange(10 ** 17, 10 ** 18), tb)
        J.adv(1, 3)
        worker_error_jm(J, tb)
        attempts.append((vm, "RuntimeError: CUDA error: no kernel image is available for execution on the device"))
        J.adv(5, 20)
    job_failed_end(J, "S04:BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+RunInference/BeamML_RunInference+WriteEmbeddings/Write/WriteImpl/WriteBundles", attempts)
    truth = truth_base(J, "failed", "pytorch-tensorflow",
                       "The worker image pins PyTorch 1.13.1+cu117, whose kernels are only built up to sm_86, so on the H100 (sm_90) the first convolution failed with 'no kernel image is available for execution on the device'.")
    truth["evidence"] = [
        "NVIDIA H100 80GB HBM3 with CUDA capability sm_90 is not compatible with the current PyTorch installation.",
        "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86.",
        "RuntimeError: CUDA error: no kernel image is available for execution on the device",
    ]
    truth["red_herrings"] = ["Loading state_dict_path gs://vela-retail-models/embedder/resnet152-catalog-v7.pt onto a cuda device"]
    truth["sources"] = [
        ("H100 sm_90 incompatibility UserWarning (torch 1.13 arch list)", "pytorch/pytorch#90761; ai2cm/ace#301; amithkk/stable-diffusion-k8s#10; PKU-YuanGroup/Open-Sora-Plan#39 (torch==1.13.1+cu117)"),
        ("torch 1.13-era 'no kernel image' RuntimeError with 'API call,so' trailer", "kohjingyu/gill#39; MembrAI/MIU-VL#6"),
        ("Beam PyTorch handler log 'Loading state_dict_path %s onto a %s device'", "apache/beam sdks/python/apache_beam/ml/inference/pytorch_inference.py"),
    ]
    truth["notes"] = "The warning is printed with warnings.warn on stderr, so each of its lines is a separate docker entry at ERROR severity. Envelope synthetic."
    return J, truth


# ==========================================================================
# 6. Hugging Face Hub: gated model, token not on the authorised list
# ==========================================================================

GATED_BODY = ("403 Client Error. (Request ID: Root=1-68f0c2a1-3b5e2d7f41a9c06e12d4b8f3;7c1e9a52-0d4b-4f7e-9a83-2b61f0e4c5d7)\n\n"
              "Cannot access gated repo for url https://huggingface.co/google/gemma-2-9b-it/resolve/main/config.json.\n"
              "Access to model google/gemma-2-9b-it is restricted and you are not in the authorized list. "
              "Visit https://huggingface.co/google/gemma-2-9b-it to ask for access.")


def job_gated():
    J = Job("hf-gated-gemma2-l4", project="orbit-support-ai", region="europe-west4", zone="europe-west4-b",
            job_name="ticket-triage-gemma2-1016", start=dt.datetime(2025, 10, 16, 6, 40, 19, 440000, tzinfo=UTC),
            machine="g2-standard-8", gpu="nvidia-l4", gpu_count=1, py="3.12", beam="2.68.0",
            image="europe-west4-docker.pkg.dev/orbit-support-ai/beam/hf-worker:2.68.0-py312",
            experiments=["use_runner_v2", "no_use_multiple_sdk_containers"],
            service_options=["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"],
            options_extra={"max_num_workers": 2, "disk_size_gb": 150,
                           "hf_token_secret": "projects/orbit-support-ai/secrets/hf-read-token/versions/latest"},
            project_number="77120955331")
    steps = ["ReadTickets/Read", "BuildPrompts", "RunInference/BeamML_RunInference", "ParseLabels",
             "WriteLabels/Write/WriteImpl/WriteBundles"]
    job_start(J, steps)
    vm = J.vms[0]
    vm_boot(J, vm)
    J.adv(3, 8)
    workers_started(J)
    J.adv(2, 5)
    sdk_start(J, vm)
    J.adv(1, 3)
    all_workers_ready(J)
    UL = J.site + "/triage/secrets.py:%d"
    J.adv(0.5, 2)
    J.worker(vm, "Fetched Hugging Face token from Secret Manager secret hf-read-token (version latest)", logger=UL % 22,
             step="RunInference/BeamML_RunInference", thread="Thread-16")
    S = J.site
    attempts = []
    J.adv(0.5, 2)
    J.jm("The Dataflow RunnerV2 container image of this job's workers will be ready for update in 7 days.")
    BL = J.site + "/triage/prompts.py:%d"
    for wi in range(4):
        J.adv(1, 3)
        J.worker(vm, "Built %d prompts from ticket shard %05d-of-00040" % (J.rng.randrange(1800, 2600), wi * 7 + 3),
                 logger=BL % 88, step="BuildPrompts", thread="Thread-16")
        J.adv(0.2, 1)
        J.worker(vm, "Loading text-generation pipeline google/gemma-2-9b-it on device GPU", logger=BL % 131,
                 step="RunInference/BeamML_RunInference", thread="Thread-16")
        J.adv(0.3, 1.2)
        inner = [
            '  File "%s/apache_beam/ml/inference/huggingface_inference.py", line 632, in load_model' % S,
            "    return pipeline(",
            "           ^^^^^^^^^",
            '  File "%s/transformers/pipelines/__init__.py", line 909, in pipeline' % S,
            "    config = AutoConfig.from_pretrained(",
            "             ^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            '  File "%s/transformers/models/auto/configuration_auto.py", line 1250, in from_pretrained' % S,
            "    config_dict, unused_kwargs = PretrainedConfig.get_config_dict(pretrained_model_name_or_path, **kwargs)",
            "                                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            '  File "%s/transformers/configuration_utils.py", line 649, in get_config_dict' % S,
            "    config_dict, kwargs = cls._get_config_dict(pretrained_model_name_or_path, **kwargs)",
            '  File "%s/transformers/configuration_utils.py", line 708, in _get_config_dict' % S,
            "    resolved_config_file = cached_file(",
            '  File "%s/transformers/utils/hub.py", line 321, in cached_file' % S,
            "    file = cached_files(path_or_repo_id=path_or_repo_id, filenames=[filename], **kwargs)",
            '  File "%s/transformers/utils/hub.py", line 543, in cached_files' % S,
            "    raise OSError(",
        ]
        pre = "\n".join([
            "Traceback (most recent call last):",
            '  File "%s/huggingface_hub/utils/_http.py", line 409, in hf_raise_for_status' % S,
            "    response.raise_for_status()",
            '  File "%s/requests/models.py", line 1026, in raise_for_status' % S,
            "    raise HTTPError(http_error_msg, response=self)",
            "requests.exceptions.HTTPError: 403 Client Error: Forbidden for url: https://huggingface.co/google/gemma-2-9b-it/resolve/main/config.json",
            "",
            "The above exception was the direct cause of the following exception:",
            "",
            "Traceback (most recent call last):",
            '  File "%s/transformers/utils/hub.py", line 479, in cached_files' % S,
            "    hf_hub_download(",
            '  File "%s/huggingface_hub/utils/_validators.py", line 114, in _inner_fn' % S,
            "    return fn(*args, **kwargs)",
            "           ^^^^^^^^^^^^^^^^^^^",
            '  File "%s/huggingface_hub/file_download.py", line 1010, in hf_hub_download' % S,
            "    return _hf_hub_download_to_cache_dir(",
            '  File "%s/huggingface_hub/file_download.py", line 1117, in _hf_hub_download_to_cache_dir' % S,
            "    _raise_on_head_call_error(head_call_error, force_download, local_files_only)",
            '  File "%s/huggingface_hub/file_download.py", line 1658, in _raise_on_head_call_error' % S,
            "    raise head_call_error",
            '  File "%s/huggingface_hub/file_download.py", line 1546, in _get_metadata_or_catch_error' % S,
            "    metadata = get_hf_file_metadata(",
            '  File "%s/huggingface_hub/file_download.py", line 1463, in get_hf_file_metadata' % S,
            "    r = _request_wrapper(",
            '  File "%s/huggingface_hub/file_download.py", line 309, in _request_wrapper' % S,
            "    hf_raise_for_status(response)",
            '  File "%s/huggingface_hub/utils/_http.py", line 426, in hf_raise_for_status' % S,
            "    raise _format(GatedRepoError, message, response) from e",
            "huggingface_hub.errors.GatedRepoError: " + GATED_BODY,
            "",
            "The above exception was the direct cause of the following exception:",
            "",
        ])
        final = ("OSError: You are trying to access a gated repo.\nMake sure to have access to it at "
                 "https://huggingface.co/google/gemma-2-9b-it.\n" + GATED_BODY)
        tb = pre + "\n" + beam_setup_traceback(J, inner, final, "RunInference/BeamML_RunInference-ptransform-44")
        bundle_error(J, vm, "process_bundle-%d" % J.rng.randrange(10 ** 17, 10 ** 18), tb)
        J.adv(1, 3)
        worker_error_jm(J, tb)
        attempts.append((vm, "OSError: You are trying to access a gated repo."))
        J.adv(6, 20)
    job_failed_end(J, "S02:ReadTickets/Read+BuildPrompts+RunInference/BeamML_RunInference+ParseLabels+WriteLabels/Write/WriteImpl/WriteBundles", attempts)
    truth = truth_base(J, "failed", "model-hub",
                       "The worker downloads google/gemma-2-9b-it from the Hugging Face Hub with a token whose account has not been granted access to this gated model, so the Hub answered 403 GatedRepoError and transformers raised 'You are trying to access a gated repo' when RunInference loaded the pipeline.")
    truth["evidence"] = [
        "Access to model google/gemma-2-9b-it is restricted and you are not in the authorized list.",
        "huggingface_hub.errors.GatedRepoError: 403 Client Error.",
        "OSError: You are trying to access a gated repo.",
    ]
    truth["red_herrings"] = ["Fetched Hugging Face token from Secret Manager secret hf-read-token (version latest)"]
    truth["sources"] = [
        ("transformers OSError 'You are trying to access a gated repo. / Make sure to have access to it at ...'", "zhaoxlpku/DASC7606-A3#1; zylon-ai/private-gpt#1985"),
        ("GatedRepoError message body with Request ID and 'Cannot access gated repo for url ...'", "ToTheBeginning/PuLID#97; city96/ComfyUI_ExtraModels#99; kyegomez/NeoSapiens#3 (frame names)"),
        ("403 'restricted and you are not in the authorized list. Visit ... to ask for access.' wording", "huggingface/huggingface_hub src/huggingface_hub/errors.py (GatedRepoError docstring) and utils/_http.py"),
        ("Beam HuggingFacePipelineModelHandler.load_model -> transformers.pipeline", "apache/beam sdks/python/apache_beam/ml/inference/huggingface_inference.py"),
    ]
    truth["notes"] = "Frame line numbers are approximate. The Secret Manager line is synthetic user code and shows a token was present (so this is not an unauthenticated 401). Envelope synthetic."
    return J, truth


# ==========================================================================
# 7. Multi-GPU: vLLM tensor parallel on 2 x L4, NCCL cannot create /dev/shm segment
# ==========================================================================

NCCL_DIST = ("torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, "
             "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5")
NCCL_SYS = "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. "
NCCL_SHM = "Error while creating shared memory segment /dev/shm/nccl-vzIpS6 (size 9637888)"


def job_nccl():
    J = Job("vllm-tp2-nccl-shm-l4x2", project="quanta-docs-ai", region="us-west1", zone="us-west1-a",
            job_name="contract-qa-tp2-0514", start=dt.datetime(2025, 5, 14, 10, 12, 55, 10000, tzinfo=UTC),
            machine="g2-standard-24", gpu="nvidia-l4", gpu_count=2, py="3.12", beam="2.65.0",
            image="us-west1-docker.pkg.dev/quanta-docs-ai/beam/vllm-worker:2.65.0-vllm0.8.3",
            experiments=["use_runner_v2", "no_use_multiple_sdk_containers"],
            service_options=["worker_accelerator=type:nvidia-l4;count:2;install-nvidia-driver"],
            options_extra={"max_num_workers": 2, "disk_size_gb": 200,
                           "vllm_server_kwargs": {"tensor-parallel-size": "2", "max-model-len": "8192"}})
    steps = ["ReadQuestions/Read", "BuildChat", "RunInference/BeamML_RunInference", "ExtractAnswer",
             "WriteAnswers/Write/WriteImpl/WriteBundles"]
    job_start(J, steps)
    vm = J.vms[0]
    vm_boot(J, vm)
    J.adv(3, 8)
    workers_started(J)
    J.adv(2, 5)
    sdk_start(J, vm)
    J.adv(1, 3)
    all_workers_ready(J)
    VL = J.site + "/apache_beam/ml/inference/vllm_inference.py:%d"
    P = "/usr/local/lib/python3.12/site-packages"
    attempts = []
    for wi in range(4):
        for srv in range(4 if wi == 0 else 1):
            port = J.rng.randrange(34000, 47000)
            J.adv(1, 3)
            J.worker(vm, "Starting service with ['python' '-m' 'vllm.entrypoints.openai.api_server' '--model' 'Qwen/Qwen2.5-14B-Instruct' '--port' '%d' '--tensor-parallel-size' '2' '--max-model-len' '8192']" % port,
                     logger=VL % 61, step="RunInference/BeamML_RunInference", thread="Thread-%d" % (14 + srv))
            J.adv(10, 16)
            d = "{T}"
            wp = J.rng.randrange(200, 900)
            W = "(VllmWorkerProcess pid=%d) " % wp
            lines = [
                "INFO %s [api_server.py:1043] vLLM API server version 0.8.3" % d,
                "INFO %s [config.py:689] This model supports multiple tasks: {'generate', 'classify', 'embed', 'score', 'reward'}. Defaulting to 'generate'." % d,
                "INFO %s [config.py:1713] Defaulting to use mp for distributed inference" % d,
                "INFO %s [api_server.py:246] Started engine process with PID %d" % (d, wp - 1),
                "WARNING %s [multiproc_worker_utils.py:306] Reducing Torch parallelism from 12 threads to 1 to avoid unnecessary CPU contention. Set OMP_NUM_THREADS in the external environment to tune this value as needed." % d,
                W + "INFO %s [multiproc_worker_utils.py:225] Worker ready; awaiting tasks" % d,
                W + "INFO %s [cuda.py:289] Using Flash Attention backend." % d,
                "INFO %s [cuda.py:289] Using Flash Attention backend." % d,
                W + "INFO %s [utils.py:990] Found nccl from library libnccl.so.2" % d,
                W + "INFO %s [pynccl.py:69] vLLM is using nccl==2.21.5" % d,
                "INFO %s [utils.py:990] Found nccl from library libnccl.so.2" % d,
                "INFO %s [pynccl.py:69] vLLM is using nccl==2.21.5" % d,
            ]
            if srv == 0 and wi == 0:
                E = W + "ERROR %s [multiproc_worker_utils.py:238] " % d
                tb = [
                    "Exception in worker VllmWorkerProcess while processing method init_device.",
                    "Traceback (most recent call last):",
                    '  File "%s/vllm/executor/multiproc_worker_utils.py", line 232, in _run_worker_process' % P,
                    "    output = run_method(worker, method, args, kwargs)",
                    "             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
                    '  File "%s/vllm/utils.py", line 2378, in run_method' % P,
                    "    return func(*args, **kwargs)",
                    "           ^^^^^^^^^^^^^^^^^^^^^",
                    '  File "%s/vllm/worker/worker_base.py", line 604, in init_device' % P,
                    "    self.worker.init_device()  # type: ignore",
                    "    ^^^^^^^^^^^^^^^^^^^^^^^^^",
                    '  File "%s/vllm/worker/worker.py", line 165, in init_device' % P,
                    "    init_worker_distributed_environment(self.vllm_config, self.rank,",
                    '  File "%s/vllm/worker/worker.py", line 528, in init_worker_distributed_environment' % P,
                    "    ensure_model_parallel_initialized(parallel_config.tensor_parallel_size,",
                    '  File "%s/vllm/distributed/parallel_state.py", line 1042, in ensure_model_parallel_initialized' % P,
                    "    initialize_model_parallel(tensor_model_parallel_size,",
                    '  File "%s/vllm/distributed/parallel_state.py", line 997, in initialize_model_parallel' % P,
                    "    _TP = init_model_parallel_group(group_ranks,",
                    '  File "%s/vllm/distributed/parallel_state.py", line 236, in __init__' % P,
                    "    self.device_communicator = device_comm_cls(",
                    '  File "%s/vllm/distributed/device_communicators/cuda_communicator.py", line 52, in __init__' % P,
                    "    self.ca_comm = CustomAllreduce(",
                    '  File "%s/vllm/distributed/device_communicators/custom_all_reduce.py", line 179, in __init__' % P,
                    "    handles, offsets = self._get_ipc_meta(self.meta)",
                    '  File "%s/vllm/distributed/device_communicators/custom_all_reduce.py", line 204, in _get_ipc_meta' % P,
                    "    return self._gather_ipc_meta(shard_data)",
                    '  File "%s/vllm/distributed/device_communicators/custom_all_reduce.py", line 208, in _gather_ipc_meta' % P,
                    "    dist.all_gather_object(all_data, shard_data, group=self.group)",
                    '  File "%s/torch/distributed/c10d_logger.py", line 81, in wrapper' % P,
                    "    return func(*args, **kwargs)",
                    "           ^^^^^^^^^^^^^^^^^^^^^",
                    '  File "%s/torch/distributed/distributed_c10d.py", line 3037, in all_gather_object' % P,
                    "    all_gather(object_size_list, local_size, group=group)",
                    '  File "%s/torch/distributed/distributed_c10d.py", line 3538, in all_gather' % P,
                    "    work = group.allgather([tensor_list], [tensor])",
                    "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
                    NCCL_DIST,
                    NCCL_SYS,
                    "Last error:",
                    NCCL_SHM,
                ]
                lines += [E + x for x in tb]
                lines += [
                    "ERROR %s [engine.py:448] NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5" % d,
                    "ERROR %s [engine.py:448] %s" % (d, NCCL_SYS),
                    "ERROR %s [engine.py:448] Last error:" % d,
                    "ERROR %s [engine.py:448] %s" % (d, NCCL_SHM),
                    "INFO %s [multiproc_worker_utils.py:124] Killing local vLLM worker processes" % d,
                    "Process SpawnProcess-1:",
                    "Traceback (most recent call last):",
                    '  File "/usr/local/lib/python3.12/multiprocessing/process.py", line 314, in _bootstrap',
                    "    self.run()",
                    '  File "%s/vllm/engine/multiprocessing/engine.py", line 450, in run_mp_engine' % P,
                    "    raise e",
                    NCCL_DIST,
                    NCCL_SYS,
                    "Last error:",
                    NCCL_SHM,
                    "[rank0]:[W{RANKW} ProcessGroupNCCL.cpp:1496] Warning: WARNING: destroy_process_group() was not called before program exit, which can leak resources. For more info, please see https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())",
                    "Traceback (most recent call last):",
                    '  File "<frozen runpy>", line 198, in _run_module_as_main',
                    '  File "%s/vllm/entrypoints/openai/api_server.py", line 1121, in <module>' % P,
                    "    uvloop.run(run_server(args))",
                    '  File "%s/vllm/entrypoints/openai/api_server.py", line 267, in build_async_engine_client_from_engine_args' % P,
                    '    raise RuntimeError(',
                    "RuntimeError: Engine process failed to start. See stack trace for the root cause.",
                    "/usr/local/lib/python3.12/multiprocessing/resource_tracker.py:255: UserWarning: resource_tracker: There appear to be 1 leaked shared_memory objects to clean up at shutdown",
                    "  warnings.warn('resource_tracker: There appear to be %d '",
                ]
            else:
                lines += [
                    W + "ERROR %s [multiproc_worker_utils.py:238] %s" % (d, NCCL_DIST),
                    W + "ERROR %s [multiproc_worker_utils.py:238] %s" % (d, NCCL_SYS),
                    W + "ERROR %s [multiproc_worker_utils.py:238] Last error:" % d,
                    W + "ERROR %s [multiproc_worker_utils.py:238] Error while creating shared memory segment /dev/shm/nccl-%s (size 9637888)" % (d, J.r36(6).replace("a", "Q")),
                    "INFO %s [multiproc_worker_utils.py:124] Killing local vLLM worker processes" % d,
                    "RuntimeError: Engine process failed to start. See stack trace for the root cause.",
                ]
            for line in lines:
                J.adv(0.002, 0.05)
                if "Found nccl" in line and "VllmWorker" in line:
                    J.adv(3, 6)
                line = line.replace("{T}", J.pydt(J.t)).replace(
                    "{RANKW}", "%d%s.%09d" % (J.t.month, J.t.strftime("%d %H:%M:%S"), J.t.microsecond * 1000 + J.rng.randrange(1000)))
                J.worker(vm, line, logger=VL % 71, thread="Thread-%d (log_stdout)" % (15 + srv), step="RunInference/BeamML_RunInference")
            J.adv(4, 6)
        inner = [
            '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 166, in load_model' % J.site,
            "    return _VLLMModelServer(self._model_name, self._vllm_server_kwargs)",
            "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 104, in __init__' % J.site,
            "    self.start_server()",
            '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 138, in start_server' % J.site,
            "    self.start_server(retries - 1)",
            '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 134, in start_server' % J.site,
            "    raise Exception(",
        ]
        tb = beam_setup_traceback(J, inner, "Exception: Failed to start vLLM server, process exited with code 1",
                                  "RunInference/BeamML_RunInference-ptransform-48")
        J.adv(0.2, 1)
        bundle_error(J, vm, "process_bundle-%d" % J.rng.randrange(10 ** 17, 10 ** 18), tb)
        J.adv(1, 3)
        worker_error_jm(J, tb)
        attempts.append((vm, "Exception: Failed to start vLLM server, process exited with code 1"))
        J.adv(8, 20)
    job_failed_end(J, "S02:ReadQuestions/Read+BuildChat+RunInference/BeamML_RunInference+ExtractAnswer+WriteAnswers/Write/WriteImpl/WriteBundles", attempts)
    truth = truth_base(J, "failed", "multi-gpu",
                       "With tensor-parallel-size 2 on the two L4 GPUs, NCCL could not create its shared-memory segment in /dev/shm inside the SDK container (too little shared memory), so the NCCL communicator between the two vLLM ranks failed with ncclSystemError and the vLLM server never started.")
    truth["evidence"] = [
        NCCL_SHM,
        "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.",
    ]
    truth["red_herrings"] = ["Exception: Failed to start vLLM server, process exited with code 1",
                             "RuntimeError: Engine process failed to start. See stack trace for the root cause."]
    truth["sources"] = [
        ("torch DistBackendError + ncclSystemError + 'Last error: Error while creating shared memory segment /dev/shm/nccl-vzIpS6 (size 9637888)'", "sgl-project/sgl-project.github.io#5 (2025-03)"),
        ("Same error inside vLLM 0.8.3 worker processes ('(VllmWorkerProcess pid=...) ERROR ... [multiproc_worker_utils.py:238]', NCCLUtils.hpp:268, NCCL 2.21.5)", "MiniMax-AI/MiniMax-01#42 (2025-04)"),
        ("Maintainer: ncclShmOpen error means torch could not allocate shared memory for NCCL; use --shm-size", "vllm-project/vllm#1710"),
        ("'unhandled system error (run with NCCL_DEBUG=INFO for details)' string", "NVIDIA/nccl src/init.cc"),
        ("vLLM custom_all_reduce -> dist.all_gather_object frames ending in DistBackendError", "vllm-project/vllm#4618"),
        ("'Killing local vLLM worker processes', destroy_process_group warning, resource_tracker warning", "vllm-project/vllm#14452"),
        ("Beam vLLM handler relay and 'Failed to start vLLM server'", "apache/beam sdks/python/apache_beam/ml/inference/vllm_inference.py"),
    ]
    truth["notes"] = "Every vLLM line is relayed by Beam at INFO severity. vLLM frame line numbers are approximate. The first server start is relayed in full; later starts are abbreviated (and only one start per later work-item attempt is shown) to stay under 300 entries. Envelope synthetic."
    return J, truth


# ==========================================================================
# 8. Capacity: H100 zone stockout, workers never start
# ==========================================================================

def job_capacity():
    J = Job("h100-zone-stockout", project="ridgeline-bio", region="us-central1", zone="us-central1-a",
            job_name="protein-embed-h100-1203", start=dt.datetime(2025, 12, 3, 14, 2, 30, 600000, tzinfo=UTC),
            machine="a3-highgpu-2g", gpu="nvidia-h100-80gb", gpu_count=2, py="3.11", beam="2.67.0",
            image="us-central1-docker.pkg.dev/ridgeline-bio/beam/esm-worker:2.67.0",
            experiments=["use_runner_v2", "no_use_multiple_sdk_containers"],
            service_options=["worker_accelerator=type:nvidia-h100-80gb;count:2;install-nvidia-driver:latest"],
            options_extra={"max_num_workers": 4, "disk_size_gb": 300},
            project_number="902114477310")
    steps = ["ReadSequences/Read", "Tokenize", "BatchElements/ParDo(_GlobalWindowsBatchingDoFn)",
             "RunInference/BeamML_RunInference", "PoolEmbeddings", "WriteParquet/Write/WriteImpl/WriteBundles"]
    J.jm("Autoscaling is enabled for job %s. The number of workers will be between 1 and 4." % J.job_id)
    J.adv(0.5, 1)
    J.jm("Worker configuration: %s in %s." % (J.machine, J.zone))
    J.adv(0.6, 1.5)
    J.jm("Expanding SplittableParDo operations into optimizable parts.")
    J.adv(0.01, 0.05)
    J.jm("Fusing adjacent ParDo, Read, Write, and Flatten operations")
    for a, b in zip(steps[1:], steps[:-1]):
        J.adv(0.005, 0.03)
        J.jm("Fusing consumer %s into %s" % (a, b))
    for v in ["ReadSequences/Read/Impulse.out", "WriteParquet/Write/WriteImpl/DoOnce/Impulse.out",
              "WriteParquet/Write/WriteImpl/InitializeWrite.out"]:
        J.adv(0.01, 0.1)
        J.jm('Value "%s" materialized.' % v, sev="DEBUG")
    J.adv(0.1, 0.3)
    J.jm("Workflow config is missing a default resource spec.", sev="DEBUG")
    J.adv(0.05, 0.2)
    J.jm("Starting worker pool setup.", sev="DEBUG")
    zones = ["us-central1-a", "us-central1-c", "us-central1-a", "us-central1-b", "us-central1-c", "us-central1-a"]
    for i in range(22):
        z = zones[i % len(zones)]
        J.adv(0.05, 0.3)
        J.jm("Starting 1 workers in %s..." % z)
        if i == 0:
            J.adv(0.2, 0.8)
            J.jm("Executing operation %s" % "+".join(steps[:3]))
        J.adv(35, 80)
        inst = J.new_vm()
        J.jm("Startup of the worker pool in zone %s failed to bring up any of the desired 1 workers. Please refer to "
             "https://cloud.google.com/dataflow/docs/guides/common-errors#worker-pool-failure for help troubleshooting. "
             "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS: Instance '%s' creation failed: The zone 'projects/%s/zones/%s' "
             "does not have enough resources available to fulfill the request.  '(resource type:compute)'." % (z, inst, J.project, z),
             sev="ERROR")
        J.adv(60, 150)
    J.jm("Workflow failed. Causes: Unable to bring up enough workers: minimum 1, actual 0. Please check your quota and retry later, or please try in a different zone.",
         sev="ERROR")
    J.adv(0.3, 1)
    J.jm("Cleaning up.")
    J.adv(0.05, 0.3)
    J.jm("Starting worker pool teardown.", sev="DEBUG")
    J.adv(0.05, 0.3)
    J.jm("Stopping worker pool...")
    J.adv(2, 6)
    J.jm("Worker pool stopped.")
    J.adv(0.5, 2)
    J.jm("Tearing down pending resources...", sev="DEBUG")
    truth = truth_base(J, "failed", "capacity",
                       "Compute Engine had no a3-highgpu-2g (H100) capacity in the us-central1 zones Dataflow tried (ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS), so no worker VM was ever created and the job failed without running any code.")
    truth["evidence"] = [
        "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS",
        "does not have enough resources available to fulfill the request.",
        "failed to bring up any of the desired 1 workers.",
        "Unable to bring up enough workers: minimum 1, actual 0.",
    ]
    truth["red_herrings"] = ["Please check your quota and retry later"]
    truth["sources"] = [
        ("Worker-pool startup failure with help link + ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS + Instance '...-harness-xxxx' creation failed (two spaces before the resource-type tuple)",
         "apache/beam#26552; GoogleCloudPlatform/python-docs-samples#5247 (Dataflow GPU sample test); GoogleCloudPlatform/pontem#251"),
        ("'Workflow failed. Causes: Unable to bring up enough workers: minimum 1, actual 0. Please check your quota and retry later, or please try in a different zone.'",
         "GoogleCloudPlatform/cloudml-samples#54"),
        ("'Value \"...\" materialized.' DEBUG job messages", "google-research/text-to-text-transfer-transformer#986"),
    ]
    truth["notes"] = "Only job-message entries exist: no worker VM was created. resource.labels.project_id in job messages is the project number (as in real job-message entries). The final 'check your quota' wording is the service's generic text; the cause is a zone stockout, not quota. Envelope synthetic."
    return J, truth


# ==========================================================================
# 9. Succeeded on CPU: torch cu128 wheel needs a newer driver than the worker has
# ==========================================================================

DRIVER_OLD = ("/usr/local/lib/python3.11/site-packages/torch/cuda/__init__.py:182: UserWarning: CUDA initialization: The NVIDIA "
              "driver on your system is too old (found version 12020). Please update your GPU driver by downloading and "
              "installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: "
              "https://pytorch.org/ to install a PyTorch version that has been compiled with your version of the CUDA "
              "driver. (Triggered internally at /pytorch/c10/cuda/CUDAFunctions.cpp:119.)")
SWITCH_CPU = "Model handler specified a 'GPU' device, but GPUs are not available. Switching to CPU."


def job_cpu_fallback():
    J = Job("torch-cu128-driver-cpu-fallback-t4", project="kestrel-media", region="us-central1", zone="us-central1-c",
            job_name="thumbnail-nsfw-scan-1107", start=dt.datetime(2025, 11, 7, 1, 15, 7, 330000, tzinfo=UTC),
            machine="n1-standard-8", gpu="nvidia-tesla-t4", gpu_count=1, py="3.11", beam="2.69.0",
            image="us-central1-docker.pkg.dev/kestrel-media/dataflow/scanner:2.69.0-torch2.8.0",
            experiments=["use_runner_v2", "no_use_multiple_sdk_containers"],
            service_options=["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"],
            options_extra={"max_num_workers": 4, "disk_size_gb": 60, "number_of_worker_harness_threads": 2,
                           "state_dict_path": "gs://kestrel-media-models/scanner/vit_b16_v3.pt"},
            n_vms=1, driver="535.230.02")
    steps = ["ListThumbnails/Read", "LoadImage", "ToTensor", "BatchElements/ParDo(_GlobalWindowsBatchingDoFn)",
             "RunInference/BeamML_RunInference", "ScoreToRow", "WriteFlags/Write/WriteImpl/WriteBundles"]
    job_start(J, steps, max_workers=4)
    vm = J.vms[0]
    vm_boot(J, vm)
    J.adv(3, 8)
    workers_started(J)
    J.adv(2, 5)
    sdk_start(J, vm)
    J.adv(1, 3)
    all_workers_ready(J)
    PL = J.site + "/apache_beam/ml/inference/pytorch_inference.py:%d"
    J.adv(3, 8)
    J.docker(vm, DRIVER_OLD, sev="ERROR")
    J.adv(0.0001, 0.001)
    J.docker(vm, "  return torch._C._cuda_getDeviceCount() > 0", sev="ERROR")
    J.adv(0.01, 0.05)
    J.worker(vm, SWITCH_CPU, sev="WARNING", logger=PL % 72, step="RunInference/BeamML_RunInference", thread="Thread-18")
    J.adv(0.01, 0.05)
    J.worker(vm, "Loading state_dict_path gs://kestrel-media-models/scanner/vit_b16_v3.pt onto a cpu device",
             logger=PL % 83, step="RunInference/BeamML_RunInference", thread="Thread-18")
    J.adv(6, 10)
    J.worker(vm, "Finished loading PyTorch model.", logger=PL % 97, step="RunInference/BeamML_RunInference", thread="Thread-18")
    UL = J.site + "/scanner/rows.py:%d"
    done = [0]

    def prog(i):
        done[0] += 512
        return UL % 51, "Scored %d thumbnails so far (%.1f img/s)" % (done[0], J.rng.uniform(3.1, 4.4))
    heartbeat_noise(J, vm, 18, prog)
    # autoscaling adds workers because progress is slow; they fall back to CPU the same way
    J.jm("Autoscaling: Raised the number of workers to 4 based on the rate of progress in the currently running stage(s).")
    for k in range(3):
        v = J.new_vm()
        J.vms.append(v)
        J.adv(30, 60)
        J.sys(v, "ima: No architecture policies found")
        J.adv(40, 80)
        J.startup(v, "Installing GPU driver version %s" % J.driver)
        J.adv(30, 50)
        J.startup(v, "Finished installing the drivers.")
        J.adv(60, 120)
        J.worker(v, "Pipeline_options: %s" % J.options_repr(), logger=J.site + "/apache_beam/runners/worker/sdk_worker_main.py:166")
        J.adv(5, 10)
        J.docker(v, DRIVER_OLD, sev="ERROR")
        J.adv(0.01, 0.05)
        J.worker(v, SWITCH_CPU, sev="WARNING", logger=PL % 72, step="RunInference/BeamML_RunInference", thread="Thread-18")
        J.adv(0.01, 0.05)
        J.worker(v, "Loading state_dict_path gs://kestrel-media-models/scanner/vit_b16_v3.pt onto a cpu device",
                 logger=PL % 83, step="RunInference/BeamML_RunInference", thread="Thread-18")
    for v in J.vms:
        heartbeat_noise(J, v, 9, prog)
    job_success_end(J, ["ListThumbnails/Read+LoadImage+ToTensor+BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+RunInference/BeamML_RunInference+ScoreToRow+WriteFlags/Write/WriteImpl/WriteBundles",
                        "WriteFlags/Write/WriteImpl/FinalizeWrite"])
    truth = truth_base(J, "succeeded", "cpu-fallback",
                       "The job finished but ran inference on CPU: the image's PyTorch 2.8 (CUDA 12.8) wheel needs a newer NVIDIA driver than the 535 driver on the T4 workers (CUDA 12.2), so torch.cuda.is_available() was False and Beam's PyTorch handler silently switched to CPU.")
    truth["evidence"] = [
        "The NVIDIA driver on your system is too old (found version 12020).",
        SWITCH_CPU,
        "onto a cpu device",
    ]
    truth["red_herrings"] = []
    truth["sources"] = [
        ("torch UserWarning 'CUDA initialization: The NVIDIA driver on your system is too old (found version NNNNN)...' (2025 wording with https://pytorch.org/ and CUDAFunctions.cpp:119)", "pytorch/pytorch#162531; sgl-project/sglang#11395; weaviate/Verba#72"),
        ("Beam PyTorch handler fallback warning and 'Loading state_dict_path %s onto a %s device' / 'Finished loading PyTorch model.'", "apache/beam sdks/python/apache_beam/ml/inference/pytorch_inference.py"),
    ]
    truth["notes"] = "The 'Triggered internally at' path was adapted from the CI path in pytorch/pytorch#162531 to the release-wheel form; the evidence substrings are unchanged. Progress lines are synthetic user code showing ~4 img/s. Envelope synthetic."
    return J, truth


# ==========================================================================
# 10. Healthy: TensorFlow on T4 with the usual scary-looking start-up lines
# ==========================================================================

BFC_WARN_TMPL = ("W0000 00:00:%s %7d bfc_allocator.cc:310] Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.10GiB "
                 "with freed_by_count=0. The caller indicates that this is not a failure, but may mean that there could be "
                 "performance gains if more memory were available.")


def job_healthy_tf():
    J = Job("healthy-tf217-t4-noise", project="finch-insurance-ml", region="us-west1", zone="us-west1-b",
            job_name="claims-photo-classifier-0211", start=dt.datetime(2026, 2, 11, 17, 44, 3, 90000, tzinfo=UTC),
            machine="n1-standard-4", gpu="nvidia-tesla-t4", gpu_count=1, py="3.10", beam="2.60.0",
            image="us-west1-docker.pkg.dev/finch-insurance-ml/beam/tf-worker:2.60.0-tf2.17.1",
            experiments=["use_runner_v2", "no_use_multiple_sdk_containers"],
            service_options=["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"],
            options_extra={"max_num_workers": 2, "disk_size_gb": 50,
                           "model_uri": "gs://finch-ml-models/claims-photo/efficientnetv2_s/2026-01"})
    steps = ["ReadPhotos/Read", "DecodeAndResize", "BatchElements/ParDo(_GlobalWindowsBatchingDoFn)",
             "RunInference/BeamML_RunInference", "ToRows", "WriteToBigQuery/BigQueryBatchFileLoads/WriteRecordsToFile"]
    job_start(J, steps)
    vm = J.vms[0]
    vm_boot(J, vm)
    J.adv(3, 8)
    workers_started(J)
    J.adv(2, 5)
    sdk_start(J, vm)
    J.adv(1, 3)
    all_workers_ready(J)
    J.adv(2, 6)
    pid = J.rng.randrange(60, 120)
    d0 = J.t.strftime("%Y-%m-%d %H:%M:%S.%f")
    J.docker(vm, "%s: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:477] Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered" % d0, sev="ERROR")
    J.adv(0.001, 0.01)
    J.docker(vm, "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR", sev="ERROR")
    J.adv(0.001, 0.01)
    us = "%d.%06d" % (int(J.t.timestamp()), J.t.microsecond)
    J.docker(vm, "E0000 00:00:%s %7d cuda_dnn.cc:8310] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered" % (us, pid), sev="ERROR")
    J.adv(0.001, 0.01)
    us = "%d.%06d" % (int(J.t.timestamp()), J.t.microsecond)
    J.docker(vm, "E0000 00:00:%s %7d cuda_blas.cc:1418] Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered" % (us, pid), sev="ERROR")
    J.adv(0.01, 0.05)
    d0 = J.t.strftime("%Y-%m-%d %H:%M:%S.%f")
    J.docker(vm, "%s: I tensorflow/core/platform/cpu_feature_guard.cc:210] This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations." % d0, sev="ERROR")
    J.docker(vm, "To enable the following instructions: AVX2 AVX512F FMA, in other operations, rebuild TensorFlow with the appropriate compiler flags.", sev="ERROR")
    J.adv(0.5, 1)
    d0 = J.t.strftime("%Y-%m-%d %H:%M:%S.%f")
    J.docker(vm, "%s: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT" % d0, sev="ERROR")
    TL = J.site + "/apache_beam/ml/inference/tensorflow_inference.py:%d"
    J.adv(2, 5)
    J.worker(vm, "Loading model from gs://finch-ml-models/claims-photo/efficientnetv2_s/2026-01", logger=J.site + "/claims/pipeline.py:64",
             step="RunInference/BeamML_RunInference", thread="Thread-17")
    J.adv(1, 2)
    gi = GPU_INFO[J.gpu]
    us = "%d.%06d" % (int(J.t.timestamp()), J.t.microsecond)
    J.docker(vm, "I0000 00:00:%s %7d cuda_executor.cc:1015] successful NUMA node read from SysFS had negative value (-1), but there must be at least one NUMA node, so returning NUMA node zero. See more at https://github.com/torvalds/linux/blob/v6.0/Documentation/ABI/testing/sysfs-bus-pci#L344-L355" % (us, pid), sev="ERROR")
    J.adv(0.01, 0.05)
    us = "%d.%06d" % (int(J.t.timestamp()), J.t.microsecond)
    J.docker(vm, "I0000 00:00:%s %7d gpu_device.cc:2021] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 13949 MB memory:  -> device: 0, name: %s, pci bus id: %s, compute capability: %s" % (us, pid, gi["name"], gi["bus"], gi["cc"]), sev="ERROR")
    J.adv(8, 14)
    us = "%d.%06d" % (int(J.t.timestamp()), J.t.microsecond)
    J.docker(vm, "I0000 00:00:%s %7d service.cc:146] XLA service 0x7f3a2c004f60 initialized for platform CUDA (this does not guarantee that XLA will be used). Devices:" % (us, pid), sev="ERROR")
    J.docker(vm, "I0000 00:00:%s %7d service.cc:154]   StreamExecutor device (0): Tesla T4, Compute Capability 7.5" % (us, pid), sev="ERROR")
    J.adv(0.3, 1)
    us = "%d.%06d" % (int(J.t.timestamp()), J.t.microsecond)
    J.docker(vm, "I0000 00:00:%s %7d cuda_dnn.cc:529] Loaded cuDNN version 8907" % (us, pid), sev="ERROR")
    J.adv(1, 3)
    us = "%d.%06d" % (int(J.t.timestamp()), J.t.microsecond)
    J.docker(vm, BFC_WARN_TMPL % (us, pid), sev="ERROR")
    J.adv(0.5, 1)
    us = "%d.%06d" % (int(J.t.timestamp()), J.t.microsecond)
    J.docker(vm, "I0000 00:00:%s %7d device_compiler.h:188] Compiled cluster using XLA!  This line is logged at most once for the lifetime of the process." % (us, pid), sev="ERROR")
    UL = J.site + "/claims/pipeline.py:%d"
    n = [0]

    def prog(i):
        n[0] += 4096
        return UL % 112, "Classified %d photos (batch size 64, %.0f img/s)" % (n[0], J.rng.uniform(180, 240))
    heartbeat_noise(J, vm, 28, prog)
    J.adv(5, 15)
    J.worker(vm, "Finished writing 114688 rows to temp files for BigQuery load job beam_bq_job_LOAD_claimsphotoclassifier0211_%s" % J.r36(10),
             logger=J.site + "/apache_beam/io/gcp/bigquery_file_loads.py:1123", thread="Thread-23")
    job_success_end(J, ["ReadPhotos/Read+DecodeAndResize+BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+RunInference/BeamML_RunInference+ToRows+WriteToBigQuery/BigQueryBatchFileLoads/WriteRecordsToFile",
                        "WriteToBigQuery/BigQueryBatchFileLoads/TriggerLoadJobsWithoutTempTables"])
    truth = truth_base(J, "succeeded", "healthy",
                       "none")
    truth["evidence"] = [
        "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 13949 MB memory:  -> device: 0, name: Tesla T4",
        "Worker pool stopped.",
    ]
    truth["red_herrings"] = [
        "Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered",
        "TF-TRT Warning: Could not find TensorRT",
        "Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.10GiB with freed_by_count=0. The caller indicates that this is not a failure",
        "successful NUMA node read from SysFS had negative value (-1)",
        'Error initializing dynamic plugin prober" err="error (re-)creating driver directory: mkdir /usr/libexec/kubernetes: read-only file system',
    ]
    truth["sources"] = [
        ("TF 2.17/2.18 start-up noise: cuFFT/cuDNN/cuBLAS factory registration E lines, absl InitializeLog banner, cpu_feature_guard, TF-TRT Warning", "sehoffmann/dmlcloud#38 (2025-01); TaterTotterson/microWakeWord-Trainer-Nvidia-Docker#8 (2025-11); kr-colab/ReLERNN#63"),
        ("NUMA-node line, 'Created device ... compute capability' absl format", "kr-colab/ReLERNN#63; dataflow-log-signatures.md §2i (TensorFlow on a working GPU)"),
        ("BFC allocator 'ran out of memory ... The caller indicates that this is not a failure' warning", "talmolab/sleap#2142 (quoted in dataflow-log-signatures.md §2b b4)"),
        ("Benign kubelet/system lines listed by the Dataflow docs", "dataflow-log-signatures.md §2i (common-errors page)"),
    ]
    truth["notes"] = "TensorFlow writes these lines to stderr, so they arrive in the docker log at ERROR severity even though they are I/W/E-level noise. The job completed normally. 'XLA service ... initialized', 'Loaded cuDNN version' and 'Compiled cluster using XLA!' follow TF's usual wording (not quoted from one specific issue). Envelope synthetic."
    return J, truth


# ==========================================================================
# 11. Healthy: vLLM tensor parallel on 2 x A100 with NCCL INFO + a retried download
# ==========================================================================

def job_healthy_vllm():
    J = Job("healthy-vllm-tp2-a100-nccl-info", project="juniper-search", region="europe-west4", zone="europe-west4-a",
            job_name="query-rewrite-backfill-0303", start=dt.datetime(2026, 3, 3, 22, 5, 48, 400000, tzinfo=UTC),
            machine="a2-highgpu-2g", gpu="nvidia-tesla-a100", gpu_count=2, py="3.12", beam="2.70.0",
            image="europe-west4-docker.pkg.dev/juniper-search/beam/vllm-worker:2.70.0-vllm0.8.5",
            experiments=["use_runner_v2", "no_use_multiple_sdk_containers"],
            service_options=["worker_accelerator=type:nvidia-tesla-a100;count:2;install-nvidia-driver:latest"],
            options_extra={"max_num_workers": 1, "disk_size_gb": 300,
                           "vllm_server_kwargs": {"tensor-parallel-size": "2", "max-model-len": "16384"},
                           "environment_variables": {"NCCL_DEBUG": "INFO"}},
            driver="550.90.07", project_number="583920117402")
    steps = ["ReadQueries/Read", "BuildPrompt", "RunInference/BeamML_RunInference", "ParseRewrite",
             "WriteRewrites/Write/WriteImpl/WriteBundles"]
    job_start(J, steps, max_workers=1)
    vm = J.vms[0]
    vm_boot(J, vm)
    J.adv(3, 8)
    workers_started(J)
    J.adv(2, 5)
    sdk_start(J, vm)
    J.adv(1, 3)
    all_workers_ready(J)
    VL = J.site + "/apache_beam/ml/inference/vllm_inference.py:%d"
    port = 41377
    J.adv(1, 2)
    J.worker(vm, "Starting service with ['python' '-m' 'vllm.entrypoints.openai.api_server' '--model' 'Qwen/Qwen3-30B-A3B' '--port' '%d' '--tensor-parallel-size' '2' '--max-model-len' '16384']" % port,
             logger=VL % 61, step="RunInference/BeamML_RunInference", thread="Thread-14")

    def R(line, gap=(0.002, 0.05)):
        J.adv(*gap)
        line = line.replace("{T}", J.pydt(J.t))
        J.worker(vm, line, logger=VL % 71, thread="Thread-15 (log_stdout)", step="RunInference/BeamML_RunInference")
    J.adv(9, 14)
    d = "{T}"
    R("INFO %s [api_server.py:1043] vLLM API server version 0.8.5.post1" % d)
    R("INFO %s [config.py:717] This model supports multiple tasks: {'generate', 'classify', 'embed', 'score', 'reward'}. Defaulting to 'generate'." % d)
    R("INFO %s [config.py:1770] Defaulting to use mp for distributed inference" % d)
    R("INFO %s [config.py:2003] Chunked prefill is enabled with max_num_batched_tokens=2048." % d)
    R("WARNING %s [multiproc_worker_utils.py:306] Reducing Torch parallelism from 12 threads to 1 to avoid unnecessary CPU contention. Set OMP_NUM_THREADS in the external environment to tune this value as needed." % d)
    wp = 401
    W1 = "(VllmWorker rank=1 pid=%d) " % wp
    W0 = "(VllmWorker rank=0 pid=%d) " % (wp - 1)
    R(W0 + "INFO %s [cuda.py:221] Using Flash Attention backend on V1 engine." % d, (3, 5))
    R(W1 + "INFO %s [cuda.py:221] Using Flash Attention backend on V1 engine." % d)
    R(W0 + "INFO %s [utils.py:1055] Found nccl from library libnccl.so.2" % d)
    R(W0 + "INFO %s [pynccl.py:69] vLLM is using nccl==2.21.5" % d)
    R(W1 + "INFO %s [utils.py:1055] Found nccl from library libnccl.so.2" % d)
    R(W1 + "INFO %s [pynccl.py:69] vLLM is using nccl==2.21.5" % d)
    h = vm
    ip = "10.164.0.%d" % J.rng.randrange(5, 200)
    for rank, pid in ((0, wp - 1), (1, wp)):
        pre = "%s:%d:%d [%d] NCCL INFO " % (h, pid, pid, rank)
        R(pre + "Bootstrap : Using eth0:%s<0>" % ip)
        R(pre + "NET/Plugin: No plugin found (libnccl-net.so)")
        R(pre + "NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-net.so")
        R(pre + "NET/Plugin: Using internal network plugin.")
        R(pre + "cudaDriverVersion 12040")
        if rank == 0:
            R("NCCL version 2.21.5+cuda12.4")
    for rank, pid in ((0, wp - 1), (1, wp)):
        tid = pid + 85
        pre = "%s:%d:%d [%d] NCCL INFO " % (h, pid, tid, rank)
        R(pre + "NET/Socket : Using [0]eth0:%s<0>" % ip)
        R(pre + "Using network Socket")
        R(pre + "Setting affinity for GPU %d to ffffff" % rank)
        R(pre + "comm 0x%x rank %d nRanks 2 nNodes 1 localRanks 2 localRank %d MNNVL 0" % (J.rng.randrange(2 ** 40, 2 ** 44), rank, rank))
        if rank == 0:
            R(pre + "Channel 00/24 :    0   1")
            R(pre + "Channel 01/24 :    0   1")
        R(pre + "P2P Chunksize set to 524288")
        R(pre + "Connected all rings")
        R(pre + "Connected all trees")
        R(pre + "ncclCommInitRank comm 0x%x rank %d nranks 2 cudaDev %d nvmlDev %d busId %x0 commId 0x%x - Init COMPLETE" % (
            J.rng.randrange(2 ** 40, 2 ** 44), rank, rank, rank, 4 + rank, J.rng.randrange(2 ** 60, 2 ** 63)))
    R(W0 + "INFO %s [custom_all_reduce_utils.py:244] reading GPU P2P access cache from /root/.cache/vllm/gpu_p2p_access_cache_for_0,1.json" % d, (0.5, 1))
    R(W0 + "INFO %s [gpu_model_runner.py:1329] Starting to load model Qwen/Qwen3-30B-A3B..." % d)
    R(W0 + "INFO %s [weight_utils.py:265] Using model weights format ['*.safetensors']" % d)
    req = "%s-%s-%s-%s-%s" % (J.r36(8), J.r36(4), J.r36(4), J.r36(4), J.r36(12))
    J.adv(40, 70)
    R("'(ReadTimeoutError(\"HTTPSConnectionPool(host='cas-bridge.xethub.hf.co', port=443): Read timed out. (read timeout=10)\"), '(Request ID: %s)')' thrown while requesting GET https://huggingface.co/Qwen/Qwen3-30B-A3B/resolve/ad44e777bcd18fa416d9da3bd8f70d33ebb85d39/model-00007-of-00016.safetensors" % req)
    R("Retrying in 1s [Retry 1/5].")
    J.adv(90, 140)
    d = "{T}"
    R(W0 + "INFO %s [loader.py:458] Loading weights took 36.84 seconds" % d)
    R(W1 + "INFO %s [loader.py:458] Loading weights took 37.02 seconds" % d)
    R(W0 + "INFO %s [gpu_model_runner.py:1347] Model loading took 28.5631 GiB and 171.284119 seconds" % d)
    R(W1 + "INFO %s [gpu_model_runner.py:1347] Model loading took 28.5631 GiB and 171.447302 seconds" % d)
    R(W0 + "INFO %s [kv_cache_utils.py:634] GPU KV cache size: 66,208 tokens" % d, (20, 30))
    R(W0 + "INFO %s [kv_cache_utils.py:637] Maximum concurrency for 16,384 tokens per request: 4.04x" % d)
    R(W0 + "INFO %s [gpu_model_runner.py:1686] Graph capturing finished in 21 secs, took 1.12 GiB" % d, (20, 25))
    R("INFO %s [core.py:159] init engine (profile, create kv cache, warmup model) took 64.58 seconds" % d)
    R("INFO:     Started server process [85]")
    R("INFO:     Waiting for application startup.")
    R("INFO:     Application startup complete.")
    # Beam's model-load lull warning while the server came up
    J.worker(vm, ("Operation ongoing in bundle process_bundle-%d for PTransform{name=RunInference/BeamML_RunInference-ptransform-48, state=process-msecs} "
                  "for at least 300.41 seconds without outputting or completing.\nCurrent Traceback:\n"
                  '  File "/usr/local/lib/python3.12/threading.py", line 1032, in _bootstrap\n    self._bootstrap_inner()\n\n'
                  '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 128, in start_server\n    time.sleep(5)\n') % (
        J.rng.randrange(10 ** 17, 10 ** 18), J.site), sev="WARNING",
        logger=J.site + "/apache_beam/runners/worker/sdk_worker.py:1290", thread="Thread-9", step="RunInference/BeamML_RunInference")
    J.adv(1, 3)
    J.worker(vm, "models: [Model(id='Qwen/Qwen3-30B-A3B', created=%d, object='model', owned_by='vllm', root='Qwen/Qwen3-30B-A3B', parent=None, max_model_len=16384, permission=[{'id': 'modelperm-%s', 'object': 'model_permission', 'created': %d, 'allow_create_engine': False, 'allow_sampling': True, 'allow_logprobs': True, 'allow_search_indices': False, 'allow_view': True, 'allow_fine_tuning': False, 'organization': '*', 'group': None, 'is_blocking': False}])]" % (
        J.t.timestamp(), J.r36(32), J.t.timestamp()), logger=VL % 96, step="RunInference/BeamML_RunInference", thread="Thread-14")
    for i in range(40):
        if i % 5 == 4:
            J.adv(10, 10.2)
            dd = "{T}"
            R("INFO %s [loggers.py:111] Engine 000: Avg prompt throughput: %.1f tokens/s, Avg generation throughput: %.1f tokens/s, Running: %d reqs, Waiting: 0 reqs, GPU KV cache usage: %.1f%%, Prefix cache hit rate: %.1f%%" % (
                dd, J.rng.uniform(900, 1600), J.rng.uniform(250, 420), J.rng.randrange(1, 5), J.rng.uniform(2, 9), J.rng.uniform(30, 60)), (0.01, 0.1))
        else:
            R('INFO:     127.0.0.1:%d - "POST /v1/completions HTTP/1.1" 200 OK' % J.rng.randrange(40000, 60000), (0.3, 3))
    job_success_end(J, ["ReadQueries/Read+BuildPrompt+RunInference/BeamML_RunInference+ParseRewrite+WriteRewrites/Write/WriteImpl/WriteBundles",
                        "WriteRewrites/Write/WriteImpl/FinalizeWrite"])
    truth = truth_base(J, "succeeded", "healthy", "none")
    truth["evidence"] = [
        "- Init COMPLETE",
        "INFO:     Application startup complete.",
        '"POST /v1/completions HTTP/1.1" 200 OK',
        "Worker pool stopped.",
    ]
    truth["red_herrings"] = [
        "NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-net.so",
        "Read timed out. (read timeout=10)",
        "Retrying in 1s [Retry 1/5].",
        "for at least 300.41 seconds without outputting or completing.",
        "Reducing Torch parallelism from 12 threads to 1",
    ]
    truth["sources"] = [
        ("NCCL 2.21.5 INFO lines incl. 'Plugin load returned 2 : libnccl-net.so: cannot open shared object file...' and 'NCCL version 2.21.5+cuda12.4'", "NVIDIA/nccl#1504"),
        ("NCCL 'Init COMPLETE' format string", "NVIDIA/nccl src/init.cc"),
        ("huggingface_hub retry warnings \"'...' thrown while requesting ...\" / 'Retrying in Ns [Retry n/5].'", "huggingface/huggingface_hub src/huggingface_hub/utils/_http.py; Avarok-Cybersecurity/dgx-vllm#16; huggingface/lerobot#2566; unslothai/unsloth#2136 (cas-bridge.xethub.hf.co read timeout)"),
        ("Beam lull warning 'Operation ongoing in bundle %s%s for at least %.2f seconds without outputting or completing.'", "apache/beam sdks/python/apache_beam/runners/worker/sdk_worker.py"),
        ("vLLM KV-cache size / max concurrency lines, 'Reducing Torch parallelism' warning", "LMCache/LMCache#3326; vllm-project/vllm#15255"),
        ("Beam vLLM handler 'models: %s' readiness log", "apache/beam sdks/python/apache_beam/ml/inference/vllm_inference.py"),
    ]
    truth["notes"] = "Healthy run: one transient Hub read timeout was retried and succeeded, NCCL INFO lines are printed because NCCL_DEBUG=INFO. All vLLM/NCCL lines are relayed by Beam at INFO. Envelope synthetic."
    return J, truth


# ==========================================================================
# 12. Model hub unreachable from workers without external IPs / Cloud NAT
# ==========================================================================

HUB_NOCONN = ("OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files "
              "and it looks like BAAI/bge-large-en-v1.5 is not the path to a directory containing a file named config.json.\n"
              "Checkout your internet connection or see how to run the library in offline mode at "
              "'https://huggingface.co/docs/transformers/installation#offline-mode'.")


def job_hub_unreachable():
    J = Job("hf-hub-unreachable-private-ip-l4", project="saffron-kb", region="asia-southeast1", zone="asia-southeast1-b",
            job_name="kb-embeddings-refresh-0822", start=dt.datetime(2025, 8, 22, 3, 30, 14, 200000, tzinfo=UTC),
            machine="g2-standard-4", gpu="nvidia-l4", gpu_count=1, py="3.10", beam="2.59.0",
            image="asia-southeast1-docker.pkg.dev/saffron-kb/beam/embedder:2.59.0",
            experiments=["use_runner_v2", "no_use_multiple_sdk_containers"],
            service_options=["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"],
            options_extra={"max_num_workers": 3, "disk_size_gb": 60, "use_public_ips": False,
                           "subnetwork": "https://www.googleapis.com/compute/v1/projects/saffron-kb/regions/asia-southeast1/subnetworks/dataflow-private",
                           "service_account_email": "dataflow-runner@saffron-kb.iam.gserviceaccount.com"})
    steps = ["ReadArticles/Read", "SplitChunks", "Tokenize", "RunInference/BeamML_RunInference", "ToVectorRows",
             "WriteVectors/Write/WriteImpl/WriteBundles"]
    job_start(J, steps, max_workers=3)
    vm = J.vms[0]
    vm_boot(J, vm)
    J.adv(3, 8)
    workers_started(J)
    J.adv(2, 5)
    sdk_start(J, vm)
    J.adv(1, 3)
    all_workers_ready(J)
    HL = J.site + "/huggingface_hub/utils/_http.py:%d"
    S = J.site
    attempts = []
    for wi in range(4):
        J.adv(2, 5)
        waits = [1, 2, 4, 8, 8]
        for k in range(5):
            J.adv(10, 10.05)
            addr = "0x7f%010x" % J.rng.randrange(16 ** 9, 16 ** 10)
            req = "%s-%s-%s-%s-%s" % (J.r36(8), J.r36(4), J.r36(4), J.r36(4), J.r36(12))
            J.worker(vm, "'(MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /BAAI/bge-large-en-v1.5/resolve/main/config.json (Caused by ConnectTimeoutError(<urllib3.connection.HTTPSConnection object at %s>, 'Connection to huggingface.co timed out. (connect timeout=10)'))\"), '(Request ID: %s)')' thrown while requesting HEAD https://huggingface.co/BAAI/bge-large-en-v1.5/resolve/main/config.json" % (addr, req),
                     sev="WARNING", logger=HL % 320, step="RunInference/BeamML_RunInference", thread="Thread-17")
            J.adv(0.001, 0.01)
            J.worker(vm, "Retrying in %ds [Retry %d/5]." % (waits[k], k + 1), sev="WARNING", logger=HL % 329,
                     step="RunInference/BeamML_RunInference", thread="Thread-17")
            J.adv(waits[k])
        J.adv(10, 10.05)
        inner = [
            '  File "%s/apache_beam/ml/inference/huggingface_inference.py", line 274, in load_model' % S,
            "    model = self._model_class.from_pretrained(",
            '  File "%s/transformers/models/auto/auto_factory.py", line 526, in from_pretrained' % S,
            "    config, kwargs = AutoConfig.from_pretrained(",
            '  File "%s/transformers/models/auto/configuration_auto.py", line 1006, in from_pretrained' % S,
            "    config_dict, unused_kwargs = PretrainedConfig.get_config_dict(pretrained_model_name_or_path, **kwargs)",
            '  File "%s/transformers/configuration_utils.py", line 570, in get_config_dict' % S,
            "    config_dict, kwargs = cls._get_config_dict(pretrained_model_name_or_path, **kwargs)",
            '  File "%s/transformers/configuration_utils.py", line 629, in _get_config_dict' % S,
            "    resolved_config_file = cached_file(",
            '  File "%s/transformers/utils/hub.py", line 446, in cached_file' % S,
            "    raise EnvironmentError(",
        ]
        pre = "\n".join([
            "Traceback (most recent call last):",
            '  File "%s/urllib3/connection.py", line 198, in _new_conn' % S,
            "    sock = connection.create_connection(",
            '  File "%s/urllib3/util/connection.py", line 85, in create_connection' % S,
            "    raise err",
            '  File "%s/urllib3/util/connection.py", line 73, in create_connection' % S,
            "    sock.connect(sa)",
            "TimeoutError: timed out",
            "",
            "The above exception was the direct cause of the following exception:",
            "",
            "Traceback (most recent call last):",
            '  File "%s/urllib3/connection.py", line 205, in _new_conn' % S,
            "    raise ConnectTimeoutError(",
            "urllib3.exceptions.ConnectTimeoutError: (<urllib3.connection.HTTPSConnection object at 0x7f3c1c2b4e20>, 'Connection to huggingface.co timed out. (connect timeout=10)')",
            "",
            "The above exception was the direct cause of the following exception:",
            "",
            "Traceback (most recent call last):",
            '  File "%s/transformers/utils/hub.py", line 402, in cached_file' % S,
            "    resolved_file = hf_hub_download(",
            '  File "%s/huggingface_hub/file_download.py", line 1457, in _raise_on_head_call_error' % S,
            "    raise LocalEntryNotFoundError(",
            "huggingface_hub.errors.LocalEntryNotFoundError: An error happened while trying to locate the file on the Hub and we cannot find the requested files in the local cache. Please check your connection and try again or make sure your Internet connection is on.",
            "",
            "The above exception was the direct cause of the following exception:",
            "",
        ])
        tb = pre + "\n" + beam_setup_traceback(J, inner, HUB_NOCONN, "RunInference/BeamML_RunInference-ptransform-41")
        J.adv(0.05, 0.3)
        bundle_error(J, vm, "process_bundle-%d" % J.rng.randrange(10 ** 17, 10 ** 18), tb)
        J.adv(1, 3)
        worker_error_jm(J, tb)
        attempts.append((vm, "OSError: We couldn't connect to 'https://huggingface.co' to load this file"))
        J.adv(6, 20)
    job_failed_end(J, "S03:ReadArticles/Read+SplitChunks+Tokenize+RunInference/BeamML_RunInference+ToVectorRows+WriteVectors/Write/WriteImpl/WriteBundles", attempts)
    truth = truth_base(J, "failed", "model-hub",
                       "The workers run without external IP addresses (use_public_ips=False on a private subnetwork with no NAT route to the internet), so every connection to huggingface.co timed out and the embedding model could not be downloaded when RunInference loaded it.")
    truth["evidence"] = [
        "'Connection to huggingface.co timed out. (connect timeout=10)'",
        "Retrying in 8s [Retry 5/5].",
        "We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files",
        "'use_public_ips': False",
    ]
    truth["red_herrings"] = []
    truth["sources"] = [
        ("huggingface_hub retry warnings with MaxRetryError/ConnectTimeoutError to huggingface.co, 'Retrying in 8s [Retry 4/5].'", "huggingface/lerobot#2566; Avarok-Cybersecurity/dgx-vllm#16"),
        ("urllib3 ConnectTimeoutError chain ending in transformers OSError", "chengxuxin/expressive-humanoid#8; fishaudio/fish-speech#121; yuruotong1/autoMate#104 (LocalEntryNotFoundError wording)"),
        ("transformers 'We couldn't connect to 'https://huggingface.co' to load this file ... offline-mode' OSError", "CASIA-LMC-Lab/FiLo#10 (2025-03); OptimalScale/LMFlow#532"),
        ("huggingface_hub http_backoff log format strings", "huggingface/huggingface_hub src/huggingface_hub/utils/_http.py"),
    ]
    truth["notes"] = "The private-IP configuration is only visible in the Pipeline_options echo (use_public_ips False, custom subnetwork); no log line says 'no NAT'. huggingface_hub warnings propagate to the root logger, so they appear in the worker log at WARNING. Envelope synthetic."
    return J, truth


# ==========================================================================

JOBS = [job_vllm_kv, job_tgi_warmup, job_trt, job_jax, job_torch_h100, job_gated, job_nccl,
        job_capacity, job_cpu_fallback, job_healthy_tf, job_healthy_vllm, job_hub_unreachable]


def main():
    os.makedirs(OUT, exist_ok=True)
    summary = []
    for fn in JOBS:
        J, truth = fn()
        n = dump(J, truth)
        summary.append((J.key, truth["family"], truth["outcome"], n))
    for key, fam, out, n in summary:
        print("%-40s %-20s %-10s %4d entries" % (key, fam, out, n))


if __name__ == "__main__":
    main()
