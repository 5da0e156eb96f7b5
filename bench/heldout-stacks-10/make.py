#!/usr/bin/env python3
"""Build the heldout-stacks-10 set: twelve synthetic Cloud Logging exports of
Apache Beam Python jobs on Dataflow GPU workers, each with a truth.yaml.

Standard library only. Deterministic: every case has its own seeded
random.Random, gzip members are written with mtime 0, and the whole set is
built twice in memory and compared byte for byte before anything is written.

Run:  python3 make.py
"""

import datetime as _dt
import gzip
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
NS = 10 ** 9

# --------------------------------------------------------------------------
# time helpers
# --------------------------------------------------------------------------


def parse_utc(s):
    d = _dt.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=_dt.timezone.utc)
    return int((d - EPOCH).total_seconds()) * NS


def fmt_ts(ns, digits=9):
    secs, frac = divmod(ns, NS)
    d = EPOCH + _dt.timedelta(seconds=secs)
    s = d.strftime("%Y-%m-%dT%H:%M:%S")
    if digits <= 0:
        return s + "Z"
    return "%s.%sZ" % (s, str(frac).zfill(9)[:digits])


def pacific(ns):
    """Dataflow job ids carry US/Pacific local time."""
    d = EPOCH + _dt.timedelta(seconds=ns // NS)
    y = d.year
    # second Sunday of March, first Sunday of November (10:00 UTC approx.)
    mar = _dt.datetime(y, 3, 8, 10, tzinfo=_dt.timezone.utc)
    while mar.weekday() != 6:
        mar += _dt.timedelta(days=1)
    nov = _dt.datetime(y, 11, 1, 9, tzinfo=_dt.timezone.utc)
    while nov.weekday() != 6:
        nov += _dt.timedelta(days=1)
    off = -7 if mar <= d < nov else -8
    return d + _dt.timedelta(hours=off)


# --------------------------------------------------------------------------
# the case builder
# --------------------------------------------------------------------------

LOWER = "abcdefghijklmnopqrstuvwxyz"
ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"
HEX = "0123456789abcdef"


class VM:
    def __init__(self, name, rid, boot_id, machine_id):
        self.name = name
        self.rid = rid
        self.boot_id = boot_id
        self.machine_id = machine_id
        self.jseq = 0


class Case:
    def __init__(self, cid, seed, project, project_number, job_name, start,
                 region, zone, jm_project_label="id"):
        self.cid = cid
        self.rng = random.Random(seed)
        self.project = project
        self.project_number = project_number
        self.job_name = job_name
        self.region = region
        self.zone = zone
        self.start = parse_utc(start)
        p = pacific(self.start)
        self.job_id = "%s-%s" % (p.strftime("%Y-%m-%d_%H_%M_%S"),
                                 "".join(self.rng.choice("0123456789") for _ in range(19)).lstrip("0").rjust(19, "1"))
        self.created_tag = p.strftime("%m%d%H%M")
        self.start += self.rng.randint(1000000, 999000000)
        self.jm_project_label = project if jm_project_label == "id" else project_number
        self.entries = []
        self.vms = []

    # ---------------- ids
    def rs(self, alphabet, n):
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def new_vm(self):
        name = "%s-%s-%s-harness-%s" % (self.job_name[:25].rstrip("-"), self.created_tag,
                                         self.rs(ALNUM, 4), self.rs(ALNUM, 4))
        rid = str(self.rng.randint(1000000000000000000, 9199999999999999999))
        vm = VM(name, rid, self.rs(HEX, 32), self.rs(HEX, 32))
        self.vms.append(vm)
        return vm

    def jitter(self, lo=0.001, hi=0.9):
        return int(self.rng.uniform(lo, hi) * NS)

    # ---------------- envelopes
    def _resource(self, step=""):
        return {"type": "dataflow_step",
                "labels": {"job_id": self.job_id, "job_name": self.job_name,
                           "project_id": self.project, "region": self.region,
                           "step_id": step}}

    def _vm_labels(self, vm, log_type=None):
        lab = {"compute.googleapis.com/resource_id": vm.rid,
               "compute.googleapis.com/resource_name": vm.name,
               "compute.googleapis.com/resource_type": "instance",
               "dataflow.googleapis.com/job_id": self.job_id,
               "dataflow.googleapis.com/job_name": self.job_name,
               "dataflow.googleapis.com/region": self.region}
        if log_type:
            lab["dataflow.googleapis.com/log_type"] = log_type
        return lab

    def _recv(self, ns, lo=0.15, hi=2.8):
        return fmt_ts(ns + int(self.rng.uniform(lo, hi) * NS), 9)

    def _add(self, ns, e):
        self.entries.append((ns, len(self.entries), e))
        return e

    def jm(self, ns, text, sev="INFO"):
        res = self._resource("")
        res["labels"]["project_id"] = self.jm_project_label
        e = {"insertId": self.rs(ALNUM, self.rng.choice([10, 11, 12])),
             "labels": {"dataflow.googleapis.com/job_id": self.job_id,
                        "dataflow.googleapis.com/job_name": self.job_name,
                        "dataflow.googleapis.com/log_type": "system",
                        "dataflow.googleapis.com/region": self.region},
             "logName": "projects/%s/logs/dataflow.googleapis.com%%2Fjob-message" % self.project,
             "receiveTimestamp": self._recv(ns, 0.3, 1.2),
             "resource": res,
             "severity": sev,
             "textPayload": text,
             "timestamp": fmt_ts(ns, 9)}
        return self._add(ns, e)

    def wk(self, ns, vm, msg, sev="INFO", logger="", sdk="sdk-0-0", thread="MainThread",
           step=""):
        payload = {"job": self.job_id, "logger": logger, "message": msg,
                   "portability_worker_id": sdk, "thread": thread, "worker": vm.name}
        e = {"insertId": self.rs(ALNUM, 14),
             "jsonPayload": payload,
             "labels": self._vm_labels(vm),
             "logName": "projects/%s/logs/dataflow.googleapis.com%%2Fworker" % self.project,
             "receiveTimestamp": self._recv(ns),
             "resource": self._resource(step),
             "severity": sev,
             "timestamp": fmt_ts(ns, 9)}
        return self._add(ns, e)

    def ws(self, ns, vm, msg, sev="INFO", sdk="sdk-0-0"):
        """worker-startup: lines the container boot program sends to the
        logging service."""
        payload = {"job": self.job_id, "message": msg, "portability_worker_id": sdk,
                   "worker": vm.name}
        e = {"insertId": self.rs(ALNUM, 14),
             "jsonPayload": payload,
             "labels": self._vm_labels(vm),
             "logName": "projects/%s/logs/dataflow.googleapis.com%%2Fworker-startup" % self.project,
             "receiveTimestamp": self._recv(ns),
             "resource": self._resource(""),
             "severity": sev,
             "timestamp": fmt_ts(ns, 9)}
        return self._add(ns, e)

    def dk(self, ns, vm, msg, sev="ERROR", container="sdk-0-0"):
        """docker: raw stdout/stderr of a container (stderr lands as ERROR)."""
        payload = {"container": container, "message": msg}
        e = {"insertId": self.rs(ALNUM, 14),
             "jsonPayload": payload,
             "labels": self._vm_labels(vm),
             "logName": "projects/%s/logs/dataflow.googleapis.com%%2Fdocker" % self.project,
             "receiveTimestamp": self._recv(ns),
             "resource": self._resource(""),
             "severity": sev,
             "timestamp": fmt_ts(ns, 9)}
        return self._add(ns, e)

    def hn(self, ns, vm, msg, sev="INFO"):
        payload = {"job": self.job_id, "message": msg, "worker": vm.name}
        e = {"insertId": self.rs(ALNUM, 14),
             "jsonPayload": payload,
             "labels": self._vm_labels(vm),
             "logName": "projects/%s/logs/dataflow.googleapis.com%%2Fharness" % self.project,
             "receiveTimestamp": self._recv(ns),
             "resource": self._resource(""),
             "severity": sev,
             "timestamp": fmt_ts(ns, 9)}
        return self._add(ns, e)

    def _cursor(self, vm, ns):
        vm.jseq += self.rng.randint(1, 40)
        mono = (ns - self.start) // 1000 + 4000000
        return "s=%s;i=%x;b=%s;m=%x;t=%x;x=%s" % (vm.machine_id, vm.jseq, vm.boot_id, mono,
                                                   ns // 1000, self.rs(HEX, 16))

    def _journal(self, logname, ns, vm, msg, sev):
        e = {"insertId": self._cursor(vm, ns),
             "jsonPayload": {"message": msg},
             "labels": self._vm_labels(vm, "system"),
             "logName": "projects/%s/logs/dataflow.googleapis.com%%2F%s" % (self.project, logname),
             "receiveTimestamp": self._recv(ns, 1.0, 9.0),
             "resource": self._resource(""),
             "severity": sev,
             "timestamp": fmt_ts(ns, 6)}
        return self._add(ns, e)

    def sy(self, ns, vm, msg, sev="INFO"):
        return self._journal("system", ns, vm, msg, sev)

    def kb(self, ns, vm, msg, sev="INFO"):
        return self._journal("kubelet", ns, vm, msg, sev)

    def klog(self, ns, level, src, text):
        d = EPOCH + _dt.timedelta(seconds=ns // NS)
        return "%s%s %s.%06d    %d %s] %s" % (level, d.strftime("%m%d"), d.strftime("%H:%M:%S"),
                                               (ns % NS) // 1000, self.rng.randint(1100, 1900), src, text)

    def sorted_entries(self):
        return [e for _, _, e in sorted(self.entries, key=lambda x: (x[0], x[1]))]


# --------------------------------------------------------------------------
# shared log material (all real texts; see SOURCES for where each is from)
# --------------------------------------------------------------------------

SRC = {
    "jobmsg": ("Dataflow job-message wording of a normal run (Worker configuration, Executing/Finished operation, Starting N workers in REGION..., All workers have finished the startup processes..., Stopping worker pool..., Worker pool stopped.)",
               "console transcripts of real Dataflow runs: a 2024 Dataflow wordcount transcript (job 2024-04-27_14_34_41-15368285970572376633) and jcbaey/dataflow_python_timer README, as quoted in /work/shared/reference/dataflow-log-signatures.md section 2i; GoogleCloudPlatform/DataflowTemplates and apache/beam load-test code match 'All workers have finished the startup processes and began to receive work requests.'"),
    "jobmsg_fail4": ("'The job failed because a work item has failed 4 times. Look in previous log entries for the cause of each one of the 4 failures. ...' and 'Error message from worker: ...'",
                     "https://github.com/apache/beam/issues/30482 (current wording) and https://github.com/apache/beam/issues/19306 (Workflow failed. Causes: ...)"),
    "jobmsg_stuck": ("'Workflow failed. Causes: The Dataflow job appears to be stuck because no worker activity has been seen in the last 1h. Please check the worker logs in Stackdriver Logging. You can also get help with Cloud Dataflow at https://cloud.google.com/dataflow/support.'",
                     "https://github.com/google-research/text-to-text-transfer-transformer/issues/986 and apache/beam PR #34381 (full text), Dataflow GPU page 'Run a pipeline with GPUs' (doc-pages copy quotes the 1h line)"),
    "jobmsg_streaming": ("'Autoscaling is enabled for Dataflow Streaming Engine. Workers will scale between 1 and 100 unless maxNumWorkers is specified.'",
                         "jcbaey/dataflow_python_timer README (reference file section 2i)"),
    "boot": ("Python SDK container boot lines: 'Initializing python harness: %v', 'Initializing temporary Python venv in %v', 'Found artifact: %s', 'Installing setup packages ...', 'Using Python version:', 'Logging runtime dependencies:', 'Logging submission environment dependencies:', 'Executing Python (worker %v): python %v', 'Python (worker %v) exited %v times: %v', 'Received signal: %v'",
             "apache/beam sdks/python/container/boot.go (commit e6b636c9)"),
    "piputil": ("'Some packages could not be installed solely from the requirements cache. Installing packages from PyPI.' and the 15 s flush of pip output through the boot logger",
                "apache/beam sdks/python/container/piputil.go and sdks/go/container/tools/buffered_logging.go"),
    "harness": ("SDK harness start-up lines: 'Logging handler created.', 'semi_persistent_directory: %s', 'Pipeline_options: %s', 'Python sdk harness starting.', 'Creating insecure control channel for %s.', 'Control channel established.', 'Initializing SDKHarness with unbounded number of workers.', 'Creating insecure state channel for %s.', 'State channel established.', 'Creating client data channel for %s', 'No session file found: %s. Functions defined in __main__ (interactive session) may fail.'",
                "apache/beam sdks/python/apache_beam/runners/worker/sdk_worker_main.py and sdk_worker.py; jcbaey/dataflow_python_timer README shows the same lines in a Dataflow worker log"),
    "sdkerr": ("'Error processing instruction %s. Original traceback is\\n%s\\n' and the ' [while running '...']' suffix Beam adds to user exceptions",
               "apache/beam sdks/python/apache_beam/runners/worker/sdk_worker.py (_execute)"),
    "lull": ("'Operation ongoing in bundle %s%s for at least %.2f seconds without outputting or completing.\\nCurrent Traceback:\\n%s'",
             "apache/beam sdks/python/apache_beam/runners/worker/worker_status.py (_log_lull_in_bundle_processor)"),
    "benign_k8s": ("kubelet/system lines Dataflow documents as harmless: 'Error initializing dynamic plugin prober\" err=\"error (re-)creating driver directory: mkdir /usr/libexec/kubernetes: read-only file system', 'Skipping pod synchronization\" err=\"container runtime status check may not have completed yet', '...PLEG is not healthy: pleg has yet to be successful', 'ima: Can not allocate sha384 (reason: -2)', 'Error running LookupEffectiveGuestPolicies', 'Unable to fetch data due to token mismatch for key'",
                   "Dataflow 'Troubleshoot Dataflow errors' page https://cloud.google.com/dataflow/docs/guides/common-errors (list of benign messages, quoted in the reference file section 2i); 'ima: No architecture policies found' from kolban-google/offline-log-viewer src/LogRecord.js"),
    "cosgpu": ("GPU driver installer lines 'Installing GPU driver version %s', 'Loading gpu-key to secondary system keyring', 'Successfully load key gpu-key into secondary system keyring.', 'Verifying GPU driver installation', 'Finished installing the drivers.'",
               "https://github.com/GoogleCloudPlatform/container-engine-accelerators/issues/237 and cos-gpu-installer source strings (reference file section 2e); that Dataflow writes them to the system log is an assumption"),
    "journald": ("system-log envelope with a journald cursor as insertId",
                 "kolban-google/offline-log-viewer src/LogRecord.js (reference file section 1.2 A)"),
}


def vm_boot(c, vm, t, driver):
    """Host start: kernel chatter, guest agent, GPU driver install (system log)
    and kubelet start-up noise.  Returns the new time cursor."""
    c.sy(t, vm, "ima: No architecture policies found")
    t += c.jitter(0.01, 0.2)
    c.sy(t, vm, "ima: Can not allocate sha384 (reason: -2)")
    t += c.jitter(2, 6)
    c.sy(t, vm, "Error running LookupEffectiveGuestPolicies", "ERROR")
    t += c.jitter(1, 4)
    c.sy(t, vm, "Installing GPU driver version %s" % driver)
    t += c.jitter(0.2, 0.8)
    c.sy(t, vm, "Loading gpu-key to secondary system keyring")
    t += c.jitter(0.1, 0.4)
    c.sy(t, vm, "Successfully load key gpu-key into secondary system keyring.")
    t += c.jitter(25, 55)
    c.sy(t, vm, "Verifying GPU driver installation")
    t += c.jitter(2, 6)
    c.sy(t, vm, "Finished installing the drivers.")
    t += c.jitter(3, 8)
    c.kb(t, vm, c.klog(t, "E", "plugins.go:616", '"Error initializing dynamic plugin prober" err="error (re-)creating driver directory: mkdir /usr/libexec/kubernetes: read-only file system"'), "ERROR")
    t += c.jitter(0.5, 1.5)
    c.kb(t, vm, c.klog(t, "E", "kubelet.go:2373", '"Skipping pod synchronization" err="container runtime status check may not have completed yet"'), "ERROR")
    t += c.jitter(0.5, 1.5)
    c.kb(t, vm, c.klog(t, "E", "kubelet.go:2373", '"Skipping pod synchronization" err="[container runtime status check may not have completed yet, PLEG is not healthy: pleg has yet to be successful]"'), "ERROR")
    t += c.jitter(20, 70)   # image pull
    return t


def boot_sdk(c, vm, t, sdk, python_version, artifacts, pip_freeze=None, submission=None,
             pip_chunks=None):
    c.ws(t, vm, "Initializing python harness: /opt/apache/beam/boot --id=%s --provision_endpoint=localhost:12373" % sdk, sdk=sdk)
    t += c.jitter(0.05, 0.3)
    c.ws(t, vm, "Initializing temporary Python venv in /opt/apache/beam-venv/beam-venv-worker-%s" % sdk, sdk=sdk)
    t += c.jitter(1.5, 3.5)
    for a in artifacts:
        c.ws(t, vm, "Found artifact: %s" % a, sdk=sdk)
        t += c.jitter(0.001, 0.01)
    c.ws(t, vm, "Installing setup packages ...", sdk=sdk)
    t += c.jitter(0.3, 1.0)
    for chunk in (pip_chunks or []):
        t += int(chunk[0] * NS)
        c.ws(t, vm, chunk[1], sdk=sdk)
    t += c.jitter(0.5, 2)
    c.ws(t, vm, "Using Python version:", sdk=sdk)
    t += c.jitter(0.01, 0.05)
    c.ws(t, vm, "Python %s\n" % python_version, sdk=sdk)
    t += c.jitter(0.01, 0.05)
    if pip_freeze:
        c.ws(t, vm, "Logging runtime dependencies:", sdk=sdk)
        t += c.jitter(0.8, 1.6)
        c.ws(t, vm, "\n".join(pip_freeze) + "\n", sdk=sdk)
        t += c.jitter(0.01, 0.05)
    if submission:
        c.ws(t, vm, "Logging submission environment dependencies:", sdk=sdk)
        t += c.jitter(0.001, 0.01)
        c.ws(t, vm, "\n".join(submission) + "\n", sdk=sdk)
        t += c.jitter(0.01, 0.05)
    c.ws(t, vm, "Executing Python (worker %s): python -m apache_beam.runners.worker.sdk_worker_main" % sdk, sdk=sdk)
    t += c.jitter(2, 5)
    return t


def harness_start(c, vm, t, sdk, pyminor, options, dill=False):
    base = "/usr/local/lib/python%s/site-packages/apache_beam/runners/worker/" % pyminor
    c.wk(t, vm, "Logging handler created.", logger=base + "sdk_worker_main.py:107", sdk=sdk)
    t += c.jitter(0.001, 0.01)
    c.wk(t, vm, "semi_persistent_directory: /var/opt/google", logger=base + "sdk_worker_main.py:131", sdk=sdk)
    t += c.jitter(0.001, 0.01)
    if dill:
        c.wk(t, vm, "No session file found: /var/opt/google/staged/pickled_main_session. Functions defined in __main__ (interactive session) may fail.",
             "WARNING", logger=base + "sdk_worker_main.py:357", sdk=sdk)
        t += c.jitter(0.001, 0.01)
    c.wk(t, vm, "Pipeline_options: %s" % options, logger=base + "sdk_worker_main.py:160", sdk=sdk)
    t += c.jitter(0.01, 0.05)
    c.wk(t, vm, "Python sdk harness starting.", logger=base + "sdk_worker_main.py:216", sdk=sdk)
    t += c.jitter(0.001, 0.01)
    c.wk(t, vm, "Creating insecure control channel for localhost:12371.", logger=base + "sdk_worker.py:198", sdk=sdk)
    t += c.jitter(0.005, 0.03)
    c.wk(t, vm, "Control channel established.", logger=base + "sdk_worker.py:206", sdk=sdk)
    t += c.jitter(0.001, 0.01)
    c.wk(t, vm, "Initializing SDKHarness with unbounded number of workers.", logger=base + "sdk_worker.py:249", sdk=sdk)
    t += c.jitter(0.05, 0.4)
    c.wk(t, vm, "Creating insecure state channel for localhost:12371.", logger=base + "sdk_worker.py:1154", sdk=sdk, thread="Thread-12")
    t += c.jitter(0.001, 0.01)
    c.wk(t, vm, "State channel established.", logger=base + "sdk_worker.py:1161", sdk=sdk, thread="Thread-12")
    t += c.jitter(0.001, 0.01)
    c.wk(t, vm, "Creating client data channel for localhost:12371", logger=base + "data_plane.py:802", sdk=sdk, thread="Thread-12")
    t += c.jitter(0.1, 0.5)
    return t


def jm_start(c, t, machine, ops, nworkers, maxw, streaming=False):
    c.jm(t, "Worker configuration: %s in %s." % (machine, c.zone))
    t += c.jitter(0.5, 1.5)
    c.jm(t, "Expanding SplittableParDo operations into optimizable parts.")
    t += c.jitter(0.01, 0.05)
    c.jm(t, "Fusing adjacent ParDo, Read, Write, and Flatten operations")
    t += c.jitter(0.05, 0.3)
    c.jm(t, "Workflow config is missing a default resource spec.", "DEBUG")
    t += c.jitter(0.01, 0.05)
    c.jm(t, "Starting worker pool setup.", "DEBUG")
    t += c.jitter(0.3, 1.0)
    for op in ops:
        c.jm(t, "Executing operation %s" % op)
        t += c.jitter(0.01, 0.05)
    c.jm(t, "Starting %d workers in %s..." % (nworkers, c.region))
    t += c.jitter(0.5, 2)
    if streaming:
        c.jm(t, "Autoscaling is enabled for Dataflow Streaming Engine. Workers will scale between 1 and 100 unless maxNumWorkers is specified.", "WARNING")
    else:
        c.jm(t, "Autoscaling is enabled for job %s. The number of workers will be between 1 and %d." % (c.job_id, maxw))
    t += c.jitter(20, 40)
    c.jm(t, "Autoscaling: Raised the number of workers to %d based on the rate of progress in the currently running stage(s)." % nworkers)
    return t


def jm_teardown(c, t, nworkers):
    c.jm(t, "Cleaning up.")
    t += c.jitter(0.05, 0.3)
    c.jm(t, "Starting worker pool teardown.", "DEBUG")
    t += c.jitter(0.05, 0.3)
    c.jm(t, "Stopping worker pool...")
    t += c.jitter(60, 140)
    c.jm(t, "Autoscaling: Resized worker pool from %d to 0." % nworkers)
    t += c.jitter(0.01, 0.1)
    c.jm(t, "Autoscaling: Would further reduce the number of workers but reached the minimum number allowed for the job.")
    t += c.jitter(0.5, 3)
    c.jm(t, "Worker pool stopped.")
    t += c.jitter(0.5, 3)
    c.jm(t, "Tearing down pending resources...", "DEBUG")
    return t


def harness_split(c, t, vm):
    """A harness line Dataflow documents as harmless."""
    c.hn(t, vm, "Continuing to process work-id %d without splitting. Reader split status was: INTERNAL: Empty split returned."
         % c.rng.randint(10 ** 18, 9 * 10 ** 18))


SPLIT_TEXT = "without splitting. Reader split status was: INTERNAL: Empty split returned."


def opts_repr(d):
    parts = []
    for k, v in d:
        parts.append("%r: %r" % (k, v))
    return "{" + ", ".join(parts) + "}"


# ==========================================================================
# hs10-01  JAX x64 disabled on the workers -> silent float32 (succeeded, wrong)
# ==========================================================================

K01_WARN = ("/usr/local/lib/python3.11/site-packages/xva/simulate.py:57: UserWarning: Explicitly requested dtype "
            "float64 requested in asarray is not available, and will be truncated to dtype float32. To enable more "
            "dtypes, set the jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment variable. "
            "See https://github.com/jax-ml/jax#current-gotchas for more.")
K01_WARN2 = ("/usr/local/lib/python3.11/site-packages/xva/simulate.py:71: UserWarning: Explicitly requested dtype "
             "<class 'jax.numpy.float64'> requested in zeros is not available, and will be truncated to dtype float32. "
             "To enable more dtypes, set the jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell "
             "environment variable. See https://github.com/jax-ml/jax#current-gotchas for more.")
K01_TPU = "Unable to initialize backend 'tpu': INTERNAL: Failed to open libtpu.so: libtpu.so: cannot open shared object file: No such file or directory"
K01_PTX = ("The NVIDIA driver's CUDA version is 12.2 which is older than the PTX compiler version (12.8.93). Because "
           "the driver is older than the PTX compiler version, XLA is disabling parallel compilation, which may slow "
           "down compilation. You should update your NVIDIA driver or use the NVIDIA-provided CUDA forward "
           "compatibility packages.")


def case01():
    c = Case("hs10-01", 101, "tessera-risk-prod", "418233905117", "xva-exposure-mc-20250318",
             "2025-03-18T09:12:04", "us-central1", "us-central1-c", jm_project_label="number")
    img = "us-central1-docker.pkg.dev/tessera-risk-prod/dataflow/xva-jax:2025.03.1"
    acc = "worker_accelerator=type:nvidia-a100-80gb;count:1;install-nvidia-driver"
    opts = opts_repr([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name),
        ("staging_location", "gs://tessera-risk-dataflow/staging"), ("temp_location", "gs://tessera-risk-dataflow/tmp"),
        ("region", c.region), ("dataflow_service_options", [acc]),
        ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("num_workers", 2), ("max_num_workers", 4), ("machine_type", "a2-ultragpu-1g"), ("disk_size_gb", 100),
        ("number_of_worker_harness_threads", 4), ("sdk_container_image", img), ("sdk_location", "container"),
        ("setup_file", "./setup.py"), ("pickle_library", "cloudpickle"),
        ("valuation_date", "2025-03-17"), ("paths", 250000), ("steps", 360)])
    ops = ["ReadTrades/Read/Impulse+ReadTrades/Read/EmitSource+ref_AppliedPTransform_ReadTrades-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/PairWithRestriction+ref_AppliedPTransform_ReadTrades-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/SplitWithSizing",
           "GroupByNettingSet/Create"]
    t = c.start
    t = jm_start(c, t, "a2-ultragpu-1g", ops, 2, 4)
    freeze = ["absl-py==2.1.0", "apache-beam==2.63.0", "cloudpickle==2.2.1", "google-cloud-bigquery==3.27.0",
              "google-cloud-storage==2.19.0", "jax==0.5.2", "jax-cuda12-pjrt==0.5.2", "jax-cuda12-plugin==0.5.2",
              "jaxlib==0.5.2", "ml_dtypes==0.5.1", "numpy==2.1.3", "nvidia-cublas-cu12==12.8.4.1",
              "nvidia-cuda-nvcc-cu12==12.8.93", "nvidia-cudnn-cu12==9.8.0.87", "opt_einsum==3.4.0",
              "pandas==2.2.3", "pyarrow==16.1.0", "scipy==1.15.2", "xva-pipeline @ file:///var/opt/google/staged/workflow.tar.gz"]
    pipw = [(4.1, "Processing /var/opt/google/staged/workflow.tar.gz\n"),
            (0.02, "  Preparing metadata (setup.py): started\n"),
            (1.3, "  Preparing metadata (setup.py): finished with status 'done'\n"),
            (0.4, "Building wheels for collected packages: xva-pipeline\n"),
            (2.2, "  Building wheel for xva-pipeline (setup.py): finished with status 'done'\n"),
            (0.3, "Successfully built xva-pipeline\n"),
            (0.6, "Successfully installed xva-pipeline-1.4.2\n")]
    vms = [c.new_vm(), c.new_vm()]
    ready = []
    for i, vm in enumerate(vms):
        tv = t + c.jitter(20, 50)
        tv = vm_boot(c, vm, tv, "535.230.02")
        tv = boot_sdk(c, vm, tv, "sdk-0-0", "3.11.11",
                      ["submission_environment_dependencies.txt", "workflow.tar.gz"],
                      pip_freeze=freeze if i == 0 else None, pip_chunks=pipw)
        tv = harness_start(c, vm, tv, "sdk-0-0", "3.11", opts)
        ready.append(tv)
    t = max(ready) + c.jitter(5, 15)
    c.jm(t, "Workers have started successfully.")
    t += c.jitter(30, 60)
    c.jm(t, "All workers have finished the startup processes and began to receive work requests.")
    t += c.jitter(1, 3)
    c.jm(t, "Finished operation %s" % ops[1])
    t += c.jitter(0.1, 0.5)
    c.jm(t, "Executing operation GroupByNettingSet/Read+SimulateExposure+AggregateEPE+WriteExposures/ConvertToRows+WriteExposures/StorageWriteToBigQuery")
    # per worker: jax init, warnings, compile lull, then work
    logger_dofn = "/usr/local/lib/python3.11/site-packages/xva/simulate.py:%d"
    netting = ["NS-%05d" % n for n in sorted(c.rng.sample(range(1000, 2400), 36))]
    tw = []
    for i, vm in enumerate(vms):
        tv = t + c.jitter(2, 8)
        c.wk(tv, vm, K01_TPU, logger="/usr/local/lib/python3.11/site-packages/jax/_src/xla_bridge.py:945",
             thread="Thread-21", step="SimulateExposure")
        tv += c.jitter(0.3, 0.9)
        c.wk(tv, vm, "JAX devices: [CudaDevice(id=0)] (jax 0.5.2, backend=gpu)", logger=logger_dofn % 38,
             thread="Thread-21", step="SimulateExposure")
        tv += c.jitter(0.2, 0.6)
        c.wk(tv, vm, "Loaded market data snapshot 2025-03-17: 412 curves, 1860 vol surfaces",
             logger=logger_dofn % 44, thread="Thread-21", step="SimulateExposure")
        tv += c.jitter(0.5, 1.5)
        c.dk(tv, vm, K01_WARN)
        c.dk(tv + 1000, vm, "  spot = jnp.asarray(spot_paths, dtype=jnp.float64)")
        tv += c.jitter(0.05, 0.2)
        c.dk(tv, vm, K01_WARN2)
        c.dk(tv + 1000, vm, "  exposure = jnp.zeros((n_paths, n_steps), dtype=jnp.float64)")
        tv += c.jitter(1, 3)
        c.dk(tv, vm, "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR")
        d = EPOCH + _dt.timedelta(seconds=tv // NS)
        c.dk(tv + 2000, vm, "W%s %s.%06d     412 nvptx_compiler.cc:930] %s" % (
            d.strftime("%m%d"), d.strftime("%H:%M:%S"), (tv % NS) // 1000, K01_PTX))
        tv += int(c.rng.uniform(301, 330) * NS)
        if i == 0:
            c.wk(tv, vm, ("Operation ongoing in bundle process_bundle-7726140563118392214-41 for PTransform{name=SimulateExposure, state=process-msecs} "
                          "for at least %.2f seconds without outputting or completing.\nCurrent Traceback:\n"
                          "  File \"/usr/local/lib/python3.11/threading.py\", line 1002, in _bootstrap\n    self._bootstrap_inner()\n\n"
                          "  File \"/usr/local/lib/python3.11/site-packages/xva/simulate.py\", line 96, in process\n    epe = self._simulate(paths, trades)\n\n"
                          "  File \"/usr/local/lib/python3.11/site-packages/jax/_src/pjit.py\", line 1691, in _pjit_call_impl_python\n"
                          "    compiled = computation.compile()\n") % c.rng.uniform(300.5, 301.9),
                 "WARNING", logger="/usr/local/lib/python3.11/site-packages/apache_beam/runners/worker/worker_status.py:452",
                 thread="Thread-4")
        tv += c.jitter(20, 60)
        tw.append(tv)
    # progress
    first_line = None
    for k, ns_id in enumerate(netting):
        vm = vms[k % 2]
        tw[k % 2] += int(c.rng.uniform(9, 16) * NS)
        secs = c.rng.uniform(9.5, 14.0)
        peak = c.rng.uniform(1.2e6, 9.8e7)
        line = ("%s: simulated 250000 paths x 360 steps in %.1f s; EPE peak %.4e at t=%.2fy (dtype=float32)"
                % (ns_id, secs, peak, c.rng.choice([0.5, 1.0, 1.25, 2.5, 3.0, 4.75])))
        first_line = first_line or line
        c.wk(tw[k % 2], vm, line,
             logger=logger_dofn % 118, thread="Thread-%d" % c.rng.choice([21, 23, 24, 26]), step="SimulateExposure")
        if k == 14:
            tg = tw[k % 2] + c.jitter(1, 5)
            c.wk(tg, vm, "Transient error reading gs://tessera-risk-marketdata/curves/2025-03-17/ois_usd.parquet: 503 Service Unavailable; retry 1/5 in 2.0 s",
                 "WARNING", logger=logger_dofn % 52, thread="Thread-23", step="SimulateExposure")
            c.wk(tg + int(2.3 * NS), vm, "Read gs://tessera-risk-marketdata/curves/2025-03-17/ois_usd.parquet (attempt 2)",
                 logger=logger_dofn % 55, thread="Thread-23", step="SimulateExposure")
    harness_split(c, tw[1] - c.jitter(60, 120), vms[1])
    t = max(tw) + c.jitter(10, 30)
    c.jm(t, "Finished operation GroupByNettingSet/Read+SimulateExposure+AggregateEPE+WriteExposures/ConvertToRows+WriteExposures/StorageWriteToBigQuery")
    t += c.jitter(1, 3)
    for vm in vms:
        tv = t + c.jitter(0.5, 2)
        base = "/usr/local/lib/python3.11/site-packages/apache_beam/runners/worker/sdk_worker.py:%d"
        c.wk(tv, vm, "No more requests from control plane", logger=base % 290)
        c.wk(tv + 1000, vm, "SDK Harness waiting for in-flight requests to complete", logger=base % 291)
        c.wk(tv + 90000, vm, "Done consuming work.", logger=base % 303)
        c.ws(tv + c.jitter(0.5, 1), vm, "Python (worker sdk-0-0) exited.")
        c.ws(tv + c.jitter(1.1, 2), vm, "Cleaned up temporary venv for worker sdk-0-0.")
    t = jm_teardown(c, t + c.jitter(2, 5), 2)

    truth = {
        "outcome": "succeeded",
        "family": "JAX/XLA: 64-bit mode not enabled in the worker processes, float64 silently truncated to float32",
        "root_cause": (
            "The exposure simulation asks for float64 (jnp.asarray(..., dtype=jnp.float64), jnp.zeros(..., dtype=jnp.float64)), "
            "but JAX's 64-bit mode is off in the Dataflow SDK process. The team enables it with "
            "jax.config.update('jax_enable_x64', True) in the launcher's main(), which only affects the launching process; "
            "the workers import xva.simulate in a fresh interpreter where jax_enable_x64 is False, so JAX prints a UserWarning "
            "on stderr and silently computes every path in float32. The job finishes and writes exposures, but the numbers "
            "carry float32 precision (about 7 significant digits) and do not reconcile with the float64 reference run. "
            "Fix: enable x64 where the work runs: ENV JAX_ENABLE_X64=1 in the worker image (or jax.config.update('jax_enable_x64', True) "
            "at the top of DoFn.setup() before any array is created), add an assertion on the result dtype, and rerun the valuation date."),
        "setup": {
            "hardware": "2 x a2-ultragpu-1g (1 x NVIDIA A100 80GB each), us-central1-c, NVIDIA driver 535.230.02 (CUDA 12.2)",
            "sdk": "Apache Beam Python 2.63.0, Python 3.11, Runner v2, one SDK process per worker (no_use_multiple_sdk_containers)",
            "image": img + " (jax[cuda12]==0.5.2)",
            "pipeline": "batch: BigQuery trades -> group by netting set -> JAX Monte Carlo exposure simulation -> BigQuery",
            "gpu_option": "--dataflow_service_options=" + acc},
        "evidence": [K01_WARN, K01_WARN2, first_line],
        "red_herrings": [
            {"text": K01_PTX, "why": "XLA only disables parallel PTX compilation because the driver is older than the bundled ptxas; compilation is slower, results are unaffected."},
            {"text": K01_TPU, "why": "JAX probes every backend at start-up and logs the missing TPU runtime at INFO; the GPU backend initialised (JAX devices: [CudaDevice(id=0)])."},
            {"text": "Operation ongoing in bundle process_bundle-7726140563118392214-41 for PTransform{name=SimulateExposure, state=process-msecs}", "why": "One lull report while XLA compiled the simulation the first time; processing continued right after."},
            {"text": "503 Service Unavailable; retry 1/5 in 2.0 s", "why": "A single transient Cloud Storage error that succeeded on the second attempt."},
            {"text": "Error running LookupEffectiveGuestPolicies", "why": "Guest-agent message Dataflow lists as harmless."},
        ],
        "sources": [
            {"what": "JAX truncation UserWarning text ('Explicitly requested dtype float64 requested in asarray is not available, and will be truncated to dtype float32 ... See https://github.com/jax-ml/jax#current-gotchas for more.'), as printed by JAX for asarray/zeros, including the <class 'jax.numpy.float64'> form",
             "source": "jax-ml/jax jax/_src/dtypes.py (check_user_dtype_supported); real outputs in keras-io examples (keras/src/backend/jax/core.py:76 ... requested in asarray) and a POT/JAX notebook (dtype <class 'jax.numpy.float64'> requested in array)"},
            {"what": "'Unable to initialize backend 'tpu': INTERNAL: Failed to open libtpu.so: libtpu.so: cannot open shared object file: No such file or directory' (INFO from jax._src.xla_bridge)",
             "source": "jax-ml/jax jax/_src/xla_bridge.py; seen in public GPU run logs (e.g. AlphaFold3 and piscis READMEs)"},
            {"what": "XLA warning 'The NVIDIA driver's CUDA version is 12.2 which is older than the PTX compiler version (...). Because the driver is older than the PTX compiler version, XLA is disabling parallel compilation ...'",
             "source": "openxla/xla xla/service/gpu/nvptx_compiler.cc; real lines in public logs (driver 12.2 vs ptxas 12.4.131 etc.)"},
            {"what": "job-message lines", "source": SRC["jobmsg"][1]},
            {"what": "boot, pip-freeze and harness lines", "source": SRC["boot"][1] + "; " + SRC["harness"][1]},
            {"what": "lull warning", "source": SRC["lull"][1]},
            {"what": "system/kubelet noise and driver install lines", "source": SRC["benign_k8s"][1] + "; " + SRC["cosgpu"][1]},
        ],
        "synthetic": [
            "All envelopes, ids, names, timestamps, project, bucket and image names.",
            "The pipeline's own log lines (JAX devices, market data, per-netting-set EPE lines, Cloud Storage retry) are invented.",
            "Source line numbers in logger paths and the XLA absl prefix are plausible, not copied.",
            "Where Dataflow puts the COS GPU-installer lines (system log) is an assumption; stderr of the SDK container is shown in the docker log as ERROR.",
        ],
    }
    return c, truth


# ==========================================================================
# hs10-02  Hugging Face generate() default max_length=20 (succeeded, truncated)
# ==========================================================================

K02_WARN = ("/usr/local/lib/python3.10/site-packages/transformers/generation/utils.py:1178: UserWarning: Using the "
            "model-agnostic default `max_length` (=20) to control the generation length. We recommend setting "
            "`max_new_tokens` to control the maximum length of the generation.")
K02_LEGACY = ("You are using the default legacy behaviour of the <class 'transformers.models.t5.tokenization_t5.T5Tokenizer'>. "
              "This is expected, and simply means that the `legacy` (previous) behavior will be used so nothing changes "
              "for you. If you want to use the new behaviour, set `legacy=False`. This should only be set if you "
              "understand what it means, and thoroughly read the reason why this was added as explained in "
              "https://github.com/huggingface/transformers/pull/24565")
K02_TOKLEN = ("Token indices sequence length is longer than the specified maximum sequence length for this model (734 > 512). "
              "Running this sequence through the model will result in indexing errors")
K02_FORK = ("huggingface/tokenizers: The current process just got forked, after parallelism has already been used. "
            "Disabling parallelism to avoid deadlocks...")


def case02():
    c = Case("hs10-02", 202, "harbor-claims-ml", "771020466318", "claims-notes-summary-nightly",
             "2025-02-11T14:03:27", "us-east1", "us-east1-c")
    img = "us-east1-docker.pkg.dev/harbor-claims-ml/ml/claims-summarizer:1.7"
    acc = "worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"
    opts = opts_repr([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name),
        ("temp_location", "gs://harbor-claims-dataflow/tmp"), ("region", c.region),
        ("dataflow_service_options", [acc]), ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("max_num_workers", 6), ("machine_type", "n1-standard-8"), ("sdk_container_image", img),
        ("sdk_location", "container"), ("save_main_session", False),
        ("model_dir", "/opt/models/flan-t5-large-claims-sum-v3"), ("run_date", "2025-02-10")])
    step_pre = "Tokenize"
    step_ri = "Summarize/BeamML_RunInference"
    ops = ["ReadNotes/Read/Impulse+ReadNotes/Read/EmitSource+ref_AppliedPTransform_ReadNotes-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/PairWithRestriction+ref_AppliedPTransform_ReadNotes-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/SplitWithSizing"]
    t = c.start
    t = jm_start(c, t, "n1-standard-8", ops, 3, 6)
    vms = [c.new_vm() for _ in range(3)]
    ready = []
    freeze = ["accelerate==0.27.2", "apache-beam==2.61.0", "huggingface-hub==0.20.3", "numpy==1.26.4",
              "safetensors==0.4.2", "sentencepiece==0.1.99", "tokenizers==0.15.2", "torch==2.2.2+cu121",
              "transformers==4.38.2"]
    for i, vm in enumerate(vms):
        tv = t + c.jitter(15, 45)
        tv = vm_boot(c, vm, tv, "535.230.02")
        sdks = ["sdk-0-0"]
        for sdk in sdks:
            tv = boot_sdk(c, vm, tv, sdk, "3.10.16", ["submission_environment_dependencies.txt", "pickled_main_session"],
                          pip_freeze=freeze if (i == 0 and sdk == "sdk-0-0") else None)
            tv = harness_start(c, vm, tv, sdk, "3.10", opts, dill=True)
        ready.append(tv)
    t = max(ready) + c.jitter(3, 10)
    c.jm(t, "Workers have started successfully.")
    t += c.jitter(20, 50)
    c.jm(t, "All workers have finished the startup processes and began to receive work requests.")
    t += c.jitter(0.5, 2)
    c.jm(t, "Executing operation ref_AppliedPTransform_ReadNotes-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/ProcessElementAndRestrictionWithSizing+Clean+Tokenize+Summarize/BeamML_RunInference+Decode+WriteSummaries/ConvertToRows+WriteSummaries/StorageWriteToBigQuery")
    lg = "/usr/local/lib/python3.10/site-packages/claims_nlp/%s"
    tw = []
    for i, vm in enumerate(vms):
        tv = t + c.jitter(2, 6)
        c.dk(tv, vm, K02_LEGACY)
        tv += c.jitter(0.2, 0.8)
        c.wk(tv, vm, "Loading T5ForConditionalGeneration from /opt/models/flan-t5-large-claims-sum-v3 on cuda:0 (num_beams=4)",
             logger=lg % "pipeline.py:64", thread="Thread-17", step=step_ri)
        tv += c.jitter(6, 14)
        if i == 0:
            c.dk(tv, vm, K02_TOKLEN)
            tv += c.jitter(0.1, 0.4)
        c.dk(tv, vm, K02_WARN)
        c.dk(tv + 1000, vm, "  warnings.warn(")
        tv += c.jitter(3, 9)
        if i == 1:
            c.dk(tv, vm, K02_FORK)
            c.dk(tv + 1000, vm, "To disable this warning, you can either:")
            c.dk(tv + 2000, vm, "\t- Avoid using `tokenizers` before the fork if possible")
            c.dk(tv + 3000, vm, "\t- Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)")
            tv += c.jitter(1, 3)
        tw.append(tv)
    samples = [
        ("CLM-25-0418822", "Insured reports water damage to kitchen ceiling from upstairs bathroom leak; adjuster"),
        ("CLM-25-0419307", "Rear-end collision at low speed on I-95; claimant states neck pain and"),
        ("CLM-25-0420015", "Policyholder disputes depreciation on roof replacement estimate; contractor invoice"),
        ("CLM-25-0421460", "Theft of catalytic converter from insured vehicle parked at apartment complex;"),
    ]
    for k in range(27):
        w = k % 3
        tw[w] += int(c.rng.uniform(25, 70) * NS)
        vm = vms[w]
        n = c.rng.choice([48, 56, 64, 64, 64])
        c.wk(tw[w], vm, "Summarized %d notes in %.2f s (mean output length 19.0 tokens, max 19)" % (n, c.rng.uniform(4.8, 7.9)),
             logger=lg % "pipeline.py:121", thread="Thread-%d" % c.rng.choice([17, 19, 22]), step="Decode")
        if k in (3, 9, 16, 22):
            cid, txt = samples[(k // 6) % 4]
            c.wk(tw[w] + c.jitter(0.01, 0.1), vm, "sample summary claim=%s: '%s'" % (cid, txt),
                 logger=lg % "pipeline.py:127", thread="Thread-17", step="Decode")
        if k == 5:
            harness_split(c, tw[w] + c.jitter(2, 9), vm)
        if k == 11:
            c.wk(tw[w] + c.jitter(1, 2), vm, "BigQuery Storage Write stream append failed (UNAVAILABLE: Socket closed); retrying in 1.0 s",
                 "WARNING", logger=lg % "sinks.py:88", thread="Thread-31", step="WriteSummaries/StorageWriteToBigQuery")
            c.wk(tw[w] + c.jitter(2.2, 3), vm, "BigQuery Storage Write append succeeded after 1 retry (offset 38912)",
                 logger=lg % "sinks.py:95", thread="Thread-31", step="WriteSummaries/StorageWriteToBigQuery")
    t = max(tw) + c.jitter(5, 20)
    c.jm(t, "Finished operation ref_AppliedPTransform_ReadNotes-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/ProcessElementAndRestrictionWithSizing+Clean+Tokenize+Summarize/BeamML_RunInference+Decode+WriteSummaries/ConvertToRows+WriteSummaries/StorageWriteToBigQuery")
    t = jm_teardown(c, t + c.jitter(1, 4), 3)
    truth = {
        "outcome": "succeeded",
        "family": "Hugging Face generation config: no max_new_tokens, generate() falls back to max_length=20 (output silently truncated)",
        "root_cause": (
            "RunInference calls T5ForConditionalGeneration.generate() through Beam's Hugging Face tensor handler with "
            "inference_args={'num_beams': 4} only. The fine-tuned checkpoint's generation_config.json sets no max_length or "
            "max_new_tokens, so transformers uses the model-agnostic default max_length=20 (it says so once per process in a "
            "UserWarning on stderr). Every summary stops after 19 generated tokens, mid-sentence; the job succeeds and writes "
            "truncated summaries to BigQuery. Fix: pass max_new_tokens (e.g. inference_args={'num_beams': 4, 'max_new_tokens': 160}) "
            "or save a generation_config with max_new_tokens, add an output-length check, and re-run the affected dates."),
        "setup": {
            "hardware": "3 x n1-standard-8 + 1 x NVIDIA Tesla T4, us-east1-c, NVIDIA driver 535.230.02",
            "sdk": "Apache Beam Python 2.61.0, Python 3.10, Runner v2, one SDK process per worker",
            "image": img + " (torch 2.2.2+cu121, transformers 4.38.2)",
            "pipeline": "batch: BigQuery claim notes -> tokenize -> RunInference(HuggingFaceModelHandlerTensor, T5 generate) -> BigQuery",
            "gpu_option": "--dataflow_service_options=" + acc},
        "evidence": [K02_WARN, "mean output length 19.0 tokens, max 19",
                     "sample summary claim=CLM-25-0418822: 'Insured reports water damage to kitchen ceiling from upstairs bathroom leak; adjuster'"],
        "red_herrings": [
            {"text": K02_LEGACY, "why": "T5Tokenizer's informational notice about the legacy tokenization behaviour; it does not change outputs."},
            {"text": K02_TOKLEN, "why": "Printed when a raw note is tokenized before truncation; the pipeline truncates inputs to 512 tokens afterwards."},
            {"text": K02_FORK, "why": "tokenizers' standard fork notice on stderr; harmless."},
            {"text": "BigQuery Storage Write stream append failed (UNAVAILABLE: Socket closed); retrying in 1.0 s", "why": "A transient append error that succeeded on retry."},
            {"text": "No session file found: /var/opt/google/staged/pickled_main_session. Functions defined in __main__ (interactive session) may fail.", "why": "save_main_session is off and the pipeline does not use __main__ definitions."},
        ],
        "sources": [
            {"what": "UserWarning 'Using the model-agnostic default `max_length` (=20) to control the generation length. We recommend setting `max_new_tokens` to control the maximum length of the generation.'",
             "source": "huggingface/transformers src/transformers/generation/utils.py (_validate_generated_length); real output with utils.py:1178 in a public Gemma notebook write-up"},
            {"what": "T5 legacy-behaviour notice", "source": "huggingface/transformers src/transformers/models/t5/tokenization_t5.py (PR #24565)"},
            {"what": "'Token indices sequence length is longer than the specified maximum sequence length for this model (... > 512). Running this sequence through the model will result in indexing errors'",
             "source": "huggingface/transformers tokenization_utils_base.py (_eventual_warn_about_too_long_sequence)"},
            {"what": "tokenizers fork warning", "source": "huggingface/tokenizers bindings/python/src/utils/parallelism.rs"},
            {"what": "job-message, boot and harness lines", "source": SRC["jobmsg"][1] + "; " + SRC["boot"][1] + "; " + SRC["harness"][1]},
            {"what": "system/kubelet noise and driver install lines", "source": SRC["benign_k8s"][1] + "; " + SRC["cosgpu"][1]},
        ],
        "synthetic": [
            "All envelopes, ids, names, timestamps, project and image names.",
            "The pipeline's own log lines (model load, per-batch summary length, sample summaries, BigQuery retry) are invented.",
            "The line number utils.py:1178 is taken from a public transformers 4.38-era output, not verified for 4.38.2 exactly.",
        ],
    }
    return c, truth


def fail4_text(stage, causes):
    """The current Dataflow wording for a work item that failed 4 times
    (apache/beam#30482)."""
    body = ("Workflow failed. Causes: %s failed., The job failed because a work item has failed 4 times. Look in previous "
            "log entries for the cause of each one of the 4 failures. If the logs only contain generic timeout errors "
            "related to accessing external resources, such as MongoDB, verify that the worker service account has "
            "permission to access the resource's subnetwork. For more information, see "
            "https://cloud.google.com/dataflow/docs/guides/common-errors. The work item was attempted on these workers: \n"
            % stage)
    for cause, worker in causes:
        body += "\n      Root cause: %s\n      Worker ID: %s," % (cause, worker)
    return body


def sdk_error(c, t, vm, instr, tb_frames, exc_line, sdk="sdk-0-0", step="", pyminor="3.11", stderr=True):
    """Worker ERROR from sdk_worker._execute, the same traceback on stderr, and
    returns the traceback text for the job message."""
    tb = "Traceback (most recent call last):\n" + "".join(tb_frames) + exc_line
    base = "/usr/local/lib/python%s/site-packages/apache_beam/runners/worker/sdk_worker.py:%d" % (pyminor, 313)
    c.wk(t, vm, "Error processing instruction %s. Original traceback is\n%s\n" % (instr, tb), "ERROR",
         logger=base, sdk=sdk, thread="Thread-%d" % c.rng.choice([14, 15, 18, 20]), step=step)
    if stderr:
        c.dk(t + 3000, vm, exc_line)
    return tb


BEAM_SETUP_FRAMES = (
    '  File "/usr/local/lib/python{py}/site-packages/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute\n    response = task()\n             ^^^^^^\n'
    '  File "/usr/local/lib/python{py}/site-packages/apache_beam/runners/worker/sdk_worker.py", line 386, in <lambda>\n    lambda: self.create_worker().do_instruction(request), request)\n            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
    '  File "/usr/local/lib/python{py}/site-packages/apache_beam/runners/worker/sdk_worker.py", line 658, in do_instruction\n    return getattr(self, request_type)(\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
    '  File "/usr/local/lib/python{py}/site-packages/apache_beam/runners/worker/sdk_worker.py", line 689, in process_bundle\n    bundle_processor = self.bundle_processor_cache.get(\n                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
    '  File "/usr/local/lib/python{py}/site-packages/apache_beam/runners/worker/sdk_worker.py", line 512, in get\n    processor = bundle_processor.BundleProcessor(\n                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
    '  File "/usr/local/lib/python{py}/site-packages/apache_beam/runners/worker/bundle_processor.py", line 1135, in __init__\n    op.setup(self.data_sampler)\n'
    '  File "apache_beam/runners/worker/operations.py", line 875, in apache_beam.runners.worker.operations.DoOperation.setup\n'
    '  File "apache_beam/runners/worker/operations.py", line 925, in apache_beam.runners.worker.operations.DoOperation.setup\n'
    '  File "apache_beam/runners/common.py", line 1561, in apache_beam.runners.common.DoFnRunner.setup\n'
    '  File "apache_beam/runners/common.py", line 1557, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method\n'
    '  File "apache_beam/runners/common.py", line 1602, in apache_beam.runners.common.DoFnRunner._reraise_augmented\n'
    '  File "apache_beam/runners/common.py", line 1555, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method\n'
    '  File "apache_beam/runners/common.py", line 602, in apache_beam.runners.common.DoFnInvoker.invoke_setup\n')


# ==========================================================================
# hs10-03  TF 2.18 dropped TensorRT: TF-TRT SavedModel cannot be loaded
# ==========================================================================

K03_OPNAME = "Op type not registered 'CreateTRTResourceHandle' in binary running on"
K03_NOTE = ("Make sure the Op and Kernel are registered in the binary running in this process. Note that if you are loading "
            "a saved graph which used ops from tf.contrib (e.g. `tf.contrib.resampler`), accessing should be done before "
            "importing the graph, as contrib ops are lazily registered when the module is first accessed.")
K03_HINT = (" You may be trying to load on a different device from the computational device. Consider setting the "
            "`experimental_io_device` option in `tf.saved_model.LoadOptions` to the io_device such as '/job:localhost'.")


def case03():
    c = Case("hs10-03", 303, "orchard-retail-vision", "530117882214", "shelfscan-detect-20250122",
             "2025-01-22T06:40:12", "europe-west4", "europe-west4-c")
    img = "europe-west4-docker.pkg.dev/orchard-retail-vision/dataflow/shelfscan-tf:latest"
    acc = "worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"
    opts = opts_repr([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name),
        ("temp_location", "gs://orchard-retail-dataflow/tmp"), ("region", c.region),
        ("dataflow_service_options", [acc]), ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("num_workers", 2), ("max_num_workers", 8), ("machine_type", "n1-standard-8"),
        ("sdk_container_image", img), ("sdk_location", "container"),
        ("model_uri", "gs://orchard-retail-models/shelf-detector/effdet-d2-trt-fp16/"),
        ("input_glob", "gs://orchard-store-captures/2025-01-21/*/*.jpg")])
    stage = "S02:ListImages+ReadImages+DecodeResize+DetectProducts+WriteDetections/ConvertToRows+WriteDetections/StorageWriteToBigQuery"
    ops = ["ListImages/Impulse+ListImages/MatchAll+ListImages/Reshard/AddRandomKeys"]
    t = c.start
    t = jm_start(c, t, "n1-standard-8", ops, 2, 8)
    freeze = ["apache-beam==2.61.0", "keras==3.8.0", "ml-dtypes==0.4.1", "numpy==2.0.2", "nvidia-cublas-cu12==12.5.3.2",
              "nvidia-cuda-runtime-cu12==12.5.82", "nvidia-cudnn-cu12==9.3.0.75", "opencv-python-headless==4.10.0.84",
              "pillow==11.1.0", "protobuf==4.25.5", "tensorboard==2.18.0", "tensorflow==2.18.0",
              "tensorflow-io-gcs-filesystem==0.37.1"]
    vms = [c.new_vm(), c.new_vm()]
    ready = []
    for i, vm in enumerate(vms):
        tv = t + c.jitter(20, 45)
        tv = vm_boot(c, vm, tv, "535.230.02")
        tv = boot_sdk(c, vm, tv, "sdk-0-0", "3.11.11", ["submission_environment_dependencies.txt", "pickled_main_session"],
                      pip_freeze=freeze if i == 0 else None)
        tv = harness_start(c, vm, tv, "sdk-0-0", "3.11", opts, dill=True)
        ready.append(tv)
    t = max(ready) + c.jitter(3, 10)
    c.jm(t, "Workers have started successfully.")
    t += c.jitter(20, 50)
    c.jm(t, "All workers have finished the startup processes and began to receive work requests.")
    t += c.jitter(1, 2)
    c.jm(t, "Finished operation %s" % ops[0])
    t += c.jitter(0.2, 0.8)
    c.jm(t, "Executing operation ListImages/Reshard/ReshufflePerKey/GroupByKey/Read+ListImages/Reshard/RemoveRandomKeys+ReadImages+DecodeResize+DetectProducts+WriteDetections/ConvertToRows+WriteDetections/StorageWriteToBigQuery")
    lg = "/usr/local/lib/python3.11/site-packages/shelfscan/detect.py:%d"
    causes = []
    attempts = [vms[0], vms[1], vms[0], vms[1]]
    first_tb = None
    tf_noise_done = set()
    for a, vm in enumerate(attempts):
        t += c.jitter(4, 12)
        tv = t
        if vm.name not in tf_noise_done:
            tf_noise_done.add(vm.name)
            d = EPOCH + _dt.timedelta(seconds=tv // NS)
            stamp = d.strftime("%Y-%m-%d %H:%M:%S") + ".%06d" % ((tv % NS) // 1000)
            c.dk(tv, vm, "%s: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:477] Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered" % stamp)
            c.dk(tv + 2000, vm, "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR")
            unix = "%d.%06d" % (tv // NS, (tv % NS) // 1000)
            c.dk(tv + 5000, vm, "E0000 00:00:%s     287 cuda_dnn.cc:8310] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered" % unix)
            c.dk(tv + 9000, vm, "E0000 00:00:%s     287 cuda_blas.cc:1418] Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered" % unix)
            tv += c.jitter(0.1, 0.3)
            d = EPOCH + _dt.timedelta(seconds=tv // NS)
            stamp = d.strftime("%Y-%m-%d %H:%M:%S") + ".%06d" % ((tv % NS) // 1000)
            c.dk(tv, vm, "%s: I tensorflow/core/platform/cpu_feature_guard.cc:210] This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations." % stamp)
            c.dk(tv + 1000, vm, "To enable the following instructions: AVX2 AVX512F FMA, in other operations, rebuild TensorFlow with the appropriate compiler flags.")
            tv += c.jitter(1.5, 3)
        c.wk(tv, vm, "Copying gs://orchard-retail-models/shelf-detector/effdet-d2-trt-fp16/ to /tmp/effdet-d2-trt-fp16",
             logger=lg % 39, thread="Thread-14", step="DetectProducts")
        tv += c.jitter(3, 7)
        c.wk(tv, vm, "Copied 37 files (214.6 MiB) in %.1f s; tf.__version__=2.18.0, GPUs: [PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]" % c.rng.uniform(3, 6),
             logger=lg % 45, thread="Thread-14", step="DetectProducts")
        tv += c.jitter(0.2, 0.6)
        if a < 2:
            unix = "%d.%06d" % (tv // NS, (tv % NS) // 1000)
            c.dk(tv, vm, "I0000 00:00:%s     287 gpu_device.cc:2022] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 13949 MB memory:  -> device: 0, name: Tesla T4, pci bus id: 0000:00:04.0, compute capability: 7.5" % unix)
            tv += c.jitter(0.5, 1.5)
        exc = ("FileNotFoundError: %s %s. %s\n%s [while running 'DetectProducts']"
               % (K03_OPNAME, vm.name, K03_NOTE, K03_HINT))
        frames = [f.format(py="3.11") for f in [BEAM_SETUP_FRAMES]] + [
            '  File "/usr/local/lib/python3.11/site-packages/shelfscan/detect.py", line 48, in setup\n    self._model = tf.saved_model.load(local_dir)\n                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n',
            '  File "/usr/local/lib/python3.11/site-packages/tensorflow/python/saved_model/load.py", line 912, in load\n    result = load_partial(export_dir, None, tags, options)["root"]\n             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n',
            '  File "/usr/local/lib/python3.11/site-packages/tensorflow/python/saved_model/load.py", line 1071, in load_partial\n    raise FileNotFoundError(\n']
        tb = sdk_error(c, tv, vm, "process_bundle-%d-%d" % (c.rng.randint(10**18, 9 * 10**18), 17 + a),
                       frames, exc, step="DetectProducts")
        first_tb = first_tb or tb
        t = tv + c.jitter(1, 3)
        c.jm(t, "Error message from worker: generic::unknown: " + tb, "ERROR")
        causes.append(("FileNotFoundError: %s %s. %s" % (K03_OPNAME, vm.name, K03_NOTE), vm.name))
        if a == 0:
            harness_split(c, t + c.jitter(1, 4), vms[1])
        if a == 1:
            tg = t + c.jitter(2, 5)
            c.wk(tg, vms[0], "Retrying Storage Write API append after transient error: 503 Service Unavailable (attempt 1/5)",
                 "WARNING", logger="/usr/local/lib/python3.11/site-packages/shelfscan/io.py:77", thread="Thread-33",
                 step="WriteDetections/StorageWriteToBigQuery")
    t += c.jitter(2, 5)
    c.jm(t, fail4_text(stage, causes), "ERROR")
    t = jm_teardown(c, t + c.jitter(1, 3), 2)
    truth = {
        "outcome": "failed",
        "family": "TF-TRT: TensorFlow 2.18 wheels no longer include TensorRT, so a TF-TRT-converted SavedModel cannot be loaded",
        "root_cause": (
            "The detector in gs://orchard-retail-models/shelf-detector/effdet-d2-trt-fp16/ is a SavedModel converted with "
            "TF-TRT (TrtGraphConverterV2 + build()) under TF 2.15, so its graph contains TensorRT ops "
            "(CreateTRTResourceHandle, TRTEngineOp). The worker image tag :latest was rebuilt with an unpinned "
            "tensorflow[and-cuda] and now has TensorFlow 2.18.0, whose CUDA builds have TensorRT support disabled "
            "(TF 2.17 was the last release with TF-TRT). tf.saved_model.load in DetectProducts.setup therefore fails with "
            "'Op type not registered 'CreateTRTResourceHandle'', the work item fails 4 times and the job fails. "
            "Fix: pin tensorflow[and-cuda]==2.17.* (and pin the image by digest), or re-export the detector as a plain "
            "SavedModel (or a native TensorRT/ONNX engine) and serve that on TF 2.18+."),
        "setup": {
            "hardware": "2 x n1-standard-8 + 1 x NVIDIA Tesla T4, europe-west4-c, NVIDIA driver 535.230.02",
            "sdk": "Apache Beam Python 2.61.0, Python 3.11, Runner v2",
            "image": img + " (rebuilt 2025-01-20; tensorflow==2.18.0)",
            "pipeline": "batch: store shelf photos on Cloud Storage -> decode -> DetectProducts DoFn (tf.saved_model.load of a TF-TRT SavedModel) -> BigQuery",
            "gpu_option": "--dataflow_service_options=" + acc},
        "evidence": [K03_OPNAME, "tensorflow==2.18.0",
                     "Copying gs://orchard-retail-models/shelf-detector/effdet-d2-trt-fp16/ to /tmp/effdet-d2-trt-fp16",
                     "The job failed because a work item has failed 4 times."],
        "red_herrings": [
            {"text": "Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered", "why": "Printed at TensorFlow import in many 2.14+ releases when XLA and TF both register CUDA plugins (tensorflow/tensorflow#62075); harmless, the T4 device is created."},
            {"text": "Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered", "why": "Same harmless double-registration notice."},
            {"text": K03_HINT.strip(), "why": "Generic hint TensorFlow appends to every NotFoundError during SavedModel loading; the device is not the problem, the TensorRT op is missing from the binary."},
            {"text": "Retrying Storage Write API append after transient error: 503 Service Unavailable (attempt 1/5)", "why": "Transient BigQuery write retry on the other worker; unrelated."},
            {"text": "Skipping pod synchronization", "why": "Kubelet start-up message Dataflow documents as harmless."},
        ],
        "sources": [
            {"what": "'Op type not registered 'CreateTRTResourceHandle' in binary running on ... Make sure the Op and Kernel are registered ... (e.g. `tf.contrib.resampler`), accessing should be done before importing the graph ...' when loading a TF-TRT SavedModel with TF 2.18",
             "source": "https://github.com/tensorflow/serving/issues/4018 (TF Serving 2.18.0-gpu, loads fine on 2.17.0-gpu)"},
            {"what": "TensorRT removed from TF CUDA builds", "source": "TensorFlow 2.18.0 release notes ('TensorRT support is disabled in CUDA builds for code health improvement.'); TF 2.17.0 release notes ('this is the last release supporting TensorRT')"},
            {"what": "Python wrapper 'FileNotFoundError: ... You may be trying to load on a different device from the computational device. Consider setting the `experimental_io_device` option ...'",
             "source": "tensorflow/tensorflow tensorflow/python/saved_model/load.py (load_partial); real outputs in google-research/medical-ai-research-foundations#4 and tensorflow/decision-forests#108"},
            {"what": "TF 2.18 start-up stderr (cuFFT/cuDNN/cuBLAS factory registration with cuda_fft.cc:477, cuda_dnn.cc:8310, cuda_blas.cc:1418; absl STDERR notice; cpu_feature_guard.cc:210; gpu_device.cc Created device ... Tesla T4 ... compute capability: 7.5)",
             "source": "public TF 2.18 logs (e.g. Kaggle/Colab notebooks from Dec 2024 and May 2025 found by exact text) and tensorflow/tensorflow#62075; T4 device line format from tensorflow/tensorflow#62170"},
            {"what": "job-message lines incl. 'Error message from worker: generic::unknown:' and the 4-failures text", "source": SRC["jobmsg"][1] + "; " + SRC["jobmsg_fail4"][1]},
            {"what": "boot, pip-freeze, harness and 'Error processing instruction' lines", "source": SRC["boot"][1] + "; " + SRC["harness"][1] + "; " + SRC["sdkerr"][1]},
            {"what": "system/kubelet noise and driver install lines", "source": SRC["benign_k8s"][1] + "; " + SRC["cosgpu"][1]},
        ],
        "synthetic": [
            "All envelopes, ids, names, timestamps, project, bucket and image names.",
            "The DoFn's own lines (copying the model, TF version/GPU list) and the Storage Write retry are invented.",
            "Line numbers in the Beam/TensorFlow traceback frames are plausible, not copied from the exact versions.",
        ],
    }
    return c, truth


# ==========================================================================
# hs10-04  pip resolver backtracking at worker start -> no activity for 1h
# ==========================================================================

K04_LONG = ("INFO: This is taking longer than usual. You might need to provide the dependency resolver with stricter "
            "constraints to reduce runtime. See https://pip.pypa.io/warnings/backtracking for guidance. If you want to "
            "abort this run, press Ctrl + C.")
K04_STUCK = ("Workflow failed. Causes: The Dataflow job appears to be stuck because no worker activity has been seen in "
             "the last 1h. Please check the worker logs in Stackdriver Logging. You can also get help with Cloud Dataflow "
             "at https://cloud.google.com/dataflow/support.")


def case04():
    c = Case("hs10-04", 404, "quillmark-search", "208845119732", "catalog-embed-backfill-0604",
             "2025-06-04T17:20:41", "us-central1", "us-central1-b")
    acc = "worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"
    ops = ["ReadProducts/Read/Impulse+ReadProducts/Read/EmitSource+ref_AppliedPTransform_ReadProducts-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/PairWithRestriction+ref_AppliedPTransform_ReadProducts-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/SplitWithSizing",
           "WriteEmbeddings/Write/WriteImpl/DoOnce/Impulse+WriteEmbeddings/Write/WriteImpl/DoOnce/FlatMap(<lambda at core.py:3937>)+WriteEmbeddings/Write/WriteImpl/DoOnce/Map(decode)+WriteEmbeddings/Write/WriteImpl/InitializeWrite"]
    t = c.start
    t = jm_start(c, t, "g2-standard-8", ops, 2, 10)
    vms = [c.new_vm(), c.new_vm()]
    req = "/var/opt/google/staged/requirements.txt"
    t_end = c.start + 63 * 60 * NS + c.jitter(10, 40)
    for i, vm in enumerate(vms):
        tv = t + c.jitter(20, 50)
        tv = vm_boot(c, vm, tv, "570.124.06")
        sdk = "sdk-0-0"
        c.ws(tv, vm, "Initializing python harness: /opt/apache/beam/boot --id=%s --provision_endpoint=localhost:12373" % sdk)
        tv += c.jitter(0.05, 0.3)
        c.ws(tv, vm, "Initializing temporary Python venv in /opt/apache/beam-venv/beam-venv-worker-%s" % sdk)
        tv += c.jitter(1.5, 3.5)
        for a in ["requirements.txt", "submission_environment_dependencies.txt", "pickled_main_session"]:
            c.ws(tv, vm, "Found artifact: %s" % a)
            tv += c.jitter(0.001, 0.01)
        c.ws(tv, vm, "Installing setup packages ...")
        tv += c.jitter(2, 4)
        # round 1: --no-index --no-deps: fails (nothing cached); flushed at INFO later
        burst = ["ERROR: Could not find a version that satisfies the requirement sentence-transformers>=3.0 (from versions: none)\n",
                 "ERROR: No matching distribution found for sentence-transformers>=3.0\n"]
        for line in burst:
            c.ws(tv, vm, line)
            tv += c.jitter(0.001, 0.005)
        c.ws(tv, vm, "Some packages could not be installed solely from the requirements cache. Installing packages from PyPI.")
        tv += c.jitter(14, 17)
        # round 2: resolve against PyPI + the PyTorch index; pip writes a line per
        # step, the boot logger flushes what it buffered on the first write that
        # comes more than 15 s after the previous flush.
        steps = [(0.4, "Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/cu121\n"),
                 (1.1, "Collecting sentence-transformers>=3.0 (from -r %s (line 2))\n" % req),
                 (0.6, "  Downloading sentence_transformers-4.1.0-py3-none-any.whl.metadata (13 kB)\n"),
                 (0.3, "Collecting torch>=2.4 (from -r %s (line 3))\n" % req),
                 (48.0, "  Downloading https://download.pytorch.org/whl/cu121/torch-2.5.1%2Bcu121-cp311-cp311-linux_x86_64.whl (780.4 MB)\n"),
                 (0.9, "Collecting google-cloud-aiplatform[vertexai] (from -r %s (line 4))\n" % req),
                 (0.7, "  Downloading google_cloud_aiplatform-1.96.0-py2.py3-none-any.whl.metadata (35 kB)\n"),
                 (0.3, "Collecting protobuf==4.25.3 (from -r %s (line 6))\n" % req),
                 (0.4, "  Downloading protobuf-4.25.3-cp37-abi3-manylinux2014_x86_64.whl.metadata (541 bytes)\n"),
                 (2.5, "Collecting grpcio-status<2.0.0,>=1.33.2 (from google-api-core[grpc]!=2.0.*,!=2.1.*,!=2.2.*,!=2.3.*,!=2.4.*,!=2.5.*,!=2.6.*,!=2.7.*,<3.0.0,>=1.34.1->google-cloud-aiplatform[vertexai]->-r %s (line 4))\n" % req),
                 (0.5, "  Downloading grpcio_status-1.73.0-py3-none-any.whl.metadata (1.1 kB)\n"),
                 (0.1, "INFO: pip is looking at multiple versions of grpcio-status to determine which version is compatible with other requirements. This could take a while.\n")]
        for v in ["1.72.1", "1.72.0rc1", "1.71.0", "1.70.0", "1.69.0", "1.68.1"]:
            steps.append((0.6, "  Downloading grpcio_status-%s-py3-none-any.whl.metadata (1.1 kB)\n" % v))
        steps.append((0.1, "INFO: pip is still looking at multiple versions of grpcio-status to determine which version is compatible with other requirements. This could take a while.\n"))
        for v in ["1.68.0", "1.67.1", "1.66.2", "1.65.5"]:
            steps.append((0.6, "  Downloading grpcio_status-%s-py3-none-any.whl.metadata (1.1 kB)\n" % v))
        steps.append((0.1, K04_LONG + "\n"))
        for v in ["1.64.3", "1.63.2", "1.62.3"]:
            steps.append((0.6, "  Downloading grpcio_status-%s-py3-none-any.whl.metadata (1.1 kB)\n" % v))
        steps.append((0.2, "INFO: pip is looking at multiple versions of google-api-core[grpc] to determine which version is compatible with other requirements. This could take a while.\n"))
        steps.append((0.2, "INFO: pip is looking at multiple versions of google-cloud-aiplatform[vertexai] to determine which version is compatible with other requirements. This could take a while.\n"))
        for v in ["1.95.1", "1.95.0", "1.94.0", "1.93.1", "1.93.0", "1.92.0", "1.91.0"]:
            steps.append((0.8, "  Downloading google_cloud_aiplatform-%s-py2.py3-none-any.whl.metadata (35 kB)\n" % v))
        steps.append((0.1, "INFO: pip is still looking at multiple versions of google-cloud-aiplatform[vertexai] to determine which version is compatible with other requirements. This could take a while.\n"))
        steps.append((0.2, "INFO: pip is looking at multiple versions of torch to determine which version is compatible with other requirements. This could take a while.\n"))
        torches = [("2.5.0", "780.5"), ("2.4.1", "799.0"), ("2.4.0", "797.2"), ("2.3.1", "781.0"), ("2.3.0", "781.0"),
                   ("2.2.2", "757.3"), ("2.2.1", "757.3"), ("2.2.0", "757.3")]
        for k, (v, mb) in enumerate(torches):
            steps.append((c.rng.uniform(240, 330), "  Downloading https://download.pytorch.org/whl/cu121/torch-%s%%2Bcu121-cp311-cp311-linux_x86_64.whl (%s MB)\n" % (v, mb)))
            if k == 4:
                steps.append((0.1, "INFO: pip is still looking at multiple versions of torch to determine which version is compatible with other requirements. This could take a while.\n"))
            if k in (2, 5):
                for v2 in (["1.90.0", "1.89.0", "1.88.0"] if k == 2 else ["1.87.0", "1.86.0", "1.85.0"]):
                    steps.append((0.8, "  Downloading google_cloud_aiplatform-%s-py2.py3-none-any.whl.metadata (35 kB)\n" % v2))
        steps.append((0.1, K04_LONG + "\n"))
        steps.append((c.rng.uniform(240, 330), "  Downloading https://download.pytorch.org/whl/cu121/torch-2.1.2%2Bcu121-cp311-cp311-linux_x86_64.whl (2200.7 MB)\n"))
        wt = tv
        last_flush = tv
        buf = []
        for dur, line in steps:
            if wt >= t_end:
                break
            buf.append(line)
            if wt - last_flush > 15 * NS:
                for k, l in enumerate(buf):
                    c.ws(wt + k * 400000, vm, l)
                buf = []
                last_flush = wt
            wt += int(dur * c.rng.uniform(0.85, 1.15) * NS)
    t = c.start + c.jitter(190, 260)
    c.jm(t, "Workers have started successfully.")
    t = t_end
    c.jm(t, K04_STUCK, "ERROR")
    t += c.jitter(0.5, 2)
    c.jm(t, "Cleaning up.")
    t += c.jitter(0.05, 0.3)
    c.jm(t, "Starting worker pool teardown.", "DEBUG")
    t += c.jitter(0.05, 0.3)
    c.jm(t, "Stopping worker pool...")
    for vm in vms:
        tv = t + c.jitter(20, 40)
        c.ws(tv, vm, "Received signal: terminated")
        c.sy(tv + c.jitter(1, 3), vm, "Stopping kubelet: The Kubernetes Node Agent...")
    t += c.jitter(60, 120)
    c.jm(t, "Autoscaling: Resized worker pool from 2 to 0.")
    t += c.jitter(0.5, 2)
    c.jm(t, "Worker pool stopped.")
    truth = {
        "outcome": "stuck",
        "family": "worker start-up: pip dependency resolution backtracks for the whole hour (requirements.txt unpinned with a conflicting pin)",
        "root_cause": (
            "The job uses the stock Dataflow image and ships dependencies with --requirements_file. requirements.txt "
            "adds the PyTorch cu121 index (--extra-index-url) and leaves sentence-transformers, torch and "
            "google-cloud-aiplatform[vertexai] unpinned, but pins protobuf==4.25.3 (kept for an old package), while the "
            "newest google-cloud-aiplatform, google-api-core[grpc] and grpcio-status releases need protobuf 5.x. At every "
            "worker start the Beam boot program runs pip install -r requirements.txt against the indexes (the "
            "requirements cache is empty, so the first --no-index pass fails as designed) and pip's resolver backtracks "
            "through candidate versions, downloading a ~0.8 GB torch wheel from the PyTorch index for each torch "
            "candidate. "
            "The SDK harness never starts, no worker ever reports progress, and after one hour Dataflow fails the job as "
            "stuck. Fix: pin a complete, known-good set (pip-compile/pip freeze from a working environment, drop or raise "
            "the protobuf pin, use Beam's constraints for its own dependencies), or better bake the dependencies into a "
            "custom container so nothing is resolved at worker start."),
        "setup": {
            "hardware": "2 x g2-standard-8 (1 x NVIDIA L4 each), us-central1-b, NVIDIA driver 570.124.06",
            "sdk": "Apache Beam Python 2.64.0, Python 3.11, Runner v2",
            "image": "default Dataflow Python 3.11 SDK image (no custom container), dependencies via --requirements_file",
            "pipeline": "batch: BigQuery product catalog -> sentence-transformers embeddings on GPU -> Parquet on Cloud Storage",
            "gpu_option": "--dataflow_service_options=" + acc},
        "evidence": [K04_LONG,
                     "INFO: pip is still looking at multiple versions of google-cloud-aiplatform[vertexai] to determine which version is compatible with other requirements. This could take a while.",
                     "Collecting protobuf==4.25.3 (from -r /var/opt/google/staged/requirements.txt (line 6))",
                     K04_STUCK],
        "red_herrings": [
            {"text": "ERROR: Could not find a version that satisfies the requirement sentence-transformers>=3.0 (from versions: none)", "why": "Printed by the first, --no-index --no-deps pip pass that only looks in the (empty) requirements cache; the boot program expects it to fail and goes on to install from PyPI."},
            {"text": "Workers have started successfully.", "why": "Only the VMs came up; the SDK harness never started (there is no 'All workers have finished the startup processes' message and no SDK harness line)."},
            {"text": "Error initializing dynamic plugin prober", "why": "Kubelet start-up message Dataflow documents as harmless."},
            {"text": "Error running LookupEffectiveGuestPolicies", "why": "Guest-agent message Dataflow documents as harmless."},
        ],
        "sources": [
            {"what": "pip resolver messages ('INFO: pip is looking at multiple versions of ...', 'INFO: pip is still looking at ...', 'INFO: This is taking longer than usual. ... See https://pip.pypa.io/warnings/backtracking for guidance. If you want to abort this run, press Ctrl + C.', '  Downloading grpcio_status-1.72.2-py3-none-any.whl.metadata (1.1 kB)')",
             "source": "pypa/pip src/pip/_internal/resolution/resolvelib/reporter.py; a real backtracking transcript over grpcio-status 1.73.0 ... 1.68.0 found by exact text"},
            {"what": "pip 'ERROR: Could not find a version that satisfies the requirement ... (from versions: none)' / 'ERROR: No matching distribution found for ...'", "source": "pypa/pip (package_finder / resolver); same lines in BEAM-10023 report"},
            {"what": "Beam boot two-pass pip install and 'Some packages could not be installed solely from the requirements cache. Installing packages from PyPI.'; pip output flushed through the boot logger every 15 s", "source": SRC["piputil"][1]},
            {"what": "boot lines and 'Received signal: terminated'", "source": SRC["boot"][1]},
            {"what": "stuck job message", "source": SRC["jobmsg_stuck"][1]},
            {"what": "other job-message lines", "source": SRC["jobmsg"][1]},
            {"what": "system/kubelet noise and driver install lines", "source": SRC["benign_k8s"][1] + "; " + SRC["cosgpu"][1]},
        ],
        "synthetic": [
            "All envelopes, ids, names, timestamps and project names; the requirements.txt content is inferred from the Collecting lines.",
            "The exact package versions walked by the resolver and the pacing of the bursts are invented.",
            "'Stopping kubelet: The Kubernetes Node Agent...' is a generic systemd stop line, not taken from a Dataflow log.",
        ],
    }
    return c, truth


def slog(ns, level, source, rest):
    d = EPOCH + _dt.timedelta(seconds=ns // NS)
    return "time=%s.%03dZ level=%s source=%s %s" % (d.strftime("%Y-%m-%dT%H:%M:%S"), (ns % NS) // 10 ** 6,
                                                    level, source, rest)


# ==========================================================================
# hs10-05  Ollama finds no libcuda (LD_LIBRARY_PATH lacks /usr/local/nvidia/lib64) -> CPU
# ==========================================================================

K05_NOGPU = 'msg="no compatible GPUs were discovered"'
K05_CPU = 'msg="inference compute" id=0 library=cpu'
OLLAMA_CFG = ('msg="server config" env="map[CUDA_VISIBLE_DEVICES: GPU_DEVICE_ORDINAL: HIP_VISIBLE_DEVICES: '
              'HSA_OVERRIDE_GFX_VERSION: HTTPS_PROXY: HTTP_PROXY: NO_PROXY: OLLAMA_CONTEXT_LENGTH:4096 OLLAMA_DEBUG:INFO '
              'OLLAMA_FLASH_ATTENTION:false OLLAMA_GPU_OVERHEAD:0 OLLAMA_HOST:http://127.0.0.1:11434 OLLAMA_INTEL_GPU:false '
              'OLLAMA_KEEP_ALIVE:5m0s OLLAMA_KV_CACHE_TYPE: OLLAMA_LLM_LIBRARY: OLLAMA_LOAD_TIMEOUT:5m0s '
              'OLLAMA_MAX_LOADED_MODELS:0 OLLAMA_MAX_QUEUE:512 OLLAMA_MODELS:/opt/ollama/models OLLAMA_MULTIUSER_CACHE:false '
              'OLLAMA_NEW_ENGINE:false OLLAMA_NOHISTORY:false OLLAMA_NOPRUNE:false OLLAMA_NUM_PARALLEL:0 '
              'OLLAMA_ORIGINS:[http://localhost https://localhost http://localhost:* https://localhost:* http://127.0.0.1 '
              'https://127.0.0.1 http://127.0.0.1:* https://127.0.0.1:* http://0.0.0.0 https://0.0.0.0 http://0.0.0.0:* '
              'https://0.0.0.0:* app://* file://* tauri://* vscode-webview://* vscode-file://*] OLLAMA_SCHED_SPREAD:false '
              'ROCR_VISIBLE_DEVICES: http_proxy: https_proxy: no_proxy:]"')


K05_BQWARN = ("/usr/local/lib/python3.11/site-packages/google/cloud/bigquery/table.py:1933: UserWarning: BigQuery Storage "
              "module not found, fetch data with the REST endpoint instead.")


def case05():
    c = Case("hs10-05", 505, "parcelwise-support", "96441870253", "ticket-triage-llama-0709",
             "2025-07-09T02:10:33", "us-east4", "us-east4-c")
    img = "us-east4-docker.pkg.dev/parcelwise-support/dataflow/triage-ollama:0.9.0-b3"
    acc = "worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"
    opts = opts_repr([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name),
        ("temp_location", "gs://parcelwise-dataflow/tmp"), ("region", c.region),
        ("dataflow_service_options", [acc]), ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("num_workers", 2), ("max_num_workers", 6), ("machine_type", "g2-standard-8"),
        ("number_of_worker_harness_threads", 2), ("sdk_container_image", img), ("sdk_location", "container"),
        ("pickle_library", "cloudpickle"), ("ollama_model", "llama3.1:8b"), ("batch_size", 16)])
    step = "TriageTickets"
    ops = ["ReadTickets/Read/Impulse+ReadTickets/Read/EmitSource+ref_AppliedPTransform_ReadTickets-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/PairWithRestriction+ref_AppliedPTransform_ReadTickets-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/SplitWithSizing"]
    t = c.start
    t = jm_start(c, t, "g2-standard-8", ops, 2, 6)
    lg = "/usr/local/lib/python3.11/site-packages/ticket_triage/%s"
    relay = lg % "ollama_proc.py:52"

    def ollama_start(vm, tv, full=True):
        c.wk(tv, vm, "Starting `ollama serve` (OLLAMA_MODELS=/opt/ollama/models, model=llama3.1:8b)",
             logger=lg % "ollama_proc.py:31", thread="Thread-19", step=step)
        tv += c.jitter(0.05, 0.2)
        if full:
            c.wk(tv, vm, "ollama not ready yet: HTTPConnectionPool(host='127.0.0.1', port=11434): Max retries exceeded with url: /api/tags (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f8c1a2b5d90>: Failed to establish a new connection: [Errno 111] Connection refused'))",
                 "WARNING", logger=lg % "ollama_proc.py:71", thread="Thread-19", step=step)
        tv += c.jitter(0.2, 0.5)
        lines = []
        if full:
            lines.append((0, "routes.go:1234", OLLAMA_CFG))
            lines.append((900000, "images.go:479", 'msg="total blobs: 5"'))
            lines.append((1100000, "images.go:486", 'msg="total unused blobs removed: 0"'))
        lines.append((1500000, "routes.go:1287", 'msg="Listening on 127.0.0.1:11434 (version 0.9.0)"'))
        lines.append((1700000, "gpu.go:217", 'msg="looking for compatible GPUs"'))
        lines.append((47000000, "gpu.go:377", K05_NOGPU))
        lines.append((47900000, "types.go:130",
                      K05_CPU + ' variant="" compute="" driver=0.0 name="" total="31.3 GiB" available="%.1f GiB"' % c.rng.uniform(28.9, 29.8)))
        for off, src, text in lines:
            c.wk(tv + off + c.rng.randint(200000, 2500000), vm, slog(tv + off, "INFO", src, text), logger=relay,
                 thread="ollama-stdout", step=step)
        tv += c.jitter(2.5, 3.5)
        c.wk(tv, vm, "ollama ready after %.1f s; local models: ['llama3.1:8b']" % c.rng.uniform(2.8, 3.6),
             logger=lg % "ollama_proc.py:78", thread="Thread-19", step=step)
        return tv

    freeze = ["apache-beam==2.65.0", "google-cloud-bigquery==3.34.0", "httpx==0.28.1", "numpy==2.2.6",
              "ollama==0.5.1", "pydantic==2.11.7", "requests==2.32.4", "ticket-triage==3.2.0"]
    vms = [c.new_vm(), c.new_vm()]
    ready = []
    for i, vm in enumerate(vms):
        tv = t + c.jitter(20, 50)
        tv = vm_boot(c, vm, tv, "570.124.06")
        tv = boot_sdk(c, vm, tv, "sdk-0-0", "3.11.13", ["submission_environment_dependencies.txt"],
                      pip_freeze=freeze if i == 0 else None)
        tv = harness_start(c, vm, tv, "sdk-0-0", "3.11", opts)
        ready.append(tv)
    t = max(ready) + c.jitter(3, 10)
    c.jm(t, "Workers have started successfully.")
    t += c.jitter(20, 40)
    c.jm(t, "All workers have finished the startup processes and began to receive work requests.")
    t += c.jitter(0.5, 2)
    c.jm(t, "Executing operation ref_AppliedPTransform_ReadTickets-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/ProcessElementAndRestrictionWithSizing+BatchTickets/ParDo(_GlobalWindowsBatchingDoFn)+TriageTickets+WriteLabels/ConvertToRows+WriteLabels/StorageWriteToBigQuery")
    tw = []
    for vm in vms:
        tv = ollama_start(vm, t + c.jitter(2, 6))
        c.dk(tv + c.jitter(0.5, 2), vm, K05_BQWARN)
        c.dk(tv + c.jitter(2.1, 2.5), vm, "  warnings.warn(")
        tw.append(tv)
    harness_split(c, tw[0] + c.jitter(30, 90), vms[0])
    first_rate = None

    def batch(vm, idx, tcur, runner_first=False):
        nonlocal first_rate
        if runner_first:
            tcur += c.jitter(5.5, 7.5)
            c.wk(tcur + 1500000, vm, slog(tcur, "INFO", "server.go:630", 'msg="llama runner started in %.2f seconds"' % c.rng.uniform(5.5, 7.5)),
                 logger=relay, thread="ollama-stdout", step=step)
            tcur += c.jitter(0.5, 1)
        dur = c.rng.uniform(360, 430)
        tcur += int(dur * NS)
        d = EPOCH + _dt.timedelta(seconds=tcur // NS)
        c.wk(tcur + 2000000, vm, '[GIN] %s | 200 | %12.9fs |       127.0.0.1 | POST     "/api/chat"' % (
            d.strftime("%Y/%m/%d - %H:%M:%S"), c.rng.uniform(21, 29)), logger=relay, thread="ollama-stdout", step=step)
        rate = "triaged 16 tickets in %.1f s (prompt eval %.1f tok/s, eval %.1f tok/s)" % (
            dur, c.rng.uniform(48, 66), c.rng.uniform(3.9, 4.9))
        first_rate = first_rate or rate
        c.wk(tcur + c.jitter(0.01, 0.05), vm, rate, logger=lg % "triage.py:142", thread="Thread-19", step=step)
        return tcur

    for k in range(6):
        for w in range(2):
            tw[w] = batch(vms[w], k, tw[w], runner_first=(k == 0))
    t = max(tw) - 20 * 60 * NS
    c.jm(t, "Autoscaling: Raised the number of workers to 6 based on the rate of progress in the currently running stage(s).")
    more = [c.new_vm() for _ in range(4)]
    for j, vm in enumerate(more):
        tv = t + c.jitter(30, 70)
        c.sy(tv, vm, "Installing GPU driver version 570.124.06")
        tv += c.jitter(30, 50)
        c.sy(tv, vm, "Finished installing the drivers.")
        tv += c.jitter(40, 70)
        c.ws(tv, vm, "Executing Python (worker sdk-0-0): python -m apache_beam.runners.worker.sdk_worker_main")
        tv += c.jitter(2, 4)
        c.wk(tv, vm, "Python sdk harness starting.",
             logger="/usr/local/lib/python3.11/site-packages/apache_beam/runners/worker/sdk_worker_main.py:216")
        tv = ollama_start(vm, tv + c.jitter(3, 6), full=False)
        tw.append(tv)
    vms_all = vms + more
    for k in range(3):
        for w in range(6):
            tw[w] = batch(vms_all[w], k, tw[w], runner_first=(w >= 2 and k == 0))
    t = max(tw) + c.jitter(30, 90)
    c.jm(t, "Finished operation ref_AppliedPTransform_ReadTickets-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/ProcessElementAndRestrictionWithSizing+BatchTickets/ParDo(_GlobalWindowsBatchingDoFn)+TriageTickets+WriteLabels/ConvertToRows+WriteLabels/StorageWriteToBigQuery")
    t = jm_teardown(c, t + c.jitter(1, 4), 6)
    truth = {
        "outcome": "succeeded",
        "family": "silent CPU fallback in a model server: Ollama cannot find libcuda because the custom image does not put /usr/local/nvidia/lib64 on LD_LIBRARY_PATH",
        "root_cause": (
            "The DoFn runs `ollama serve` (0.9.0) next to the SDK process. Dataflow installs the NVIDIA driver and mounts its "
            "libraries into the container at /usr/local/nvidia/lib64, and the Dataflow GPU docs require custom images to add "
            "that directory to LD_LIBRARY_PATH. The image is built FROM python:3.11-slim and never sets LD_LIBRARY_PATH, and "
            "Ollama's libcuda search globs (/usr/lib/*-linux-gnu, /usr/local/cuda*, /usr/lib*, ...) do not include "
            "/usr/local/nvidia/lib64. Ollama therefore logs at INFO that no compatible GPU was discovered, reports "
            "library=cpu, and runs Llama 3.1 8B on the 8 vCPUs at ~4-5 tokens/s. Nothing fails: the job autoscales to 6 "
            "L4 workers and runs for over an hour (each 16-ticket batch ~6 minutes) where the GPU path takes seconds per "
            "batch, while the GPUs stay idle. Fix: add "
            "ENV LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/nvidia/lib64 (and /usr/local/nvidia/bin on PATH) to the "
            "Dockerfile, and make the DoFn fail fast when Ollama's 'inference compute' line says library=cpu."),
        "setup": {
            "hardware": "g2-standard-8 (1 x NVIDIA L4) workers, 2 -> 6 by autoscaling, us-east4-c, NVIDIA driver 570.124.06",
            "sdk": "Apache Beam Python 2.65.0, Python 3.11, Runner v2, one SDK process per worker",
            "image": img + " (FROM python:3.11-slim + apache-beam + Beam boot + ollama 0.9.0; model blobs baked in /opt/ollama/models)",
            "pipeline": "batch: BigQuery support tickets -> batches of 16 -> TriageTickets DoFn calling a local Ollama server (llama3.1:8b) -> BigQuery",
            "gpu_option": "--dataflow_service_options=" + acc},
        "evidence": [K05_NOGPU, K05_CPU, first_rate,
                     "Autoscaling: Raised the number of workers to 6 based on the rate of progress in the currently running stage(s)."],
        "red_herrings": [
            {"text": "Failed to establish a new connection: [Errno 111] Connection refused", "why": "The DoFn polls /api/tags while `ollama serve` is still starting; it becomes ready about 3 s later."},
            {"text": "Finished installing the drivers.", "why": "Shows the driver is installed on the host; the problem is that the container's library path does not expose it to Ollama."},
            {"text": "BigQuery Storage module not found, fetch data with the REST endpoint instead.", "why": "google-cloud-bigquery falls back to the REST API for a small metadata query; unrelated to the slowness."},
            {"text": "Error initializing dynamic plugin prober", "why": "Kubelet start-up message Dataflow documents as harmless."},
            {"text": "ima: Can not allocate sha384 (reason: -2)", "why": "Kernel IMA message Dataflow documents as harmless."},
        ],
        "sources": [
            {"what": "Ollama lines 'msg=\"looking for compatible GPUs\"', 'msg=\"no compatible GPUs were discovered\"', 'msg=\"inference compute\" id=0 library=cpu variant=... driver=0.0 name=\"\" total=... available=...', 'msg=\"server config\" env=\"map[...]\"', 'msg=\"total blobs: N\"', 'msg=\"Listening on 127.0.0.1:11434 (version ...)\"', 'msg=\"llama runner started in N seconds\"' and [GIN] request lines",
             "source": "ollama/ollama discover/gpu.go (slog.Info(\"no compatible GPUs were discovered\")), discover/types.go, server/routes.go; real outputs of ollama 0.5.7-0.9.x in public logs (e.g. a 2025-02-06 log with gpu.go:392 and types.go:131, a 2025-06-09 server-config line with routes.go:1234)"},
            {"what": "Ollama's libcuda search globs (NvcudaGlobs) do not include /usr/local/nvidia/lib64", "source": "ollama/ollama discover/gpu_linux.go"},
            {"what": "driver libraries are mounted at /usr/local/nvidia/lib64 and must be on LD_LIBRARY_PATH in custom images (ENV LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/nvidia/lib64:/usr/local/cuda/lib64)",
             "source": "Dataflow 'Run a pipeline with GPUs' (https://cloud.google.com/dataflow/docs/gpu/use-gpus), copies in /work/shared/reference/doc-pages/"},
            {"what": "urllib3/requests connection-refused text", "source": "urllib3 NewConnectionError / requests ConnectionError message format"},
            {"what": "job-message, boot and harness lines", "source": SRC["jobmsg"][1] + "; " + SRC["boot"][1] + "; " + SRC["harness"][1]},
            {"what": "system/kubelet noise and driver install lines", "source": SRC["benign_k8s"][1] + "; " + SRC["cosgpu"][1]},
        ],
        "synthetic": [
            "All envelopes, ids, names, timestamps, project and image names.",
            "The DoFn's own lines (starting ollama, readiness, per-batch token rates) and the relaying of Ollama's stdout as INFO worker-log lines are invented.",
            "Ollama source line numbers (gpu.go:217/377, types.go:130, routes.go:1287, server.go:630) are plausible for 0.9.0, not verified.",
        ],
    }
    return c, truth


# ==========================================================================
# hs10-06  streaming: one HEIC photo named .JPG is retried forever
# ==========================================================================

def case06():
    c = Case("hs10-06", 606, "lumiere-marketplace", "655102938847", "listing-photo-embeddings",
             "2025-10-14T07:02:18", "europe-west1", "europe-west1-d", jm_project_label="number")
    img = "europe-west1-docker.pkg.dev/lumiere-marketplace/dataflow/listing-embed:2025.10.2"
    acc = "worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"
    opts = opts_repr([
        ("runner", "DataflowRunner"), ("streaming", True), ("project", c.project), ("job_name", c.job_name),
        ("temp_location", "gs://lumiere-dataflow/tmp"), ("region", c.region), ("dataflow_service_options", [acc]),
        ("experiments", ["use_runner_v2", "enable_streaming_engine", "no_use_multiple_sdk_containers"]),
        ("machine_type", "n1-standard-4"), ("sdk_container_image", img), ("sdk_location", "container"),
        ("pickle_library", "cloudpickle"),
        ("input_subscription", "projects/lumiere-marketplace/subscriptions/listing-photo-uploads-df")])
    t = c.start
    c.jm(t, "Worker configuration: n1-standard-4 in %s." % c.zone)
    t += c.jitter(0.5, 1.5)
    c.jm(t, "Expanding SplittableParDo operations into optimizable parts.")
    c.jm(t + 20000000, "Fusing adjacent ParDo, Read, Write, and Flatten operations")
    t += c.jitter(0.3, 1)
    c.jm(t, "Starting 1 workers in %s..." % c.region)
    t += c.jitter(1, 3)
    c.jm(t, "Autoscaling is enabled for Dataflow Streaming Engine. Workers will scale between 1 and 100 unless maxNumWorkers is specified.", "WARNING")
    vms = [c.new_vm()]
    tv = t + c.jitter(25, 50)
    tv = vm_boot(c, vms[0], tv, "535.230.02")
    freeze = ["apache-beam==2.66.0", "google-cloud-pubsub==2.29.0", "google-cloud-storage==2.19.0", "numpy==2.2.6",
              "pillow==11.3.0", "torch==2.5.1+cu121", "transformers==4.53.2"]
    tv = boot_sdk(c, vms[0], tv, "sdk-0-0", "3.11.13", ["submission_environment_dependencies.txt"], pip_freeze=freeze)
    tv = harness_start(c, vms[0], tv, "sdk-0-0", "3.11", opts)
    t = tv + c.jitter(3, 8)
    c.jm(t, "Workers have started successfully.")
    t += c.jitter(20, 40)
    c.jm(t, "All workers have finished the startup processes and began to receive work requests.")
    lg = "/usr/local/lib/python3.11/site-packages/listing_embed/%s"
    tv = t + c.jitter(3, 8)
    c.dk(tv, vms[0], "/usr/local/lib/python3.11/site-packages/huggingface_hub/file_download.py:943: FutureWarning: `resume_download` is deprecated and will be removed in version 1.0.0. Downloads always resume when possible. If you want to force a new download, use `force_download=True`.")
    c.dk(tv + 1000, vms[0], "  warnings.warn(")
    tv += c.jitter(4, 9)
    c.wk(tv, vms[0], "Loaded CLIPModel openai/clip-vit-base-patch32 from /opt/models/clip-vit-base-patch32 on cuda:0 (fp16)",
         logger=lg % "embed.py:44", thread="Thread-17", step="EmbedCLIP/BeamML_RunInference")
    # steady state
    poison_ns = parse_utc("2025-10-14T09:41:12")
    end_ns = parse_utc("2025-10-14T12:55:00")
    win = (t // (300 * NS) + 1) * 300 * NS
    tw = tv
    second_vm_added = False
    while win + 300 * NS <= poison_ns:
        tw = win + 300 * NS + c.jitter(20, 45)
        vm = vms[c.rng.randrange(len(vms))]
        w0 = EPOCH + _dt.timedelta(seconds=win // NS)
        w1 = EPOCH + _dt.timedelta(seconds=(win + 300 * NS) // NS)
        last_commit = c.rng.randint(280, 760)
        c.wk(tw, vm, "Committed %d rows for window [%s, %s) to lumiere_search.listing_photo_embeddings" % (
            last_commit, w0.strftime("%H:%M:%S"), w1.strftime("%H:%M:%S")),
            logger=lg % "sinks.py:61", thread="Thread-%d" % c.rng.choice([31, 33]), step="WriteEmbeddings")
        if c.rng.random() < 0.5:
            c.wk(tw + c.jitter(1, 60), vm, "Embedded %d images in %.2f s (batch p50 decode %.0f ms)" % (
                c.rng.randint(24, 64), c.rng.uniform(0.4, 1.3), c.rng.uniform(6, 14)),
                logger=lg % "embed.py:88", thread="Thread-17", step="EmbedCLIP/BeamML_RunInference")
        if not second_vm_added and win > parse_utc("2025-10-14T08:10:00"):
            second_vm_added = True
            c.jm(tw, "Autoscaling: Raised the number of workers to 2 so that the pipeline can catch up with its backlog and keep up with its input rate.")
            vm2 = c.new_vm()
            tv2 = tw + c.jitter(30, 60)
            tv2 = vm_boot(c, vm2, tv2, "535.230.02")
            tv2 = boot_sdk(c, vm2, tv2, "sdk-0-0", "3.11.13", ["submission_environment_dependencies.txt"])
            tv2 = harness_start(c, vm2, tv2, "sdk-0-0", "3.11", opts)
            c.hn(tv2 + c.jitter(30, 90), vm2, "Unable to fetch data due to token mismatch for key 0000000000000005/d1b7a3f25c9e4c18")
            vms.append(vm2)
        win += 300 * NS
    c.jm(parse_utc("2025-10-14T09:02:31") + c.jitter(0, 1), "The Dataflow RunnerV2 container image of this job's workers will be ready for update in 7 days.")
    obj = "gs://lumiere-listing-uploads/s/20931/l/88213/IMG_4471.JPG"
    tcur = poison_ns + c.jitter(0.1, 0.9)
    attempt = 0
    first_err = None
    addrs = set()
    while tcur < end_ns:
        attempt += 1
        vm = vms[attempt % len(vms)]
        c.wk(tcur, vm, "Fetched %s (2413722 bytes, contentType=image/heic)" % obj,
             logger=lg % "fetch.py:58", thread="Thread-%d" % c.rng.choice([17, 22, 25]), step="FetchImage")
        addr = "0x7f%s0" % c.rs(HEX, 9)
        while addr in addrs:
            addr = "0x7f%s0" % c.rs(HEX, 9)
        addrs.add(addr)
        te = tcur + c.jitter(0.01, 0.05)
        inner = ("Traceback (most recent call last):\n"
                 '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process\n'
                 '  File "apache_beam/runners/common.py", line 685, in apache_beam.runners.common.SimpleInvoker.invoke_process\n'
                 '  File "/usr/local/lib/python3.11/site-packages/listing_embed/decode.py", line 31, in decode_image\n'
                 '    img = Image.open(io.BytesIO(data)).convert("RGB")\n'
                 '          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
                 '  File "/usr/local/lib/python3.11/site-packages/PIL/Image.py", line 3580, in open\n'
                 '    raise UnidentifiedImageError(msg)\n'
                 "PIL.UnidentifiedImageError: cannot identify image file <_io.BytesIO object at %s>\n\n"
                 "During handling of the above exception, another exception occurred:\n\n" % addr)
        frames = [
            '  File "/usr/local/lib/python3.11/site-packages/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute\n    response = task()\n             ^^^^^^\n',
            '  File "/usr/local/lib/python3.11/site-packages/apache_beam/runners/worker/sdk_worker.py", line 386, in <lambda>\n    lambda: self.create_worker().do_instruction(request), request)\n            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n',
            '  File "/usr/local/lib/python3.11/site-packages/apache_beam/runners/worker/sdk_worker.py", line 658, in do_instruction\n    return getattr(self, request_type)(\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n',
            '  File "/usr/local/lib/python3.11/site-packages/apache_beam/runners/worker/sdk_worker.py", line 696, in process_bundle\n    bundle_processor.process_bundle(instruction_id))\n    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n',
            '  File "/usr/local/lib/python3.11/site-packages/apache_beam/runners/worker/bundle_processor.py", line 1274, in process_bundle\n    input_op_by_transform_id[element.transform_id].process_encoded(\n',
            '  File "apache_beam/runners/common.py", line 1589, in apache_beam.runners.common.DoFnRunner._reraise_augmented\n',
            '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process\n',
            '  File "/usr/local/lib/python3.11/site-packages/PIL/Image.py", line 3580, in open\n    raise UnidentifiedImageError(msg)\n',
        ]
        exc = "PIL.UnidentifiedImageError: cannot identify image file <_io.BytesIO object at %s> [while running 'DecodeImage']" % addr
        base = "/usr/local/lib/python3.11/site-packages/apache_beam/runners/worker/sdk_worker.py:313"
        tb = inner + "Traceback (most recent call last):\n" + "".join(frames) + exc
        c.wk(te, vm, "Error processing instruction process_bundle-%d-%d. Original traceback is\n%s\n" % (c.rng.randint(10**18, 9 * 10**18), 2000 + attempt * 37, tb),
             "ERROR", logger=base, thread="Thread-%d" % c.rng.choice([14, 15, 18]), step="DecodeImage")
        if attempt % 3 == 1:
            c.dk(te + 3000, vm, exc)
        first_err = first_err or exc
        last_err = exc
        if attempt in (6, 19):
            c.hn(te + c.jitter(20, 50), vm, "Unable to fetch data due to token mismatch for key 0000000000000003/7a90c1e2b44f0d61")
        if attempt % 5 == 2:
            c.wk(te + c.jitter(5, 40), vm, "Embedded %d images in %.2f s (batch p50 decode %.0f ms)" % (
                c.rng.randint(24, 64), c.rng.uniform(0.4, 1.3), c.rng.uniform(6, 14)),
                logger=lg % "embed.py:88", thread="Thread-17", step="EmbedCLIP/BeamML_RunInference")
        gap = min(60 * 2 ** min(attempt, 3), 300) * c.rng.uniform(0.85, 1.15)
        tcur += int(gap * NS)
    truth = {
        "outcome": "stuck",
        "family": "streaming poison message: one undecodable (HEIC) image is retried forever and holds the watermark",
        "root_cause": (
            "A seller uploaded iPhone HEIC photos with a .JPG name (contentType image/heic). DecodeImage calls "
            "PIL.Image.open on the bytes, but the image has no HEIF decoder (Pillow needs the pillow-heif plugin), so "
            "Pillow raises UnidentifiedImageError. In a streaming Dataflow job a failing bundle is retried indefinitely, "
            "so the same element fails every few minutes for hours; the job never fails, but its watermark stops, no "
            "5-minute window after 09:40 is committed to BigQuery and the backlog grows. Fix: register pillow-heif "
            "(or convert HEIC on upload), and stop poison elements from blocking the pipeline: catch decode errors and "
            "route them to a dead-letter output (e.g. beam.ParDo(...).with_exception_handling()), then update or drain "
            "the running job."),
        "setup": {
            "hardware": "n1-standard-4 + 1 x NVIDIA Tesla T4 (1 -> 2 workers), europe-west1-d, NVIDIA driver 535.230.02",
            "sdk": "Apache Beam Python 2.66.0, Python 3.11, Runner v2, Streaming Engine",
            "image": img + " (torch 2.5.1+cu121, transformers 4.53.2, pillow 11.3.0, no pillow-heif)",
            "pipeline": "streaming: Pub/Sub upload notifications -> FetchImage -> DecodeImage (PIL) -> RunInference CLIP embeddings -> BigQuery (5-minute windows)",
            "gpu_option": "--dataflow_service_options=" + acc},
        "evidence": [first_err, "Fetched %s (2413722 bytes, contentType=image/heic)" % obj, last_err,
                     "Committed %d rows for window [09:35:00, 09:40:00) to lumiere_search.listing_photo_embeddings" % last_commit],
        "red_herrings": [
            {"text": "Unable to fetch data due to token mismatch for key", "why": "Streaming Engine message Dataflow documents as harmless."},
            {"text": "Autoscaling: Raised the number of workers to 2 so that the pipeline can catch up with its backlog and keep up with its input rate.", "why": "Normal autoscaling during the morning upload peak, two hours before the first decode error."},
            {"text": "FutureWarning: `resume_download` is deprecated and will be removed in version 1.0.0.", "why": "huggingface_hub deprecation notice on stderr."},
            {"text": "The Dataflow RunnerV2 container image of this job's workers will be ready for update in 7 days.", "why": "Informational notice about Runner v2 image updates."},
        ],
        "sources": [
            {"what": "'PIL.UnidentifiedImageError: cannot identify image file <_io.BytesIO object at 0x...>' raised by Image.open",
             "source": "python-pillow/Pillow src/PIL/Image.py (open(): raise UnidentifiedImageError(msg) with msg 'cannot identify image file %r'); HEIF needs the pillow-heif plugin (pillow-heif README)"},
            {"what": "streaming retries a failing bundle indefinitely", "source": "Dataflow docs 'Troubleshoot Dataflow errors' / exception handling in streaming pipelines (https://cloud.google.com/dataflow/docs/guides/common-errors)"},
            {"what": "'Error processing instruction %s. Original traceback is ...' and the [while running '...'] suffix", "source": SRC["sdkerr"][1]},
            {"what": "'Unable to fetch data due to token mismatch for key' (benign)", "source": SRC["benign_k8s"][1]},
            {"what": "streaming autoscaling job messages ('Autoscaling is enabled for Dataflow Streaming Engine...', '... so that the pipeline can catch up with its backlog and keep up with its input rate.') and the Runner v2 image notice", "source": SRC["jobmsg_streaming"][1] + "; reference file section 2f (f10) for the Runner v2 notice"},
            {"what": "huggingface_hub `resume_download` FutureWarning", "source": "huggingface/huggingface_hub src/huggingface_hub/file_download.py"},
            {"what": "boot and harness lines", "source": SRC["boot"][1] + "; " + SRC["harness"][1]},
            {"what": "system/kubelet noise and driver install lines", "source": SRC["benign_k8s"][1] + "; " + SRC["cosgpu"][1]},
        ],
        "synthetic": [
            "All envelopes, ids, names, timestamps, project, bucket and object names.",
            "The pipeline's own lines (Fetched ... contentType, Embedded N images, Committed N rows for window ...) are invented.",
            "The retry pacing of the stuck element and the Pillow/Beam line numbers are plausible, not measured.",
        ],
    }
    return c, truth


RI_LOAD_FRAMES = (
    '  File "/usr/local/lib/python{py}/site-packages/apache_beam/ml/inference/base.py", line 1440, in setup\n    self._model = self._load_model()\n'
    '  File "/usr/local/lib/python{py}/site-packages/apache_beam/ml/inference/base.py", line 1410, in _load_model\n    model = self._shared_model_handle.acquire(load, tag=self._cur_tag)\n'
    '  File "/usr/local/lib/python{py}/site-packages/apache_beam/utils/shared.py", line 312, in acquire\n    return _shared_map.acquire(self._key, constructor_fn, tag)\n'
    '  File "/usr/local/lib/python{py}/site-packages/apache_beam/utils/shared.py", line 253, in acquire\n    result = control_block.acquire(constructor_fn, tag)\n'
    '  File "/usr/local/lib/python{py}/site-packages/apache_beam/utils/shared.py", line 149, in acquire\n    result = constructor_fn()\n'
    '  File "/usr/local/lib/python{py}/site-packages/apache_beam/ml/inference/base.py", line 1384, in load\n    model = self._model_handler.load_model()\n')


def strip_carets(s):
    return "".join(l for l in s.splitlines(True) if not l.strip().startswith("^"))


# ==========================================================================
# hs10-07  tokenizers 0.19 cannot read a tokenizer.json saved by tokenizers 0.21
# ==========================================================================

K07_EXC = "Exception: data did not match any variant of untagged enum ModelWrapper at line 1251012 column 3"


def case07():
    c = Case("hs10-07", 707, "kestrel-legal-ai", "340982215576", "clause-extract-q2-backfill",
             "2025-04-28T11:05:50", "us-central1", "us-central1-f")
    img = "us-central1-docker.pkg.dev/kestrel-legal-ai/ml/clause-extract:2024.07"
    acc = "worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver"
    model = "gs://kestrel-legal-models/clause-llama31-8b-ft-2025-04/"
    opts = opts_repr([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name),
        ("temp_location", "gs://kestrel-legal-dataflow/tmp"), ("region", c.region),
        ("dataflow_service_options", [acc]), ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("num_workers", 2), ("max_num_workers", 4), ("machine_type", "a2-highgpu-1g"), ("disk_size_gb", 200),
        ("sdk_container_image", img), ("sdk_location", "container"), ("model_uri", model),
        ("contracts_table", "kestrel-legal-ai.contracts.q2_ingest")])
    stage = "S03:ReadContracts/Read+SplitSections+ExtractClauses/BeamML_RunInference+ParseClauses+WriteClauses/StorageWriteToBigQuery"
    ops = ["ReadContracts/Read/Impulse+ReadContracts/Read/EmitSource+ref_AppliedPTransform_ReadContracts-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/PairWithRestriction+ref_AppliedPTransform_ReadContracts-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/SplitWithSizing"]
    t = c.start
    t = jm_start(c, t, "a2-highgpu-1g", ops, 2, 4)
    freeze = ["accelerate==0.33.0", "apache-beam==2.60.0", "huggingface-hub==0.24.5", "numpy==1.26.4",
              "safetensors==0.4.4", "sentencepiece==0.2.0", "tokenizers==0.19.1", "torch==2.3.1",
              "transformers==4.43.4"]
    vms = [c.new_vm(), c.new_vm()]
    ready = []
    for i, vm in enumerate(vms):
        tv = t + c.jitter(20, 50)
        tv = vm_boot(c, vm, tv, "535.230.02")
        tv = boot_sdk(c, vm, tv, "sdk-0-0", "3.10.16", ["submission_environment_dependencies.txt", "pickled_main_session"],
                      pip_freeze=freeze if i == 0 else None)
        tv = harness_start(c, vm, tv, "sdk-0-0", "3.10", opts, dill=True)
        ready.append(tv)
    t = max(ready) + c.jitter(3, 10)
    c.jm(t, "Workers have started successfully.")
    t += c.jitter(20, 40)
    c.jm(t, "All workers have finished the startup processes and began to receive work requests.")
    t += c.jitter(0.5, 2)
    c.jm(t, "Executing operation ReadContracts/Read+SplitSections+ExtractClauses/BeamML_RunInference+ParseClauses+WriteClauses/StorageWriteToBigQuery")
    lg = "/usr/local/lib/python3.10/site-packages/clauses/%s"
    step = "ExtractClauses/BeamML_RunInference"
    for vm in vms:
        tr = t + c.jitter(1, 3)
        c.wk(tr, vm, "Reading kestrel-legal-ai.contracts.q2_ingest: %d contracts, split into %d sections" % (
            c.rng.randint(2100, 2600), c.rng.randint(38000, 52000)), logger=lg % "sections.py:64",
            thread="Thread-16", step="SplitSections")
    causes = []
    attempts = [vms[0], vms[1], vms[1], vms[0]]
    downloaded = set()
    for a, vm in enumerate(attempts):
        t += c.jitter(3, 9)
        tv = t
        if vm.name not in downloaded:
            downloaded.add(vm.name)
            c.wk(tv, vm, "Downloading %s -> /tmp/clause-llama31-8b (6 files)" % model, logger=lg % "handler.py:41",
                 thread="Thread-16", step=step)
            dl = c.rng.uniform(305, 340) if a == 0 else c.rng.uniform(180, 240)
            if a == 0:
                tl = tv + int(300.4 * NS)
                c.wk(tl, vm, ("Operation ongoing in bundle process_bundle-4418327765091263110-12 for PTransform{name=ExtractClauses/BeamML_RunInference, state=start-msecs} "
                              "for at least 300.31 seconds without outputting or completing.\nCurrent Traceback:\n"
                              "  File \"/usr/local/lib/python3.10/threading.py\", line 973, in _bootstrap\n    self._bootstrap_inner()\n\n"
                              "  File \"/usr/local/lib/python3.10/site-packages/clauses/handler.py\", line 47, in load_model\n    _copy_tree(self._model_uri, local_dir)\n\n"
                              "  File \"/usr/local/lib/python3.10/site-packages/apache_beam/io/gcp/gcsio.py\", line 278, in open\n    blob = bucket.get_blob(blob_name)\n"),
                     "WARNING", logger="/usr/local/lib/python3.10/site-packages/apache_beam/runners/worker/worker_status.py:452",
                     thread="Thread-4")
            tv += int(dl * NS)
            c.wk(tv, vm, "Downloaded 16.07 GB in %.1f s" % dl, logger=lg % "handler.py:49", thread="Thread-16", step=step)
        else:
            c.wk(tv, vm, "Model files already present in /tmp/clause-llama31-8b, skipping download",
                 logger=lg % "handler.py:44", thread="Thread-16", step=step)
        tv += c.jitter(0.05, 0.2)
        c.wk(tv, vm, "config.json: architectures=['LlamaForCausalLM'], torch_dtype=bfloat16, transformers_version=4.51.3",
             logger=lg % "handler.py:55", thread="Thread-16", step=step)
        tv += c.jitter(1.5, 3.5)
        frames = [BEAM_SETUP_FRAMES.format(py="3.10"), RI_LOAD_FRAMES.format(py="3.10"),
                  '  File "/usr/local/lib/python3.10/site-packages/clauses/handler.py", line 58, in load_model\n    tokenizer = AutoTokenizer.from_pretrained(local_dir)\n',
                  '  File "/usr/local/lib/python3.10/site-packages/transformers/models/auto/tokenization_auto.py", line 907, in from_pretrained\n    return tokenizer_class.from_pretrained(pretrained_model_name_or_path, *inputs, **kwargs)\n',
                  '  File "/usr/local/lib/python3.10/site-packages/transformers/tokenization_utils_base.py", line 2216, in from_pretrained\n    return cls._from_pretrained(\n',
                  '  File "/usr/local/lib/python3.10/site-packages/transformers/tokenization_utils_base.py", line 2450, in _from_pretrained\n    tokenizer = cls(*init_inputs, **init_kwargs)\n',
                  '  File "/usr/local/lib/python3.10/site-packages/transformers/models/llama/tokenization_llama_fast.py", line 157, in __init__\n    super().__init__(\n',
                  '  File "/usr/local/lib/python3.10/site-packages/transformers/tokenization_utils_fast.py", line 111, in __init__\n    fast_tokenizer = TokenizerFast.from_file(fast_tokenizer_file)\n']
        frames = [strip_carets(f) for f in frames]
        exc = K07_EXC + " [while running 'ExtractClauses/BeamML_RunInference']"
        tb = sdk_error(c, tv, vm, "process_bundle-%d-%d" % (c.rng.randint(10**18, 9 * 10**18), 12 + a),
                       frames, exc, step=step, pyminor="3.10")
        t = tv + c.jitter(1, 3)
        c.jm(t, "Error message from worker: generic::unknown: " + tb, "ERROR")
        causes.append((K07_EXC, vm.name))
        if a == 0:
            harness_split(c, t + c.jitter(1, 3), vms[1])
        if a == 2:
            c.wk(t + c.jitter(3, 8), vms[0], "Retrying gs://kestrel-legal-models/clause-llama31-8b-ft-2025-04/tokenizer_config.json after 503 (backoff 1.2 s)",
                 "WARNING", logger=lg % "handler.py:33", thread="Thread-16", step=step)
    t += c.jitter(2, 5)
    c.jm(t, fail4_text(stage, causes), "ERROR")
    t = jm_teardown(c, t + c.jitter(1, 3), 2)
    truth = {
        "outcome": "failed",
        "family": "Hugging Face tokenizer format drift: tokenizer.json written by tokenizers 0.21 cannot be parsed by tokenizers 0.19",
        "root_cause": (
            "The clause model was fine-tuned in April 2025 and saved with transformers 4.51.3 / tokenizers 0.21, which "
            "serialise the BPE merges of the Llama 3 tokenizer.json in the newer layout. The Dataflow image "
            "(clause-extract:2024.07) still pins transformers 4.43.4 with tokenizers 0.19.1, whose Rust deserializer does "
            "not accept that layout, so AutoTokenizer.from_pretrained raises 'data did not match any variant of untagged "
            "enum ModelWrapper at line 1251012 column 3' in RunInference's load_model. Every attempt fails the same way "
            "and the job fails after 4 attempts. Fix: upgrade tokenizers/transformers in the image to versions at least "
            "as new as the ones that saved the checkpoint (tokenizers>=0.21, transformers>=4.51), or re-save the "
            "tokenizer with the older library; pin both sides together."),
        "setup": {
            "hardware": "2 x a2-highgpu-1g (1 x NVIDIA A100 40GB each), us-central1-f, NVIDIA driver 535.230.02",
            "sdk": "Apache Beam Python 2.60.0, Python 3.10, Runner v2",
            "image": img + " (torch 2.3.1, transformers 4.43.4, tokenizers 0.19.1)",
            "pipeline": "batch: BigQuery contracts -> split sections -> RunInference (custom ModelHandler, Llama-3.1-8B fine-tune from Cloud Storage) -> BigQuery",
            "gpu_option": "--dataflow_service_options=" + acc},
        "evidence": [K07_EXC, "tokenizers==0.19.1",
                     "config.json: architectures=['LlamaForCausalLM'], torch_dtype=bfloat16, transformers_version=4.51.3",
                     "The job failed because a work item has failed 4 times."],
        "red_herrings": [
            {"text": "Operation ongoing in bundle process_bundle-4418327765091263110-12 for PTransform{name=ExtractClauses/BeamML_RunInference, state=start-msecs}", "why": "The 16 GB checkpoint download took just over five minutes; the lull report is expected and the download finished."},
            {"text": "after 503 (backoff 1.2 s)", "why": "One retried Cloud Storage read."},
            {"text": "No session file found: /var/opt/google/staged/pickled_main_session. Functions defined in __main__ (interactive session) may fail.", "why": "save_main_session is not used by this pipeline."},
            {"text": "Skipping pod synchronization", "why": "Kubelet start-up message Dataflow documents as harmless."},
        ],
        "sources": [
            {"what": "'Exception: data did not match any variant of untagged enum ModelWrapper at line 1251012 column 3' from TokenizerFast.from_file with transformers 4.43.4 / tokenizers 0.19.1 on a Llama-3.1 tokenizer",
             "source": "https://github.com/allenai/open-instruct/issues/738 (same versions, same line/column); https://github.com/lllyasviel/FramePack/issues/147 (traceback through tokenization_utils_fast.py line 111)"},
            {"what": "RunInference model-load path (base.py setup -> _load_model -> shared.acquire -> load_model)", "source": "apache/beam sdks/python/apache_beam/ml/inference/base.py and apache_beam/utils/shared.py"},
            {"what": "job-message lines incl. the 4-failures text", "source": SRC["jobmsg"][1] + "; " + SRC["jobmsg_fail4"][1]},
            {"what": "boot, pip-freeze, harness, lull and 'Error processing instruction' lines", "source": SRC["boot"][1] + "; " + SRC["harness"][1] + "; " + SRC["lull"][1] + "; " + SRC["sdkerr"][1]},
            {"what": "system/kubelet noise and driver install lines", "source": SRC["benign_k8s"][1] + "; " + SRC["cosgpu"][1]},
        ],
        "synthetic": [
            "All envelopes, ids, names, timestamps, project, bucket and image names.",
            "The handler's own lines (download, config.json summary, GCS retry) are invented.",
            "Traceback line numbers for Beam and transformers are plausible, not copied from the exact versions.",
        ],
    }
    return c, truth


# ==========================================================================
# hs10-08  vLLM: --max-model-len 131072 > Qwen2.5-7B max_position_embeddings
# ==========================================================================

K08_VAL = ("Value error, User-specified max_model_len (131072) is greater than the derived max_model_len "
           "(max_position_embeddings=32768 or model_max_length=None in model's config.json). This may lead to "
           "incorrect model outputs or CUDA errors. To allow overriding this maximum, set the env var "
           "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 [type=value_error, input_value=ArgsKwargs((), {'model': ...attention_dtype': None}), input_type=ArgsKwargs]")
K08_BEAM = ("Failed to start vLLM server, polling process exited with code 1.  Next time a request is tried, the "
            "server will be restarted")


def case08():
    c = Case("hs10-08", 808, "meridian-legal-genai", "882340117605", "contract-summaries-long-ctx",
             "2025-08-19T10:36:09", "us-central1", "us-central1-a")
    img = "us-central1-docker.pkg.dev/meridian-legal-genai/dataflow/vllm-beam:0.10.0-2.66"
    acc = "worker_accelerator=type:nvidia-h100-80gb;count:1;install-nvidia-driver:latest"
    opts = opts_repr([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name),
        ("temp_location", "gs://meridian-genai-dataflow/tmp"), ("region", c.region),
        ("dataflow_service_options", [acc]), ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("num_workers", 1), ("max_num_workers", 2), ("machine_type", "a3-highgpu-1g"), ("disk_size_gb", 200),
        ("sdk_container_image", img), ("sdk_location", "container"), ("pickle_library", "cloudpickle"),
        ("model", "Qwen/Qwen2.5-7B-Instruct")])
    stage = "S02:ReadContracts/Read+BuildPrompts+Summarize/BeamML_RunInference+WriteSummaries/StorageWriteToBigQuery"
    ops = ["ReadContracts/Read/Impulse+ReadContracts/Read/EmitSource+ref_AppliedPTransform_ReadContracts-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/PairWithRestriction+ref_AppliedPTransform_ReadContracts-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/SplitWithSizing"]
    t = c.start
    t = jm_start(c, t, "a3-highgpu-1g", ops, 1, 2)
    vm = c.new_vm()
    tv = t + c.jitter(30, 70)
    tv = vm_boot(c, vm, tv, "570.158.01")
    freeze = ["apache-beam==2.66.0", "openai==1.99.1", "pydantic==2.11.7", "torch==2.7.1", "transformers==4.55.2", "vllm==0.10.0"]
    tv = boot_sdk(c, vm, tv, "sdk-0-0", "3.12.11", ["submission_environment_dependencies.txt"], pip_freeze=freeze)
    tv = harness_start(c, vm, tv, "sdk-0-0", "3.12", opts)
    t = tv + c.jitter(3, 8)
    c.jm(t, "Workers have started successfully.")
    t += c.jitter(20, 40)
    c.jm(t, "All workers have finished the startup processes and began to receive work requests.")
    t += c.jitter(0.5, 2)
    c.jm(t, "Executing operation ReadContracts/Read+BuildPrompts+Summarize/BeamML_RunInference+WriteSummaries/StorageWriteToBigQuery")
    beam_vllm = "/usr/local/lib/python3.12/dist-packages/apache_beam/ml/inference/vllm_inference.py:%d"
    step = "Summarize/BeamML_RunInference"
    dp = "/usr/local/lib/python3.12/dist-packages"
    causes = []
    launches = 0

    def relay(ts_, line):
        c.wk(ts_, vm, line, logger=beam_vllm % 74, thread="Thread-%d" % (40 + launches), step=step)

    for a in range(4):
        t += c.jitter(3, 8)
        tv = t
        for r in range(4):
            launches += 1
            port = c.rng.randint(32000, 61000)
            c.wk(tv, vm, "Starting service with ['/usr/bin/python3' '-m' 'vllm.entrypoints.openai.api_server' '--model' 'Qwen/Qwen2.5-7B-Instruct' '--port' '%d' '--max-model-len' '131072' '--gpu-memory-utilization' '0.92']" % port,
                 logger=beam_vllm % 66, thread="Thread-%d" % (30 + a), step=step)
            tv += c.jitter(4, 7)
            d = EPOCH + _dt.timedelta(seconds=tv // NS)
            stamp = d.strftime("%m-%d %H:%M:%S")
            relay(tv, "INFO %s [__init__.py:235] Automatically detected platform cuda." % stamp)
            tv += c.jitter(2.5, 4)
            d = EPOCH + _dt.timedelta(seconds=tv // NS)
            stamp = d.strftime("%m-%d %H:%M:%S")
            full = (launches == 1)
            if full:
                relay(tv, "INFO %s [api_server.py:1755] vLLM API server version 0.10.0" % stamp)
                relay(tv + 2 * 10 ** 6, "INFO %s [cli_args.py:261] non-default args: {'model': 'Qwen/Qwen2.5-7B-Instruct', 'port': %d, 'max_model_len': 131072, 'gpu_memory_utilization': 0.92}" % (stamp, port))
                tv += c.jitter(10.5, 11.5)
                relay(tv, "'(ReadTimeoutError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out. (read timeout=10)\"), '(Request ID: 6f2d1c0a-4b7e-4c55-9a1e-2f83b51d7c04)')' thrown while requesting HEAD https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/resolve/main/config.json")
                relay(tv + 10 ** 6, "Retrying in 1s [Retry 1/5].")
                tv += c.jitter(1.5, 2.5)
                tb_lines = [
                    "Traceback (most recent call last):",
                    '  File "<frozen runpy>", line 198, in _run_module_as_main',
                    '  File "<frozen runpy>", line 88, in _run_code',
                    '  File "%s/vllm/entrypoints/openai/api_server.py", line 1856, in <module>' % dp,
                    "    uvloop.run(run_server(args))",
                    '  File "%s/uvloop/__init__.py", line 109, in run' % dp,
                    "    return __asyncio.run(",
                    "           ^^^^^^^^^^^^^^",
                    '  File "%s/vllm/entrypoints/openai/api_server.py", line 1791, in run_server' % dp,
                    "    await run_server_worker(listen_address, sock, args, **uvicorn_kwargs)",
                    '  File "%s/vllm/entrypoints/openai/api_server.py", line 1811, in run_server_worker' % dp,
                    "    async with build_async_engine_client(args, client_config) as engine_client:",
                    '  File "%s/vllm/entrypoints/openai/api_server.py", line 158, in build_async_engine_client' % dp,
                    "    async with build_async_engine_client_from_engine_args(",
                    '  File "%s/vllm/entrypoints/openai/api_server.py", line 180, in build_async_engine_client_from_engine_args' % dp,
                    "    vllm_config = engine_args.create_engine_config(usage_context=usage_context)",
                    '  File "%s/vllm/engine/arg_utils.py", line 1004, in create_engine_config' % dp,
                    "    model_config = self.create_model_config()",
                    '  File "%s/vllm/engine/arg_utils.py", line 872, in create_model_config' % dp,
                    "    return ModelConfig(",
                    "           ^^^^^^^^^^^^",
                    '  File "%s/pydantic/_internal/_dataclasses.py", line 123, in __init__' % dp,
                    "    s.__pydantic_validator__.validate_python(ArgsKwargs(args, kwargs), self_instance=s)",
                ]
                for k, line in enumerate(tb_lines):
                    relay(tv + k * 150000, line)
                tv += c.jitter(0.02, 0.05)
            relay(tv, "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig")
            relay(tv + 120000, "  " + K08_VAL)
            if full:
                relay(tv + 240000, "    For further information visit https://errors.pydantic.dev/2.11/v/value_error")
            tv += c.jitter(5, 6)
        frames = [BEAM_SETUP_FRAMES.format(py="3.12").replace("site-packages", "dist-packages"),
                  RI_LOAD_FRAMES.format(py="3.12").replace("site-packages", "dist-packages"),
                  '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 216, in load_model\n    return _VLLMModelServer(self._model_name, self._vllm_server_kwargs)\n' % dp,
                  '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 111, in __init__\n    self.start_server()\n' % dp,
                  '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 127, in start_server\n    self.check_connectivity(retries)\n' % dp,
                  '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 154, in check_connectivity\n    self.start_server(retries - 1)\n' % dp,
                  '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 148, in check_connectivity\n    raise Exception(\n' % dp]
        exc = "Exception: %s [while running '%s']" % (K08_BEAM, step)
        tb = sdk_error(c, tv, vm, "process_bundle-%d-%d" % (c.rng.randint(10**18, 9 * 10**18), 9 + a),
                       frames, exc, step=step, pyminor="3.12")
        t = tv + c.jitter(1, 3)
        c.jm(t, "Error message from worker: generic::unknown: " + tb, "ERROR")
        causes.append(("Exception: " + K08_BEAM, vm.name))
        if a == 0:
            harness_split(c, t + c.jitter(1, 3), vm)
    t += c.jitter(2, 5)
    c.jm(t, fail4_text(stage, causes), "ERROR")
    t = jm_teardown(c, t + c.jitter(1, 3), 1)
    truth = {
        "outcome": "failed",
        "family": "LLM engine configuration: vLLM --max-model-len larger than the model's position limit (YaRN not enabled)",
        "root_cause": (
            "Summaries of long contracts are generated with Beam's VLLMCompletionsModelHandler, started with "
            "vllm_server_kwargs={'max-model-len': '131072', 'gpu-memory-utilization': '0.92'} for Qwen/Qwen2.5-7B-Instruct. "
            "The model's config.json has max_position_embeddings=32768; Qwen2.5 reaches 128K only with YaRN rope scaling, "
            "which is not enabled here. vLLM 0.10.0 rejects the configuration while building ModelConfig (pydantic "
            "ValidationError 'User-specified max_model_len (131072) is greater than the derived max_model_len ...'), the "
            "OpenAI server exits with code 1 before loading any weights, Beam restarts it 3 times and then raises "
            "'Failed to start vLLM server'; the work item fails 4 times and the job fails. The vLLM output only appears "
            "as INFO lines relayed by Beam. Fix: either keep max-model-len at 32768 (and chunk long contracts), or enable "
            "YaRN as the Qwen2.5 model card describes (e.g. rope-scaling / hf-overrides with rope_type yarn, factor 4.0, "
            "original_max_position_embeddings 32768) and then set max-model-len 131072; do not just set "
            "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1."),
        "setup": {
            "hardware": "1 x a3-highgpu-1g (1 x NVIDIA H100 80GB), us-central1-a, NVIDIA driver 570.158.01",
            "sdk": "Apache Beam Python 2.66.0, Python 3.12, Runner v2",
            "image": img + " (FROM vllm/vllm-openai:v0.10.0 + apache-beam 2.66.0)",
            "pipeline": "batch: BigQuery contracts -> prompts -> RunInference(VLLMCompletionsModelHandler, Qwen2.5-7B-Instruct) -> BigQuery",
            "gpu_option": "--dataflow_service_options=" + acc},
        "evidence": [K08_VAL,
                     "non-default args: {'model': 'Qwen/Qwen2.5-7B-Instruct'",
                     "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig",
                     "Exception: " + K08_BEAM],
        "red_herrings": [
            {"text": "Read timed out. (read timeout=10)", "why": "One Hugging Face Hub HEAD request timed out and huggingface_hub retried it (Retrying in 1s [Retry 1/5]); the config was then read, as the validation error shows."},
            {"text": "Failed to start vLLM server", "why": "Beam's generic wrapper after the server process exits; the reason is in the relayed vLLM output just before it."},
            {"text": "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1", "why": "The error offers this override, but it only disables the check; without YaRN scaling the model produces garbage or CUDA errors past 32K positions."},
            {"text": "Error running LookupEffectiveGuestPolicies", "why": "Guest-agent message Dataflow documents as harmless."},
        ],
        "sources": [
            {"what": "vLLM validation error 'Value error, User-specified max_model_len (...) is greater than the derived max_model_len (max_position_embeddings=... or model_max_length=None in model's config.json). This may lead to incorrect model outputs or CUDA errors. To allow overriding this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 [type=value_error, input_value=ArgsKwargs((), {'model': ...attention_dtype': None}), input_type=ArgsKwargs]'",
             "source": "vllm-project/vllm vllm/config.py (_get_and_verify_max_len); a real July-2025 output for Qwen3-Coder (max_position_embeddings=262144) and vllm-project/vllm discussion of Qwen2.5 YaRN (max_model_len 131072 vs max_position_embeddings=32768)"},
            {"what": "vLLM start-up lines ('Automatically detected platform cuda.', 'vLLM API server version ...', 'non-default args: {...}')", "source": "vllm-project/vllm vllm/platforms/__init__.py, vllm/entrypoints/openai/api_server.py and cli_args.py (0.10.x log format 'INFO MM-DD HH:MM:SS [file.py:line] msg')"},
            {"what": "Beam relays the server's stdout/stderr as INFO ('Starting service with %s', logging.info of each line) and raises 'Failed to start vLLM server, polling process exited with code %s.  Next time a request is tried, the server will be restarted' after 3 restarts",
             "source": "apache/beam sdks/python/apache_beam/ml/inference/vllm_inference.py (start_process, _VLLMModelServer.check_connectivity)"},
            {"what": "huggingface_hub retry warnings (''... thrown while requesting HEAD https://huggingface.co/...', 'Retrying in 1s [Retry 1/5].')", "source": "huggingface/huggingface_hub src/huggingface_hub/utils/_http.py (http_backoff)"},
            {"what": "job-message lines incl. the 4-failures text", "source": SRC["jobmsg"][1] + "; " + SRC["jobmsg_fail4"][1]},
            {"what": "boot, pip-freeze, harness and 'Error processing instruction' lines", "source": SRC["boot"][1] + "; " + SRC["harness"][1] + "; " + SRC["sdkerr"][1]},
            {"what": "system/kubelet noise and driver install lines", "source": SRC["benign_k8s"][1] + "; " + SRC["cosgpu"][1]},
        ],
        "synthetic": [
            "All envelopes, ids, names, timestamps, project and image names.",
            "That the relayed server output reaches the worker log from the model-loading process is assumed (Beam logs it with logging.info).",
            "vLLM/pydantic/Beam traceback line numbers are plausible for the stated versions, not verified; later restarts are shortened to the last lines.",
        ],
    }
    return c, truth


# ==========================================================================
# hs10-09  vLLM tensor_parallel_size=4 on a 2 x L4 worker
# ==========================================================================

K09_EXC = "RuntimeError: please set tensor_parallel_size (4) to less than max local gpu count (2)"


def case09():
    c = Case("hs10-09", 909, "brightaisle-catalog", "127730468891", "listing-enrich-qwen32b",
             "2025-05-21T13:30:44", "us-east4", "us-east4-a")
    img = "us-east4-docker.pkg.dev/brightaisle-catalog/dataflow/enrich-vllm:0.8.5-r4"
    acc = "worker_accelerator=type:nvidia-l4;count:2;install-nvidia-driver"
    opts = opts_repr([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name),
        ("temp_location", "gs://brightaisle-dataflow/tmp"), ("region", c.region),
        ("dataflow_service_options", [acc]), ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("num_workers", 1), ("max_num_workers", 3), ("machine_type", "g2-standard-24"), ("disk_size_gb", 150),
        ("sdk_container_image", img), ("sdk_location", "container"), ("pickle_library", "cloudpickle"),
        ("serving_config", "gs://brightaisle-ml-config/enrich/serving.yaml")])
    stage = "S02:ReadListings/Read+BatchListings/ParDo(_GlobalWindowsBatchingDoFn)+EnrichListings+WriteEnriched/StorageWriteToBigQuery"
    ops = ["ReadListings/Read/Impulse+ReadListings/Read/EmitSource+ref_AppliedPTransform_ReadListings-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/PairWithRestriction+ref_AppliedPTransform_ReadListings-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/SplitWithSizing"]
    t = c.start
    t = jm_start(c, t, "g2-standard-24", ops, 1, 3)
    vms = [c.new_vm()]
    freeze = ["apache-beam==2.64.0", "huggingface-hub==0.31.2", "torch==2.6.0", "transformers==4.51.3",
              "vllm==0.8.5.post1", "xformers==0.0.29.post2"]
    tv = t + c.jitter(25, 60)
    tv = vm_boot(c, vms[0], tv, "570.124.06")
    tv = boot_sdk(c, vms[0], tv, "sdk-0-0", "3.11.12", ["submission_environment_dependencies.txt"], pip_freeze=freeze)
    tv = harness_start(c, vms[0], tv, "sdk-0-0", "3.11", opts)
    t = tv + c.jitter(3, 8)
    c.jm(t, "Workers have started successfully.")
    t += c.jitter(20, 40)
    c.jm(t, "All workers have finished the startup processes and began to receive work requests.")
    t += c.jitter(0.5, 2)
    c.jm(t, "Executing operation ReadListings/Read+BatchListings/ParDo(_GlobalWindowsBatchingDoFn)+EnrichListings+WriteEnriched/StorageWriteToBigQuery")
    lg = "/usr/local/lib/python3.11/site-packages/catalog_enrich/dofns.py:%d"
    sp = "/usr/local/lib/python3.11/site-packages"
    step = "EnrichListings"
    causes = []
    t_scale = None
    for a in range(4):
        if a == 2 and t_scale is None:
            t_scale = t + c.jitter(5, 20)
            c.jm(t_scale, "Autoscaling: Raised the number of workers to 2 based on the rate of progress in the currently running stage(s).")
            vm2 = c.new_vm()
            tv2 = t_scale + c.jitter(30, 60)
            tv2 = vm_boot(c, vm2, tv2, "570.124.06")
            tv2 = boot_sdk(c, vm2, tv2, "sdk-0-0", "3.11.12", ["submission_environment_dependencies.txt"])
            tv2 = harness_start(c, vm2, tv2, "sdk-0-0", "3.11", opts)
            vms.append(vm2)
            t = max(t, tv2)
        vm = vms[a % len(vms)] if a < 2 else vms[(a + 1) % 2]
        t += c.jitter(3, 8)
        tv = t
        c.wk(tv, vm, "Serving config (serving.yaml rev 2025-03-02): model=Qwen/Qwen2.5-32B-Instruct-AWQ tensor_parallel_size=4 distributed_executor_backend=mp max_model_len=8192 gpu_memory_utilization=0.90; torch.cuda.device_count()=2",
             logger=lg % 61, thread="Thread-18", step=step)
        tv += c.jitter(4, 8)
        d = EPOCH + _dt.timedelta(seconds=tv // NS)
        stamp = d.strftime("%m-%d %H:%M:%S")
        c.dk(tv, vm, "INFO %s [__init__.py:239] Automatically detected platform cuda." % stamp, "INFO")
        first_on_vm = not getattr(vm, "seen", False)
        vm.seen = True
        if first_on_vm:
            tv += c.jitter(1, 2)
            c.dk(tv, vm, K09_FORK_MSG[0], "ERROR")
            for k, l in enumerate(K09_FORK_MSG[1:]):
                c.dk(tv + (k + 1) * 1000, vm, l, "ERROR")
            if a == 0:
                tl = tv + int(c.rng.uniform(300.2, 301.5) * NS)
                c.wk(tl, vm, ("Operation ongoing in bundle process_bundle-1188374602217745001-7 for PTransform{name=EnrichListings, state=start-msecs} "
                              "for at least %.2f seconds without outputting or completing.\nCurrent Traceback:\n"
                              "  File \"/usr/local/lib/python3.11/threading.py\", line 1002, in _bootstrap\n    self._bootstrap_inner()\n\n"
                              "  File \"%s/huggingface_hub/file_download.py\", line 1710, in _download_to_tmp_and_move\n    http_get(\n")
                     % ((tl - tv) / NS, sp), "WARNING",
                     logger=sp + "/apache_beam/runners/worker/worker_status.py:452", thread="Thread-4")
                tv = tl + int(c.rng.uniform(140, 190) * NS)
                c.wk(tv, vm, "Downloaded Qwen/Qwen2.5-32B-Instruct-AWQ to /root/.cache/huggingface (19.3 GB, 5 safetensors shards)",
                     logger=lg % 70, thread="Thread-18", step=step)
            else:
                tv += c.jitter(230, 280)
                c.wk(tv, vm, "Downloaded Qwen/Qwen2.5-32B-Instruct-AWQ to /root/.cache/huggingface (19.3 GB, 5 safetensors shards)",
                     logger=lg % 70, thread="Thread-18", step=step)
        else:
            tv += c.jitter(1, 3)
            c.wk(tv, vm, "Using cached Qwen/Qwen2.5-32B-Instruct-AWQ from /root/.cache/huggingface",
                 logger=lg % 68, thread="Thread-18", step=step)
        tv += c.jitter(8, 14)
        d = EPOCH + _dt.timedelta(seconds=tv // NS)
        stamp = d.strftime("%m-%d %H:%M:%S")
        c.dk(tv, vm, "INFO %s [config.py:717] This model supports multiple tasks: {'reward', 'generate', 'score', 'embed', 'classify'}. Defaulting to 'generate'." % stamp, "INFO")
        c.dk(tv + 4 * 10 ** 6, vm, "INFO %s [awq_marlin.py:113] The model is convertible to awq_marlin during runtime. Using awq_marlin kernel." % stamp, "INFO")
        c.dk(tv + 9 * 10 ** 6, vm, "WARNING %s [config.py:2836] Casting torch.bfloat16 to torch.float16." % stamp, "INFO")
        c.dk(tv + 31 * 10 ** 6, vm, ("INFO %s [llm_engine.py:240] Initializing a V0 LLM engine (v0.8.5.post1) with config: "
                                     "model='Qwen/Qwen2.5-32B-Instruct-AWQ', speculative_config=None, tokenizer='Qwen/Qwen2.5-32B-Instruct-AWQ', "
                                     "skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, override_neuron_config=None, "
                                     "tokenizer_revision=None, trust_remote_code=False, dtype=torch.float16, max_seq_len=8192, "
                                     "download_dir=None, load_format=LoadFormat.AUTO, tensor_parallel_size=4, pipeline_parallel_size=1, "
                                     "disable_custom_all_reduce=False, quantization=awq_marlin, enforce_eager=False, "
                                     "kv_cache_dtype=auto, device_config=cuda, seed=None, served_model_name=Qwen/Qwen2.5-32B-Instruct-AWQ") % stamp, "INFO")
        tv += c.jitter(0.1, 0.3)
        frames = [BEAM_SETUP_FRAMES.format(py="3.11"),
                  '  File "%s/catalog_enrich/dofns.py", line 74, in setup\n    self._llm = LLM(\n                ^^^^\n' % sp,
                  '  File "%s/vllm/utils.py", line 1161, in inner\n    return fn(*args, **kwargs)\n           ^^^^^^^^^^^^^^^^^^^\n' % sp,
                  '  File "%s/vllm/entrypoints/llm.py", line 247, in __init__\n    self.llm_engine = LLMEngine.from_engine_args(\n                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' % sp,
                  '  File "%s/vllm/engine/llm_engine.py", line 510, in from_engine_args\n    return engine_cls.from_vllm_config(\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' % sp,
                  '  File "%s/vllm/engine/llm_engine.py", line 486, in from_vllm_config\n    return cls(\n           ^^^^\n' % sp,
                  '  File "%s/vllm/engine/llm_engine.py", line 275, in __init__\n    self.model_executor = executor_class(vllm_config=vllm_config, )\n                          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' % sp,
                  '  File "%s/vllm/executor/executor_base.py", line 286, in __init__\n    super().__init__(*args, **kwargs)\n' % sp,
                  '  File "%s/vllm/executor/executor_base.py", line 52, in __init__\n    self._init_executor()\n' % sp,
                  '  File "%s/vllm/executor/mp_distributed_executor.py", line 59, in _init_executor\n    self._check_cuda()\n' % sp,
                  '  File "%s/vllm/executor/mp_distributed_executor.py", line 41, in _check_cuda\n    raise RuntimeError(\n' % sp]
        exc = K09_EXC + " [while running 'EnrichListings']"
        tb = sdk_error(c, tv, vm, "process_bundle-%d-%d" % (c.rng.randint(10**18, 9 * 10**18), 7 + a),
                       frames, exc, step=step)
        t = tv + c.jitter(1, 3)
        c.jm(t, "Error message from worker: generic::unknown: " + tb, "ERROR")
        causes.append((K09_EXC, vm.name))
        if a == 1:
            harness_split(c, t + c.jitter(1, 3), vm)
    t += c.jitter(2, 5)
    c.jm(t, fail4_text(stage, causes), "ERROR")
    t = jm_teardown(c, t + c.jitter(1, 3), 2)
    truth = {
        "outcome": "failed",
        "family": "multi-GPU configuration: vLLM tensor parallelism larger than the GPUs attached to the worker",
        "root_cause": (
            "The enrichment DoFn builds vLLM's LLM(...) from serving.yaml with tensor_parallel_size=4 and "
            "distributed_executor_backend='mp'; that file was written for g2-standard-48 workers with 4 L4s. The job was "
            "moved to g2-standard-24 with worker_accelerator count:2 (2 L4s per worker), but the serving config was not "
            "changed. vLLM's multiprocessing executor checks the local GPU count before starting its workers and raises "
            "'please set tensor_parallel_size (4) to less than max local gpu count (2)' in DoFn.setup on every attempt, so "
            "the job fails after 4 attempts. Fix: derive tensor_parallel_size from torch.cuda.device_count() (2 here; the "
            "~19 GB AWQ model fits on 2 x 24 GB L4 with max_model_len 8192), or run on g2-standard-48 with count:4 so the "
            "config matches."),
        "setup": {
            "hardware": "g2-standard-24 (2 x NVIDIA L4) workers, 1 -> 2 by autoscaling, us-east4-a, NVIDIA driver 570.124.06",
            "sdk": "Apache Beam Python 2.64.0, Python 3.11, Runner v2, one SDK process per worker",
            "image": img + " (vllm 0.8.5.post1 with VLLM_USE_V1=0, torch 2.6.0)",
            "pipeline": "batch: BigQuery listings -> batches -> EnrichListings DoFn (vLLM offline LLM, Qwen2.5-32B-Instruct-AWQ) -> BigQuery",
            "gpu_option": "--dataflow_service_options=" + acc},
        "evidence": [K09_EXC, "tensor_parallel_size=4, pipeline_parallel_size=1",
                     "Worker configuration: g2-standard-24 in us-east4-a.",
                     "torch.cuda.device_count()=2"],
        "red_herrings": [
            {"text": "Operation ongoing in bundle process_bundle-1188374602217745001-7 for PTransform{name=EnrichListings, state=start-msecs}", "why": "The first setup downloaded the 19 GB checkpoint from the Hub; the lull report is expected and the download completed."},
            {"text": "Casting torch.bfloat16 to torch.float16.", "why": "vLLM's normal notice for AWQ checkpoints stored in bfloat16."},
            {"text": K09_FORK_MSG[0], "why": "tokenizers' standard fork notice on stderr; harmless."},
            {"text": "Autoscaling: Raised the number of workers to 2 based on the rate of progress in the currently running stage(s).", "why": "Autoscaling reacting to the unprocessed backlog; the new worker fails the same way."},
        ],
        "sources": [
            {"what": "'please set tensor_parallel_size (%d) to less than max local gpu count (%d)' raised by the mp executor's _check_cuda",
             "source": "vllm-project/vllm vllm/executor/mp_distributed_executor.py (MultiprocessingDistributedExecutor._check_cuda, V0 engine); earlier assert form in vllm/executor/multiproc_gpu_executor.py"},
            {"what": "vLLM 0.8.x V0 start-up lines ('Automatically detected platform cuda.', 'This model supports multiple tasks: {...}. Defaulting to 'generate'.', 'The model is convertible to awq_marlin during runtime. Using awq_marlin kernel.', 'Casting torch.bfloat16 to torch.float16.', 'Initializing a V0 LLM engine (v...) with config: ...')",
             "source": "vllm-project/vllm vllm/config.py, vllm/model_executor/layers/quantization/awq_marlin.py, vllm/engine/llm_engine.py (log texts; in-process vLLM logs go to stdout)"},
            {"what": "tokenizers fork warning", "source": "huggingface/tokenizers bindings/python/src/utils/parallelism.rs"},
            {"what": "job-message lines incl. the 4-failures text", "source": SRC["jobmsg"][1] + "; " + SRC["jobmsg_fail4"][1]},
            {"what": "boot, pip-freeze, harness, lull and 'Error processing instruction' lines", "source": SRC["boot"][1] + "; " + SRC["harness"][1] + "; " + SRC["lull"][1] + "; " + SRC["sdkerr"][1]},
            {"what": "system/kubelet noise and driver install lines", "source": SRC["benign_k8s"][1] + "; " + SRC["cosgpu"][1]},
        ],
        "synthetic": [
            "All envelopes, ids, names, timestamps, project and image names; the serving.yaml story.",
            "The DoFn's own lines (serving config, snapshot download/cache messages) are invented; the DoFn is assumed to pre-download the checkpoint with huggingface_hub before constructing LLM().",
            "The engine-config line is shortened to its first fields; vLLM/Beam line numbers are plausible, not verified.",
        ],
    }
    return c, truth


K09_FORK_MSG = ["huggingface/tokenizers: The current process just got forked, after parallelism has already been used. Disabling parallelism to avoid deadlocks...",
                "To disable this warning, you can either:",
                "\t- Avoid using `tokenizers` before the fork if possible",
                "\t- Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)"]


# ==========================================================================
# hs10-10  torch.use_deterministic_algorithms(True) without CUBLAS_WORKSPACE_CONFIG
# ==========================================================================

K10_EXC = ("RuntimeError: Deterministic behavior was enabled with either `torch.use_deterministic_algorithms(True)` or "
           "`at::Context::setDeterministicAlgorithms(true)`, but this operation is not deterministic because it uses "
           "CuBLAS and you have CUDA >= 10.2. To enable deterministic behavior in this case, you must set an environment "
           "variable before running your PyTorch application: CUBLAS_WORKSPACE_CONFIG=:4096:8 or "
           "CUBLAS_WORKSPACE_CONFIG=:16:8. For more information, go to "
           "https://docs.nvidia.com/cuda/cublas/index.html#results-reproducibility")
K10_NESTED = ("/usr/local/lib/python3.11/site-packages/torch/nn/modules/transformer.py:385: UserWarning: "
              "enable_nested_tensor is True, but self.use_nested_tensor is False because "
              "encoder_layer.self_attn.batch_first was not True(use batch_first for better inference performance)")


def case10():
    c = Case("hs10-10", 1010, "fenwick-credit-ml", "503318826190", "credit-limit-scoring-daily",
             "2025-11-05T08:00:37", "europe-west4", "europe-west4-a", jm_project_label="number")
    img = "europe-west4-docker.pkg.dev/fenwick-credit-ml/dataflow/ft-scorer:4.2.0"
    acc = "worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"
    opts = opts_repr([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name),
        ("temp_location", "gs://fenwick-credit-dataflow/tmp"), ("region", c.region),
        ("dataflow_service_options", [acc]), ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]),
        ("num_workers", 2), ("max_num_workers", 4), ("machine_type", "g2-standard-4"),
        ("sdk_container_image", img), ("sdk_location", "container"), ("pickle_library", "cloudpickle"),
        ("model_path", "gs://fenwick-credit-models/ft-transformer/v4.2/model.pt"), ("score_date", "2025-11-04")])
    step = "ScoreApplications/BeamML_RunInference"
    stage = "S02:ReadApplications/Read+Featurize+ScoreApplications/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+ScoreApplications/BeamML_RunInference+WriteScores/StorageWriteToBigQuery"
    ops = ["ReadApplications/Read/Impulse+ReadApplications/Read/EmitSource+ref_AppliedPTransform_ReadApplications-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/PairWithRestriction+ref_AppliedPTransform_ReadApplications-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/SplitWithSizing"]
    t = c.start
    t = jm_start(c, t, "g2-standard-4", ops, 2, 4)
    freeze = ["apache-beam==2.64.0", "fenwick-ft-scorer==4.2.0", "numpy==2.2.6", "pandas==2.2.3",
              "pyarrow==18.1.0", "torch==2.6.0+cu124"]
    vms = [c.new_vm(), c.new_vm()]
    ready = []
    for i, vm in enumerate(vms):
        tv = t + c.jitter(20, 50)
        tv = vm_boot(c, vm, tv, "570.124.06")
        tv = boot_sdk(c, vm, tv, "sdk-0-0", "3.11.12", ["submission_environment_dependencies.txt"],
                      pip_freeze=freeze if i == 0 else None)
        tv = harness_start(c, vm, tv, "sdk-0-0", "3.11", opts)
        ready.append(tv)
    t = max(ready) + c.jitter(3, 10)
    c.jm(t, "Workers have started successfully.")
    t += c.jitter(20, 40)
    c.jm(t, "All workers have finished the startup processes and began to receive work requests.")
    t += c.jitter(0.5, 2)
    c.jm(t, "Executing operation ReadApplications/Read+Featurize+ScoreApplications/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+ScoreApplications/BeamML_RunInference+WriteScores/StorageWriteToBigQuery")
    lg = "/usr/local/lib/python3.11/site-packages/fenwick_scorer/%s"
    sp = "/usr/local/lib/python3.11/site-packages"
    for vm in vms:
        tr = t + c.jitter(1, 3)
        c.wk(tr, vm, "Score date 2025-11-04: reading %d applications from fenwick_credit.applications_daily" % c.rng.randint(40000, 46000),
             logger=lg % "pipeline.py:58", thread="Thread-15", step="ReadApplications")
        c.wk(tr + c.jitter(0.5, 1.5), vm, "Loaded feature statistics v4.2 (118 numeric, 23 categorical features)",
             logger=lg % "features.py:72", thread="Thread-15", step="Featurize")
    causes = []
    attempts = [vms[0], vms[1], vms[0], vms[1]]
    loaded = set()
    for a, vm in enumerate(attempts):
        t += c.jitter(3, 9)
        tv = t
        if vm.name not in loaded:
            loaded.add(vm.name)
            c.wk(tv, vm, "Determinism enabled for audit reproducibility: torch.use_deterministic_algorithms(True), cudnn.benchmark=False, seed=20251104",
                 logger=lg % "handler.py:38", thread="Thread-15", step=step)
            tv += c.jitter(0.5, 1.5)
            c.wk(tv, vm, "Loaded FT-Transformer v4.2 (d_token=192, n_blocks=3, 118 features) from gs://fenwick-credit-models/ft-transformer/v4.2/model.pt onto cuda:0",
                 logger=lg % "handler.py:52", thread="Thread-15", step=step)
            c.dk(tv + 2000, vm, K10_NESTED)
            c.dk(tv + 3000, vm, "  warnings.warn(")
            tv += c.jitter(1, 3)
        c.wk(tv, vm, "Featurized %d applications (%d with missing bureau data imputed)" % (c.rng.randint(9000, 12000), c.rng.randint(200, 700)),
             logger=lg % "features.py:140", thread="Thread-15", step="Featurize")
        tv += c.jitter(0.5, 2)
        frames = [
            '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process\n',
            '  File "apache_beam/runners/common.py", line 912, in apache_beam.runners.common.PerWindowInvoker.invoke_process\n',
            '  File "apache_beam/runners/common.py", line 1057, in apache_beam.runners.common.PerWindowInvoker._invoke_process_per_window\n',
            '  File "%s/apache_beam/ml/inference/base.py", line 1573, in process\n    return self._run_inference(batch, inference_args)\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' % sp,
            '  File "%s/apache_beam/ml/inference/base.py", line 1542, in _run_inference\n    raise e\n' % sp,
            '  File "%s/apache_beam/ml/inference/base.py", line 1527, in _run_inference\n    result_generator = self._model_handler.run_inference(\n                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' % sp,
            '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 545, in run_inference\n    return self._inference_fn(\n           ^^^^^^^^^^^^^^^^^^^\n' % sp,
            '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 221, in default_tensor_inference_fn\n    predictions = model(batched_tensors, **inference_args)\n                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' % sp,
            '  File "%s/torch/nn/modules/module.py", line 1739, in _wrapped_call_impl\n    return self._call_impl(*args, **kwargs)\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' % sp,
            '  File "%s/torch/nn/modules/module.py", line 1750, in _call_impl\n    return forward_call(*args, **kwargs)\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' % sp,
            '  File "%s/fenwick_scorer/model.py", line 97, in forward\n    tokens = self.feature_tokenizer(x_num, x_cat)\n             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' % sp,
            '  File "%s/fenwick_scorer/model.py", line 41, in forward\n    return self.num_proj(x_num.unsqueeze(-1)) + self.bias\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' % sp,
            '  File "%s/torch/nn/modules/linear.py", line 125, in forward\n    return F.linear(input, self.weight, self.bias)\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' % sp,
        ]
        inner = "Traceback (most recent call last):\n" + "".join(frames) + K10_EXC + "\n\nDuring handling of the above exception, another exception occurred:\n\n"
        outer = [
            '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute\n    response = task()\n             ^^^^^^\n' % sp,
            '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 696, in process_bundle\n    bundle_processor.process_bundle(instruction_id))\n    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' % sp,
            '  File "apache_beam/runners/common.py", line 1589, in apache_beam.runners.common.DoFnRunner._reraise_augmented\n',
            '  File "%s/torch/nn/modules/linear.py", line 125, in forward\n    return F.linear(input, self.weight, self.bias)\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' % sp,
        ]
        exc = K10_EXC + " [while running '%s']" % step
        base = sp + "/apache_beam/runners/worker/sdk_worker.py:313"
        instr = "process_bundle-%d-%d" % (c.rng.randint(10**18, 9 * 10**18), 21 + a)
        tb = inner + "Traceback (most recent call last):\n" + "".join(outer) + exc
        c.wk(tv, vm, "Error processing instruction %s. Original traceback is\n%s\n" % (instr, tb), "ERROR",
             logger=base, thread="Thread-%d" % c.rng.choice([14, 18, 20]), step=step)
        c.dk(tv + 3000, vm, exc)
        t = tv + c.jitter(1, 3)
        c.jm(t, "Error message from worker: generic::unknown: " + tb, "ERROR")
        causes.append((K10_EXC, vm.name))
        if a == 0:
            harness_split(c, t + c.jitter(1, 3), vms[1])
        if a == 1:
            c.wk(t + c.jitter(2, 6), vms[0], "Retrying gs://fenwick-credit-models/ft-transformer/v4.2/feature_stats.json after 429 Too Many Requests (backoff 2.0 s)",
                 "WARNING", logger=lg % "io.py:27", thread="Thread-15", step="Featurize")
    t += c.jitter(2, 5)
    c.jm(t, fail4_text(stage, causes), "ERROR")
    t = jm_teardown(c, t + c.jitter(1, 3), 2)
    truth = {
        "outcome": "failed",
        "family": "PyTorch 2.x determinism: torch.use_deterministic_algorithms(True) without CUBLAS_WORKSPACE_CONFIG on the workers",
        "root_cause": (
            "For audit reproducibility the scoring handler calls torch.use_deterministic_algorithms(True) when it loads the "
            "FT-Transformer. With CUDA >= 10.2, cuBLAS matmuls are only deterministic when CUBLAS_WORKSPACE_CONFIG is set "
            "(:4096:8 or :16:8) before the first cuBLAS call; the team's dev container exports it, the Dataflow image does "
            "not. The first nn.Linear in the forward pass therefore raises 'Deterministic behavior was enabled ... "
            "CUBLAS_WORKSPACE_CONFIG=:4096:8 ...' on every bundle, and the job fails after 4 attempts. Fix: add "
            "ENV CUBLAS_WORKSPACE_CONFIG=:4096:8 to the worker image (or set os.environ before any CUDA work in setup), or "
            "relax to torch.use_deterministic_algorithms(True, warn_only=True)."),
        "setup": {
            "hardware": "2 x g2-standard-4 (1 x NVIDIA L4 each), europe-west4-a, NVIDIA driver 570.124.06",
            "sdk": "Apache Beam Python 2.64.0, Python 3.11, Runner v2",
            "image": img + " (torch 2.6.0+cu124)",
            "pipeline": "batch: BigQuery credit applications -> featurize -> RunInference(custom PytorchModelHandlerTensor, FT-Transformer) -> BigQuery",
            "gpu_option": "--dataflow_service_options=" + acc},
        "evidence": [K10_EXC,
                     "Determinism enabled for audit reproducibility: torch.use_deterministic_algorithms(True), cudnn.benchmark=False, seed=20251104",
                     "The job failed because a work item has failed 4 times."],
        "red_herrings": [
            {"text": K10_NESTED, "why": "TransformerEncoder's performance advice about batch_first; it does not affect results."},
            {"text": "you have CUDA >= 10.2", "why": "Part of the error text; it does not mean the CUDA version is wrong, only that cuBLAS needs the workspace setting for determinism."},
            {"text": "after 429 Too Many Requests (backoff 2.0 s)", "why": "One retried Cloud Storage read of the feature statistics."},
            {"text": "Error running LookupEffectiveGuestPolicies", "why": "Guest-agent message Dataflow documents as harmless."},
        ],
        "sources": [
            {"what": "'Deterministic behavior was enabled with either `torch.use_deterministic_algorithms(True)` or `at::Context::setDeterministicAlgorithms(true)`, but this operation is not deterministic because it uses CuBLAS and you have CUDA >= 10.2. ... CUBLAS_WORKSPACE_CONFIG=:4096:8 or CUBLAS_WORKSPACE_CONFIG=:16:8. For more information, go to https://docs.nvidia.com/cuda/cublas/index.html#results-reproducibility'",
             "source": "pytorch/pytorch aten/src/ATen/Context.cpp (alertCuBLASConfigNotDeterministic); real outputs in public notebooks and linkedin/Liger-Kernel test comments"},
            {"what": "TransformerEncoder nested-tensor UserWarning", "source": "pytorch/pytorch torch/nn/modules/transformer.py"},
            {"what": "RunInference process path (base.py process -> _run_inference -> pytorch_inference.run_inference -> default_tensor_inference_fn)", "source": "apache/beam sdks/python/apache_beam/ml/inference/base.py and pytorch_inference.py"},
            {"what": "job-message lines incl. the 4-failures text", "source": SRC["jobmsg"][1] + "; " + SRC["jobmsg_fail4"][1]},
            {"what": "boot, pip-freeze, harness and 'Error processing instruction' lines", "source": SRC["boot"][1] + "; " + SRC["harness"][1] + "; " + SRC["sdkerr"][1]},
            {"what": "system/kubelet noise and driver install lines", "source": SRC["benign_k8s"][1] + "; " + SRC["cosgpu"][1]},
        ],
        "synthetic": [
            "All envelopes, ids, names, timestamps, project, bucket and image names.",
            "The handler's own lines (determinism notice, model load, featurize counts, GCS retry) are invented.",
            "Traceback line numbers for Beam/PyTorch/model code are plausible, not copied.",
        ],
    }
    return c, truth


# ==========================================================================
# hs10-11  healthy batch: ONNX Runtime on 3 x L4 (noise only)
# ==========================================================================

K11_MEMCPY = ("Memcpy nodes are added to the graph main_graph for CUDAExecutionProvider. It might have negative impact on "
              "performance (including unable to run CUDA graph). Set session_options.log_severity_level=1 to see the detail "
              "logs before this message.")
K11_ASSIGN = ("VerifyEachNodeIsAssignedToAnEp] Some nodes were not assigned to the preferred execution providers which may "
              "or may not have an negative impact on performance. e.g. ORT explicitly assigns shape related ops to CPU to "
              "improve perf.")
K11_OOM = ("Failed to allocate memory for requested buffer of size 1207959552")


def ort_stamp(ns):
    d = EPOCH + _dt.timedelta(seconds=ns // NS)
    return d.strftime("%Y-%m-%d %H:%M:%S") + ".%09d" % (ns % NS)


def case11():
    c = Case("hs10-11", 1111, "norlane-docs-ai", "61880427731", "invoice-layout-classify-jan",
             "2026-01-13T03:14:52", "asia-southeast1", "asia-southeast1-b")
    img = "asia-southeast1-docker.pkg.dev/norlane-docs-ai/dataflow/layout-ort:1.22-b7"
    acc = "worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"
    opts = opts_repr([
        ("runner", "DataflowRunner"), ("project", c.project), ("job_name", c.job_name),
        ("temp_location", "gs://norlane-dataflow/tmp"), ("region", c.region), ("dataflow_service_options", [acc]),
        ("experiments", ["use_runner_v2", "no_use_multiple_sdk_containers"]), ("num_workers", 3),
        ("max_num_workers", 3), ("machine_type", "g2-standard-8"), ("sdk_container_image", img),
        ("sdk_location", "container"), ("requirements_file", "requirements.txt"), ("pickle_library", "cloudpickle"),
        ("input", "gs://norlane-inbox/2026-01/*.pdf")])
    step = "ClassifyPages/BeamML_RunInference"
    op_main = ("ListPdfs/Read+RenderPages+ClassifyPages/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+"
               "ClassifyPages/BeamML_RunInference+PostProcess+WriteResults/ConvertToRows+WriteResults/WriteToBigQuery/BigQueryBatchFileLoads/WriteRecordsToFile")
    ops = ["ListPdfs/Impulse+ListPdfs/MatchAll+ListPdfs/Reshard/AddRandomKeys",
           "WriteResults/WriteToBigQuery/BigQueryBatchFileLoads/ImpulseJobName/Read+WriteResults/WriteToBigQuery/BigQueryBatchFileLoads/LoadJobNamePrefix"]
    t = c.start
    t = jm_start(c, t, "g2-standard-8", ops, 3, 3)
    pipr = [(1.2, "Collecting pymupdf==1.26.3 (from -r /var/opt/google/staged/requirements.txt (line 1))\n"),
            (0.4, "  Downloading pymupdf-1.26.3-cp39-abi3-manylinux_2_28_x86_64.whl.metadata (3.4 kB)\n"),
            (0.9, "Installing collected packages: pymupdf\n"),
            (2.6, "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.\n"
                  "google-cloud-aiplatform 1.97.0 requires shapely<3.0.0dev, which is not installed.\n"),
            (0.01, "Successfully installed pymupdf-1.26.3\n")]
    freeze = ["apache-beam==2.68.0", "numpy==2.2.6", "onnx==1.18.0", "onnxruntime-gpu==1.22.0",
              "nvidia-cublas-cu12==12.8.4.1", "nvidia-cudnn-cu12==9.10.2.21", "opencv-python-headless==4.11.0.86",
              "pillow==11.3.0", "PyMuPDF==1.26.3"]
    vms = [c.new_vm() for _ in range(3)]
    ready = []
    for i, vm in enumerate(vms):
        tv = t + c.jitter(20, 50)
        tv = vm_boot(c, vm, tv, "570.172.08")
        tv = boot_sdk(c, vm, tv, "sdk-0-0", "3.12.11", ["requirements.txt", "submission_environment_dependencies.txt"],
                      pip_freeze=freeze if i == 0 else None, pip_chunks=[(0, "Some packages could not be installed solely from the requirements cache. Installing packages from PyPI.")] + pipr if i == 0 else pipr)
        tv = harness_start(c, vm, tv, "sdk-0-0", "3.12", opts)
        ready.append(tv)
    t = max(ready) + c.jitter(3, 10)
    c.jm(t, "Workers have started successfully.")
    t += c.jitter(20, 40)
    c.jm(t, "All workers have finished the startup processes and began to receive work requests.")
    for op in ops:
        t += c.jitter(0.5, 2)
        c.jm(t, "Finished operation %s" % op)
    t += c.jitter(0.5, 2)
    c.jm(t, "Executing operation %s" % op_main)
    lg = "/usr/local/lib/python3.12/site-packages/layoutcls/%s"
    tw = []
    for i, vm in enumerate(vms):
        tv = t + c.jitter(3, 10)
        c.wk(tv, vm, "Creating InferenceSession for /opt/models/layoutlm-cls-v5.onnx with providers ['CUDAExecutionProvider', 'CPUExecutionProvider']",
             logger=lg % "model.py:33", thread="Thread-16", step=step)
        tv += c.jitter(2, 5)
        n = c.rng.choice([12, 14, 14, 16])
        c.dk(tv, vm, "%s [W:onnxruntime:, transformer_memcpy.cc:74 ApplyImpl] %d %s" % (ort_stamp(tv), n, K11_MEMCPY))
        c.dk(tv + 40000, vm, "%s [W:onnxruntime:, session_state.cc:1280 %s" % (ort_stamp(tv + 40000), K11_ASSIGN))
        c.dk(tv + 60000, vm, "%s [W:onnxruntime:, session_state.cc:1282 VerifyEachNodeIsAssignedToAnEp] Rerunning with verbose output on a non-minimal build will show node assignments." % ort_stamp(tv + 60000))
        tv += c.jitter(0.3, 0.8)
        c.wk(tv, vm, "Session providers: ['CUDAExecutionProvider', 'CPUExecutionProvider'] (onnxruntime 1.22.0, device NVIDIA L4)",
             logger=lg % "model.py:47", thread="Thread-16", step=step)
        tw.append(tv)
    c.hn(tw[1] + c.jitter(40, 90), vms[1], "Continuing to process work-id 6127750413285511904 without splitting. Reader split status was: INTERNAL: Empty split returned.")
    oom_done = False
    for k in range(30):
        w = k % 3
        tw[w] += int(c.rng.uniform(40, 95) * NS)
        vm = vms[w]
        c.wk(tw[w], vm, "Classified %d pages from %d PDFs in %.1f s (invoice=%d, receipt=%d, other=%d)" % (
            c.rng.randint(380, 520), c.rng.randint(40, 75), c.rng.uniform(18, 31), c.rng.randint(200, 300),
            c.rng.randint(60, 120), c.rng.randint(20, 80)),
            logger=lg % "pipeline.py:102", thread="Thread-%d" % c.rng.choice([16, 19]), step="PostProcess")
        if k == 13 and not oom_done:
            oom_done = True
            te = tw[w] + c.jitter(5, 20)
            c.dk(te, vm, "%s [E:onnxruntime:, sequential_executor.cc:572 ExecuteKernel] Non-zero status code returned while running Conv node. Name:'/backbone/stem/conv/Conv' Status Message: /onnxruntime_src/onnxruntime/core/framework/bfc_arena.cc:376 void* onnxruntime::BFCArena::AllocateRawInternal(size_t, bool, onnxruntime::Stream*, bool, onnxruntime::WaitNotificationFn) %s" % (ort_stamp(te), K11_OOM))
            c.wk(te + c.jitter(0.01, 0.05), vm, "Batch of 96 pages hit CUDA out of memory in ONNX Runtime (%s); retrying as 2 batches of 48" % K11_OOM,
                 "WARNING", logger=lg % "model.py:88", thread="Thread-16", step=step)
            c.wk(te + c.jitter(1.5, 3), vm, "Retry succeeded: 2 batches of 48 pages", logger=lg % "model.py:95",
                 thread="Thread-16", step=step)
        if k == 21:
            c.wk(tw[w] + c.jitter(3, 9), vm, "Transient error reading gs://norlane-inbox/2026-01/INV-77310.pdf: 503 Service Unavailable; retry 1/5 in 1.0 s",
                 "WARNING", logger=lg % "io.py:41", thread="Thread-19", step="RenderPages")
    t = max(tw) + c.jitter(10, 30)
    c.jm(t, "Finished operation %s" % op_main)
    jobid = "".join(c.rng.choice("0123456789") for _ in range(20))
    t += c.jitter(1, 3)
    c.jm(t, "Executing operation WriteResults/WriteToBigQuery/BigQueryBatchFileLoads/TriggerLoadJobsWithoutTempTables")
    t += c.jitter(1, 3)
    c.jm(t, 'Executing BigQuery import job "dataflow_job_%s". You can check its status with the bq tool: "bq show -j --project_id=%s dataflow_job_%s".' % (jobid, c.project, jobid))
    t += c.jitter(20, 40)
    c.jm(t, "Finished operation WriteResults/WriteToBigQuery/BigQueryBatchFileLoads/TriggerLoadJobsWithoutTempTables")
    for vm in vms:
        tv = t + c.jitter(0.5, 2)
        base = "/usr/local/lib/python3.12/site-packages/apache_beam/runners/worker/sdk_worker.py:%d"
        c.wk(tv, vm, "No more requests from control plane", logger=base % 290)
        c.wk(tv + 1000, vm, "SDK Harness waiting for in-flight requests to complete", logger=base % 291)
        c.wk(tv + 80000, vm, "Done consuming work.", logger=base % 303)
        c.ws(tv + c.jitter(0.5, 1), vm, "Python (worker sdk-0-0) exited.")
    t = jm_teardown(c, t + c.jitter(2, 5), 3)
    truth = {
        "outcome": "succeeded",
        "family": "healthy (noise only): batch ONNX Runtime CUDA EP on L4",
        "root_cause": (
            "No failure. ONNX Runtime created its sessions with the CUDA execution provider on all three L4 workers, "
            "classified every page and the BigQuery load finished; the pool was torn down normally. Noise that must not "
            "be reported as a problem: ORT's Memcpy-node and node-assignment warnings on stderr (normal for shape ops "
            "kept on CPU), one ORT arena allocation failure on a 96-page batch that the DoFn caught and retried as two "
            "batches of 48 (succeeded), pip's 'dependency resolver does not currently take into account' note about an "
            "unrelated package during worker start-up, a retried Cloud Storage 503, and kubelet/system messages Dataflow "
            "documents as harmless. No fix needed (optionally cap batch size at 48)."),
        "setup": {
            "hardware": "3 x g2-standard-8 (1 x NVIDIA L4 each), asia-southeast1-b, NVIDIA driver 570.172.08",
            "sdk": "Apache Beam Python 2.68.0, Python 3.12, Runner v2",
            "image": img + " (onnxruntime-gpu 1.22.0, CUDA 12 / cuDNN 9 wheels) + requirements.txt (PyMuPDF)",
            "pipeline": "batch: PDFs on Cloud Storage -> render pages -> RunInference(OnnxModelHandlerNumpy, CUDAExecutionProvider) -> BigQuery file loads",
            "gpu_option": "--dataflow_service_options=" + acc},
        "evidence": ["Session providers: ['CUDAExecutionProvider', 'CPUExecutionProvider'] (onnxruntime 1.22.0, device NVIDIA L4)",
                     "Retry succeeded: 2 batches of 48 pages", "Worker pool stopped."],
        "red_herrings": [
            {"text": K11_MEMCPY, "why": "ORT's standard notice when some small ops stay on CPU; the model runs on the GPU."},
            {"text": K11_ASSIGN, "why": "Same: shape-related ops are placed on CPU on purpose."},
            {"text": K11_OOM, "why": "One oversized batch exceeded the CUDA arena; the DoFn caught it, split the batch and the retry succeeded."},
            {"text": "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed.", "why": "pip's after-the-fact conflict note about google-cloud-aiplatform's optional shapely dependency, which this job never imports; installation succeeded."},
            {"text": "503 Service Unavailable; retry 1/5 in 1.0 s", "why": "Transient Cloud Storage error, retried successfully."},
            {"text": "Continuing to process work-id 6127750413285511904 without splitting. Reader split status was: INTERNAL: Empty split returned.", "why": "Dataflow documents this harness message as harmless."},
        ],
        "sources": [
            {"what": "ONNX Runtime warnings '[W:onnxruntime:, transformer_memcpy.cc:74 ApplyImpl] N Memcpy nodes are added to the graph main_graph for CUDAExecutionProvider. It might have negative impact on performance (including unable to run CUDA graph). ...' and '[W:onnxruntime:, session_state.cc:... VerifyEachNodeIsAssignedToAnEp] Some nodes were not assigned to the preferred execution providers ...' / 'Rerunning with verbose output on a non-minimal build will show node assignments.'",
             "source": "microsoft/onnxruntime onnxruntime/core/optimizer/transformer_memcpy.cc and core/framework/session_state.cc; real outputs in public logs (e.g. thewh1teagle/kokoro-onnx#112, 2024-2026 application logs)"},
            {"what": "ORT arena OOM '[E:onnxruntime:, sequential_executor.cc:... ExecuteKernel] Non-zero status code returned while running Conv node. ... bfc_arena.cc:376 void* onnxruntime::BFCArena::AllocateRawInternal(...) Failed to allocate memory for requested buffer of size N'",
             "source": "microsoft/onnxruntime onnxruntime/core/framework/bfc_arena.cc; a real 2025-12 log of the same form found by exact text"},
            {"what": "pip 'ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.'", "source": "pypa/pip src/pip/_internal/commands/install.py (_warn_about_conflicts)"},
            {"what": "job-message lines incl. 'Executing BigQuery import job \"dataflow_job_...\". You can check its status with the bq tool: \"bq show -j --project_id=... dataflow_job_...\".'", "source": SRC["jobmsg"][1] + "; a 2023 Dataflow tutorial transcript quoting the BigQuery import job message"},
            {"what": "'Continuing to process work-id ... without splitting. Reader split status was: INTERNAL: Empty split returned...' (benign)", "source": SRC["benign_k8s"][1]},
            {"what": "boot, pip (piputil), pip-freeze and harness lines", "source": SRC["boot"][1] + "; " + SRC["piputil"][1] + "; " + SRC["harness"][1]},
            {"what": "system/kubelet noise and driver install lines", "source": SRC["benign_k8s"][1] + "; " + SRC["cosgpu"][1]},
        ],
        "synthetic": [
            "All envelopes, ids, names, timestamps, project, bucket and image names.",
            "The pipeline's own lines (session creation, per-batch counts, OOM retry, GCS retry) are invented; ORT source line numbers are plausible.",
        ],
    }
    return c, truth


# ==========================================================================
# hs10-12  healthy streaming: TensorFlow 2.17 fraud scoring on A100 40GB
# ==========================================================================

K12_BFC = ("Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.10GiB with freed_by_count=0. The caller indicates "
           "that this is not a failure, but may mean that there could be performance gains if more memory were available.")


def case12():
    c = Case("hs10-12", 1212, "corvid-payments-risk", "774190238815", "txn-fraud-scoring-stream",
             "2026-02-03T06:30:05", "us-central1", "us-central1-a")
    img = "us-central1-docker.pkg.dev/corvid-payments-risk/dataflow/fraud-tf:2.17.1-r12"
    acc = "worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver"
    opts = opts_repr([
        ("runner", "DataflowRunner"), ("streaming", True), ("project", c.project), ("job_name", c.job_name),
        ("temp_location", "gs://corvid-risk-dataflow/tmp"), ("region", c.region), ("dataflow_service_options", [acc]),
        ("experiments", ["use_runner_v2", "enable_streaming_engine", "no_use_multiple_sdk_containers"]),
        ("machine_type", "a2-highgpu-1g"), ("max_num_workers", 4), ("sdk_container_image", img),
        ("sdk_location", "container"), ("pickle_library", "cloudpickle"),
        ("input_subscription", "projects/corvid-payments-risk/subscriptions/card-txn-fraud-df")])
    t = c.start
    c.jm(t, "Worker configuration: a2-highgpu-1g in %s." % c.zone)
    t += c.jitter(0.5, 1.5)
    c.jm(t, "Expanding SplittableParDo operations into optimizable parts.")
    c.jm(t + 30000000, "Fusing adjacent ParDo, Read, Write, and Flatten operations")
    t += c.jitter(0.3, 1)
    c.jm(t, "Starting 1 workers in %s..." % c.region)
    vms = [c.new_vm()]
    freeze = ["apache-beam==2.70.0", "keras==3.6.0", "numpy==1.26.4", "tensorflow==2.17.1", "tf_keras==2.17.0"]
    tv = t + c.jitter(25, 50)
    tv = vm_boot(c, vms[0], tv, "570.172.08")
    tv = boot_sdk(c, vms[0], tv, "sdk-0-0", "3.11.13", ["submission_environment_dependencies.txt"], pip_freeze=freeze)
    tv = harness_start(c, vms[0], tv, "sdk-0-0", "3.11", opts)
    t = tv + c.jitter(3, 8)
    c.jm(t, "Workers have started successfully.")
    t += c.jitter(20, 40)
    c.jm(t, "All workers have finished the startup processes and began to receive work requests.")

    def tf_start(vm, tv):
        d = EPOCH + _dt.timedelta(seconds=tv // NS)
        st = lambda ns: (EPOCH + _dt.timedelta(seconds=ns // NS)).strftime("%Y-%m-%d %H:%M:%S") + ".%06d" % ((ns % NS) // 1000)
        c.dk(tv, vm, "%s: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:485] Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered" % st(tv))
        c.dk(tv + 21000000, vm, "%s: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:8454] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered" % st(tv + 21000000))
        c.dk(tv + 27000000, vm, "%s: E external/local_xla/xla/stream_executor/cuda/cuda_blas.cc:1452] Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered" % st(tv + 27000000))
        c.dk(tv + 1900000000, vm, "%s: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT" % st(tv + 1900000000))
        tv += c.jitter(4, 7)
        unix = "%d.%06d" % (tv // NS, (tv % NS) // 1000)
        c.dk(tv, vm, "I0000 00:00:%s    1187 gpu_device.cc:2021] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 38482 MB memory:  -> device: 0, name: NVIDIA A100-SXM4-40GB, pci bus id: 0000:00:04.0, compute capability: 8.0" % unix)
        tv += c.jitter(1, 3)
        c.wk(tv, vm, "Loaded fraud model gs://corvid-risk-models/txn-fraud/v31/ (SavedModel, serving_default) on /GPU:0; warmup p50 3.1 ms",
             logger="/usr/local/lib/python3.11/site-packages/fraudscore/model.py:52", thread="Thread-17", step="ScoreTransactions")
        return tv

    lg = "/usr/local/lib/python3.11/site-packages/fraudscore/%s"
    tw = tf_start(vms[0], t + c.jitter(4, 9))
    end_ns = c.start + int(5.5 * 3600 * NS)
    win = (tw // (60 * NS) + 1) * 60 * NS
    added = False
    removed = False
    bfc_done = False
    dlq_done = False
    while win < end_ns:
        win += int(c.rng.choice([7, 8, 9, 10]) * 60 * NS)
        vm = vms[c.rng.randrange(len(vms))]
        w0 = EPOCH + _dt.timedelta(seconds=win // NS)
        w1 = EPOCH + _dt.timedelta(seconds=(win + 60 * NS) // NS)
        c.wk(win + 60 * NS + c.jitter(2, 8), vm, "Scored %d transactions in window [%s, %s); alerts=%d; model p99 %.0f ms" % (
            c.rng.randint(9000, 16000), w0.strftime("%H:%M:%S"), w1.strftime("%H:%M:%S"), c.rng.randint(3, 40), c.rng.uniform(22, 48)),
            logger=lg % "pipeline.py:133", thread="Thread-%d" % c.rng.choice([17, 21, 24]), step="ScoreTransactions")
        if not bfc_done and win > c.start + 40 * 60 * NS:
            bfc_done = True
            unix = "%d.%06d" % (win // NS, (win % NS) // 1000)
            c.dk(win + c.jitter(1, 30), vm, "W0000 00:00:%s    1301 bfc_allocator.cc:291] %s" % (unix, K12_BFC))
        if not added and win > c.start + 70 * 60 * NS:
            added = True
            c.jm(win, "Autoscaling: Raised the number of workers to 2 so that the pipeline can catch up with its backlog and keep up with its input rate.")
            vm2 = c.new_vm()
            tv2 = win + c.jitter(30, 60)
            tv2 = vm_boot(c, vm2, tv2, "570.172.08")
            tv2 = boot_sdk(c, vm2, tv2, "sdk-0-0", "3.11.13", ["submission_environment_dependencies.txt"])
            tv2 = harness_start(c, vm2, tv2, "sdk-0-0", "3.11", opts)
            tf_start(vm2, tv2 + c.jitter(3, 8))
            c.hn(tv2 + c.jitter(60, 200), vm2, "Unable to fetch data due to token mismatch for key 0000000000000002/5c3e9a11b07d42f8")
            vms.append(vm2)
        if not dlq_done and win > c.start + 150 * 60 * NS:
            dlq_done = True
            c.wk(win + c.jitter(5, 40), vm, "Routed 1 malformed message to projects/corvid-payments-risk/topics/card-txn-deadletter: JSONDecodeError: Expecting ',' delimiter: line 1 column 214 (char 213)",
                 "WARNING", logger=lg % "parse.py:48", thread="Thread-21", step="ParseTransactions")
        if added and not removed and win > c.start + 200 * 60 * NS:
            removed = True
            c.jm(win, "Autoscaling: Reduced the number of workers to 1 based on low average worker CPU utilization, and the pipeline having sufficiently low backlog and keeping up with input rate.")
            vms = vms[:1]
    c.jm(parse_utc("2026-02-03T08:41:19") + c.jitter(0, 1), "The Dataflow RunnerV2 container image of this job's workers will be ready for update in 7 days.")
    truth = {
        "outcome": "succeeded",
        "family": "healthy (noise only): streaming TensorFlow 2.17 scoring on A100 40GB",
        "root_cause": (
            "No failure: the streaming job is healthy and keeps up. TensorFlow created the A100 device and scored every "
            "one-minute window; autoscaling added a second worker during the morning peak and removed it later. Noise that "
            "must not be reported as a problem: the cuFFT/cuDNN/cuBLAS factory-registration errors and the TF-TRT "
            "'Could not find TensorRT' warning printed at every TensorFlow import, the BFC allocator 'ran out of memory ... "
            "this is not a failure' advisory, one malformed Pub/Sub message routed to the dead-letter topic by design, "
            "the Streaming Engine 'token mismatch' message, and the Runner v2 image notice. No fix needed."),
        "setup": {
            "hardware": "a2-highgpu-1g (1 x NVIDIA A100 40GB), 1 -> 2 -> 1 workers, us-central1-a, NVIDIA driver 570.172.08",
            "sdk": "Apache Beam Python 2.70.0, Python 3.11, Runner v2, Streaming Engine",
            "image": img + " (tensorflow 2.17.1)",
            "pipeline": "streaming: Pub/Sub card transactions -> parse (dead-letter on bad JSON) -> TensorFlow SavedModel scoring -> BigQuery + alerts",
            "gpu_option": "--dataflow_service_options=" + acc},
        "evidence": ["name: NVIDIA A100-SXM4-40GB, pci bus id: 0000:00:04.0, compute capability: 8.0",
                     "Autoscaling: Reduced the number of workers to 1 based on low average worker CPU utilization, and the pipeline having sufficiently low backlog and keeping up with input rate."],
        "red_herrings": [
            {"text": "Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered", "why": "Printed at TensorFlow 2.17 import (tensorflow/tensorflow#62075, #74523); harmless."},
            {"text": "TF-TRT Warning: Could not find TensorRT", "why": "The model does not use TF-TRT; TensorFlow only notes that TensorRT is not installed."},
            {"text": K12_BFC, "why": "TensorFlow's BFC allocator says itself that this is not a failure; it fell back to a slower path for one large temporary."},
            {"text": "JSONDecodeError: Expecting ',' delimiter: line 1 column 214 (char 213)", "why": "One malformed upstream message, routed to the dead-letter topic as designed."},
            {"text": "Unable to fetch data due to token mismatch for key", "why": "Streaming Engine message Dataflow documents as harmless."},
        ],
        "sources": [
            {"what": "TF 2.17 start-up stderr ('E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:485] Unable to register cuFFT factory ...', cuda_dnn.cc:8454, cuda_blas.cc:1452; 'TF-TRT Warning: Could not find TensorRT'; 'Created device ... compute capability: 8.0')",
             "source": "public TF 2.17 logs (Aug/Nov 2024) with these exact file:line values found by exact text; tensorflow/tensorflow#62075; A100 device line format from the reference file section 2i"},
            {"what": "BFC allocator advisory 'Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.10GiB with freed_by_count=0. The caller indicates that this is not a failure, ...'", "source": "talmolab/sleap#2142 (quoted in the reference file section 2b, b4); tensorflow/core/common_runtime/bfc_allocator.cc"},
            {"what": "streaming job messages (autoscaling raise/reduce, Runner v2 image notice)", "source": SRC["jobmsg_streaming"][1] + "; reference file section 2f (f10)"},
            {"what": "'Unable to fetch data due to token mismatch for key' (benign)", "source": SRC["benign_k8s"][1]},
            {"what": "Python json.JSONDecodeError message format", "source": "CPython Lib/json/decoder.py"},
            {"what": "boot and harness lines", "source": SRC["boot"][1] + "; " + SRC["harness"][1]},
            {"what": "system/kubelet noise and driver install lines", "source": SRC["benign_k8s"][1] + "; " + SRC["cosgpu"][1]},
        ],
        "synthetic": [
            "All envelopes, ids, names, timestamps, project, topic and image names.",
            "The pipeline's own lines (model load, per-window counts, dead-letter routing) are invented.",
            "The exact wording of the 'Reduced the number of workers' autoscaling message is recalled, not copied from a source.",
        ],
    }
    return c, truth


# ==========================================================================
# export shapes
# ==========================================================================

API_ORDER = ["textPayload", "jsonPayload", "insertId", "resource", "timestamp", "severity", "labels", "logName",
             "receiveTimestamp"]
SINK_ORDER = ["insertId", "jsonPayload", "textPayload", "labels", "logName", "receiveTimestamp", "resource",
              "severity", "timestamp"]


def reorder(e, order):
    return {k: e[k] for k in order if k in e}


def shape_gcloud(entries):
    # gcloud logging read --format=json: newest first, keys sorted, 2-space indent
    data = list(reversed(entries))
    return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode("utf-8")


def shape_explorer(entries):
    # Logs Explorer "Download JSON": oldest first, API field order
    data = [reorder(e, API_ORDER) for e in entries]
    return (json.dumps(data, indent=2) + "\n").encode("utf-8")


def _hour(e):
    return e["timestamp"][:13]


def shape_sink(entries):
    # Cloud Storage sink: one shard per log id and hour, NDJSON; the shards
    # are concatenated in directory order (log id, then date/hour).
    groups = {}
    for e in entries:
        key = (e["logName"].split("/logs/")[1], _hour(e))
        groups.setdefault(key, []).append(e)
    out = []
    for key in sorted(groups):
        for e in groups[key]:
            out.append(json.dumps(reorder(e, SINK_ORDER), separators=(",", ":")))
    return ("\n".join(out) + "\n").encode("utf-8")


def shape_gz(entries):
    raw = "".join(json.dumps(reorder(e, SINK_ORDER), separators=(",", ":")) + "\n" for e in entries).encode("utf-8")
    import io
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        gz.write(raw)
    return buf.getvalue()


SHAPES = {
    "gcloud": ("gcloud logging read --format=json (JSON array, newest first, keys sorted)", shape_gcloud),
    "explorer": ("Logs Explorer JSON download (JSON array, oldest first)", shape_explorer),
    "sink": ("concatenated Cloud Storage sink NDJSON shards (per log id and hour)", shape_sink),
    "gz": ("gzipped NDJSON (oldest first)", shape_gz),
}

CASES = [
    (case01, "gcloud", "export.json"),
    (case02, "explorer", "downloaded-logs-20250211-201233.json"),
    (case03, "sink", "gcs-sink-export.ndjson"),
    (case04, "gz", "logs.ndjson.gz"),
    (case05, "gcloud", "export.json"),
    (case06, "explorer", "downloaded-logs-20251014-130211.json"),
    (case07, "sink", "gcs-sink-export.ndjson"),
    (case08, "gcloud", "export.json"),
    (case09, "explorer", "downloaded-logs-20250521-161902.json"),
    (case10, "gz", "logs.ndjson.gz"),
    (case11, "gz", "logs.ndjson.gz"),
    (case12, "sink", "gcs-sink-export.ndjson"),
]


# ==========================================================================
# tiny YAML emitter (JSON-style double-quoted scalars are valid YAML)
# ==========================================================================

def ystr(s):
    return json.dumps(s, ensure_ascii=True)


def yaml_dump(obj, indent=0):
    pad = "  " * indent
    lines = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, (dict, list)) and v:
                lines.append("%s%s:" % (pad, k))
                lines.append(yaml_dump(v, indent + 1))
            else:
                lines.append("%s%s: %s" % (pad, k, yscalar(v)))
    elif isinstance(obj, list):
        for v in obj:
            if isinstance(v, dict):
                first = True
                for k, vv in v.items():
                    prefix = pad + ("- " if first else "  ")
                    first = False
                    if isinstance(vv, (dict, list)) and vv:
                        lines.append("%s%s:" % (prefix, k))
                        lines.append(yaml_dump(vv, indent + 2))
                    else:
                        lines.append("%s%s: %s" % (prefix, k, yscalar(vv)))
            else:
                lines.append("%s- %s" % (pad, yscalar(v)))
    return "\n".join(lines)


def yscalar(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if v is None:
        return "null"
    if isinstance(v, (list, dict)):
        return "[]" if isinstance(v, list) else "{}"
    return ystr(str(v))


# ==========================================================================
# checks
# ==========================================================================

def load_export(name, data):
    if name.endswith(".gz"):
        data = gzip.decompress(data)
        return [json.loads(l) for l in data.decode("utf-8").splitlines() if l.strip()]
    text = data.decode("utf-8")
    if name.endswith(".ndjson"):
        return [json.loads(l) for l in text.splitlines() if l.strip()]
    return json.loads(text)


def payload_strings(e):
    out = []
    if "textPayload" in e:
        out.append(e["textPayload"])

    def walk(v):
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    if "jsonPayload" in e:
        walk(e["jsonPayload"])
    return out


def check_export(cid, name, entries, truth):
    errs = []
    if not (100 <= len(entries) <= 250):
        errs.append("%s: %d entries (need 100-250)" % (cid, len(entries)))
    logs = set()
    for i, e in enumerate(entries):
        for k in ("insertId", "logName", "resource", "timestamp", "receiveTimestamp", "severity"):
            if k not in e:
                errs.append("%s: entry %d lacks %s" % (cid, i, k))
        if ("textPayload" in e) == ("jsonPayload" in e):
            errs.append("%s: entry %d must have exactly one of textPayload/jsonPayload" % (cid, i))
        ln = e.get("logName", "")
        if not ln.startswith("projects/") or "/logs/dataflow.googleapis.com%2F" not in ln:
            errs.append("%s: entry %d bad logName %r" % (cid, i, ln))
        logs.add(ln.rsplit("%2F", 1)[-1])
        res = e.get("resource", {})
        if res.get("type") != "dataflow_step":
            errs.append("%s: entry %d resource.type" % (cid, i))
        for k in ("job_id", "job_name", "project_id", "region", "step_id"):
            if k not in res.get("labels", {}):
                errs.append("%s: entry %d resource.labels lacks %s" % (cid, i, k))
        if e.get("resource", {}).get("labels", {}).get("job_id") != truth["job"]["id"]:
            errs.append("%s: entry %d job_id mismatch" % (cid, i))
        if "jsonPayload" in e and ln.endswith("%2Fworker"):
            for k in ("job", "logger", "message", "portability_worker_id", "thread", "worker"):
                if k not in e["jsonPayload"]:
                    errs.append("%s: worker entry %d lacks jsonPayload.%s" % (cid, i, k))
        if ln.endswith("%2Fjob-message") and "textPayload" not in e:
            errs.append("%s: job-message entry %d without textPayload" % (cid, i))
    for need in ("job-message", "worker", "docker", "kubelet", "system", "worker-startup"):
        if need not in logs and not (need in ("docker", "worker") and cid == "hs10-04"):
            errs.append("%s: no %s entries" % (cid, need))
    strings = [s for e in entries for s in payload_strings(e)]
    for ev in truth["evidence"]:
        if not any(ev in s for s in strings):
            errs.append("%s: evidence not found verbatim: %r" % (cid, ev[:120]))
    for rh in truth["red_herrings"]:
        if not any(rh["text"] in s for s in strings):
            errs.append("%s: red herring not found verbatim: %r" % (cid, rh["text"][:120]))
    return errs, sorted(logs)


# ==========================================================================
# build
# ==========================================================================

def one_liner(truth):
    return truth["family"]


def build_all():
    files = {}
    rows = []
    errors = []
    for fn, shape, fname in CASES:
        c, truth = fn()
        entries = c.sorted_entries()
        data = SHAPES[shape][1](entries)
        parsed = load_export(fname, data)
        t = {"case": c.cid, "job": {"id": c.job_id, "name": c.job_name}}
        t.update({"outcome": truth["outcome"], "family": truth["family"], "root_cause": truth["root_cause"],
                  "setup": truth["setup"], "evidence": truth["evidence"], "red_herrings": truth["red_herrings"],
                  "sources": truth["sources"], "synthetic": truth["synthetic"],
                  "export": {"file": fname, "shape": SHAPES[shape][0], "entries": len(parsed)}})
        errs, logs = check_export(c.cid, fname, parsed, t)
        errors.extend(errs)
        base = "cases/%s/" % c.cid
        files[base + fname] = data
        files[base + "truth.yaml"] = ("# Ground truth for %s (held-out set heldout-stacks-10).\n" % c.cid
                                      + yaml_dump(t) + "\n").encode("utf-8")
        rows.append((c.cid, t, shape, fname, len(parsed), logs))
    files["README.md"] = readme(rows).encode("utf-8")
    return files, rows, errors


def readme(rows):
    out = []
    out.append("# heldout-stacks-10: Dataflow GPU log exports (held-out test set)\n")
    out.append("Twelve synthetic-but-realistic Google Cloud Logging exports of Apache Beam Python jobs on Dataflow GPU "
               "workers: ten jobs that each had one real problem and two healthy jobs full of harmless noise. Each "
               "`cases/hs10-NN/` holds one export and a `truth.yaml` (outcome, family, root cause with the fix, setup, "
               "verbatim evidence with the key line first, red herrings, the public source of every real log line, what "
               "is invented, and the export's shape and entry count).\n")
    out.append("## How it was written\n")
    out.append("- Independence: written without looking at the diagnosis tool. Only this folder's `.exclusions-input.txt` "
               "(failure modes used by earlier sets, all avoided by underlying cause), `/work/shared/reference/` "
               "(dataflow-log-signatures.md and the Dataflow GPU doc pages) and public material (issue threads, library "
               "source, release notes, docs) were read. No project code, rules, corpus, docs or other bench sets were "
               "read, and no `gpudiag` binary was run.")
    out.append("- Every failure is a real, publicly documented failure; its lines are written as the library prints "
               "them (format strings in source code, or real outputs in issue threads) for the version the case "
               "states. `sources` in each truth.yaml names the source of each real line; `synthetic` lists what is "
               "invented (envelopes, names, ids, timestamps, the pipelines' own log lines, line numbers).")
    out.append("- Envelopes follow real LogEntry shapes: `logName` `projects/P/logs/dataflow.googleapis.com%2F<log>` for "
               "job-message, worker, worker-startup, docker, kubelet, system and harness; `resource.type` `dataflow_step` "
               "with job_id/job_name/project_id/region/step_id (job messages of some cases carry the project number, as "
               "real exports sometimes do); worker `jsonPayload` with job/logger/message/portability_worker_id/thread/"
               "worker; job messages as `textPayload`; journald cursors as `insertId` for system and kubelet.")
    out.append("- Every job also has worker start-up, GPU-driver install lines, Beam boot/pip chatter, the SDK harness "
               "start-up, the pipeline's own INFO lines and several red herrings (messages Dataflow documents as benign, "
               "advisories mentioning 'error' or 'out of memory', retried transient errors).")
    out.append("- `make.py` (standard library only) builds everything twice in memory with one seeded `random.Random` "
               "per case and gzip mtime 0, requires byte-identical output, checks that each export holds 100-250 "
               "LogEntry objects with the basic fields and that every evidence and red-herring string occurs verbatim "
               "in some payload, then writes `cases/` and this README. Re-run with `python3 make.py`.\n")
    out.append("## Cases\n")
    out.append("| case | stack / hardware | family | outcome | one-line truth | export | entries |")
    out.append("|---|---|---|---|---|---|---|")
    for cid, t, shape, fname, n, logs in rows:
        hw = t["setup"]["hardware"].split(",")[0]
        stack = t["setup"]["sdk"].split(",")[0].replace("Apache Beam Python", "Beam")
        truth_line = TRUTH_LINES[cid]
        out.append("| %s | %s; %s | %s | %s | %s | `%s` (%s) | %d |" % (
            cid, stack, hw, t["family"].split(":")[0], t["outcome"], truth_line, fname, shape, n))
    out.append("")
    out.append("Shapes: `gcloud` = `gcloud logging read --format=json` array, newest first, keys sorted, 2-space indent; "
               "`explorer` = Logs Explorer JSON download, oldest first; `sink` = Cloud Storage sink NDJSON shards (one per "
               "log id and hour) concatenated; `gz` = gzipped NDJSON, oldest first.\n")
    return "\n".join(out)


TRUTH_LINES = {
    "hs10-01": "JAX x64 was enabled only in the launcher; workers silently computed float64 exposures in float32.",
    "hs10-02": "generate() had no max_new_tokens, so transformers' default max_length=20 cut every summary at 19 tokens.",
    "hs10-03": "Image rebuilt with TensorFlow 2.18 (TensorRT removed); the TF-TRT SavedModel's CreateTRTResourceHandle op is unknown.",
    "hs10-04": "Unpinned requirements.txt with protobuf==4.25.3 made pip backtrack at worker start until the 1h stuck limit.",
    "hs10-05": "Image lacks /usr/local/nvidia/lib64 on LD_LIBRARY_PATH; Ollama found no GPU and ran Llama on CPU.",
    "hs10-06": "A HEIC photo named .JPG fails PIL decoding and is retried forever in the streaming job.",
    "hs10-07": "tokenizers 0.19.1 in the image cannot parse the tokenizer.json saved by tokenizers 0.21.",
    "hs10-08": "vLLM rejects --max-model-len 131072 for Qwen2.5-7B (32768 positions, YaRN not enabled); server never starts.",
    "hs10-09": "vLLM tensor_parallel_size=4 on a worker with 2 L4 GPUs (config written for g2-standard-48).",
    "hs10-10": "torch.use_deterministic_algorithms(True) without CUBLAS_WORKSPACE_CONFIG; first cuBLAS matmul raises.",
    "hs10-11": "Healthy: ORT memcpy/EP-assignment warnings, a caught arena OOM retry and pip conflict note are noise.",
    "hs10-12": "Healthy streaming: TF factory/TF-TRT/BFC advisories, a dead-lettered bad message and autoscaling are noise.",
}


def main():
    files1, rows, errors = build_all()
    files2, _, _ = build_all()
    if files1.keys() != files2.keys() or any(files1[k] != files2[k] for k in files1):
        diff = [k for k in files1 if files1.get(k) != files2.get(k)]
        print("NOT DETERMINISTIC: %s" % diff)
        return 1
    if errors:
        for e in errors:
            print("CHECK FAILED: " + e)
        return 1
    for path, data in sorted(files1.items()):
        full = os.path.join(HERE, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
    print("built twice, byte-identical: %d files" % len(files1))
    for cid, t, shape, fname, n, logs in rows:
        print("%s  %-9s %-8s %3d entries  %-40s logs=%s" % (cid, t["outcome"], shape, n, fname, ",".join(logs)))
    print("all checks passed (entries 100-250, LogEntry fields, evidence and red herrings verbatim)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
