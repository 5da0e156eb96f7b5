#!/usr/bin/env python3
"""Deterministic generator for the heldout-stacks-3 evaluation set.

Writes cases/hs3-NN/export.json (Cloud Logging LogEntry array, newest first) and
cases/hs3-NN/truth.yaml for 12 Dataflow GPU jobs, then checks the set.
Python 3 standard library only. Running it twice gives byte-identical output.
"""
import datetime as _dt
import hashlib
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "cases")

# ----------------------------------------------------------------------------
# Envelope helpers
# ----------------------------------------------------------------------------

B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


class Case:
    def __init__(self, cid, job_name, job_id, project, region, start, seed,
                 project_number=None):
        self.cid = cid
        self.job_name = job_name
        self.job_id = job_id
        self.project = project
        self.project_number = project_number
        self.region = region
        self.start = start  # datetime, UTC
        self.rng = random.Random(seed)
        self.entries = []
        self.seq = 0
        self.workers = {}
        self.boot_ns = {}

    # -- ids / times -------------------------------------------------------
    def _ts(self, t, digits=9):
        base = self.start + _dt.timedelta(seconds=int(t))
        frac = int((t - int(t)) * 1e9) + self.rng.randrange(0, 4000000)
        frac = min(frac, 999999999)
        s = "%09d" % frac
        s = s[:digits]
        if digits < 9:
            s = s.rstrip("0") or "0"
        return base.strftime("%Y-%m-%dT%H:%M:%S") + "." + s + "Z", base, frac

    def _rcv(self, t):
        d = t + 0.2 + self.rng.random() * 2.5
        ts, _, _ = self._ts(d, 9)
        return ts

    def worker(self, name):
        if name not in self.workers:
            self.workers[name] = str(self.rng.randrange(10 ** 18, 10 ** 19))
            self.boot_ns[name] = "".join(self.rng.choice("0123456789abcdef") for _ in range(32))
        return name

    def _add(self, e, t):
        self.seq += 1
        e["_sort"] = (t, self.seq)
        self.entries.append(e)

    def _dataflow_labels(self):
        return {
            "dataflow.googleapis.com/job_id": self.job_id,
            "dataflow.googleapis.com/job_name": self.job_name,
            "dataflow.googleapis.com/region": self.region,
        }

    def _resource(self, step_id="", use_number=False):
        return {
            "type": "dataflow_step",
            "labels": {
                "job_id": self.job_id,
                "job_name": self.job_name,
                "project_id": (self.project_number if (use_number and self.project_number) else self.project),
                "region": self.region,
                "step_id": step_id,
            },
        }

    # -- job-message -------------------------------------------------------
    def jm(self, t, sev, text):
        ts, _, _ = self._ts(t, 9)
        labels = self._dataflow_labels()
        labels["dataflow.googleapis.com/log_type"] = "system"
        e = {
            "textPayload": text,
            "insertId": "".join(self.rng.choice(B36) for _ in range(self.rng.choice([11, 12]))),
            "resource": self._resource("", use_number=True),
            "timestamp": ts,
            "severity": sev,
            "labels": labels,
            "logName": "projects/%s/logs/dataflow.googleapis.com%%2Fjob-message" % self.project,
            "receiveTimestamp": self._rcv(t),
        }
        self._add(e, t)

    def _worker_labels(self, w):
        labels = {
            "compute.googleapis.com/resource_type": "instance",
            "compute.googleapis.com/resource_name": w,
            "compute.googleapis.com/resource_id": self.workers[w],
        }
        labels.update(self._dataflow_labels())
        return labels

    # -- worker / harness / worker-startup (jsonPayload) -------------------
    def js(self, t, sev, msg, w, log="worker", logger=None, line=None, sdk=None,
           thread=None, step_id=""):
        self.worker(w)
        ts, _, _ = self._ts(t, self.rng.choice([6, 9]))
        payload = {"job": self.job_id, "logger": logger or "root", "message": msg}
        if line:
            payload["line"] = line
        if thread:
            payload["thread"] = thread
        payload["worker"] = w
        if sdk:
            payload["portability_worker_id"] = sdk
        e = {
            "insertId": "".join(self.rng.choice("0123456789abcdefghijklmnopqrstuvwxyz") for _ in range(14)),
            "jsonPayload": payload,
            "resource": self._resource(step_id),
            "timestamp": ts,
            "severity": sev,
            "labels": self._worker_labels(w),
            "logName": "projects/%s/logs/dataflow.googleapis.com%%2F%s" % (self.project, log),
            "receiveTimestamp": self._rcv(t),
        }
        self._add(e, t)

    # -- docker / kubelet / system (textPayload) ---------------------------
    def tx(self, t, sev, text, w, log="docker"):
        self.worker(w)
        ts, base, frac = self._ts(t, 6)
        if log == "system":
            usec = int(base.timestamp()) * 1000000 + frac // 1000
            iid = "s=%s;i=%x;b=%s;m=%x;t=%x;x=%s" % (
                "".join(self.rng.choice("0123456789abcdef") for _ in range(32)),
                self.rng.randrange(100, 90000), self.boot_ns[w],
                self.rng.randrange(10 ** 6, 10 ** 10), usec,
                "".join(self.rng.choice("0123456789abcdef") for _ in range(16)))
        else:
            iid = "".join(self.rng.choice(B36) for _ in range(self.rng.choice([13, 15])))
        e = {
            "textPayload": text,
            "insertId": iid,
            "resource": self._resource(""),
            "timestamp": ts,
            "severity": sev,
            "labels": self._worker_labels(w),
            "logName": "projects/%s/logs/dataflow.googleapis.com%%2F%s" % (self.project, log),
            "receiveTimestamp": self._rcv(t),
        }
        self._add(e, t)

    def export(self):
        def k(e):
            main, frac = e["timestamp"].rstrip("Z").split(".")
            return (main, int(frac.ljust(9, "0")), e["_sort"])
        ents = sorted(self.entries, key=k, reverse=True)
        out = []
        for e in ents:
            e = dict(e)
            del e["_sort"]
            out.append(e)
        return out


def vm_name(job_name, stamp, rng):
    short = job_name[:25].rstrip("-")
    mid = "".join(rng.choice(B36) for _ in range(4))
    return lambda: "%s-%s-%s-harness-%s" % (
        short, stamp, mid, "".join(rng.choice(B36) for _ in range(4)))


# ----------------------------------------------------------------------------
# Shared Beam / Dataflow wording
# ----------------------------------------------------------------------------

SDKW = "apache_beam.runners.worker.sdk_worker_main"
SDKWK = "apache_beam.runners.worker.sdk_worker"


def job_start(c, t, machine, zone, consumers, nworkers=1, debug=True):
    """Normal job-message start sequence. Returns time after 'Starting N workers'."""
    c.jm(t, "INFO", "Worker configuration: %s in %s." % (machine, zone))
    t += 1.1
    c.jm(t, "INFO", "Expanding SplittableParDo operations into optimizable parts.")
    c.jm(t + 0.05, "INFO", "Expanding CoGroupByKey operations into optimizable parts.")
    c.jm(t + 0.09, "INFO", "Expanding GroupByKey operations into optimizable parts.")
    c.jm(t + 0.15, "INFO", "Lifting ValueCombiningMappingFns into MergeBucketsMappingFns")
    c.jm(t + 0.22, "INFO", "Annotating graph with Autotuner information.")
    c.jm(t + 0.31, "INFO", "Fusing adjacent ParDo, Read, Write, and Flatten operations")
    tt = t + 0.35
    for a, b in zip(consumers, consumers[1:]):
        c.jm(tt, "INFO", "Fusing consumer %s into %s" % (b, a))
        tt += 0.02
    t = tt + 0.2
    if debug:
        c.jm(t, "DEBUG", "Workflow config is missing a default resource spec.")
        c.jm(t + 0.03, "DEBUG", "Adding StepResource setup and teardown to workflow graph.")
        c.jm(t + 0.06, "DEBUG", "Adding workflow start and stop steps.")
        c.jm(t + 0.09, "DEBUG", "Assigning stage ids.")
    t += 0.6
    c.jm(t, "INFO", "Executing operation %s" % "+".join(consumers))
    c.jm(t + 0.2, "DEBUG", "Starting worker pool setup.")
    c.jm(t + 0.4, "INFO", "Starting %d workers in %s..." % (nworkers, zone))
    return t + 0.5


def job_teardown(c, t, n, failed=False):
    c.jm(t, "INFO", "Cleaning up.")
    c.jm(t + 0.1, "DEBUG", "Starting worker pool teardown.")
    c.jm(t + 0.2, "INFO", "Stopping worker pool...")
    c.jm(t + 121.4, "INFO", "Autoscaling: Resized worker pool from %d to 0." % n)
    c.jm(t + 121.5, "INFO", "Worker pool stopped.")
    c.jm(t + 121.7, "DEBUG", "Tearing down pending resources...")


def vm_boot(c, t, w, driver="550.90.07", cos_benign=True):
    """System / kubelet / worker-startup lines of a GPU worker VM boot."""
    c.tx(t, "INFO", "ima: No architecture policies found", w, "system")
    c.tx(t + 0.4, "INFO", "ima: Can not allocate sha384 (reason: -2)", w, "system")
    c.tx(t + 6.2, "INFO", "Installing GPU driver version %s" % driver, w, "system")
    c.tx(t + 58.9, "INFO", "Verifying GPU driver installation", w, "system")
    c.tx(t + 61.3, "INFO", "Finished installing the drivers.", w, "system")
    hh = (c.start + _dt.timedelta(seconds=t + 64)).strftime("%m%d %H:%M:%S")
    c.tx(t + 64.0, "ERROR",
         'E%s.%06d    1148 plugins.go:615] "Error initializing dynamic plugin prober" err="error (re-)creating driver directory: mkdir /usr/libexec/kubernetes: read-only file system"'
         % (hh, c.rng.randrange(10 ** 6)), w, "kubelet")
    c.tx(t + 64.6, "INFO",
         'I%s.%06d    1148 kubelet.go:2339] "Skipping pod synchronization" err="container runtime status check may not have completed yet"'
         % (hh, c.rng.randrange(10 ** 6)), w, "kubelet")


def boot_sdk(c, t, w, sdk, extra_artifacts=(), pip_lines=()):
    """boot.go lines of the Python SDK container (worker-startup)."""
    L = "boot.go"
    c.js(t, "INFO", "Initializing python harness: /opt/apache/beam/boot --id=%s --provision_endpoint=localhost:12372" % sdk,
         w, "worker-startup", L, None, sdk)
    c.js(t + 0.3, "INFO", "Initializing temporary Python venv in /opt/apache/beam-venv/beam-venv-worker-%s" % sdk,
         w, "worker-startup", L, None, sdk)
    c.js(t + 4.1, "INFO", "Found artifact: submission_environment_dependencies.txt", w, "worker-startup", L, None, sdk)
    tt = t + 4.2
    for a in extra_artifacts:
        c.js(tt, "INFO", "Found artifact: %s" % a, w, "worker-startup", L, None, sdk)
        tt += 0.1
    c.js(tt + 0.2, "INFO", "Installing setup packages ...", w, "worker-startup", L, None, sdk)
    tt += 0.4
    for p in pip_lines:
        c.js(tt, "INFO", p, w, "worker-startup", L, None, sdk)
        tt += 2.7
    c.js(tt + 1.0, "INFO", "Executing Python (worker %s): python -m apache_beam.runners.worker.sdk_worker_main" % sdk,
         w, "worker-startup", L, None, sdk)
    return tt + 1.0


def sdk_harness_start(c, t, w, sdk, options):
    """Python SDK harness start-up lines (worker log)."""
    L = SDKW
    c.js(t, "INFO", "Logging handler created.", w, "worker", L, "sdk_worker_main.py:115", sdk, "MainThread")
    c.js(t + 0.01, "INFO", "semi_persistent_directory: /var/opt/google", w, "worker", L, "sdk_worker_main.py:124", sdk, "MainThread")
    c.js(t + 0.05, "INFO", "Status HTTP server running at localhost:%d" % c.rng.randrange(33000, 45000), w, "worker", L,
         "sdk_worker_main.py:147", sdk, "MainThread")
    c.js(t + 0.08, "WARNING", "Discarding unparseable args: ['--direct_runner_use_stacked_bundle', '--pipeline_type_check']",
         w, "worker", "apache_beam.options.pipeline_options", "pipeline_options.py:395", sdk, "MainThread")
    c.js(t + 0.1, "INFO", "Python sdk harness started with pipeline_options: %s" % options, w, "worker", L,
         "sdk_worker_main.py:153", sdk, "MainThread")
    c.js(t + 0.12, "INFO", "Creating state cache with size 0", w, "worker", "apache_beam.runners.worker.statecache",
         "statecache.py:236", sdk, "MainThread")
    c.js(t + 0.14, "INFO", "Creating insecure control channel for localhost:12371.", w, "worker", SDKWK, "sdk_worker.py:188", sdk, "MainThread")
    c.js(t + 0.2, "INFO", "Control channel established.", w, "worker", SDKWK, "sdk_worker.py:196", sdk, "MainThread")
    c.js(t + 0.21, "INFO", "Initializing SDKHarness with unbounded number of workers.", w, "worker", SDKWK, "sdk_worker.py:243", sdk, "MainThread")
    c.js(t + 0.4, "INFO", "Creating insecure state channel for localhost:12371.", w, "worker", SDKWK, "sdk_worker.py:918", sdk, "Thread-12")
    c.js(t + 0.42, "INFO", "State channel established.", w, "worker", SDKWK, "sdk_worker.py:925", sdk, "Thread-12")
    c.js(t + 0.45, "INFO", "Creating client data channel for localhost:12371", w, "worker",
         "apache_beam.runners.worker.data_plane", "data_plane.py:814", sdk, "Thread-12")


def harness_lines(c, t, w):
    c.js(t, "INFO", "Starting Dataflow Runner Harness", w, "harness", "dataflow.harness", "harness.go:112")
    c.js(t + 0.7, "INFO", "Waiting for SDK harness connections", w, "harness", "dataflow.harness", "harness.go:241")
    c.js(t + 9.2, "INFO", "SDK harness sdk-0-0 connected", w, "harness", "dataflow.harness", "harness.go:266")


def opts(d):
    parts = []
    for k, v in d:
        parts.append("%r: %r" % (k, v))
    return "{" + ", ".join(parts) + "}"


def sp(py):
    return "/usr/local/lib/python%s/site-packages" % py


def outer_process_frames(py):
    s = sp(py)
    return (
        'Traceback (most recent call last):\n'
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute\n    response = task()\n'
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 386, in <lambda>\n    lambda: self.create_worker().do_instruction(request), request)\n'
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 650, in do_instruction\n    return getattr(self, request_type)(\n'
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 688, in process_bundle\n    bundle_processor.process_bundle(instruction_id))\n'
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1113, in process_bundle\n    input_op_by_transform_id[element.transform_id].process_encoded(\n'
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 237, in process_encoded\n    self.output(decoded_value)\n'
        '  File "apache_beam/runners/worker/operations.py", line 570, in apache_beam.runners.worker.operations.Operation.output\n'
        '  File "apache_beam/runners/worker/operations.py", line 572, in apache_beam.runners.worker.operations.Operation.output\n'
        '  File "apache_beam/runners/worker/operations.py", line 263, in apache_beam.runners.worker.operations.SingletonElementConsumerSet.receive\n'
        '  File "apache_beam/runners/worker/operations.py", line 950, in apache_beam.runners.worker.operations.DoOperation.process\n'
        '  File "apache_beam/runners/worker/operations.py", line 951, in apache_beam.runners.worker.operations.DoOperation.process\n'
        '  File "apache_beam/runners/common.py", line 1500, in apache_beam.runners.common.DoFnRunner.process\n'
        '  File "apache_beam/runners/common.py", line 1581, in apache_beam.runners.common.DoFnRunner._reraise_augmented\n'
        '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process\n'
        '  File "apache_beam/runners/common.py", line 685, in apache_beam.runners.common.SimpleInvoker.invoke_process\n'
    ) % (s, s, s, s, s, s)


def process_tb(py, inner, exc, step):
    """Beam double traceback for an exception raised in DoFn.process."""
    first = ('Traceback (most recent call last):\n'
             '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process\n'
             '  File "apache_beam/runners/common.py", line 685, in apache_beam.runners.common.SimpleInvoker.invoke_process\n'
             + inner + exc + "\n")
    second = outer_process_frames(py) + inner + exc + " [while running '%s']\n" % step
    return first + "\nDuring handling of the above exception, another exception occurred:\n\n" + second


def setup_tb(py, inner, exc, step):
    """Beam double traceback for an exception raised in DoFn.setup."""
    s = sp(py)
    first = ('Traceback (most recent call last):\n'
             '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method\n'
             '  File "apache_beam/runners/common.py", line 602, in apache_beam.runners.common.DoFnInvoker.invoke_setup\n'
             + inner + exc + "\n")
    second = ('Traceback (most recent call last):\n'
              '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute\n    response = task()\n'
              '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 386, in <lambda>\n    lambda: self.create_worker().do_instruction(request), request)\n'
              '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 650, in do_instruction\n    return getattr(self, request_type)(\n'
              '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 681, in process_bundle\n    bundle_processor = self.bundle_processor_cache.get(\n'
              '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 468, in get\n    processor = bundle_processor.BundleProcessor(\n'
              '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1042, in __init__\n    op.setup(self.data_sampler)\n'
              '  File "apache_beam/runners/worker/operations.py", line 873, in apache_beam.runners.worker.operations.DoOperation.setup\n'
              '  File "apache_beam/runners/worker/operations.py", line 923, in apache_beam.runners.worker.operations.DoOperation.setup\n'
              '  File "apache_beam/runners/common.py", line 1608, in apache_beam.runners.common.DoFnRunner.setup\n'
              '  File "apache_beam/runners/common.py", line 1604, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method\n'
              '  File "apache_beam/runners/common.py", line 1581, in apache_beam.runners.common.DoFnRunner._reraise_augmented\n'
              '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method\n'
              '  File "apache_beam/runners/common.py", line 602, in apache_beam.runners.common.DoFnInvoker.invoke_setup\n'
              ) % (s, s, s, s, s, s)
    second += inner + exc + " [while running '%s']\n" % step
    return first + "\nDuring handling of the above exception, another exception occurred:\n\n" + second


def err_instr(c, t, w, sdk, tb):
    iid = "process_bundle-%d" % c.rng.randrange(10 ** 18, 9 * 10 ** 18)
    c.tx(t, "ERROR", tb, w, "docker")
    c.js(t + 0.01, "ERROR", "Error processing instruction %s. Original traceback is\n%s\n" % (iid, tb),
         w, "worker", SDKWK, "sdk_worker.py:315", sdk, "Thread-%d" % c.rng.randrange(14, 40))
    c.jm(t + 2.5, "ERROR", "Error message from worker: " + tb)


FOUR_TIMES = ("The job failed because a work item has failed 4 times. Look in previous log entries for the cause of each one "
              "of the 4 failures. If the logs only contain generic timeout errors related to accessing external resources, "
              "such as MongoDB, verify that the worker service account has permission to access the resource's subnetwork. "
              "For more information, see https://cloud.google.com/dataflow/docs/guides/common-errors. The work item was "
              "attempted on these workers: \n\n")


def workflow_failed(stage, attempts):
    body = "".join("      Root cause: %s\n      Worker ID: %s,\n" % (rc, w) for w, rc in attempts)
    return "Workflow failed. Causes: %s failed., %s%s" % (stage, FOUR_TIMES, body.rstrip(",\n"))


# ----------------------------------------------------------------------------
# Reused real texts (see truth.yaml sources of each case)
# ----------------------------------------------------------------------------

HF_UNAUTH = ("Warning: You are sending unauthenticated requests to the HF Hub. Please set a HF_TOKEN to enable higher rate "
             "limits and faster downloads.")
KUBELET_PROBER = ('Error initializing dynamic plugin prober" err="error (re-)creating driver directory: mkdir '
                  '/usr/libexec/kubernetes: read-only file system')
IMA = "ima: Can not allocate sha384 (reason: -2)"
SDK_DISC = ("SDK harness %s disconnected. This usually means that the process running the pipeline code has crashed. "
            "Inspect the Worker Logs and the Diagnostics tab to determine the cause of the crash.")
TOKEN_MISMATCH = "Unable to fetch data due to token mismatch for key"


def ongoing(c, t, w, sdk, secs, step, frames):
    c.js(t, "WARNING", "Operation ongoing for over %.2f seconds in state process-msecs in step %s  without returning. "
         "Current Traceback:\n%s" % (secs, step, frames), w, "worker", SDKWK, "sdk_worker.py:792", sdk,
         "Thread-%d" % c.rng.randrange(14, 40))


# ----------------------------------------------------------------------------
# Case builders
# ----------------------------------------------------------------------------

CASES = []


def case(fn):
    CASES.append(fn)
    return fn


def T(y, mo, d, h, mi, s):
    return _dt.datetime(y, mo, d, h, mi, s, tzinfo=_dt.timezone.utc)


# ---------------------------------------------------------------- hs3-01 host OOM
@case
def hs3_01():
    py = "3.11"
    c = Case("hs3-01", "support-summarizer-batch-1114", "2026-11-14_02_07_41-7718250339915046210",
             "helio-support-ml", "us-central1", T(2026, 11, 14, 10, 7, 44), 101, "318554012967")
    mk = vm_name(c.job_name, "11140207", c.rng)
    w1 = c.worker(mk())
    zone = "us-central1-a"
    steps = ["ReadTickets/Read/Impulse", "ReadTickets/Read/Map(<lambda at iobase.py:911>)",
             "ReadTickets/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process", "BatchTickets/ParDo(_GlobalWindowsBatchingDoFn)",
             "Summarize", "WriteSummaries/Write/WriteImpl/WriteBundles"]
    t = job_start(c, 0, "g2-standard-4", zone, steps)
    c.jm(t + 40, "INFO", "Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).")
    vm_boot(c, t + 30, w1)
    c.jm(t + 131, "INFO", "Workers have started successfully.")
    c.jm(t + 150, "INFO", "All workers have finished the startup processes and began to receive work requests.")
    harness_lines(c, t + 96, w1)
    options = opts([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name), ("region", c.region),
        ("temp_location", "gs://helio-support-ml-dataflow/tmp"), ("machine_type", "g2-standard-4"),
        ("dataflow_service_options", ["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver:5xx"]),
        ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("sdk_container_image", "us-central1-docker.pkg.dev/helio-support-ml/beam/summarizer:2.61.0-py311-cu124"),
        ("number_of_worker_harness_threads", 1), ("save_main_session", True), ("max_num_workers", 4)])
    model_frames = (
        '  File "/usr/local/lib/python3.11/site-packages/summarizer/dofns.py", line 41, in setup\n'
        '    self.model = AutoModelForCausalLM.from_pretrained(MODEL_DIR)\n')
    tt = t + 100
    for attempt in range(1, 5):
        tt = boot_sdk(c, tt, w1, "sdk-0-0", ("requirements.txt", "workflow.tar.gz") if attempt == 1 else ("workflow.tar.gz",))
        sdk_harness_start(c, tt + 2.1, w1, "sdk-0-0", options)
        u = tt + 3.5
        c.js(u, "INFO", "Loading model from /opt/models/Mistral-7B-Instruct-v0.3 (torch_dtype=None, device_map=None)", w1,
             "worker", "summarizer.dofns", "dofns.py:38", "sdk-0-0", "Thread-14", "s5")
        c.tx(u + 0.4, "ERROR", "Special tokens have been added in the vocabulary, make sure the associated word embeddings are fine-tuned or trained.", w1)
        c.tx(u + 0.9, "ERROR", "Loading checkpoint shards:   0%|          | 0/3 [00:00<?, ?it/s]", w1)
        c.tx(u + 47.3, "ERROR", "Loading checkpoint shards:  33%|███▎      | 1/3 [00:46<01:32, 46.38s/it]", w1)
        pid = 2817 + attempt * 611
        kt = u + 71.0 + attempt
        rss = 15642300 + attempt * 1731
        c.tx(kt, "INFO", "python invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0", w1, "system")
        c.tx(kt + 0.01, "INFO", "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,"
             "task_memcg=/kubepods/besteffort/pod5e1f0c2a/%s,task=python,pid=%d,uid=0"
             % ("".join(c.rng.choice("0123456789abcdef") for _ in range(16)), pid), w1, "system")
        c.tx(kt + 0.02, "INFO", "Out of memory: Killed process %d (python) total-vm:%dkB, anon-rss:%dkB, file-rss:%dkB, "
             "shmem-rss:8kB, UID:0 pgtables:%dkB oom_score_adj:0" % (pid, rss + 9144012, rss, 41200 + attempt, 31240 + attempt * 3),
             w1, "system")
        c.tx(kt + 0.5, "INFO", "oom_reaper: reaped process %d (python), now anon-rss:0kB, file-rss:0kB, shmem-rss:8kB" % pid, w1, "system")
        if attempt < 4:
            c.js(kt + 0.9, "WARNING", "Python (worker sdk-0-0) exited %d times: signal: killed\nrestarting SDK process" % attempt,
                 w1, "worker-startup", "boot.go", None, "sdk-0-0")
        else:
            c.js(kt + 0.9, "ERROR", "Python (worker sdk-0-0) exited 4 times: signal: killed\nout of retries, failing container",
                 w1, "worker-startup", "boot.go", None, "sdk-0-0")
        c.js(kt + 1.4, "ERROR", "SDK harness sdk-0-0 disconnected", w1, "harness", "dataflow.harness", "harness.go:388")
        c.jm(kt + 4.0, "ERROR", "Error message from worker: " + SDK_DISC % "sdk-0-0")
        tt = kt + 6.0
    c.jm(tt + 3, "ERROR", workflow_failed(
        "S02:ReadTickets/Read/Impulse+ReadTickets/Read/Map(<lambda at iobase.py:911>)+BatchTickets/ParDo(_GlobalWindowsBatchingDoFn)+Summarize",
        [(w1, SDK_DISC % "sdk-0-0")] * 4))
    job_teardown(c, tt + 4, 1, True)
    truth = dict(
        outcome="failed", family="host-oom",
        root_cause=("Worker VM ran out of host RAM while the DoFn loaded Mistral-7B-Instruct with from_pretrained() in "
                    "float32 on the CPU (no torch_dtype / device_map, ~29 GB) on a g2-standard-4 (16 GB RAM); the kernel "
                    "OOM killer killed the SDK process during 'Loading checkpoint shards' four times (signal: killed), "
                    "so the work item failed 4 times. Fix: load in bfloat16/float16 straight to the GPU "
                    "(torch_dtype + device_map='cuda' / low_cpu_mem_usage) or use a larger machine such as g2-standard-16."),
        setup=dict(gpu="1x NVIDIA L4 (g2-standard-4, 16 GB RAM)", python="3.11", beam="2.61.0",
                   stack="transformers 4.46 + torch 2.5.1+cu124, Mistral-7B-Instruct-v0.3 loaded in a custom DoFn.setup",
                   region="us-central1"),
        evidence=["Out of memory: Killed process 3428 (python)",
                  "Python (worker sdk-0-0) exited 1 times: signal: killed",
                  "Loading model from /opt/models/Mistral-7B-Instruct-v0.3 (torch_dtype=None, device_map=None)",
                  "'machine_type': 'g2-standard-4'",
                  "Python (worker sdk-0-0) exited 4 times: signal: killed\nout of retries, failing container"],
        red_herrings=["Special tokens have been added in the vocabulary, make sure the associated word embeddings are fine-tuned or trained.",
                      KUBELET_PROBER, IMA,
                      "Discarding unparseable args: ['--direct_runner_use_stacked_bundle', '--pipeline_type_check']"],
        sources=[
            "dask/distributed#6110 — kernel OOM killer lines 'oom-kill:constraint=…', 'Out of memory: Killed process … total-vm … anon-rss …', 'oom_reaper: reaped process …'",
            "apache/beam sdks/python/container/boot.go — 'Python (worker %v) exited %v times: %v\\nrestarting SDK process' / '…out of retries, failing container', 'Executing Python (worker %v): python %v', 'Initializing python harness: %v', 'Found artifact: %s', 'Installing setup packages ...'",
            "apache/beam#26756 — job message 'SDK harness sdk-0-1 disconnected. This usually means that the process running the pipeline code has crashed. Inspect the Worker Logs and the Diagnostics tab to determine the cause of the crash.'",
            "Tele-AI/Telechat#52 — transformers progress line 'Loading checkpoint shards: 100%|…| 32/32 [00:12<00:00,  2.66it/s]'",
            "apache/beam#30482 — 'The job failed because a work item has failed 4 times. Look in previous log entries …'",
            "Dataflow docs common-errors (via /work/shared/reference/dataflow-log-signatures.md) — benign kubelet/ima lines; SDK harness start-up lines from jcbaey/dataflow_python_timer",
        ],
        synthetic=["Envelope (insertId, timestamps, labels, VM names, resource ids) generated",
                   "pids, kB figures and gfp_mask line values filled in; 'python invoked oom-killer' header line recalled kernel wording",
                   "user logger line 'Loading model from …' and the summarizer package are invented",
                   "'Special tokens have been added…' transformers warning recalled, not re-verified in this session",
                   "COS driver install lines placed in the system log (placement inferred); harness.go lines invented",
                   "job-message housekeeping lines beyond those quoted in the reference are recalled Dataflow wording"])
    return c, truth


# ---------------------------------------------------------------- hs3-02 healthy vLLM TP=2
@case
def hs3_02():
    py = "3.12"
    c = Case("hs3-02", "ticket-triage-llm-20261121", "2026-11-21_06_30_12-11873302459176610085",
             "northwind-genai", "us-east4", T(2026, 11, 21, 14, 30, 15), 202)
    mk = vm_name(c.job_name, "11210630", c.rng)
    w1 = c.worker(mk())
    w2 = c.worker(mk())
    zone = "us-east4-c"
    steps = ["ReadTickets/Read/Impulse", "ReadTickets/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process",
             "BuildPrompts", "Classify", "WriteLabels/ConvertToRow", "WriteLabels/StorageWriteApi/Write"]
    t = job_start(c, 0, "g2-standard-24", zone, steps)
    c.jm(t + 38, "INFO", "Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).")
    c.jm(t + 134, "INFO", "Workers have started successfully.")
    options = opts([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name), ("region", c.region),
        ("machine_type", "g2-standard-24"),
        ("dataflow_service_options", ["worker_accelerator=type:nvidia-l4;count:2;install-nvidia-driver:5xx"]),
        ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("sdk_container_image", "us-east4-docker.pkg.dev/northwind-genai/beam/triage-vllm:0.8.5-beam2.66"),
        ("max_num_workers", 2), ("disk_size_gb", 200)])
    for wi, w in enumerate([w1, w2]):
        base = t + 30 + wi * 640
        if wi == 1:
            c.jm(base - 5, "INFO", "Autoscaling: Raised the number of workers to 2 based on the rate of progress in the currently running stage(s).")
        vm_boot(c, base, w, "570.133.20")
        harness_lines(c, base + 66, w)
        tt = boot_sdk(c, base + 70, w, "sdk-0-0", ("workflow.tar.gz",))
        sdk_harness_start(c, tt + 2, w, "sdk-0-0", options)
        u = tt + 5
        lg, ln = "triage.llm", "llm.py:52"
        c.js(u, "INFO", "Starting vLLM engine: model=Qwen/Qwen2.5-14B-Instruct-AWQ tensor_parallel_size=2 max_model_len=8192", w,
             "worker", lg, ln, "sdk-0-0", "Thread-14", "s3")
        c.tx(u + 0.8, "ERROR", "Warning: You are sending unauthenticated requests to the HF Hub. Please set a HF_TOKEN to enable higher rate limits and faster downloads.", w)
        c.tx(u + 2.0, "ERROR", "INFO 11-21 %s [llm_engine.py:242] Initializing a V0 LLM engine (v0.8.5) with config: model='Qwen/Qwen2.5-14B-Instruct-AWQ', speculative_config=None, tokenizer='Qwen/Qwen2.5-14B-Instruct-AWQ', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, override_neuron_config=None, tokenizer_revision=None, trust_remote_code=False, dtype=torch.float16, max_seq_len=8192, download_dir=None, load_format=auto, tensor_parallel_size=2, pipeline_parallel_size=1, disable_custom_all_reduce=False, quantization=awq_marlin, enforce_eager=False, kv_cache_dtype=auto,  device_config=cuda" % ("14:%02d:41" % (36 + wi * 10)), w)
        c.tx(u + 3.1, "ERROR", "WARNING 11-21 14:%02d:42 [multiproc_worker_utils.py:306] Reducing Torch parallelism from 24 threads to 1 to avoid unnecessary CPU contention. Set OMP_NUM_THREADS in the external environment to tune this value as needed." % (36 + wi * 10), w)
        c.tx(u + 9.0, "ERROR", "(VllmWorkerProcess pid=%d) INFO 11-21 14:%02d:48 [__init__.py:1344] Found nccl from library libnccl.so.2" % (412 + wi, 36 + wi * 10), w)
        c.tx(u + 9.1, "ERROR", "(VllmWorkerProcess pid=%d) INFO 11-21 14:%02d:48 [pynccl.py:70] vLLM is using nccl==2.21.5" % (412 + wi, 36 + wi * 10), w)
        host = w.split("-harness-")[1]
        c.tx(u + 9.6, "INFO", "%s:%d:%d [0] NCCL INFO Channel 00 : 0[3000] -> 1[4000] via SHM/direct/direct" % (host, 301, 301), w)
        c.tx(u + 9.7, "INFO", "%s:%d:%d [0] NCCL INFO Connected all rings" % (host, 301, 301), w)
        c.tx(u + 9.8, "INFO", "%s:%d:%d [0] NCCL INFO comm 0x5581c3a2d0e0 rank 0 nranks 2 cudaDev 0 busId 3000 commId 0x7d1e3bf28a04c6e2 - Init COMPLETE" % (host, 301, 301), w)
        c.tx(u + 10.3, "ERROR", "WARNING 11-21 14:%02d:49 [custom_all_reduce.py:137] Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly." % (36 + wi * 10), w)
        c.tx(u + 30.0, "ERROR", "Loading safetensors checkpoint shards:  50% Completed | 1/2 [00:17<00:17, 17.02s/it]", w)
        c.tx(u + 44.0, "ERROR", "Loading safetensors checkpoint shards: 100% Completed | 2/2 [00:31<00:00, 15.64s/it]", w)
        c.tx(u + 44.5, "ERROR", "INFO 11-21 14:%02d:24 [model_runner.py:1146] Model loading took 4.8812 GB and 33.104219 seconds" % (37 + wi * 10), w)
        c.tx(u + 51.0, "ERROR", "INFO 11-21 14:%02d:31 [worker.py:267] the current vLLM instance can use total_gpu_memory (22.05GiB) x gpu_memory_utilization (0.90) = 19.84GiB" % (37 + wi * 10), w)
        c.tx(u + 51.1, "ERROR", "INFO 11-21 14:%02d:31 [worker.py:267] model weights take 4.88GiB; non_torch_memory takes 0.31GiB; PyTorch activation peak memory takes 1.43GiB; the rest of the memory reserved for KV Cache is 13.22GiB." % (37 + wi * 10), w)
        c.tx(u + 51.4, "ERROR", "INFO 11-21 14:%02d:31 [executor_base.py:111] # cuda blocks: 9026, # CPU blocks: 2730" % (37 + wi * 10), w)
        c.tx(u + 51.5, "ERROR", "INFO 11-21 14:%02d:31 [executor_base.py:116] Maximum concurrency for 8192 tokens per request: 17.63x" % (37 + wi * 10), w)
        c.tx(u + 53.0, "ERROR", "INFO 11-21 14:%02d:33 [model_runner.py:1442] Capturing cudagraphs for decoding. This may lead to unexpected consequences if the model is not static. To run the model in eager mode, set 'enforce_eager=True' or use '--enforce-eager' in the CLI. If out-of-memory error occurs during cudagraph capture, consider decreasing `gpu_memory_utilization` or switching to eager mode. You can also reduce the `max_num_seqs` as needed to decrease memory usage." % (37 + wi * 10), w)
        c.tx(u + 62.0, "ERROR", "INFO 11-21 14:%02d:42 [model_runner.py:1570] Graph capturing finished in 9 secs, took 0.54 GiB" % (37 + wi * 10), w)
        if wi == 0:
            ongoing(c, u + 300.2, w, "sdk-0-0", 300.18, "s3",
                    '  File "/usr/local/lib/python3.12/threading.py", line 1030, in _bootstrap\n    self._bootstrap_inner()\n'
                    '  File "/usr/local/lib/python3.12/site-packages/triage/llm.py", line 61, in setup\n    self.llm = LLM(**self.engine_args)\n')
        c.js(u + 64.0, "INFO", "vLLM engine ready in 59.1 s", w, "worker", lg, ln, "sdk-0-0", "Thread-14", "s3")
        for k in range(6):
            c.js(u + 120 + k * 95.0, "INFO", "Classified batch of 256 tickets in %.1f s" % (38.0 + c.rng.random() * 9), w,
                 "worker", lg, "llm.py:88", "sdk-0-0", "Thread-14", "s3")
        c.js(u + 200, "WARNING", TOKEN_MISMATCH, w, "harness", "dataflow.harness", "harness.go:512")
    end = t + 30 + 640 + 800
    c.jm(end, "INFO", "Finished operation %s" % "+".join(steps))
    job_teardown(c, end + 1, 2)
    truth = dict(
        outcome="succeeded", family="healthy",
        root_cause=("No failure. Batch job ran vLLM 0.8.5 with tensor_parallel_size=2 on 2x L4 per worker, finished all "
                    "operations and tore down normally. The ERROR-severity lines are vLLM/HF/NCCL INFO and WARNING output on "
                    "stderr; the custom-allreduce warning, the unauthenticated-HF warning and the 'Operation ongoing' "
                    "lull during the first engine start are harmless."),
        setup=dict(gpu="2x NVIDIA L4 (g2-standard-24)", python="3.12", beam="2.66.0",
                   stack="vLLM 0.8.5 (V0 engine, TP=2, AWQ) in a DoFn, NCCL over SHM", region="us-east4"),
        evidence=["Graph capturing finished in 9 secs, took 0.54 GiB",
                  "Finished operation ReadTickets/Read/Impulse",
                  "Autoscaling: Resized worker pool from 2 to 0.",
                  "NCCL INFO comm 0x5581c3a2d0e0 rank 0 nranks 2 cudaDev 0 busId 3000 commId 0x7d1e3bf28a04c6e2 - Init COMPLETE"],
        red_herrings=["Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly.",
                      HF_UNAUTH,
                      "Operation ongoing for over 300.18 seconds in state process-msecs in step s3  without returning.",
                      "Reducing Torch parallelism from 24 threads to 1 to avoid unnecessary CPU contention.",
                      "If out-of-memory error occurs during cudagraph capture, consider decreasing `gpu_memory_utilization` or switching to eager mode.",
                      KUBELET_PROBER, TOKEN_MISMATCH],
        sources=[
            "vllm-project/vllm#4383 — 'Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly.' and NCCL INFO lines ('… via SHM/direct/direct', 'Connected all rings', '… Init COMPLETE')",
            "vllm-project/vllm#14452 — 'Reducing Torch parallelism from 20 threads to 1 to avoid unnecessary CPU contention. Set OMP_NUM_THREADS in the external environment to tune this value as needed.'",
            "vllm-project/vllm PR #11348 / #28910 — 'Found nccl from library libnccl.so.2', 'vLLM is using nccl==2.21.5'",
            "SystemPanic/vllm-windows#6 and generative-computing/mellea PR #416 — vLLM 0.8 V0 lines (Model loading took …, worker.py memory profile, # cuda blocks, Maximum concurrency, Capturing cudagraphs …, Graph capturing finished in …)",
            "vllm-project/vllm#8031 — 'Initializing a V0 LLM engine (v0.8.3) with config: …'",
            "vllm-project/vllm#38820 — 'Loading safetensors checkpoint shards:  56% Completed | 5/9 [00:13<00:11,  2.87s/it]'",
            "huggingface_hub (seen in many repos, e.g. vLLM logs) — 'Warning: You are sending unauthenticated requests to the HF Hub. Please set a HF_TOKEN to enable higher rate limits and faster downloads.'",
            "apache/beam sdk_worker.py — 'Operation ongoing for over %.2f seconds in state %s' + ' in step %s ' + ' without returning. Current Traceback:'",
            "Dataflow docs common-errors (via reference file) — benign kubelet prober line and 'Unable to fetch data due to token mismatch for key'",
        ],
        synthetic=["Envelope generated; vLLM timestamps, pids, block counts and memory figures filled in",
                   "NCCL host:pid prefixes and comm ids filled in",
                   "user logger lines (triage.llm) invented; harness.go lines invented",
                   "'Finished operation …' / teardown job-messages follow the reference's real sequence; fused step names invented"])
    return c, truth


# ---------------------------------------------------------------- hs3-03 GCS 403 on model weights
@case
def hs3_03():
    py = "3.10"
    c = Case("hs3-03", "fraud-image-scoring-1109", "2026-11-09_21_44_03-4410938271106652991",
             "lumen-risk-prod", "europe-west4", T(2026, 11, 10, 5, 44, 6), 303, "482913377120")
    mk = vm_name(c.job_name, "11092144", c.rng)
    w1 = c.worker(mk())
    zone = "europe-west4-a"
    steps = ["ReadReceipts/Read/Impulse", "ReadReceipts/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process",
             "DecodeImages", "RunInference/BeamML_RunInference", "WriteScores/Write/WriteImpl/WriteBundles"]
    t = job_start(c, 0, "n1-standard-8", zone, steps)
    c.jm(t + 41, "INFO", "Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).")
    c.jm(t + 128, "INFO", "Workers have started successfully.")
    vm_boot(c, t + 28, w1, "550.90.07")
    harness_lines(c, t + 94, w1)
    options = opts([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name), ("region", c.region),
        ("service_account_email", "df-scoring@lumen-risk-prod.iam.gserviceaccount.com"),
        ("machine_type", "n1-standard-8"),
        ("dataflow_service_options", ["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"]),
        ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("sdk_container_image", "europe-west4-docker.pkg.dev/lumen-risk-prod/beam/scoring:2.58.1-py310"),
        ("model_state_dict", "gs://lumen-ml-registry-models/resnet50/v12/model_state.pt")])
    s = sp(py)
    url = "https://storage.googleapis.com/storage/v1/b/lumen-ml-registry-models/o/resnet50%2Fv12%2Fmodel_state.pt?prettyPrint=false"
    exc = ("google.api_core.exceptions.Forbidden: 403 GET %s: df-scoring@lumen-risk-prod.iam.gserviceaccount.com does not have "
           "storage.objects.get access to the Google Cloud Storage object. Permission 'storage.objects.get' denied on resource "
           "(or it may not exist).") % url
    inner = (
        '  File "%s/apache_beam/ml/inference/base.py", line 1442, in setup\n    self._model = self._load_model()\n'
        '  File "%s/apache_beam/ml/inference/base.py", line 1411, in _load_model\n    model = self._shared_model_handle.acquire(load, tag=self._cur_tag)\n'
        '  File "%s/apache_beam/utils/shared.py", line 324, in acquire\n    return _shared_map.acquire(self._key, constructor_fn, tag)\n'
        '  File "%s/apache_beam/utils/shared.py", line 265, in acquire\n    result = control_block.acquire(constructor_fn, tag)\n'
        '  File "%s/apache_beam/utils/shared.py", line 158, in acquire\n    result = constructor_fn()\n'
        '  File "%s/apache_beam/ml/inference/base.py", line 1385, in load\n    model = self._model_handler.load_model()\n'
        '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 326, in load_model\n    model, device = _load_model(\n'
        '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 93, in _load_model\n    file = FileSystems.open(state_dict_path, \'rb\')\n'
        '  File "%s/apache_beam/io/filesystems.py", line 267, in open\n    return filesystem.open(path, mime_type, compression_type)\n'
        '  File "%s/apache_beam/io/gcp/gcsfilesystem.py", line 186, in open\n    return self._path_open(path, \'rb\', mime_type, compression_type)\n'
        '  File "%s/apache_beam/io/gcp/gcsio.py", line 246, in open\n    blob = bucket.get_blob(blob_name)\n'
        '  File "%s/google/cloud/storage/bucket.py", line 1302, in get_blob\n    blob.reload(\n'
        '  File "%s/google/cloud/_http/__init__.py", line 494, in api_request\n    raise exceptions.from_http_response(response)\n'
    ) % tuple([s] * 13)
    tb = setup_tb(py, inner, exc, "RunInference/BeamML_RunInference")
    tt = t + 98
    attempts = []
    for attempt in range(4):
        if attempt == 0:
            tt = boot_sdk(c, tt, w1, "sdk-0-0", ("requirements.txt", "workflow.tar.gz"))
            sdk_harness_start(c, tt + 2, w1, "sdk-0-0", options)
            c.js(tt + 3.0, "INFO", "torch 2.4.1+cu121 sees 1 CUDA device(s): Tesla T4", w1, "worker", "scoring.pipeline",
                 "pipeline.py:57", "sdk-0-0", "Thread-14")
            c.js(tt + 3.5, "WARNING", TOKEN_MISMATCH, w1, "harness", "dataflow.harness", "harness.go:512")
        u = tt + 6 + attempt * 48
        c.js(u, "INFO", "Loading state dict from gs://lumen-ml-registry-models/resnet50/v12/model_state.pt", w1, "worker",
             "scoring.pipeline", "pipeline.py:71", "sdk-0-0", "Thread-%d" % (14 + attempt), "s4")
        err_instr(c, u + 0.6, w1, "sdk-0-0", tb)
        attempts.append((w1, exc + " [while running 'RunInference/BeamML_RunInference']"))
    c.jm(tt + 200, "ERROR", workflow_failed(
        "S03:ReadReceipts/Read/Impulse+ReadReceipts/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process+DecodeImages+RunInference/BeamML_RunInference",
        attempts))
    job_teardown(c, tt + 201, 1, True)
    truth = dict(
        outcome="failed", family="permissions",
        root_cause=("The worker service account df-scoring@lumen-risk-prod.iam.gserviceaccount.com has no read permission "
                    "(storage.objects.get) on the model bucket gs://lumen-ml-registry-models, so RunInference's "
                    "PyTorchModelHandler fails in setup() with 403 Forbidden when opening the state dict; the work item "
                    "fails 4 times. Fix: grant roles/storage.objectViewer on the bucket (or copy the weights to a bucket "
                    "the worker SA can read)."),
        setup=dict(gpu="1x NVIDIA T4 (n1-standard-8)", python="3.10", beam="2.58.1",
                   stack="RunInference PyTorchModelHandlerTensor, torch 2.4.1+cu121, state dict on Cloud Storage",
                   region="europe-west4"),
        evidence=["does not have storage.objects.get access to the Google Cloud Storage object. Permission 'storage.objects.get' denied on resource (or it may not exist).",
                  "google.api_core.exceptions.Forbidden: 403 GET https://storage.googleapis.com/storage/v1/b/lumen-ml-registry-models/o/resnet50%2Fv12%2Fmodel_state.pt?prettyPrint=false",
                  "'service_account_email': 'df-scoring@lumen-risk-prod.iam.gserviceaccount.com'",
                  "Loading state dict from gs://lumen-ml-registry-models/resnet50/v12/model_state.pt"],
        red_herrings=[KUBELET_PROBER, IMA, TOKEN_MISMATCH,
                      "torch 2.4.1+cu121 sees 1 CUDA device(s): Tesla T4",
                      "Discarding unparseable args: ['--direct_runner_use_stacked_bundle', '--pipeline_type_check']"],
        sources=[
            "ansible-collections/google.cloud#575 — 'google.api_core.exceptions.Forbidden: 403 GET https://storage.googleapis.com/storage/v1/b/…?projection=noAcl&prettyPrint=false: … does not have storage.buckets.get access to the Google Cloud Storage bucket. Permission 'storage.buckets.get' denied on resource (or it may not exist).' (same exception shape; object variant below)",
            "salesforce/HIVE#15 and spaceml-org/STARCOP#6 — '… does not have storage.objects.get access to the Google Cloud Storage object. Permission 'storage.objects.get' denied on resource (or it may not exist).'",
            "apache/beam#22402 — real Dataflow traceback frames of RunInference setup (DoFnRunner._invoke_lifecycle_method, invoke_setup, base.py setup/_load_model, shared.py acquire, load_model)",
            "apache/beam sdk_worker.py _execute — 'Error processing instruction %s. Original traceback is\\n%s\\n'",
            "apache/beam gcsio.py (BeamBlobReader, bucket.get_blob) — read path to the object",
            "apache/beam#30482 — 'The job failed because a work item has failed 4 times …'",
        ],
        synthetic=["Envelope generated; line numbers inside Beam/google-cloud-storage frames are filled in, not copied",
                   "the object-level 403 line is assembled from the bucket-level (ansible#575) and object-level (HIVE#15) real wording with this case's bucket/SA",
                   "user logger lines (scoring.pipeline) invented",
                   "harness.go lines invented; job-message housekeeping partly recalled"])
    return c, truth


# ---------------------------------------------------------------- hs3-04 ORT CUDA EP -> CPU
@case
def hs3_04():
    py = "3.11"
    c = Case("hs3-04", "listing-dedupe-embeddings-1102", "2026-11-02_00_05_37-9923187410263384571",
             "parcelpoint-search", "us-central1", T(2026, 11, 2, 8, 5, 40), 404)
    mk = vm_name(c.job_name, "11020005", c.rng)
    ws = [c.worker(mk()) for _ in range(3)]
    zone = "us-central1-b"
    steps = ["ReadListings/Read/Impulse", "ReadListings/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process",
             "Tokenize", "RunInference/BeamML_RunInference", "ToRows", "WriteEmbeddings/StorageWriteApi/Write"]
    t = job_start(c, 0, "n1-standard-4", zone, steps)
    options = opts([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name), ("region", c.region),
        ("machine_type", "n1-standard-4"),
        ("dataflow_service_options", ["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"]),
        ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("sdk_container_image", "us-central1-docker.pkg.dev/parcelpoint-search/beam/embedder:2.63.0-torch231-cu121"),
        ("max_num_workers", 3)])
    c.jm(t + 40, "INFO", "Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).")
    c.jm(t + 131, "INFO", "Workers have started successfully.")
    for i, w in enumerate(ws):
        base = t + 30 + i * 900
        if i:
            c.jm(base - 4, "INFO", "Autoscaling: Raised the number of workers to %d based on the rate of progress in the currently running stage(s)." % (i + 1))
        vm_boot(c, base, w, "550.90.07")
        harness_lines(c, base + 66, w)
        tt = boot_sdk(c, base + 70, w, "sdk-0-0", ("workflow.tar.gz",))
        sdk_harness_start(c, tt + 2, w, "sdk-0-0", options)
        u = tt + 4
        lg = "embedder.model"
        c.js(u, "INFO", "torch.cuda.is_available()=True, device=Tesla T4, torch=2.3.1+cu121", w, "worker", lg, "model.py:30", "sdk-0-0", "Thread-14", "s4")
        d = (c.start + _dt.timedelta(seconds=u + 1.2)).strftime("%Y-%m-%d %H:%M:%S")
        c.tx(u + 1.2, "ERROR", "%s.%09d [E:onnxruntime:Default, provider_bridge_ort.cc:1546 TryGetProviderInfo_CUDA] /onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1209 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared object file: No such file or directory\n" % (d, c.rng.randrange(10 ** 9)), w)
        c.tx(u + 1.21, "ERROR", "%s.%09d [W:onnxruntime:Default, onnxruntime_pybind_state.cc:861 CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Please reference https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirementsto ensure all dependencies are met." % (d, c.rng.randrange(10 ** 9)), w)
        c.js(u + 1.6, "INFO", "ONNX Runtime session ready: model=gs://parcelpoint-search-models/e5-base-v2/model.onnx providers=['CPUExecutionProvider']",
             w, "worker", lg, "model.py:48", "sdk-0-0", "Thread-14", "s4")
        for k in range(7):
            c.js(u + 60 + k * 110, "INFO", "Embedded batch of 64 listings in %.1f s" % (41.0 + c.rng.random() * 12), w,
                 "worker", lg, "model.py:77", "sdk-0-0", "Thread-14", "s4")
        ongoing(c, u + 310, w, "sdk-0-0", 300.47 + i, "s4",
                '  File "/usr/local/lib/python3.11/site-packages/onnxruntime/capi/onnxruntime_inference_collection.py", line 220, in run\n'
                '    return self._sess.run(output_names, input_feed, run_options)\n')
    end = t + 30 + 2 * 900 + 950
    c.jm(end - 300, "INFO", "Autoscaling: Would further reduce the number of workers but reached the minimum number allowed for the job.")
    c.jm(end, "INFO", "Finished operation %s" % "+".join(steps))
    job_teardown(c, end + 1, 3)
    truth = dict(
        outcome="succeeded_on_cpu", family="cuda-library-mismatch",
        root_cause=("onnxruntime-gpu 1.17.0 from PyPI is the CUDA 11.8 build; the image ships CUDA 12 libraries (torch "
                    "2.3.1+cu121), so libonnxruntime_providers_cuda.so cannot load libcublasLt.so.11, the CUDA execution "
                    "provider is not created and every ONNX session silently runs on CPUExecutionProvider. The job "
                    "succeeds but the T4 GPUs sit idle and throughput is CPU-bound. Fix: install the CUDA 12 build of "
                    "onnxruntime-gpu (>=1.19 on PyPI, or the cuda-12 feed for 1.17/1.18) matching the image's CUDA/cuDNN."),
        setup=dict(gpu="1x NVIDIA T4 per worker (n1-standard-4), up to 3 workers", python="3.11", beam="2.63.0",
                   stack="RunInference OnnxModelHandlerNumpy, onnxruntime-gpu 1.17.0 + torch 2.3.1+cu121 in one image",
                   region="us-central1"),
        evidence=["Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared object file: No such file or directory",
                  "Failed to create CUDAExecutionProvider. Please reference https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirementsto ensure all dependencies are met.",
                  "providers=['CPUExecutionProvider']",
                  "'sdk_container_image': 'us-central1-docker.pkg.dev/parcelpoint-search/beam/embedder:2.63.0-torch231-cu121'"],
        red_herrings=["torch.cuda.is_available()=True, device=Tesla T4, torch=2.3.1+cu121",
                      "Operation ongoing for over 300.47 seconds in state process-msecs in step s4  without returning.",
                      KUBELET_PROBER, IMA],
        sources=[
            "stepfun-ai/Step-Audio-EditX#3 (onnxruntime-gpu 1.17.0) — '[E:onnxruntime:Default, provider_bridge_ort.cc:1546 TryGetProviderInfo_CUDA] /onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1209 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: …' and '[W:onnxruntime:Default, onnxruntime_pybind_state.cc:861 CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Please reference …#requirementsto ensure all dependencies are met.'",
            "microsoft/onnxruntime#21684 and fudan-generative-vision/hallo#203 — the default PyPI onnxruntime-gpu 1.17/1.18 wheel is the CUDA 11.x build; CUDA 12 needs the cuda-12 feed or >=1.19",
            "apache/beam sdk_worker.py — 'Operation ongoing for over … without returning. Current Traceback:'",
            "Dataflow docs (via reference file) — benign kubelet / ima lines; job-message autoscaling wording ('Autoscaling: Raised the number of workers to N based on the rate of progress …', 'Would further reduce the number of workers but reached the minimum …')",
        ],
        synthetic=["Envelope generated; ORT timestamps filled in",
                   "user logger lines (embedder.model) invented: the torch device line, the providers line and batch timings",
                   "harness.go lines invented; fused step names invented"])
    return c, truth


# ---------------------------------------------------------------- hs3-05 L4 quota (job-message only)
@case
def hs3_05():
    c = Case("hs3-05", "podcast-transcribe-asr-1201", "2026-12-01_11_03_27-16620918347126004418",
             "tidewater-media", "asia-southeast1", T(2026, 12, 1, 19, 3, 30), 505, "731904458812")
    steps = ["ListEpisodes/Read/Impulse", "ListEpisodes/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process",
             "FetchAudio", "Reshuffle/AddRandomKeys", "Reshuffle/ReshufflePerKey/Map(reify_timestamps)",
             "Reshuffle/ReshufflePerKey/GroupByKey/Write", "Reshuffle/ReshufflePerKey/GroupByKey/Read",
             "Reshuffle/ReshufflePerKey/FlatMap(restore_timestamps)", "Reshuffle/RemoveRandomKeys",
             "Transcribe", "WriteTranscripts/ConvertToRow", "WriteTranscripts/StorageWriteApi/Write"]
    zones = ["asia-southeast1-b", "asia-southeast1-c", "asia-southeast1-a"]
    c.jm(-2.0, "INFO", "The Dataflow RunnerV2 container image of this job's workers will be ready for update in 7 days.")
    t = job_start(c, 0, "g2-standard-8", zones[0], steps)
    c.jm(t + 0.2, "DEBUG", 'Value "Reshuffle/ReshufflePerKey/GroupByKey/Session" materialized.')
    c.jm(t + 0.3, "INFO", "Executing operation Reshuffle/ReshufflePerKey/GroupByKey/Create")
    stamp = "12011103"
    rng = c.rng
    tt = t + 40
    n = 0
    for rnd in range(9):
        for z in zones:
            inst = "podcast-transcribe-asr-1-%s-%s-harness-%s" % (stamp, "7k2m", "".join(rng.choice(B36) for _ in range(4)))
            c.jm(tt, "ERROR", "Startup of the worker pool in zone %s failed to bring up any of the desired 1 workers. "
                 "Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors#worker-pool-failure for help "
                 "troubleshooting. QUOTA_EXCEEDED: Instance '%s' creation failed: Quota 'NVIDIA_L4_GPUS' exceeded. Limit: "
                 "0.0 in region asia-southeast1." % (z, inst))
            n += 1
            tt += 55 + rng.random() * 30
            if rnd < 8 and z != zones[-1]:
                c.jm(tt - 20, "INFO", "Starting 1 workers in %s..." % zones[(zones.index(z) + 1) % 3])
        if rnd < 8:
            c.jm(tt - 10, "INFO", "Starting 1 workers in %s..." % zones[0])
    c.jm(tt + 5, "ERROR", "Workflow failed. Causes: Unable to bring up enough workers: minimum 1, actual 0. Please check your quota and retry later, or please try in a different zone.")
    c.jm(tt + 6, "INFO", "Cleaning up.")
    c.jm(tt + 6.1, "DEBUG", "Starting worker pool teardown.")
    c.jm(tt + 6.2, "INFO", "Stopping worker pool...")
    c.jm(tt + 9.5, "INFO", "Worker pool stopped.")
    c.jm(tt + 9.7, "DEBUG", "Tearing down pending resources...")
    truth = dict(
        outcome="failed", family="quota",
        root_cause=("The project has no NVIDIA_L4_GPUS quota in asia-southeast1 (limit 0.0), so every attempt to create the "
                    "g2-standard-8 worker fails with QUOTA_EXCEEDED in all zones and the job fails without any worker "
                    "starting. Fix: request NVIDIA_L4_GPUS quota in asia-southeast1 (or run in a region that has it); "
                    "changing zones does not help because the quota is regional."),
        setup=dict(gpu="1x NVIDIA L4 requested (g2-standard-8)", python="3.12", beam="2.68.0",
                   stack="speech-to-text DoFn (never started)", region="asia-southeast1"),
        evidence=["QUOTA_EXCEEDED: Instance 'podcast-transcribe-asr-1-12011103-7k2m-harness-",
                  "Quota 'NVIDIA_L4_GPUS' exceeded. Limit: 0.0 in region asia-southeast1.",
                  "Workflow failed. Causes: Unable to bring up enough workers: minimum 1, actual 0."],
        red_herrings=["Please check your quota and retry later, or please try in a different zone.",
                      "The Dataflow RunnerV2 container image of this job's workers will be ready for update in 7 days.",
                      "Workflow config is missing a default resource spec."],
        sources=[
            "google/dataflow-ml-starter README (via reference file §2c c6) — 'Startup of the worker pool in zone us-central1-a failed to bring up any of the desired 1 workers. Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors#worker-pool-failure for help troubleshooting. QUOTA_EXCEEDED: Instance '…-harness-ww4n' creation failed: Quota 'NVIDIA_T4_GPUS' exceeded. Limit: 32.0 in region us-central1.'",
            "GCE quota metric names incl. NVIDIA_L4_GPUS (reference file §2c c7); Dataflow L4 page: L4 jobs need NVIDIA_L4_GPUS quota",
            "GoogleCloudPlatform/cloudml-samples#54 — 'Workflow failed. Causes: … Unable to bring up enough workers: minimum 1, actual 0. Please check your quota and retry later, or please try in a different zone.'",
            "Reference file §2f f10 — 'The Dataflow RunnerV2 container image of this job's workers will be ready for update in 7 days.'; §2i normal job-message sequence",
            "google-research/text-to-text-transfer-transformer#986 — 'Value \"…/GroupByKey/Session\" materialized.'",
        ],
        synthetic=["Envelope generated; the NVIDIA_L4_GPUS sentence follows the real NVIDIA_T4_GPUS template with this case's metric/region (reference marks L4 variant as inferred)",
                   "number and spacing of retry attempts and the zone rotation are invented",
                   "instance names generated in Dataflow's pattern"])
    return c, truth


# ---------------------------------------------------------------- hs3-06 flash-attn on T4
@case
def hs3_06():
    py = "3.11"
    c = Case("hs3-06", "catalog-caption-rewrite-1118", "2026-11-18_15_20_50-5069361727719830412",
             "brightcart-content", "us-west1", T(2026, 11, 18, 23, 20, 53), 606)
    mk = vm_name(c.job_name, "11181520", c.rng)
    w1 = c.worker(mk())
    zone = "us-west1-b"
    steps = ["ReadProducts/Read/Impulse", "ReadProducts/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process",
             "BatchProducts/ParDo(_GlobalWindowsBatchingDoFn)", "RewriteCaptions", "WriteCaptions/Write/WriteImpl/WriteBundles"]
    t = job_start(c, 0, "n1-highmem-8", zone, steps)
    c.jm(t + 39, "INFO", "Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).")
    c.jm(t + 126, "INFO", "Workers have started successfully.")
    vm_boot(c, t + 29, w1, "550.90.07")
    harness_lines(c, t + 95, w1)
    options = opts([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name), ("region", c.region),
        ("machine_type", "n1-highmem-8"),
        ("dataflow_service_options", ["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"]),
        ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("sdk_container_image", "us-west1-docker.pkg.dev/brightcart-content/beam/captioner:2.64.0-fa2"),
        ("attn_implementation", "flash_attention_2")])
    s = sp(py)
    inner = (
        '  File "/usr/local/lib/python3.11/site-packages/captioner/rewrite.py", line 64, in process\n'
        '    out = self.model.generate(**enc, max_new_tokens=96, do_sample=False)\n'
        '  File "%s/torch/utils/_contextlib.py", line 116, in decorate_context\n    return func(*args, **kwargs)\n'
        '  File "%s/transformers/generation/utils.py", line 2255, in generate\n    result = self._sample(\n'
        '  File "%s/transformers/generation/utils.py", line 3254, in _sample\n    outputs = self(**model_inputs, return_dict=True)\n'
        '  File "%s/transformers/models/qwen2/modeling_qwen2.py", line 816, in forward\n    outputs = self.model(\n'
        '  File "%s/transformers/models/qwen2/modeling_qwen2.py", line 574, in forward\n    layer_outputs = decoder_layer(\n'
        '  File "%s/transformers/models/qwen2/modeling_qwen2.py", line 259, in forward\n    hidden_states, self_attn_weights = self.self_attn(\n'
        '  File "%s/transformers/models/qwen2/modeling_qwen2.py", line 191, in forward\n    attn_output, attn_weights = attention_interface(\n'
        '  File "%s/transformers/integrations/flash_attention.py", line 50, in flash_attention_forward\n    attn_output = _flash_attention_forward(\n'
        '  File "%s/transformers/modeling_flash_attention_utils.py", line 346, in _flash_attention_forward\n    attn_output_unpad = flash_attn_varlen_func(\n'
        '  File "%s/flash_attn/flash_attn_interface.py", line 1448, in flash_attn_varlen_func\n    return FlashAttnVarlenFunc.apply(\n'
        '  File "%s/torch/autograd/function.py", line 575, in apply\n    return super().apply(*args, **kwargs)  # type: ignore[misc]\n'
        '  File "%s/flash_attn/flash_attn_interface.py", line 930, in forward\n    out_padded, softmax_lse, S_dmask, rng_state = _wrapped_flash_attn_varlen_forward(\n'
        '  File "%s/flash_attn/flash_attn_interface.py", line 170, in _flash_attn_varlen_forward\n    out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.varlen_fwd(\n'
    ) % tuple([s] * 13)
    exc = "RuntimeError: FlashAttention only supports Ampere GPUs or newer."
    tb = process_tb(py, inner, exc, "RewriteCaptions")
    tt = boot_sdk(c, t + 99, w1, "sdk-0-0", ("requirements.txt", "workflow.tar.gz"))
    sdk_harness_start(c, tt + 2, w1, "sdk-0-0", options)
    u = tt + 4
    lg = "captioner.rewrite"
    c.js(u, "INFO", "Loading /opt/models/Qwen2.5-3B-Instruct with attn_implementation=flash_attention_2 torch_dtype=float16", w1,
         "worker", lg, "rewrite.py:39", "sdk-0-0", "Thread-14", "s4")
    c.tx(u + 0.6, "ERROR", "You are attempting to use Flash Attention 2.0 with a model not initialized on GPU. Make sure to move the model to GPU after initializing it on CPU with `model.to('cuda')`.", w1)
    c.tx(u + 1.0, "ERROR", "Loading checkpoint shards:   0%|          | 0/2 [00:00<?, ?it/s]", w1)
    c.tx(u + 9.0, "ERROR", "Loading checkpoint shards: 100%|██████████| 2/2 [00:07<00:00,  3.91s/it]", w1)
    c.js(u + 11.2, "INFO", "Model moved to cuda:0 (Tesla T4, compute capability 7.5)", w1, "worker", lg, "rewrite.py:47", "sdk-0-0", "Thread-14", "s4")
    attempts = []
    for attempt in range(4):
        v = u + 14 + attempt * 37
        c.tx(v, "ERROR", "Setting `pad_token_id` to `eos_token_id`:151643 for open-end generation.", w1)
        err_instr(c, v + 1.3, w1, "sdk-0-0", tb)
        attempts.append((w1, exc + " [while running 'RewriteCaptions']"))
    c.jm(u + 180, "ERROR", workflow_failed(
        "S02:ReadProducts/Read/Impulse+ReadProducts/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process+BatchProducts/ParDo(_GlobalWindowsBatchingDoFn)+RewriteCaptions",
        attempts))
    job_teardown(c, u + 181, 1, True)
    truth = dict(
        outcome="failed", family="gpu-arch-unsupported",
        root_cause=("The model is loaded with attn_implementation='flash_attention_2', but FlashAttention-2 kernels require an "
                    "Ampere (sm_80) or newer GPU and the workers have Tesla T4 (Turing, compute capability 7.5); the first "
                    "generate() raises 'FlashAttention only supports Ampere GPUs or newer.' on every attempt. Fix: use "
                    "attn_implementation='sdpa' (or eager) on T4, or switch the job to L4/A100 workers."),
        setup=dict(gpu="1x NVIDIA T4 (n1-highmem-8)", python="3.11", beam="2.64.0",
                   stack="transformers 4.48 + flash-attn 2.7 + torch 2.5.1, Qwen2.5-3B-Instruct in a custom DoFn",
                   region="us-west1"),
        evidence=["RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
                  "Model moved to cuda:0 (Tesla T4, compute capability 7.5)",
                  "Loading /opt/models/Qwen2.5-3B-Instruct with attn_implementation=flash_attention_2 torch_dtype=float16"],
        red_herrings=["You are attempting to use Flash Attention 2.0 with a model not initialized on GPU. Make sure to move the model to GPU after initializing it on CPU with `model.to('cuda')`.",
                      "Setting `pad_token_id` to `eos_token_id`:151643 for open-end generation.",
                      KUBELET_PROBER, IMA],
        sources=[
            "Dao-AILab/flash-attention#762 (T4 user, attn_implementation='flash_attention_2') and #1230 — 'RuntimeError: FlashAttention only supports Ampere GPUs or newer.'",
            "vllm-project/vllm#8189 — same RuntimeError text raised from the flash-attn kernel",
            "transformers (seen verbatim in several public logs, e.g. verl runs) — 'You are attempting to use Flash Attention 2.0 with a model not initialized on GPU. Make sure to move the model to GPU after initializing it on CPU with `model.to('cuda')`.'",
            "Tele-AI/Telechat#52 — 'Loading checkpoint shards: …' progress format",
            "apache/beam sdk_worker.py _execute — 'Error processing instruction %s. Original traceback is …'; apache/beam#30482 final failure wording",
        ],
        synthetic=["Envelope generated; frames inside transformers/flash_attn are reconstructed (function names plausible, line numbers invented)",
                   "'Setting `pad_token_id` to `eos_token_id`:… for open-end generation.' is recalled transformers wording, not re-verified this session",
                   "user logger lines (captioner.rewrite) invented; 'attn_implementation' custom option invented"])
    return c, truth


# ---------------------------------------------------------------- hs3-07 torch.compile no C compiler
@case
def hs3_07():
    py = "3.11"
    c = Case("hs3-07", "sensor-anomaly-score-1029", "2026-10-29_17_51_02-2281940417723961189",
             "gridline-ops-analytics", "us-central1", T(2026, 10, 30, 0, 51, 5), 707)
    mk = vm_name(c.job_name, "10291751", c.rng)
    w1 = c.worker(mk())
    zone = "us-central1-c"
    steps = ["ReadWindows/Read/Impulse", "ReadWindows/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process",
             "ToTensors", "ScoreAnomalies", "WriteScores/ConvertToRow", "WriteScores/StorageWriteApi/Write"]
    t = job_start(c, 0, "g2-standard-8", zone, steps)
    c.jm(t + 37, "INFO", "Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).")
    c.jm(t + 122, "INFO", "Workers have started successfully.")
    vm_boot(c, t + 27, w1, "570.133.20")
    harness_lines(c, t + 92, w1)
    options = opts([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name), ("region", c.region),
        ("machine_type", "g2-standard-8"),
        ("dataflow_service_options", ["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver:5xx"]),
        ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("sdk_container_image", "us-central1-docker.pkg.dev/gridline-ops-analytics/beam/anomaly:py311-slim-beam2.62-torch251"),
        ("compile_mode", "max-autotune")])
    s = sp(py)
    inner = (
        '  File "/usr/local/lib/python3.11/site-packages/anomaly/score.py", line 58, in process\n'
        '    scores = self.model(batch.to(self.device, non_blocking=True))\n'
        '  File "%s/torch/nn/modules/module.py", line 1736, in _wrapped_call_impl\n    return self._call_impl(*args, **kwargs)\n'
        '  File "%s/torch/nn/modules/module.py", line 1747, in _call_impl\n    return forward_call(*args, **kwargs)\n'
        '  File "%s/torch/_dynamo/eval_frame.py", line 465, in _fn\n    return fn(*args, **kwargs)\n'
        '  File "%s/torch/_dynamo/convert_frame.py", line 1269, in __call__\n    return self._torchdynamo_orig_callable(\n'
        '  File "%s/torch/_dynamo/convert_frame.py", line 526, in __call__\n    return _compile(\n'
        '  File "%s/torch/_dynamo/output_graph.py", line 1465, in _call_user_compiler\n    raise BackendCompilerFailed(self.compiler_fn, e) from e\n'
        '  File "%s/torch/_dynamo/output_graph.py", line 1446, in _call_user_compiler\n    compiled_fn = compiler_fn(gm, self.example_inputs())\n'
        '  File "%s/torch/_inductor/compile_fx.py", line 1521, in compile_fx\n    return aot_autograd(\n'
        '  File "%s/torch/_inductor/codecache.py", line 2959, in _worker_compile_triton\n    load_kernel().precompile(warm_cache_only=True)\n'
        '  File "%s/torch/_inductor/runtime/triton_heuristics.py", line 251, in precompile\n    compiled_binary, launcher = self._precompile_config(\n'
        '  File "%s/triton/backends/nvidia/driver.py", line 371, in __init__\n    mod = compile_module_from_src(src, "__triton_launcher")\n'
        '  File "%s/triton/backends/nvidia/driver.py", line 51, in compile_module_from_src\n    so = _build(name, src_path, tmpdir, library_dirs(), include_dir, libraries)\n'
        '  File "%s/triton/runtime/build.py", line 32, in _build\n'
        '    raise RuntimeError("Failed to find C compiler. Please specify via CC environment variable.")\n'
    ) % tuple([s] * 13)
    exc = ("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nRuntimeError: Failed to find C compiler. "
           "Please specify via CC environment variable.\n\nSet TORCH_LOGS=\"+dynamo\" and TORCHDYNAMO_VERBOSE=1 for more "
           "information\n\n\nYou can suppress this exception and fall back to eager by setting:\n    import torch._dynamo\n"
           "    torch._dynamo.config.suppress_errors = True")
    tb = process_tb(py, inner, exc, "ScoreAnomalies")
    tt = boot_sdk(c, t + 96, w1, "sdk-0-0", ("workflow.tar.gz",))
    sdk_harness_start(c, tt + 2, w1, "sdk-0-0", options)
    u = tt + 4
    lg = "anomaly.score"
    c.js(u, "INFO", "Compiling model with torch.compile(mode='max-autotune') on cuda:0 (NVIDIA L4)", w1, "worker", lg,
         "score.py:33", "sdk-0-0", "Thread-14", "s4")
    attempts = []
    for attempt in range(4):
        v = u + 3 + attempt * 52
        c.tx(v, "ERROR", "%s/torch/_inductor/compile_fx.py:167: UserWarning: TensorFloat32 tensor cores for float32 matrix multiplication available but not enabled. Consider setting `torch.set_float32_matmul_precision('high')` for better performance.\n  warnings.warn(" % s, w1)
        hh = (c.start + _dt.timedelta(seconds=v + 2)).strftime("%m%d %H:%M:%S")
        c.tx(v + 2.0, "ERROR", "W%s.%06d %d torch/_inductor/utils.py:1250] [0/0] Not enough SMs to use max_autotune_gemm mode" % (hh, c.rng.randrange(10 ** 6), 88 + attempt * 40), w1)
        err_instr(c, v + 9.5, w1, "sdk-0-0", tb)
        attempts.append((w1, "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nRuntimeError: Failed to find C compiler. Please specify via CC environment variable. [while running 'ScoreAnomalies']"))
    c.jm(u + 230, "ERROR", workflow_failed(
        "S02:ReadWindows/Read/Impulse+ReadWindows/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process+ToTensors+ScoreAnomalies",
        attempts))
    job_teardown(c, u + 231, 1, True)
    truth = dict(
        outcome="failed", family="toolchain-missing",
        root_cause=("The custom container is built on a python:3.11-slim base with no C compiler. torch.compile's Inductor "
                    "backend generates Triton kernels, and Triton must compile its CUDA launcher stub with a C compiler at "
                    "run time, so the first compiled call raises BackendCompilerFailed: 'Failed to find C compiler. Please "
                    "specify via CC environment variable.' on every attempt. Fix: install gcc (build-essential) in the image "
                    "or set CC, or disable torch.compile / fall back to eager."),
        setup=dict(gpu="1x NVIDIA L4 (g2-standard-8)", python="3.11", beam="2.62.0",
                   stack="torch 2.5.1 + triton 3.1 torch.compile(mode='max-autotune') in a custom DoFn, slim custom container",
                   region="us-central1"),
        evidence=["RuntimeError: Failed to find C compiler. Please specify via CC environment variable.",
                  "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:",
                  "'sdk_container_image': 'us-central1-docker.pkg.dev/gridline-ops-analytics/beam/anomaly:py311-slim-beam2.62-torch251'"],
        red_herrings=["TensorFloat32 tensor cores for float32 matrix multiplication available but not enabled. Consider setting `torch.set_float32_matmul_precision('high')` for better performance.",
                      "Not enough SMs to use max_autotune_gemm mode",
                      "You can suppress this exception and fall back to eager by setting:",
                      KUBELET_PROBER, IMA],
        sources=[
            "pytorch/pytorch#90768 (comment 2024-01-14) — 'raise RuntimeError(\"Failed to find C compiler. Please specify via CC environment variable.\")' / 'torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\\nRuntimeError: Failed to find C compiler. Please specify via CC environment variable.\\n\\nSet TORCH_LOGS=\"+dynamo\" and TORCHDYNAMO_VERBOSE=1 for more information\\n\\n\\nYou can suppress this exception and fall back to eager by setting:\\n    import torch._dynamo\\n    torch._dynamo.config.suppress_errors = True'",
            "kijai/ComfyUI-CogVideoXWrapper#328, MIC-DKFZ/nnUNet#2268 — same error in other stacks",
            "public training log (find_string hit, torch/_inductor/compile_fx.py) — 'UserWarning: TensorFloat32 tensor cores for float32 matrix multiplication available but not enabled. Consider setting `torch.set_float32_matmul_precision('high')` for better performance.' and 'W0915 … torch/_inductor/utils.py:1250] [0/2] Not enough SMs to use max_autotune_gemm mode'",
            "apache/beam sdk_worker.py _execute; apache/beam#30482 final failure wording",
        ],
        synthetic=["Envelope generated; frames inside torch/_dynamo, _inductor and triton are reconstructed (line numbers invented)",
                   "user logger lines (anomaly.score) and the 'compile_mode' option invented",
                   "image tag naming the slim base is invented (the only in-log hint of the missing compiler besides the error)"])
    return c, truth


# ---------------------------------------------------------------- hs3-08 healthy TF on T4
@case
def hs3_08():
    py = "3.11"
    c = Case("hs3-08", "product-image-tagging-1125", "2026-11-25_03_12_19-13385570216628019934",
             "meadowlark-retail", "us-central1", T(2026, 11, 25, 11, 12, 22), 808, "906251447713")
    mk = vm_name(c.job_name, "11250312", c.rng)
    ws = [c.worker(mk()) for _ in range(2)]
    zone = "us-central1-f"
    steps = ["ListImages/Read/Impulse", "ListImages/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process",
             "LoadAndResize", "RunInference/BeamML_RunInference", "TopK", "WriteTags/StorageWriteApi/Write"]
    t = job_start(c, 0, "n1-standard-8", zone, steps)
    options = opts([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name), ("region", c.region),
        ("machine_type", "n1-standard-8"),
        ("dataflow_service_options", ["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"]),
        ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("sdk_container_image", "us-central1-docker.pkg.dev/meadowlark-retail/beam/tagger:2.60.0-tf2.16.1"),
        ("max_num_workers", 2)])
    c.jm(t + 41, "INFO", "Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).")
    c.jm(t + 133, "INFO", "Workers have started successfully.")
    for i, w in enumerate(ws):
        base = t + 31 + i * 420
        if i:
            c.jm(base - 4, "INFO", "Autoscaling: Raised the number of workers to 2 based on the rate of progress in the currently running stage(s).")
        vm_boot(c, base, w, "550.90.07")
        harness_lines(c, base + 66, w)
        tt = boot_sdk(c, base + 70, w, "sdk-0-0", ("workflow.tar.gz",))
        sdk_harness_start(c, tt + 2, w, "sdk-0-0", options)
        u = tt + 3
        d = lambda x: (c.start + _dt.timedelta(seconds=x)).strftime("%Y-%m-%d %H:%M:%S") + ".%06d" % c.rng.randrange(10 ** 6)
        c.tx(u, "ERROR", "%s: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:9261] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered" % d(u), w)
        c.tx(u + 0.01, "ERROR", "%s: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:607] Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered" % d(u), w)
        c.tx(u + 0.02, "ERROR", "%s: E external/local_xla/xla/stream_executor/cuda/cuda_blas.cc:1515] Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered" % d(u), w)
        c.tx(u + 0.1, "ERROR", "%s: I tensorflow/core/platform/cpu_feature_guard.cc:182] This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations.\nTo enable the following instructions: AVX2 AVX512F FMA, in other operations, rebuild TensorFlow with the appropriate compiler flags." % d(u + 0.1), w)
        c.tx(u + 1.1, "ERROR", "%s: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT" % d(u + 1.1), w)
        c.tx(u + 2.3, "ERROR", "%s: I external/local_xla/xla/stream_executor/cuda/cuda_executor.cc:901] successful NUMA node read from SysFS had negative value (-1), but there must be at least one NUMA node, so returning NUMA node zero. See more at https://github.com/torvalds/linux/blob/v6.0/Documentation/ABI/testing/sysfs-bus-pci#L344-L355" % d(u + 2.3), w)
        c.tx(u + 2.9, "ERROR", "%s: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1928] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 13775 MB memory:  -> device: 0, name: Tesla T4, pci bus id: 0000:00:04.0, compute capability: 7.5" % d(u + 2.9), w)
        c.js(u + 3.5, "INFO", "Loaded SavedModel gs://meadowlark-retail-models/effnetv2-s/20261118 on /GPU:0", w, "worker",
             "tagger.model", "model.py:41", "sdk-0-0", "Thread-14", "s4")
        if i == 0:
            ongoing(c, u + 305, w, "sdk-0-0", 301.92, "s4",
                    '  File "/usr/local/lib/python3.11/site-packages/tensorflow/python/eager/polymorphic_function/polymorphic_function.py", line 878, in _call\n'
                    '    results = tracing_compilation.call_function(\n')
            c.js(u + 150, "WARNING", TOKEN_MISMATCH, w, "harness", "dataflow.harness", "harness.go:512")
        for k in range(8):
            c.js(u + 40 + k * 70, "INFO", "Tagged %d images (%.1f img/s)" % (512 * (k + 1), 61.0 + c.rng.random() * 8), w,
                 "worker", "tagger.pipeline", "pipeline.py:90", "sdk-0-0", "Thread-14", "s4")
    end = t + 31 + 420 + 760
    c.jm(end, "INFO", "Finished operation %s" % "+".join(steps))
    job_teardown(c, end + 1, 2)
    truth = dict(
        outcome="succeeded", family="healthy",
        root_cause=("No failure. TensorFlow 2.16.1 found the T4 (Created device …GPU:0 … Tesla T4), RunInference tagged all "
                    "images on the GPU and the job finished. The ERROR-severity cuDNN/cuFFT/cuBLAS factory registration "
                    "lines, the TF-TRT warning, the NUMA note and the one-off 'Operation ongoing' lull during the first "
                    "XLA/graph trace are harmless."),
        setup=dict(gpu="1x NVIDIA T4 per worker (n1-standard-8), 2 workers", python="3.11", beam="2.60.0",
                   stack="RunInference TFModelHandlerTensor, TensorFlow 2.16.1 SavedModel", region="us-central1"),
        evidence=["Created device /job:localhost/replica:0/task:0/device:GPU:0 with 13775 MB memory:  -> device: 0, name: Tesla T4",
                  "Finished operation ListImages/Read/Impulse",
                  "Autoscaling: Resized worker pool from 2 to 0."],
        red_herrings=["Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered",
                      "Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered",
                      "TF-TRT Warning: Could not find TensorRT",
                      "successful NUMA node read from SysFS had negative value (-1), but there must be at least one NUMA node, so returning NUMA node zero.",
                      "Operation ongoing for over 301.92 seconds in state process-msecs in step s4  without returning.",
                      TOKEN_MISMATCH, KUBELET_PROBER, IMA],
        sources=[
            "kr-colab/ReLERNN#63 (TF 2.16 era) — 'E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:9261] Unable to register cuDNN factory: …', cuda_fft.cc:607, cuda_blas.cc:1515, cpu_feature_guard.cc:182 text, 'W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT', cuda_executor.cc:901 NUMA line",
            "tensorflow/tensorflow#62075, openxla/xla#20803 — the factory registration lines are known-benign",
            "Reference file §2i — TF 'Created device … with N MB memory:  -> device: 0, name: …, pci bus id: …, compute capability: …' format",
            "apache/beam sdk_worker.py — 'Operation ongoing … without returning. Current Traceback:'",
            "Dataflow docs common-errors (via reference file) — 'Unable to fetch data due to token mismatch for key', kubelet prober, ima lines",
        ],
        synthetic=["Envelope generated; TF timestamps, gpu_device.cc line number and memory size filled in",
                   "the tail of the NUMA line ('See more at …#L344-L355') is recalled (cut in the source excerpt)",
                   "user logger lines (tagger.*) invented"])
    return c, truth


# ---------------------------------------------------------------- hs3-09 JAX XLA OOM
@case
def hs3_09():
    py = "3.11"
    c = Case("hs3-09", "protein-embed-afdb-shard07", "2026-11-07_05_40_33-8160046291177723513",
             "helixa-bio-research", "us-central1", T(2026, 11, 7, 13, 40, 36), 909)
    mk = vm_name(c.job_name, "11070540", c.rng)
    w1 = c.worker(mk())
    zone = "us-central1-a"
    steps = ["ReadShard/Read/Impulse", "ReadShard/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process",
             "PadAndTokenize", "BatchElements/ParDo(_GlobalWindowsBatchingDoFn)", "EmbedSequences",
             "WriteEmbeddings/Write/WriteImpl/WriteBundles"]
    t = job_start(c, 0, "a2-highgpu-1g", zone, steps)
    c.jm(t + 44, "INFO", "Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).")
    c.jm(t + 139, "INFO", "Workers have started successfully.")
    vm_boot(c, t + 31, w1, "550.90.07")
    harness_lines(c, t + 97, w1)
    options = opts([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name), ("region", c.region),
        ("machine_type", "a2-highgpu-1g"),
        ("dataflow_service_options", ["worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver:5xx"]),
        ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("sdk_container_image", "us-central1-docker.pkg.dev/helixa-bio-research/beam/esm-jax:2.65.0-jax0.4.35"),
        ("batch_size", 64), ("max_length", 2048)])
    s = sp(py)
    tt = boot_sdk(c, t + 101, w1, "sdk-0-0", ("workflow.tar.gz",))
    sdk_harness_start(c, tt + 2, w1, "sdk-0-0", options)
    u = tt + 4
    lg = "embedder.jax_model"
    c.js(u, "INFO", "XLA_PYTHON_CLIENT_PREALLOCATE=false XLA_PYTHON_CLIENT_MEM_FRACTION=unset; jax.devices()=[CudaDevice(id=0)]", w1,
         "worker", lg, "jax_model.py:22", "sdk-0-0", "Thread-14", "s5")
    c.js(u + 0.3, "INFO", "Embedding batches of 64 sequences padded to 2048 tokens (NVIDIA A100-SXM4-40GB)", w1, "worker", lg,
         "jax_model.py:60", "sdk-0-0", "Thread-14", "s5")
    dd = (c.start + _dt.timedelta(seconds=u + 9)).strftime("%Y-%m-%d %H:%M:%S")
    c.tx(u + 9, "ERROR", "%s.%06d: W external/xla/xla/service/gpu/nvptx_compiler.cc:930] The NVIDIA driver's CUDA version is 12.4 which is older than the PTX compiler version 12.6.77. Because the driver is older than the PTX compiler version, XLA is disabling parallel compilation, which may slow down compilation. You should update your NVIDIA driver or use the NVIDIA-provided CUDA forward compatibility packages." % (dd, c.rng.randrange(10 ** 6)), w1)
    inner = (
        '  File "/usr/local/lib/python3.11/site-packages/embedder/jax_model.py", line 74, in process\n'
        '    emb = self._apply(self.params, tokens)\n'
        '  File "%s/jax/_src/traceback_util.py", line 180, in reraise_with_filtered_traceback\n    return fun(*args, **kwargs)\n'
        '  File "%s/jax/_src/pjit.py", line 337, in cache_miss\n    outs, out_flat, out_tree, args_flat, jaxpr, attrs_tracked = _python_pjit_helper(\n'
        '  File "%s/jax/_src/pjit.py", line 195, in _python_pjit_helper\n    out_flat = pjit_p.bind(*args_flat, **p.params)\n'
        '  File "%s/jax/_src/pjit.py", line 1679, in _pjit_call_impl_python\n    return compiled.unsafe_call(*args), compiled\n'
        '  File "%s/jax/_src/interpreters/pxla.py", line 1297, in __call__\n    results = self.xla_executable.execute_sharded(input_bufs)\n'
    ) % tuple([s] * 5)
    exc = ("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 26843545600 bytes.\n"
           "BufferAssignment OOM Debugging.\nBufferAssignment stats:\n"
           "             parameter allocation:    2.31GiB\n"
           "              constant allocation:    96.0KiB\n"
           "        maybe_live_out allocation:    4.00GiB\n"
           "     preallocated temp allocation:   40.12GiB\n"
           "                 total allocation:   46.43GiB\n"
           "              total fragmentation:    1.07GiB (2.30%)")
    tb = process_tb(py, inner, exc, "EmbedSequences")
    attempts = []
    for attempt in range(4):
        v = u + 40 + attempt * 64
        hh = (c.start + _dt.timedelta(seconds=v)).strftime("%Y-%m-%d %H:%M:%S")
        c.tx(v, "ERROR", "%s.%06d: E external/xla/xla/pjrt/pjrt_stream_executor_client.cc:3085] Execution of replica 0 failed: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 26843545600 bytes." % (hh, c.rng.randrange(10 ** 6)), w1)
        err_instr(c, v + 0.4, w1, "sdk-0-0", tb)
        attempts.append((w1, "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 26843545600 bytes. [while running 'EmbedSequences']"))
    c.jm(u + 320, "ERROR", workflow_failed(
        "S03:BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+EmbedSequences+WriteEmbeddings/Write/WriteImpl/WriteBundles",
        attempts))
    job_teardown(c, u + 321, 1, True)
    truth = dict(
        outcome="failed", family="gpu-oom",
        root_cause=("The jitted JAX embedding function needs ~46.4 GiB of device memory for one batch (64 sequences padded "
                    "to 2048 tokens: 40 GiB of XLA temp buffers) but the worker's A100 has 40 GB, so XLA raises "
                    "RESOURCE_EXHAUSTED on every attempt. It is a single SDK process with preallocation disabled, so this "
                    "is the batch shape, not memory sharing. Fix: smaller batch/max_length (or bucketing by length), or "
                    "A100 80GB / H100 workers."),
        setup=dict(gpu="1x NVIDIA A100 40GB (a2-highgpu-1g)", python="3.11", beam="2.65.0",
                   stack="JAX 0.4.35 / Flax protein language model in a custom DoFn after BatchElements",
                   region="us-central1"),
        evidence=["RESOURCE_EXHAUSTED: Out of memory while trying to allocate 26843545600 bytes.",
                  "                 total allocation:   46.43GiB",
                  "Embedding batches of 64 sequences padded to 2048 tokens (NVIDIA A100-SXM4-40GB)",
                  "XLA_PYTHON_CLIENT_PREALLOCATE=false"],
        red_herrings=["The NVIDIA driver's CUDA version is 12.4 which is older than the PTX compiler version 12.6.77. Because the driver is older than the PTX compiler version, XLA is disabling parallel compilation, which may slow down compilation.",
                      "'experiments': ['use_runner_v2', 'no_use_multiple_sdk_containers']",
                      KUBELET_PROBER, IMA],
        sources=[
            "patrickbryant1/AFProfile#8 — 'jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 4770354232 bytes.\\nBufferAssignment OOM Debugging.\\nBufferAssignment stats:\\n             parameter allocation: …' block format",
            "jax-ml/jax#13428, google-deepmind/alphafold#1023 — same XlaRuntimeError wording",
            "kingoflolz/mesh-transformer-jax#66 — 'E …/pjrt/pjrt_stream_executor_client.cc:1981] Execution of replica 0 failed: …'",
            "google-deepmind/alphafold3#272 and jax-ml/jax#19821 — 'The NVIDIA driver's CUDA version is 12.2 which is older than the PTX compiler version 12.6.77. Because the driver is older than the PTX compiler version, XLA is disabling parallel compilation, which may slow down compilation. You should update your NVIDIA driver or use the NVIDIA-provided CUDA forward compatibility packages.' (warning only)",
            "apache/beam sdk_worker.py _execute; apache/beam#30482 final failure wording",
        ],
        synthetic=["Envelope generated; byte counts and BufferAssignment figures are chosen for this case (format real)",
                   "source path/line of the pjrt and nvptx_compiler lines filled in for jaxlib 0.4.35 (not verified)",
                   "JAX frames reconstructed; user logger lines (embedder.jax_model) invented"])
    return c, truth


# ---------------------------------------------------------------- hs3-10 vLLM CUDA graph capture OOM
@case
def hs3_10():
    py = "3.12"
    c = Case("hs3-10", "faq-answer-gen-1130", "2026-11-30_09_02_48-3349261180072215567",
             "quarry-cx-ai", "us-east1", T(2026, 11, 30, 17, 2, 51), 1010)
    mk = vm_name(c.job_name, "11300902", c.rng)
    w1 = c.worker(mk())
    zone = "us-east1-d"
    steps = ["ReadQuestions/Read/Impulse", "ReadQuestions/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process",
             "BuildPrompts", "GenerateAnswers", "WriteAnswers/Write/WriteImpl/WriteBundles"]
    t = job_start(c, 0, "g2-standard-8", zone, steps)
    c.jm(t + 40, "INFO", "Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).")
    c.jm(t + 129, "INFO", "Workers have started successfully.")
    vm_boot(c, t + 29, w1, "570.133.20")
    harness_lines(c, t + 94, w1)
    options = opts([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name), ("region", c.region),
        ("machine_type", "g2-standard-8"),
        ("dataflow_service_options", ["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver:5xx"]),
        ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("sdk_container_image", "us-east1-docker.pkg.dev/quarry-cx-ai/beam/faq-vllm:0.8.3-beam2.66"),
        ("gpu_memory_utilization", 0.98), ("max_num_seqs", 256)])
    s = sp(py)
    inner = (
        '  File "/usr/local/lib/python3.12/site-packages/faqgen/generate.py", line 44, in setup\n'
        '    self.llm = LLM(model=self.model_id, gpu_memory_utilization=self.gpu_mem, max_num_seqs=self.max_num_seqs)\n'
        '  File "%s/vllm/utils.py", line 1161, in inner\n    return fn(*args, **kwargs)\n'
        '  File "%s/vllm/entrypoints/llm.py", line 247, in __init__\n    self.llm_engine = LLMEngine.from_engine_args(\n'
        '  File "%s/vllm/engine/llm_engine.py", line 510, in from_engine_args\n    return engine_cls.from_vllm_config(\n'
        '  File "%s/vllm/engine/llm_engine.py", line 486, in from_vllm_config\n    return cls(\n'
        '  File "%s/vllm/engine/llm_engine.py", line 278, in __init__\n    self._initialize_kv_caches()\n'
        '  File "%s/vllm/engine/llm_engine.py", line 434, in _initialize_kv_caches\n    self.model_executor.initialize_cache(num_gpu_blocks, num_cpu_blocks)\n'
        '  File "%s/vllm/executor/executor_base.py", line 122, in initialize_cache\n    self.collective_rpc("initialize_cache",\n'
        '  File "%s/vllm/worker/worker.py", line 327, in _warm_up_model\n    self.model_runner.capture_model(self.gpu_cache)\n'
        '  File "%s/vllm/worker/model_runner.py", line 1533, in capture_model\n    graph_runner.capture(**capture_inputs)\n'
        '  File "%s/vllm/worker/model_runner.py", line 1917, in capture\n    with torch.cuda.graph(self._graph, pool=memory_pool, stream=stream):\n'
        '  File "%s/torch/cuda/graphs.py", line 186, in __exit__\n    self.cuda_graph.capture_end()\n'
    ) % tuple([s] * 11)
    exc = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 22.05 GiB "
           "of which 13.12 MiB is free. Including non-PyTorch memory, this process has 22.02 GiB memory in use. Of the "
           "allocated memory 21.31 GiB is allocated by PyTorch, with 70.00 MiB allocated in private pools (e.g., CUDA "
           "Graphs), and 96.58 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try "
           "setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory "
           "Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")
    tb = setup_tb(py, inner, exc, "GenerateAnswers")
    tt = t + 98
    attempts = []
    for attempt in range(4):
        if attempt == 0:
            tt = boot_sdk(c, tt, w1, "sdk-0-0", ("workflow.tar.gz",))
            sdk_harness_start(c, tt + 2, w1, "sdk-0-0", options)
        u = tt + 4 + attempt * 130
        m = lambda x: (c.start + _dt.timedelta(seconds=x)).strftime("11-30 %H:%M:%S")
        c.tx(u + 0.5, "ERROR", HF_UNAUTH, w1)
        c.tx(u + 2.0, "ERROR", "INFO %s [llm_engine.py:242] Initializing a V0 LLM engine (v0.8.3) with config: model='Qwen/Qwen2.5-7B-Instruct', speculative_config=None, tokenizer='Qwen/Qwen2.5-7B-Instruct', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, override_neuron_config=None, tokenizer_revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=32768, download_dir=None, load_format=auto, tensor_parallel_size=1, pipeline_parallel_size=1, disable_custom_all_reduce=False, quantization=None, enforce_eager=False, kv_cache_dtype=auto,  device_config=cuda" % m(u + 2), w1)
        c.tx(u + 25.0, "ERROR", "Loading safetensors checkpoint shards:  50% Completed | 2/4 [00:11<00:11,  5.61s/it]", w1)
        c.tx(u + 47.0, "ERROR", "Loading safetensors checkpoint shards: 100% Completed | 4/4 [00:22<00:00,  5.58s/it]", w1)
        c.tx(u + 47.5, "ERROR", "INFO %s [model_runner.py:1146] Model loading took 14.2487 GB and 41.552301 seconds" % m(u + 47.5), w1)
        c.tx(u + 52.0, "ERROR", "INFO %s [worker.py:267] Memory profiling takes 4.31 seconds" % m(u + 52), w1)
        c.tx(u + 52.1, "ERROR", "INFO %s [worker.py:267] the current vLLM instance can use total_gpu_memory (22.05GiB) x gpu_memory_utilization (0.98) = 21.61GiB" % m(u + 52.1), w1)
        c.tx(u + 52.2, "ERROR", "INFO %s [worker.py:267] model weights take 14.25GiB; non_torch_memory takes 0.09GiB; PyTorch activation peak memory takes 1.40GiB; the rest of the memory reserved for KV Cache is 5.87GiB." % m(u + 52.2), w1)
        c.tx(u + 52.5, "ERROR", "INFO %s [executor_base.py:111] # cuda blocks: 6869, # CPU blocks: 4681" % m(u + 52.5), w1)
        c.tx(u + 52.6, "ERROR", "INFO %s [executor_base.py:116] Maximum concurrency for 32768 tokens per request: 3.35x" % m(u + 52.6), w1)
        c.tx(u + 54.0, "ERROR", "INFO %s [model_runner.py:1442] Capturing cudagraphs for decoding. This may lead to unexpected consequences if the model is not static. To run the model in eager mode, set 'enforce_eager=True' or use '--enforce-eager' in the CLI. If out-of-memory error occurs during cudagraph capture, consider decreasing `gpu_memory_utilization` or switching to eager mode. You can also reduce the `max_num_seqs` as needed to decrease memory usage." % m(u + 54), w1)
        c.tx(u + 61.0, "ERROR", "Capturing CUDA graph shapes:  49%|████▊     | 17/35 [00:07<00:08,  2.18it/s]", w1)
        if attempt == 0:
            ongoing(c, u + 60.5, w1, "sdk-0-0", 55.03, "s4",
                    '  File "%s/vllm/worker/model_runner.py", line 1533, in capture_model\n    graph_runner.capture(**capture_inputs)\n' % s)
        err_instr(c, u + 62.4, w1, "sdk-0-0", tb)
        attempts.append((w1, exc[:118] + "… [while running 'GenerateAnswers']"))
    c.jm(tt + 4 + 3 * 130 + 80, "ERROR", workflow_failed(
        "S02:ReadQuestions/Read/Impulse+ReadQuestions/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process+BuildPrompts+GenerateAnswers",
        attempts))
    job_teardown(c, tt + 4 + 3 * 130 + 81, 1, True)
    truth = dict(
        outcome="failed", family="gpu-oom",
        root_cause=("vLLM is started with gpu_memory_utilization=0.98 on a 22 GiB L4: after the 14.25 GiB Qwen2.5-7B weights "
                    "and a 5.87 GiB KV cache there is no headroom left, and the CUDA graphs captured during engine warm-up "
                    "need more memory, so capture_model() raises torch.OutOfMemoryError in DoFn.setup on every attempt. "
                    "Fix: lower gpu_memory_utilization (about 0.90), reduce max_num_seqs, or set enforce_eager=True."),
        setup=dict(gpu="1x NVIDIA L4 (g2-standard-8)", python="3.12", beam="2.66.0",
                   stack="vLLM 0.8.3 (V0 engine) LLM() in DoFn.setup, Qwen2.5-7B-Instruct bf16", region="us-east1"),
        evidence=["x gpu_memory_utilization (0.98) = 21.61GiB",
                  "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 22.05 GiB of which 13.12 MiB is free.",
                  "graph_runner.capture(**capture_inputs)",
                  "Capturing CUDA graph shapes:  49%"],
        red_herrings=[HF_UNAUTH,
                      "Operation ongoing for over 55.03 seconds in state process-msecs in step s4  without returning.",
                      "If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.",
                      KUBELET_PROBER, IMA],
        sources=[
            "SystemPanic/vllm-windows#6 — vLLM 0.8 V0 lines: 'the current vLLM instance can use total_gpu_memory (16.00GiB) x gpu_memory_utilization (0.90) = 14.40GiB', 'model weights take …; non_torch_memory takes …; PyTorch activation peak memory takes …; the rest of the memory reserved for KV Cache is …', '# cuda blocks: …, # CPU blocks: …', 'Maximum concurrency for 2048 tokens per request: 95.31x', 'Capturing cudagraphs for decoding. … If out-of-memory error occurs during cudagraph capture, consider decreasing `gpu_memory_utilization` or switching to eager mode. …', 'Capturing CUDA graph shapes: 100%|…| 35/35 [00:16<00:00,  2.18it/s]'",
            "generative-computing/mellea PR #416 — 'Memory profiling takes 0.44 seconds' and the same V0 start-up sequence",
            "vllm-project/vllm#8031 — 'Initializing a V0 LLM engine (v0.8.3) with config: …'",
            "dify-official-plugins#599 (via reference file §2b b3) — newest PyTorch OOM wording 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 318.00 MiB. GPU 0 has a total capacity of 23.53 GiB of which 315.44 MiB is free. Including non-PyTorch memory, this process has … Of the allocated memory … allocated in private pools (e.g., CUDA Graphs) …'",
            "huggingface_hub unauthenticated-requests warning (public vLLM logs)",
            "apache/beam sdk_worker.py _execute and 'Operation ongoing …'; apache/beam#30482 final failure wording",
        ],
        synthetic=["Envelope generated; memory figures, block counts and timestamps filled in for an L4",
                   "vLLM/torch frames reconstructed (names plausible, line numbers invented)",
                   "user DoFn (faqgen) invented; 'gpu_memory_utilization'/'max_num_seqs' shown as custom pipeline options"])
    return c, truth


# ---------------------------------------------------------------- hs3-11 NumPy 2 ABI break
@case
def hs3_11():
    py = "3.11"
    c = Case("hs3-11", "churn-features-infer-1105", "2026-11-05_01_15_09-15501293817643110278",
             "orbitel-analytics", "europe-west1", T(2026, 11, 5, 9, 15, 12), 1111, "205884319057")
    mk = vm_name(c.job_name, "11050115", c.rng)
    w1 = c.worker(mk())
    zone = "europe-west1-b"
    steps = ["ReadFeatures/Read/Impulse", "ReadFeatures/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process",
             "ToNumpy", "RunInference/BeamML_RunInference", "FormatScores", "WriteScores/StorageWriteApi/Write"]
    t = job_start(c, 0, "n1-standard-4", zone, steps)
    c.jm(t + 42, "INFO", "Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).")
    c.jm(t + 160, "INFO", "Workers have started successfully.")
    vm_boot(c, t + 30, w1, "550.90.07")
    harness_lines(c, t + 96, w1)
    options = opts([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name), ("region", c.region),
        ("machine_type", "n1-standard-4"),
        ("dataflow_service_options", ["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"]),
        ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("requirements_file", "requirements.txt"), ("save_main_session", True)])
    s = sp(py)
    pip = [
        "Collecting numpy>=1.24 (from -r /var/opt/google/staged/requirements.txt (line 3))",
        "Successfully installed numpy-2.1.3 pyarrow-18.1.0 torch-2.2.2",
        "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.\ntensorflow-metadata 1.16.1 requires protobuf<4.21,>=3.20.3; python_version < \"3.11\", but you have protobuf 4.25.5 which is incompatible.",
    ]
    tt = boot_sdk(c, t + 100, w1, "sdk-0-0", ("requirements.txt", "extra_packages.txt", "workflow.tar.gz"), pip)
    sdk_harness_start(c, tt + 2, w1, "sdk-0-0", options)
    u = tt + 3
    numpy_msg = ("\nA module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.1.3 as it may crash. To support both 1.x and 2.x\n"
                 "versions of NumPy, modules must be compiled with NumPy 2.0.\nSome module may need to rebuild instead e.g. with 'pybind11>=2.12'.\n\n"
                 "If you are a user of the module, the easiest solution will be to\ndowngrade to 'numpy<2' or try to upgrade the affected module.\n"
                 "We expect that some modules will need time to support NumPy 2.\n\n"
                 "Traceback (most recent call last):  File \"%s/apache_beam/runners/worker/sdk_worker_main.py\", line 273, in <module>\n"
                 "    main(sys.argv)\n"
                 "  File \"%s/apache_beam/runners/worker/sdk_worker_main.py\", line 176, in main\n"
                 "    _load_main_session(semi_persistent_directory)\n"
                 "  File \"%s/apache_beam/internal/pickler.py\", line 65, in load_session\n"
                 "    return desired_pickle_lib.load_session(file_path)\n"
                 "  File \"/usr/local/lib/python3.11/site-packages/churn/model.py\", line 4, in <module>\n"
                 "    import torch\n"
                 "  File \"%s/torch/__init__.py\", line 1477, in <module>\n"
                 "    from .functional import *  # noqa: F403\n"
                 "  File \"%s/torch/functional.py\", line 7, in <module>\n"
                 "    import torch.nn.functional as F\n"
                 "  File \"%s/torch/nn/__init__.py\", line 1, in <module>\n"
                 "    from .modules import *  # noqa: F403\n"
                 "  File \"%s/torch/nn/modules/__init__.py\", line 35, in <module>\n"
                 "    from .transformer import TransformerEncoder, TransformerDecoder, \\\n"
                 "  File \"%s/torch/nn/modules/transformer.py\", line 20, in <module>\n"
                 "    device: torch.device = torch.device(torch._C._get_default_device()),  # torch.device('cpu'),\n") % tuple([s] * 8)
    c.tx(u, "ERROR", numpy_msg, w1)
    c.tx(u + 0.05, "ERROR", "%s/torch/nn/modules/transformer.py:20: UserWarning: Failed to initialize NumPy: _ARRAY_API not found (Triggered internally at ../torch/csrc/utils/tensor_numpy.cpp:84.)\n  device: torch.device = torch.device(torch._C._get_default_device()),  # torch.device('cpu'),\n" % s, w1)
    c.js(u + 2.0, "INFO", "Loaded churn model v7 (torch 2.2.2+cu121) on cuda:0", w1, "worker", "churn.model", "model.py:31",
         "sdk-0-0", "Thread-14", "s4")
    inner = (
        '  File "%s/apache_beam/ml/inference/base.py", line 1492, in process\n    return self._run_inference(batch, inference_args)\n'
        '  File "%s/apache_beam/ml/inference/base.py", line 1457, in _run_inference\n    raise e\n'
        '  File "%s/apache_beam/ml/inference/base.py", line 1443, in _run_inference\n    result_generator = self._model_handler.run_inference(\n'
        '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 352, in run_inference\n    return self._inference_fn(\n'
        '  File "/usr/local/lib/python3.11/site-packages/churn/model.py", line 58, in numpy_inference_fn\n'
        '    tensors = torch.from_numpy(np.stack(batch)).to(device)\n'
    ) % tuple([s] * 4)
    exc = "RuntimeError: Numpy is not available"
    tb = process_tb(py, inner, exc, "RunInference/BeamML_RunInference")
    attempts = []
    for attempt in range(4):
        v = u + 20 + attempt * 33
        err_instr(c, v, w1, "sdk-0-0", tb)
        attempts.append((w1, "RuntimeError: Numpy is not available [while running 'RunInference/BeamML_RunInference']"))
    c.jm(u + 170, "ERROR", workflow_failed(
        "S02:ReadFeatures/Read/Impulse+ReadFeatures/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process+ToNumpy+RunInference/BeamML_RunInference",
        attempts))
    job_teardown(c, u + 171, 1, True)
    truth = dict(
        outcome="failed", family="dependency-abi",
        root_cause=("requirements.txt lets pip install NumPy 2.1.3 next to torch 2.2.2, which was compiled against NumPy 1.x. "
                    "At import torch prints the NumPy 1.x/2.x ABI warning and 'Failed to initialize NumPy: _ARRAY_API not "
                    "found' (stderr, easy to miss), so torch's NumPy bridge is disabled; later torch.from_numpy() in the "
                    "RunInference inference_fn raises 'RuntimeError: Numpy is not available' on every attempt. Fix: pin "
                    "numpy<2 or upgrade to torch>=2.3 (built against NumPy 2)."),
        setup=dict(gpu="1x NVIDIA T4 (n1-standard-4)", python="3.11", beam="2.64.0",
                   stack="RunInference PyTorchModelHandlerTensor with custom numpy inference_fn, torch 2.2.2+cu121, numpy 2.1.3 from requirements_file",
                   region="europe-west1"),
        evidence=["A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.1.3 as it may crash.",
                  "UserWarning: Failed to initialize NumPy: _ARRAY_API not found (Triggered internally at ../torch/csrc/utils/tensor_numpy.cpp:84.)",
                  "RuntimeError: Numpy is not available",
                  "Successfully installed numpy-2.1.3 pyarrow-18.1.0 torch-2.2.2"],
        red_herrings=["ERROR: pip's dependency resolver does not currently take into account all the packages that are installed.",
                      "tensorflow-metadata 1.16.1 requires protobuf<4.21,>=3.20.3",
                      "Loaded churn model v7 (torch 2.2.2+cu121) on cuda:0",
                      KUBELET_PROBER, IMA],
        sources=[
            "pytorch/pytorch#135013, sniklaus/pytorch-unflow#17, pawansharmaaaa/Lip_Wise#20 — 'A module that was compiled using NumPy 1.x cannot be run in\\nNumPy 2.x.y as it may crash. To support both 1.x and 2.x\\nversions of NumPy, modules must be compiled with NumPy 2.0.\\nSome module may need to rebuild instead e.g. with 'pybind11>=2.12'.\\n\\nIf you are a user of the module, the easiest solution will be to\\ndowngrade to 'numpy<2' or try to upgrade the affected module.\\nWe expect that some modules will need time to support NumPy 2.' and the torch import chain (functional.py → nn → transformer.py:20)",
            "AUTOMATIC1111/stable-diffusion-webui#17055, mcmonkeyprojects/SwarmUI#205 — 'transformer.py:20: UserWarning: Failed to initialize NumPy: _ARRAY_API not found (Triggered internally at ..\\\\torch\\\\csrc\\\\utils\\\\tensor_numpy.cpp:84.)'",
            "NVIDIA-Merlin/Merlin#138 — 'RuntimeError: Numpy is not available' after the failed NumPy init",
            "pip (stock wording) — 'ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.', 'Successfully installed …'",
            "apache/beam boot.go (pip output relayed at install), sdk_worker.py _execute; apache/beam#30482 final failure wording",
        ],
        synthetic=["Envelope generated; frames of the import chain inside Beam are reconstructed (torch frames follow the public reports)",
                   "Linux path form '../torch/csrc/utils/tensor_numpy.cpp:84' adapted from the Windows form in the sources",
                   "pip conflict pair (tensorflow-metadata/protobuf) and user logger lines (churn.*) invented"])
    return c, truth


# ---------------------------------------------------------------- hs3-12 CUDA_VISIBLE_DEVICES / invalid ordinal
@case
def hs3_12():
    py = "3.11"
    c = Case("hs3-12", "video-frame-embed-1112", "2026-11-12_07_48_55-6017325590921187440",
             "stillwater-vision", "us-central1", T(2026, 11, 12, 15, 48, 58), 1212)
    mk = vm_name(c.job_name, "11120748", c.rng)
    w1 = c.worker(mk())
    w2 = c.worker(mk())
    zone = "us-central1-b"
    steps = ["ListClips/Read/Impulse", "ListClips/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/Process",
             "DecodeFrames", "BatchFrames/ParDo(_GlobalWindowsBatchingDoFn)", "EmbedFrames", "WriteEmbeddings/Write/WriteImpl/WriteBundles"]
    t = job_start(c, 0, "g2-standard-24", zone, steps)
    c.jm(t + 39, "INFO", "Autoscaling: Raised the number of workers to 2 based on the rate of progress in the currently running stage(s).")
    c.jm(t + 137, "INFO", "Workers have started successfully.")
    options = opts([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name), ("region", c.region),
        ("machine_type", "g2-standard-24"),
        ("dataflow_service_options", ["worker_accelerator=type:nvidia-l4;count:2;install-nvidia-driver:5xx"]),
        ("experiments", ["use_runner_v2"]), ("sdk_worker_parallelism", 2),
        ("sdk_container_image", "us-central1-docker.pkg.dev/stillwater-vision/beam/clip-embed:2.63.0-torch251"),
        ("max_num_workers", 2)])
    s = sp(py)
    inner = (
        '  File "/usr/local/lib/python3.11/site-packages/clipembed/dofn.py", line 47, in setup\n'
        '    self.model = self.model.to(self.device).eval()\n'
        '  File "%s/torch/nn/modules/module.py", line 1340, in to\n    return self._apply(convert)\n'
        '  File "%s/torch/nn/modules/module.py", line 900, in _apply\n    module._apply(fn)\n'
        '  File "%s/torch/nn/modules/module.py", line 927, in _apply\n    param_applied = fn(param)\n'
        '  File "%s/torch/nn/modules/module.py", line 1326, in convert\n    return t.to(\n'
    ) % tuple([s] * 4)
    exc = ("RuntimeError: CUDA error: invalid device ordinal\nCUDA kernel errors might be asynchronously reported at some other "
           "API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
           "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n")
    tb = setup_tb(py, inner, exc, "EmbedFrames")
    attempts = []
    for i, w in enumerate([w1, w2]):
        base = t + 30 + i * 3
        vm_boot(c, base, w, "570.133.20")
        harness_lines(c, base + 66, w)
        for sdk in ("sdk-0-0", "sdk-0-1"):
            tt = boot_sdk(c, base + 70 + (0.6 if sdk == "sdk-0-1" else 0), w, sdk, ("workflow.tar.gz",))
            sdk_harness_start(c, tt + 2, w, sdk, options)
            gpu = 0 if sdk == "sdk-0-0" else 1
            u = tt + 4
            c.js(u, "INFO", "%s: physical GPUs on worker: 2 (NVIDIA L4, NVIDIA L4)" % sdk, w, "worker", "clipembed.dofn",
                 "dofn.py:31", sdk, "Thread-14", "s5")
            c.js(u + 0.2, "INFO", "%s: pinned to GPU %d (CUDA_VISIBLE_DEVICES=%d), using device cuda:%d" % (sdk, gpu, gpu, gpu),
                 w, "worker", "clipembed.dofn", "dofn.py:39", sdk, "Thread-14", "s5")
            c.js(u + 0.9, "INFO", "%s: torch.cuda.device_count()=1" % sdk, w, "worker", "clipembed.dofn", "dofn.py:44", sdk, "Thread-14", "s5")
            if gpu == 0:
                for k in range(5):
                    c.js(u + 30 + k * 61, "INFO", "%s: embedded %d frames in %.1f s" % (sdk, 1024, 11.0 + c.rng.random() * 3), w,
                         "worker", "clipembed.dofn", "dofn.py:71", sdk, "Thread-14", "s5")
            else:
                n = 2 if i == 0 else 2
                for k in range(n):
                    err_instr(c, u + 1.5 + k * 95, w, sdk, tb)
                    attempts.append((w, "RuntimeError: CUDA error: invalid device ordinal [while running 'EmbedFrames']"))
        c.js(base + 200, "WARNING", TOKEN_MISMATCH, w, "harness", "dataflow.harness", "harness.go:512")
    order = sorted(attempts, key=lambda x: x[0])
    c.jm(t + 30 + 70 + 300, "ERROR", workflow_failed(
        "S03:BatchFrames/ParDo(_GlobalWindowsBatchingDoFn)+EmbedFrames+WriteEmbeddings/Write/WriteImpl/WriteBundles",
        order[:4]))
    job_teardown(c, t + 30 + 70 + 301, 2, True)
    truth = dict(
        outcome="failed", family="multi-gpu-device-mapping",
        root_cause=("Each worker runs two SDK processes (sdk_worker_parallelism=2) on a 2x L4 machine. The DoFn pins a "
                    "process to GPU k by setting CUDA_VISIBLE_DEVICES=k and then also uses device cuda:k. For sdk-0-1 only "
                    "one device is visible (renumbered as cuda:0), so moving the model to cuda:1 raises 'CUDA error: "
                    "invalid device ordinal'; bundles sent to sdk-0-1 fail while sdk-0-0 works, until a work item has "
                    "failed 4 times. Fix: after setting CUDA_VISIBLE_DEVICES use cuda:0 (or do not mask and use cuda:k)."),
        setup=dict(gpu="2x NVIDIA L4 per worker (g2-standard-24), 2 workers", python="3.11", beam="2.63.0",
                   stack="open_clip / torch 2.5.1 frame embedder in a custom DoFn, two SDK processes per worker",
                   region="us-central1"),
        evidence=["RuntimeError: CUDA error: invalid device ordinal",
                  "sdk-0-1: pinned to GPU 1 (CUDA_VISIBLE_DEVICES=1), using device cuda:1",
                  "sdk-0-1: torch.cuda.device_count()=1",
                  "'sdk_worker_parallelism': 2"],
        red_herrings=["CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
                      "sdk-0-0: embedded 1024 frames in",
                      "sdk-0-1: physical GPUs on worker: 2 (NVIDIA L4, NVIDIA L4)",
                      TOKEN_MISMATCH, KUBELET_PROBER, IMA],
        sources=[
            "yuanzhoulvpi2017/DocumentSearch#4 — 'RuntimeError: CUDA error: invalid device ordinal\\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.\\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.'",
            "LuyaooChen/uninformed-students-pytorch#3, yandex-research/tab-ddpm#20 — invalid device ordinal when code uses cuda:1 with one visible GPU; torch module.py _apply/convert frames",
            "apache/beam boot.go — sibling SDK workers and WORKER_ID environment per SDK process ('Executing Python (worker %v): …')",
            "apache/beam sdk_worker.py _execute; apache/beam#30482 final failure wording",
        ],
        synthetic=["Envelope generated; torch frame line numbers filled in",
                   "the 'For debugging consider passing CUDA_LAUNCH_BLOCKING=1' line is written without the trailing period used by some torch versions",
                   "user logger lines (clipembed.dofn) invented — they carry the CUDA_VISIBLE_DEVICES evidence"])
    return c, truth


# ----------------------------------------------------------------------------
# YAML writer, order, checks
# ----------------------------------------------------------------------------

def yq(s):
    return json.dumps(s, ensure_ascii=False)


def to_yaml(d):
    lines = []
    for k in ["job", "outcome", "family", "root_cause"]:
        lines.append("%s: %s" % (k, yq(d[k])))
    lines.append("setup:")
    for k in ["gpu", "python", "beam", "stack", "region"]:
        lines.append("  %s: %s" % (k, yq(d["setup"][k])))
    for k in ["evidence", "red_herrings", "sources", "synthetic"]:
        lines.append("%s:" % k)
        for v in d[k]:
            lines.append("  - %s" % yq(v))
    return "\n".join(lines) + "\n"


def ts_key(ts):
    main, frac = ts.rstrip("Z").split(".")
    return (main, int(frac.ljust(9, "0")))


def payload_texts(entries):
    for e in entries:
        if "textPayload" in e:
            yield e["textPayload"]
        if "jsonPayload" in e and "message" in e["jsonPayload"]:
            yield e["jsonPayload"]["message"]


def main():
    problems = []
    total_bytes = 0
    summary = []
    for fn in CASES:
        c, truth = fn()
        ex = c.export()
        truth = dict(job=dict(name=c.job_name, id=c.job_id, project=c.project), **truth)
        tj = dict(truth)
        tj["job"] = "%s (%s, project %s)" % (c.job_name, c.job_id, c.project)
        d = os.path.join(OUT, c.cid)
        os.makedirs(d, exist_ok=True)
        data = json.dumps(ex, indent=2, ensure_ascii=False) + "\n"
        with open(os.path.join(d, "export.json"), "w", encoding="utf-8", newline="\n") as f:
            f.write(data)
        y = to_yaml(tj)
        with open(os.path.join(d, "truth.yaml"), "w", encoding="utf-8", newline="\n") as f:
            f.write(y)
        total_bytes += len(data.encode("utf-8")) + len(y.encode("utf-8"))
        # checks
        parsed = json.loads(open(os.path.join(d, "export.json"), encoding="utf-8").read())
        if not isinstance(parsed, list):
            problems.append("%s: not a list" % c.cid)
        n = len(parsed)
        if not (60 <= n <= 300):
            problems.append("%s: %d entries" % (c.cid, n))
        ts = [ts_key(e["timestamp"]) for e in parsed]
        if ts != sorted(ts, reverse=True):
            problems.append("%s: not newest first" % c.cid)
        texts = list(payload_texts(parsed))
        for kind in ("evidence", "red_herrings"):
            for s in truth[kind]:
                if not any(s in x for x in texts):
                    problems.append("%s: %s not found: %r" % (c.cid, kind, s[:90]))
        summary.append((c.cid, n, truth["outcome"], truth["family"]))
    if total_bytes >= 5 * 1024 * 1024:
        problems.append("set too large: %d bytes" % total_bytes)
    for s in summary:
        print("%s  %3d entries  %-17s %s" % s)
    print("total %d entries, %d bytes" % (sum(s[1] for s in summary), total_bytes))
    if problems:
        print("CHECKS FAILED:")
        for p in problems:
            print("  " + p)
        sys.exit(1)
    print("checks OK")


if __name__ == "__main__":
    main()
