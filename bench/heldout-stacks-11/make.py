#!/usr/bin/env python3
"""Builds the heldout-stacks-11 test set: twelve synthetic-but-realistic Cloud
Logging exports of Apache Beam Python jobs on Dataflow GPU workers.

Standard library only.  Everything is built twice in memory (one seeded
random.Random per case, gzip mtime 0) and must be byte-identical before
anything is written.  Run:  python3 make.py
"""

import datetime as _dt
import gzip
import json
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "cases")

BENIGN_PROBER = ('Error initializing dynamic plugin prober" err="error (re-)creating driver '
                 'directory: mkdir /usr/libexec/kubernetes: read-only file system')
BENIGN_SKIP_SYNC = ('Skipping pod synchronization" err="container runtime status check may '
                    'not have completed yet')
BENIGN_IMA = "ima: Can not allocate sha384 (reason: -2)"
TOKENIZERS_FORK = (
    "huggingface/tokenizers: The current process just got forked, after parallelism has "
    "already been used. Disabling parallelism to avoid deadlocks...\n"
    "To disable this warning, you can either:\n"
    "\t- Avoid using `tokenizers` before the fork if possible\n"
    "\t- Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)")
PIP_RESOLVER_NOTE = ("ERROR: pip's dependency resolver does not currently take into account all "
                     "the packages that are installed. This behaviour is the source of the "
                     "following dependency conflicts.")
FOUR_TIMES = ("The job failed because a work item has failed 4 times. Look in previous log "
              "entries for the cause of each one of the 4 failures. If the logs only contain "
              "generic timeout errors related to accessing external resources, such as MongoDB, "
              "verify that the worker service account has permission to access the resource's "
              "subnetwork. For more information, see "
              "https://cloud.google.com/dataflow/docs/guides/common-errors. The work item was "
              "attempted on these workers: ")
STUCK_1H = ("The Dataflow job appears to be stuck because no worker activity has been seen in "
            "the last 1h. Please check the worker logs in Stackdriver Logging. You can also get "
            "help with Cloud Dataflow at https://cloud.google.com/dataflow/support.")

B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


# --------------------------------------------------------------------------
# LogEntry construction
# --------------------------------------------------------------------------
class Job:
    """Accumulates LogEntry dicts for one Dataflow job."""

    def __init__(self, rng, project, region, zone, name, start, project_number=None,
                 number_in_jobmsg=False, py="3.11", site=None):
        self.rng = rng
        self.site_dir = site
        self.project = project
        self.project_number = project_number
        self.region = region
        self.zone = zone
        self.name = name
        self.py = py
        self.t0 = _dt.datetime.strptime(start, "%Y-%m-%dT%H:%M:%S")
        digits = "".join(rng.choice("0123456789") for _ in range(19))
        if digits[0] == "0":
            digits = "1" + digits[1:]
        self.job_id = self.t0.strftime("%Y-%m-%d_%H_%M_%S") + "-" + digits
        self.number_in_jobmsg = number_in_jobmsg
        self.entries = []
        self.workers = []
        self._seq = 0
        self._boot_ids = {}

    # ---- identifiers -------------------------------------------------
    def rand36(self, n):
        return "".join(self.rng.choice(B36) for _ in range(n))

    def hexs(self, n):
        return "".join(self.rng.choice("0123456789abcdef") for _ in range(n))

    def add_worker(self):
        stamp = self.t0.strftime("%m%d%H%M")
        base = self.name[:30].rstrip("-")
        mid = getattr(self, "_mid", None)
        if mid is None:
            mid = self._mid = self.rand36(4)
        name = "%s-%s-%s-harness-%s" % (base, stamp, mid, self.rand36(4))
        rid = str(self.rng.randint(10 ** 18, 9 * 10 ** 18))
        w = {"name": name, "id": rid, "boot": self.hexs(32), "pid": self.rng.randint(900, 1400)}
        self.workers.append(w)
        return w

    # ---- time ----------------------------------------------------------
    def ts(self, t, digits=9):
        d = self.t0 + _dt.timedelta(seconds=int(t))
        frac = t - int(t)
        ns = int(round(frac * 1e9))
        if ns >= 10 ** 9:
            ns = 10 ** 9 - 1
        s = "%09d" % ns
        return d.strftime("%Y-%m-%dT%H:%M:%S") + "." + s[:digits] + "Z"

    def clock(self, t, fmt):
        d = self.t0 + _dt.timedelta(seconds=t - self.rng.random() * 0.01)
        return d.strftime(fmt)

    def absl(self, t):
        d = self.t0 + _dt.timedelta(seconds=t - self.rng.random() * 0.01)
        epoch = (d - _dt.datetime(1970, 1, 1)).total_seconds()
        return "%.6f" % epoch

    # ---- core ----------------------------------------------------------
    def _res(self, step=""):
        return {"type": "dataflow_step",
                "labels": {"job_id": self.job_id, "job_name": self.name,
                           "project_id": self.project, "region": self.region,
                           "step_id": step}}

    def _wlabels(self, w):
        return {"compute.googleapis.com/resource_id": w["id"],
                "compute.googleapis.com/resource_name": w["name"],
                "compute.googleapis.com/resource_type": "instance",
                "dataflow.googleapis.com/job_id": self.job_id,
                "dataflow.googleapis.com/job_name": self.name,
                "dataflow.googleapis.com/region": self.region}

    def _add(self, t, e):
        t = t + self.rng.random() * 0.0009
        e["timestamp"] = self.ts(t, 9 if e["logName"].endswith("job-message")
                                 or e["logName"].endswith("worker") else 6)
        e["receiveTimestamp"] = self.ts(t + 0.2 + self.rng.random() * 2.3, 9)
        e["_t"] = t
        e["_seq"] = self._seq
        self._seq += 1
        self.entries.append(e)
        return e

    def logname(self, log):
        return "projects/%s/logs/dataflow.googleapis.com%%2F%s" % (self.project, log)

    def jm(self, t, text, sev="INFO"):
        res = self._res()
        if self.number_in_jobmsg and self.project_number:
            res["labels"]["project_id"] = self.project_number
        e = {"insertId": self.rand36(self.rng.choice([10, 11, 12])),
             "labels": {"dataflow.googleapis.com/job_id": self.job_id,
                        "dataflow.googleapis.com/job_name": self.name,
                        "dataflow.googleapis.com/log_type": "system",
                        "dataflow.googleapis.com/region": self.region},
             "logName": self.logname("job-message"),
             "resource": res, "severity": sev, "textPayload": text}
        return self._add(t, e)

    def wl(self, t, w, msg, sev="INFO", logger=None, thread=None, sdk="sdk-0-0", step=""):
        if logger is None:
            logger = self.beam_path("runners/worker/sdk_worker.py") + ":%d" % self.rng.randint(200, 900)
        payload = {"job": self.job_id, "logger": logger, "message": msg,
                   "portability_worker_id": sdk,
                   "thread": thread or "%d:%d" % (self.rng.randint(1, 80),
                                                  self.rng.randint(139800000000000, 140700000000000)),
                   "worker": w["name"]}
        e = {"insertId": self.rand36(14), "jsonPayload": payload, "labels": self._wlabels(w),
             "logName": self.logname("worker"), "resource": self._res(step), "severity": sev}
        return self._add(t, e)

    def boot(self, t, w, msg, sev="DEBUG", sdk="sdk-0-0"):
        payload = {"job": self.job_id, "logger": "", "message": msg,
                   "portability_worker_id": sdk, "thread": "", "worker": w["name"]}
        e = {"insertId": self.rand36(14), "jsonPayload": payload, "labels": self._wlabels(w),
             "logName": self.logname("worker"), "resource": self._res(), "severity": sev}
        return self._add(t, e)

    def _journal_id(self, w):
        n = self._boot_ids.get(w["name"], self.rng.randint(300, 900)) + self.rng.randint(1, 9)
        self._boot_ids[w["name"]] = n
        return "s=%s;i=%x;b=%s;m=%x;t=%x;x=%s" % (
            self.hexs(32), n, w["boot"], self.rng.randint(10 ** 6, 10 ** 9),
            self.rng.randint(10 ** 15, 2 * 10 ** 15), self.hexs(16))

    def _plain(self, t, w, log, msg, sev, journal=False, extra=None):
        payload = {"message": msg}
        if extra:
            payload.update(extra)
        labels = self._wlabels(w)
        if log == "system":
            labels["dataflow.googleapis.com/log_type"] = "system"
        e = {"insertId": self._journal_id(w) if journal else self.rand36(16),
             "jsonPayload": payload, "labels": labels, "logName": self.logname(log),
             "resource": self._res(), "severity": sev}
        return self._add(t, e)

    def dk(self, t, w, msg, sev="ERROR", container="sdk-0-0"):
        return self._plain(t, w, "docker", msg, sev, extra={"container": container})

    def kl(self, t, w, msg, sev="INFO"):
        return self._plain(t, w, "kubelet", msg, sev, journal=True)

    def sy(self, t, w, msg, sev="INFO"):
        return self._plain(t, w, "system", msg, sev, journal=True)

    def st(self, t, w, msg, sev="INFO"):
        return self._plain(t, w, "worker-startup", msg, sev, extra={"worker": w["name"]})

    def hn(self, t, w, msg, sev="INFO"):
        return self._plain(t, w, "harness", msg, sev, extra={"thread": str(self.rng.randint(20, 90))})

    # ---- paths --------------------------------------------------------------
    def site(self):
        return self.site_dir or "/usr/local/lib/python%s/site-packages" % self.py

    def beam_path(self, rel):
        return "%s/apache_beam/%s" % (self.site(), rel)

    def klog(self, t, letter, pid, src):
        d = self.t0 + _dt.timedelta(seconds=t - self.rng.random() * 0.01)
        return "%s%s %s %7d %s]" % (letter, d.strftime("%m%d"), d.strftime("%H:%M:%S.%f"), pid, src)

    def sorted_entries(self):
        """Entries oldest first; timestamps get sub-second jitter that keeps the order."""
        ordered = sorted(self.entries, key=lambda x: (x["_t"], x["_seq"]))
        out = []
        prev = -1e9
        for i, e in enumerate(ordered):
            t = e["_t"]
            nxt = ordered[i + 1]["_t"] if i + 1 < len(ordered) else t + 1.0
            room = max(0.0, min(0.45, (nxt - t) * 0.8))
            tt = max(t + self.rng.random() * room, prev + 0.000001)
            prev = tt
            e = dict(e)
            log = e["logName"].split("%2F", 1)[1]
            e["timestamp"] = self.ts(tt, 9 if log in ("job-message", "worker") else 6)
            e["receiveTimestamp"] = self.ts(tt + 0.2 + self.rng.random() * 2.3, 9)
            del e["_t"]
            del e["_seq"]
            out.append(e)
        return out


# --------------------------------------------------------------------------
# Reusable blocks (Dataflow / Beam boilerplate)
# --------------------------------------------------------------------------
def start_messages(J, t, machine, n_workers, max_workers, streaming=False, first_op=None):
    J.jm(t, "Worker configuration: %s in %s." % (machine, J.zone))
    J.jm(t + 0.4, "Expanding SplittableParDo operations into optimizable parts.", "INFO")
    J.jm(t + 0.5, "Expanding CollectionToSingleton operations into optimizable parts.", "INFO")
    J.jm(t + 0.7, "Expanding CoGroupByKey operations into optimizable parts.", "DEBUG")
    J.jm(t + 0.9, "Expanding GroupByKey operations into optimizable parts.", "INFO")
    J.jm(t + 1.2, "Fusing adjacent ParDo, Read, Write, and Flatten operations", "INFO")
    J.jm(t + 2.1, "Workflow config is missing a default resource spec.", "DEBUG")
    J.jm(t + 2.3, "Starting worker pool setup.", "DEBUG")
    J.jm(t + 2.6, "Starting %d workers in %s..." % (n_workers, J.zone))
    if streaming:
        J.jm(t + 3.0, "Autoscaling is enabled for Dataflow Streaming Engine. Workers will scale "
                      "between 1 and 100 unless maxNumWorkers is specified.", "WARNING")
    else:
        J.jm(t + 3.0, "Autoscaling is enabled for job %s. The number of workers will be between "
                      "1 and %d." % (J.job_id, max_workers))
        J.jm(t + 3.1, "Autoscaling was automatically enabled for job %s." % J.job_id)
    J.jm(t + 3.4, "Autoscaling: Raised the number of workers to %d based on the rate of progress "
                  "in the currently running stage(s)." % n_workers)
    if first_op:
        J.jm(t + 4.0, "Executing operation %s" % first_op)


def vm_boot(J, t, w, driver, cos_build, with_prober=True, ima=True):
    """Host-level boot: kernel, kubelet and the GPU driver installer."""
    J.sy(t, w, "ima: No architecture policies found")
    if ima:
        J.sy(t + 0.1, w, BENIGN_IMA, "ERROR")
    J.st(t + 6.0, w, "Running on COS build id %s" % cos_build)
    J.st(t + 6.3, w, "Installing GPU driver version %s" % driver)
    J.sy(t + 31.0, w, "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  %s  %s" % (
        driver, DRIVER_BUILD_DATES.get(driver, "Tue Apr 29 15:27:43 UTC 2025")))
    J.st(t + 38.5, w, "Verifying GPU driver installation")
    J.st(t + 41.2, w, "Finished installing the drivers.")
    if with_prober:
        J.kl(t + 44.0, w, J.klog(t + 44.0, "E", w["pid"], "plugins.go:713") + ' "' + BENIGN_PROBER + '"',
             "ERROR")
    J.kl(t + 45.1, w, J.klog(t + 45.1, "E", w["pid"], "kubelet.go:2386") + ' "' + BENIGN_SKIP_SYNC + '"',
         "ERROR")
    J.kl(t + 52.0, w, J.klog(t + 52.0, "I", w["pid"], "kubelet.go:2474") +
         ' "SyncLoop ADD" source="file" pods=["default/%s"]' % w["name"])


DRIVER_BUILD_DATES = {
    "535.230.02": "Wed Jan  8 05:53:22 UTC 2025",
    "535.247.01": "Tue Apr 29 15:27:43 UTC 2025",
    "580.82.07": "Wed Aug 27 18:45:50 UTC 2025",
}


def sdk_boot(J, t, w, sdk="sdk-0-0", artifacts=("pickled_main_session", "submission_environment_dependencies.txt")):
    """Beam Python boot entrypoint (FnAPI logging, DEBUG) up to python start."""
    J.boot(t, w, "Initializing python harness: /opt/apache/beam/boot --id=%s "
                 "--provision_endpoint=localhost:12345" % sdk, sdk=sdk)
    J.boot(t + 0.2, w, "Initializing temporary Python venv in /opt/apache/beam-venv/beam-venv-worker-%s" % sdk,
           sdk=sdk)
    for i, a in enumerate(artifacts):
        J.boot(t + 1.5 + i * 0.01, w, "Found artifact: %s" % a, sdk=sdk)
    J.boot(t + 1.6, w, "Installing setup packages ...", sdk=sdk)


def harness_start(J, t, w, options_repr, sdk="sdk-0-0", status_port=None):
    lp = J.beam_path("runners/worker/sdk_worker_main.py")
    J.boot(t, w, "Executing Python (worker %s): python -m apache_beam.runners.worker.sdk_worker_main" % sdk,
           sdk=sdk)
    J.wl(t + 2.1, w, "Logging handler created.", logger=lp + ":88", thread="MainThread", sdk=sdk)
    J.wl(t + 2.2, w, "semi_persistent_directory: /var/opt/google", logger=lp + ":111", thread="MainThread",
         sdk=sdk)
    J.wl(t + 2.4, w, "Pipeline_options: %s" % options_repr, logger=lp + ":141", thread="MainThread", sdk=sdk)
    J.wl(t + 2.6, w, "Status HTTP server running at localhost:%d" % (status_port or J.rng.randint(33000, 45999)),
         logger=J.beam_path("runners/worker/worker_status.py") + ":214", thread="MainThread", sdk=sdk)
    J.wl(t + 2.7, w, "Python sdk harness starting.", logger=lp + ":207", thread="MainThread", sdk=sdk)
    sw = J.beam_path("runners/worker/sdk_worker.py")
    J.wl(t + 2.8, w, "Creating insecure control channel for localhost:12371.", logger=sw + ":195",
         thread="MainThread", sdk=sdk)
    J.wl(t + 2.9, w, "Control channel established.", logger=sw + ":203", thread="MainThread", sdk=sdk)
    J.wl(t + 3.0, w, "Initializing SDKHarness with unbounded number of workers.", logger=sw + ":246",
         thread="MainThread", sdk=sdk)
    J.wl(t + 3.2, w, "Creating insecure state channel for localhost:12371.", logger=sw + ":900",
         thread="Thread-12", sdk=sdk)
    J.wl(t + 3.3, w, "State channel established.", logger=sw + ":907", thread="Thread-12", sdk=sdk)
    J.wl(t + 3.5, w, "Creating client data channel for localhost:12371",
         logger=J.beam_path("runners/worker/data_plane.py") + ":812", thread="Thread-12", sdk=sdk)


def teardown_ok(J, t, n_from):
    J.jm(t, "Cleaning up.")
    J.jm(t + 0.3, "Starting worker pool teardown.", "DEBUG")
    J.jm(t + 0.5, "Stopping worker pool...")
    J.jm(t + 95.0, "Autoscaling: Resized worker pool from %d to 0." % n_from)
    J.jm(t + 95.1, "Autoscaling: Would further reduce the number of workers but reached the "
                   "minimum number allowed for the job.")
    J.jm(t + 96.0, "Worker pool stopped.")
    J.jm(t + 96.4, "Tearing down pending resources...", "DEBUG")


def teardown_fail(J, t, n_from):
    J.jm(t, "Cleaning up.")
    J.jm(t + 0.3, "Starting worker pool teardown.", "DEBUG")
    J.jm(t + 0.5, "Stopping worker pool...")
    J.jm(t + 88.0, "Autoscaling: Resized worker pool from %d to 0." % n_from)
    J.jm(t + 89.0, "Worker pool stopped.")
    J.jm(t + 89.3, "Tearing down pending resources...", "DEBUG")


def opts_repr(d):
    """Python repr of a pipeline options dict (as printed by Beam)."""
    return repr(d)


def beam_frames(J, tail):
    """Cython frames of DoFnRunner.process followed by user frames."""
    head = ('Traceback (most recent call last):\n'
            '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process\n'
            '  File "apache_beam/runners/common.py", line 685, in apache_beam.runners.common.SimpleInvoker.invoke_process\n'
            '  File "apache_beam/runners/common.py", line 1686, in apache_beam.runners.common._OutputHandler.handle_process_outputs\n')
    return head + tail


def bundle_failure(J, t, w, instr, traceback_text, step, sdk="sdk-0-0", also_jobmsg=True):
    """One failed bundle: stderr print, SDK error log, job-message echo."""
    J.dk(t, w, traceback_text, "ERROR")
    J.wl(t + 0.01, w, "Error processing instruction %s. Original traceback is\n%s\n" % (instr, traceback_text),
         "ERROR", logger=J.beam_path("runners/worker/sdk_worker.py") + ":315", thread="Thread-%d" %
         J.rng.randint(20, 60), sdk=sdk, step=step)
    if also_jobmsg:
        J.jm(t + 2.5, "Error message from worker: " + traceback_text, "ERROR")


# --------------------------------------------------------------------------
# Export shapes
# --------------------------------------------------------------------------
def shape_gcloud(entries):
    return (json.dumps(list(reversed(entries)), indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def shape_explorer(entries):
    return (json.dumps(entries, indent=2, ensure_ascii=False) + "\n").encode()


def shape_sink(entries, rng):
    shards = {}
    for e in entries:
        log = e["logName"].split("%2F", 1)[1]
        hour = e["timestamp"][:13]
        shards.setdefault((log, hour), []).append(e)
    out = []
    for key in sorted(shards):
        lines = shards[key][:]
        # order inside a shard is not guaranteed: swap a few neighbours
        for _ in range(len(lines) // 4):
            i = rng.randrange(len(lines))
            j = min(len(lines) - 1, i + 1)
            lines[i], lines[j] = lines[j], lines[i]
        for e in lines:
            out.append(json.dumps(e, separators=(",", ":"), ensure_ascii=False))
    return ("\n".join(out) + "\n").encode()


def shape_gz(entries):
    data = ("\n".join(json.dumps(e, separators=(",", ":"), ensure_ascii=False) for e in entries) + "\n").encode()
    return gzip.compress(data, compresslevel=9, mtime=0)


SHAPE_DESC = {
    "gcloud": "gcloud logging read --format=json (array, newest first, keys sorted, 2-space indent)",
    "explorer": "Logs Explorer JSON download (array, oldest first)",
    "sink": "Cloud Storage sink NDJSON shards (one per log id and hour) concatenated",
    "gz": "gzipped NDJSON, oldest first",
}


def render_export(shape, entries, rng):
    if shape == "gcloud":
        return shape_gcloud(entries)
    if shape == "explorer":
        return shape_explorer(entries)
    if shape == "sink":
        return shape_sink(entries, rng)
    if shape == "gz":
        return shape_gz(entries)
    raise ValueError(shape)


# --------------------------------------------------------------------------
# Minimal YAML emitter (strings double-quoted, JSON escapes are valid YAML)
# --------------------------------------------------------------------------
def _scalar(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return json.dumps(v, ensure_ascii=False)


def to_yaml(obj, indent=0):
    pad = "  " * indent
    lines = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, (dict, list)) and v:
                lines.append("%s%s:" % (pad, k))
                lines.append(to_yaml(v, indent + 1))
            elif isinstance(v, (dict, list)):
                lines.append("%s%s: %s" % (pad, k, "{}" if isinstance(v, dict) else "[]"))
            else:
                lines.append("%s%s: %s" % (pad, k, _scalar(v)))
    elif isinstance(obj, list):
        for v in obj:
            if isinstance(v, dict):
                first = True
                for k, vv in v.items():
                    prefix = pad + ("- " if first else "  ")
                    first = False
                    if isinstance(vv, (dict, list)) and vv:
                        lines.append("%s%s:" % (prefix, k))
                        lines.append(to_yaml(vv, indent + 2))
                    else:
                        lines.append("%s%s: %s" % (prefix, k, _scalar(vv)))
            elif isinstance(v, list):
                lines.append(pad + "-")
                lines.append(to_yaml(v, indent + 1))
            else:
                lines.append("%s- %s" % (pad, _scalar(v)))
    return "\n".join(lines)


# ==========================================================================
# hs11-01  transformers: classification head missing from the exported model
# ==========================================================================
def case01(rng):
    J = Job(rng, "harbor-support-ml", "us-central1", "us-central1-c", "ticket-intent-backfill-20250603",
            "2025-06-03T04:12:55", project_number="514220938817", py="3.11")
    model_dir = "/tmp/models/xlmr-base-intent-v7"
    K_MISSING = ("Some weights of XLMRobertaForSequenceClassification were not initialized from the model "
                 "checkpoint at %s and are newly initialized: ['classifier.dense.bias', "
                 "'classifier.dense.weight', 'classifier.out_proj.bias', 'classifier.out_proj.weight']" % model_dir)
    K_TRAIN = ("You should probably TRAIN this model on a down-stream task to be able to use it for predictions "
               "and inference.")
    K_ARCH = "config.architectures=['XLMRobertaModel'] num_labels=12"
    K_DIST = "billing_refund=0.912"
    K_CONF = "mean max softmax=0.094"
    image = "us-central1-docker.pkg.dev/harbor-support-ml/dataflow/ticket-intent:2025.05.2"
    opts = opts_repr({
        "runner": "DataflowRunner", "project": J.project, "job_name": J.name, "region": J.region,
        "staging_location": "gs://harbor-support-dataflow/staging", "temp_location": "gs://harbor-support-dataflow/tmp",
        "dataflow_service_options": ["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"],
        "machine_type": "n1-standard-8", "num_workers": 3, "max_num_workers": 10, "disk_size_gb": 100,
        "sdk_container_image": image, "sdk_location": "container",
        "experiments": ["no_use_multiple_sdk_containers", "use_runner_v2"],
        "input_query": "SELECT ticket_id, subject, body FROM support_lake.tickets_2024 WHERE lang IN ('en','de','fr','es')",
        "model_dir": "gs://harbor-support-models/intent/xlmr-base-intent-v7",
        "output_table": "harbor-support-ml:support_mart.ticket_intent_backfill"})
    first = ("Read tickets/Read+Read tickets/_PassThroughThenCleanup/ParDo(PassThrough)+Clean text+"
             "BatchTickets/ParDo(_GlobalWindowsBatchingDoFn)+ClassifyIntent+ToRow+Write intents/"
             "BigQueryBatchFileLoads/ParDo(WriteRecordsToFile)")
    start_messages(J, 0, "n1-standard-8", 3, 10, first_op=first)
    J.jm(6.0, "Finished operation Read tickets/Read/_SDFBoundedSourceWrapper/Impulse+Read tickets/Read/"
              "Map(<lambda at iobase.py:940>)+Read tickets/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/"
              "PairWithRestriction+Read tickets/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/"
              "SplitAndSizeRestriction")
    ws = [J.add_worker() for _ in range(3)]
    logger_dofn = J.site() + "/intentjob/classify.py"
    for i, w in enumerate(ws):
        b = 40 + i * 6
        vm_boot(J, b, w, "535.247.01", "18244.291.70", with_prober=(i != 1), ima=(i == 0))
        sdk_boot(J, b + 118, w, artifacts=("submission_environment_dependencies.txt",))
        harness_start(J, b + 121, w, opts)
        J.wl(b + 125, w, "No session file found: /var/opt/google/staged/pickled_main_session. Functions defined "
                         "in __main__ (interactive session) may fail.", "WARNING",
             logger=J.beam_path("runners/worker/sdk_worker_main.py") + ":317", thread="MainThread")
        J.wl(b + 131, w, "Copying gs://harbor-support-models/intent/xlmr-base-intent-v7/ to %s (7 objects, 1.06 GiB)"
             % model_dir, logger=logger_dofn + ":58", thread="Thread-21", step="ClassifyIntent")
        J.wl(b + 152, w, "torch 2.5.1+cu121 transformers 4.48.3; cuda available=True; device 0: Tesla T4",
             logger=logger_dofn + ":71", thread="Thread-21", step="ClassifyIntent")
        J.wl(b + 152.4, w, "Loading AutoModelForSequenceClassification from %s (num_labels=12, torch_dtype=float16)"
             % model_dir, logger=logger_dofn + ":77", thread="Thread-21", step="ClassifyIntent")
        J.dk(b + 158.2, w, K_MISSING + "\n" + K_TRAIN, "ERROR")
        J.wl(b + 158.9, w, "model ready: %s dtype=torch.float16 device=cuda:0 labels=%s" % (
            K_ARCH, "['account_access', 'billing_refund', 'billing_dispute', 'cancel_subscription', 'data_export', "
                    "'feature_request', 'login_2fa', 'other', 'plan_change', 'shipping_delay', 'technical_bug', "
                    "'invoice_copy']"),
             logger=logger_dofn + ":92", thread="Thread-21", step="ClassifyIntent")
        n = 0
        for k in range(5 if i else 6):
            n += 2048
            J.wl(b + 175 + k * 41.5 + rng.random() * 3, w,
                 "ClassifyIntent: scored %d tickets (batch=64, %.1f tickets/s on cuda:0)" % (n, 208 + rng.random() * 15),
                 logger=logger_dofn + ":133", thread="Thread-%d" % (21 + k % 3), step="ClassifyIntent")
            if k == 1:
                J.dk(b + 176 + k * 41.5, w, TOKENIZERS_FORK, "ERROR")
    J.wl(455, ws[0], "predicted label distribution over last 20000 tickets: %s account_access=0.041 "
                     "shipping_delay=0.029 other=0.018; %s (threshold for auto-routing 0.60)" % (K_DIST, K_CONF),
         "INFO", logger=logger_dofn + ":151", thread="Thread-22", step="ClassifyIntent")
    J.wl(470, ws[2], "predicted label distribution over last 20000 tickets: billing_refund=0.907 account_access=0.044 "
                     "shipping_delay=0.031 other=0.018; mean max softmax=0.093 (threshold for auto-routing 0.60)",
         logger=logger_dofn + ":151", thread="Thread-23", step="ClassifyIntent")
    J.wl(471, ws[2], "auto-routing disabled for 19994 of 20000 tickets (confidence below threshold); sending to "
                     "manual triage queue", "WARNING", logger=logger_dofn + ":160", thread="Thread-23",
         step="ClassifyIntent")
    J.jm(560.0, "Finished operation " + first)
    J.jm(561.0, "Executing operation Write intents/BigQueryBatchFileLoads/TriggerLoadJobsWithoutTempTables+"
                "Write intents/BigQueryBatchFileLoads/WaitForDestinationLoadJobs")
    J.wl(575, ws[0], "Triggering job beam_bq_job_LOAD_ticketintentbackfill20250603_LOAD_STEP_312_"
                     "e4d1c0b3a9f2 to load data to BigQuery table <TableReference\n datasetId: 'support_mart'\n "
                     "projectId: 'harbor-support-ml'\n tableId: 'ticket_intent_backfill'>.Schema: None. "
                     "Additional parameters: {}. Source format: NEWLINE_DELIMITED_JSON",
         logger=J.beam_path("io/gcp/bigquery_file_loads.py") + ":733", thread="Thread-30",
         step="Write intents/BigQueryBatchFileLoads/TriggerLoadJobsWithoutTempTables")
    J.wl(611, ws[0], "Job status: DONE", logger=J.beam_path("io/gcp/bigquery_tools.py") + ":674", thread="Thread-30",
         step="Write intents/BigQueryBatchFileLoads/WaitForDestinationLoadJobs")
    J.jm(620.0, "Finished operation Write intents/BigQueryBatchFileLoads/TriggerLoadJobsWithoutTempTables+"
                "Write intents/BigQueryBatchFileLoads/WaitForDestinationLoadJobs")
    teardown_ok(J, 622, 3)

    truth = {
        "outcome": "succeeded",
        "family": "Hugging Face model loading (silent wrong results)",
        "one_line": "Exported checkpoint has no classifier weights; transformers silently initialises a random head, every ticket gets a near-uniform guess.",
        "root_cause": {
            "summary": ("The model directory gs://harbor-support-models/intent/xlmr-base-intent-v7/ was exported by "
                        "the training pipeline's encoder-export step (the inner XLMRobertaModel was saved, "
                        "config.architectures=['XLMRobertaModel']), so it contains no classifier.* weights. The "
                        "Dataflow DoFn loads it with AutoModelForSequenceClassification.from_pretrained(num_labels=12); "
                        "transformers only logs a warning and initialises the 4 classifier tensors randomly, so "
                        "the job succeeds but its predictions are meaningless (91% 'billing_refund', mean top "
                        "probability 0.094 = about 1/12)."),
            "fix": ("Re-export the full fine-tuned XLMRobertaForSequenceClassification (trainer.save_model() / "
                    "model.save_pretrained() on the classification model, so model.safetensors holds "
                    "classifier.dense.* and classifier.out_proj.* and config.architectures is "
                    "['XLMRobertaForSequenceClassification']), re-run the backfill, and make the DoFn fail fast "
                    "when loading reports missing keys (from_pretrained(..., output_loading_info=True) and assert "
                    "that missing_keys is empty)."),
        },
        "setup": {
            "hardware": "3 x n1-standard-8 + 1 x NVIDIA Tesla T4 each (max 10 workers), us-central1-c",
            "sdk": "Apache Beam Python 2.64.0, Python 3.11, Runner v2, --experiments=no_use_multiple_sdk_containers",
            "image": image + " (torch 2.5.1+cu121, transformers 4.48.3, tokenizers 0.21.0)",
            "pipeline": "batch: BigQuery tickets -> clean text -> BatchElements -> ClassifyIntent DoFn (XLM-R base, fp16 on GPU) -> BigQuery (file loads)",
            "gpu_option": "--dataflow_service_options=worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver",
        },
        "evidence": [K_MISSING, K_TRAIN, K_ARCH, K_DIST, K_CONF],
        "red_herrings": [
            {"text": TOKENIZERS_FORK.split("\n")[0],
             "why": "Advisory printed on stderr (ERROR severity in the docker log) when the DoFn forks a subprocess after tokenizing; tokenizers just disables its thread pool."},
            {"text": "No session file found: /var/opt/google/staged/pickled_main_session.",
             "why": "The pipeline does not use --save_main_session; all code lives in the intentjob package inside the image."},
            {"text": BENIGN_PROBER,
             "why": "Kubelet message listed as benign in Dataflow's 'Troubleshoot Dataflow errors' page."},
            {"text": BENIGN_IMA, "why": "Benign kernel IMA message on Container-Optimized OS (listed by the Dataflow docs)."},
            {"text": "auto-routing disabled for 19994 of 20000 tickets",
             "why": "A symptom raised by the pipeline's own confidence threshold, not the cause; it points back at the untrained head."},
        ],
        "sources": [
            {"line": K_MISSING + " / " + K_TRAIN,
             "source": "huggingface/transformers src/transformers/modeling_utils.py (v4.48.x, _load_pretrained_model: logger.warning(f\"Some weights of {model.__class__.__name__} were not initialized from the model checkpoint at {pretrained_model_name_or_path} and are newly initialized: {missing_keys}\\nYou should probably TRAIN this model ...\")); real output with the same four RoBERTa classifier keys: https://github.com/huggingface/transformers/issues/19745"},
            {"line": TOKENIZERS_FORK.split("\n")[0], "source": "huggingface/tokenizers bindings/python/src/utils/parallelism.rs (fork handler message)"},
            {"line": "No session file found: ...", "source": "apache/beam sdks/python/apache_beam/runners/worker/sdk_worker_main.py (_load_main_session)"},
            {"line": "Logging handler created. / semi_persistent_directory / Pipeline_options / Python sdk harness starting. / control, state and data channel lines", "source": "apache/beam sdks/python/apache_beam/runners/worker/sdk_worker_main.py, sdk_worker.py, data_plane.py"},
            {"line": "Initializing python harness / Initializing temporary Python venv / Found artifact / Installing setup packages ... / Executing Python (worker sdk-0-0)", "source": "apache/beam sdks/python/container/boot.go"},
            {"line": BENIGN_PROBER + " ; " + BENIGN_SKIP_SYNC + " ; " + BENIGN_IMA, "source": "Dataflow docs 'Troubleshoot Dataflow errors' (https://cloud.google.com/dataflow/docs/guides/common-errors), benign messages"},
            {"line": "Running on COS build id / Installing GPU driver version / Verifying GPU driver installation / Finished installing the drivers.", "source": "GoogleCloudPlatform/cos-gpu-installer log strings (placement in the worker-startup log is inferred)"},
            {"line": "Worker configuration / Starting N workers / Autoscaling ... / Executing operation / Finished operation / Cleaning up. / Stopping worker pool... / Worker pool stopped.", "source": "Dataflow job messages as quoted in jcbaey/dataflow_python_timer README, apache/beam#19306 and google-research/text-to-text-transfer-transformer#986"},
        ],
        "synthetic": [
            "All envelopes, ids, timestamps, worker names, project/bucket/table names.",
            "The pipeline's own log lines (intentjob/classify.py: copying, model ready, progress, label distribution, auto-routing).",
            "Source line numbers in logger fields; COS build id and NVRM build date.",
            "BigQuery load job id.",
        ],
    }
    return J, truth, "gcloud", "export.json"


# ==========================================================================
# hs11-02  Triton Inference Server: model instances pinned to KIND_CPU
# ==========================================================================
def ascii_table(headers, rows):
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)]
    sep = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(vals):
        return "| " + " | ".join(str(v).ljust(w) for v, w in zip(vals, widths)) + " |"
    out = [sep, line(headers), sep]
    for r in rows:
        out.append(line(r))
    out.append(sep)
    return "\n".join(out)


def case02(rng):
    J = Job(rng, "lumen-catalog-prod", "us-east4", "us-east4-a", "sku-image-embeddings-full-20250714",
            "2025-07-14T07:02:10", py="3.10", site="/usr/local/lib/python3.10/dist-packages")
    K_CPU0 = "TRITONBACKEND_ModelInstanceInitialize: sku_embedder_onnx_0_0 (CPU device 0)"
    K_CPU1 = "TRITONBACKEND_ModelInstanceInitialize: sku_embedder_onnx_0_1 (CPU device 0)"
    K_GPU = "Collecting metrics for GPU 0: NVIDIA L4"
    K_CFG = "'instance_group': [{'name': 'sku_embedder_onnx_0', 'kind': 'KIND_CPU', 'count': 2"
    K_RATE = "(9.3 img/s)"
    K_SCALE = "Autoscaling: Raised the number of workers to 12 based on the rate of progress in the currently running stage(s)."
    image = "us-east4-docker.pkg.dev/lumen-catalog-prod/dataflow/sku-embed-triton:23.12-b2.66.0"
    opts = opts_repr({
        "runner": "DataflowRunner", "project": J.project, "job_name": J.name, "region": J.region,
        "temp_location": "gs://lumen-catalog-dataflow/tmp", "staging_location": "gs://lumen-catalog-dataflow/staging",
        "dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"],
        "machine_type": "g2-standard-8", "num_workers": 2, "max_num_workers": 12, "disk_size_gb": 150,
        "sdk_container_image": image, "sdk_location": "container",
        "experiments": ["no_use_multiple_sdk_containers", "use_runner_v2"],
        "number_of_worker_harness_threads": 4,
        "triton_repo": "gs://lumen-catalog-ml/triton-repo/", "image_manifest": "gs://lumen-catalog-raw/manifests/2025-07-13/*.jsonl",
        "output_table": "lumen-catalog-prod:catalog_vectors.sku_image_embedding"})
    first = ("Read manifest/Read+Parse manifest+Fetch images+Batch/ParDo(_GlobalWindowsBatchingDoFn)+"
             "EmbedSkuImages+ToRow+Write vectors/BigQueryBatchFileLoads/ParDo(WriteRecordsToFile)")
    start_messages(J, 0, "g2-standard-8", 2, 12, first_op=first)
    ws = [J.add_worker() for _ in range(4)]
    dofn = J.site() + "/skuembed/triton_dofn.py"
    backend_cfg = ('{"cmdline":{"auto-complete-config":"true","backend-directory":"/opt/tritonserver/backends",'
                   '"min-compute-capability":"6.000000","default-max-batch-size":"4"}}')

    def triton_boot(t, w, pid, full=True):
        def g(dt, src, msg, letter="I"):
            J.dk(t + dt, w, J.klog(t + dt, letter, pid, src) + " " + msg, "ERROR")
        g(0.00, "pinned_memory_manager.cc:241", "Pinned memory pool is created at '0x7f%s000000' with size 268435456"
          % J.hexs(3))
        g(0.01, "cuda_memory_manager.cc:107", "CUDA memory pool is created on device 0 with size 67108864")
        g(0.05, "model_lifecycle.cc:461", "loading: sku_embedder_onnx:1")
        g(0.09, "onnxruntime.cc:2608", "TRITONBACKEND_Initialize: onnxruntime")
        if full:
            g(0.091, "onnxruntime.cc:2618", "Triton TRITONBACKEND API version: 1.17")
            g(0.092, "onnxruntime.cc:2624", "'onnxruntime' TRITONBACKEND API version: 1.17")
            g(0.093, "onnxruntime.cc:2654", "backend configuration:\n" + backend_cfg)
        g(0.11, "onnxruntime.cc:2719", "TRITONBACKEND_ModelInitialize: sku_embedder_onnx (version 1)")
        g(0.12, "onnxruntime.cc:692", "skipping model configuration auto-complete for 'sku_embedder_onnx': inputs "
                                      "and outputs already specified")
        g(0.19, "onnxruntime.cc:2784", K_CPU0)
        g(0.19, "onnxruntime.cc:2784", K_CPU1)
        g(1.62, "model_lifecycle.cc:818", "successfully loaded 'sku_embedder_onnx'")
        if full:
            g(1.63, "server.cc:606", "\n" + ascii_table(["Repository Agent", "Path"], []) + "\n")
            g(1.64, "server.cc:633", "\n" + ascii_table(["Backend", "Path", "Config"], [
                ["onnxruntime", "/opt/tritonserver/backends/onnxruntime/libtriton_onnxruntime.so", backend_cfg]]) + "\n")
            g(1.65, "server.cc:676", "\n" + ascii_table(["Model", "Version", "Status"],
                                                        [["sku_embedder_onnx", "1", "READY"]]) + "\n")
        g(1.70, "metrics.cc:817", K_GPU)
        g(1.71, "metrics.cc:710", "Collecting CPU metrics")
        if full:
            rows = [["server_id", "triton"], ["server_version", "2.41.0"],
                    ["server_extensions", "classification sequence model_repository model_repository(unload_dependents) "
                     "schedule_policy model_configuration system_shared_memory cuda_shared_memory binary_tensor_data "
                     "parameters statistics trace logging"],
                    ["model_repository_path[0]", "/models"], ["model_control_mode", "MODE_NONE"],
                    ["strict_model_config", "0"], ["rate_limit", "OFF"],
                    ["pinned_memory_pool_byte_size", "268435456"], ["cuda_memory_pool_byte_size{0}", "67108864"],
                    ["min_supported_compute_capability", "6.0"], ["strict_readiness", "1"],
                    ["exit_timeout", "30"], ["cache_enabled", "0"]]
            g(1.72, "tritonserver.cc:2483", "\n" + ascii_table(["Option", "Value"], rows) + "\n")
        g(1.75, "grpc_server.cc:2495", "Started GRPCInferenceService at 0.0.0.0:8001")
        g(1.76, "http_server.cc:4619", "Started HTTPService at 0.0.0.0:8000")
        g(1.80, "http_server.cc:282", "Started Metrics Service at 0.0.0.0:8002")

    cfg_line = ("triton model config: {'name': 'sku_embedder_onnx', 'platform': 'onnxruntime_onnx', 'backend': "
                "'onnxruntime', 'version_policy': {'latest': {'num_versions': 1}}, 'max_batch_size': 32, 'input': "
                "[{'name': 'pixel_values', 'data_type': 'TYPE_FP32', 'dims': ['3', '224', '224']}], 'output': "
                "[{'name': 'image_embeds', 'data_type': 'TYPE_FP32', 'dims': ['768']}], "
                + K_CFG + ", 'gpus': [], 'secondary_devices': [], 'profile': [], 'passive': False, "
                "'host_policy': ''}], 'dynamic_batching': {'max_queue_delay_microseconds': '2000'}}")
    for i, w in enumerate(ws[:2]):
        b = 35 + i * 4
        vm_boot(J, b, w, "535.247.01", "18244.291.70", with_prober=(i == 0))
        sdk_boot(J, b + 150, w, artifacts=("submission_environment_dependencies.txt",))
        harness_start(J, b + 153, w, opts)
        J.wl(b + 160, w, "Syncing Triton model repository gs://lumen-catalog-ml/triton-repo/ -> /models (2 files, 343.2 MiB)",
             logger=dofn + ":44", thread="Thread-19", step="EmbedSkuImages")
        J.wl(b + 167, w, "Starting tritonserver --model-repository=/models --model-control-mode=none "
                         "--exit-on-error=true --log-verbose=0", logger=dofn + ":61", thread="Thread-19",
             step="EmbedSkuImages")
        triton_boot(b + 168.5, w, 211 + i, full=True)
        J.wl(b + 172, w, "Triton ready after 4.9s (GET /v2/health/ready -> 200)", logger=dofn + ":79",
             thread="Thread-19", step="EmbedSkuImages")
        J.wl(b + 172.2, w, cfg_line, logger=dofn + ":83", thread="Thread-19", step="EmbedSkuImages")
    # throughput
    for k in range(9):
        w = ws[k % 2]
        t = 640 + k * 450 + rng.random() * 20
        secs = 430 + rng.random() * 25
        rate = 4096 / secs
        msg = "EmbedSkuImages: embedded 4096 images in %.1fs (%.1f img/s) via triton sku_embedder_onnx" % (secs, rate)
        if k == 0:
            msg = "EmbedSkuImages: embedded 4096 images in 441.7s %s via triton sku_embedder_onnx" % K_RATE
        J.wl(t, w, msg, logger=dofn + ":131", thread="Thread-%d" % (19 + k % 4), step="EmbedSkuImages")
        if k in (1, 5):
            J.wl(t + 2, w, "triton stats sku_embedder_onnx: inference_count=%d execution_count=%d "
                           "compute_infer avg=%.0f ms per execution (batch 32)" % (4096 * (k + 1), 128 * (k + 1),
                                                                                  3380 + rng.random() * 90),
                 logger=dofn + ":140", thread="Thread-%d" % (19 + k % 4), step="EmbedSkuImages")
        if k == 3:
            J.wl(t - 30, w, "GCS read of gs://lumen-catalog-raw/images/2025-07-13/7/71/7141f0.jpg returned 429 Too Many "
                            "Requests; retrying in 1.0s (attempt 1/5)", "WARNING", logger=dofn + ":102",
                 thread="Thread-21", step="EmbedSkuImages")
    J.jm(1850.0, "Autoscaling: Raised the number of workers to 6 based on the rate of progress in the currently "
                 "running stage(s).")
    J.jm(2460.0, K_SCALE)
    for j, w in enumerate(ws[2:]):
        b = 1860 + j * 7
        vm_boot(J, b, w, "535.247.01", "18244.291.70", with_prober=False, ima=False)
        harness_start(J, b + 152, w, opts)
        triton_boot(b + 170, w, 205 + j, full=False)
        J.wl(b + 175, w, "Triton ready after 5.2s (GET /v2/health/ready -> 200)", logger=dofn + ":79",
             thread="Thread-19", step="EmbedSkuImages")
    J.jm(9800.0, "Autoscaling: Reduced the number of workers to 4 based on the rate of progress in the currently "
                 "running stage(s).")
    J.jm(23480.0, "Finished operation " + first)
    J.jm(23481.0, "Executing operation Write vectors/BigQueryBatchFileLoads/TriggerLoadJobsWithoutTempTables+"
                  "Write vectors/BigQueryBatchFileLoads/WaitForDestinationLoadJobs")
    J.wl(23530.0, ws[0], "EmbedSkuImages finished: 1,184,512 images, wall time 6h29m on up to 12 workers",
         logger=dofn + ":170", thread="Thread-20", step="EmbedSkuImages")
    J.jm(23602.0, "Finished operation Write vectors/BigQueryBatchFileLoads/TriggerLoadJobsWithoutTempTables+"
                  "Write vectors/BigQueryBatchFileLoads/WaitForDestinationLoadJobs")
    teardown_ok(J, 23604, 4)

    truth = {
        "outcome": "succeeded",
        "family": "silent CPU fallback in a model server (Triton instance_group)",
        "one_line": "Triton's config.pbtxt pins the ONNX model to instance_group KIND_CPU; the L4 sits idle and the job takes 6.5 h on 12 workers.",
        "root_cause": {
            "summary": ("The DoFn starts Triton Inference Server 23.12 next to the SDK process. The model "
                        "repository's config.pbtxt for sku_embedder_onnx was copied from the CI repository, whose "
                        "runners have no GPU, and declares instance_group [{ count: 2, kind: KIND_CPU }]. Triton "
                        "therefore creates both ONNX Runtime instances on the CPU ('(CPU device 0)') even though it "
                        "sees the L4 (it creates the CUDA memory pool and collects GPU metrics). Every batch runs "
                        "on 8 vCPUs at ~9 images/s, autoscaling goes to the 12-worker limit and the job needs "
                        "6.5 hours instead of well under one."),
            "fix": ("Change the instance_group in config.pbtxt to kind: KIND_GPU (gpus: [0]) or drop the "
                    "instance_group block so Triton places the instances on the GPU; keep a separate CPU config "
                    "for CI. Check that Triton logs 'TRITONBACKEND_ModelInstanceInitialize: "
                    "sku_embedder_onnx_0_0 (GPU device 0)' before scaling the job out."),
        },
        "setup": {
            "hardware": "g2-standard-8 (1 x NVIDIA L4) workers, 2 -> 12 (max 12), us-east4-a",
            "sdk": "Apache Beam Python 2.66.0, Python 3.10, Runner v2, --experiments=no_use_multiple_sdk_containers",
            "image": image + " (FROM nvcr.io/nvidia/tritonserver:23.12-py3 + apache-beam[gcp]==2.66.0, tritonclient[http] 2.41.0)",
            "pipeline": "batch: image manifest -> fetch JPEGs from GCS -> BatchElements(32) -> EmbedSkuImages DoFn (tritonclient HTTP to a local tritonserver, ONNX ViT image encoder) -> BigQuery",
            "gpu_option": "--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver",
        },
        "evidence": [K_CPU0, K_CFG, K_GPU, K_RATE, K_SCALE],
        "red_herrings": [
            {"text": "Pinned memory pool is created at",
             "why": "Every Triton log line goes to stderr and lands at ERROR severity in the docker log although it is an I-level glog line."},
            {"text": "429 Too Many Requests; retrying in 1.0s (attempt 1/5)",
             "why": "One GCS read throttled and retried successfully by the pipeline; throughput is uniformly slow, not only around this read."},
            {"text": BENIGN_SKIP_SYNC, "why": "Benign kubelet message during node start-up (Dataflow docs)."},
            {"text": "CUDA memory pool is created on device 0 with size 67108864",
             "why": "Looks like proof that Triton uses the GPU, but the pool is created at server start independently of where model instances are placed."},
        ],
        "sources": [
            {"line": K_CPU0, "source": "triton-inference-server/onnxruntime_backend src/onnxruntime.cc (TRITONBACKEND_ModelInstanceInitialize: name + ' (' + TRITONSERVER_InstanceGroupKindString(kind) + ' device ' + id + ')'); real r23.12 CPU output in the yolov8n deployment README (onnxruntime.cc:2784) and onnxruntime_backend#265"},
            {"line": "instance names sku_embedder_onnx_0_N", "source": "triton-inference-server/core model_config_utils.cc (group.set_name(config->name() + \"_\" + std::to_string(cnt)))"},
            {"line": "Triton 23.12 start-up sequence (pinned/CUDA memory pool, loading, backend configuration, tables, metrics, Started GRPCInferenceService/HTTPService/Metrics Service)", "source": "real r23.12 logs in triton-inference-server/onnxruntime_backend#268 and the yolov8n FastAPI/Triton README; metrics.cc 'Collecting metrics for GPU 0: ...' from several public Triton logs"},
            {"line": "instance_group / KIND_CPU semantics", "source": "Triton model configuration docs, 'Instance Groups' (https://github.com/triton-inference-server/server/blob/main/docs/user_guide/model_configuration.md#instance-groups)"},
            {"line": "Beam harness and boot lines", "source": "apache/beam sdks/python/apache_beam/runners/worker/*.py and sdks/python/container/boot.go"},
            {"line": "Dataflow job messages (Worker configuration, Autoscaling: Raised/Reduced ..., Finished operation, teardown)", "source": "public Dataflow job-message examples (jcbaey/dataflow_python_timer, google-research/text-to-text-transfer-transformer#986)"},
        ],
        "synthetic": [
            "Envelopes, ids, timestamps, worker names, project/bucket names, pointer values and PIDs in Triton lines.",
            "The pipeline's own lines (repository sync, 'Triton ready', the model-config dump via tritonclient get_model_config, throughput, triton stats, GCS retry).",
            "Column widths of Triton's ASCII tables are recomputed for this model.",
            "'Autoscaling: Reduced the number of workers ...' wording is modelled on the 'Raised' message.",
        ],
    }
    return J, truth, "explorer", "downloaded-logs-20250714-140512.json"


def beam_tb(J, user_frames, exc_line, step, final_line=None):
    """Beam-style chained traceback for an exception raised in a DoFn method.

    user_frames: text of the user/library frames (each '  File ...\\n    code\\n').
    exc_line: the original exception line.
    final_line: the re-raised (step-augmented) exception line.
    """
    bp = J.beam_path("runners/worker/bundle_processor.py")
    sw = J.beam_path("runners/worker/sdk_worker.py")
    first = ("Traceback (most recent call last):\n"
             '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process\n'
             '  File "apache_beam/runners/common.py", line 912, in apache_beam.runners.common.PerWindowInvoker.invoke_process\n'
             '  File "apache_beam/runners/common.py", line 1057, in apache_beam.runners.common.PerWindowInvoker._invoke_process_per_window\n'
             + user_frames + exc_line)
    second = ("Traceback (most recent call last):\n"
              '  File "%s", line 311, in _execute\n    response = task()\n               ^^^^^^\n'
              '  File "%s", line 386, in <lambda>\n    lambda: self.create_worker().do_instruction(request), request)\n'
              '            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
              '  File "%s", line 658, in do_instruction\n    return getattr(self, request_type)(\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
              '  File "%s", line 689, in process_bundle\n    bundle_processor.process_bundle(instruction_id))\n'
              '    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
              '  File "%s", line 1274, in process_bundle\n    input_op_by_transform_id[element.transform_id].process_encoded(\n'
              '  File "%s", line 237, in process_encoded\n    self.output(decoded_value)\n'
              '  File "apache_beam/runners/worker/operations.py", line 570, in apache_beam.runners.worker.operations.Operation.output\n'
              '  File "apache_beam/runners/worker/operations.py", line 1081, in apache_beam.runners.worker.operations.DoOperation.process\n'
              '  File "apache_beam/runners/common.py", line 1501, in apache_beam.runners.common.DoFnRunner.process\n'
              '  File "apache_beam/runners/common.py", line 1604, in apache_beam.runners.common.DoFnRunner._reraise_augmented\n'
              '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process\n'
              '  File "apache_beam/runners/common.py", line 912, in apache_beam.runners.common.PerWindowInvoker.invoke_process\n'
              '  File "apache_beam/runners/common.py", line 1057, in apache_beam.runners.common.PerWindowInvoker._invoke_process_per_window\n'
              % (sw, sw, sw, sw, bp, bp)
              + user_frames + (final_line or exc_line))
    return first + "\n\nDuring handling of the above exception, another exception occurred:\n\n" + second + "\n"


def augmented(exc_line, step):
    """Beam's _reraise_augmented: same type if it can be rebuilt, else RuntimeError."""
    return "%s [while running '%s']" % (exc_line, step)


def augmented_runtime(exc_line, step):
    return "RuntimeError: %s [while running '%s']" % (exc_line, step)


# ==========================================================================
# hs11-03  JAX 0.6 removed jax.tree_map; team library still calls it
# ==========================================================================
def case03(rng):
    J = Job(rng, "orbitra-autonomy-sim", "us-central1", "us-central1-a", "rollout-risk-scoring-20250729",
            "2025-07-29T13:40:05", py="3.11")
    K_MSG = ("jax.tree_map was removed in JAX v0.6.0: use jax.tree.map (jax v0.4.25 or newer) or "
             "jax.tree_util.tree_map (any JAX version).")
    K_EXC = "AttributeError: " + K_MSG
    K_VER = "jax 0.6.2 / jaxlib 0.6.2 (cuda12 plugin 0.6.2)"
    K_CALL = "states = jax.tree_map(jnp.asarray, self._stack(batch))"
    step = "ScoreRollouts"
    image = "us-central1-docker.pkg.dev/orbitra-autonomy-sim/dataflow/trajscore-jax:2025.07.3"
    opts = opts_repr({
        "runner": "DataflowRunner", "project": J.project, "job_name": J.name, "region": J.region,
        "temp_location": "gs://orbitra-sim-dataflow/tmp",
        "dataflow_service_options": ["worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver"],
        "machine_type": "a2-highgpu-1g", "num_workers": 2, "max_num_workers": 8, "disk_size_gb": 120,
        "sdk_container_image": image, "sdk_location": "container",
        "experiments": ["no_use_multiple_sdk_containers", "use_runner_v2"],
        "rollouts": "gs://orbitra-sim-rollouts/2025-07-28/shard-*.tfrecord.gz",
        "output": "gs://orbitra-sim-scores/2025-07-28/risk"})
    first = ("Read rollouts/Read+Decode rollout+Batch/ParDo(_GlobalWindowsBatchingDoFn)+ScoreRollouts+"
             "Format+Write scores/Write/WriteImpl/WriteBundles")
    start_messages(J, 0, "a2-highgpu-1g", 2, 8, first_op=first)
    ws = [J.add_worker() for _ in range(2)]
    pkg = J.site() + "/trajscore"
    for i, w in enumerate(ws):
        b = 38 + i * 5
        vm_boot(J, b, w, "535.247.01", "18244.291.70", with_prober=(i == 1), ima=True)
        sdk_boot(J, b + 131, w, artifacts=("submission_environment_dependencies.txt",))
        harness_start(J, b + 134, w, opts)
        J.wl(b + 141, w, "trajscore 0.9.4 starting scorer: %s, devices=[CudaDevice(id=0)]" % K_VER,
             logger=pkg + "/beam_fns.py:52", thread="Thread-18", step=step)
        J.dk(b + 141.5, w, "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR",
             "ERROR")
        J.dk(b + 143.2, w, "%s: W external/xla/xla/service/gpu/nvptx_compiler.cc:765] The NVIDIA driver's CUDA "
                           "version is 12.2 which is older than the ptxas CUDA version (12.9.86). Because the driver "
                           "is older than the ptxas version, XLA is disabling parallel compilation, which may slow "
                           "down compilation. You should update your NVIDIA driver or use the NVIDIA-provided CUDA "
                           "forward compatibility packages." % J.clock(b + 143.2, "%Y-%m-%d %H:%M:%S.%f"), "ERROR")
        J.wl(b + 142, w, "jax persistent compilation cache: /tmp/jax_cache (min_compile_time_secs=1.0)",
             logger=pkg + "/beam_fns.py:55", thread="Thread-18", step=step)
        J.wl(b + 149, w, "Loaded risk model params from gs://orbitra-sim-models/risk/v14/params.msgpack "
                         "(31.4M parameters); warm-up compile of score_fn took 5.8s",
             logger=pkg + "/beam_fns.py:61", thread="Thread-18", step=step)
    user = ('  File "%s/beam_fns.py", line 88, in process\n'
            '    scores = self._scorer.score_batch(batch)\n'
            '             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
            '  File "%s/rollout.py", line 142, in score_batch\n'
            '    %s\n'
            '             ^^^^^^^^^^^^\n'
            '  File "%s/jax/_src/deprecations.py", line 54, in getattr\n'
            '    raise AttributeError(message)\n' % (pkg, pkg, K_CALL, J.site()))
    tb = beam_tb(J, user, K_EXC, step, final_line=augmented(K_EXC, step))
    attempts = [(ws[0], 205.0), (ws[1], 262.0), (ws[0], 331.0), (ws[1], 398.0)]
    for n, (w, t) in enumerate(attempts):
        J.wl(t - 19, w, "Read rollouts: opened gs://orbitra-sim-rollouts/2025-07-28/shard-%05d-of-00256.tfrecord.gz "
                        "(%.2f GiB)" % (rng.randint(0, 255), 1.6 + rng.random() * 0.6),
             logger=J.beam_path("io/tfrecordio.py") + ":209", thread="Thread-%d" % (18 + n), step="Read rollouts/Read")
        J.wl(t - 9, w, "Decode rollout: decoded 64 rollouts (%d agents max, 91 timesteps) in %.2fs" % (
            rng.randint(96, 128), 0.8 + rng.random()), logger=pkg + "/beam_fns.py:31", thread="Thread-%d" % (18 + n),
             step="Decode rollout")
        J.wl(t - 3, w, "ScoreRollouts: scoring batch of 64 rollouts (horizon 80, 3 policies)",
             logger=pkg + "/beam_fns.py:84", thread="Thread-%d" % (18 + n), step=step)
        bundle_failure(J, t, w, "process_bundle-%d" % (8131 + n * 17 + rng.randint(0, 9)), tb, step)
    J.jm(404.0, "Workflow failed. Causes: S03:%s failed., %s\n\n      Root cause: %s\n      Worker ID: %s,\n\n"
                "      Root cause: %s\n      Worker ID: %s,\n\n      Root cause: %s\n      Worker ID: %s,\n\n"
                "      Root cause: %s\n      Worker ID: %s" % (
                    first, FOUR_TIMES, augmented(K_EXC, step), ws[0]["name"], augmented(K_EXC, step), ws[1]["name"],
                    augmented(K_EXC, step), ws[0]["name"], augmented(K_EXC, step), ws[1]["name"]), "ERROR")
    teardown_fail(J, 405, 2)

    truth = {
        "outcome": "failed",
        "family": "JAX API removal (version skew)",
        "one_line": "Image rebuilt with JAX 0.6.2, which removed jax.tree_map; the team's trajscore 0.9.4 still calls it, every bundle raises AttributeError.",
        "root_cause": {
            "summary": ("The worker image was rebuilt with an unpinned `pip install -U \"jax[cuda12]\"`, which "
                        "brought jax/jaxlib 0.6.2. JAX 0.6.0 removed the long-deprecated alias jax.tree_map "
                        "(deprecated since 0.4.25). The team's scoring library trajscore 0.9.4, written for JAX "
                        "0.4.x, calls jax.tree_map in rollout.score_batch, so every bundle of ScoreRollouts raises "
                        "AttributeError on the first batch, four attempts fail and the job fails."),
            "fix": ("Replace jax.tree_map with jax.tree.map (or jax.tree_util.tree_map) in trajscore and "
                    "release it, or pin jax[cuda12]<0.6 in the image until the library is updated; pin JAX "
                    "versions in the image build instead of upgrading blindly."),
        },
        "setup": {
            "hardware": "2 x a2-highgpu-1g (1 x NVIDIA A100 40GB each), us-central1-a",
            "sdk": "Apache Beam Python 2.65.0, Python 3.11, Runner v2, --experiments=no_use_multiple_sdk_containers",
            "image": image + " (jax/jaxlib 0.6.2 with jax-cuda12-plugin, flax 0.10.7, trajscore 0.9.4)",
            "pipeline": "batch: TFRecord rollouts on GCS -> decode -> BatchElements(64) -> ScoreRollouts DoFn (jitted JAX risk model) -> text shards on GCS",
            "gpu_option": "--dataflow_service_options=worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver",
        },
        "evidence": [K_MSG, K_CALL, K_VER, "[while running 'ScoreRollouts']", FOUR_TIMES.split(".")[0]],
        "red_herrings": [
            {"text": "XLA is disabling parallel compilation, which may slow down compilation.",
             "why": "XLA's advisory that the 535 driver (CUDA 12.2) is older than the bundled ptxas; it only affects compile parallelism, the warm-up compile succeeded."},
            {"text": "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR",
             "why": "absl start-up notice on stderr, ERROR severity only because it is stderr."},
            {"text": BENIGN_IMA, "why": "Benign COS kernel message."},
            {"text": BENIGN_PROBER, "why": "Benign kubelet message listed in the Dataflow docs."},
        ],
        "sources": [
            {"line": K_EXC, "source": "jax/__init__.py _deprecations entry for 'tree_map' (removed in JAX 0.6.0) raised by jax/_src/deprecations.py deprecation_getattr; identical output quoted in waymo-research/waymax PR #77 and nixpkgs waymax package comment"},
            {"line": "jax.tree_map deprecation history", "source": "JAX CHANGELOG: deprecated in 0.4.25, removed in 0.6.0"},
            {"line": "The NVIDIA driver's CUDA version is 12.2 which is older than the ptxas CUDA version (12.9.86). ...", "source": "openxla/xla xla/service/gpu/nvptx_compiler.cc (same line quoted verbatim in a public 2025-06-14 log: nvptx_compiler.cc:765, ptxas 12.9.86)"},
            {"line": "Error processing instruction ... Original traceback is", "source": "apache/beam sdks/python/apache_beam/runners/worker/sdk_worker.py (_execute)"},
            {"line": "[while running '...']", "source": "apache/beam sdks/python/apache_beam/runners/common.py (_reraise_augmented)"},
            {"line": "The job failed because a work item has failed 4 times. ...", "source": "Dataflow job message quoted in apache/beam#30482"},
        ],
        "synthetic": [
            "Envelopes, ids, timestamps, names, buckets; trajscore package, its file names, line numbers and log lines.",
            "Line numbers of Beam and JAX frames in the tracebacks.",
            "Layout of the 'Workflow failed. Causes: ...' message around the quoted 4-times sentence.",
        ],
    }
    return J, truth, "sink", "gcs-sink-export.ndjson"


# ==========================================================================
# hs11-04  torch.distributed/NCCL: both ranks on cuda:0 (no set_device)
# ==========================================================================
def case04(rng):
    J = Job(rng, "quarry-search-prod", "us-central1", "us-central1-b", "passage-rerank-nightly-20250520",
            "2025-05-20T09:31:44", py="3.11")
    step = "RerankPassages"
    K_DUP = "Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 30"
    K_NCCL = ("torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, "
              "invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5")
    K_USAGE = "ncclInvalidUsage: This usually reflects invalid usage of NCCL library."
    K_R0 = "[rerank rank 0/2] process group ready (backend=nccl) model on cuda:0, torch.cuda.current_device()=0"
    K_R1 = "[rerank rank 1/2] process group ready (backend=nccl) model on cuda:0, torch.cuda.current_device()=0"
    image = "us-central1-docker.pkg.dev/quarry-search-prod/dataflow/rerank:2025.05.1"
    opts = opts_repr({
        "runner": "DataflowRunner", "project": J.project, "job_name": J.name, "region": J.region,
        "temp_location": "gs://quarry-dataflow-tmp/tmp",
        "dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:2;install-nvidia-driver"],
        "machine_type": "g2-standard-24", "num_workers": 2, "max_num_workers": 4, "disk_size_gb": 100,
        "sdk_container_image": image, "sdk_location": "container",
        "requirements_file": "requirements.txt",
        "experiments": ["no_use_multiple_sdk_containers", "use_runner_v2"],
        "candidates": "gs://quarry-candidates/2025-05-19/part-*.parquet",
        "output_table": "quarry-search-prod:ranking.passage_scores"})
    first = ("Read candidates/Read+Group per query/Reify+Group per query/Write")
    second = ("Group per query/Read+Group per query/GroupByWindow+RerankPassages+ToRow+"
              "Write scores/BigQueryBatchFileLoads/ParDo(WriteRecordsToFile)")
    start_messages(J, 0, "g2-standard-24", 2, 4, first_op=first)
    ws = [J.add_worker() for _ in range(2)]
    pkg = J.site() + "/rerank"
    pip_lines = [
        "Requirement already satisfied: sentencepiece==0.2.0 in /usr/local/lib/python3.11/site-packages (from -r /var/opt/google/staged/requirements.txt (line 1)) (0.2.0)",
        "Collecting google-cloud-bigquery-storage==2.30.0 (from -r /var/opt/google/staged/requirements.txt (line 2))",
        "  Downloading google_cloud_bigquery_storage-2.30.0-py3-none-any.whl.metadata (6.3 kB)",
        "Installing collected packages: google-cloud-bigquery-storage",
        PIP_RESOLVER_NOTE + "\napache-beam 2.63.0 requires google-cloud-bigquery-storage<3,>=2.6.3, but you have google-cloud-bigquery-storage 2.30.0 which is incompatible.",
        "Successfully installed google-cloud-bigquery-storage-2.30.0",
    ]
    for i, w in enumerate(ws):
        b = 36 + i * 4
        vm_boot(J, b, w, "535.247.01", "18244.291.70", with_prober=True, ima=(i == 0))
        sdk_boot(J, b + 124, w, artifacts=("requirements.txt", "submission_environment_dependencies.txt"))
        for k, pl in enumerate(pip_lines):
            J.boot(b + 126 + k * 0.7, w, pl)
        harness_start(J, b + 135, w, opts)
        J.wl(b + 140, w, "RerankPassages.setup: torch 2.6.0+cu124 (NCCL 2.21.5), cuda devices=2 "
                         "['NVIDIA L4', 'NVIDIA L4'], world_size=2", logger=pkg + "/dofn.py:39",
             thread="Thread-16", step=step)
    J.jm(410.0, "Finished operation " + first)
    J.jm(411.0, "Executing operation " + second)
    user = ('  File "%s/dofn.py", line 71, in process\n'
            '    scores = run_sharded(self._model_dir, batch, world_size=self._world)\n'
            '             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
            '  File "%s/sharded.py", line 97, in run_sharded\n'
            '    mp.spawn(_shard_main, args=(world_size, batch_file, out_dir), nprocs=world_size, join=True)\n'
            '  File "%s/torch/multiprocessing/spawn.py", line 340, in spawn\n'
            '    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")\n'
            '           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
            '  File "%s/torch/multiprocessing/spawn.py", line 296, in start_processes\n'
            '    while not context.join():\n'
            '              ^^^^^^^^^^^^^^\n'
            '  File "%s/torch/multiprocessing/spawn.py", line 215, in join\n'
            '    raise ProcessRaisedException(msg, error_index, failed_process.pid)\n'
            % (pkg, pkg, J.site(), J.site(), J.site()))
    child = ("Traceback (most recent call last):\n"
             '  File "%s/torch/multiprocessing/spawn.py", line 90, in _wrap\n'
             '    fn(i, *args)\n'
             '  File "%s/sharded.py", line 41, in _shard_main\n'
             '    dist.all_gather_object(gathered, local_scores)\n'
             '  File "%s/torch/distributed/c10d_logger.py", line 81, in wrapper\n'
             '    return func(*args, **kwargs)\n'
             '           ^^^^^^^^^^^^^^^^^^^^^\n'
             '  File "%s/torch/distributed/distributed_c10d.py", line 3037, in all_gather_object\n'
             '    all_gather(object_size_list, local_size, group=group)\n'
             '  File "%s/torch/distributed/c10d_logger.py", line 81, in wrapper\n'
             '    return func(*args, **kwargs)\n'
             '           ^^^^^^^^^^^^^^^^^^^^^\n'
             '  File "%s/torch/distributed/distributed_c10d.py", line 3709, in all_gather\n'
             '    work = group.allgather([tensor_list], [tensor])\n'
             '           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
             % (J.site(), pkg, J.site(), J.site(), J.site(), J.site())
             + K_NCCL + "\n" + K_USAGE + "\nLast error:\n" + K_DUP + "\n")
    exc = "torch.multiprocessing.spawn.ProcessRaisedException: \n\n-- Process 1 terminated with the following error:\n" + child
    final = augmented_runtime(exc.strip(), step)
    tb = beam_tb(J, user, exc, step, final_line=final)
    attempts = [(ws[0], 440.0), (ws[1], 503.0), (ws[0], 566.0), (ws[1], 629.0)]
    for n, (w, t) in enumerate(attempts):
        J.wl(t - 21, w, "RerankPassages: bundle with 96 queries / 9,600 (query, passage) pairs; spawning 2 ranks",
             logger=pkg + "/dofn.py:66", thread="Thread-%d" % (16 + n), step=step)
        J.dk(t - 12, w, K_R0, "INFO")
        J.dk(t - 11.8, w, K_R1, "INFO")
        if n == 0:
            J.dk(t - 11.5, w, "%s/rerank/model.py:58: FutureWarning: `torch.cuda.amp.autocast(args...)` is deprecated. "
                              "Please use `torch.amp.autocast('cuda', args...)` instead.\n"
                              "  with torch.cuda.amp.autocast(dtype=torch.float16):" % J.site(), "ERROR")
        d = J.t0 + _dt.timedelta(seconds=t - 0.4 - rng.random() * 0.01)
        J.dk(t - 0.4, w, "W%s %s %d site-packages/torch/multiprocessing/spawn.py:169] Terminating process %d via "
                         "signal SIGTERM" % (d.strftime("%m%d"), d.strftime("%H:%M:%S.%f"), rng.randint(300, 400),
                                             rng.randint(2100, 2900)), "ERROR")
        bundle_failure(J, t, w, "process_bundle-%d" % (412 + n * 9 + rng.randint(0, 5)), tb, step)
    root = augmented_runtime("torch.multiprocessing.spawn.ProcessRaisedException: ... " + K_DUP, step)
    J.jm(636.0, "Workflow failed. Causes: S06:%s failed., %s\n\n      Root cause: %s\n      Worker ID: %s,\n\n"
                "      Root cause: %s\n      Worker ID: %s,\n\n      Root cause: %s\n      Worker ID: %s,\n\n"
                "      Root cause: %s\n      Worker ID: %s" % (
                    second, FOUR_TIMES, root, ws[0]["name"], root, ws[1]["name"], root, ws[0]["name"], root,
                    ws[1]["name"]), "ERROR")
    teardown_fail(J, 637, 2)

    truth = {
        "outcome": "failed",
        "family": "multi-GPU / torch.distributed (NCCL rank-to-GPU mapping)",
        "one_line": "Two spawned ranks never call torch.cuda.set_device, so both use cuda:0 and NCCL aborts with 'Duplicate GPU detected'.",
        "root_cause": {
            "summary": ("RerankPassages spreads each bundle over the two L4s of a g2-standard-24 worker by "
                        "spawning two ranks with torch.multiprocessing.spawn and initialising an NCCL process group. "
                        "The rank function never calls torch.cuda.set_device(rank) (nor passes device_id / moves "
                        "the model to cuda:rank), so both ranks load the model on cuda:0 and "
                        "dist.all_gather_object, which uses torch.cuda.current_device(), builds an NCCL communicator "
                        "with both ranks on the same GPU (bus id 30). NCCL rejects it with ncclInvalidUsage "
                        "'Duplicate GPU detected', the spawn context re-raises it, and the work item fails 4 times."),
            "fix": ("In the rank function call torch.cuda.set_device(rank) (or init_process_group(..., "
                    "device_id=torch.device('cuda', rank))) before any CUDA work, load the model with "
                    ".to(f'cuda:{rank}'), as documented for all_gather_object with NCCL ('it is the user's "
                    "responsibility to ensure that this is set so that each rank has an individual GPU')."),
        },
        "setup": {
            "hardware": "2 x g2-standard-24 (2 x NVIDIA L4 each), us-central1-b",
            "sdk": "Apache Beam Python 2.63.0, Python 3.11, Runner v2, --experiments=no_use_multiple_sdk_containers",
            "image": image + " (torch 2.6.0+cu124 with NCCL 2.21.5, transformers 4.49.0)",
            "pipeline": "batch: Parquet candidates -> group per query -> RerankPassages DoFn (cross-encoder, 2 ranks via torch.multiprocessing.spawn + NCCL all_gather_object) -> BigQuery",
            "gpu_option": "--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:2;install-nvidia-driver",
        },
        "evidence": [K_DUP, K_USAGE, K_NCCL, K_R1, "-- Process 1 terminated with the following error:"],
        "red_herrings": [
            {"text": "Terminating process", "why": "torch.multiprocessing terminates the surviving rank after the first one failed; a consequence, not the cause."},
            {"text": PIP_RESOLVER_NOTE, "why": "pip's resolver notice while installing requirements.txt at boot (DEBUG-level boot output); the conflict is unrelated to the crash."},
            {"text": "FutureWarning: `torch.cuda.amp.autocast(args...)` is deprecated.", "why": "Deprecation notice on stderr (ERROR severity in the docker log); harmless."},
            {"text": BENIGN_PROBER, "why": "Benign kubelet message (Dataflow docs)."},
        ],
        "sources": [
            {"line": K_NCCL + " / " + K_USAGE + " / Last error: / Duplicate GPU detected : rank 1 and rank 0 both on CUDA device ...",
             "source": "real outputs: verl-project/verl#1096 (NCCLUtils.hpp:268, NCCL 2.21.5, torch 2.6), verl-project/verl#161, csguoh/MambaIR#39; NCCL init.cc 'Duplicate GPU detected : rank %d and rank %d both on CUDA device %lx' (bus id from busIdToInt64)"},
            {"line": "torch.multiprocessing.spawn.ProcessRaisedException: / -- Process 1 terminated with the following error: / spawn.py frames",
             "source": "pytorch/pytorch torch/multiprocessing/spawn.py (ProcessContext.join); real tracebacks in jaywalnut310/vits#202 and facebookresearch/detectron2#5485 (spawn.py 340/296/215 and the 'Terminating process ... via signal SIGTERM' warning)"},
            {"line": "all_gather_object uses torch.cuda.current_device()", "source": "PyTorch docs torch.distributed.all_gather_object note for NCCL-based process groups"},
            {"line": "FutureWarning: `torch.cuda.amp.autocast(args...)` is deprecated. ...", "source": "pytorch/pytorch torch/cuda/amp/autocast_mode.py (2.4+)"},
            {"line": PIP_RESOLVER_NOTE, "source": "pypa/pip src/pip/_internal/operations/check.py / req install conflict report"},
            {"line": "Beam harness/boot lines, 'Error processing instruction', '[while running ...]', 4-times job message", "source": "apache/beam sdk_worker.py, common.py, boot.go; apache/beam#30482"},
        ],
        "synthetic": [
            "Envelopes, ids, timestamps, names; the rerank package, its file/line numbers and its rank print lines.",
            "Line numbers of torch and Beam frames; PIDs in the SIGTERM line.",
            "Bus id 30 is derived from the L4's PCI address 0000:00:03.0 with NCCL's busIdToInt64.",
        ],
    }
    return J, truth, "gz", "logs.ndjson.gz"


# ==========================================================================
# hs11-05  vLLM: --served-model-name hides the model name Beam asks for
# ==========================================================================
def case05(rng):
    J = Job(rng, "fenwick-claims-ai", "us-central1", "us-central1-a", "claims-extract-backfill-20250812",
            "2025-08-12T15:20:31", py="3.12")
    step = "ExtractClaims/BeamML_RunInference"
    model = "Qwen/Qwen2.5-7B-Instruct"
    port = 41873
    K_404 = ("Error code: 404 - {'object': 'error', 'message': 'The model `Qwen/Qwen2.5-7B-Instruct` does not "
             "exist.', 'type': 'NotFoundError', 'param': None, 'code': 404}")
    K_CMD = "'--served-model-name' 'claims-extractor'"
    K_MODELS = "models: [Model(id='claims-extractor'"
    K_ACCESS = '"POST /v1/completions HTTP/1.1" 404 Not Found'
    image = "us-central1-docker.pkg.dev/fenwick-claims-ai/dataflow/claims-vllm:0.8.5-b2.66"
    opts = opts_repr({
        "runner": "DataflowRunner", "project": J.project, "job_name": J.name, "region": J.region,
        "temp_location": "gs://fenwick-claims-dataflow/tmp",
        "dataflow_service_options": ["worker_accelerator=type:nvidia-h100-80gb;count:1;install-nvidia-driver"],
        "machine_type": "a3-highgpu-1g", "num_workers": 1, "max_num_workers": 1, "disk_size_gb": 200,
        "sdk_container_image": image, "sdk_location": "container",
        "experiments": ["no_use_multiple_sdk_containers", "use_runner_v2"],
        "claims_glob": "gs://fenwick-claims-raw/notes/2025-08/*.jsonl",
        "output_table": "fenwick-claims-ai:claims_nlp.extracted_fields"})
    first = ("Read notes/Read+Parse note+Build prompt+ExtractClaims/BeamML_RunInference+Parse JSON+"
             "Write fields/BigQueryBatchFileLoads/ParDo(WriteRecordsToFile)")
    start_messages(J, 0, "a3-highgpu-1g", 1, 1, first_op=first)
    w = J.add_worker()
    vm_boot(J, 41, w, "535.247.01", "18244.291.70")
    sdk_boot(J, 205, w, artifacts=("submission_environment_dependencies.txt",))
    harness_start(J, 208, w, opts)
    vl = J.beam_path("ml/inference/vllm_inference.py")

    def vlog(t, line):
        J.wl(t, w, line, logger=vl + ":93", thread="Thread-31", step=step)

    def vts(t):
        return J.clock(t, "%m-%d %H:%M:%S")
    J.wl(214, w, "Starting service with ['/usr/local/bin/python' '-m' 'vllm.entrypoints.openai.api_server' '--model' "
                 "'%s' '--port' '%d' %s '--max-model-len' '16384' '--gpu-memory-utilization' '0.90']"
         % (model, port, K_CMD), logger=vl + ":75", thread="Thread-22", step=step)
    vlog(221, "INFO %s [__init__.py:239] Automatically detected platform cuda." % vts(221))
    vlog(226, "INFO %s [api_server.py:1043] vLLM API server version 0.8.5" % vts(226))
    vlog(229, "HTTP Error 503 thrown while requesting HEAD https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/resolve/main/config.json")
    vlog(229.1, "Retrying in 1s [Retry 1/5].")
    vlog(233, "INFO %s [config.py:717] This model supports multiple tasks: {'generate', 'embed', 'reward', 'classify', "
              "'score'}. Defaulting to 'generate'." % vts(233))
    vlog(233.2, "INFO %s [config.py:2003] Chunked prefill is enabled with max_num_batched_tokens=2048." % vts(233))
    vlog(241, "INFO %s [core.py:58] Initializing a V1 LLM engine (v0.8.5) with config: model='%s', "
              "speculative_config=None, tokenizer='%s', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, "
              "trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=16384, download_dir=None, "
              "load_format=LoadFormat.AUTO, tensor_parallel_size=1, pipeline_parallel_size=1, "
              "disable_custom_all_reduce=False, quantization=None, enforce_eager=False, kv_cache_dtype=auto, "
              "device_config=cuda, seed=None, served_model_name=claims-extractor, enable_prefix_caching=True, "
              "chunked_prefill_enabled=True" % (vts(241), model, model))
    vlog(246, "INFO %s [cuda.py:221] Using Flash Attention backend on V1 engine." % vts(246))
    vlog(247, "INFO %s [weight_utils.py:265] Using model weights format ['*.safetensors']" % vts(247))
    vlog(301, "INFO %s [loader.py:458] Loading weights took 51.37 seconds" % vts(301))
    vlog(302, "INFO %s [gpu_model_runner.py:1347] Model loading took 14.2488 GiB and 54.803127 seconds" % vts(302))
    vlog(318, "INFO %s [kv_cache_utils.py:634] GPU KV cache size: 877,760 tokens" % vts(318))
    vlog(318.1, "INFO %s [kv_cache_utils.py:637] Maximum concurrency for 16,384 tokens per request: 53.57x" % vts(318))
    vlog(339, "INFO %s [gpu_model_runner.py:1686] Graph capturing finished in 20 secs, took 0.53 GiB" % vts(339))
    vlog(339.2, "INFO %s [core.py:159] init engine (profile, create kv cache, warmup model) took 36.48 seconds" % vts(339))
    vlog(341, "INFO %s [serving_completion.py:61] Using default completion sampling params from model: "
              "{'repetition_penalty': 1.05, 'temperature': 0.7, 'top_k': 20, 'top_p': 0.8}" % vts(341))
    vlog(341.3, "INFO %s [api_server.py:1090] Starting vLLM API server on http://0.0.0.0:%d" % (vts(341), port))
    vlog(341.4, "INFO %s [launcher.py:28] Available routes are:" % vts(341))
    for k, r in enumerate(["/v1/models, Methods: GET", "/v1/chat/completions, Methods: POST",
                           "/v1/completions, Methods: POST"]):
        vlog(341.5 + k * 0.01, "INFO %s [launcher.py:36] Route: %s" % (vts(341), r))
    vlog(341.7, "INFO:     Started server process [%d]" % rng.randint(300, 340))
    vlog(341.8, "INFO:     Waiting for application startup.")
    vlog(341.9, "INFO:     Application startup complete.")
    vlog(342.4, 'INFO:     127.0.0.1:%d - "GET /v1/models HTTP/1.1" 200 OK' % rng.randint(40000, 60000))
    created = 1755012346
    models_line = ("%s, created=%d, object='model', owned_by='vllm', root='%s', parent=None, max_model_len=16384, "
                   "permission=[{'id': 'modelperm-%s', 'object': 'model_permission', 'created': %d, "
                   "'allow_create_engine': False, 'allow_sampling': True, 'allow_logprobs': True, "
                   "'allow_search_indices': False, 'allow_view': True, 'allow_fine_tuning': False, "
                   "'organization': '*', 'group': None, 'is_blocking': False}])]" % (
                       K_MODELS, created, model, J.hexs(32), created))
    J.wl(342.6, w, models_line, logger=vl + ":133", thread="Thread-22", step=step)
    bp = J.beam_path("ml/inference/base.py")
    user = ('  File "%s", line 1599, in process\n    return self._run_inference(batch, inference_args)\n'
            '           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
            '  File "%s", line 1565, in _run_inference\n    raise e\n'
            '  File "%s", line 1551, in _run_inference\n    result_generator = self._model_handler.run_inference(\n'
            '                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
            '  File "%s", line 219, in run_inference\n'
            '    return asyncio.run(self._async_run_inference(batch, model, inference_args))\n'
            '           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
            '  File "/usr/local/lib/python3.12/asyncio/runners.py", line 194, in run\n    return runner.run(main)\n'
            '           ^^^^^^^^^^^^^^^^\n'
            '  File "/usr/local/lib/python3.12/asyncio/runners.py", line 118, in run\n'
            '    return self._loop.run_until_complete(task)\n'
            '           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
            '  File "/usr/local/lib/python3.12/asyncio/base_events.py", line 687, in run_until_complete\n'
            '    return future.result()\n           ^^^^^^^^^^^^^^^\n'
            '  File "%s", line 163, in _async_run_inference\n    raise e\n'
            '  File "%s", line 160, in _async_run_inference\n    predictions.append(await p)\n'
            '                       ^^^^^^^\n'
            '  File "%s/openai/resources/completions.py", line 1101, in create\n    return await self._post(\n'
            '           ^^^^^^^^^^^^^^^^^\n'
            '  File "%s/openai/_base_client.py", line 1767, in post\n'
            '    return await self.request(cast_to, opts, stream=stream, stream_cls=stream_cls)\n'
            '           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
            '  File "%s/openai/_base_client.py", line 1573, in request\n'
            '    raise self._make_status_error_from_response(err.response) from None\n'
            % (bp, bp, bp, vl, vl, vl, J.site(), J.site(), J.site()))
    exc = "openai.NotFoundError: " + K_404
    tb = beam_tb(J, user, exc, step, final_line=augmented_runtime(exc, step))
    times = [352.0, 414.0, 477.0, 541.0]
    for n, t in enumerate(times):
        J.wl(t - 6, w, "Build prompt: %d notes in bundle, first claim id CLM-2025-08-%06d" % (
            rng.randint(80, 140), rng.randint(1000, 999999)),
             logger=J.site() + "/claimsjob/prompts.py:48", thread="Thread-%d" % (24 + n), step="Build prompt")
        for k in range(3):
            vlog(t - 1.2 + k * 0.05, 'INFO:     127.0.0.1:%d - %s' % (rng.randint(40000, 60000), K_ACCESS))
        J.wl(t - 0.5, w, models_line, logger=vl + ":133", thread="Thread-%d" % (24 + n), step=step)
        bundle_failure(J, t, w, "process_bundle-%d" % (37 + n * 5), tb, step)
    root = augmented_runtime(exc, step)
    J.jm(548.0, "Workflow failed. Causes: S02:%s failed., %s\n\n      Root cause: %s\n      Worker ID: %s,\n\n"
                "      Root cause: %s\n      Worker ID: %s,\n\n      Root cause: %s\n      Worker ID: %s,\n\n"
                "      Root cause: %s\n      Worker ID: %s" % (first, FOUR_TIMES, root, w["name"], root, w["name"],
                                                                root, w["name"], root, w["name"]), "ERROR")
    teardown_fail(J, 549, 1)

    truth = {
        "outcome": "failed",
        "family": "LLM server configuration (vLLM served model name)",
        "one_line": "vllm_server_kwargs adds --served-model-name, but Beam's handler requests the HF model id, so every completion gets 404 'model does not exist'.",
        "root_cause": {
            "summary": ("The pipeline uses Beam's VLLMCompletionsModelHandler('Qwen/Qwen2.5-7B-Instruct', "
                        "vllm_server_kwargs={'served-model-name': 'claims-extractor', ...}). Beam starts the vLLM "
                        "OpenAI server with --model Qwen/Qwen2.5-7B-Instruct plus the extra flag, so the server "
                        "only answers to 'claims-extractor' (GET /v1/models lists it), while the handler sends "
                        "every request with model=<model_name> = 'Qwen/Qwen2.5-7B-Instruct'. vLLM rejects each "
                        "completion with 404 NotFoundError 'The model `Qwen/Qwen2.5-7B-Instruct` does not exist.', "
                        "the server itself is healthy, and the work item fails four times."),
            "fix": ("Remove 'served-model-name' from vllm_server_kwargs (Beam addresses the server by model_name), "
                    "or list both names (--served-model-name Qwen/Qwen2.5-7B-Instruct claims-extractor) so the "
                    "server accepts the id Beam sends."),
        },
        "setup": {
            "hardware": "1 x a3-highgpu-1g (1 x NVIDIA H100 80GB), us-central1-a",
            "sdk": "Apache Beam Python 2.66.0, Python 3.12, Runner v2, --experiments=no_use_multiple_sdk_containers",
            "image": image + " (vllm 0.8.5, torch 2.6.0+cu124, openai 1.78.1)",
            "pipeline": "batch: claim notes JSONL -> prompt -> RunInference(VLLMCompletionsModelHandler, Qwen2.5-7B-Instruct) -> parse JSON -> BigQuery",
            "gpu_option": "--dataflow_service_options=worker_accelerator=type:nvidia-h100-80gb;count:1;install-nvidia-driver",
        },
        "evidence": [K_404, K_ACCESS, K_MODELS, K_CMD, "served_model_name=claims-extractor"],
        "red_herrings": [
            {"text": "HTTP Error 503 thrown while requesting HEAD https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/resolve/main/config.json",
             "why": "One transient Hub 503 during weight download, retried by huggingface_hub; the model loaded (14.25 GiB)."},
            {"text": "Using default completion sampling params from model:",
             "why": "vLLM applies the model's generation_config defaults; informational."},
            {"text": '"GET /v1/models HTTP/1.1" 200 OK', "why": "Beam's readiness probe succeeding; the server is up."},
            {"text": BENIGN_PROBER, "why": "Benign kubelet message (Dataflow docs)."},
        ],
        "sources": [
            {"line": "Starting service with [...] / models: [...] / request with model=self._model_name",
             "source": "apache/beam sdks/python/apache_beam/ml/inference/vllm_inference.py (start_process logs \"Starting service with %s\" with \"',\" replaced by \"'\"; check_connectivity logs 'models: %s'; vllm_server_kwargs appended as --key value; completions.create(model=self._model_name, ...))"},
            {"line": "openai.NotFoundError: " + K_404,
             "source": "vLLM OpenAI server model check (serving_engine: 'The model `{request.model}` does not exist.', NotFoundError, 404); real outputs in QwenLM/Qwen-Agent#110 and THUDM/LongBench#102, vllm-project/vllm#3486"},
            {"line": "--served-model-name semantics", "source": "vLLM docs, OpenAI-compatible server engine arguments ('--served-model-name ... If not specified, the model name will be the same as the --model argument')"},
            {"line": "vLLM 0.8.5 start-up lines ([__init__.py:239] Automatically detected platform cuda., [api_server.py:1043] vLLM API server version 0.8.5, Starting vLLM API server on ..., launcher routes, uvicorn lines)",
             "source": "vllm-project/vllm#18163 (v0.8.5 logs) and other public 0.8.5 server logs"},
            {"line": "HTTP Error 503 thrown while requesting ... / Retrying in 1s [Retry 1/5].", "source": "huggingface/huggingface_hub src/huggingface_hub/utils/_http.py (http_backoff)"},
            {"line": "Beam traceback frames, '[while running ...]', 4-times message", "source": "apache/beam ml/inference/base.py, runners/common.py; apache/beam#30482"},
        ],
        "synthetic": [
            "Envelopes, ids, timestamps, names; claimsjob package lines.",
            "vLLM line tags other than those quoted above, numbers in engine start-up lines, the shortened engine-config line, PIDs and ports.",
            "Line numbers in Beam/openai/asyncio frames.",
        ],
    }
    return J, truth, "gcloud", "export.json"


# ==========================================================================
# hs11-06  torch.compile(mode="reduce-overhead"): CUDA graph output reused
# ==========================================================================
def case06(rng):
    J = Job(rng, "kestrel-marketplace", "us-central1", "us-central1-b", "listing-dedup-embed-20251021",
            "2025-10-21T16:05:12", py="3.12")
    step = "EmbedAndDedup"
    pkg = J.site() + "/listing_dedup"
    st_line = 'File "%s/encoder.py", line 74, in forward\n    return F.normalize(pooled, p=2, dim=-1)' % pkg
    K_ERR = ("RuntimeError: Error: accessing tensor output of CUDAGraphs that has been overwritten by a subsequent run. "
             "Stack trace: %s. To prevent overwriting, clone the tensor outside of torch.compile() or call "
             "torch.compiler.cudagraph_mark_step_begin() before each model invocation." % st_line)
    K_HEAD = "accessing tensor output of CUDAGraphs that has been overwritten by a subsequent run"
    K_MODE = "torch.compile(encoder, mode='reduce-overhead', fullgraph=True)"
    K_PREV = "sims = emb @ self._prev_emb.T"
    image = "us-central1-docker.pkg.dev/kestrel-marketplace/dataflow/listing-dedup:2025.10.2"
    opts = opts_repr({
        "runner": "DataflowRunner", "project": J.project, "job_name": J.name, "region": J.region,
        "temp_location": "gs://kestrel-dataflow/tmp",
        "dataflow_service_options": ["worker_accelerator=type:nvidia-rtx-pro-6000;count:1;install-nvidia-driver:latest"],
        "machine_type": "g4-standard-48", "num_workers": 2, "max_num_workers": 6, "disk_size_gb": 200,
        "sdk_container_image": image, "sdk_location": "container",
        "experiments": ["no_use_multiple_sdk_containers", "use_runner_v2"],
        "number_of_worker_harness_threads": 1,
        "listings": "gs://kestrel-listings/snapshots/2025-10-20/*.parquet",
        "output": "kestrel-marketplace:trust.listing_near_duplicates"})
    first = ("Read listings/Read+Sort by seller+EmbedAndDedup+Format+Write pairs/BigQueryBatchFileLoads/"
             "ParDo(WriteRecordsToFile)")
    start_messages(J, 0, "g4-standard-48", 2, 6, first_op=first)
    ws = [J.add_worker() for _ in range(2)]
    for i, w in enumerate(ws):
        b = 44 + i * 3
        vm_boot(J, b, w, "580.82.07", "18244.345.11", with_prober=(i == 0), ima=(i == 1))
        sdk_boot(J, b + 162, w, artifacts=("submission_environment_dependencies.txt",))
        harness_start(J, b + 165, w, opts)
        J.wl(b + 171, w, "torch 2.8.0+cu128; device 0: NVIDIA RTX PRO 6000 Blackwell Server Edition, capability (12, 0), "
                         "94.97 GiB", logger=pkg + "/dofn.py:41", thread="Thread-14", step=step)
        J.wl(b + 176, w, "loaded listing encoder (e5-base fine-tune, 109.5M params, fp16); wrapping with %s" % K_MODE,
             logger=pkg + "/dofn.py:52", thread="Thread-14", step=step)
        J.dk(b + 189, w, "%s/torch/_inductor/compile_fx.py:320: UserWarning: TensorFloat32 tensor cores for float32 "
                         "matrix multiplication available but not enabled. Consider setting "
                         "`torch.set_float32_matmul_precision('high')` for better performance.\n  warnings.warn(" % J.site(),
             "ERROR")
        J.wl(b + 251, w, "warm-up done: first compiled call (batch 256, seq 128) took 71.9s incl. CUDA graph capture",
             logger=pkg + "/dofn.py:60", thread="Thread-14", step=step)
        J.wl(b + 251.4, w, "cuda memory after warm-up: allocated=1.32 GiB reserved=3.75 GiB (cudagraph pool included)",
             logger=pkg + "/dofn.py:63", thread="Thread-14", step=step)
    user = ('  File "%s/dofn.py", line 88, in process\n'
            '    %s\n'
            '           ~~~~^~~~~~~~~~~~~~~~~\n' % (pkg, K_PREV))
    tb = beam_tb(J, user, K_ERR, step, final_line=augmented(K_ERR, step))
    attempts = [(ws[0], 330.0), (ws[1], 395.0), (ws[0], 452.0), (ws[1], 517.0)]
    for n, (w, t) in enumerate(attempts):
        J.wl(t - 24, w, "Read listings: part-%05d.parquet row group %d (4096 rows)" % (rng.randint(0, 399),
                                                                                        rng.randint(0, 7)),
             logger=J.beam_path("io/parquetio.py") + ":591", thread="Thread-%d" % (14 + n), step="Read listings/Read")
        J.wl(t - 15, w, "Sort by seller: %d sellers in bundle, largest has %d listings" % (rng.randint(30, 90),
                                                                                         rng.randint(300, 2400)),
             logger=pkg + "/dofn.py:79", thread="Thread-%d" % (14 + n), step="Sort by seller")
        if n < 2:
            J.wl(t - 9, w, "EmbedAndDedup: seller shard %d batch 1: 256 listings, 0 candidate pairs (no previous batch)"
                 % rng.randint(100, 999), logger=pkg + "/dofn.py:95", thread="Thread-%d" % (14 + n), step=step)
        bundle_failure(J, t, w, "process_bundle-%d" % (211 + n * 13), tb, step)
    root = augmented(K_ERR.split(" Stack trace:")[0] + " ...", step)
    J.jm(524.0, "Workflow failed. Causes: S02:%s failed., %s\n\n      Root cause: %s\n      Worker ID: %s,\n\n"
                "      Root cause: %s\n      Worker ID: %s,\n\n      Root cause: %s\n      Worker ID: %s,\n\n"
                "      Root cause: %s\n      Worker ID: %s" % (first, FOUR_TIMES, root, ws[0]["name"], root,
                                                                ws[1]["name"], root, ws[0]["name"], root, ws[1]["name"]),
         "ERROR")
    teardown_fail(J, 525, 2)

    truth = {
        "outcome": "failed",
        "family": "PyTorch 2.x torch.compile / CUDA graphs",
        "one_line": "Encoder compiled with mode='reduce-overhead'; the DoFn keeps the previous batch's output, which CUDA-graph replay overwrites, so batch 2 raises.",
        "root_cause": {
            "summary": ("EmbedAndDedup compares each batch's embeddings with the previous batch to find near "
                        "duplicates across batch boundaries and keeps the previous output in self._prev_emb. The "
                        "encoder is wrapped with torch.compile(mode='reduce-overhead'), which uses CUDA graph "
                        "trees: outputs live in the graph's static memory pool and are overwritten by the next "
                        "replay. On the second batch the held tensor is read after the next run, and PyTorch "
                        "raises 'accessing tensor output of CUDAGraphs that has been overwritten by a subsequent "
                        "run' on every attempt."),
            "fix": ("Clone outputs that must outlive the call (self._prev_emb = emb.clone()) or call "
                    "torch.compiler.cudagraph_mark_step_begin() correctly, or compile with mode='default' / "
                    "'max-autotune-no-cudagraphs'; as the error message itself says."),
        },
        "setup": {
            "hardware": "2 x g4-standard-48 (1 x NVIDIA RTX PRO 6000 Blackwell Server Edition, 96 GB, each), us-central1-b; driver installed with install-nvidia-driver:latest (580)",
            "sdk": "Apache Beam Python 2.68.0, Python 3.12, Runner v2, --experiments=no_use_multiple_sdk_containers, --number_of_worker_harness_threads=1",
            "image": image + " (torch 2.8.0+cu128, transformers 4.56.1)",
            "pipeline": "batch: Parquet listings -> sort by seller -> EmbedAndDedup DoFn (compiled e5 encoder, cosine vs previous batch) -> BigQuery",
            "gpu_option": "--dataflow_service_options=worker_accelerator=type:nvidia-rtx-pro-6000;count:1;install-nvidia-driver:latest",
        },
        "evidence": [K_HEAD, "To prevent overwriting, clone the tensor outside of torch.compile() or call torch.compiler.cudagraph_mark_step_begin() before each model invocation.", K_PREV, K_MODE],
        "red_herrings": [
            {"text": "TensorFloat32 tensor cores for float32 matrix multiplication available but not enabled.",
             "why": "Inductor performance advisory on stderr (ERROR severity in the docker log)."},
            {"text": "took 71.9s incl. CUDA graph capture", "why": "Slow first call is normal compile/capture time, not a hang."},
            {"text": BENIGN_PROBER, "why": "Benign kubelet message (Dataflow docs)."},
            {"text": BENIGN_IMA, "why": "Benign COS kernel message."},
        ],
        "sources": [
            {"line": K_ERR.split(" Stack trace:")[0] + " Stack trace: ... To prevent overwriting, clone the tensor outside of torch.compile() or call torch.compiler.cudagraph_mark_step_begin() before each model invocation.",
             "source": "pytorch/pytorch torch/_inductor/cudagraph_trees.py (CUDAGraphTreeManager.dealloc_current_path_weakrefs message, set as storage access error); real occurrences quoted in several public write-ups (e.g. EdgeTAM concurrency notes, CUDA-graph KV-cache notes)"},
            {"line": "TensorFloat32 tensor cores ... warnings.warn(", "source": "pytorch/pytorch torch/_inductor/compile_fx.py (public logs show compile_fx.py:320)"},
            {"line": "worker_accelerator type nvidia-rtx-pro-6000 with install-nvidia-driver:latest and g4-standard-48", "source": "Dataflow GPU docs / public README quoted in /work/shared/reference/dataflow-log-signatures.md §2d"},
            {"line": "Beam harness/boot lines, '[while running ...]', 4-times message", "source": "apache/beam sdk_worker_main.py, sdk_worker.py, common.py, boot.go; apache/beam#30482"},
        ],
        "synthetic": [
            "Envelopes, ids, timestamps, names; listing_dedup package lines and file/line numbers.",
            "COS build id and NVRM build date for 580.82.07.",
            "Line numbers in Beam frames.",
        ],
    }
    return J, truth, "explorer", "downloaded-logs-20251021-171547.json"


# ==========================================================================
# hs11-07  TensorFlow: jit_compile=True around a model with string inputs
# ==========================================================================
def tf_startup(J, t, w, mem_mb, gpu_name, bus, cap, pid):
    def c(dt):
        return J.clock(t + dt, "%Y-%m-%d %H:%M:%S.%f")
    J.dk(t, w, "%s: I tensorflow/core/util/port.cc:153] oneDNN custom operations are on. You may see slightly different "
               "numerical results due to floating-point round-off errors from different computation orders. To turn "
               "them off, set the environment variable `TF_ENABLE_ONEDNN_OPTS=0`." % c(0))
    J.dk(t + 0.02, w, "%s: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:485] Unable to register cuFFT "
                      "factory: Attempting to register factory for plugin cuFFT when one has already been registered" % c(0.02))
    J.dk(t + 0.04, w, "%s: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:8454] Unable to register cuDNN "
                      "factory: Attempting to register factory for plugin cuDNN when one has already been registered" % c(0.04))
    J.dk(t + 0.05, w, "%s: E external/local_xla/xla/stream_executor/cuda/cuda_blas.cc:1452] Unable to register cuBLAS "
                      "factory: Attempting to register factory for plugin cuBLAS when one has already been registered" % c(0.05))
    J.dk(t + 0.06, w, "%s: I tensorflow/core/platform/cpu_feature_guard.cc:210] This TensorFlow binary is optimized to "
                      "use available CPU instructions in performance-critical operations.\nTo enable the following "
                      "instructions: AVX2 AVX512F AVX512_VNNI FMA, in other operations, rebuild TensorFlow with the "
                      "appropriate compiler flags." % c(0.06))
    J.dk(t + 0.9, w, "%s: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find "
                     "TensorRT" % c(0.9))
    J.dk(t + 4.1, w, "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR")
    J.dk(t + 4.1, w, "I0000 00:00:%s %6d cuda_executor.cc:1015] successful NUMA node read from SysFS had negative "
                     "value (-1), but there must be at least one NUMA node, so returning NUMA node zero. See more at "
                     "https://github.com/torvalds/linux/blob/v6.0/Documentation/ABI/testing/sysfs-bus-pci#L344-L355"
         % (J.absl(t + 4.1), pid))
    J.dk(t + 4.6, w, "I0000 00:00:%s %6d gpu_device.cc:2021] Created device /job:localhost/replica:0/task:0/device:GPU:0 "
                     "with %d MB memory:  -> device: 0, name: %s, pci bus id: %s, compute capability: %s"
         % (J.absl(t + 4.6), pid, mem_mb, gpu_name, bus, cap))


def case07(rng):
    J = Job(rng, "parcelo-reco", "europe-west4", "europe-west4-a", "reco-candidate-scoring-20250408",
            "2025-04-08T22:10:40", py="3.11")
    step = "ScoreCandidates"
    fn = "__inference_score_batch_9114"
    K_ERR = ("tensorflow.python.framework.errors_impl.InvalidArgumentError: Failed copying input tensor from "
             "/job:localhost/replica:0/task:0/device:CPU:0 to /job:localhost/replica:0/task:0/device:GPU:0 in order "
             "to run %s: Can't copy Tensor with type string to device /job:localhost/replica:0/task:0/device:GPU:0. "
             "[Op:%s]" % (fn, fn))
    K_COPY = "Can't copy Tensor with type string to device /job:localhost/replica:0/task:0/device:GPU:0."
    K_JIT = ("score fn: tf.function(jit_compile=True) around keras model ranker_v12 (inputs item_id:string, "
             "category:string, user_emb:float32[64]; preprocessing layers StringLookup x2)")
    K_CREATED = "name: NVIDIA L4, pci bus id: 0000:00:03.0, compute capability: 8.9"
    image = "europe-west4-docker.pkg.dev/parcelo-reco/dataflow/reco-tf:2.17.1-b2.64"
    opts = opts_repr({
        "runner": "DataflowRunner", "project": J.project, "job_name": J.name, "region": J.region,
        "temp_location": "gs://parcelo-reco-dataflow/tmp",
        "dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"],
        "machine_type": "g2-standard-8", "num_workers": 3, "max_num_workers": 10, "disk_size_gb": 100,
        "sdk_container_image": image, "sdk_location": "container",
        "experiments": ["no_use_multiple_sdk_containers", "use_runner_v2"],
        "candidates_table": "parcelo-reco:features.candidates_20250408",
        "model_uri": "gs://parcelo-reco-models/ranker/v12/ranker_v12.keras",
        "output_table": "parcelo-reco:reco.candidate_scores"})
    first = ("Read candidates/Read+Read candidates/_PassThroughThenCleanup/ParDo(PassThrough)+To features+"
             "Batch/ParDo(_GlobalWindowsBatchingDoFn)+ScoreCandidates+Write scores/BigQueryBatchFileLoads/"
             "ParDo(WriteRecordsToFile)")
    start_messages(J, 0, "g2-standard-8", 3, 10, first_op=first)
    ws = [J.add_worker() for _ in range(3)]
    pkg = J.site() + "/recoscore"
    for i, w in enumerate(ws):
        b = 37 + i * 5
        vm_boot(J, b, w, "535.230.02", "18244.151.47", with_prober=(i != 2), ima=(i == 0))
        sdk_boot(J, b + 121, w, artifacts=("submission_environment_dependencies.txt",))
        harness_start(J, b + 124, w, opts)
        tf_startup(J, b + 131, w, 20610, "NVIDIA L4", "0000:00:03.0", "8.9", 57 + i)
        J.wl(b + 139, w, "Loaded %s (Keras 3.8.0, TF 2.17.1) in 3.2s" % "gs://parcelo-reco-models/ranker/v12/ranker_v12.keras",
             logger=pkg + "/dofn.py:45", thread="Thread-17", step=step)
        J.wl(b + 139.3, w, K_JIT, logger=pkg + "/dofn.py:58", thread="Thread-17", step=step)
    user = ('  File "%s/dofn.py", line 77, in process\n'
            '    scores = self._score(features)\n'
            '             ^^^^^^^^^^^^^^^^^^^^^\n'
            '  File "%s/tensorflow/python/util/traceback_utils.py", line 153, in error_handler\n'
            '    raise e.with_traceback(filtered_tb) from None\n'
            '  File "%s/tensorflow/python/eager/execute.py", line 53, in quick_execute\n'
            '    tensors = pywrap_tfe.TFE_Py_Execute(ctx._handle, device_name, op_name,\n'
            '              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n' % (pkg, J.site(), J.site()))
    tb = beam_tb(J, user, K_ERR, step, final_line=augmented_runtime(K_ERR, step))
    attempts = [(ws[0], 236.0), (ws[1], 289.0), (ws[2], 344.0), (ws[0], 401.0)]
    for n, (w, t) in enumerate(attempts):
        J.wl(t - 4, w, "ScoreCandidates: batch of 512 candidates for %d users" % rng.randint(9, 40),
             logger=pkg + "/dofn.py:73", thread="Thread-%d" % (17 + n), step=step)
        bundle_failure(J, t, w, "process_bundle-%d" % (90 + n * 11), tb, step)
    root = augmented_runtime(K_ERR, step)
    J.jm(408.0, "Workflow failed. Causes: S05:%s failed., %s\n\n      Root cause: %s\n      Worker ID: %s,\n\n"
                "      Root cause: %s\n      Worker ID: %s,\n\n      Root cause: %s\n      Worker ID: %s,\n\n"
                "      Root cause: %s\n      Worker ID: %s" % (first, FOUR_TIMES, root, ws[0]["name"], root,
                                                                ws[1]["name"], root, ws[2]["name"], root, ws[0]["name"]),
         "ERROR")
    teardown_fail(J, 409, 3)

    truth = {
        "outcome": "failed",
        "family": "TensorFlow XLA (jit_compile must-compile semantics)",
        "one_line": "A 'perf' change wrapped the ranker in tf.function(jit_compile=True); its string inputs cannot be placed on the GPU, every call fails.",
        "root_cause": {
            "summary": ("ScoreCandidates calls the Keras 3 ranker through a tf.function(jit_compile=True) added to "
                        "'turn on XLA'. The model takes raw string features (item_id, category) that go through "
                        "StringLookup layers inside the model. With jit_compile=True the whole function must be "
                        "compiled by XLA and run on the GPU, so TensorFlow tries to copy the string input tensors "
                        "from CPU to GPU, which is impossible: 'Can't copy Tensor with type string to device ...GPU:0'. "
                        "Every batch fails; the work item fails 4 times. The GPU itself is fine (TF created the L4 "
                        "device)."),
            "fix": ("Drop jit_compile=True, or split the model: run the StringLookup/string preprocessing outside the "
                    "compiled function (on CPU, e.g. in a preprocessing DoFn or tf.data) and jit-compile only the "
                    "numeric part; XLA only supports numeric tensors."),
        },
        "setup": {
            "hardware": "3 x g2-standard-8 (1 x NVIDIA L4 each), europe-west4-a",
            "sdk": "Apache Beam Python 2.64.0, Python 3.11, Runner v2, --experiments=no_use_multiple_sdk_containers",
            "image": image + " (tensorflow[and-cuda] 2.17.1, keras 3.8.0)",
            "pipeline": "batch: BigQuery candidates -> feature dicts -> BatchElements(512) -> ScoreCandidates DoFn (Keras ranker via tf.function(jit_compile=True)) -> BigQuery",
            "gpu_option": "--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver",
        },
        "evidence": [K_COPY, K_ERR, K_JIT, K_CREATED],
        "red_herrings": [
            {"text": "Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered",
             "why": "Well-known harmless TF 2.16/2.17 start-up noise (also cuFFT/cuBLAS), E-level on stderr."},
            {"text": "TF-TRT Warning: Could not find TensorRT", "why": "TensorRT is not used by this pipeline."},
            {"text": "successful NUMA node read from SysFS had negative value (-1)", "why": "Standard note on cloud VMs."},
            {"text": BENIGN_IMA, "why": "Benign COS kernel message."},
        ],
        "sources": [
            {"line": K_ERR, "source": "tensorflow/tensorflow#66074 (\"Failed copying input tensor from ... CPU:0 to ... GPU:0 in order to run __inference_f_23: Can't copy Tensor with type string to device ... GPU:0. [Op:__inference_f_23]\") and tensorflow/tensorflow#117882 (same with StringLookup inside @tf.function(jit_compile=True))"},
            {"line": "jit_compile must-compile semantics", "source": "TensorFlow XLA guide 'Explicit compilation with tf.function(jit_compile=True)'; maintainer comment in tensorflow/tensorflow#101188 (XLA only supports numerical tensor types)"},
            {"line": "TF 2.17 start-up lines (port.cc:153, cuda_fft.cc:485, cuda_dnn.cc:8454, cuda_blas.cc:1452, cpu_feature_guard.cc:210, py_utils.cc:38, cuda_executor.cc:1015, absl InitializeLog)", "source": "public TF 2.17 outputs (several notebooks and READMEs found via code search, 2024-2025)"},
            {"line": "Created device ... with N MB memory:  -> device: 0, name: ..., pci bus id: ..., compute capability: ...", "source": "tensorflow/core/common_runtime/gpu/gpu_device.cc; quoted in /work/shared/reference/dataflow-log-signatures.md §2i"},
            {"line": "Beam harness/boot lines, '[while running ...]', 4-times message", "source": "apache/beam; apache/beam#30482"},
        ],
        "synthetic": [
            "Envelopes, ids, timestamps, names; recoscore package and its lines; function id __inference_score_batch_9114.",
            "gpu_device.cc line number (2021) and MB figure; absl thread ids; Beam frame line numbers.",
        ],
    }
    return J, truth, "sink", "gcs-sink-export.ndjson"


def beam_tb_setup(J, user_frames, exc_line, final_line):
    """Chained traceback for an exception raised in DoFn.setup."""
    sw = J.beam_path("runners/worker/sdk_worker.py")
    bp = J.beam_path("runners/worker/bundle_processor.py")
    first = ("Traceback (most recent call last):\n"
             '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method\n'
             '  File "apache_beam/runners/common.py", line 602, in apache_beam.runners.common.DoFnInvoker.invoke_setup\n'
             + user_frames + exc_line)
    second = ("Traceback (most recent call last):\n"
              '  File "%s", line 311, in _execute\n    response = task()\n               ^^^^^^\n'
              '  File "%s", line 386, in <lambda>\n    lambda: self.create_worker().do_instruction(request), request)\n'
              '            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
              '  File "%s", line 658, in do_instruction\n    return getattr(self, request_type)(\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
              '  File "%s", line 682, in process_bundle\n    bundle_processor = self.bundle_processor_cache.get(\n'
              '                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
              '  File "%s", line 512, in get\n    processor = bundle_processor.BundleProcessor(\n                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
              '  File "%s", line 1140, in __init__\n    op.setup(self.data_sampler)\n'
              '  File "apache_beam/runners/worker/operations.py", line 921, in apache_beam.runners.worker.operations.DoOperation.setup\n'
              '  File "apache_beam/runners/worker/operations.py", line 971, in apache_beam.runners.worker.operations.DoOperation.setup\n'
              '  File "apache_beam/runners/common.py", line 1608, in apache_beam.runners.common.DoFnRunner.setup\n'
              '  File "apache_beam/runners/common.py", line 1564, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method\n'
              '  File "apache_beam/runners/common.py", line 1604, in apache_beam.runners.common.DoFnRunner._reraise_augmented\n'
              '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method\n'
              '  File "apache_beam/runners/common.py", line 602, in apache_beam.runners.common.DoFnInvoker.invoke_setup\n'
              % (sw, sw, sw, sw, sw, bp) + user_frames + final_line)
    return first + "\n\nDuring handling of the above exception, another exception occurred:\n\n" + second + "\n"


# ==========================================================================
# hs11-08  NVIDIA user-space driver baked into the image (error 803)
# ==========================================================================
def case08(rng):
    J = Job(rng, "terrascope-geo", "us-central1", "us-central1-f", "parcel-segmentation-20250909",
            "2025-09-09T06:44:18", py="3.11")
    step = "SegmentParcels"
    K_803 = ("RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
             "NumCudaDevices() that might have already set an error? Error 803: system has unsupported display driver "
             "/ cuda driver combination")
    K_803s = "Error 803: system has unsupported display driver / cuda driver combination"
    K_NVRM = ("NVRM: API mismatch: the client has the version 575.57.08, but\nNVRM: this kernel module has the version "
              "535.247.01.  Please\nNVRM: make sure that this kernel module and all NVIDIA driver\nNVRM: components "
              "have the same version.")
    K_NVML = "Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 575.57"
    K_LIB = ("libcuda.so.1 -> /usr/lib/x86_64-linux-gnu/libcuda.so.575.57.08 (LD_LIBRARY_PATH=/usr/local/cuda/lib64; "
             "/usr/local/nvidia/lib64 not on path)")
    image = "us-central1-docker.pkg.dev/terrascope-geo/dataflow/parcel-seg:2025.09.0"
    opts = opts_repr({
        "runner": "DataflowRunner", "project": J.project, "job_name": J.name, "region": J.region,
        "temp_location": "gs://terrascope-dataflow/tmp",
        "dataflow_service_options": ["worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver"],
        "machine_type": "a2-highgpu-1g", "num_workers": 2, "max_num_workers": 8, "disk_size_gb": 150,
        "sdk_container_image": image, "sdk_location": "container",
        "experiments": ["no_use_multiple_sdk_containers", "use_runner_v2"],
        "tiles": "gs://terrascope-imagery/naip/2024/*/tiles-*.tfrecord",
        "output": "gs://terrascope-parcels/masks/2025-09-09/"})
    first = "Read tiles/Read+Decode tile+SegmentParcels+Encode mask+Write masks/Write/WriteImpl/WriteBundles"
    start_messages(J, 0, "a2-highgpu-1g", 2, 8, first_op=first)
    J.jm(5.0, "The Dataflow RunnerV2 container image of this job's workers will be ready for update in 7 days.")
    ws = [J.add_worker() for _ in range(2)]
    pkg = J.site() + "/parcelseg"
    for i, w in enumerate(ws):
        b = 39 + i * 4
        vm_boot(J, b, w, "535.247.01", "18244.291.70", with_prober=(i == 0), ima=True)
        sdk_boot(J, b + 142, w, artifacts=("submission_environment_dependencies.txt",))
        harness_start(J, b + 145, w, opts)
        J.wl(b + 150, w, "SegmentParcels.setup: torch 2.7.1+cu128, torchvision 0.22.1; CUDA_VISIBLE_DEVICES unset; %s"
             % K_LIB, logger=pkg + "/dofn.py:33", thread="Thread-15", step=step)
        J.wl(b + 151, w, "nvidia-smi check failed (exit 18): " + K_NVML, "WARNING", logger=pkg + "/dofn.py:38",
             thread="Thread-15", step=step)
        J.sy(b + 151.2, w, K_NVRM, "ERROR")
    user = ('  File "%s/dofn.py", line 49, in setup\n'
            '    self._model = build_model(self._ckpt).to(self._device).eval()\n'
            '                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
            '  File "%s/torch/nn/modules/module.py", line 1355, in to\n'
            '    return self._apply(convert)\n'
            '           ^^^^^^^^^^^^^^^^^^^^\n'
            '  File "%s/torch/nn/modules/module.py", line 915, in _apply\n'
            '    module._apply(fn)\n'
            '  File "%s/torch/nn/modules/module.py", line 942, in _apply\n'
            '    param_applied = fn(param)\n'
            '                    ^^^^^^^^^\n'
            '  File "%s/torch/nn/modules/module.py", line 1341, in convert\n'
            '    return t.to(\n'
            '           ^^^^^\n'
            '  File "%s/torch/cuda/__init__.py", line 372, in _lazy_init\n'
            '    torch._C._cuda_init()\n' % (pkg, J.site(), J.site(), J.site(), J.site(), J.site()))
    tb = beam_tb_setup(J, user, K_803, augmented(K_803, step))
    warn = ("%s/torch/cuda/__init__.py:174: UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). "
            "Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? %s "
            "(Triggered internally at /pytorch/c10/cuda/CUDAFunctions.cpp:109.)\n"
            "  return torch._C._cuda_getDeviceCount() > 0" % (J.site(), K_803s))
    attempts = [(ws[0], 212.0), (ws[1], 276.0), (ws[0], 339.0), (ws[1], 402.0)]
    for n, (w, t) in enumerate(attempts):
        J.wl(t - 9, w, "Read tiles: opened gs://terrascope-imagery/naip/2024/%s/tiles-%05d.tfrecord" % (
            rng.choice(["ia", "ne", "ks", "mn"]), rng.randint(0, 900)), logger=J.beam_path("io/tfrecordio.py") + ":209",
             thread="Thread-%d" % (15 + n), step="Read tiles/Read")
        J.wl(t - 5, w, "Downloading checkpoint gs://terrascope-models/parcelseg/upernet-convnext-b-v5.pt (412.6 MiB)",
             logger=pkg + "/dofn.py:44", thread="Thread-%d" % (15 + n), step=step)
        J.dk(t - 0.6, w, warn, "ERROR")
        J.sy(t - 0.5, w, K_NVRM, "ERROR")
        bundle_failure(J, t, w, "process_bundle-%d" % (3 + n), tb, step)
    root = augmented(K_803, step)
    J.jm(409.0, "Workflow failed. Causes: S01:%s failed., %s\n\n      Root cause: %s\n      Worker ID: %s,\n\n"
                "      Root cause: %s\n      Worker ID: %s,\n\n      Root cause: %s\n      Worker ID: %s,\n\n"
                "      Root cause: %s\n      Worker ID: %s" % (first, FOUR_TIMES, root, ws[0]["name"], root,
                                                                ws[1]["name"], root, ws[0]["name"], root, ws[1]["name"]),
         "ERROR")
    teardown_fail(J, 410, 2)

    truth = {
        "outcome": "failed",
        "family": "GPU driver / container image (user-space driver baked into the image)",
        "one_line": "Image installs the cuda-12-9 meta-package, which pulls the 575 user-space driver; it loads against Dataflow's 535 kernel module -> error 803.",
        "root_cause": {
            "summary": ("The custom image was built FROM ubuntu:22.04 with `apt-get install cuda-12-9`; that "
                        "meta-package depends on cuda-drivers, so the image ships the NVIDIA 575.57.08 user-space "
                        "driver (libcuda.so, libnvidia-ml.so, nvidia-smi). LD_LIBRARY_PATH only lists "
                        "/usr/local/cuda/lib64, so the loader picks the image's libcuda.so.1 instead of the driver "
                        "libraries Dataflow mounts at /usr/local/nvidia/lib64. The host kernel module installed by "
                        "Dataflow is 535.247.01, the versions do not match (kernel: 'NVRM: API mismatch'), NVML "
                        "reports a driver/library mismatch and CUDA initialisation fails with error 803, so "
                        "SegmentParcels.setup() fails when moving the model to cuda on every attempt."),
            "fix": ("Do not install GPU drivers in the custom image (Dataflow GPU docs caution): install only "
                    "cuda-toolkit-12-9 / the needed runtime libraries (or rely on the torch wheels' CUDA libs), "
                    "remove the cuda-drivers/libnvidia-* packages, and put /usr/local/nvidia/lib64 on "
                    "LD_LIBRARY_PATH so the mounted host driver is used."),
        },
        "setup": {
            "hardware": "2 x a2-highgpu-1g (1 x NVIDIA A100 40GB each), us-central1-f; Dataflow-installed driver 535.247.01",
            "sdk": "Apache Beam Python 2.67.0, Python 3.11, Runner v2, --experiments=no_use_multiple_sdk_containers",
            "image": image + " (FROM ubuntu:22.04 + apt cuda-12-9 (CUDA 12.9.1, pulls cuda-drivers 575.57.08) + torch 2.7.1+cu128)",
            "pipeline": "batch: NAIP tiles (TFRecord) -> decode -> SegmentParcels DoFn (UperNet-ConvNeXt on GPU) -> PNG masks on GCS",
            "gpu_option": "--dataflow_service_options=worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver",
        },
        "evidence": [K_803s, K_803, K_NVRM.split("\n")[0], K_NVML.split("\n")[0], K_LIB],
        "red_herrings": [
            {"text": "The Dataflow RunnerV2 container image of this job's workers will be ready for update in 7 days.",
             "why": "Benign Runner v2 notice (reference §2f f10)."},
            {"text": BENIGN_IMA, "why": "Benign COS kernel message."},
            {"text": BENIGN_SKIP_SYNC, "why": "Benign kubelet start-up message (Dataflow docs)."},
            {"text": "Installing GPU driver version 535.247.01",
             "why": "The Dataflow driver install itself succeeded; the problem is the second, different driver inside the image."},
        ],
        "sources": [
            {"line": K_803 + " / UserWarning: CUDA initialization: ... (Triggered internally at ... CUDAFunctions.cpp:...)",
             "source": "pytorch/pytorch c10/cuda/CUDAFunctions.cpp (device count error message) and torch/cuda/__init__.py; real outputs in CompVis/stable-diffusion#439, easydiffusion/easydiffusion#379, yhlleo/DeepSegmentor#31"},
            {"line": K_NVRM.replace("\n", " "), "source": "NVIDIA kernel module (nv.c API mismatch message); real dmesg lines in NVIDIA/nvidia-docker#182, saharmor/dalle-playground#104, stackhpc/ansible-slurm-appliance#287"},
            {"line": K_NVML.replace("\n", " / "), "source": "nvidia-smi output quoted in canonical/nvidia-graphics-drivers#78/#79 and tinygrad/open-gpu-kernel-modules#47"},
            {"line": "Don't install GPU drivers in custom images; driver libraries are mounted at /usr/local/nvidia/ and must be on LD_LIBRARY_PATH", "source": "Dataflow 'Run a pipeline with GPUs' (https://cloud.google.com/dataflow/docs/gpu/use-gpus), custom image section (copies in /work/shared/reference/doc-pages)"},
            {"line": "The Dataflow RunnerV2 container image ... ready for update in 7 days.", "source": "/work/shared/reference/dataflow-log-signatures.md §2f (f10)"},
            {"line": "Beam setup traceback, '[while running ...]', 4-times message", "source": "apache/beam runners/common.py (_invoke_lifecycle_method/_reraise_augmented), sdk_worker.py; apache/beam#30482"},
        ],
        "synthetic": [
            "Envelopes, ids, timestamps, names; parcelseg package lines including the library-resolution diagnostic.",
            "Line numbers in torch/Beam frames and in torch/cuda/__init__.py:174 and CUDAFunctions.cpp:109.",
            "Exit code 18 of nvidia-smi.",
        ],
    }
    return J, truth, "gz", "logs.ndjson.gz"


# ==========================================================================
# hs11-09  diffusers safety checker blacks out legitimate catalog images
# ==========================================================================
def case09(rng):
    J = Job(rng, "tidewear-genai", "us-central1", "us-central1-c", "lookbook-render-20250826",
            "2025-08-26T11:03:27", py="3.11")
    step = "RenderLookbook"
    mdir = "/tmp/models/sd15-swimwear-lookbook-v3"
    K_NSFW = ("Potential NSFW content was detected in one or more images. A black image will be returned instead. "
              "Try again with a different prompt and/or seed.")
    K_SAFE = "safety_checker=StableDiffusionSafetyChecker, requires_safety_checker=True"
    K_SIZES = "sizes KiB: 1.6, 604.2, 1.6, 1.6"
    K_DONE = "RenderLookbook done: 5000 images written, 0 failed"
    image = "us-central1-docker.pkg.dev/tidewear-genai/dataflow/lookbook-diffusers:2025.08.1"
    opts = opts_repr({
        "runner": "DataflowRunner", "project": J.project, "job_name": J.name, "region": J.region,
        "temp_location": "gs://tidewear-dataflow/tmp",
        "dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"],
        "machine_type": "g2-standard-8", "num_workers": 3, "max_num_workers": 3, "disk_size_gb": 120,
        "sdk_container_image": image, "sdk_location": "container",
        "experiments": ["no_use_multiple_sdk_containers", "use_runner_v2"],
        "prompts": "gs://tidewear-lookbook/prompts/fall-2025.jsonl",
        "model_dir": "gs://tidewear-genai/models/sd15-swimwear-lookbook-v3",
        "output_prefix": "gs://tidewear-lookbook/renders/2025-08-26/"})
    first = "Read prompts/Read+Parse+Reshuffle/AddRandomKeys+Reshuffle/ReshufflePerKey/Map(reify_timestamps)+Reshuffle/ReshufflePerKey/GroupByKey/Write"
    second = "Reshuffle/ReshufflePerKey/GroupByKey/Read+Reshuffle/ReshufflePerKey/GroupByKey/GroupByWindow+Reshuffle/ReshufflePerKey/FlatMap(restore_timestamps)+Reshuffle/RemoveRandomKeys+RenderLookbook+Write manifest/Write/WriteImpl/WriteBundles"
    start_messages(J, 0, "g2-standard-8", 3, 3, first_op=first)
    ws = [J.add_worker() for _ in range(3)]
    pkg = J.site() + "/lookbook"
    J.jm(60.0, "Finished operation " + first)
    J.jm(61.0, "Executing operation " + second)
    for i, w in enumerate(ws):
        b = 36 + i * 4
        vm_boot(J, b, w, "535.247.01", "18244.291.70", with_prober=(i == 2), ima=(i == 0))
        sdk_boot(J, b + 139, w, artifacts=("submission_environment_dependencies.txt",))
        harness_start(J, b + 142, w, opts)
        J.wl(b + 147, w, "Copying gs://tidewear-genai/models/sd15-swimwear-lookbook-v3 -> %s (13 objects, 3.98 GiB)" % mdir,
             logger=pkg + "/render.py:51", thread="Thread-13", step=step)
        J.dk(b + 171, w, "An error occurred while trying to fetch %s/vae: Error no file named "
                         "diffusion_pytorch_model.safetensors found in directory %s/vae." % (mdir, mdir), "ERROR")
        J.dk(b + 171.01, w, "Defaulting to unsafe serialization. Pass `allow_pickle=False` to raise an error instead.",
             "ERROR")
        J.dk(b + 174, w, "Loading pipeline components...: 100%%|██████████| 7/7 [00:03<00:00,  %.2fit/s]"
             % (1.9 + rng.random() * 0.4), "ERROR")
        J.wl(b + 176, w, "pipeline ready: StableDiffusionPipeline (%s), torch_dtype=float16, DPMSolverMultistepScheduler, "
                         "30 steps, 512x768, diffusers 0.33.1" % K_SAFE, logger=pkg + "/render.py:66",
             thread="Thread-13", step=step)
    looks = ["L-%04d" % n for n in rng.sample(range(100, 990), 14)]
    for k in range(14):
        w = ws[k % 3]
        t = 260 + k * 128 + rng.random() * 10
        J.dk(t - 4.5, w, "100%%|██████████| 30/30 [00:04<00:00,  %.2fit/s]" % (6.8 + rng.random() * 0.5), "ERROR")
        nb = 0
        sizes = []
        for _ in range(8):
            if rng.random() < 0.38:
                sizes.append("1.6")
                nb += 1
            else:
                sizes.append("%.1f" % (540 + rng.random() * 120))
        if k == 2:
            sizes = ["1.6", "604.2", "1.6", "1.6", "611.9", "587.3", "1.6", "599.0"]
            nb = 4
        if nb:
            J.dk(t - 0.2, w, K_NSFW, "ERROR")
        J.wl(t, w, "uploaded 8 images for look %s to gs://tidewear-lookbook/renders/2025-08-26/%s/ (%s)" % (
            looks[k], looks[k], "sizes KiB: " + ", ".join(sizes)), logger=pkg + "/render.py:118",
             thread="Thread-%d" % (13 + k % 3), step=step)
    J.jm(2120.0, "Finished operation " + second)
    J.wl(2122.0, ws[0], K_DONE, logger=pkg + "/render.py:140", thread="Thread-13", step=step)
    J.jm(2131.0, "Executing operation Write manifest/Write/WriteImpl/FinalizeWrite")
    J.wl(2134.0, ws[1], "Starting finalize_write threads with num_shards: 3 (skipped: 0), batches: 3, num_threads: 3",
         logger=J.beam_path("io/filebasedsink.py") + ":305", thread="Thread-40",
         step="Write manifest/Write/WriteImpl/FinalizeWrite")
    J.wl(2135.2, ws[1], "Renamed 3 shards in 0.19 seconds.", logger=J.beam_path("io/filebasedsink.py") + ":355",
         thread="Thread-40", step="Write manifest/Write/WriteImpl/FinalizeWrite")
    J.jm(2136.0, "Finished operation Write manifest/Write/WriteImpl/FinalizeWrite")
    teardown_ok(J, 2138, 3)

    truth = {
        "outcome": "succeeded",
        "family": "diffusers safety checker (silent wrong results)",
        "one_line": "The pipeline keeps Stable Diffusion's safety checker; it flags ~38% of swimwear renders as NSFW and returns black images that are uploaded as-is.",
        "root_cause": {
            "summary": ("The fine-tuned SD 1.5 swimwear model was saved with the standard StableDiffusionSafetyChecker "
                        "(requires_safety_checker=True). For swimwear/beachwear prompts the checker's concept "
                        "scores trip on a large share of legitimate catalog images, and diffusers then replaces each "
                        "flagged image with an all-black one and only logs a warning. The DoFn ignores "
                        "output.nsfw_content_detected and uploads every image, so the job 'succeeds' with 5000 "
                        "images of which about 38% are black ~1.6 KiB PNGs."),
            "fix": ("Check output.nsfw_content_detected and re-render or route flagged items to review instead of "
                    "uploading black images; for this licensed, reviewed catalog use case configure a safety "
                    "filter suited to the content (or load with safety_checker=None under the model licence's "
                    "terms) and add a post-render check (e.g. reject near-constant images)."),
        },
        "setup": {
            "hardware": "3 x g2-standard-8 (1 x NVIDIA L4 each), us-central1-c",
            "sdk": "Apache Beam Python 2.66.0, Python 3.11, Runner v2, --experiments=no_use_multiple_sdk_containers",
            "image": image + " (diffusers 0.33.1, transformers 4.51.3, torch 2.6.0+cu124)",
            "pipeline": "batch: prompt JSONL -> Reshuffle -> RenderLookbook DoFn (StableDiffusionPipeline fp16, 8 images per look) -> PNGs on GCS + manifest",
            "gpu_option": "--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver",
        },
        "evidence": [K_NSFW, K_SIZES, K_SAFE, K_DONE],
        "red_herrings": [
            {"text": "Defaulting to unsafe serialization. Pass `allow_pickle=False` to raise an error instead.",
             "why": "The VAE folder only has a .bin file; diffusers logs 'An error occurred while trying to fetch ...' at ERROR and loads the pickle. Harmless here."},
            {"text": "Loading pipeline components...: 100%", "why": "tqdm progress bar on stderr (ERROR severity in the docker log)."},
            {"text": BENIGN_IMA, "why": "Benign COS kernel message."},
            {"text": BENIGN_PROBER, "why": "Benign kubelet message (Dataflow docs)."},
        ],
        "sources": [
            {"line": K_NSFW, "source": "huggingface/diffusers src/diffusers/pipelines/stable_diffusion/safety_checker.py (StableDiffusionSafetyChecker.forward: logger.warning(...) after zeroing flagged images); seen verbatim in many user logs"},
            {"line": "An error occurred while trying to fetch ...: Error no file named diffusion_pytorch_model.safetensors found in directory ... / Defaulting to unsafe serialization. Pass `allow_pickle=False` to raise an error instead.",
             "source": "huggingface/diffusers src/diffusers/models/modeling_utils.py (logger.error + logger.warning); real outputs in public diffusers logs"},
            {"line": "Loading pipeline components...: 100%|...| 7/7 / denoising tqdm bars", "source": "huggingface/diffusers DiffusionPipeline.from_pretrained / __call__ progress bars"},
            {"line": "Starting finalize_write threads ... / Renamed 3 shards in ... seconds.", "source": "apache/beam sdks/python/apache_beam/io/filebasedsink.py"},
            {"line": "Beam harness/boot lines and job messages", "source": "apache/beam; public Dataflow job-message examples"},
        ],
        "synthetic": [
            "Envelopes, ids, timestamps, names; the lookbook package lines (copy, pipeline ready, uploads with sizes, done).",
            "Share of flagged images and per-look sizes (random with a fixed seed).",
        ],
    }
    return J, truth, "gcloud", "export.json"


# ==========================================================================
# hs11-10  setup.py pins TF 2.17.1, container is Python 3.13 -> boot loop
# ==========================================================================
def case10(rng):
    J = Job(rng, "wildlens-research", "us-west1", "us-west1-b", "trailcam-species-tagging-20251202",
            "2025-12-02T14:58:40", py="3.13")
    K_PIP = ("ERROR: Could not find a version that satisfies the requirement tensorflow[and-cuda]==2.17.1 "
             "(from trailcam-classifier) (from versions: 2.20.0rc0, 2.20.0)")
    K_NOMATCH = "ERROR: No matching distribution found for tensorflow[and-cuda]==2.17.1"
    K_BOOT = ("failed to install required packages: failed to install workflow: PIP failed to install dependencies, "
              "got exit status 1. This error may be unrecoverable, see "
              "https://beam.apache.org/documentation/sdks/python-unrecoverable-errors/index.html#pip-dependency-resolution-failures "
              "for more information")
    K_PY = "/usr/local/lib/python3.13/site-packages"
    image = "gcr.io/cloud-dataflow/v1beta3/beam_python3.13_sdk:2.69.0"
    start_messages(J, 0, "n1-standard-8", 2, 6, first_op="Read images/Read+Decode+Batch/ParDo(_GlobalWindowsBatchingDoFn)+"
                                                        "TagSpecies+Write tags/Write/WriteImpl/WriteBundles")
    ws = [J.add_worker() for _ in range(2)]
    J.jm(172.0, "Workers have started successfully.")
    pip_full = [
        "Processing /var/opt/google/staged/workflow.tar.gz",
        "  Installing build dependencies: started",
        "  Installing build dependencies: finished with status 'done'",
        "  Getting requirements to build wheel: started",
        "  Getting requirements to build wheel: finished with status 'done'",
        "  Preparing metadata (pyproject.toml): started",
        "  Preparing metadata (pyproject.toml): finished with status 'done'",
        "Requirement already satisfied: pillow>=10.4 in %s (from trailcam-classifier==1.4.2) (11.3.0)" % K_PY,
        "Collecting tensorflow-hub==0.16.1 (from trailcam-classifier==1.4.2)",
        "  Downloading tensorflow_hub-0.16.1-py2.py3-none-any.whl.metadata (1.3 kB)",
        K_PIP,
        K_NOMATCH,
    ]
    backoffs = [0, 10, 20, 40, 80, 160, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300]
    for i, w in enumerate(ws):
        b = 40 + i * 5
        vm_boot(J, b, w, "535.247.01", "18244.291.70", with_prober=(i == 0), ima=(i == 1))
        t = b + 121
        for n, bo in enumerate(backoffs):
            if n:
                t += 16 + bo + rng.random() * 3
            if t > 3700:
                break
            full = n < 2
            J.boot(t, w, "Initializing python harness: /opt/apache/beam/boot --id=sdk-0-0 "
                         "--provision_endpoint=localhost:12345")
            if full:
                J.boot(t + 0.2, w, "Initializing temporary Python venv in /opt/apache/beam-venv/beam-venv-worker-sdk-0-0")
                for k, a in enumerate(("pickled_main_session", "workflow.tar.gz", "submission_environment_dependencies.txt")):
                    J.boot(t + 1.4 + k * 0.01, w, "Found artifact: %s" % a)
                J.boot(t + 1.5, w, "Installing setup packages ...")
                for k, pl in enumerate(pip_full):
                    J.boot(t + 14.0 + k * 0.03, w, pl, sev="ERROR")
            J.boot(t + 14.5, w, K_BOOT, sev="ERROR")
            if full:
                J.boot(t + 14.6, w, "Cleaned up temporary venv for worker sdk-0-0.")
            d = J.t0 + _dt.timedelta(seconds=t + 14.7)
            J.dk(t + 14.7, w, "%s %s" % (d.strftime("%Y/%m/%d %H:%M:%S"), K_BOOT), "ERROR")
            nxt = backoffs[n + 1] if n + 1 < len(backoffs) else 300
            if nxt >= 20:
                pod = "%s_default(%s)" % (w["name"], "%s-%s-%s-%s-%s" % (J.hexs(8), J.hexs(4), J.hexs(4), J.hexs(4), J.hexs(12)))
                bo_txt = "5m0s" if nxt >= 300 else "%ds" % nxt
                J.kl(t + 16.0, w, J.klog(t + 16.0, "E", w["pid"], "pod_workers.go:1301") +
                     ' "Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"sdk-0-0\\" with '
                     'CrashLoopBackOff: \\"back-off %s restarting failed container=sdk-0-0 pod=%s\\"" pod="default/%s"'
                     % (bo_txt, pod, w["name"]), "ERROR")
    J.jm(3782.0, "Workflow failed. Causes: " + STUCK_1H, "ERROR")
    teardown_fail(J, 3783, 2)

    truth = {
        "outcome": "stuck",
        "family": "worker start-up (dependency pin vs container Python version)",
        "one_line": "setup.py pins tensorflow[and-cuda]==2.17.1 but the workers run Python 3.13 (only TF 2.20 has wheels); pip fails at every SDK start until the 1h stuck limit.",
        "root_cause": {
            "summary": ("The job was launched from a Python 3.13 environment with Beam 2.69.0, so Dataflow uses the "
                        "default beam_python3.13_sdk container. The pipeline package's setup.py (staged as "
                        "workflow.tar.gz) pins tensorflow[and-cuda]==2.17.1, which has no CPython 3.13 wheels (the "
                        "first TensorFlow release for 3.13 is 2.20). At every SDK container start the Beam boot "
                        "program runs pip on workflow.tar.gz, pip finds only 2.20.0rc0/2.20.0 and aborts, boot exits, "
                        "the container restarts in CrashLoopBackOff and no worker ever processes work; after an hour "
                        "Dataflow fails the job as stuck."),
            "fix": ("Make the pins and the runtime agree: launch with Python 3.11/3.12 (so the matching "
                    "beam_python3.11/3.12 container is used) or raise the pin to tensorflow[and-cuda]>=2.20 after "
                    "validating the model; ideally pre-build a custom container with the dependencies instead of "
                    "installing them at worker start-up."),
        },
        "setup": {
            "hardware": "2 x n1-standard-8 + 1 x NVIDIA Tesla T4 each, us-west1-b",
            "sdk": "Apache Beam Python 2.69.0, Python 3.13 (launch and worker), Runner v2, --setup_file ./setup.py",
            "image": image + " (default Dataflow SDK container; dependencies installed at start-up from workflow.tar.gz)",
            "pipeline": "batch: camera-trap JPEGs on GCS -> decode -> BatchElements -> TagSpecies DoFn (TF-Hub image classifier) -> text shards",
            "gpu_option": "--dataflow_service_options=worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver",
        },
        "evidence": [K_PIP, K_NOMATCH, K_BOOT, "CrashLoopBackOff", STUCK_1H.split(".")[0], K_PY],
        "red_herrings": [
            {"text": "Workers have started successfully.",
             "why": "The VMs started (and the GPU driver installed); the failure is inside the SDK container start-up."},
            {"text": BENIGN_PROBER, "why": "Benign kubelet message (Dataflow docs)."},
            {"text": BENIGN_IMA, "why": "Benign COS kernel message."},
            {"text": "Cleaned up temporary venv for worker sdk-0-0.", "why": "Normal boot clean-up after the failed install."},
        ],
        "sources": [
            {"line": K_PIP + " / " + K_NOMATCH,
             "source": "pypa/pip resolver error messages; the exact version list for CPython 3.13 '(from versions: 2.20.0rc0, 2.20.0)' is real output from nuwandda/stable-diffusion-aging-time-lapse#3 (2025-11-05)"},
            {"line": K_BOOT, "source": "apache/beam sdks/python/container/piputil.go ('PIP failed to install dependencies, got %s. This error may be unrecoverable, see %s for more information', unrecoverableURL) wrapped by boot.go ('failed to install workflow: %v', 'failed to install required packages: %v'), printed with log.Fatal and logger.Errorf"},
            {"line": "Initializing python harness / Initializing temporary Python venv / Found artifact / Installing setup packages ... / Cleaned up temporary venv for worker ...", "source": "apache/beam sdks/python/container/boot.go"},
            {"line": "pip output flushed at ERROR severity", "source": "apache/beam sdks/go/container/tools/buffered_logging.go (FlushAtError)"},
            {"line": "\"Error syncing pod, skipping\" ... CrashLoopBackOff: \"back-off 5m0s restarting failed container=...\"", "source": "kubernetes pkg/kubelet/pod_workers.go (klog.ErrorS) and the Dataflow common-errors 'Error syncing pod' template; apache/beam#19622"},
            {"line": "Workflow failed. Causes: " + STUCK_1H, "source": "google-research/text-to-text-transfer-transformer#986 and apache/beam PR #34381"},
        ],
        "synthetic": [
            "Envelopes, ids, timestamps, names; the trailcam-classifier package and its version.",
            "Back-off schedule and number of restarts; pod UIDs; kubelet source line numbers.",
        ],
    }
    return J, truth, "explorer", "downloaded-logs-20251202-160544.json"


# ==========================================================================
# hs11-11  healthy batch: sentence-transformers embeddings on L4 (noise only)
# ==========================================================================
def case11(rng):
    J = Job(rng, "northbeam-helpdesk", "us-central1", "us-central1-a", "kb-article-embeddings-20250624",
            "2025-06-24T02:15:09", py="3.11")
    step = "EmbedPassages"
    model = "BAAI/bge-base-en-v1.5"
    K_OOM = ("CUDA out of memory while encoding 1024 passages (max_seq_length=512); halving batch to 512 and retrying: "
             "CUDA out of memory. Tried to allocate 3.00 GiB. GPU 0 has a total capacity of 22.05 GiB of which 2.41 GiB "
             "is free. Including non-PyTorch memory, this process has 19.63 GiB memory in use. Of the allocated memory "
             "16.97 GiB is allocated by PyTorch, and 2.37 GiB is reserved by PyTorch but unallocated. If reserved but "
             "unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid "
             "fragmentation.  See documentation for Memory Management  "
             "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")
    K_503 = "HTTP Error 503 thrown while requesting HEAD https://huggingface.co/BAAI/bge-base-en-v1.5/resolve/main/modules.json"
    K_RETRY = "Retrying in 1s [Retry 1/5]."
    K_CFG = "effective config: {"
    image = "us-central1-docker.pkg.dev/northbeam-helpdesk/dataflow/kb-embed:2025.06.2"
    opts = opts_repr({
        "runner": "DataflowRunner", "project": J.project, "job_name": J.name, "region": J.region,
        "temp_location": "gs://northbeam-dataflow/tmp",
        "dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"],
        "machine_type": "g2-standard-8", "num_workers": 1, "max_num_workers": 3, "disk_size_gb": 80,
        "sdk_container_image": image, "sdk_location": "container",
        "experiments": ["no_use_multiple_sdk_containers", "use_runner_v2"],
        "articles": "gs://northbeam-kb-export/2025-06-23/articles-*.jsonl",
        "output_table": "northbeam-helpdesk:kb.passage_embeddings"})
    first = ("Read articles/Read+Split passages+Batch/ParDo(_GlobalWindowsBatchingDoFn)+EmbedPassages+ToRow+"
             "Write embeddings/BigQueryBatchFileLoads/ParDo(WriteRecordsToFile)")
    start_messages(J, 0, "g2-standard-8", 1, 3, first_op=first)
    ws = [J.add_worker() for _ in range(3)]
    pkg = J.site() + "/kbembed"
    stlog = J.site() + "/sentence_transformers/SentenceTransformer.py"
    J.jm(420.0, "Autoscaling: Raised the number of workers to 3 based on the rate of progress in the currently running "
                "stage(s).")
    for i, w in enumerate(ws):
        b = 38 if i == 0 else 425 + i * 4
        vm_boot(J, b, w, "535.247.01", "18244.291.70", with_prober=(i != 1), ima=(i == 0))
        sdk_boot(J, b + 116, w, artifacts=("submission_environment_dependencies.txt",))
        harness_start(J, b + 119, w, opts)
        J.wl(b + 125, w, "No session file found: /var/opt/google/staged/pickled_main_session. Functions defined in "
                         "__main__ (interactive session) may fail.", "WARNING",
             logger=J.beam_path("runners/worker/sdk_worker_main.py") + ":317", thread="MainThread")
        if i == 0:
            J.wl(b + 127, w, K_CFG + "'model': 'BAAI/bge-base-en-v1.5', 'revision': 'a5beb1e3e68b9ab74eb54cfd186867f64f240e1a', "
                                     "'max_seq_length': 512, 'batch_size': 1024, 'normalize_embeddings': True, "
                                     "'precision': 'float16', 'min_batch_size': 64, 'oom_backoff': True, "
                                     "'passage_tokens': 384, 'overlap_tokens': 64}",
                 logger=pkg + "/dofn.py:37", thread="Thread-12", step=step)
            J.wl(b + 128, w, K_503, "WARNING", logger=J.site() + "/huggingface_hub/utils/_http.py:301",
                 thread="Thread-12", step=step)
            J.wl(b + 128.01, w, K_RETRY, "WARNING", logger=J.site() + "/huggingface_hub/utils/_http.py:316",
                 thread="Thread-12", step=step)
        J.wl(b + 131, w, "Use pytorch device_name: cuda:0", logger=stlog + ":211", thread="Thread-12", step=step)
        J.wl(b + 131.1, w, "Load pretrained SentenceTransformer: %s" % model, logger=stlog + ":219",
             thread="Thread-12", step=step)
        J.wl(b + 137, w, "model ready on cuda:0 (NVIDIA L4), dim=768, fp16", logger=pkg + "/dofn.py:52",
             thread="Thread-12", step=step)
        nb = 7 if i == 0 else 4
        for k in range(nb):
            t = b + 150 + k * 57 + rng.random() * 5
            J.dk(t - 1, w, "Batches: 100%%|██████████| %d/%d [00:0%d<00:00,  %.2fit/s]" % (
                16, 16, rng.randint(2, 4), 4.4 + rng.random() * 1.2), "ERROR")
            J.wl(t, w, "EmbedPassages: embedded %d passages (total %d) in %.1fs" % (
                1024, 1024 * (k + 1), 2.9 + rng.random() * 0.8), logger=pkg + "/dofn.py:88",
                 thread="Thread-%d" % (12 + k % 3), step=step)
            if i == 0 and k == 3:
                J.wl(t + 12, w, K_OOM, "WARNING", logger=pkg + "/dofn.py:97", thread="Thread-13", step=step)
                J.wl(t + 16, w, "EmbedPassages: retry with batch 512 succeeded (2 x 512 passages in 3.4s); keeping "
                                "batch 512 for passages longer than 448 tokens", logger=pkg + "/dofn.py:104",
                     thread="Thread-13", step=step)
    J.jm(1330.0, "Finished operation " + first)
    J.jm(1331.0, "Executing operation Write embeddings/BigQueryBatchFileLoads/TriggerLoadJobsWithoutTempTables+"
                 "Write embeddings/BigQueryBatchFileLoads/WaitForDestinationLoadJobs")
    J.wl(1352.0, ws[0], "Job status: DONE", logger=J.beam_path("io/gcp/bigquery_tools.py") + ":674", thread="Thread-30",
         step="Write embeddings/BigQueryBatchFileLoads/WaitForDestinationLoadJobs")
    J.jm(1360.0, "Finished operation Write embeddings/BigQueryBatchFileLoads/TriggerLoadJobsWithoutTempTables+"
                 "Write embeddings/BigQueryBatchFileLoads/WaitForDestinationLoadJobs")
    teardown_ok(J, 1362, 3)

    truth = {
        "outcome": "succeeded",
        "family": "healthy (noise only)",
        "one_line": "Healthy: bge-base embeddings on L4 finished; a caught CUDA OOM with batch halving, a retried Hub 503 and stderr progress bars are noise.",
        "root_cause": {
            "summary": ("No failure. The batch job embedded all knowledge-base passages with sentence-transformers "
                        "(BAAI/bge-base-en-v1.5, fp16) on the L4 of each worker, autoscaled from 1 to 3 workers, "
                        "loaded the vectors into BigQuery and tore the pool down normally."),
            "fix": "None needed.",
        },
        "setup": {
            "hardware": "g2-standard-8 (1 x NVIDIA L4) workers, 1 -> 3, us-central1-a",
            "sdk": "Apache Beam Python 2.65.0, Python 3.11, Runner v2, --experiments=no_use_multiple_sdk_containers",
            "image": image + " (sentence-transformers 4.1.0, transformers 4.52.4, torch 2.6.0+cu124)",
            "pipeline": "batch: article JSONL -> split into passages -> BatchElements -> EmbedPassages DoFn (SentenceTransformer.encode on cuda:0) -> BigQuery",
            "gpu_option": "--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver",
        },
        "evidence": ["Use pytorch device_name: cuda:0", "model ready on cuda:0 (NVIDIA L4), dim=768, fp16",
                     "Worker pool stopped.", "retry with batch 512 succeeded"],
        "red_herrings": [
            {"text": "CUDA out of memory. Tried to allocate 3.00 GiB.", "why": "Caught by the DoFn's OOM back-off for one oversized batch; the retry with half the batch succeeded and the job finished."},
            {"text": K_503, "why": "Transient Hub 503 retried by huggingface_hub; the model loaded."},
            {"text": "Batches: 100%", "why": "sentence-transformers tqdm progress bar on stderr (ERROR severity in the docker log)."},
            {"text": "No session file found: /var/opt/google/staged/pickled_main_session.", "why": "Pipeline does not use --save_main_session."},
            {"text": K_CFG, "why": "The pipeline's own configuration dump (mentions oom_backoff), not an error."},
            {"text": BENIGN_PROBER, "why": "Benign kubelet message (Dataflow docs)."},
        ],
        "sources": [
            {"line": "Use pytorch device_name: cuda:0 / Load pretrained SentenceTransformer: BAAI/bge-base-en-v1.5", "source": "UKPLab/sentence-transformers sentence_transformers/SentenceTransformer.py (logger.info in __init__)"},
            {"line": "Batches: 100%|...", "source": "UKPLab/sentence-transformers SentenceTransformer.encode (tqdm desc='Batches')"},
            {"line": K_503 + " / " + K_RETRY, "source": "huggingface/huggingface_hub src/huggingface_hub/utils/_http.py (http_backoff)"},
            {"line": "CUDA out of memory. Tried to allocate ... GPU 0 has a total capacity of ... Including non-PyTorch memory ...", "source": "pytorch/pytorch c10/cuda/CUDACachingAllocator.cpp (2.x wording, quoted in /work/shared/reference/dataflow-log-signatures.md §2b b3)"},
            {"line": "No session file found: ...", "source": "apache/beam sdk_worker_main.py"},
            {"line": "Job status: DONE", "source": "apache/beam sdks/python/apache_beam/io/gcp/bigquery_tools.py"},
        ],
        "synthetic": [
            "Envelopes, ids, timestamps, names; the kbembed package lines (config dump, progress, OOM back-off wrapper text around torch's message).",
            "Model revision hash, memory figures and timings.",
        ],
    }
    return J, truth, "sink", "gcs-sink-export.ndjson"


# ==========================================================================
# hs11-12  healthy streaming: Whisper ASR on L4, drained (noise only)
# ==========================================================================
def case12(rng):
    J = Job(rng, "callbridge-analytics", "us-central1", "us-central1-b", "voicemail-transcribe-stream",
            "2025-09-30T07:58:21", project_number="731204885512", number_in_jobmsg=True, py="3.11")
    step = "Transcribe/BeamML_RunInference"
    model = "openai/whisper-large-v3-turbo"
    K_DEV = "Device set to use cuda:0"
    K_WHISPER = ("Due to a bug fix in https://github.com/huggingface/transformers/pull/28687 transcription using a "
                 "multilingual Whisper will default to language detection followed by transcription instead of "
                 "translation to English.This might be a breaking change for your use case. If you want to instead "
                 "always translate your audio to English, make sure to pass `language='en'`.")
    K_TIMEOUT = ("'(ReadTimeoutError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out. (read "
                 "timeout=10)\"), '(Request ID: 6f1d2b0e-3c9a-4f77-9d1e-52b0a8c4e913)')' thrown while requesting HEAD "
                 "https://huggingface.co/openai/whisper-large-v3-turbo/resolve/main/generation_config.json")
    K_BQ = "There were errors inserting to BigQuery. Will retry. Errors were"
    image = "us-central1-docker.pkg.dev/callbridge-analytics/dataflow/voicemail-asr:2025.09.3"
    opts = opts_repr({
        "runner": "DataflowRunner", "project": J.project, "job_name": J.name, "region": J.region, "streaming": True,
        "temp_location": "gs://callbridge-dataflow/tmp",
        "dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"],
        "machine_type": "g2-standard-8", "disk_size_gb": 80, "enable_streaming_engine": True,
        "sdk_container_image": image, "sdk_location": "container",
        "experiments": ["no_use_multiple_sdk_containers", "use_runner_v2", "enable_streaming_engine"],
        "subscription": "projects/callbridge-analytics/subscriptions/voicemail-new-asr",
        "output_table": "callbridge-analytics:voicemail.transcripts"})
    start_messages(J, 0, "g2-standard-8", 1, 0, streaming=True)
    J.jm(4.5, "Executing operation ReadVoicemail/Read+Decode audio+Transcribe/BeamML_RunInference+ToRow+"
              "WriteTranscripts/_StreamToBigQuery/StreamInsertRows/ParDo(BigQueryWriteFn)")
    ws = [J.add_worker() for _ in range(2)]
    pkg = J.site() + "/vmasr"
    for i, w in enumerate(ws):
        b = 37 if i == 0 else 5420
        vm_boot(J, b, w, "535.247.01", "18244.291.70", with_prober=(i == 0), ima=(i == 1))
        sdk_boot(J, b + 120, w, artifacts=("submission_environment_dependencies.txt",))
        harness_start(J, b + 123, w, opts)
        if i == 0:
            J.wl(b + 130, w, K_TIMEOUT, "WARNING", logger=J.site() + "/huggingface_hub/utils/_http.py:309",
                 thread="Thread-16", step=step)
            J.wl(b + 130.01, w, "Retrying in 1s [Retry 1/5].", "WARNING",
                 logger=J.site() + "/huggingface_hub/utils/_http.py:316", thread="Thread-16", step=step)
        J.dk(b + 141, w, K_DEV, "ERROR")
        J.wl(b + 141.5, w, "vmasr: ASR model handler ready (HuggingFacePipelineModelHandler task=automatic-speech-recognition, "
                           "model=%s, device=GPU -> cuda:0, torch_dtype=float16) after %.1fs" % (model, 13.4 + rng.random() * 3),
             logger=pkg + "/handler.py:58", thread="Thread-16", step=step)
    J.jm(5400.0, "Autoscaling: Raised the number of workers to 2 so that the pipeline can catch up with its backlog "
                 "and keep up with its input rate.")
    times = [260, 600, 900, 1300, 1700, 2150, 2600, 3050, 3500, 3950, 4400, 4850, 5300, 5600, 5900, 6200, 6500,
             6900, 7300, 7750, 8200, 8650, 9100, 9500, 9900]
    warned = set()
    for k, t in enumerate(times):
        w = ws[0] if (t < 5560 or k % 2 == 0) else ws[1]
        if w["name"] not in warned:
            warned.add(w["name"])
            J.dk(t - 2, w, K_WHISPER, "ERROR")
        J.wl(t, w, "Transcribed %d voicemails in window ending %s (p50 %.1fs, p95 %.1fs audio; real-time factor %.3f)"
             % (rng.randint(40, 210), J.clock(t, "%H:%M:00Z"), 18 + rng.random() * 6, 47 + rng.random() * 10,
                0.031 + rng.random() * 0.01),
             logger=pkg + "/dofn.py:71", thread="Thread-%d" % (16 + k % 5), step="ToRow")
        if k % 4 == 1:
            J.wl(t + 5, w, "ReadVoicemail: acked %d messages since last report, oldest unacked age %.1fs" % (
                rng.randint(40, 220), 2 + rng.random() * 6), logger=pkg + "/dofn.py:33",
                 thread="Thread-%d" % (16 + k % 5), step="ReadVoicemail/Read")
        if k == 8:
            J.wl(t + 20, w, "%s [{'index': 17, 'errors': [{'reason': 'backendError', 'location': '', 'debugInfo': '', "
                            "'message': 'Error encountered during execution. Retrying may solve the problem.'}]}]" % K_BQ,
                 logger=J.beam_path("io/gcp/bigquery.py") + ":1628", thread="Thread-20",
                 step="WriteTranscripts/_StreamToBigQuery/StreamInsertRows/ParDo(BigQueryWriteFn)")
            J.wl(t + 23, w, "Decode audio: skipped voicemail vm-%s: 0-byte object (upload still in progress); will be "
                            "re-published by the uploader" % J.hexs(10), "WARNING", logger=pkg + "/audio.py:40",
                 thread="Thread-21", step="Decode audio")
    teardown_ok(J, 10080, 2)

    truth = {
        "outcome": "succeeded",
        "family": "healthy (noise only)",
        "one_line": "Healthy streaming Whisper job on L4, drained normally; transformers' Whisper/device notices on stderr, a Hub read timeout and a retried BigQuery insert are noise.",
        "root_cause": {
            "summary": ("No failure. The streaming job transcribed voicemails from Pub/Sub with Beam's "
                        "HuggingFacePipelineModelHandler (whisper-large-v3-turbo on cuda:0) at a real-time factor "
                        "of ~0.03, autoscaled to 2 workers during the morning peak and was drained and torn down "
                        "normally."),
            "fix": "None needed.",
        },
        "setup": {
            "hardware": "g2-standard-8 (1 x NVIDIA L4) workers, 1 -> 2, us-central1-b, Streaming Engine",
            "sdk": "Apache Beam Python 2.67.0, Python 3.11, Runner v2, streaming, --experiments=no_use_multiple_sdk_containers",
            "image": image + " (transformers 4.48.3, torch 2.5.1+cu124, torchaudio 2.5.1)",
            "pipeline": "streaming: Pub/Sub voicemail notifications -> decode audio from GCS -> RunInference(HuggingFacePipelineModelHandler, automatic-speech-recognition) -> BigQuery streaming inserts",
            "gpu_option": "--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver",
        },
        "evidence": [K_DEV, "ASR model handler ready (HuggingFacePipelineModelHandler", "real-time factor",
                     "Worker pool stopped."],
        "red_herrings": [
            {"text": K_WHISPER, "why": "One-time transformers notice about Whisper's default task; the pipeline wants transcription in the spoken language. stderr -> ERROR severity."},
            {"text": K_DEV, "why": "Printed by transformers at WARNING level on stderr (ERROR severity in the docker log); it confirms the GPU is used."},
            {"text": "Read timed out. (read timeout=10)", "why": "One Hub HEAD timed out and was retried; the model loaded."},
            {"text": K_BQ, "why": "A transient BigQuery backendError on one row; Beam's BigQueryWriteFn retried the insert."},
            {"text": "0-byte object (upload still in progress)", "why": "Expected race with the uploader, handled by the pipeline."},
            {"text": BENIGN_PROBER, "why": "Benign kubelet message (Dataflow docs)."},
        ],
        "sources": [
            {"line": K_DEV, "source": "huggingface/transformers src/transformers/pipelines/base.py (logger.warning(f\"Device set to use {self.device}\"))"},
            {"line": K_WHISPER, "source": "huggingface/transformers src/transformers/models/whisper/generation_whisper.py (logger.warning_once, 4.38-4.5x wording)"},
            {"line": "'(ReadTimeoutError(...))' thrown while requesting HEAD ... / Retrying in 1s [Retry 1/5].", "source": "huggingface/huggingface_hub utils/_http.py http_backoff (\"'{err}' thrown while requesting {method} {url}\")"},
            {"line": K_BQ + " ...", "source": "apache/beam sdks/python/apache_beam/io/gcp/bigquery.py (BigQueryWriteFn._flush_batch: 'There were errors inserting to BigQuery. Will%s retry. Errors were %s')"},
            {"line": "Autoscaling is enabled for Dataflow Streaming Engine ... / Autoscaling: Raised the number of workers to 2 so that the pipeline can catch up with its backlog and keep up with its input rate.", "source": "jcbaey/dataflow_python_timer README (real streaming job messages)"},
        ],
        "synthetic": [
            "Envelopes, ids, timestamps, names; the vmasr package lines (handler ready, per-window summaries, skipped object); request id; BigQuery error payload.",
            "The drain request itself is not in this export (user action); the export ends with the normal teardown.",
        ],
    }
    return J, truth, "gz", "logs.ndjson.gz"


# ==========================================================================
# Build, check, write
# ==========================================================================
CASES = [case01, case02, case03, case04, case05, case06, case07, case08, case09, case10, case11, case12]
SEEDS = [110001, 110002, 110003, 110004, 110005, 110006, 110007, 110008, 110009, 110010, 110011, 110012]


def payload_strings(e):
    out = []
    if "textPayload" in e:
        out.append(e["textPayload"])
    if "jsonPayload" in e:
        def walk(v):
            if isinstance(v, str):
                out.append(v)
            elif isinstance(v, dict):
                for x in v.values():
                    walk(x)
            elif isinstance(v, list):
                for x in v:
                    walk(x)
        walk(e["jsonPayload"])
    return out


def check_case(cid, entries, truth, job):
    errors = []
    if not (100 <= len(entries) <= 250):
        errors.append("%s: %d entries (need 100-250)" % (cid, len(entries)))
    for e in entries:
        for k in ("logName", "resource", "timestamp", "receiveTimestamp", "severity", "insertId"):
            if k not in e:
                errors.append("%s: entry missing %s" % (cid, k))
        n_payload = sum(1 for k in ("textPayload", "jsonPayload", "protoPayload") if k in e)
        if n_payload != 1:
            errors.append("%s: entry with %d payloads" % (cid, n_payload))
        res = e.get("resource", {})
        if res.get("type") != "dataflow_step":
            errors.append("%s: resource.type %r" % (cid, res.get("type")))
        labels = res.get("labels", {})
        for k in ("job_id", "job_name", "project_id", "region", "step_id"):
            if k not in labels:
                errors.append("%s: resource label %s missing" % (cid, k))
        if labels.get("job_id") != job.job_id:
            errors.append("%s: foreign job id" % cid)
        if not e["logName"].startswith("projects/%s/logs/dataflow.googleapis.com%%2F" % job.project):
            errors.append("%s: bad logName %s" % (cid, e["logName"]))
        if e.get("severity") not in ("DEFAULT", "DEBUG", "INFO", "NOTICE", "WARNING", "ERROR", "CRITICAL"):
            errors.append("%s: bad severity" % cid)
    blob = "\x00".join(s for e in entries for s in payload_strings(e))
    for ev in truth["evidence"]:
        if ev not in blob:
            errors.append("%s: evidence not found verbatim: %r" % (cid, ev[:90]))
    for rh in truth["red_herrings"]:
        if rh["text"] not in blob:
            errors.append("%s: red herring not found verbatim: %r" % (cid, rh["text"][:90]))
    return errors


def top_level_prefix(text):
    """Text up to the first comma that is not inside parentheses."""
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            return text[:i]
    return text


def build_all():
    files = {}
    rows = []
    errors = []
    for n, (fn, seed) in enumerate(zip(CASES, SEEDS), start=1):
        cid = "hs11-%02d" % n
        rng = random.Random(seed)
        job, truth, shape, fname = fn(rng)
        entries = job.sorted_entries()
        errors += check_case(cid, entries, truth, job)
        data = render_export(shape, entries, random.Random(seed * 7 + 1))
        t = {"case": cid, "job": {"id": job.job_id, "name": job.name}, "outcome": truth["outcome"],
             "family": truth["family"], "one_line_truth": truth["one_line"], "root_cause": truth["root_cause"],
             "setup": truth["setup"], "evidence": truth["evidence"], "red_herrings": truth["red_herrings"],
             "sources": truth["sources"], "synthetic": truth["synthetic"],
             "export": {"file": fname, "shape": shape, "shape_description": SHAPE_DESC[shape],
                        "entries": len(entries)}}
        files["cases/%s/%s" % (cid, fname)] = data
        files["cases/%s/truth.yaml" % cid] = ("# %s truth (see ../../README.md for how this set was written)\n" % cid
                                              + to_yaml(t) + "\n").encode()
        hw = top_level_prefix(truth["setup"]["hardware"])
        sdk = truth["setup"]["sdk"].split(",")[0].replace("Apache Beam Python ", "Beam ")
        rows.append((cid, "%s; %s" % (sdk, hw), truth["family"], truth["outcome"], truth["one_line"],
                     "`%s` (%s)" % (fname, shape), len(entries)))
    files["README.md"] = readme(rows).encode()
    return files, errors


def readme(rows):
    out = []
    out.append("# heldout-stacks-11: Dataflow GPU log exports (held-out test set)\n")
    out.append("Twelve synthetic-but-realistic Google Cloud Logging exports of Apache Beam Python jobs on Dataflow "
               "GPU workers (2025-2026 stacks): ten jobs that each had one real, publicly documented problem and "
               "two healthy jobs full of harmless noise. Each `cases/hs11-NN/` holds one export and a `truth.yaml` "
               "(job id/name, outcome, family, root cause with the fix, setup, verbatim evidence with the key line "
               "first, red herrings with the reason they are harmless, the public source of every real log line, "
               "what is invented, and the export's shape and entry count).\n")
    out.append("## How it was written\n")
    out.append("- Independence: written without looking at the diagnosis tool under test. The only inputs read were "
               "this folder's `.exclusions-input.txt` (failure modes used by earlier sets; every case here differs "
               "from all of them by underlying cause, not just by wording), `/work/shared/reference/` "
               "(`dataflow-log-signatures.md` and the Dataflow GPU doc pages), `../heldout-stacks-10/README.md` "
               "(only as a description of the expected layout; its cases, make.py and RESULTS.md were not opened) "
               "and public material found with the search tools (issue threads, library source, release notes, "
               "docs). No other file under /work/main was read (no project code, rules, corpus, docs, tools or "
               "other bench sets) and nothing called `gpudiag` was run.\n"
               "- Every failure is a real, publicly documented failure. Real library lines are written as the "
               "library prints them for the version the case states (format strings read in the library source, "
               "or real outputs quoted in issue threads). `sources` in each truth.yaml names the source of each "
               "real line; `synthetic` lists what is invented (envelopes, ids, names, timestamps, the pipelines' "
               "own log lines, source line numbers in loggers and tracebacks, a few reconstructed tags).\n"
               "- Envelopes follow real LogEntry shapes: `logName` `projects/P/logs/dataflow.googleapis.com%2F<log>` "
               "for job-message, worker, worker-startup, docker, kubelet, system and harness; `resource.type` "
               "`dataflow_step` with job_id/job_name/project_id/region/step_id (job messages of hs11-12 carry the "
               "project number, as real exports sometimes do); worker `jsonPayload` with "
               "job/logger/message/portability_worker_id/thread/worker; job messages as `textPayload`; journald "
               "cursors as `insertId` for system and kubelet; anything a process writes to stderr lands at ERROR "
               "in the docker log whatever it says.\n"
               "- Every job has worker start-up, GPU-driver install lines, Beam boot/pip chatter, SDK harness "
               "start-up, the pipeline's own INFO lines and several red herrings. Failed batch jobs end with "
               "'a work item has failed 4 times' / 'Workflow failed'; the stuck job ends with Dataflow's 1h stuck "
               "message; succeeded jobs end with the normal teardown.\n"
               "- `make.py` (Python standard library only) builds everything twice in memory with one seeded "
               "`random.Random` per case and gzip mtime 0, requires byte-identical output, checks that each export "
               "holds 100-250 LogEntry objects with the basic fields and that every evidence and red-herring "
               "string occurs verbatim in some payload, then writes `cases/` and this README. Re-run with "
               "`python3 make.py`.\n")
    out.append("## Cases\n")
    out.append("| case | stack / hardware | family | outcome | one-line truth | export | entries |")
    out.append("|---|---|---|---|---|---|---|")
    for r in rows:
        out.append("| %s | %s | %s | %s | %s | %s | %d |" % r)
    out.append("")
    out.append("Shapes: `gcloud` = `gcloud logging read --format=json` array, newest first, keys sorted, 2-space "
               "indent; `explorer` = Logs Explorer JSON download, oldest first; `sink` = Cloud Storage sink NDJSON "
               "shards (one per log id and hour, order inside a shard not guaranteed) concatenated; `gz` = "
               "gzipped NDJSON, oldest first.\n")
    return "\n".join(out)


def main():
    a, errs = build_all()
    b, _ = build_all()
    if a.keys() != b.keys() or any(a[k] != b[k] for k in a):
        print("FAIL: two builds differ", file=sys.stderr)
        return 1
    if errs:
        for e in errs:
            print("FAIL:", e, file=sys.stderr)
        return 1
    # sanity: every export parses back
    for k, v in a.items():
        if k.endswith(".json"):
            json.loads(v.decode())
        elif k.endswith(".ndjson"):
            for line in v.decode().splitlines():
                json.loads(line)
        elif k.endswith(".gz"):
            for line in gzip.decompress(v).decode().splitlines():
                json.loads(line)
    if os.path.isdir(CASES_DIR):
        shutil.rmtree(CASES_DIR)
    for k, v in sorted(a.items()):
        path = os.path.join(HERE, k)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(v)
    for k in sorted(a):
        if k.startswith("cases/") and not k.endswith("truth.yaml"):
            print("%-55s %8d bytes" % (k, len(a[k])))
    print("OK: 12 cases built twice, byte-identical, all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
