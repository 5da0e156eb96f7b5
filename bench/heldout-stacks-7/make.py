#!/usr/bin/env python3
"""Build the heldout-stacks-7 evaluation set (12 Dataflow GPU log exports).

Standard library only and deterministic: every random choice comes from a
random.Random seeded per case. The whole set is built twice in memory and the
two builds are compared byte for byte, then written, re-read and compared
again. Each export must hold 100-250 LogEntry objects and every evidence string
of truth.yaml must occur verbatim in a payload of its own export.

Library/platform log lines are real wording from public sources (see README.md
and each truth.yaml `sources`); envelopes, ids, timestamps, names, user-code log
lines and values are synthetic.
"""
import datetime
import gzip
import hashlib
import io
import json
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
B36 = "abcdefghijklmnopqrstuvwxyz0123456789"
HEX = "0123456789abcdef"


# --------------------------------------------------------------------------
# Envelope builder
# --------------------------------------------------------------------------
class Builder:
    def __init__(self, cfg):
        self.cfg = cfg
        self.rng = random.Random(cfg["seed"])
        self.entries = []
        self.base_ns = int(datetime.datetime(*cfg["start"], tzinfo=datetime.timezone.utc).timestamp()) * 10**9
        self.vm_ids = {}
        self.boot = {}
        self.journal_i = {}
        self.phase = self.rng.random() * 6.28
        self.base_frac = 0.4 + self.rng.random() * 0.5

    # -- helpers ---------------------------------------------------------
    def rid(self, n, alphabet=B36):
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def vm(self, suffix):
        jn = self.cfg["job_name"]
        date = self.cfg["job_id"][5:7] + self.cfg["job_id"][8:10] + self.cfg["job_id"][11:13] + self.cfg["job_id"][14:16]
        name = "%s-%s-%s-harness-%s" % (jn[:26].rstrip("-"), date, self.cfg["vm_tag"], suffix)
        if name not in self.vm_ids:
            self.vm_ids[name] = str(self.rng.randrange(10**18, 9 * 10**18))
            self.boot[name] = self.rid(32, HEX)
            self.journal_i[name] = self.rng.randrange(120, 400)
        return name

    def fmt(self, ns):
        digits = self.cfg["frac"]
        sec, frac = divmod(ns, 10**9)
        s = datetime.datetime.fromtimestamp(sec, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
        if digits == "trim":
            f = ("%09d" % frac).rstrip("0")
            return s + ("." + f if f else "") + "Z"
        if digits == 0:
            return s + "Z"
        return s + "." + ("%09d" % frac)[:digits] + "Z"

    def t(self, secs):
        # strictly increasing warp (derivative >= 0.29) so sub-second parts vary but event order is kept
        warped = secs + 0.37 * math.sin(1.9 * secs + self.phase) + self.base_frac
        return self.base_ns + int(round(warped * 10**9)) + self.rng.randrange(0, 50) * 1000 + self.rng.randrange(0, 999)

    def stamp(self, payload, ns):
        """Fill program-side timestamps ({TF}, {ABSL}, {VLLM}, {ISOZ}, {GIN}) from the entry time minus a small relay lag."""
        def fill(m):
            if "{" not in m:
                return m
            lag = ns - 61 * 10**6
            dt = datetime.datetime.fromtimestamp(lag // 10**9, datetime.timezone.utc)
            us = (lag // 1000) % 10**6
            m = m.replace("{TF}", dt.strftime("%Y-%m-%d %H:%M:%S") + ".%06d" % us)
            m = m.replace("{ABSL}", "%d.%06d" % (lag // 10**9, us))
            m = m.replace("{VLLM}", dt.strftime("%m-%d %H:%M:%S"))
            m = m.replace("{ISOZ}", dt.strftime("%Y-%m-%dT%H:%M:%S") + ".%03dZ" % (us // 1000))
            m = m.replace("{GIN}", dt.strftime("%Y/%m/%d - %H:%M:%S"))
            return m
        if isinstance(payload, str):
            return fill(payload)
        if "message" in payload:
            payload = dict(payload, message=fill(payload["message"]))
        return payload

    def resource(self, step=""):
        c = self.cfg
        return {"type": "dataflow_step",
                "labels": {"job_id": c["job_id"], "job_name": c["job_name"],
                           "project_id": c["resource_project"], "region": c["region"], "step_id": step}}

    def log_name(self, log):
        return "projects/%s/logs/dataflow.googleapis.com%%2F%s" % (self.cfg["project"], log)

    def add(self, secs, log, severity, payload, vm=None, step="", insert_id=None, extra_labels=None):
        ns = self.t(secs)
        c = self.cfg
        e = {}
        labels = {}
        if vm:
            labels["compute.googleapis.com/resource_type"] = "instance"
            labels["compute.googleapis.com/resource_name"] = vm
            labels["compute.googleapis.com/resource_id"] = self.vm_ids[vm]
        if log in ("system", "job-message"):
            labels["dataflow.googleapis.com/log_type"] = "system"
        labels["dataflow.googleapis.com/job_name"] = c["job_name"]
        labels["dataflow.googleapis.com/region"] = c["region"]
        labels["dataflow.googleapis.com/job_id"] = c["job_id"]
        if extra_labels:
            labels.update(extra_labels)
        if insert_id is None:
            if log == "system" and vm:
                self.journal_i[vm] += self.rng.randrange(1, 9)
                insert_id = "s=%s;i=%x;b=%s;m=%x;t=%x;x=%s" % (
                    self.rid(32, HEX), self.journal_i[vm], self.boot[vm],
                    self.rng.randrange(10**6, 10**9), ns // 1000, self.rid(16, HEX))
            elif log == "job-message":
                insert_id = self.rid(self.rng.choice([10, 11, 12]))
            else:
                insert_id = self.rid(self.rng.choice([14, 16]))
        payload = self.stamp(payload, ns)
        # Dataflow crops messages over 30,000 characters in the middle (DataflowWorkerLoggingHandler)
        if isinstance(payload, str) and len(payload) > 30000:
            payload = payload[:14998] + "..." + payload[-14999:]
        elif isinstance(payload, dict) and len(payload.get("message", "")) > 30000:
            m = payload["message"]
            payload = dict(payload, message=m[:14998] + "..." + m[-14999:])
        if isinstance(payload, str):
            e["textPayload"] = payload
        else:
            e["jsonPayload"] = payload
        e["insertId"] = insert_id
        e["resource"] = self.resource(step)
        e["timestamp"] = self.fmt(ns)
        if severity is not None:
            e["severity"] = severity
        e["labels"] = labels
        e["logName"] = self.log_name(log)
        e["receiveTimestamp"] = self.fmt(ns + self.rng.randrange(80, 2600) * 10**6 + self.rng.randrange(0, 10**6))
        self.entries.append((ns, len(self.entries), e))
        return e

    # -- typed adders ----------------------------------------------------
    def jm(self, secs, text, sev="INFO"):
        return self.add(secs, "job-message", sev, text)

    def worker(self, secs, vm, msg, sev="INFO", sdk="sdk-0-0", logger=None, thread=None, step=None, exception=None):
        c = self.cfg
        p = {"job": c["job_id"], "logger": logger or c["sdk_logger"], "message": msg,
             "portability_worker_id": sdk, "thread": thread or ("Thread-%d" % self.rng.randrange(3, 40)),
             "worker": vm}
        if step:
            p["step"] = step
        if exception:
            p["exception"] = exception
        return self.add(secs, "worker", sev, p, vm=vm, step=step or "")

    def docker(self, secs, vm, msg, stderr=True):
        return self.add(secs, "docker", "ERROR" if stderr else "INFO", {"message": msg}, vm=vm)

    def docker_lines(self, secs, vm, text, stderr=True, gap=0.001):
        for i, line in enumerate(text.split("\n")):
            self.docker(secs + i * gap, vm, line, stderr)

    def kubelet(self, secs, vm, msg, sev="INFO"):
        return self.add(secs, "kubelet", sev, {"message": msg}, vm=vm)

    def system(self, secs, vm, msg, sev="INFO"):
        return self.add(secs, "system", sev, {"message": msg}, vm=vm)

    def startup(self, secs, vm, msg, sev="INFO"):
        return self.add(secs, "worker-startup", sev, {"message": msg}, vm=vm)

    def sorted_entries(self, newest_first):
        es = sorted(self.entries, key=lambda x: (x[0], x[1]), reverse=newest_first)
        return [e for _, _, e in es]


# --------------------------------------------------------------------------
# Shared real wording (see README "Sources")
# --------------------------------------------------------------------------
def klog(b, letter, secs, src, msg):
    ns = b.t(secs)
    dt = datetime.datetime.fromtimestamp(ns // 10**9, datetime.timezone.utc)
    return "%s%s %s.%06d    %d %s] %s" % (letter, dt.strftime("%m%d"), dt.strftime("%H:%M:%S"),
                                           (ns // 1000) % 10**6, 1400 + b.rng.randrange(0, 400), src, msg)


def vm_boot(b, vm, secs):
    """Benign host/kubelet chatter listed by the Dataflow common-errors page."""
    b.system(secs, vm, "ima: No architecture policies found")
    b.system(secs + 0.2, vm, "ima: Can not allocate sha384 (reason: -2)")
    b.kubelet(secs + 6.1, vm, klog(b, "E", secs + 6.1, "plugins.go:616",
              '"Error initializing dynamic plugin prober" err="error (re-)creating driver directory: mkdir /usr/libexec/kubernetes: read-only file system"'), "ERROR")
    b.kubelet(secs + 6.4, vm, klog(b, "E", secs + 6.4, "kubelet.go:2355",
              '"Skipping pod synchronization" err="container runtime status check may not have completed yet"'), "ERROR")
    b.kubelet(secs + 7.9, vm, klog(b, "E", secs + 7.9, "kubelet.go:2355",
              '"Skipping pod synchronization" err="[container runtime is down, PLEG is not healthy: pleg has yet to be successful]"'), "ERROR")
    b.system(secs + 11.3, vm, "Error running LookupEffectiveGuestPolicies", "ERROR")


def harness_start(b, vm, secs, sdk, options):
    c = b.cfg
    lg = c["site"] + "/apache_beam/runners/worker/"
    b.worker(secs, vm, "Logging handler created.", sdk=sdk, logger=lg + "sdk_worker_main.py:108", thread="MainThread")
    b.worker(secs + 0.01, vm, "semi_persistent_directory: /var/opt/google", sdk=sdk, logger=lg + "sdk_worker_main.py:109", thread="MainThread")
    b.worker(secs + 0.03, vm, "Status HTTP server running at localhost:%d" % b.rng.randrange(33000, 45000), sdk=sdk, logger=lg + "sdk_worker_main.py:126", thread="MainThread")
    if options.get("discard"):
        b.worker(secs + 0.05, vm, "Discarding unparseable args: %s" % options["discard"], "WARNING", sdk=sdk,
                 logger=c["site"] + "/apache_beam/options/pipeline_options.py:412", thread="MainThread")
    b.worker(secs + 0.06, vm, "Python sdk harness started with pipeline_options: %s" % options["text"], sdk=sdk,
             logger=lg + "sdk_worker_main.py:136", thread="MainThread")
    b.worker(secs + 0.07, vm, "Creating state cache with size 0", sdk=sdk, logger=lg + "statecache.py:234", thread="MainThread")
    b.worker(secs + 0.08, vm, "Creating insecure control channel for localhost:12371.", sdk=sdk, logger=lg + "sdk_worker.py:188", thread="MainThread")
    b.worker(secs + 0.09, vm, "Control channel established.", sdk=sdk, logger=lg + "sdk_worker.py:196", thread="MainThread")
    b.worker(secs + 0.10, vm, "Initializing SDKHarness with unbounded number of workers.", sdk=sdk, logger=lg + "sdk_worker.py:241", thread="MainThread")
    b.worker(secs + 0.30, vm, "Creating insecure state channel for localhost:12371.", sdk=sdk, logger=lg + "sdk_worker.py:934", thread="Thread-12")
    b.worker(secs + 0.31, vm, "State channel established.", sdk=sdk, logger=lg + "sdk_worker.py:941", thread="Thread-12")
    b.worker(secs + 0.33, vm, "Creating client data channel for localhost:12371", sdk=sdk, logger=lg + "data_plane.py:817", thread="Thread-12")


def jm_start(b, secs, machine, zone, nworkers, streaming=False, maxw=100, first_op=""):
    c = b.cfg
    b.jm(secs, "Worker configuration: %s in %s." % (machine, zone))
    b.jm(secs + 0.5, "Expanding SplittableParDo operations into optimizable parts.")
    b.jm(secs + 0.6, "Fusing adjacent ParDo, Read, Write, and Flatten operations")
    b.jm(secs + 0.9, "Workflow config is missing a default resource spec.", "DEBUG")
    b.jm(secs + 1.2, "Starting worker pool setup.", "DEBUG")
    if streaming:
        b.jm(secs + 1.3, "Autoscaling is enabled for Dataflow Streaming Engine. Workers will scale between 1 and %d unless maxNumWorkers is specified." % maxw, "WARNING")
    else:
        b.jm(secs + 1.3, "Autoscaling is enabled for job %s. The number of workers will be between 1 and %d." % (c["job_id"], maxw))
    b.jm(secs + 2.1, "Starting %d workers in %s..." % (nworkers, zone))
    if first_op:
        b.jm(secs + 2.4, "Executing operation %s" % first_op)
    b.jm(secs + 5.0, "Autoscaling: Raised the number of workers to %d based on the rate of progress in the currently running stage(s)." % nworkers)


def jm_workers_up(b, secs):
    b.jm(secs, "Workers have started successfully.")
    b.jm(secs + 0.4, "The Dataflow RunnerV2 container image of this job's workers will be ready for update in 7 days.")


def jm_teardown(b, secs, nfrom):
    b.jm(secs, "Cleaning up.")
    b.jm(secs + 0.3, "Starting worker pool teardown.", "DEBUG")
    b.jm(secs + 0.4, "Stopping worker pool...")
    b.jm(secs + 95.0, "Autoscaling: Resized worker pool from %d to 0." % nfrom)
    b.jm(secs + 95.2, "Autoscaling: Would further reduce the number of workers but reached the minimum number allowed for the job.")
    b.jm(secs + 96.0, "Worker pool stopped.")
    b.jm(secs + 96.4, "Tearing down pending resources...", "DEBUG")


def jm_fail4(b, secs, step, workers, root):
    lines = ("Workflow failed. Causes: %s failed., The job failed because a work item has failed 4 times. "
             "Look in previous log entries for the cause of each one of the 4 failures. If the logs only contain "
             "generic timeout errors related to accessing external resources, such as MongoDB, verify that the worker "
             "service account has permission to access the resource's subnetwork. For more information, see "
             "https://cloud.google.com/dataflow/docs/guides/common-errors. The work item was attempted on these workers: \n\n" % step)
    parts = []
    for w in workers:
        parts.append("      Root cause: %s\n      Worker ID: %s," % (root, w))
    b.jm(secs, lines + "\n".join(parts), "ERROR")


def setup_tb(py, site, inner, final, step_name):
    """Beam Python SDK traceback for an exception raised in DoFn.setup (Runner v2)."""
    head = ("Traceback (most recent call last):\n"
            '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method\n'
            '  File "apache_beam/runners/common.py", line 602, in apache_beam.runners.common.DoFnInvoker.invoke_setup\n')
    mid = ("\nDuring handling of the above exception, another exception occurred:\n\n"
           "Traceback (most recent call last):\n"
           '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 313, in _execute\n'
           "    response = task()\n"
           "               ^^^^^^\n"
           '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 388, in <lambda>\n'
           "    lambda: self.create_worker().do_instruction(request), request)\n"
           "            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
           '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 658, in do_instruction\n'
           "    return getattr(self, request_type)(\n"
           "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
           '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 689, in process_bundle\n'
           "    bundle_processor = self.bundle_processor_cache.get(\n"
           "                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
           '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 512, in get\n'
           "    processor = bundle_processor.BundleProcessor(\n"
           "                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
           '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1137, in __init__\n'
           "    op.setup(self.data_sampler)\n"
           '  File "apache_beam/runners/worker/operations.py", line 873, in apache_beam.runners.worker.operations.DoOperation.setup\n'
           '  File "apache_beam/runners/worker/operations.py", line 923, in apache_beam.runners.worker.operations.DoOperation.setup\n'
           '  File "apache_beam/runners/common.py", line 1608, in apache_beam.runners.common.DoFnRunner.setup\n'
           '  File "apache_beam/runners/common.py", line 1604, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method\n'
           '  File "apache_beam/runners/common.py", line 1601, in apache_beam.runners.common.DoFnRunner._reraise_augmented\n'
           "%s [while running '%s']" % (site, site, site, site, site, site, final, step_name))
    if py == "3.10":
        mid = mid.replace("               ^^^^^^\n", "").replace("            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n", "") \
                 .replace("           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n", "").replace("                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n", "") \
                 .replace("                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n", "")
    return head + inner + mid


def process_tb(site, inner, final, step_name):
    """Beam Python SDK traceback for an exception raised while processing a bundle."""
    return ("Traceback (most recent call last):\n"
            '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process\n'
            '  File "apache_beam/runners/common.py", line 685, in apache_beam.runners.common.SimpleInvoker.invoke_process\n'
            + inner +
            "\nDuring handling of the above exception, another exception occurred:\n\n"
            "Traceback (most recent call last):\n"
            '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 313, in _execute\n'
            "    response = task()\n"
            '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 388, in <lambda>\n'
            "    lambda: self.create_worker().do_instruction(request), request)\n"
            '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 658, in do_instruction\n'
            "    return getattr(self, request_type)(\n"
            '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 696, in process_bundle\n'
            "    bundle_processor.process_bundle(instruction_id))\n"
            '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1274, in process_bundle\n'
            "    input_op_by_transform_id[element.transform_id].process_encoded(\n"
            '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 237, in process_encoded\n'
            "    self.output(decoded_value)\n"
            '  File "apache_beam/runners/worker/operations.py", line 567, in apache_beam.runners.worker.operations.Operation.output\n'
            '  File "apache_beam/runners/worker/operations.py", line 569, in apache_beam.runners.worker.operations.Operation.output\n'
            '  File "apache_beam/runners/worker/operations.py", line 260, in apache_beam.runners.worker.operations.SingletonElementConsumerSet.receive\n'
            '  File "apache_beam/runners/worker/operations.py", line 950, in apache_beam.runners.worker.operations.DoOperation.process\n'
            '  File "apache_beam/runners/worker/operations.py", line 951, in apache_beam.runners.worker.operations.DoOperation.process\n'
            '  File "apache_beam/runners/common.py", line 1500, in apache_beam.runners.common.DoFnRunner.process\n'
            '  File "apache_beam/runners/common.py", line 1581, in apache_beam.runners.common.DoFnRunner._reraise_augmented\n'
            '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process\n'
            '  File "apache_beam/runners/common.py", line 685, in apache_beam.runners.common.SimpleInvoker.invoke_process\n'
            "%s [while running '%s']" % (site, site, site, site, site, site, final, step_name))


def fail_attempt(b, secs, vm, sdk, tb, bundle, stderr_copy=True, logger_line=None):
    """One failed work item: stderr copy (docker, line per entry), harness ERROR, job-message."""
    c = b.cfg
    if stderr_copy:
        b.docker_lines(secs, vm, tb)
    b.worker(secs + 0.02, vm, "Error processing instruction %s. Original traceback is\n%s\n" % (bundle, tb), "ERROR",
             sdk=sdk, logger=logger_line or (c["site"] + "/apache_beam/runners/worker/sdk_worker.py:318"))
    b.jm(secs + 2.5, "Error message from worker: generic::unknown: " + tb, "ERROR")


def opts_text(d):
    parts = []
    for k, v in d.items():
        parts.append("'%s': %s" % (k, repr(v)))
    return "{" + ", ".join(parts) + "}"


def base_opts(b, extra):
    c = b.cfg
    o = {"runner": "DataflowRunner", "streaming": c.get("streaming", False), "project": c["project"],
         "job_name": c["job_name"], "staging_location": "gs://%s-dataflow/staging" % c["project"],
         "temp_location": "gs://%s-dataflow/tmp" % c["project"], "region": c["region"]}
    o.update(extra)
    return o


# --------------------------------------------------------------------------
# hs7-01  HF Hub 429 rate limiting, 40 workers x 8 SDK processes behind one NAT IP
# --------------------------------------------------------------------------
def case01():
    cfg = dict(case="hs7-01", seed=701, start=(2026, 3, 2, 6, 41, 8), project="orbit-catalog-ml",
               resource_project="318204557719", region="us-east4", job_id="2026-03-01_22_41_05-7318841902265513409",
               job_name="catalog-embed-backfill-20260302", vm_tag="x3fq", frac=9,
               site="/usr/local/lib/python3.11/site-packages")
    cfg["sdk_logger"] = cfg["site"] + "/apache_beam/ml/inference/base.py:1410"
    b = Builder(cfg)
    site = cfg["site"]
    model = "BAAI/bge-large-en-v1.5"
    step = "EmbedProducts/RunInference/BeamML_RunInference"
    opts = base_opts(b, {"machine_type": "g2-standard-8", "max_num_workers": 40, "disk_size_gb": 100,
                         "sdk_container_image": "us-east4-docker.pkg.dev/orbit-catalog-ml/beam/embedder:2.66.0-py311-cu124",
                         "experiments": ["use_runner_v2", "use_unified_worker", "beam_fn_api", "use_multiple_sdk_containers", "no_use_public_ips"],
                         "dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver:5xx"],
                         "subnetwork": "regions/us-east4/subnetworks/dataflow-private", "use_public_ips": False,
                         "save_main_session": False, "sdk_location": "container"})
    jm_start(b, 0, "g2-standard-8", "us-east4-c", 1, maxw=40, first_op="ReadProducts/Read+EmbedProducts/Tokenize+EmbedProducts/RunInference/BeamML_RunInference+WriteVectors/Write")
    w0 = b.vm("q7m2")
    vm_boot(b, w0, 52)
    jm_workers_up(b, 118)
    harness_start(b, w0, 131, "sdk-0-0", {"text": opts_text(opts)})
    for k in range(1, 8):
        b.worker(131.4 + k * 0.07, w0, "Python sdk harness started with pipeline_options: %s" % opts_text(opts), sdk="sdk-0-%d" % k,
                 logger=site + "/apache_beam/runners/worker/sdk_worker_main.py:136", thread="MainThread")
    # first worker loads fine (cache warm after first HEADs)
    b.worker(140, w0, "Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed. Falling back to regular HTTP download. For better performance, install the package with: `pip install huggingface_hub[hf_xet]` or `pip install hf_xet`",
             "WARNING", logger=site + "/huggingface_hub/file_download.py:1688")
    b.worker(171, w0, "Embedder ready on cuda:0 (NVIDIA L4)", sdk="sdk-0-0", logger="/app/embed/handlers.py:52")
    b.jm(190, "Autoscaling: Raised the number of workers to 40 based on the rate of progress in the currently running stage(s).")
    b.jm(191, "Starting 39 workers in us-east4-c...")
    ws = [b.vm(s) for s in ["c5nd", "h2wk", "p0zr", "t8ae", "v3ly", "b9xq", "k4ug"]]
    for i, w in enumerate(ws[:4]):
        vm_boot(b, w, 230 + i * 3.3)
    jm_workers_up(b, 301)
    # retry storm
    t = 318.0
    urls = ["https://huggingface.co/%s/resolve/main/config.json" % model,
            "https://huggingface.co/%s/resolve/main/tokenizer_config.json" % model,
            "https://huggingface.co/%s/resolve/main/model.safetensors" % model]
    hub_log = site + "/huggingface_hub/utils/_http.py:"
    for i, w in enumerate(ws):
        sdk = "sdk-0-%d" % (i % 8)
        if i < 4:
            harness_start(b, w, t - 10 + i, sdk, {"text": opts_text(opts)})
        for r, d in enumerate([1, 2, 4, 8, 8]):
            url = urls[(i + r) % 2]
            b.worker(t + i * 1.7 + r * 1.1, w, "HTTP Error 429 thrown while requesting HEAD %s" % url, "WARNING", sdk=sdk, logger=hub_log + "304")
            b.worker(t + i * 1.7 + r * 1.1 + 0.001, w, "Retrying in %ds [Retry %d/5]." % (d, r + 1), "WARNING", sdk=sdk, logger=hub_log + "317")
        t += 0.3
    # distractor: a worker that eventually got through
    b.worker(402, ws[2], "Embedder ready on cuda:0 (NVIDIA L4)", sdk="sdk-0-2", logger="/app/embed/handlers.py:52")
    final = ("OSError: There was a specific connection error when trying to load %s:\n"
             "429 Client Error: Too Many Requests for url: https://huggingface.co/%s/resolve/main/config.json" % (model, model))
    inner = ('  File "%s/apache_beam/ml/inference/base.py", line 1417, in setup\n'
             "    self._model = self._load_model()\n"
             '  File "%s/apache_beam/ml/inference/base.py", line 1383, in _load_model\n'
             "    model = self._shared_model_handle.acquire(load, tag=self._cur_tag)\n"
             '  File "%s/apache_beam/utils/shared.py", line 139, in acquire\n'
             "    result = constructor_fn()\n"
             '  File "%s/apache_beam/ml/inference/base.py", line 1356, in load\n'
             "    model = self._model_handler.load_model()\n"
             '  File "%s/apache_beam/ml/inference/huggingface_inference.py", line 363, in load_model\n'
             "    model = self._model_class.from_pretrained(\n"
             '  File "%s/transformers/modeling_utils.py", line 3819, in from_pretrained\n'
             "    resolved_config_file = cached_file(\n"
             '  File "%s/transformers/utils/hub.py", line 466, in cached_file\n'
             "    raise EnvironmentError(\n"
             "requests.exceptions.HTTPError: 429 Client Error: Too Many Requests for url: https://huggingface.co/%s/resolve/main/config.json\n"
             % (site, site, site, site, site, site, site, model))
    tb = setup_tb("3.11", site, inner, final, step)
    fw = [ws[0], ws[3], ws[5], ws[6]]
    for n, w in enumerate(fw):
        fail_attempt(b, 372 + n * 24.5, w, "sdk-0-%d" % (n + 1), tb, "process_bundle-%d-%d" % (7318841902265513409 % 10**9, 40 + n),
                     stderr_copy=(n == 1))
    jm_fail4(b, 478, "S02:ReadProducts/Read+EmbedProducts/Tokenize+EmbedProducts/RunInference/BeamML_RunInference+WriteVectors/Write",
             fw, final.replace("\n", " "))
    jm_teardown(b, 479, 40)
    truth = dict(
        outcome="failed",
        family="Hugging Face Hub rate limiting (HTTP 429) of anonymous model downloads from many workers",
        root_cause=("Every SDK process loads BAAI/bge-large-en-v1.5 from the Hugging Face Hub in DoFn.setup with no HF token. "
                    "The workers have no public IPs and leave through one Cloud NAT address, and autoscaling raised the job from 1 to 40 "
                    "g2-standard-8 workers, each running 8 SDK processes (320 processes), so the Hub answered the burst of anonymous "
                    "HEAD requests with 429 Too Many Requests. huggingface_hub retried 5 times, then transformers raised "
                    "'OSError: There was a specific connection error when trying to load ...: 429 Client Error: Too Many Requests', "
                    "the same work item failed on 4 workers and the batch job failed. Fix: pass a token, stage the model in GCS or bake it "
                    "into the image, and/or load it once per worker."),
        setup="Batch, Beam 2.66.0, Python 3.11, Runner v2, us-east4, g2-standard-8 (1x NVIDIA L4), up to 40 workers, private IPs behind Cloud NAT, HuggingFaceModelHandlerKeyedTensor.",
        evidence=["HTTP Error 429 thrown while requesting HEAD https://huggingface.co/BAAI/bge-large-en-v1.5/resolve/main/config.json",
                  "Retrying in 8s [Retry 5/5].",
                  "OSError: There was a specific connection error when trying to load BAAI/bge-large-en-v1.5:",
                  "429 Client Error: Too Many Requests for url: https://huggingface.co/BAAI/bge-large-en-v1.5/resolve/main/config.json",
                  "Autoscaling: Raised the number of workers to 40 based on the rate of progress in the currently running stage(s)."],
        red_herrings=["'specific connection error' sounds like a network/egress problem (no_use_public_ips is set) but NAT works: the first worker downloaded the model and one later worker got through.",
                      "The 'Xet Storage is enabled ... hf_xet package is not installed' WARNING is only a slower-download advisory.",
                      "kubelet 'Error initializing dynamic plugin prober' / PLEG and 'Error running LookupEffectiveGuestPolicies' ERROR lines are benign host chatter."],
        sources=["huggingface_hub retry wording 'HTTP Error 429 thrown while requesting HEAD ...' / 'Retrying in 1s [Retry 1/5].' (WARNING:huggingface_hub.utils._http) quoted in public logs found with find_string; huggingface/huggingface_hub#3312 (2025, 429 in production from many workers)",
                 "transformers OSError wrapper 'There was a specific connection error when trying to load ...: 429 Client Error: Too Many Requests for url' - huggingface/transformers#21129; huggingface/transformers#34841",
                 "hf_xet advisory - axolotl-ai-cloud/axolotl#2481, open-webui/open-webui#12686",
                 "Beam harness/setup traceback frames - apache/beam#22402, apache/beam PR #34675; job-message and kubelet/system wording - reference file sections 2f/2i and Dataflow common-errors"],
        synthetic=["all ids, names, project, timestamps, VM names, insertIds, bundle ids, frame line numbers",
                   "the exact interleaving of retries across SDK processes", "the user line 'Embedder ready on cuda:0 (NVIDIA L4)'"])
    return b, truth, "gcloud"


# --------------------------------------------------------------------------
# hs7-02  PEFT LoRA adapter trained on Qwen2.5-7B loaded onto Llama-3.1-8B
# --------------------------------------------------------------------------
def case02():
    cfg = dict(case="hs7-02", seed=702, start=(2025, 11, 18, 14, 3, 27), project="meridian-claims-ai",
               resource_project="meridian-claims-ai", region="us-central1", job_id="2025-11-18_06_03_22-1520938471106622731",
               job_name="claims-summarizer-lora-eval", vm_tag="a7c1", frac=6,
               site="/usr/local/lib/python3.10/dist-packages")
    cfg["sdk_logger"] = "/workspace/claims_pipeline/summarize.py:88"
    b = Builder(cfg)
    site = cfg["site"]
    step = "Summarize/ParDo(LoraSummarizeFn)"
    opts = base_opts(b, {"machine_type": "a2-highgpu-1g", "max_num_workers": 4, "disk_size_gb": 200,
                         "sdk_container_image": "us-central1-docker.pkg.dev/meridian-claims-ai/images/lora-summarizer:2025-11-17",
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "dataflow_service_options": ["worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver"],
                         "number_of_worker_harness_threads": 1, "sdk_location": "container",
                         "base_model": "meta-llama/Llama-3.1-8B-Instruct",
                         "adapter_uri": "gs://meridian-ml-artifacts/adapters/claims-sum-r16-v4/"})
    jm_start(b, 0, "a2-highgpu-1g", "us-central1-a", 1, maxw=4,
             first_op="ReadClaims/Read+Summarize/ParDo(LoraSummarizeFn)+WriteSummaries/WriteToBigQuery")
    w = b.vm("rk4t")
    vm_boot(b, w, 61)
    jm_workers_up(b, 134)
    harness_start(b, w, 171, "sdk-0-0", {"text": opts_text(opts), "discard": "['--dataflow_service_options=worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver', '--base_model=meta-llama/Llama-3.1-8B-Instruct']"})
    ul = "/workspace/claims_pipeline/summarize.py:"
    shapes_ok = True
    mism = []
    # shapes: checkpoint from Qwen2.5-7B (hidden 3584, inter 18944), model Llama-3.1-8B (4096, 14336)
    for layer in range(0, 28):
        mism.append("\tsize mismatch for base_model.model.model.layers.%d.self_attn.q_proj.lora_A.default.weight: copying a param with shape torch.Size([16, 3584]) from checkpoint, the shape in current model is torch.Size([16, 4096])." % layer)
        mism.append("\tsize mismatch for base_model.model.model.layers.%d.self_attn.q_proj.lora_B.default.weight: copying a param with shape torch.Size([3584, 16]) from checkpoint, the shape in current model is torch.Size([4096, 16])." % layer)
        mism.append("\tsize mismatch for base_model.model.model.layers.%d.self_attn.k_proj.lora_A.default.weight: copying a param with shape torch.Size([16, 3584]) from checkpoint, the shape in current model is torch.Size([16, 4096])." % layer)
        mism.append("\tsize mismatch for base_model.model.model.layers.%d.mlp.up_proj.lora_B.default.weight: copying a param with shape torch.Size([18944, 16]) from checkpoint, the shape in current model is torch.Size([14336, 16])." % layer)
        mism.append("\tsize mismatch for base_model.model.model.layers.%d.mlp.down_proj.lora_A.default.weight: copying a param with shape torch.Size([16, 18944]) from checkpoint, the shape in current model is torch.Size([16, 14336])." % layer)
        mism.append("\tsize mismatch for base_model.model.model.layers.%d.self_attn.o_proj.lora_A.default.weight: copying a param with shape torch.Size([16, 3584]) from checkpoint, the shape in current model is torch.Size([16, 4096])." % layer)
        mism.append("\tsize mismatch for base_model.model.model.layers.%d.mlp.gate_proj.lora_B.default.weight: copying a param with shape torch.Size([18944, 16]) from checkpoint, the shape in current model is torch.Size([14336, 16])." % layer)
    full_err = "RuntimeError: Error(s) in loading state_dict for PeftModelForCausalLM:\n" + "\n".join(mism)
    # Dataflow crops messages longer than 30000 chars in the middle
    inner = ('  File "/workspace/claims_pipeline/summarize.py", line 97, in setup\n'
             "    self._model = PeftModel.from_pretrained(base, local_adapter, is_trainable=False)\n"
             '  File "%s/peft/peft_model.py", line 541, in from_pretrained\n'
             "    model.load_adapter(\n"
             '  File "%s/peft/peft_model.py", line 1255, in load_adapter\n'
             "    load_result = set_peft_model_state_dict(\n"
             '  File "%s/peft/utils/save_and_load.py", line 464, in set_peft_model_state_dict\n'
             "    load_result = model.load_state_dict(peft_model_state_dict, strict=False)\n"
             '  File "%s/torch/nn/modules/module.py", line 2584, in load_state_dict\n'
             "    raise RuntimeError(\n" % (site, site, site, site))
    tb_full = setup_tb("3.10", site, inner, full_err, step)
    tb_msg = tb_full
    b.worker(180, w, "Downloading adapter gs://meridian-ml-artifacts/adapters/claims-sum-r16-v4/ to /tmp/adapter", logger=ul + "71")
    b.worker(181.2, w, "adapter_config.json: {'base_model_name_or_path': 'Qwen/Qwen2.5-7B-Instruct', 'peft_type': 'LORA', 'r': 16, 'lora_alpha': 32, 'target_modules': ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'up_proj', 'down_proj', 'gate_proj'], 'task_type': 'CAUSAL_LM'}",
             "DEBUG", logger=ul + "74")
    b.worker(181.5, w, "Loading base model meta-llama/Llama-3.1-8B-Instruct (torch_dtype=bfloat16) on cuda:0", logger=ul + "90")
    b.docker(183, w, "Loading checkpoint shards:   0%|          | 0/4 [00:00<?, ?it/s]")
    b.docker(214, w, "Loading checkpoint shards: 100%|██████████| 4/4 [00:31<00:00,  7.78s/it]")
    b.worker(215, w, "Base model loaded: LlamaForCausalLM, 8030261248 params, device cuda:0", logger=ul + "93")
    bundles = ["process_bundle-1815303386476917-%d" % i for i in (11, 12, 13, 14)]
    t = 216.0
    for n in range(4):
        if n > 0:
            harness_start(b, w, t - 14, "sdk-0-0", {"text": opts_text(opts)})
            b.worker(t - 9, w, "Loading base model meta-llama/Llama-3.1-8B-Instruct (torch_dtype=bfloat16) on cuda:0", logger=ul + "90")
            b.docker(t - 2, w, "Loading checkpoint shards: 100%|██████████| 4/4 [00:06<00:00,  1.52s/it]")
        # stderr copy only for the first attempt, full text split by line
        if n == 0:
            b.docker_lines(t, w, tb_full.split("\nDuring handling")[0][:9000])
        b.worker(t + 0.02, w, "Error processing instruction %s. Original traceback is\n%s\n" % (bundles[n], tb_msg), "ERROR",
                 logger=site + "/apache_beam/runners/worker/sdk_worker.py:318")
        b.jm(t + 2.4, "Error message from worker: generic::unknown: " + tb_msg, "ERROR")
        t += 63.0
    jm_fail4(b, t, "S01:ReadClaims/Read+Summarize/ParDo(LoraSummarizeFn)+WriteSummaries/WriteToBigQuery", [w] * 4,
             "RuntimeError: Error(s) in loading state_dict for PeftModelForCausalLM:")
    jm_teardown(b, t + 1, 1)
    truth = dict(
        outcome="failed",
        family="PEFT/LoRA adapter does not match the base model architecture",
        root_cause=("The LoRA adapter in gs://meridian-ml-artifacts/adapters/claims-sum-r16-v4/ was trained on Qwen/Qwen2.5-7B-Instruct "
                    "(hidden size 3584, MLP 18944; see base_model_name_or_path in the DEBUG adapter_config line) but the job loads it onto "
                    "meta-llama/Llama-3.1-8B-Instruct (4096 / 14336). PeftModel.from_pretrained -> set_peft_model_state_dict fails with "
                    "'Error(s) in loading state_dict for PeftModelForCausalLM: size mismatch for ... lora_A.default.weight: copying a param "
                    "with shape torch.Size([16, 3584]) from checkpoint, the shape in current model is torch.Size([16, 4096])' in DoFn.setup "
                    "on every attempt. Fix: load the adapter on the base model it was trained on (or retrain it for Llama-3.1-8B)."),
        setup="Batch, Beam 2.63.0, Python 3.10, a2-highgpu-1g (1x A100 40GB), us-central1, custom DoFn with transformers + peft, one SDK process.",
        evidence=["RuntimeError: Error(s) in loading state_dict for PeftModelForCausalLM:",
                  "size mismatch for base_model.model.model.layers.0.self_attn.q_proj.lora_A.default.weight: copying a param with shape torch.Size([16, 3584]) from checkpoint, the shape in current model is torch.Size([16, 4096]).",
                  "'base_model_name_or_path': 'Qwen/Qwen2.5-7B-Instruct'",
                  "Loading base model meta-llama/Llama-3.1-8B-Instruct (torch_dtype=bfloat16) on cuda:0"],
        red_herrings=["The job-message copies of the traceback are middle-cropped ('...') because the size-mismatch list exceeds 30,000 characters; the head and tail still name the error.",
                      "Base-model checkpoint shards load fine on the A100, so GPU/driver/memory are not involved.",
                      "'Discarding unparseable args' WARNING and kubelet/system ERROR lines are routine."],
        sources=["peft size-mismatch wording and from_pretrained -> load_adapter -> set_peft_model_state_dict frames - huggingface/peft#1443, huggingface/peft#1710, huggingface/peft#554",
                 "Qwen2.5-7B vs Llama/Mistral shapes ([18944, 16] vs [14336, 16], 3584 vs 4096) - huggingface/autotrain-advanced#487",
                 "Dataflow 30,000-character middle crop - reference file section 1.5 (DataflowWorkerLoggingHandler MESSAGE_MAX_LENGTH)",
                 "Beam harness frames - apache/beam PR #34675; job-message wording - apache/beam#30482, apache/beam#21708"],
        synthetic=["ids, names, paths, bucket names, timings, user log lines (summarize.py)", "frame line numbers", "the exact set of mismatching keys listed"])
    return b, truth, "sink_ndjson"


# --------------------------------------------------------------------------
# hs7-03  DDP 'module.' prefixed state_dict into Beam PytorchModelHandlerTensor
# --------------------------------------------------------------------------
def case03():
    cfg = dict(case="hs7-03", seed=703, start=(2025, 6, 9, 9, 12, 40), project="halden-vision",
               resource_project="halden-vision", region="europe-west4", job_id="2025-06-09_02_12_37-4471029385577190218",
               job_name="shelf-audit-classify-nightly", vm_tag="m2vd", frac=3,
               site="/usr/local/lib/python3.11/site-packages")
    cfg["sdk_logger"] = cfg["site"] + "/apache_beam/ml/inference/pytorch_inference.py:90"
    b = Builder(cfg)
    site = cfg["site"]
    step = "Classify/RunInference/BeamML_RunInference"
    opts = base_opts(b, {"machine_type": "n1-standard-8", "max_num_workers": 6, "disk_size_gb": 60,
                         "sdk_container_image": "europe-west4-docker.pkg.dev/halden-vision/beam/torch-infer:2.61.0",
                         "experiments": ["use_runner_v2"],
                         "dataflow_service_options": ["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"],
                         "sdk_location": "container"})
    jm_start(b, 0, "n1-standard-8", "europe-west4-a", 2, maxw=6,
             first_op="ReadImages/MatchAll+ReadImages/ReadMatches+Preprocess+Classify/RunInference/BeamML_RunInference+WriteLabels")
    w1, w2 = b.vm("0jfk"), b.vm("9wpe")
    vm_boot(b, w1, 48)
    vm_boot(b, w2, 50.5)
    jm_workers_up(b, 127)
    harness_start(b, w1, 150, "sdk-0-0", {"text": opts_text(opts)})
    harness_start(b, w2, 152, "sdk-0-0", {"text": opts_text(opts)})
    b.worker(160, w1, "torch 2.5.1+cu124, cuda available=True, device=cuda:0 (Tesla T4)", logger="/opt/app/shelf_audit/pipeline.py:49")
    b.worker(160.5, w2, "torch 2.5.1+cu124, cuda available=True, device=cuda:0 (Tesla T4)", logger="/opt/app/shelf_audit/pipeline.py:49")
    b.docker(158, w1, "+-----------------------------------------------------------------------------------------+", False)
    b.docker(158.001, w1, "| NVIDIA-SMI 550.90.07              Driver Version: 550.90.07      CUDA Version: 12.4     |", False)
    b.docker(158.002, w1, "|   0  Tesla T4                       Off |   00000000:00:04.0 Off |                    0 |", False)
    keys_model = ['"conv1.weight"', '"bn1.weight"', '"bn1.bias"', '"bn1.running_mean"', '"bn1.running_var"', '"layer1.0.conv1.weight"',
                  '"layer1.0.bn1.weight"', '"layer1.0.bn1.bias"', '"layer1.0.bn1.running_mean"', '"layer1.0.bn1.running_var"',
                  '"layer1.0.conv2.weight"', '"layer1.0.bn2.weight"', '"layer1.0.bn2.bias"', '"layer1.0.bn2.running_mean"',
                  '"layer1.0.bn2.running_var"', '"layer1.0.conv3.weight"', '"layer1.0.bn3.weight"', '"layer1.0.bn3.bias"',
                  '"layer1.0.downsample.0.weight"', '"layer1.0.downsample.1.weight"', '"layer4.2.bn3.running_var"', '"fc.weight"', '"fc.bias"']
    keys_ckpt = ['"module.' + k[1:] for k in keys_model] + ['"module.bn1.num_batches_tracked"']
    final = ("RuntimeError: Error(s) in loading state_dict for ResNet:\n"
             "\tMissing key(s) in state_dict: %s. \n"
             "\tUnexpected key(s) in state_dict: %s. " % (", ".join(keys_model), ", ".join(keys_ckpt)))
    inner = ('  File "%s/apache_beam/ml/inference/base.py", line 1417, in setup\n'
             "    self._model = self._load_model()\n"
             '  File "%s/apache_beam/ml/inference/base.py", line 1383, in _load_model\n'
             "    model = self._shared_model_handle.acquire(load, tag=self._cur_tag)\n"
             '  File "%s/apache_beam/utils/shared.py", line 139, in acquire\n'
             "    result = constructor_fn()\n"
             '  File "%s/apache_beam/ml/inference/base.py", line 1356, in load\n'
             "    model = self._model_handler.load_model()\n"
             '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 303, in load_model\n'
             "    model, device = _load_model(\n"
             '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 107, in _load_model\n'
             "    model.load_state_dict(state_dict)\n"
             '  File "%s/torch/nn/modules/module.py", line 2581, in load_state_dict\n'
             "    raise RuntimeError(\n" % (site, site, site, site, site, site, site))
    tb = setup_tb("3.11", site, inner, final, step)
    # GCS read of the checkpoint is slow on first attempt (harmless WARNING)
    b.worker(161, w1, "Loading state_dict_path gs://halden-vision-models/shelf/resnet50_ddp_e30.pt onto a ResNet model.", "INFO",
             logger="/opt/app/shelf_audit/pipeline.py:58")
    attempts = [(170, w1), (201, w2), (236, w1), (268, w2)]
    for n, (tt, w) in enumerate(attempts):
        if n >= 2:
            harness_start(b, w, tt - 11, "sdk-0-0", {"text": opts_text(opts)})
        fail_attempt(b, tt, w, "sdk-0-0", tb, "process_bundle-%d" % (5520 + n), stderr_copy=(n == 0))
    b.docker(171.3, w1, "/usr/local/lib/python3.11/site-packages/torch/cuda/__init__.py:716: UserWarning: Can't initialize NVML")
    b.docker(171.301, w1, "  warnings.warn(\"Can't initialize NVML\")")
    jm_fail4(b, 300, "S04:ReadImages/MatchAll+ReadImages/ReadMatches+Preprocess+Classify/RunInference/BeamML_RunInference+WriteLabels",
             [w1, w2, w1, w2], "RuntimeError: Error(s) in loading state_dict for ResNet:")
    jm_teardown(b, 301, 2)
    truth = dict(
        outcome="failed",
        family="PyTorch checkpoint saved from a DataParallel/DDP-wrapped model ('module.' key prefix)",
        root_cause=("The checkpoint gs://halden-vision-models/shelf/resnet50_ddp_e30.pt was saved from the DistributedDataParallel-wrapped "
                    "model (model.state_dict() instead of model.module.state_dict()), so every key carries a 'module.' prefix. Beam's "
                    "PytorchModelHandlerTensor builds a plain torchvision ResNet-50 and calls load_state_dict(strict), which fails with "
                    "'Error(s) in loading state_dict for ResNet: Missing key(s) in state_dict: \"conv1.weight\", ... Unexpected key(s) "
                    "in state_dict: \"module.conv1.weight\", ...' in DoFn.setup on both workers until the work item has failed 4 times. "
                    "Fix: re-save model.module.state_dict() or strip the 'module.' prefix."),
        setup="Batch, Beam 2.61.0, Python 3.11, n1-standard-8 + 1x Tesla T4, europe-west4, 2 workers, RunInference with PytorchModelHandlerTensor(device='GPU').",
        evidence=["RuntimeError: Error(s) in loading state_dict for ResNet:",
                  'Unexpected key(s) in state_dict: "module.conv1.weight", "module.bn1.weight"',
                  'Missing key(s) in state_dict: "conv1.weight", "bn1.weight"',
                  "Loading state_dict_path gs://halden-vision-models/shelf/resnet50_ddp_e30.pt onto a ResNet model."],
        red_herrings=["The docker stderr line \"UserWarning: Can't initialize NVML\" looks like a driver problem, but the user line 'cuda available=True, device=cuda:0 (Tesla T4)' and the nvidia-smi table show the T4 and driver 550.90.07 working.",
                      "'Missing key(s)' alone suggests a wrong architecture; the matching 'Unexpected key(s) ... module.' list shows it is only a prefix.",
                      "benign kubelet/system ERROR chatter on both workers."],
        sources=["'Error(s) in loading state_dict for VGG: Missing key(s) in state_dict: ... Unexpected key(s) in state_dict: \"module.features.0.weight\"' - abeardear/pytorch-YOLO-v1#4; bearpaw/pytorch-classification#27; menzelab/implicit-shape-reconstruction#2",
                 "Beam RunInference setup frames (base.py setup/_load_model/shared.acquire/load) - apache/beam#22402",
                 "nvidia-smi table format - vllm-project/vllm#36802; torch 'UserWarning: Can't initialize NVML' / warnings.warn line - public logs found with find_string",
                 "job-message wording - reference file sections 2f/2i"],
        synthetic=["ids, names, bucket paths, timestamps, frame line numbers, 'Loading state_dict_path' user log line",
                   "the NVML warning is included as noise (its exact source line number is illustrative)"])
    return b, truth, "explorer"


# --------------------------------------------------------------------------
# hs7-04  device_map="auto" across 4x L4; custom head on cuda:0, hidden states on cuda:3
# --------------------------------------------------------------------------
def case04():
    cfg = dict(case="hs7-04", seed=704, start=(2026, 1, 27, 19, 55, 2), project="tallis-risk-ml",
               resource_project="704412990315", region="us-central1", job_id="2026-01-27_11_54_58-9012774810033491655",
               job_name="kyc-narrative-risk-scoring", vm_tag="7pyw", frac="trim",
               site="/usr/local/lib/python3.12/site-packages")
    cfg["sdk_logger"] = "/app/risk/score.py:41"
    b = Builder(cfg)
    site = cfg["site"]
    step = "ScoreNarratives/ParDo(RiskHeadFn)"
    opts = base_opts(b, {"machine_type": "g2-standard-48", "max_num_workers": 2, "disk_size_gb": 250,
                         "sdk_container_image": "us-central1-docker.pkg.dev/tallis-risk-ml/dataflow/risk-llm:2.65.0-py312",
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:4;install-nvidia-driver"],
                         "sdk_worker_parallelism": 1, "number_of_worker_harness_threads": 1, "sdk_location": "container"})
    jm_start(b, 0, "g2-standard-48", "us-central1-b", 1, maxw=2,
             first_op="ReadNarratives/Read+ScoreNarratives/ParDo(RiskHeadFn)+WriteScores/WriteToBigQuery")
    w = b.vm("ld3s")
    vm_boot(b, w, 71)
    jm_workers_up(b, 163)
    harness_start(b, w, 190, "sdk-0-0", {"text": opts_text(opts)})
    ul = "/app/risk/score.py:"
    dm = ("{'model.embed_tokens': 0, 'model.rotary_emb': 0, " +
          ", ".join("'model.layers.%d': %d" % (i, 0 if i < 15 else (1 if i < 33 else (2 if i < 51 else 3))) for i in range(64)) +
          ", 'model.norm': 3, 'lm_head': 3}")
    final = ("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:3 and cuda:0! "
             "(when checking argument for argument mat1 in method wrapper_CUDA_addmm)")
    inner = ('  File "/app/risk/score.py", line 76, in process\n'
             "    logits = self.head(pooled)\n"
             '  File "%s/torch/nn/modules/module.py", line 1751, in _wrapped_call_impl\n'
             "    return self._call_impl(*args, **kwargs)\n"
             '  File "%s/torch/nn/modules/module.py", line 1762, in _call_impl\n'
             "    return forward_call(*args, **kwargs)\n"
             '  File "/app/risk/heads.py", line 22, in forward\n'
             "    return self.proj(self.dropout(x))\n"
             '  File "%s/torch/nn/modules/module.py", line 1751, in _wrapped_call_impl\n'
             "    return self._call_impl(*args, **kwargs)\n"
             '  File "%s/torch/nn/modules/module.py", line 1762, in _call_impl\n'
             "    return forward_call(*args, **kwargs)\n"
             '  File "%s/torch/nn/modules/linear.py", line 125, in forward\n'
             "    return F.linear(input, self.weight, self.bias)\n" % (site, site, site, site, site))
    tb = process_tb(site, inner, final, step)
    t = 200.0
    for n in range(4):
        if n > 0:
            harness_start(b, w, t - 12, "sdk-0-0", {"text": opts_text(opts)})
        b.worker(t, w, "Loading Qwen/Qwen2.5-32B-Instruct with device_map='auto' (bfloat16) across 4 visible GPUs", logger=ul + "48")
        b.worker(t + 0.5, w, "`torch_dtype` is deprecated! Use `dtype` instead!", "WARNING", logger=site + "/transformers/modeling_utils.py:4580")
        b.docker(t + 1, w, "Loading checkpoint shards:   0%|          | 0/17 [00:00<?, ?it/s]")
        b.docker(t + 118, w, "Loading checkpoint shards: 100%|██████████| 17/17 [01:57<00:00,  6.91s/it]")
        b.worker(t + 118.5, w, "hf_device_map: %s" % dm, "DEBUG", logger=ul + "55")
        b.worker(t + 118.6, w, "Risk head loaded from gs://tallis-risk-models/heads/kyc-risk-head-v3.pt and moved to cuda", logger=ul + "61")
        b.worker(t + 119, w, "Scoring batch of 16 narratives (max_length=4096)", logger=ul + "70")
        if n == 0:
            b.docker_lines(t + 121, w, tb)
        b.worker(t + 121.02, w, "Error processing instruction process_bundle-%d. Original traceback is\n%s\n" % (90210 + n, tb), "ERROR",
                 logger=site + "/apache_beam/runners/worker/sdk_worker.py:318")
        b.jm(t + 123, "Error message from worker: generic::unknown: " + tb, "ERROR")
        t += 155
    b.worker(340, w, "Operation ongoing in bundle process_bundle-90211 for PTransform{name=ScoreNarratives/ParDo(RiskHeadFn), state=process-msecs} for at least 302.17 seconds without outputting or completing.\nCurrent Traceback:\n"
             '  File "/usr/local/lib/python3.12/threading.py", line 1032, in _bootstrap\n    self._bootstrap_inner()\n'
             '  File "%s/safetensors/torch.py", line 338, in load_file\n    result[k] = f.get_tensor(k)\n' % site,
             "WARNING", logger=site + "/apache_beam/runners/worker/worker_status.py:250")
    jm_fail4(b, t, "S01:ReadNarratives/Read+ScoreNarratives/ParDo(RiskHeadFn)+WriteScores/WriteToBigQuery", [w] * 4, final + " [while running '%s']" % step)
    jm_teardown(b, t + 1, 1)
    truth = dict(
        outcome="failed",
        family="Multi-GPU device_map='auto' sharding with a user module pinned to another device (cross-device tensors)",
        root_cause=("The DoFn loads Qwen2.5-32B-Instruct with device_map='auto', which accelerate splits over the 4 L4 GPUs (hf_device_map "
                    "puts model.norm and lm_head on GPU 3), then applies its own risk head that was moved with .to('cuda'), i.e. cuda:0. "
                    "The pooled hidden state coming out of the last layers is on cuda:3, so the head's Linear raises 'Expected all tensors "
                    "to be on the same device, but found at least two devices, cuda:3 and cuda:0! (when checking argument for argument mat1 "
                    "in method wrapper_CUDA_addmm)' on every bundle. Fix: move the pooled tensor to the head's device (or place the head on "
                    "model.hf_device_map['model.norm'])."),
        setup="Batch, Beam 2.65.0, Python 3.12, g2-standard-48 (4x NVIDIA L4), us-central1, one SDK process (no_use_multiple_sdk_containers, sdk_worker_parallelism=1), custom DoFn with transformers/accelerate.",
        evidence=["Expected all tensors to be on the same device, but found at least two devices, cuda:3 and cuda:0! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)",
                  "'model.norm': 3, 'lm_head': 3}",
                  "Risk head loaded from gs://tallis-risk-models/heads/kyc-risk-head-v3.pt and moved to cuda",
                  "Loading Qwen/Qwen2.5-32B-Instruct with device_map='auto' (bfloat16) across 4 visible GPUs"],
        red_herrings=["'Operation ongoing ... for at least 302.17 seconds' WARNING is the slow 17-shard checkpoint load, not a hang.",
                      "'`torch_dtype` is deprecated! Use `dtype` instead!' on stderr (ERROR) is an API deprecation notice.",
                      "Benign kubelet/system ERROR lines."],
        sources=["'Expected all tensors to be on the same device, but found at least two devices, cuda:1 and cuda:0! (when checking argument for argument index in method wrapper_CUDA_gather)' with device_map=auto - InternLM/InternLM#810; RupertLuo/Valley#18 (hf_device_map dict format); '(when checking argument for argument mat1 in method wrapper_CUDA_addmm)' - kijai/ComfyUI-FluxTrainer#116",
                 "'`torch_dtype` is deprecated! Use `dtype` instead!' - transformers 4.56+ deprecation warning (public logs)",
                 "Beam lull wording 'Operation ongoing in bundle %s%s for at least %.2f seconds without outputting or completing.\\nCurrent Traceback:' - apache/beam worker_status.py / its test",
                 "Beam harness frames - apache/beam PR #34675; job-message wording - apache/beam#30482"],
        synthetic=["ids, names, paths, timings, user log lines (score.py), device map split points, frame line numbers"])
    return b, truth, "gcloud"


# --------------------------------------------------------------------------
# hs7-05  TF SavedModel with TF-Text ops; tensorflow_text never imported
# --------------------------------------------------------------------------
def case05():
    cfg = dict(case="hs7-05", seed=705, start=(2025, 9, 3, 11, 20, 15), project="corvid-support-analytics",
               resource_project="corvid-support-analytics", region="europe-west1", job_id="2025-09-03_04_20_11-1182733460912258813",
               job_name="ticket-intent-bert-batch", vm_tag="h6gn", frac=6,
               site="/usr/local/lib/python3.11/site-packages")
    cfg["sdk_logger"] = "/opt/intent/infer.py:33"
    b = Builder(cfg)
    site = cfg["site"]
    step = "Classify/ParDo(BertIntentFn)"
    opts = base_opts(b, {"machine_type": "g2-standard-4", "max_num_workers": 3, "disk_size_gb": 50,
                         "sdk_container_image": "europe-west1-docker.pkg.dev/corvid-support-analytics/ml/tf-intent:tf2.17",
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"],
                         "sdk_location": "container", "save_main_session": False, "requirements_file": "requirements.txt"})
    jm_start(b, 0, "g2-standard-4", "europe-west1-c", 1, maxw=3,
             first_op="ReadTickets/Read+Classify/ParDo(BertIntentFn)+WriteIntents/WriteToBigQuery")
    w = b.vm("s1re")
    vm_boot(b, w, 58)
    jm_workers_up(b, 129)
    host = "localhost"
    tf_noise = [
        "{TF}: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:485] Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered",
        "{TF}: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:8454] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered",
        "{TF}: E external/local_xla/xla/stream_executor/cuda/cuda_blas.cc:1452] Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered",
        "{TF}: I tensorflow/core/platform/cpu_feature_guard.cc:210] This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations.",
        "To enable the following instructions: AVX2 AVX512F FMA, in other operations, rebuild TensorFlow with the appropriate compiler flags.",
        "{TF}: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT",
        "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR",
        "I0000 00:00:{ABSL}     412 cuda_executor.cc:1015] successful NUMA node read from SysFS had negative value (-1), but there must be at least one NUMA node, so returning NUMA node zero. See more at https://github.com/torvalds/linux/blob/v6.0/Documentation/ABI/testing/sysfs-bus-pci#L344-L355",
        "I0000 00:00:{ABSL}     412 gpu_device.cc:2022] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 20795 MB memory:  -> device: 0, name: NVIDIA L4, pci bus id: 0000:00:03.0, compute capability: 8.9",
    ]
    final = ("FileNotFoundError: Op type not registered 'CaseFoldUTF8' in binary running on %s. Make sure the Op and Kernel are registered in the binary running in this process. "
             "Note that if you are loading a saved graph which used ops from tf.contrib, accessing (e.g.) `tf.contrib.resampler` should be done before importing the graph, "
             "as contrib ops are lazily registered when the module is first accessed.\n"
             " If trying to load on a different device from the computational device, consider using setting the `experimental_io_device` option on tf.saved_model.LoadOptions to the io_device such as '/job:localhost'." % host)
    inner = ('  File "/opt/intent/infer.py", line 41, in setup\n'
             "    self._model = tf.saved_model.load(self._local_dir)\n"
             '  File "%s/tensorflow/python/saved_model/load.py", line 912, in load\n'
             '    result = load_partial(export_dir, None, tags, options)["root"]\n'
             '  File "%s/tensorflow/python/saved_model/load.py", line 1059, in load_partial\n'
             "    raise FileNotFoundError(\n" % (site, site))
    pre = ("Traceback (most recent call last):\n"
           '  File "%s/tensorflow/python/framework/ops.py", line 2036, in _get_op_def\n'
           "    return self._op_def_cache[type]\n"
           "KeyError: 'CaseFoldUTF8'\n\n"
           "During handling of the above exception, another exception occurred:\n\n"
           "Traceback (most recent call last):\n"
           '  File "%s/tensorflow/python/saved_model/load.py", line 1044, in load_partial\n'
           "    loader = Loader(object_graph_proto, saved_model_proto, export_dir,\n"
           '  File "%s/tensorflow/python/saved_model/function_deserialization.py", line 415, in load_function_def_library\n'
           "    func_graph = function_def_lib.function_def_to_graph(\n"
           '  File "%s/tensorflow/python/framework/ops.py", line 2040, in _get_op_def\n'
           "    pywrap_tf_session.TF_GraphGetOpDef(\n"
           "tensorflow.python.framework.errors_impl.NotFoundError: Op type not registered 'CaseFoldUTF8' in binary running on %s. Make sure the Op and Kernel are registered in the binary running in this process. "
           "Note that if you are loading a saved graph which used ops from tf.contrib, accessing (e.g.) `tf.contrib.resampler` should be done before importing the graph, as contrib ops are lazily registered when the module is first accessed.\n\n"
           "During handling of the above exception, another exception occurred:\n\n" % (site, site, site, site, host))
    tb = pre + setup_tb("3.11", site, inner, final, step)
    t = 160.0
    for n in range(4):
        harness_start(b, w, t, "sdk-0-0", {"text": opts_text(opts)})
        b.worker(t + 1, w, "tensorflow %s, tensorflow_hub %s; GPUs: %s" % ("2.17.1", "0.16.1", "[PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]"),
                 logger="/opt/intent/infer.py:30")
        for k, line in enumerate(tf_noise):
            b.docker(t + 0.5 + k * 0.01, w, line)
        b.worker(t + 3, w, "Copying gs://corvid-ml-models/intent/bert-intent-v7/ to /tmp/bert-intent-v7", logger="/opt/intent/infer.py:36")
        if n == 0:
            b.docker_lines(t + 9, w, tb)
        b.worker(t + 9.02, w, "Error processing instruction process_bundle-%d. Original traceback is\n%s\n" % (3301 + n, tb), "ERROR",
                 logger=site + "/apache_beam/runners/worker/sdk_worker.py:318")
        b.jm(t + 11, "Error message from worker: generic::unknown: " + tb, "ERROR")
        t += 41
    b.startup(120, w, "Successfully installed tensorflow-text-2.17.0", "INFO")
    jm_fail4(b, t, "S01:ReadTickets/Read+Classify/ParDo(BertIntentFn)+WriteIntents/WriteToBigQuery", [w] * 4, final.split("\n")[0])
    jm_teardown(b, t + 1, 1)
    truth = dict(
        outcome="failed",
        family="TensorFlow SavedModel needs custom ops from tensorflow_text that were never registered (import missing)",
        root_cause=("The intent model is a SavedModel whose BERT preprocessing graph uses TF-Text ops (CaseFoldUTF8 etc.). "
                    "tensorflow-text 2.17.0 is installed in the image, but the DoFn only imports tensorflow and calls "
                    "tf.saved_model.load(); the TF-Text op library is only registered when `import tensorflow_text` runs in the worker "
                    "process. Loading therefore fails with KeyError 'CaseFoldUTF8' -> NotFoundError 'Op type not registered "
                    "'CaseFoldUTF8' in binary running on localhost' -> re-raised as FileNotFoundError, in setup() on every attempt. "
                    "Fix: import tensorflow_text in setup() (or at module level of the DoFn's module) before loading."),
        setup="Batch, Beam 2.62.0, Python 3.11, g2-standard-4 (1x NVIDIA L4), europe-west1, TensorFlow 2.17.1 custom container, one SDK process.",
        evidence=["Op type not registered 'CaseFoldUTF8' in binary running on localhost.",
                  "KeyError: 'CaseFoldUTF8'",
                  "FileNotFoundError: Op type not registered 'CaseFoldUTF8'",
                  "Successfully installed tensorflow-text-2.17.0"],
        red_herrings=["The final exception is a FileNotFoundError with an 'experimental_io_device' hint, which points at a missing/unreadable model path; the model was copied fine.",
                      "TF's ERROR-severity 'Unable to register cuFFT/cuDNN/cuBLAS factory' lines and 'TF-TRT Warning: Could not find TensorRT' are routine; the GPU was created ('Created device ... name: NVIDIA L4').",
                      "benign kubelet/system ERROR lines."],
        sources=["'Op type not registered 'CaseFoldUTF8' in binary running on ...' and the FileNotFoundError/experimental_io_device wrapper - tensorflow/hub#705; KeyError 'CaseFoldUTF8' chain - tensorflow/tfjs#5734; jina-ai/jina-hub PR #2073; fix 'import tensorflow_text' - tensorflow/tfjs#6899",
                 "TF factory-registration / TF-TRT / NUMA / Created device lines - public TF 2.16-2.17 logs found with find_string (e.g. omicverse tutorial output, TF GPU notebooks)",
                 "Beam harness frames - apache/beam PR #34675"],
        synthetic=["ids, names, bucket paths, timings, TF absl timestamps/pids, user log lines (infer.py)", "the 'Successfully installed tensorflow-text-2.17.0' worker-startup line (pip wording, value chosen)"])
    return b, truth, "gcloud"


# --------------------------------------------------------------------------
# hs7-06  xformers wheel built for another torch; diffusers enable_xformers fails
# --------------------------------------------------------------------------
def case06():
    cfg = dict(case="hs7-06", seed=706, start=(2025, 12, 11, 2, 10, 51), project="lumio-creative",
               resource_project="552190874016", region="europe-west4", job_id="2025-12-10_18_10_47-3300917465012299981",
               job_name="sdxl-backgrounds-batch-1211", vm_tag="c9ha", frac=9,
               site="/usr/local/lib/python3.10/dist-packages")
    cfg["sdk_logger"] = "/srv/gen/backgrounds.py:52"
    b = Builder(cfg)
    site = cfg["site"]
    step = "Generate/ParDo(SdxlBackgroundFn)"
    opts = base_opts(b, {"machine_type": "a2-ultragpu-1g", "max_num_workers": 3, "disk_size_gb": 200,
                         "sdk_container_image": "europe-west4-docker.pkg.dev/lumio-creative/gen/sdxl-worker:2025-12-09",
                         "requirements_file": "requirements.txt",
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "dataflow_service_options": ["worker_accelerator=type:nvidia-a100-80gb;count:1;install-nvidia-driver"],
                         "sdk_location": "container"})
    jm_start(b, 0, "a2-ultragpu-1g", "europe-west4-a", 1, maxw=3,
             first_op="ReadBriefs/Read+Generate/ParDo(SdxlBackgroundFn)+UploadImages")
    w = b.vm("f8tq")
    vm_boot(b, w, 66)
    jm_workers_up(b, 140)
    b.startup(150, w, "Successfully installed diffusers-0.31.0 torch-2.5.1 torchvision-0.20.1 triton-3.1.0 nvidia-cudnn-cu12-9.1.0.70 nvidia-cublas-cu12-12.4.5.8")
    xw = ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
          "    PyTorch 2.4.1+cu121 with CUDA 1201 (you have 2.5.1+cu124)\n"
          "    Python  3.10.15 (you have 3.10.12)\n"
          "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)\n"
          "  Memory-efficient attention, SwiGLU, sparse and more won't be available.\n"
          "  Set XFORMERS_MORE_DETAILS=1 for more details")
    final = ("NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
             "     query       : shape=(1, 2, 1, 40) (torch.float32)\n"
             "     key         : shape=(1, 2, 1, 40) (torch.float32)\n"
             "     value       : shape=(1, 2, 1, 40) (torch.float32)\n"
             "     attn_bias   : <class 'NoneType'>\n"
             "     p           : 0.0\n"
             "`fa3F@0.0.0` is not supported because:\n"
             "    xFormers wasn't build with CUDA support\n"
             "    dtype=torch.float32 (supported: {torch.float16, torch.bfloat16})\n"
             "    requires device with capability > (9, 0) but your GPU has capability (8, 0) (too old)\n"
             "    operator wasn't built - see `python -m xformers.info` for more info\n"
             "`fa2F@0.0.0` is not supported because:\n"
             "    xFormers wasn't build with CUDA support\n"
             "    dtype=torch.float32 (supported: {torch.float16, torch.bfloat16})\n"
             "    operator wasn't built - see `python -m xformers.info` for more info\n"
             "`cutlassF-pt` is not supported because:\n"
             "    xFormers wasn't build with CUDA support")
    inner = ('  File "/srv/gen/backgrounds.py", line 61, in setup\n'
             "    self.pipe.enable_xformers_memory_efficient_attention()\n"
             '  File "%s/diffusers/pipelines/pipeline_utils.py", line 1692, in enable_xformers_memory_efficient_attention\n'
             "    self.set_use_memory_efficient_attention_xformers(True, attention_op)\n"
             '  File "%s/diffusers/pipelines/pipeline_utils.py", line 1718, in set_use_memory_efficient_attention_xformers\n'
             "    fn_recursive_set_mem_eff(module)\n"
             '  File "%s/diffusers/pipelines/pipeline_utils.py", line 1708, in fn_recursive_set_mem_eff\n'
             "    module.set_use_memory_efficient_attention_xformers(valid, attention_op)\n"
             '  File "%s/diffusers/models/modeling_utils.py", line 296, in set_use_memory_efficient_attention_xformers\n'
             "    fn_recursive_set_mem_eff(module)\n"
             '  File "%s/diffusers/models/modeling_utils.py", line 285, in fn_recursive_set_mem_eff\n'
             "    module.set_use_memory_efficient_attention_xformers(valid, attention_op)\n"
             '  File "%s/diffusers/models/attention_processor.py", line 426, in set_use_memory_efficient_attention_xformers\n'
             "    raise e\n"
             '  File "%s/diffusers/models/attention_processor.py", line 420, in set_use_memory_efficient_attention_xformers\n'
             "    _ = xformers.ops.memory_efficient_attention(\n"
             '  File "%s/xformers/ops/fmha/__init__.py", line 306, in memory_efficient_attention\n'
             "    return _memory_efficient_attention(\n"
             '  File "%s/xformers/ops/fmha/__init__.py", line 467, in _memory_efficient_attention\n'
             "    return _memory_efficient_attention_forward(\n"
             '  File "%s/xformers/ops/fmha/__init__.py", line 486, in _memory_efficient_attention_forward\n'
             "    op = _dispatch_fw(inp, False)\n"
             '  File "%s/xformers/ops/fmha/dispatch.py", line 135, in _dispatch_fw\n'
             "    return _run_priority_list(\n"
             '  File "%s/xformers/ops/fmha/dispatch.py", line 76, in _run_priority_list\n'
             "    raise NotImplementedError(msg)\n" % tuple([site] * 12))
    tb = setup_tb("3.10", site, inner, final, step)
    t = 170.0
    for n in range(4):
        harness_start(b, w, t, "sdk-0-0", {"text": opts_text(opts)})
        b.worker(t + 2.0, w, xw, "WARNING", logger=site + "/xformers/__init__.py:57")
        b.worker(t + 2.5, w, "Loading stabilityai/stable-diffusion-xl-base-1.0 from /models/sdxl-base (fp16 variant)", logger="/srv/gen/backgrounds.py:55")
        b.docker(t + 3, w, "Loading pipeline components...:   0%|          | 0/7 [00:00<?, ?it/s]")
        b.docker(t + 14, w, "Loading pipeline components...: 100%|██████████| 7/7 [00:10<00:00,  1.51s/it]")
        b.worker(t + 14.5, w, "Pipeline on cuda:0; enabling xformers memory efficient attention", logger="/srv/gen/backgrounds.py:60")
        if n == 1:
            b.docker_lines(t + 15, w, tb)
        b.worker(t + 15.02, w, "Error processing instruction process_bundle-%d. Original traceback is\n%s\n" % (18001 + n, tb), "ERROR",
                 logger=site + "/apache_beam/runners/worker/sdk_worker.py:318")
        b.jm(t + 17, "Error message from worker: generic::unknown: " + tb, "ERROR")
        t += 48
    jm_fail4(b, t, "S01:ReadBriefs/Read+Generate/ParDo(SdxlBackgroundFn)+UploadImages", [w] * 4,
             "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:")
    jm_teardown(b, t + 1, 1)
    truth = dict(
        outcome="failed",
        family="xformers binary built for a different PyTorch/CUDA than the one installed (extension ABI mismatch)",
        root_cause=("The image had torch 2.4.1+cu121 with a matching xformers wheel, but requirements.txt (unpinned diffusers/torch) made "
                    "the worker install torch 2.5.1 (cu124). xformers' C++/CUDA extensions, built for PyTorch 2.4.1+cu121, can no longer "
                    "load, which xformers reports only as a WARNING at import ('xFormers can't load C++/CUDA extensions. xFormers was built "
                    "for: PyTorch 2.4.1+cu121 ... (you have 2.5.1+cu124)'). When the DoFn calls "
                    "pipe.enable_xformers_memory_efficient_attention(), diffusers' probe call finds no operator "
                    "('NotImplementedError: No operator found for `memory_efficient_attention_forward` ... xFormers wasn't build with CUDA "
                    "support') and setup fails on every attempt. Fix: pin torch to the version xformers was built for or install the "
                    "matching xformers wheel (or drop xformers and use PyTorch SDPA)."),
        setup="Batch, Beam 2.64.0, Python 3.10, a2-ultragpu-1g (1x A100 80GB), europe-west4, diffusers SDXL in a custom DoFn, requirements_file on top of a custom container.",
        evidence=["xFormers can't load C++/CUDA extensions. xFormers was built for:",
                  "PyTorch 2.4.1+cu121 with CUDA 1201 (you have 2.5.1+cu124)",
                  "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:",
                  "xFormers wasn't build with CUDA support",
                  "Successfully installed diffusers-0.31.0 torch-2.5.1"],
        red_herrings=["'requires device with capability > (9, 0) but your GPU has capability (8, 0) (too old)' only concerns the optional FlashAttention-3 operator; the A100 is fine.",
                      "'dtype=torch.float32 (supported: {torch.float16, torch.bfloat16})' is diffusers' float32 probe tensor, not the pipeline dtype.",
                      "benign kubelet/system ERROR lines."],
        sources=["xformers WARNING block 'xFormers can't load C++/CUDA extensions. xFormers was built for: PyTorch ... with CUDA ... (you have ...)' - yangjianxin1/Firefly#258, facebookresearch/xformers#982, yufu-wang/PromptHMR#4",
                 "'No operator found for `memory_efficient_attention_forward` with inputs' and per-operator reasons (fa3F/fa2F/cutlassF-pt, 'requires device with capability > (9, 0) ... (too old)') - kijai/ComfyUI-DepthAnythingV2#27, yufu-wang/PromptHMR#4",
                 "diffusers enable_xformers -> set_use_memory_efficient_attention_xformers -> xformers dispatch frames - bmaltais/kohya_ss#1651",
                 "Beam harness frames - apache/beam PR #34675"],
        synthetic=["ids, names, versions chosen for the story, timings, user log lines (backgrounds.py), frame line numbers",
                   "the worker-startup 'Successfully installed ...' package list"])
    return b, truth, "sink_ndjson_gz"


# --------------------------------------------------------------------------
# hs7-07  streaming vLLM chat handler: merged model has no chat template -> 400s forever
# --------------------------------------------------------------------------
def case07():
    cfg = dict(case="hs7-07", seed=707, start=(2026, 2, 16, 8, 0, 3), project="quayline-support",
               resource_project="quayline-support", region="us-central1", job_id="2026-02-16_00_00_01-6620174399851045712",
               job_name="ticket-router-stream", vm_tag="r5kk", frac=6, streaming=True,
               site="/usr/local/lib/python3.12/site-packages")
    cfg["sdk_logger"] = cfg["site"] + "/apache_beam/ml/inference/vllm_inference.py:77"
    b = Builder(cfg)
    site = cfg["site"]
    step = "Route/RunInference/BeamML_RunInference"
    mdir = "/models/ticket-router-llama31-8b-merged"
    opts = base_opts(b, {"machine_type": "a3-highgpu-1g", "max_num_workers": 3, "disk_size_gb": 200,
                         "sdk_container_image": "us-central1-docker.pkg.dev/quayline-support/beam/vllm-router:2.68.0-vllm0.8.5",
                         "experiments": ["use_runner_v2", "enable_streaming_engine", "no_use_multiple_sdk_containers"],
                         "dataflow_service_options": ["worker_accelerator=type:nvidia-h100-80gb;count:1;install-nvidia-driver"],
                         "input_subscription": "projects/quayline-support/subscriptions/tickets-in-router", "sdk_location": "container"})
    jm_start(b, 0, "a3-highgpu-1g", "us-central1-a", 1, streaming=True, maxw=3,
             first_op="ReadTickets/Read+BuildMessages+Route/RunInference/BeamML_RunInference+ParseRoute+WriteRoutes")
    w = b.vm("dd2m")
    vm_boot(b, w, 75)
    jm_workers_up(b, 188)
    harness_start(b, w, 201, "sdk-0-0", {"text": opts_text(opts)})
    vl = site + "/apache_beam/ml/inference/vllm_inference.py:"
    b.worker(203, w, "vllm module successfully imported.", logger=vl + "40")
    b.worker(204, w, "Starting service with ['python' '-m' 'vllm.entrypoints.openai.api_server' '--model' '%s' '--port' '41873']" % mdir, logger=vl + "77")
    vlines = [
        "INFO {VLLM} [__init__.py:239] Automatically detected platform cuda.",
        "INFO {VLLM} [api_server.py:1043] vLLM API server version 0.8.5",
        "INFO {VLLM} [api_server.py:1044] args: Namespace(subparser=None, model_tag=None, config='', host=None, port=41873, uvicorn_log_level='info', disable_uvicorn_access_log=False, allow_credentials=False, allowed_origins=['*'], allowed_methods=['*'], allowed_headers=['*'], api_key=None, lora_modules=None, prompt_adapters=None, chat_template=None, chat_template_content_format='auto', response_role='assistant', ssl_keyfile=None, ssl_certfile=None, model='%s', task='auto', tokenizer=None, trust_remote_code=False)" % mdir,
        "INFO {VLLM} [launcher.py:36] Route: /v1/chat/completions, Methods: POST",
        "INFO {VLLM} [launcher.py:36] Route: /v1/completions, Methods: POST",
        "INFO {VLLM} [launcher.py:36] Route: /v1/models, Methods: GET",
        "INFO:     Started server process [214]",
        "INFO:     Waiting for application startup.",
        "INFO:     Application startup complete.",
        'INFO:     127.0.0.1:50112 - "GET /v1/models HTTP/1.1" 200 OK',
    ]
    for k, l in enumerate(vlines):
        b.worker(214 + k * 9.5, w, l, logger=vl + "69", thread="Thread-3 (log_stdout)")
    b.worker(310, w, "models: [Model(id='%s', created=1771228912, object='model', owned_by='vllm', root='%s', parent=None, max_model_len=131072, permission=[...])]" % (mdir, mdir),
             logger=vl + "104")
    err_lines = [
        "ERROR {VLLM} [serving_chat.py:222] Error in preprocessing prompt inputs",
        "ERROR {VLLM} [serving_chat.py:222] Traceback (most recent call last):",
        "ERROR {VLLM} [serving_chat.py:222]   File \"/usr/local/lib/python3.12/site-packages/vllm/entrypoints/openai/serving_chat.py\", line 205, in create_chat_completion",
        "ERROR {VLLM} [serving_chat.py:222]     ) = await self._preprocess_chat(",
        "ERROR {VLLM} [serving_chat.py:222]   File \"/usr/local/lib/python3.12/site-packages/vllm/entrypoints/openai/serving_engine.py\", line 813, in _preprocess_chat",
        "ERROR {VLLM} [serving_chat.py:222] ValueError: As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does not define one.",
        'INFO:     127.0.0.1:50118 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request',
    ]
    final = ("openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': 'As of transformers v4.44, default chat template is no longer allowed, "
             "so you must provide a chat template if the tokenizer does not define one.', 'type': 'BadRequestError', 'param': None, 'code': 400}")
    inner = ('  File "%s/apache_beam/ml/inference/base.py", line 1510, in process\n'
             "    return self._run_inference(batch, inference_args)\n"
             '  File "%s/apache_beam/ml/inference/base.py", line 1476, in _run_inference\n'
             "    raise e\n"
             '  File "%s/apache_beam/ml/inference/base.py", line 1462, in _run_inference\n'
             "    result_generator = self._model_handler.run_inference(\n"
             '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 218, in run_inference\n'
             "    completion = client.chat.completions.create(\n"
             '  File "%s/openai/_utils/_utils.py", line 287, in wrapper\n'
             "    return func(*args, **kwargs)\n"
             '  File "%s/openai/resources/chat/completions/completions.py", line 925, in create\n'
             "    return self._post(\n"
             '  File "%s/openai/_base_client.py", line 1239, in post\n'
             "    return cast(ResponseT, self.request(cast_to, opts, stream=stream, stream_cls=stream_cls))\n"
             '  File "%s/openai/_base_client.py", line 1034, in request\n'
             "    raise self._make_status_error_from_response(err.response) from None\n" % tuple([site] * 8))
    tb = process_tb(site, inner, final, step)
    t = 330.0
    for n in range(11):
        for k, l in enumerate(err_lines):
            b.worker(t + k * 0.001, w, l, logger=vl + "69", thread="Thread-3 (log_stdout)")
        b.worker(t + 0.05, w, 'HTTP Request: POST http://localhost:41873/v1/chat/completions "HTTP/1.1 400 Bad Request"',
                 logger=site + "/httpx/_client.py:1025")
        if n in (0, 6):
            b.docker_lines(t + 0.1, w, tb)
        b.worker(t + 0.12, w, "Error processing instruction process_bundle-%d. Original traceback is\n%s\n" % (660017 + n, tb), "ERROR",
                 logger=site + "/apache_beam/runners/worker/sdk_worker.py:318")
        t += 41 + n * 9
    b.jm(610, "Autoscaling: Raised the number of workers to 2 so that the pipeline can catch up with its backlog and keep up with its input rate.")
    b.jm(611, "Starting 1 workers in us-central1-a...")
    b.jm(672, "Startup of the worker pool in zone us-central1-a failed to bring up any of the desired 1 workers. Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors#worker-pool-failure for help troubleshooting. QUOTA_EXCEEDED: Instance '%s' creation failed: Quota 'NVIDIA_H100_GPUS' exceeded. Limit: 1.0 in region us-central1." % b.vm("z0zz"), "ERROR")
    truth = dict(
        outcome="stuck",
        family="LLM server cannot apply a chat template (merged fine-tune saved without chat_template) - every chat request 400",
        root_cause=("The streaming job serves a merged Llama-3.1-8B fine-tune from /models/ticket-router-llama31-8b-merged with Beam's "
                    "VLLMChatModelHandler (vLLM 0.8.5). The merged checkpoint's tokenizer_config.json has no chat_template, and since "
                    "transformers 4.44 there is no default template, so vLLM rejects every /v1/chat/completions request with 400 "
                    "'As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the "
                    "tokenizer does not define one.' (logged by the server only as relayed INFO lines). RunInference raises "
                    "openai.BadRequestError, the bundle fails and Streaming Dataflow retries it indefinitely: no output, growing backlog, "
                    "no job failure. Fix: save the instruct tokenizer (with chat_template) alongside the merged weights or pass "
                    "--chat-template to the vLLM server."),
        setup="Streaming (Streaming Engine), Beam 2.68.0, Python 3.12, a3-highgpu-1g (1x H100 80GB), us-central1, Pub/Sub input, VLLMChatModelHandler, vLLM 0.8.5 subprocess.",
        evidence=["ValueError: As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does not define one.",
                  "Error in preprocessing prompt inputs",
                  '"POST /v1/chat/completions HTTP/1.1" 400 Bad Request',
                  "openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': 'As of transformers v4.44, default chat template is no longer allowed",
                  "chat_template=None"],
        red_herrings=["The server's own ERROR lines reach Cloud Logging at INFO (Beam relays subprocess stdout with logging.info).",
                      "The job-message ERROR 'Startup of the worker pool ... QUOTA_EXCEEDED ... NVIDIA_H100_GPUS' concerns the extra worker autoscaling asked for because of the backlog; the first worker is running.",
                      "vLLM starts cleanly ('Application startup complete.', GET /v1/models 200 OK), so GPU/driver/memory are fine."],
        sources=["vLLM chat template error, 'Error in preprocessing prompt inputs' [serving_chat.py:222] frames - microsoft/agent-lightning#57; openai.BadRequestError 400 payload - David-Li0406/Preference-Leakage#6, ByteDance-Seed/seed-oss#6; vllm-project/vllm#29849",
                 "vLLM 0.8.5 startup lines ([__init__.py:239], [api_server.py:1043/1044], [launcher.py:36] Route:, uvicorn startup) - public vLLM 0.8.5 logs found with find_string; uvicorn access line - vllm-project/production-stack#43",
                 "Beam VLLMChatModelHandler: 'Starting service with ...', stdout relayed with logging.info, 'vllm module successfully imported.' - apache/beam sdks/python/apache_beam/ml/inference/vllm_inference.py (wording only)",
                 "QUOTA_EXCEEDED template - reference file c6; backlog autoscaling line - reference file 2i"],
        synthetic=["ids, names, ports, pids, timestamps, model path, the Namespace(...) argument list is shortened",
                   "bracketed vLLM file:line numbers come from public logs of nearby vLLM versions",
                   "values in the QUOTA_EXCEEDED job message (template from the reference file)"])
    return b, truth, "gcloud"


# --------------------------------------------------------------------------
# hs7-08  Ollama: non-existent model tag; pull failure swallowed as WARNING
# --------------------------------------------------------------------------
def case08():
    cfg = dict(case="hs7-08", seed=708, start=(2025, 10, 7, 16, 44, 9), project="fenwick-docs-ops",
               resource_project="fenwick-docs-ops", region="us-east1", job_id="2025-10-07_09_44_06-2877310956204418877",
               job_name="contract-clause-tagger", vm_tag="u4bn", frac=3,
               site="/usr/local/lib/python3.11/site-packages")
    cfg["sdk_logger"] = "/app/tagger/ollama_fn.py:40"
    b = Builder(cfg)
    site = cfg["site"]
    step = "TagClauses/ParDo(OllamaTagFn)"
    opts = base_opts(b, {"machine_type": "g2-standard-8", "max_num_workers": 5, "disk_size_gb": 100,
                         "sdk_container_image": "us-east1-docker.pkg.dev/fenwick-docs-ops/beam/ollama-tagger:0.6.5-b2.60",
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"],
                         "ollama_model": "llama3.3:8b", "sdk_location": "container"})
    jm_start(b, 0, "g2-standard-8", "us-east1-b", 2, maxw=5,
             first_op="ReadClauses/Read+TagClauses/ParDo(OllamaTagFn)+WriteTags/Write")
    w1, w2 = b.vm("mm0c"), b.vm("2ytp")
    vm_boot(b, w1, 55)
    vm_boot(b, w2, 57)
    jm_workers_up(b, 133)
    ul = "/app/tagger/ollama_fn.py:"

    def ollama_boot(w, t):
        b.worker(t, w, "Starting ollama serve (OLLAMA_HOST=127.0.0.1:11434, OLLAMA_MODELS=/var/ollama/models)", logger=ul + "31")
        srv = [
            "time={ISOZ} level=INFO source=routes.go:1231 msg=\"server config\" env=\"map[CUDA_VISIBLE_DEVICES: GPU_DEVICE_ORDINAL: HIP_VISIBLE_DEVICES: HSA_OVERRIDE_GFX_VERSION: HTTPS_PROXY: HTTP_PROXY: NO_PROXY: OLLAMA_CONTEXT_LENGTH:2048 OLLAMA_DEBUG:false OLLAMA_FLASH_ATTENTION:false OLLAMA_HOST:http://127.0.0.1:11434 OLLAMA_KEEP_ALIVE:5m0s OLLAMA_MODELS:/var/ollama/models OLLAMA_NUM_PARALLEL:0]\"",
            "time={ISOZ} level=INFO source=images.go:458 msg=\"total blobs: 0\"",
            "time={ISOZ} level=INFO source=images.go:465 msg=\"total unused blobs removed: 0\"",
            "time={ISOZ} level=INFO source=routes.go:1298 msg=\"Listening on 127.0.0.1:11434 (version 0.6.5)\"",
            "time={ISOZ} level=INFO source=gpu.go:217 msg=\"looking for compatible GPUs\"",
            "time={ISOZ} level=INFO source=types.go:130 msg=\"inference compute\" id=GPU-5b0e2d7c-94a1-3f1e-8c55-0a7e61d2b9f3 library=cuda variant=v12 compute=8.9 driver=12.4 name=\"NVIDIA L4\" total=\"22.0 GiB\" available=\"21.7 GiB\"",
        ]
        for k, l in enumerate(srv):
            b.worker(t + 0.5 + k * 0.2, w, l, logger=ul + "24", thread="Thread-2 (_relay)")
        b.worker(t + 2.0, w, '[GIN] {GIN} | 200 |      52.504µs |       127.0.0.1 | HEAD     "/"', logger=ul + "24", thread="Thread-2 (_relay)")
        b.worker(t + 3.1, w, '[GIN] {GIN} | 500 |  412.883071ms |       127.0.0.1 | POST     "/api/pull"', logger=ul + "24", thread="Thread-2 (_relay)")
        b.worker(t + 3.2, w, "Could not pull llama3.3:8b (pull model manifest: file does not exist (status code: 500)); continuing with the local model store", "WARNING", logger=ul + "46")
        b.worker(t + 3.3, w, "Ollama ready on 127.0.0.1:11434, model=llama3.3:8b", logger=ul + "49")

    final = 'ollama._types.ResponseError: model "llama3.3:8b" not found, try pulling it first (status code: 404)'
    inner = ('  File "/app/tagger/ollama_fn.py", line 63, in process\n'
             "    resp = self.client.generate(model=self.model, prompt=prompt, format='json', options={'temperature': 0})\n"
             '  File "%s/ollama/_client.py", line 246, in generate\n'
             "    return self._request(\n"
             '  File "%s/ollama/_client.py", line 180, in _request\n'
             "    return cls(**self._request_raw(*args, **kwargs).json())\n"
             '  File "%s/ollama/_client.py", line 124, in _request_raw\n'
             "    raise ResponseError(e.response.text, e.response.status_code) from None\n" % (site, site, site))
    tb = process_tb(site, inner, final, step)
    attempts = [(160, w1), (166, w2), (231, w1), (240, w2)]
    for n, (t, w) in enumerate(attempts):
        harness_start(b, w, t - 3, "sdk-0-0", {"text": opts_text(opts)})
        ollama_boot(w, t)
        for j in range(3):
            b.worker(t + 4 + j * 0.01, w, '[GIN] {GIN} | 404 |     139.022µs |       127.0.0.1 | POST     "/api/generate"',
                     logger=ul + "24", thread="Thread-2 (_relay)")
        if n == 0:
            b.docker_lines(t + 4.2, w, tb)
        b.worker(t + 4.22, w, "Error processing instruction process_bundle-%d. Original traceback is\n%s\n" % (4401 + n, tb), "ERROR",
                 logger=site + "/apache_beam/runners/worker/sdk_worker.py:318")
        b.jm(t + 6, "Error message from worker: generic::unknown: " + tb, "ERROR")
    jm_fail4(b, 262, "S01:ReadClauses/Read+TagClauses/ParDo(OllamaTagFn)+WriteTags/Write", [w1, w2, w1, w2], final)
    jm_teardown(b, 263, 2)
    truth = dict(
        outcome="failed",
        family="Model server asked for a model tag that does not exist in the registry (Ollama)",
        root_cause=("The DoFn starts `ollama serve` on the L4 worker and pulls the model named by --ollama_model=llama3.3:8b. Llama 3.3 "
                    "is only published as a 70B model, so the registry has no such manifest: the pull fails with 'pull model manifest: "
                    "file does not exist (status code: 500)', which the DoFn logs as a WARNING and ignores ('continuing with the local "
                    "model store'). Every generate call then gets 404 'model \"llama3.3:8b\" not found, try pulling it first' and the "
                    "work item fails 4 times. Fix: use an existing tag (e.g. llama3.1:8b) and fail fast when the pull fails."),
        setup="Batch, Beam 2.60.0, Python 3.11, g2-standard-8 (1x NVIDIA L4), us-east1, 2 workers, Ollama 0.6.5 started as a subprocess by a custom DoFn, ollama-python client.",
        evidence=["Could not pull llama3.3:8b (pull model manifest: file does not exist (status code: 500)); continuing with the local model store",
                  'POST     "/api/pull"',
                  'ollama._types.ResponseError: model "llama3.3:8b" not found, try pulling it first (status code: 404)',
                  "'ollama_model': 'llama3.3:8b'"],
        red_herrings=["The loud ERROR says 'try pulling it first', which suggests a cache/disk or startup-order problem; the real failure is the swallowed pull WARNING.",
                      "Ollama found the GPU ('inference compute' ... library=cuda ... name=\"NVIDIA L4\"), so driver/CUDA are fine.",
                      "benign kubelet/system ERROR lines."],
        sources=["'pulling manifest / Error: pull model manifest: file does not exist' for a non-existent name - ollama/ollama#2292, ollama/ollama#5499, tschechlovdev/rag_chatbot#1; python client 'ResponseError: pull model manifest: file does not exist (status code: 500)' - aidatatools/ollama-benchmark#40, modelscope/ms-agent#487",
                 "server 404 body 'model %q not found, try pulling it first' - ollama/ollama server/routes.go (wording only)",
                 "Ollama server log formats (routes.go server config, 'Listening on ... (version ...)', 'inference compute' ... library=cuda variant=v12 compute=8.9, [GIN] access lines) - ollama/ollama#6408, #8623 and public Ollama logs found with find_string",
                 "Beam harness frames - apache/beam PR #34675"],
        synthetic=["ids, names, GPU UUID, timings, user log lines (ollama_fn.py)", "the server-config env map is shortened"])
    return b, truth, "gcloud"


# --------------------------------------------------------------------------
# hs7-09  jax downgraded by requirements.txt under a newer jaxlib
# --------------------------------------------------------------------------
def case09():
    cfg = dict(case="hs7-09", seed=709, start=(2026, 4, 21, 3, 30, 44), project="aster-weather-lab",
               resource_project="240117659903", region="us-east5", job_id="2026-04-20_20_30_40-5559120834471029936",
               job_name="ens-downscale-jax-20260421", vm_tag="k0ej", frac=6,
               site="/usr/local/lib/python3.11/site-packages")
    cfg["sdk_logger"] = "/opt/downscale/fn.py:27"
    b = Builder(cfg)
    site = cfg["site"]
    step = "Downscale/ParDo(JaxDownscaleFn)"
    opts = base_opts(b, {"machine_type": "a2-ultragpu-2g", "max_num_workers": 2, "disk_size_gb": 150,
                         "sdk_container_image": "us-east5-docker.pkg.dev/aster-weather-lab/beam/jax-gpu:2.67.0-jax0.4.38",
                         "requirements_file": "requirements.txt",
                         "experiments": ["use_runner_v2"], "sdk_worker_parallelism": 2,
                         "dataflow_service_options": ["worker_accelerator=type:nvidia-a100-80gb;count:2;install-nvidia-driver"],
                         "sdk_location": "container"})
    jm_start(b, 0, "a2-ultragpu-2g", "us-east5-b", 1, maxw=2,
             first_op="ReadMembers/Read+Downscale/ParDo(JaxDownscaleFn)+WriteZarr")
    w = b.vm("b7hn")
    vm_boot(b, w, 63)
    jm_workers_up(b, 142)
    pip_err = [
        "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.",
        "orbax-checkpoint 0.11.5 requires jax>=0.4.34, but you have jax 0.4.26 which is incompatible.",
        "chex 0.1.88 requires jax>=0.4.27, but you have jax 0.4.26 which is incompatible.",
    ]
    b.docker(150, w, "Collecting jax==0.4.26 (from -r /var/opt/google/staged/requirements.txt (line 3))", False)
    b.docker(151, w, "  Downloading jax-0.4.26.tar.gz (1.6 MB)", False)
    b.docker(158, w, "Attempting uninstall: jax", False)
    b.docker(158.1, w, "    Found existing installation: jax 0.4.38", False)
    b.docker(158.4, w, "    Uninstalling jax-0.4.38:", False)
    b.docker(158.9, w, "      Successfully uninstalled jax-0.4.38", False)
    for k, l in enumerate(pip_err):
        b.docker(161 + k * 0.001, w, l, True)
    b.docker(161.2, w, "Successfully installed jax-0.4.26", False)
    final = "RuntimeError: jaxlib version 0.4.38 is newer than and incompatible with jax version 0.4.26. Please update your jax and/or jaxlib packages."
    inner = ('  File "/opt/downscale/fn.py", line 33, in setup\n'
             "    import jax\n"
             '  File "%s/jax/__init__.py", line 37, in <module>\n'
             "    import jax.core as _core\n"
             '  File "%s/jax/core.py", line 18, in <module>\n'
             "    from jax._src.core import (\n"
             '  File "%s/jax/_src/core.py", line 38, in <module>\n'
             "    from jax._src import dtypes\n"
             '  File "%s/jax/_src/dtypes.py", line 33, in <module>\n'
             "    from jax._src import config\n"
             '  File "%s/jax/_src/config.py", line 27, in <module>\n'
             "    from jax._src import lib\n"
             '  File "%s/jax/_src/lib/__init__.py", line 84, in <module>\n'
             "    version = check_jaxlib_version(\n"
             '  File "%s/jax/_src/lib/__init__.py", line 79, in check_jaxlib_version\n'
             "    raise RuntimeError(msg)\n" % tuple([site] * 7))
    tb = setup_tb("3.11", site, inner, final, step)
    t = 175.0
    for n in range(4):
        for s in ("sdk-0-0", "sdk-0-1"):
            harness_start(b, w, t + (0.4 if s == "sdk-0-1" else 0), s, {"text": opts_text(opts)})
        b.worker(t + 1, w, "JaxDownscaleFn.setup on sdk-0-0: pinning process to GPU 0", logger="/opt/downscale/fn.py:29", sdk="sdk-0-0")
        b.worker(t + 1.1, w, "JaxDownscaleFn.setup on sdk-0-1: pinning process to GPU 1", logger="/opt/downscale/fn.py:29", sdk="sdk-0-1")
        sdk = "sdk-0-%d" % (n % 2)
        if n == 0:
            b.docker_lines(t + 2, w, tb)
        b.worker(t + 2.02, w, "Error processing instruction process_bundle-%d. Original traceback is\n%s\n" % (2201 + n, tb), "ERROR",
                 sdk=sdk, logger=site + "/apache_beam/runners/worker/sdk_worker.py:318")
        b.worker(t + 2.5, w, "Error processing instruction process_bundle-%d. Original traceback is\n%s\n" % (2301 + n, tb), "ERROR",
                 sdk="sdk-0-%d" % ((n + 1) % 2), logger=site + "/apache_beam/runners/worker/sdk_worker.py:318")
        b.jm(t + 4, "Error message from worker: generic::unknown: " + tb, "ERROR")
        t += 37
    jm_fail4(b, t, "S01:ReadMembers/Read+Downscale/ParDo(JaxDownscaleFn)+WriteZarr", [w] * 4, final)
    jm_teardown(b, t + 1, 1)
    truth = dict(
        outcome="failed",
        family="JAX / jaxlib version skew introduced by requirements.txt on top of a JAX GPU image",
        root_cause=("The custom container ships jax[cuda12] 0.4.38 (jaxlib 0.4.38 + CUDA plugin). The job also passes "
                    "--requirements_file with the research repo's pin jax==0.4.26, so at worker start pip replaces jax 0.4.38 with 0.4.26 "
                    "but leaves jaxlib 0.4.38 (pip's own resolver ERROR lines show the conflict). `import jax` in DoFn.setup then raises "
                    "'RuntimeError: jaxlib version 0.4.38 is newer than and incompatible with jax version 0.4.26' in both SDK processes on "
                    "every attempt. Fix: drop the jax pin from requirements.txt (or pin jax and jaxlib/jax-cuda12-plugin to the same version)."),
        setup="Batch, Beam 2.67.0, Python 3.11, a2-ultragpu-2g (2x A100 80GB), us-east5, 2 SDK processes (sdk_worker_parallelism=2), requirements_file on a custom JAX GPU container.",
        evidence=["RuntimeError: jaxlib version 0.4.38 is newer than and incompatible with jax version 0.4.26. Please update your jax and/or jaxlib packages.",
                  "Successfully uninstalled jax-0.4.38",
                  "Successfully installed jax-0.4.26",
                  "Collecting jax==0.4.26 (from -r /var/opt/google/staged/requirements.txt (line 3))"],
        red_herrings=["pip's 'dependency resolver ... conflicts' ERROR names orbax-checkpoint and chex, not jaxlib; the job fails on import jax, before those packages matter.",
                      "Two SDK processes report the same traceback for different bundles; it is one cause, not two.",
                      "benign kubelet/system ERROR lines."],
        sources=["'RuntimeError: jaxlib version X is newer than and incompatible with jax version Y. Please update your jax and/or jaxlib packages.' - google-deepmind/alphafold#1064, jax-ml/jax#17638, magenta/mt3#83; import frames through jax/_src/lib/__init__.py check_jaxlib_version - ayaka14732/TransCan#4",
                 "pip wording ('Attempting uninstall', 'Found existing installation', 'Successfully uninstalled', 'ERROR: pip's dependency resolver does not currently take into account all the packages that are installed...', '... requires ..., but you have ... which is incompatible.') - standard pip output seen in public logs",
                 "Beam harness frames - apache/beam PR #34675"],
        synthetic=["ids, names, versions of orbax/chex in the conflict lines, staged requirements path, timings, user log lines (fn.py), frame line numbers"])
    return b, truth, "gcloud"


# --------------------------------------------------------------------------
# hs7-10  CUDA_VISIBLE_DEVICES=-1 set by an imported helper -> TF runs on CPU
# --------------------------------------------------------------------------
def case10():
    cfg = dict(case="hs7-10", seed=710, start=(2025, 7, 22, 1, 5, 33), project="pellucid-media",
               resource_project="881203449176", region="us-west1", job_id="2025-07-21_18_05_30-1099328817447720634",
               job_name="caption-toxicity-backfill", vm_tag="s8vv", frac=9,
               site="/usr/local/lib/python3.12/site-packages")
    cfg["sdk_logger"] = "/srv/tox/score.py:20"
    b = Builder(cfg)
    site = cfg["site"]
    opts = base_opts(b, {"machine_type": "n1-standard-4", "max_num_workers": 25, "disk_size_gb": 50,
                         "sdk_container_image": "us-west1-docker.pkg.dev/pellucid-media/beam/tf-tox:2.69.0",
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "dataflow_service_options": ["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"],
                         "sdk_location": "container"})
    jm_start(b, 0, "n1-standard-4", "us-west1-b", 1, maxw=25,
             first_op="ReadCaptions/Read+Score/RunInference/BeamML_RunInference+WriteScores/WriteToBigQuery")
    ws = [b.vm(s) for s in ["a1aa", "m4kz", "w9co"]]
    vm_boot(b, ws[0], 49)
    jm_workers_up(b, 121)
    for i, w in enumerate(ws):
        tt = 150 + i * 380
        if i > 0:
            vm_boot(b, w, tt - 40)
        harness_start(b, w, tt, "sdk-0-0", {"text": opts_text(opts)})
        b.docker(tt + 0.5, w, "GPU 0: Tesla T4 (UUID: GPU-%s-%s-%s-%s-%s)" % (b.rid(8, HEX), b.rid(4, HEX), b.rid(4, HEX), b.rid(4, HEX), b.rid(12, HEX)), False)
        b.worker(tt + 1, w, "textprep: forcing CPU for tokenization helpers (CUDA_VISIBLE_DEVICES=-1)", logger="/srv/tox/textprep.py:14")
        tfl = [
            "{TF}: I tensorflow/core/util/port.cc:153] oneDNN custom operations are on. You may see slightly different numerical results due to floating-point round-off errors from different computation orders. To turn them off, set the environment variable `TF_ENABLE_ONEDNN_OPTS=0`.",
            "{TF}: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:485] Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered",
            "{TF}: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:8454] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered",
            "{TF}: E external/local_xla/xla/stream_executor/cuda/cuda_blas.cc:1452] Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered",
            "{TF}: E external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:274] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected",
            "{TF}: I external/local_xla/xla/stream_executor/cuda/cuda_diagnostics.cc:137] retrieving CUDA diagnostic information for host: {HOST}",
            "{TF}: I external/local_xla/xla/stream_executor/cuda/cuda_diagnostics.cc:144] hostname: {HOST}",
            "{TF}: I external/local_xla/xla/stream_executor/cuda/cuda_diagnostics.cc:168] libcuda reported version is: 550.90.7",
            "{TF}: I external/local_xla/xla/stream_executor/cuda/cuda_diagnostics.cc:172] kernel reported version is: 550.90.7",
            "{TF}: I external/local_xla/xla/stream_executor/cuda/cuda_diagnostics.cc:259] kernel version seems to match DSO: 550.90.7",
        ]
        for k, l in enumerate(tfl):
            b.docker(tt + 3 + k * 0.01, w, l.replace("{HOST}", w))
        b.worker(tt + 4, w, "TensorFlow 2.17.1; GPUs visible to TensorFlow: []", logger="/srv/tox/score.py:27")
        b.worker(tt + 5, w, "Loaded SavedModel gs://pellucid-ml/tox/caption-tox-v5 in 6.4s", logger="/srv/tox/score.py:31")
        b.worker(tt + 310, w, "Operation ongoing in bundle process_bundle-%d for PTransform{name=Score/RunInference/BeamML_RunInference, state=process-msecs} for at least 300.41 seconds without outputting or completing.\nCurrent Traceback:\n"
                 '  File "%s/tensorflow/python/eager/execute.py", line 53, in quick_execute\n    tensors = pywrap_tfe.TFE_Py_Execute(ctx._handle, device_name, op_name,\n' % (700 + i, site),
                 "WARNING", logger=site + "/apache_beam/runners/worker/worker_status.py:250")
        b.worker(tt + 330, w, "Scored 12800 captions in 327.9s (39.0/s)", logger="/srv/tox/score.py:58")
    b.jm(420, "Autoscaling: Raised the number of workers to 25 based on the rate of progress in the currently running stage(s).")
    b.jm(421, "Starting 24 workers in us-west1-b...")
    for k in range(8):
        b.worker(1300 + k * 410, ws[k % 3], "Scored 12800 captions in %0.1fs (%0.1f/s)" % (318 + k * 3.3, 12800 / (318 + k * 3.3)), logger="/srv/tox/score.py:58")
    b.jm(10350, "Executing operation WriteScores/WriteToBigQuery/BigQueryBatchFileLoads/TriggerLoadJobsWithoutTempTables")
    b.jm(10900, "Executing operation WriteScores/WriteToBigQuery/BigQueryBatchFileLoads/WaitForDestinationLoadJobs")
    jm_teardown(b, 11200, 25)
    truth = dict(
        outcome="succeeded_on_cpu",
        family="GPU hidden from the framework by CUDA_VISIBLE_DEVICES=-1 set in user code (silent CPU fallback)",
        root_cause=("A helper module (textprep.py) imported by the DoFn sets os.environ['CUDA_VISIBLE_DEVICES'] = '-1' to keep its "
                    "tokenization on CPU, before TensorFlow is imported. TensorFlow therefore sees no device: cuInit fails with "
                    "CUDA_ERROR_NO_DEVICE even though the T4 and the 550.90 driver are present ('kernel version seems to match DSO', "
                    "nvidia-smi -L lists the Tesla T4), and the model runs on CPU. Nothing fails; the job takes ~3 hours, scales to 25 "
                    "workers and pays for 25 idle T4s. Fix: do not set CUDA_VISIBLE_DEVICES process-wide (use tf.device('/CPU:0') for the "
                    "helper)."),
        setup="Batch, Beam 2.69.0, Python 3.12, n1-standard-4 + 1x Tesla T4, us-west1, up to 25 workers, TensorFlow 2.17 RunInference (TFModelHandler).",
        evidence=["textprep: forcing CPU for tokenization helpers (CUDA_VISIBLE_DEVICES=-1)",
                  "failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected",
                  "kernel version seems to match DSO: 550.90.7",
                  "GPUs visible to TensorFlow: []",
                  "GPU 0: Tesla T4 (UUID: GPU-"],
        red_herrings=["TF's ERROR-severity cuFFT/cuDNN/cuBLAS factory registration lines are routine.",
                      "'Operation ongoing ... for at least 300.41 seconds' is just slow CPU inference; bundles complete.",
                      "The job finishes normally and Worker pool stopped; the only signals are the CPU lines and throughput."],
        sources=["'failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected' (external/local_xla path) - reference file 2e3; numba/numba#5793 (CUDA_VISIBLE_DEVICES=-1 cause); chainer/chainer PR #2245",
                 "cuda_diagnostics lines 'retrieving CUDA diagnostic information for host', 'hostname:', 'libcuda reported version is:', 'kernel reported version is:', 'kernel version seems to match DSO:' with external/local_xla paths - public TF log (2025-05) found with find_string; tensorflow/tensorflow#16860",
                 "TF oneDNN / factory registration lines - public TF 2.16-2.17 logs found with find_string",
                 "Beam lull wording - apache/beam worker_status.py; nvidia-smi -L format 'GPU 0: Tesla T4 (UUID: GPU-...)'"],
        synthetic=["ids, names, GPU UUID, timings, throughput, user log lines (textprep.py, score.py)"])
    return b, truth, "sink_ndjson"


# --------------------------------------------------------------------------
# hs7-11  healthy: JAX batch on A100 80GB with XLA stderr noise
# --------------------------------------------------------------------------
def case11():
    cfg = dict(case="hs7-11", seed=711, start=(2026, 5, 4, 12, 0, 19), project="brightwater-genomics",
               resource_project="brightwater-genomics", region="us-central1", job_id="2026-05-04_05_00_16-8812330597100347265",
               job_name="variant-effect-jax-scoring", vm_tag="j2rc", frac=6,
               site="/usr/local/lib/python3.12/site-packages")
    cfg["sdk_logger"] = "/app/vep/score_fn.py:44"
    b = Builder(cfg)
    site = cfg["site"]
    opts = base_opts(b, {"machine_type": "a2-ultragpu-1g", "max_num_workers": 2, "disk_size_gb": 150,
                         "sdk_container_image": "us-central1-docker.pkg.dev/brightwater-genomics/beam/vep-jax:2.70.0",
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "dataflow_service_options": ["worker_accelerator=type:nvidia-a100-80gb;count:1;install-nvidia-driver:latest"],
                         "sdk_location": "container"})
    jm_start(b, 0, "a2-ultragpu-1g", "us-central1-c", 1, maxw=2,
             first_op="ReadVariants/Read+Score/ParDo(JaxScoreFn)+WriteScores/WriteToParquet")
    w = b.vm("pe6d")
    vm_boot(b, w, 60)
    jm_workers_up(b, 131)
    harness_start(b, w, 150, "sdk-0-0", {"text": opts_text(opts), "discard": "['--dataflow_service_options=worker_accelerator=type:nvidia-a100-80gb;count:1;install-nvidia-driver:latest']"})
    ul = "/app/vep/score_fn.py:"
    b.worker(152, w, "Pipeline options (resolved): %s" % opts_text(opts), "DEBUG", logger=ul + "38")
    b.worker(153, w, "jax 0.5.3, jaxlib 0.5.3, devices=[CudaDevice(id=0)]", logger=ul + "46")
    b.docker(154, w, "{TF}: W external/xla/xla/service/gpu/nvptx_compiler.cc:930] The NVIDIA driver's CUDA version is 12.4 which is older than the PTX compiler version 12.8.93. Because the driver is older than the PTX compiler version, XLA is disabling parallel compilation, which may slow down compilation. You should update your NVIDIA driver or use the NVIDIA-provided CUDA forward compatibility packages.")
    b.worker(155, w, "Memory plan: batch 1024 x 4096 would need ~91 GiB (out of memory on 80 GB); using batch 512 (~46 GiB)", logger=ul + "61")
    b.worker(470, w, "Operation ongoing in bundle process_bundle-101 for PTransform{name=Score/ParDo(JaxScoreFn), state=process-msecs} for at least 301.27 seconds without outputting or completing.\nCurrent Traceback:\n"
             '  File "/usr/local/lib/python3.12/threading.py", line 1032, in _bootstrap\n    self._bootstrap_inner()\n'
             '  File "%s/jax/_src/compiler.py", line 267, in backend_compile\n    return backend.compile(built_c, compile_options=options)\n' % site,
             "WARNING", logger=site + "/apache_beam/runners/worker/worker_status.py:250")
    b.worker(520, w, "jit compile of score_batch took 361.4s (first call)", logger=ul + "70")
    t = 525.0
    for k in range(40):
        b.worker(t + 0.5, w, "Writing gs://brightwater-vep/out/part-%05d.parquet" % k, "DEBUG", logger="/app/vep/io.py:33")
        if k % 4 == 0:
            b.docker(t, w, "{TF}: E external/xla/xla/stream_executor/cuda/cuda_timer.cc:86] Delay kernel timed out: measured time has sub-optimal accuracy. There may be a missing warmup execution, please investigate in Nsight Systems.")
        b.worker(t + 1, w, "Scored shard %03d/040: 250000 variants in %.1fs" % (k + 1, 14 + b.rng.random() * 3), logger=ul + "88")
        if k == 12:
            b.worker(t + 2, w, "Retrying upload of gs://brightwater-vep/out/part-00012.parquet after 503 Service Unavailable (attempt 1/5)", "WARNING", logger="/app/vep/io.py:41")
            b.worker(t + 4, w, "Upload of part-00012.parquet succeeded on attempt 2", logger="/app/vep/io.py:47")
        t += 16.5
    b.jm(t + 5, "Executing operation WriteScores/WriteToParquet/Write/WriteImpl/FinalizeWrite")
    jm_teardown(b, t + 30, 1)
    truth = dict(
        outcome="succeeded",
        family="healthy (noise only)",
        root_cause=("No failure. JAX found the A100 (devices=[CudaDevice(id=0)]), compiled the scoring function once (361 s, which "
                    "triggered one 'Operation ongoing' lull warning) and scored all 40 shards; the job finished and the worker pool was torn "
                    "down normally. XLA's 'driver older than PTX compiler ... disabling parallel compilation' and 'Delay kernel timed out' "
                    "stderr lines are performance/timing advisories, the user's 'out of memory on 80 GB' text is a planning message, and the "
                    "one GCS 503 upload was retried successfully."),
        setup="Batch, Beam 2.70.0, Python 3.12, a2-ultragpu-1g (1x A100 80GB), us-central1, JAX 0.5.3, one SDK process.",
        evidence=["devices=[CudaDevice(id=0)]", "Worker pool stopped.", "Upload of part-00012.parquet succeeded on attempt 2",
                  "Scored shard 040/040"],
        red_herrings=["XLA 'The NVIDIA driver's CUDA version is 12.4 which is older than the PTX compiler version ...' (stderr -> ERROR).",
                      "'Delay kernel timed out: measured time has sub-optimal accuracy' E-lines (stderr -> ERROR).",
                      "'Operation ongoing ... for at least 301.27 seconds' during the first jit compile.",
                      "User INFO text containing 'out of memory'.",
                      "'Retrying upload ... after 503 Service Unavailable' WARNING followed by success.",
                      "benign kubelet/system ERROR lines."],
        sources=["XLA ptxas/driver advisory - jax-ml/jax#19821, google/brax#488, conda-forge/tensorflow-feedstock#417 (PTX compiler variant)",
                 "'Delay kernel timed out: measured time has sub-optimal accuracy. There may be a missing warmup execution, please investigate in Nsight Systems.' - XLA cuda_timer.cc, public JAX/TF logs found with find_string",
                 "Beam lull wording - apache/beam worker_status.py; job-message and host chatter - reference file 2i and common-errors"],
        synthetic=["ids, names, timings, all user log lines (score_fn.py, io.py)"])
    return b, truth, "gcloud"


# --------------------------------------------------------------------------
# hs7-12  healthy: streaming zero-shot classification on T4 with Hub/tokenizers noise
# --------------------------------------------------------------------------
def case12():
    cfg = dict(case="hs7-12", seed=712, start=(2025, 8, 28, 7, 15, 0), project="kestrel-reviews",
               resource_project="kestrel-reviews", region="europe-west2", job_id="2025-08-28_00_14_57-3901827765512093340",
               job_name="review-topics-stream", vm_tag="e1lw", frac=3, streaming=True,
               site="/usr/local/lib/python3.10/site-packages")
    cfg["sdk_logger"] = "/opt/topics/fn.py:30"
    b = Builder(cfg)
    site = cfg["site"]
    opts = base_opts(b, {"machine_type": "n1-standard-8", "max_num_workers": 4, "disk_size_gb": 50,
                         "sdk_container_image": "europe-west2-docker.pkg.dev/kestrel-reviews/beam/topics:2.63.0",
                         "experiments": ["use_runner_v2", "enable_streaming_engine", "no_use_multiple_sdk_containers"],
                         "dataflow_service_options": ["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"],
                         "input_subscription": "projects/kestrel-reviews/subscriptions/reviews-topics", "sdk_location": "container"})
    jm_start(b, 0, "n1-standard-8", "europe-west2-b", 1, streaming=True, maxw=4,
             first_op="ReadReviews/Read+Classify/ParDo(ZeroShotFn)+WriteTopics")
    w = b.vm("v6ta")
    vm_boot(b, w, 57)
    jm_workers_up(b, 126)
    harness_start(b, w, 140, "sdk-0-0", {"text": opts_text(opts)})
    hub = site + "/huggingface_hub/"
    b.worker(142, w, "HTTP Error 429 thrown while requesting HEAD https://huggingface.co/MoritzLaurer/deberta-v3-large-zeroshot-v2.0/resolve/main/tokenizer_config.json",
             "WARNING", logger=hub + "utils/_http.py:304")
    b.worker(142.01, w, "Retrying in 1s [Retry 1/5].", "WARNING", logger=hub + "utils/_http.py:317")
    b.worker(143.4, w, "Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed. Falling back to regular HTTP download. For better performance, install the package with: `pip install huggingface_hub[hf_xet]` or `pip install hf_xet`",
             "WARNING", logger=hub + "file_download.py:1688")
    b.worker(175, w, "Device set to use cuda:0", "WARNING", logger=site + "/transformers/pipelines/base.py:1015")
    b.worker(176, w, "GPU memory after load: 1.7 GiB used of 14.6 GiB; batch 32 leaves ample headroom (no out of memory risk)", logger="/opt/topics/fn.py:44")
    b.docker(177, w, "huggingface/tokenizers: The current process just got forked, after parallelism has already been used. Disabling parallelism to avoid deadlocks...")
    b.docker(177.001, w, "To disable this warning, you can either:")
    b.docker(177.002, w, "\t- Avoid using `tokenizers` before the fork if possible")
    b.docker(177.003, w, "\t- Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)")
    b.worker(178, w, "Some weights of DebertaV2ForSequenceClassification were not initialized from the model checkpoint at /opt/topics/calibration-head and are newly initialized: ['pooler.dense.bias', 'pooler.dense.weight']\nYou should probably TRAIN this model on a down-stream task to be able to use it for predictions and inference.",
             "WARNING", logger=site + "/transformers/modeling_utils.py:5065")
    b.worker(178.5, w, "calibration head pooler weights unused by ZeroShotFn (labels come from the NLI head); ignoring init warning", "DEBUG", logger="/opt/topics/fn.py:51")
    t = 200.0
    for k in range(44):
        b.worker(t, w, "window %s: classified %d reviews in %.2fs (p50 %.0f ms)" % ("07:%02d" % ((18 + k) % 60), 180 + b.rng.randrange(0, 60), 2 + b.rng.random(), 40 + b.rng.random() * 12),
                 logger="/opt/topics/fn.py:77")
        if k == 19:
            b.worker(t + 3, w, "Caught error when writing batch to Bigtable: 503 Deadline Exceeded (will retry 1/3)", "ERROR", logger="/opt/topics/sink.py:66")
            b.worker(t + 6, w, "Bigtable write retried successfully (attempt 2)", logger="/opt/topics/sink.py:71")
        if k == 30:
            b.jm(t + 1, "Autoscaling: Raised the number of workers to 2 so that the pipeline can catch up with its backlog and keep up with its input rate.")
            b.jm(t + 2, "Starting 1 workers in europe-west2-b...")
            w2 = b.vm("3kqa")
            vm_boot(b, w2, t + 40)
            harness_start(b, w2, t + 95, "sdk-0-0", {"text": opts_text(opts)})
            b.worker(t + 120, w2, "Device set to use cuda:0", "WARNING", logger=site + "/transformers/pipelines/base.py:1015")
        t += 60
    truth = dict(
        outcome="succeeded",
        family="healthy (noise only)",
        root_cause=("No failure. The streaming job loads the zero-shot DeBERTa model on the T4 ('Device set to use cuda:0') and classifies "
                    "every window. One Hub HEAD got 429 and was retried successfully, hf_xet is an advisory, the tokenizers fork notice "
                    "is stderr (ERROR severity), 'Device set to use cuda:0' is a WARNING-level notice, the 'Some weights ... newly initialized' warning concerns "
                    "an unused pooler, a Bigtable write was retried and succeeded, and autoscaling added a second worker for backlog."),
        setup="Streaming (Streaming Engine), Beam 2.63.0, Python 3.10, n1-standard-8 + 1x Tesla T4, europe-west2, transformers zero-shot pipeline.",
        evidence=["Device set to use cuda:0", "Bigtable write retried successfully (attempt 2)", "classified"],
        red_herrings=["'HTTP Error 429 thrown while requesting HEAD ...' + 'Retrying in 1s [Retry 1/5].' (a single retry that succeeded).",
                      "tokenizers fork warning on stderr (ERROR).",
                      "'Some weights of DebertaV2ForSequenceClassification were not initialized ... You should probably TRAIN this model' WARNING.",
                      "user ERROR 'Caught error when writing batch to Bigtable: 503 Deadline Exceeded (will retry 1/3)' followed by success.",
                      "user INFO containing 'no out of memory risk'.",
                      "benign kubelet/system ERROR lines."],
        sources=["Hub 429 retry lines - public logs (find_string 'HTTP Error 429 thrown while requesting'); hf_xet advisory - axolotl-ai-cloud/axolotl#2481",
                 "'Device set to use cuda:0' - transformers pipeline output in public notebooks/READMEs (find_string)",
                 "tokenizers fork warning - public logs (find_string); 'Some weights of ... were not initialized from the model checkpoint at ... You should probably TRAIN this model ...' - transformers modeling_utils wording in public logs",
                 "streaming job-message wording - reference file 2i"],
        synthetic=["ids, names, timings, all user log lines (fn.py, sink.py)"])
    return b, truth, "explorer"


CASES = [case01, case02, case03, case04, case05, case06, case07, case08, case09, case10, case11, case12]
EXT = {"gcloud": "export.json", "explorer": "export.json", "sink_ndjson": "export.ndjson", "sink_ndjson_gz": "export.ndjson.gz"}


# --------------------------------------------------------------------------
# Serialisation
# --------------------------------------------------------------------------
def serialize(entries, shape):
    if shape == "gcloud":
        return (json.dumps(entries, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    if shape == "explorer":
        return (json.dumps(entries, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    raw = "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in entries).encode("utf-8")
    if shape == "sink_ndjson":
        return raw
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0) as gz:
        gz.write(raw)
    return buf.getvalue()


def parse(data, shape):
    if shape == "sink_ndjson_gz":
        data = gzip.decompress(data)
    text = data.decode("utf-8")
    if shape in ("gcloud", "explorer"):
        return json.loads(text)
    return [json.loads(l) for l in text.splitlines() if l.strip()]


def yaml_str(s):
    return json.dumps(s, ensure_ascii=False)


def truth_yaml(case, job, truth):
    out = ["case: %s" % case, "job:", "  id: %s" % yaml_str(job["id"]), "  name: %s" % yaml_str(job["name"])]
    for k in ("outcome", "family", "root_cause", "setup"):
        out.append("%s: %s" % (k, yaml_str(truth[k])))
    for k in ("evidence", "red_herrings", "sources", "synthetic"):
        out.append("%s:" % k)
        for item in truth[k]:
            out.append("  - %s" % yaml_str(item))
    return ("\n".join(out) + "\n").encode("utf-8")


def build_all():
    files = {}
    meta = {}
    for fn in CASES:
        b, truth, shape = fn()
        c = b.cfg
        newest_first = shape == "gcloud"
        entries = b.sorted_entries(newest_first)
        d = "cases/%s" % c["case"]
        files[d + "/" + EXT[shape]] = serialize(entries, shape)
        files[d + "/truth.yaml"] = truth_yaml(c["case"], {"id": c["job_id"], "name": c["job_name"]}, truth)
        meta[c["case"]] = (shape, EXT[shape], truth)
    return files, meta


def payload_text(e):
    if "textPayload" in e:
        return e["textPayload"]
    jp = e.get("jsonPayload", {})
    return "\n".join(str(jp.get(k, "")) for k in ("message", "exception"))


def main():
    f1, meta = build_all()
    f2, _ = build_all()
    if f1 != f2 or any(hashlib.sha256(f1[k]).digest() != hashlib.sha256(f2[k]).digest() for k in f1):
        sys.exit("FAIL: two in-memory builds differ")
    for rel, data in f1.items():
        p = os.path.join(HERE, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as fh:
            fh.write(data)
    ok = True
    for rel, data in f1.items():
        with open(os.path.join(HERE, rel), "rb") as fh:
            if fh.read() != data:
                print("FAIL: re-read differs for", rel)
                ok = False
    print("build: two in-memory builds identical; %d files written and re-read identical" % len(f1))
    for case in sorted(meta):
        shape, ext, truth = meta[case]
        rel = "cases/%s/%s" % (case, ext)
        entries = parse(f1[rel], shape)
        n = len(entries)
        if not 100 <= n <= 250:
            print("FAIL: %s has %d entries (want 100-250)" % (case, n))
            ok = False
        texts = [payload_text(e) for e in entries]
        found = 0
        for ev in truth["evidence"]:
            if any(ev in t for t in texts):
                found += 1
            else:
                print("FAIL: %s evidence not found verbatim: %r" % (case, ev))
                ok = False
        sev = {}
        logs = {}
        for e in entries:
            s = e.get("severity", "DEFAULT")
            sev[s] = sev.get(s, 0) + 1
            ln = e["logName"].split("%2F")[-1]
            logs[ln] = logs.get(ln, 0) + 1
        order = ["DEFAULT", "DEBUG", "INFO", "NOTICE", "WARNING", "ERROR", "CRITICAL"]
        sev_s = " ".join("%s=%d" % (k, sev[k]) for k in order if k in sev)
        log_s = " ".join("%s=%d" % (k, logs[k]) for k in sorted(logs))
        print("%s  %-16s %-15s entries=%3d  evidence=%d/%d ok | severity: %s | logs: %s" % (
            case, ext, shape, n, found, len(truth["evidence"]), sev_s, log_s))
    if not ok:
        sys.exit("FAIL")
    print("all checks passed")


if __name__ == "__main__":
    main()
