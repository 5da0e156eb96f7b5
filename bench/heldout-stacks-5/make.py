#!/usr/bin/env python3
"""Deterministic generator for the held-out set heldout-stacks-5 (hs5).

Writes cases/hs5-NN/export.json (a `gcloud logging read --format=json` style
array of LogEntry objects, newest first) and cases/hs5-NN/truth.yaml.

Run `python3 make.py`.  It builds every file twice in memory, checks that the
two builds are byte-identical, writes them, re-reads them from disk and checks
again, and checks the 100..250 entries-per-case bound.  Python 3 stdlib only.
"""
import json
import os
import random
import sys
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))

PST = timezone(timedelta(hours=-8))


def _alnum(rng, n, alphabet="abcdefghijklmnopqrstuvwxyz0123456789"):
    return "".join(rng.choice(alphabet) for _ in range(n))


def _hex(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def fmt_ts(ns, digits):
    sec, frac = divmod(ns, 1_000_000_000)
    dt = datetime.fromtimestamp(sec, tz=timezone.utc)
    base = dt.strftime("%Y-%m-%dT%H:%M:%S")
    fr = f"{frac:09d}"[:digits]
    return f"{base}.{fr}Z"


class Export:
    """Collects LogEntry dicts for one Dataflow job."""

    def __init__(self, case_no, project_id, project_number, job_name, region,
                 zone, start_utc):
        self.rng = random.Random(1000 + case_no)
        self.project_id = project_id
        self.project_number = project_number
        self.job_name = job_name
        self.region = region
        self.zone = zone
        self.t0 = start_utc
        local = start_utc.astimezone(PST)
        self.job_id = local.strftime("%Y-%m-%d_%H_%M_%S-") + str(
            self.rng.randint(10**18, 10**19 - 1))
        self.mmddhhmm = local.strftime("%m%d%H%M")
        self.vm_mid = _alnum(self.rng, 4)
        self.vms = {}
        self.entries = []
        self.seq = 0
        self.boot_id = _hex(self.rng, 32)

    # ------------------------------------------------------------ helpers
    def vm(self, key):
        """Worker VM name like JOBNAME-MMDDHHMM-abcd-harness-wxyz."""
        if key not in self.vms:
            name = "%s-%s-%s-harness-%s" % (
                self.job_name[:25].rstrip("-"), self.mmddhhmm, self.vm_mid,
                _alnum(self.rng, 4))
            self.vms[key] = (name, str(self.rng.randint(10**18, 10**19 - 1)),
                             _hex(self.rng, 32))
        return self.vms[key][0]

    def _vm_info(self, name):
        for n, rid, boot in self.vms.values():
            if n == name:
                return rid, boot
        raise KeyError(name)

    def _ns(self, t):
        jitter = self.rng.randint(0, 999_999)
        return int(self.t0.timestamp() * 1e9) + int(round(t * 1e9)) + jitter

    def _add(self, ns, entry):
        self.seq += 1
        self.entries.append((ns, self.seq, entry))

    def _res(self, project_field, step=""):
        return {"type": "dataflow_step",
                "labels": {"job_id": self.job_id, "job_name": self.job_name,
                           "project_id": project_field,
                           "region": self.region, "step_id": step}}

    def _vm_labels(self, vm):
        rid, _ = self._vm_info(vm)
        return {"compute.googleapis.com/resource_id": rid,
                "compute.googleapis.com/resource_name": vm,
                "compute.googleapis.com/resource_type": "instance",
                "compute.googleapis.com/zone": self.zone,
                "dataflow.googleapis.com/job_id": self.job_id,
                "dataflow.googleapis.com/job_name": self.job_name,
                "dataflow.googleapis.com/region": self.region}

    def _log(self, name):
        return "projects/%s/logs/dataflow.googleapis.com%%2F%s" % (
            self.project_id, name)

    # ------------------------------------------------------------ emitters
    def jm(self, t, text, sev="INFO"):
        ns = self._ns(t)
        self._add(ns, {
            "insertId": _alnum(self.rng, self.rng.choice([10, 11, 12])),
            "labels": {"dataflow.googleapis.com/job_id": self.job_id,
                       "dataflow.googleapis.com/job_name": self.job_name,
                       "dataflow.googleapis.com/log_type": "system",
                       "dataflow.googleapis.com/region": self.region},
            "logName": self._log("job-message"),
            "receiveTimestamp": fmt_ts(ns + self.rng.randint(2 * 10**8, 9 * 10**8), 9),
            "resource": self._res(self.project_number),
            "severity": sev,
            "textPayload": text,
            "timestamp": fmt_ts(ns, 9),
        })

    def wk(self, t, vm, sdk, msg, sev="INFO", src=None, thread="MainThread",
           step="", site=None):
        """worker log record from an SDK harness (jsonPayload)."""
        path, lineno = src or ("apache_beam/runners/worker/sdk_worker.py", 315)
        if site and not path.startswith("/"):
            path = site + "/" + path
        ns = self._ns(t)
        payload = {"job": self.job_id,
                   "line": "%s:%d" % (os.path.basename(path), lineno),
                   "logger": "%s:%d" % (path, lineno),
                   "message": msg,
                   "thread": thread,
                   "worker": vm}
        if sdk:
            payload["portability_worker_id"] = sdk
        self._add(ns, {
            "insertId": _alnum(self.rng, 14),
            "jsonPayload": payload,
            "labels": self._vm_labels(vm),
            "logName": self._log("worker"),
            "receiveTimestamp": fmt_ts(ns + self.rng.randint(5 * 10**8, 6 * 10**9), 9),
            "resource": self._res(self.project_id, step),
            "severity": sev,
            "timestamp": fmt_ts(ns, 9),
        })

    def _plain(self, logname, t, vm, msg, sev, journald=False, digits=9):
        ns = self._ns(t)
        if journald:
            rid, boot = self._vm_info(vm)
            iid = "s=%s;i=%x;b=%s;m=%x;t=%x;x=%s" % (
                _hex(self.rng, 32), self.rng.randint(0x100, 0xfffff), boot,
                self.rng.randint(0x100000, 0xfffffff),
                ns // 1000, _hex(self.rng, 16))
        else:
            iid = _alnum(self.rng, 14)
        labels = self._vm_labels(vm)
        if logname == "system":
            labels["dataflow.googleapis.com/log_type"] = "system"
        self._add(ns, {
            "insertId": iid,
            "jsonPayload": {"message": msg},
            "labels": labels,
            "logName": self._log(logname),
            "receiveTimestamp": fmt_ts(ns + self.rng.randint(3 * 10**8, 9 * 10**9), 9),
            "resource": self._res(self.project_id),
            "severity": sev,
            "timestamp": fmt_ts(ns, digits),
        })

    def docker(self, t, vm, msg, sev="ERROR"):
        self._plain("docker", t, vm, msg, sev)

    def kubelet(self, t, vm, msg, sev="INFO"):
        self._plain("kubelet", t, vm, msg, sev, journald=True, digits=6)

    def system(self, t, vm, msg, sev="INFO"):
        self._plain("system", t, vm, msg, sev, journald=True, digits=6)

    def wstartup(self, t, vm, msg, sev="INFO"):
        self._plain("worker-startup", t, vm, msg, sev)

    def hstartup(self, t, vm, msg, sev="INFO"):
        self._plain("harness-startup", t, vm, msg, sev)

    # ------------------------------------------------------------ output
    def to_json(self):
        ordered = sorted(self.entries, key=lambda e: (e[0], e[1]), reverse=True)
        return json.dumps([e[2] for e in ordered], indent=2, sort_keys=True,
                          ensure_ascii=False) + "\n"


# ---------------------------------------------------------------- truth.yaml
def _yq(s):
    return json.dumps(s, ensure_ascii=False)


def to_yaml(obj, indent=0):
    pad = "  " * indent
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, (dict, list)) and v:
                out.append("%s%s:" % (pad, k))
                out.append(to_yaml(v, indent + 1))
            elif isinstance(v, (dict, list)):
                out.append("%s%s: %s" % (pad, k, "{}" if isinstance(v, dict) else "[]"))
            else:
                out.append("%s%s: %s" % (pad, k, _scalar(v)))
    elif isinstance(obj, list):
        for v in obj:
            if isinstance(v, dict):
                first = True
                for k, vv in v.items():
                    lead = pad + ("- " if first else "  ")
                    first = False
                    if isinstance(vv, (dict, list)) and vv:
                        out.append("%s%s:" % (lead, k))
                        out.append(to_yaml(vv, indent + 2))
                    else:
                        out.append("%s%s: %s" % (lead, k, _scalar(vv)))
            else:
                out.append("%s- %s" % (pad, _scalar(v)))
    return "\n".join(out)


def _scalar(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    return _yq(str(v))



# ================================================================ shared text
# Every literal below is either copied from a public source (listed in the
# SRC_* constants and in each case's truth.yaml `sources:`) or marked as
# synthetic in the case's `synthetic:` list.

SRC_LIFECYCLE = ("shared/reference/dataflow-log-signatures.md section 2i: job-message "
                 "sequence from jcbaey/dataflow_python_timer README, apache/beam#19306, "
                 "google-research/text-to-text-transfer-transformer#986 (Worker configuration, "
                 "Starting worker pool setup, Starting N workers, Workers have started "
                 "successfully, Executing operation, Cleaning up, Stopping worker pool..., "
                 "Worker pool stopped., Tearing down pending resources...)")
SRC_WORKFAIL = ("https://github.com/apache/beam/issues/30482 (current 'The job failed because a "
                "work item has failed 4 times...' wording with Root cause/Worker ID) and "
                "https://github.com/apache/beam/issues/21708 ('Workflow failed. Causes: S06:... "
                "failed., The job failed because...')")
SRC_HARNESS = ("https://github.com/jcbaey/dataflow_python_timer README (Python SDK harness startup "
               "lines: Logging handler created., semi_persistent_directory, Status HTTP server "
               "running at, Discarding unparseable args, Python sdk harness started with "
               "pipeline_options, Control/State channel lines)")
SRC_SDKWORKER = ("apache/beam:sdks/python/apache_beam/runners/worker/sdk_worker.py (_execute prints "
                 "traceback.format_exc() to stderr and logs 'Error processing instruction %s. "
                 "Original traceback is\\n%s\\n'; _log_lull_sampler_info 'Operation ongoing for over "
                 "%.2f seconds in state %s in step %s  without returning. Current Traceback:')")
SRC_REraise = ("apache/beam:sdks/python/apache_beam/runners/common.py DoFnRunner._reraise_augmented "
               "(step_annotation \" [while running '%s']\")")
SRC_BENIGN = ("https://cloud.google.com/dataflow/docs/guides/common-errors via reference section 2i "
              "(benign: 'ima: Can not allocate sha384 (reason: -2)', 'Error initializing dynamic plugin "
              "prober...', 'Skipping pod synchronization...', 'Error running "
              "LookupEffectiveGuestPolicies'); kolban-google/offline-log-viewer src/LogRecord.js "
              "('ima: No architecture policies found', system-log LogEntry shape)")
SRC_COSGPU = ("https://github.com/GoogleCloudPlatform/container-engine-accelerators/issues/237 "
              "(cos-gpu-installer lines: Getting the latest GPU driver version, Installing GPU driver "
              "version, Loading gpu-key..., Verifying GPU driver installation) and cos-gpu-installer "
              "source string 'Finished installing the drivers.'")
SRC_SHAPE = ("shared/reference/dataflow-log-signatures.md sections 1.2-1.5 (LogEntry fields, "
             "job-message textPayload with project NUMBER in resource.labels.project_id, system "
             "jsonPayload with journald-cursor insertId, worker jsonPayload keys, VM name pattern)")
SRC_RETRY = ("apache/beam:sdks/python/apache_beam/utils/retry.py ('Retry with exponential backoff: "
             "waiting for %s seconds before retrying %s because we caught exception: %s Traceback "
             "for above exception (most recent call last):')")

SYN_COMMON = [
    "Project ids/numbers, job ids, job names, VM names, resource ids, insertIds, bucket and "
    "image names, timestamps and all numbers (ports, pids, GiB figures, line numbers inside "
    "Beam/library frames) are invented.",
    "Placement of COS gpu-installer lines in the `system` log and of 'Error running "
    "LookupEffectiveGuestPolicies' in `worker-startup` is inferred (reference marks both [I]).",
    "docker/kubelet/system/worker-startup/harness-startup entries use jsonPayload.message "
    "(the shape shown for system in reference 1.2(A) and implied by the Dataflow docs query "
    "jsonPayload.message:(\"IMAGE_URI\")); the `line` key in worker jsonPayload follows the "
    "brief; `logger` is Beam's log_location (path:lineno).",
    "The contents of the pipeline_options dict and of the 'Discarding unparseable args' list, and "
    "the source line numbers in worker `logger`/`line` fields, are invented.",
    "Beam frame line numbers and the exact shape of the two-block ('During handling of the "
    "above exception') traceback are reconstructed from Beam sources, not copied from one log; "
    "in the second block the original frames that Python repeats after _reraise_augmented are "
    "elided so that every export stays inside 100-250 entries.",
]

SITE311 = "/usr/local/lib/python3.11/site-packages"
SITE310 = "/usr/local/lib/python3.10/site-packages"
SITE312 = "/usr/local/lib/python3.12/site-packages"

BEAM_OUTER = [  # frames above DoOperation.setup / process in the SDK harness
    ('apache_beam/runners/worker/sdk_worker.py', 315, '_execute', 'response = task()'),
    ('apache_beam/runners/worker/sdk_worker.py', 385, '<lambda>',
     'lambda: self.create_worker().do_instruction(request), request)'),
    ('apache_beam/runners/worker/sdk_worker.py', 659, 'do_instruction',
     'return getattr(self, request_type)('),
    ('apache_beam/runners/worker/sdk_worker.py', 690, 'process_bundle',
     'bundle_processor = self.bundle_processor_cache.get('),
    ('apache_beam/runners/worker/sdk_worker.py', 512, 'get',
     'processor = bundle_processor.BundleProcessor('),
    ('apache_beam/runners/worker/bundle_processor.py', 1135, '__init__',
     'op.setup(self.data_sampler)'),
]
CY_SETUP = [
    'File "apache_beam/runners/worker/operations.py", line 875, in apache_beam.runners.worker.operations.DoOperation.setup',
    'File "apache_beam/runners/worker/operations.py", line 925, in apache_beam.runners.worker.operations.DoOperation.setup',
    'File "apache_beam/runners/common.py", line 1521, in apache_beam.runners.common.DoFnRunner.setup',
    'File "apache_beam/runners/common.py", line 1517, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
]
CY_INNER_SETUP = [
    'File "apache_beam/runners/common.py", line 1515, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
    'File "apache_beam/runners/common.py", line 567, in apache_beam.runners.common.DoFnInvoker.invoke_setup',
]
BEAM_OUTER_PROC = [
    ('apache_beam/runners/worker/sdk_worker.py', 315, '_execute', 'response = task()'),
    ('apache_beam/runners/worker/sdk_worker.py', 385, '<lambda>',
     'lambda: self.create_worker().do_instruction(request), request)'),
    ('apache_beam/runners/worker/sdk_worker.py', 659, 'do_instruction',
     'return getattr(self, request_type)('),
    ('apache_beam/runners/worker/sdk_worker.py', 697, 'process_bundle',
     'bundle_processor.process_bundle(instruction_id))'),
    ('apache_beam/runners/worker/bundle_processor.py', 1274, 'process_bundle',
     'input_op_by_transform_id[element.transform_id].process_encoded('),
    ('apache_beam/runners/worker/bundle_processor.py', 237, 'process_encoded',
     'self.output(decoded_value)'),
    'File "apache_beam/runners/worker/operations.py", line 567, in apache_beam.runners.worker.operations.Operation.output',
    'File "apache_beam/runners/worker/operations.py", line 569, in apache_beam.runners.worker.operations.Operation.output',
    'File "apache_beam/runners/worker/operations.py", line 260, in apache_beam.runners.worker.operations.SingletonElementConsumerSet.receive',
    'File "apache_beam/runners/worker/operations.py", line 1061, in apache_beam.runners.worker.operations.DoOperation.process',
    'File "apache_beam/runners/worker/operations.py", line 1062, in apache_beam.runners.worker.operations.DoOperation.process',
    'File "apache_beam/runners/common.py", line 1501, in apache_beam.runners.common.DoFnRunner.process',
]
CY_INNER_PROC = [
    'File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process',
    'File "apache_beam/runners/common.py", line 685, in apache_beam.runners.common.PerWindowInvoker.invoke_process',
    'File "apache_beam/runners/common.py", line 1163, in apache_beam.runners.common.PerWindowInvoker._invoke_process_per_window',
]
CY_REraise = 'File "apache_beam/runners/common.py", line 1563, in apache_beam.runners.common.DoFnRunner._reraise_augmented'

RUNINF_LOAD = [  # RunInference setup -> model handler load_model
    ('apache_beam/ml/inference/base.py', 1896, 'setup', 'self._model = self._load_model()'),
    ('apache_beam/ml/inference/base.py', 1844, '_load_model',
     'model = self._shared_model_handle.acquire(load, tag=self._cur_tag)'),
    ('apache_beam/utils/shared.py', 275, 'acquire',
     'return _shared_map.acquire(self._key, constructor_fn, tag)'),
    ('apache_beam/utils/shared.py', 236, 'acquire',
     'result = control_block.acquire(constructor_fn, tag)'),
    ('apache_beam/utils/shared.py', 133, 'acquire', 'result = constructor_fn()'),
    ('apache_beam/ml/inference/base.py', 1819, 'load',
     'model = self._model_handler.load_model()'),
]


def frames(site, spec):
    out = []
    for f in spec:
        if isinstance(f, str):
            out.append("  " + f)
            continue
        path, ln, fn, code = f
        if not path.startswith("/"):
            path = site + "/" + path
        out.append('  File "%s", line %d, in %s' % (path, ln, fn))
        if code:
            out.append("    " + code)
    return out


def beam_setup_tb(site, inner_frames, exc_lines, step, final=None):
    """Two-block traceback printed by the SDK harness for a DoFn.setup failure
    re-raised by DoFnRunner._reraise_augmented."""
    inner = ["Traceback (most recent call last):"] + frames(site, CY_INNER_SETUP + inner_frames) + exc_lines
    if final is None:
        final = exc_lines[-1] + " [while running '%s']" % step
    return inner + outer_block(site, BEAM_OUTER + CY_SETUP, final)


def outer_block(site, outer_frames, final):
    """Second block printed after Beam re-raises the augmented exception.  The
    frames of the original traceback, which Python repeats after
    _reraise_augmented, are elided to keep each export inside the entry budget
    (documented in every truth.yaml `synthetic:`)."""
    return (["", "During handling of the above exception, another exception occurred:", "",
             "Traceback (most recent call last):"]
            + frames(site, outer_frames + [CY_REraise]) + [final])


def emit_traceback(ex, t, vm, sdk, lines, instr, step, site, jm=True):
    """One docker entry per non-empty line (stderr -> ERROR), the whole text in
    the worker log, and (optionally) the job-message 'Error message from worker'."""
    text = "\n".join(lines)
    for i, ln in enumerate(lines):
        if ln.strip():
            ex.docker(t + 0.0013 * i, vm, ln, "ERROR")
    ex.wk(t + 0.1, vm, sdk, "Error processing instruction %s. Original traceback is\n%s\n" % (instr, text),
          "ERROR", src=("apache_beam/runners/worker/sdk_worker.py", 318), site=site,
          thread="Thread-%d" % (12 + len(instr) % 7))
    if jm:
        ex.jm(t + 2.1, "Error message from worker: " + text, "ERROR")


def sdk_startup(ex, t, vm, sdk, site, opts, full=True, port=None):
    port = port or 40000 + ex.rng.randint(1000, 20000)
    rows = [
        ("Logging handler created.", ("apache_beam/runners/worker/sdk_worker_main.py", 112), "INFO"),
        ("semi_persistent_directory: /var/opt/google", ("apache_beam/runners/worker/sdk_worker_main.py", 170), "INFO"),
        ("Status HTTP server running at localhost:%d" % port, ("apache_beam/runners/worker/worker_status.py", 164), "INFO"),
        ("Discarding unparseable args: ['--direct_runner_use_stacked_bundle', '--pipeline_type_check']",
         ("apache_beam/options/pipeline_options.py", 373), "WARNING"),
        ("Python sdk harness started with pipeline_options: " + opts, ("apache_beam/runners/worker/sdk_worker_main.py", 136), "INFO"),
        ("Creating state cache with size 0", ("apache_beam/runners/worker/statecache.py", 234), "INFO"),
        ("Creating insecure control channel for localhost:12371.", ("apache_beam/runners/worker/sdk_worker.py", 189), "INFO"),
        ("Control channel established.", ("apache_beam/runners/worker/sdk_worker.py", 197), "INFO"),
        ("Initializing SDKHarness with unbounded number of workers.", ("apache_beam/runners/worker/sdk_worker.py", 240), "INFO"),
        ("Creating insecure state channel for localhost:12371.", ("apache_beam/runners/worker/sdk_worker.py", 902), "INFO"),
        ("State channel established.", ("apache_beam/runners/worker/sdk_worker.py", 909), "INFO"),
        ("Creating client data channel for localhost:12371", ("apache_beam/runners/worker/data_plane.py", 770), "INFO"),
    ]
    if not full:
        rows = [rows[4], rows[7]]
    for i, (msg, src, sev) in enumerate(rows):
        ex.wk(t + 0.05 * i, vm, sdk, msg, sev, src=src, site=site)


def vm_boot(ex, t, vm, gpu_driver=True, driver="570.172.08", light=False):
    ex.system(t, vm, "ima: No architecture policies found")
    if not light:
        ex.system(t + 0.2, vm, "ima: Can not allocate sha384 (reason: -2)")
    ex.kubelet(t + 8.1, vm, 'E%s    1118 plugins.go:616] "Error initializing dynamic plugin prober" '
               'err="error (re-)creating driver directory: mkdir /usr/libexec/kubernetes: read-only file system"'
               % _klogts(ex, t + 8.1), "ERROR")
    if not light:
        ex.kubelet(t + 8.9, vm, 'E%s    1118 kubelet.go:2412] "Skipping pod synchronization" '
                   'err="container runtime status check may not have completed yet"' % _klogts(ex, t + 8.9), "ERROR")
    ex.wstartup(t + 11.0, vm, "Error running LookupEffectiveGuestPolicies", "ERROR")
    if gpu_driver:
        for i, line in enumerate([
                "Getting the latest GPU driver version",
                "Installing GPU driver version %s" % driver,
                "Loading gpu-key to secondary system keyring",
                "Successfully load key gpu-key into secondary system keyring.",
                "Verifying GPU driver installation",
                "Finished installing the drivers."]):
            ex.system(t + 14 + 9 * i, vm, line)


def _klogts(ex, t):
    d = ex.t0 + timedelta(seconds=t)
    return d.strftime("%m%d %H:%M:%S.") + "%06d" % d.microsecond


def jm_start(ex, t, machine, nworkers=1, maxw=None):
    ex.jm(t, "Worker configuration: %s in %s." % (machine, ex.zone))
    ex.jm(t + 0.9, "Expanding SplittableParDo operations into optimizable parts.")
    ex.jm(t + 1.0, "Fusing adjacent ParDo, Read, Write, and Flatten operations")
    ex.jm(t + 1.4, "Workflow config is missing a default resource spec.", "DEBUG")
    ex.jm(t + 2.2, "Starting worker pool setup.", "DEBUG")
    ex.jm(t + 2.9, "Starting %d workers in %s..." % (nworkers, ex.zone))
    if maxw:
        ex.jm(t + 3.3, "Autoscaling is enabled for job %s. The number of workers will be between 1 and %d."
              % (ex.job_id, maxw))


def jm_teardown(ex, t, nfrom=1):
    ex.jm(t, "Cleaning up.")
    ex.jm(t + 0.4, "Starting worker pool teardown.", "DEBUG")
    ex.jm(t + 0.6, "Stopping worker pool...")
    ex.jm(t + 151.0, "Autoscaling: Resized worker pool from %d to 0." % nfrom)
    ex.jm(t + 151.2, "Worker pool stopped.")
    ex.jm(t + 151.9, "Tearing down pending resources...", "DEBUG")


def jm_fail4(ex, t, stage, root_cause, vms):
    causes = "".join("\n      Root cause: %s\n      Worker ID: %s," % (root_cause, v) for v in vms)
    ex.jm(t, "Workflow failed. Causes: %s failed., The job failed because a work item has failed 4 times. "
          "Look in previous log entries for the cause of each one of the 4 failures. If the logs only "
          "contain generic timeout errors related to accessing external resources, such as MongoDB, "
          "verify that the worker service account has permission to access the resource's subnetwork. "
          "For more information, see https://cloud.google.com/dataflow/docs/guides/common-errors. "
          "The work item was attempted on these workers: \n%s" % (stage, causes), "ERROR")


def opts_str(d):
    return "{" + ", ".join("%r: %r" % (k, v) for k, v in d.items()) + "}"


def base_opts(ex, machine, accel, image, extra=None, experiments=None):
    o = {
        "runner": "DataflowRunner",
        "project": ex.project_id,
        "region": ex.region,
        "job_name": ex.job_name,
        "temp_location": "gs://%s-dataflow/tmp" % ex.project_id,
        "staging_location": "gs://%s-dataflow/staging" % ex.project_id,
        "machine_type": machine,
        "disk_size_gb": 200,
        "sdk_container_image": image,
        "sdk_location": "container",
        "experiments": experiments or ["use_runner_v2", "beam_fn_api", "use_unified_worker",
                                       "use_portable_job_submission"],
        "dataflow_service_options": [accel] if accel else [],
        "save_main_session": True,
        "no_use_public_ips": True,
        "subnetwork": "regions/%s/subnetworks/dataflow-%s" % (ex.region, ex.region),
    }
    if extra:
        o.update(extra)
    return opts_str(o)


# ================================================================ hs5-01
def build_01():
    ex = Export(1, "orbit-support-ml", "731942086514", "ticket-summarize-vllm-l4-nightly",
                "us-central1", "us-central1-a", datetime(2026, 11, 18, 11, 12, 45, tzinfo=timezone.utc))
    site = SITE311
    vm = ex.vm("w0")
    img = "us-central1-docker.pkg.dev/orbit-support-ml/dataflow/vllm-l4:v0.10.1.1-beam2.66.0"
    opts = base_opts(ex, "g2-standard-4", "worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver:latest", img)
    jm_start(ex, 0, "g2-standard-4", 1)
    vm_boot(ex, 70, vm, gpu_driver=False, light=True)
    sdks = ["sdk-0-%d" % i for i in range(4)]
    sdk_startup(ex, 185, vm, sdks[0], site, opts)
    ex.jm(201, "Workers have started successfully.")
    ex.jm(203, "Executing operation ReadTickets/Read+ReadTickets/_PassThroughThenCleanup/ParDo(PassThrough)+"
               "BuildPrompt+EmbedTicket/BeamML_RunInference_Preprocess-0+EmbedTicket/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+"
               "EmbedTicket/BeamML_RunInference+Summarize/BeamML_RunInference+WriteSummaries/Write")
    # embedding model loaded on the GPU in every SDK process (the real memory consumer)
    for i, s in enumerate(sdks):
        ex.wk(215 + 1.3 * i, vm, s, "Loading state_dict_path gs://orbit-support-models/minilm-l12-v2/state_dict.pt onto a cuda device",
              src=("apache_beam/ml/inference/pytorch_inference.py", 96), site=site, thread="Thread-14",
              step="EmbedTicket/BeamML_RunInference")
    vsrc = ("apache_beam/ml/inference/vllm_inference.py", 71)
    vstep = "Summarize/BeamML_RunInference"

    def relay(t, s, lines):
        for i, ln in enumerate(lines):
            ex.wk(t + 0.4 * i, vm, s, ln, "INFO", src=vsrc, site=site, thread="Thread-31", step=vstep)

    def server_attempt(t, s, apipid, corepid, full):
        port = 41000 + ex.rng.randint(100, 900)
        ex.wk(t, vm, s, "Starting service with ['python' '-m' 'vllm.entrypoints.openai.api_server' '--model' "
                        "'Qwen/Qwen2.5-7B-Instruct' '--port' '%d']" % port,
              src=("apache_beam/ml/inference/vllm_inference.py", 58), site=site, thread="Thread-31", step=vstep)
        hh = (ex.t0 + timedelta(seconds=t)).strftime("%m-%d %H:%M:%S")
        A = "(APIServer pid=%d) " % apipid
        E = "(EngineCore_DP0 pid=%d) " % corepid
        vp = site + "/vllm"
        head = [
            A + "INFO %s [api_server.py:1805] vLLM API server version 0.10.1.1" % hh,
            A + "INFO %s [utils.py:326] non-default args: {'port': %d, 'model': 'Qwen/Qwen2.5-7B-Instruct'}" % (hh, port),
        ]
        mid = [
            E + "INFO %s [core.py:74] Initializing a V1 LLM engine (v0.10.1.1) with config: model='Qwen/Qwen2.5-7B-Instruct', "
                "speculative_config=None, tokenizer='Qwen/Qwen2.5-7B-Instruct', skip_tokenizer_init=False, tokenizer_mode=auto, "
                "revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=32768, download_dir=None, "
                "load_format=auto, tensor_parallel_size=1, pipeline_parallel_size=1, quantization=None, enforce_eager=False, "
                "kv_cache_dtype=auto, device_config=cuda, seed=0, served_model_name=Qwen/Qwen2.5-7B-Instruct, "
                "enable_prefix_caching=True, chunked_prefill_enabled=True" % hh,
        ]
        err = "ValueError: Free memory on device (%s/22.05 GiB) on startup is less than desired GPU memory " \
              "utilization (0.9, 19.84 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes." \
              % ex.rng.choice(["14.71", "14.68", "14.74", "14.66"])
        P = E + "ERROR %s [core.py:700] " % hh
        core_tb = [
            P + "EngineCore failed to start.",
            P + "Traceback (most recent call last):",
            P + '  File "%s/v1/engine/core.py", line 691, in run_engine_core' % vp,
            P + "    engine_core = EngineCoreProc(*args, **kwargs)",
            P + '  File "%s/v1/engine/core.py", line 80, in __init__' % vp,
            P + "    self.model_executor = executor_class(vllm_config)",
            P + '  File "%s/executor/uniproc_executor.py", line 54, in _init_executor' % vp,
            P + '    self.collective_rpc("init_device")',
            P + '  File "%s/v1/worker/gpu_worker.py", line 180, in init_device' % vp,
            P + "    raise ValueError(",
            P + err,
            E + "Process EngineCore_DP0:",
        ]
        api_tb = [
            A + "Traceback (most recent call last):",
            A + '  File "%s/v1/engine/core_client.py", line 448, in __init__' % vp,
            A + "    with launch_core_engines(vllm_config, executor_class,",
            A + '  File "/usr/local/lib/python3.11/contextlib.py", line 144, in __exit__',
            A + "    next(self.gen)",
            A + '  File "%s/v1/engine/utils.py", line 729, in launch_core_engines' % vp,
            A + "    wait_for_engine_startup(",
            A + '  File "%s/v1/engine/utils.py", line 782, in wait_for_engine_startup' % vp,
            A + '    raise RuntimeError("Engine core initialization failed. "',
            A + "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
        ]
        if full:
            relay(t + 6, s, head + mid + core_tb + api_tb)
        else:
            relay(t + 6, s, [core_tb[-2]])
        return t + 50

    # first Summarize bundle: Beam starts the vLLM server, retries=3 -> 4 server starts
    t = 262
    s = sdks[3]
    t = server_attempt(t, s, 2841, 2990, True)
    for k in range(3):
        t = server_attempt(t + 5, s, 3120 + 160 * k, 3190 + 160 * k, False)
    exc = ("Exception: Failed to start vLLM server, polling process exited with code 1.  Next time a request "
           "is tried, the server will be restarted")
    vinner = RUNINF_LOAD + [
        ("apache_beam/ml/inference/vllm_inference.py", 254, "load_model", "return _VLLMModelServer(self._model_name, self._vllm_server_kwargs)"),
        ("apache_beam/ml/inference/vllm_inference.py", 105, "__init__", "self.start_server()"),
        ("apache_beam/ml/inference/vllm_inference.py", 126, "start_server", "self.check_connectivity(retries)"),
        ("apache_beam/ml/inference/vllm_inference.py", 141, "check_connectivity", "raise Exception("),
    ]
    tb = beam_setup_tb(site, vinner, [exc], vstep)
    emit_traceback(ex, t + 3, vm, s, tb, "process_bundle-4417951872216498061-11", vstep, site)
    # the work item is retried three more times on other SDK processes
    for n, s2 in enumerate([sdks[2], sdks[1], sdks[0]]):
        t2 = t + 60 + 230 * n
        ex.wk(t2, vm, s2, "Starting service with ['python' '-m' 'vllm.entrypoints.openai.api_server' '--model' "
                          "'Qwen/Qwen2.5-7B-Instruct' '--port' '%d']" % (41000 + ex.rng.randint(100, 900)),
              src=("apache_beam/ml/inference/vllm_inference.py", 58), site=site, thread="Thread-31", step=vstep)
        emit_traceback(ex, t2 + 190, vm, s2, tb, "process_bundle-4417951872216498061-%d" % (17 + 4 * n), vstep, site,
                       jm=False)
    tf = t + 60 + 230 * 2 + 200
    jm_fail4(ex, tf, "S02:ReadTickets/Read+BuildPrompt+EmbedTicket/BeamML_RunInference+Summarize/BeamML_RunInference",
             exc + " [while running '%s']" % vstep, [vm])
    jm_teardown(ex, tf + 1)
    return ex


TRUTH_01 = {
    "outcome": "failed",
    "family": "LLM engine (vLLM) / GPU memory contention between pipeline steps",
    "root_cause": (
        "The pipeline fuses a PyTorch embedding step (PytorchModelHandlerTensor, device=GPU) and a vLLM "
        "summarisation step (Beam VLLMCompletionsModelHandler) on one g2-standard-4 worker. Dataflow starts one "
        "SDK process per vCPU (4), and every one of them loads the embedding model onto the single L4 before the "
        "vLLM step runs. When Beam starts the vLLM OpenAI server as a subprocess, its engine core asks for the "
        "default gpu_memory_utilization=0.9 (19.84 GiB of 22.05 GiB) but only ~14.7 GiB is still free, so vLLM's "
        "startup guard raises 'Free memory on device ... is less than desired GPU memory utilization'. That cause "
        "is only visible in the server output that Beam relays line by line at INFO; the loud ERROR is Beam's "
        "generic 'Failed to start vLLM server, polling process exited with code 1'. Fix: run the embedding model on "
        "CPU or share one copy (model_copies/large_model), lower vLLM gpu_memory_utilization via vllm_server_kwargs, "
        "or split the steps / limit SDK processes (--experiments=no_use_multiple_sdk_containers)."),
    "setup": {"gpu": "1 x NVIDIA L4 (nvidia-l4)", "machine": "g2-standard-4", "python": "3.11",
              "beam": "2.66.0", "stack": "vLLM 0.10.1.1 (V1 engine) via Beam VLLMCompletionsModelHandler; torch embedding model",
              "region": "us-central1 (us-central1-a)"},
    "evidence": [
        "INFO worker (relayed by vllm_inference.py): (EngineCore_DP0 pid=2990) ERROR ... [core.py:700] ValueError: Free memory on device (14.xx/22.05 GiB) on startup is less than desired GPU memory utilization (0.9, 19.84 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.",
        "INFO worker x4 (sdk-0-0..sdk-0-3): Loading state_dict_path gs://orbit-support-models/minilm-l12-v2/state_dict.pt onto a cuda device",
        "INFO worker: (APIServer pid=2841) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
        "ERROR docker/worker/job-message: Exception: Failed to start vLLM server, polling process exited with code 1.  Next time a request is tried, the server will be restarted [while running 'Summarize/BeamML_RunInference']",
    ],
    "red_herrings": [
        "The ERROR-level Beam exception names only the exit code; the reason is in INFO lines.",
        "'RuntimeError: Engine core initialization failed. See root cause above' is a wrapper, not the cause.",
        "Benign kubelet 'Error initializing dynamic plugin prober' / 'Skipping pod synchronization' ERRORs and 'Error running LookupEffectiveGuestPolicies'.",
        "'Discarding unparseable args' WARNING in every SDK process.",
    ],
    "sources": [
        "apache/beam:sdks/python/apache_beam/ml/inference/vllm_inference.py (start_process: logging.info('Starting service with %s', ...); log_stdout relays each subprocess line with logging.info; 'Failed to start vLLM server, polling process exited with code %s.  Next time a request is tried, the server will be restarted')",
        "apache/beam:sdks/python/apache_beam/ml/inference/pytorch_inference.py ('Loading state_dict_path %s onto a %s device', 'Finished loading PyTorch model.')",
        "https://github.com/vllm-project/vllm/issues/25837 (V1 EngineCore traceback frames core.py run_engine_core / executor_base / uniproc_executor / worker_base.py init_device / gpu_worker.py init_device raise ValueError; 'Free memory on device (3.22/4.0 GiB) on startup is less than desired GPU memory utilization (0.9, 3.6 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.'; 'Process EngineCore_DP0:')",
        "https://github.com/vllm-project/vllm/issues/33297 and pytorch/pytorch#175666 (same ValueError on a 22.05 GiB L4-class GPU: '(0.9, 19.84 GiB)')",
        "https://github.com/vllm-project/vllm/issues/23176 and #25837 (APIServer frames core_client.py launch_core_engines / utils.py wait_for_engine_startup; 'RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}')",
        "https://github.com/vllm-project/vllm/issues/19002 and ovg-project/kvcached#29 ('vLLM API server version', 'non-default args: {...}', 'Chunked prefill is enabled with max_num_batched_tokens=2048.', 'Waiting for init message from front-end.', 'Initializing a V1 LLM engine (v...) with config: ...')",
        "vllm-project/vllm:vllm/v1/engine/core.py ('EngineCore failed to start.')",
        SRC_LIFECYCLE, SRC_WORKFAIL, SRC_HARNESS, SRC_SDKWORKER, SRC_REraise, SRC_BENIGN, SRC_COSGPU, SRC_SHAPE,
    ],
    "synthetic": SYN_COMMON + [
        "Model names, bucket paths, pids, ports, free-memory figures and vLLM log-line source line numbers are invented; the vLLM 0.10.1.1 version label is assumed.",
        "That Beam's relayed vLLM lines land in the worker log at INFO with the requesting SDK process's portability_worker_id is inferred from vllm_inference.py (logging.info) rather than observed in a Dataflow export.",
        "The vllm_server_kwargs argument in the load_model frame and the exact frame list of Beam's vLLM handler are reconstructed.",
        "The later work-item attempts show only Beam's 'Starting service with' line (the relayed server output of those attempts is left out); abbreviated server start attempts (retries) show a subset of the lines a real run would relay; the relayed EngineCore traceback omits the executor_base/worker_base frames; the Beam frames show one start_server/check_connectivity level instead of the retry recursion.",
    ],
}


# ================================================================ hs5-02
def build_02():
    ex = Export(2, "catalog-ai-prod", "204877311905", "catalog-attr-extract-qwen3-a100",
                "europe-west4", "europe-west4-a", datetime(2026, 11, 20, 8, 41, 3, tzinfo=timezone.utc))
    site = SITE310
    vm = ex.vm("w0")
    img = "europe-west4-docker.pkg.dev/catalog-ai-prod/beam/hf-gpu:2024-11-py310"
    opts = base_opts(ex, "a2-ultragpu-1g", "worker_accelerator=type:nvidia-a100-80gb;count:1;install-nvidia-driver:latest",
                     img, extra={"number_of_worker_harness_threads": 1},
                     experiments=["use_runner_v2", "beam_fn_api", "no_use_multiple_sdk_containers"])
    jm_start(ex, 0, "a2-ultragpu-1g", 1)
    vm_boot(ex, 82, vm, driver="570.172.08")
    s = "sdk-0-0"
    sdk_startup(ex, 210, vm, s, site, opts)
    ex.jm(224, "Workers have started successfully.")
    ex.jm(226, "Executing operation ReadProducts/Read+ReadProducts/_PassThroughThenCleanup/ParDo(PassThrough)+"
               "ToPrompt+ExtractAttributes/BeamML_RunInference_Preprocess-0+ExtractAttributes/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+"
               "ExtractAttributes/BeamML_RunInference+ParseJson+WriteAttributes/WriteToBigQuery")
    step = "ExtractAttributes/BeamML_RunInference"
    ex.wk(238, vm, s, "runtime: torch 2.5.1+cu124 transformers 4.46.3 huggingface_hub 0.26.2 cuda_available=True device=NVIDIA A100-SXM4-80GB",
          src=("catalog_pipeline/runtime_info.py", 22), site=site, thread="Thread-9", step=step)
    ex.docker(241, vm, "Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed. Falling back to regular "
                       "HTTP download. For better performance, install the package with: `pip install huggingface_hub[hf_xet]` "
                       "or `pip install hf_xet`", "ERROR")
    ex.docker(242, vm, "config.json: 100%|██████████| 728/728 [00:00<00:00, 5.21MB/s]", "ERROR")
    cfg = site + "/transformers/models/auto/configuration_auto.py"
    inner = RUNINF_LOAD + [
        ("apache_beam/ml/inference/huggingface_inference.py", 717, "load_model",
         "return pipeline(task=self._task, model=self._model, **self._load_pipeline_args)"),
        ("transformers/pipelines/__init__.py", 849, "pipeline", "config = AutoConfig.from_pretrained("),
        ("transformers/models/auto/configuration_auto.py", 1038, "from_pretrained",
         'config_class = CONFIG_MAPPING[config_dict["model_type"]]'),
        ("transformers/models/auto/configuration_auto.py", 740, "__getitem__", "raise KeyError(key)"),
    ]
    exc_a = ["KeyError: 'qwen3'", "", "During handling of the above exception, another exception occurred:", "",
             "Traceback (most recent call last):"]
    inner2 = [("transformers/models/auto/configuration_auto.py", 1040, "from_pretrained", "raise ValueError(")]
    msg = ("ValueError: The checkpoint you are trying to load has model type `qwen3` but Transformers does not recognize "
           "this architecture. This could be because of an issue with the checkpoint, or because your version of "
           "Transformers is out of date.")
    # inner chain: KeyError -> ValueError (implicit chaining inside transformers), then Beam re-raise
    first = (["Traceback (most recent call last):"] + frames(site, inner[-2:]) + exc_a
             + frames(site, CY_INNER_SETUP + inner[:-2] + inner2) + [msg])
    outer = outer_block(site, BEAM_OUTER + CY_SETUP, msg + " [while running '%s']" % step)
    tb = first + outer
    t = 246
    for n in range(4):
        if n:
            ex.docker(t - 4, vm, "config.json: 100%|██████████| 728/728 [00:00<00:00, 4.87MB/s]", "ERROR")
        emit_traceback(ex, t, vm, s, tb, "process_bundle-7730125519807734412-%d" % (3 + 2 * n), step, site,
                       jm=(n in (0, 3)))
        t += 41
    jm_fail4(ex, t + 2, "S03:ReadProducts/Read+ToPrompt+ExtractAttributes/BeamML_RunInference+ParseJson",
             msg + " [while running '%s']" % step, [vm])
    jm_teardown(ex, t + 3)
    return ex


TRUTH_02 = {
    "outcome": "failed",
    "family": "Hugging Face model files / transformers version too old for the model architecture",
    "root_cause": (
        "The team switched the RunInference HuggingFacePipelineModelHandler to Qwen/Qwen3-8B but kept the "
        "custom container built in Nov 2024, which pins transformers 4.46.3. Qwen3 (model_type 'qwen3') was "
        "added to transformers in 4.51, so AutoConfig cannot map the checkpoint's model_type: CONFIG_MAPPING "
        "raises KeyError: 'qwen3' and transformers turns it into the ValueError 'model type `qwen3` but "
        "Transformers does not recognize this architecture ... or because your version of Transformers is out "
        "of date'. The GPU, driver and Hub download are fine. The evidence that the library is the problem is "
        "the KeyError in the middle of a chained traceback plus the INFO runtime line 'transformers 4.46.3'. "
        "Fix: rebuild the image with transformers>=4.51 (and a matching torch/accelerate) or pin the model to "
        "an architecture the installed version supports."),
    "setup": {"gpu": "1 x NVIDIA A100 80GB (nvidia-a100-80gb)", "machine": "a2-ultragpu-1g", "python": "3.10",
              "beam": "2.61.0", "stack": "transformers 4.46.3 pipeline via Beam HuggingFacePipelineModelHandler, torch 2.5.1+cu124",
              "region": "europe-west4 (europe-west4-a)"},
    "evidence": [
        "ERROR docker (one line of a chained traceback): KeyError: 'qwen3'",
        "ERROR docker/worker/job-message: ValueError: The checkpoint you are trying to load has model type `qwen3` but Transformers does not recognize this architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is out of date. [while running 'ExtractAttributes/BeamML_RunInference']",
        "INFO worker: runtime: torch 2.5.1+cu124 transformers 4.46.3 huggingface_hub 0.26.2 cuda_available=True device=NVIDIA A100-SXM4-80GB",
    ],
    "red_herrings": [
        "'Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed' and tqdm progress bars arrive on stderr at ERROR but are harmless.",
        "The message offers 'an issue with the checkpoint' as an alternative explanation; the checkpoint is fine.",
        "GPU/driver lines are healthy (driver install finished, cuda_available=True).",
    ],
    "sources": [
        "huggingface/transformers:src/transformers/models/auto/configuration_auto.py (CONFIG_MAPPING lookup raising KeyError, re-raised as ValueError 'The checkpoint you are trying to load has model type `...` but Transformers does not recognize this architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is out of date.')",
        "public notes quoting the real error for qwen3: 'KeyError: 'qwen3'' followed by 'ValueError: The checkpoint you are trying to load has model type `qwen3` but Transformers does not recognize this architecture.' (find_string id 53253192850; also michaelfeil/infinity issue #642 referenced there); gemma4 variant with the full 'out of date' sentence (find_string id 52460464300)",
        "huggingface/huggingface_hub:src/huggingface_hub/file_download.py ('Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed. Falling back to regular HTTP download. For better performance, install the package with: `pip install huggingface_hub[hf_xet]` or `pip install hf_xet`')",
        "apache/beam:sdks/python/apache_beam/ml/inference/huggingface_inference.py (HuggingFacePipelineModelHandler.load_model -> transformers.pipeline(task=..., model=...))",
        SRC_LIFECYCLE, SRC_WORKFAIL, SRC_HARNESS, SRC_SDKWORKER, SRC_REraise, SRC_BENIGN, SRC_COSGPU, SRC_SHAPE,
    ],
    "synthetic": SYN_COMMON + [
        "The 'runtime: torch ... transformers 4.46.3 ...' line is the team's own logging (invented).",
        "transformers frame line numbers (849, 1038, 740, 1040) are approximate for 4.46.x.",
        "tqdm 'config.json: 100%|...' progress lines are composed in tqdm's standard format.",
    ],
}


# ================================================================ hs5-03
def build_03():
    ex = Export(3, "vidsearch-prod", "558120934771", "video-embed-rightfit-batch",
                "us-central1", "us-central1-b", datetime(2026, 11, 22, 2, 5, 19, tzinfo=timezone.utc))
    site = SITE311
    cpu_vms = [ex.vm("c%d" % i) for i in range(3)]
    img = "us-central1-docker.pkg.dev/vidsearch-prod/beam/clip-embed:py311-b2.67.0"
    opts = base_opts(ex, "n2-standard-8", None, img,
                     experiments=["use_runner_v2", "beam_fn_api"])
    ex.jm(0, "Worker configuration: n2-standard-8 in us-central1-b.")
    ex.jm(0.9, "Expanding SplittableParDo operations into optimizable parts.")
    ex.jm(1.0, "Fusing adjacent ParDo, Read, Write, and Flatten operations")
    ex.jm(2.2, "Starting worker pool setup.", "DEBUG")
    ex.jm(2.9, "Starting 3 workers in us-central1-b...")
    for i, v in enumerate(cpu_vms):
        vm_boot(ex, 55 + 4 * i, v, gpu_driver=False)
        sdk_startup(ex, 140 + 5 * i, v, "sdk-0-0", site, opts, full=(i == 0))
    ex.jm(166, "Workers have started successfully.")
    ex.jm(168, "Executing operation ListClips/Read+ListClips/_PassThroughThenCleanup/ParDo(PassThrough)+DecodeFrames+"
               "SampleKeyframes+GroupFramesByClip/Write")
    step = "DecodeFrames"
    t = 180
    for k in range(18):
        v = cpu_vms[k % 3]
        clip = "gs://vidsearch-raw/2026/11/21/clip_%04d.mp4" % (311 + k)
        ex.docker(t, v, "ffmpeg version 6.1.1-3ubuntu5 Copyright (c) 2000-2023 the FFmpeg developers", "ERROR")
        ex.docker(t + 0.01, v, "  built with gcc 13 (Ubuntu 13.2.0-23ubuntu3)", "ERROR")
        ex.wk(t + 3.5, v, "sdk-0-0", "decoded %d frames from %s" % (ex.rng.randint(1400, 2600), clip), "INFO",
              src=("vidsearch/decode.py", 88), site=site, thread="Thread-17", step=step)
        t += 11
    ex.wk(262, cpu_vms[1], "sdk-0-0",
          "Retry with exponential backoff: waiting for 3.8461231 seconds before retrying _uncached_gcs_file_copy because "
          "we caught exception: google.api_core.exceptions.ServiceUnavailable: 503 POST https://storage.googleapis.com/"
          "storage/v1/b/vidsearch-tmp/o/frames%%2Fclip_0318%%2F000.npy/rewriteTo/b/vidsearch-tmp/o/frames%%2Fclip_0318%%2Fdone.npy: "
          "We encountered an internal error. Please try again.\n Traceback for above exception (most recent call last):\n"
          "  File \"%s/apache_beam/utils/retry.py\", line 298, in wrapper\n    return fun(*args, **kwargs)\n" % site,
          "WARNING", src=("apache_beam/utils/retry.py", 306), site=site, thread="Thread-17", step=step)
    ex.jm(380, "Finished operation ListClips/Read+ListClips/_PassThroughThenCleanup/ParDo(PassThrough)+DecodeFrames+"
               "SampleKeyframes+GroupFramesByClip/Write")
    ex.jm(382, "Worker configuration: a2-ultragpu-1g in us-central1-b.")
    ex.jm(383, "Starting worker pool setup.", "DEBUG")
    ex.jm(384, "Starting 1 workers in us-central1-b...")
    ex.jm(431, "Workflow failed. Causes: One or more operations had an error: 'operation-1763777538114-6441bd6c1c0d9-"
               "b0a9e1c3-4d2f7a10': [UNSUPPORTED_OPERATION] '12 vCpus with 174080 MiB memory is an invalid configuration "
               "for 2 count of 'nvidia-a100-80gb' in family 'a2'.'.", "ERROR")
    ex.jm(432, "Cleaning up.")
    ex.jm(432.4, "Starting worker pool teardown.", "DEBUG")
    ex.jm(432.6, "Stopping worker pool...")
    # CPU workers keep logging until they are torn down
    for i, v in enumerate(cpu_vms):
        ex.wk(440 + i, v, "sdk-0-0", "No more requests from control plane", src=("apache_beam/runners/worker/sdk_worker.py", 277), site=site)
        ex.wk(440.2 + i, v, "sdk-0-0", "SDK Harness waiting for in-flight requests to complete",
              src=("apache_beam/runners/worker/sdk_worker.py", 278), site=site)
        ex.wk(440.5 + i, v, "sdk-0-0", "Done consuming work.", src=("apache_beam/runners/worker/sdk_worker.py", 290), site=site)
    ex.jm(585, "Autoscaling: Resized worker pool from 3 to 0.")
    ex.jm(585.2, "Worker pool stopped.")
    ex.jm(585.9, "Tearing down pending resources...", "DEBUG")
    return ex


TRUTH_03 = {
    "outcome": "failed",
    "family": "GPU capacity/machine shape: right-fitting accelerator hint incompatible with machine type",
    "root_cause": (
        "The pipeline uses right fitting: CPU decoding runs on n2-standard-8 workers and the embedding step "
        "carries a resource hint accelerator='type:nvidia-a100-80gb;count:2;machine_type:a2-ultragpu-1g;"
        "install-nvidia-driver'. a2-ultragpu-1g is a fixed 1-GPU shape (12 vCPU, 170 GB), so when Dataflow "
        "creates the GPU worker pool Compute Engine rejects it with UNSUPPORTED_OPERATION '12 vCpus with "
        "174080 MiB memory is an invalid configuration for 2 count of 'nvidia-a100-80gb' in family 'a2''. "
        "The only statement of the cause is that one job-message; no GPU worker ever starts, so there are no "
        "GPU worker logs, and the CPU workers' logs contain only harmless noise. Fix: use count:1 with "
        "a2-ultragpu-1g or request a2-ultragpu-2g for two GPUs."),
    "setup": {"gpu": "requested 2 x NVIDIA A100 80GB (never provisioned)", "machine": "n2-standard-8 (CPU pool) + a2-ultragpu-1g hint (GPU pool)",
              "python": "3.11", "beam": "2.67.0", "stack": "right fitting (per-transform resource hints), CLIP embedding step",
              "region": "us-central1 (us-central1-b)"},
    "evidence": [
        "ERROR job-message: Workflow failed. Causes: One or more operations had an error: 'operation-...': [UNSUPPORTED_OPERATION] '12 vCpus with 174080 MiB memory is an invalid configuration for 2 count of 'nvidia-a100-80gb' in family 'a2'.'.",
        "INFO job-message: Worker configuration: a2-ultragpu-1g in us-central1-b. (second pool, right after the CPU stage finished)",
    ],
    "red_herrings": [
        "ffmpeg banner lines on stderr are stored at ERROR severity.",
        "A Beam 'Retry with exponential backoff ... ServiceUnavailable: 503' WARNING on a GCS copy that later succeeded.",
        "Benign kubelet/system/worker-startup ERRORs on the CPU workers.",
        "No GPU/driver lines at all: the GPU pool never existed, this is not a driver problem.",
    ],
    "sources": [
        "Dataflow right-fitting page, template quoted in reference section 2g (g2): 'Workflow failed. Causes: One or more operations had an error: 'operation-OPERATION_ID': [UNSUPPORTED_OPERATION] 'NUMBER vCpus with NUMBER MiB memory is an invalid configuration for NUMBER count of 'GPU_TYPE' in family 'MACHINE_TYPE'.'.' and the hint grammar accelerator=\"type:GPU_TYPE;count:GPU_COUNT;machine_type:MACHINE_TYPE;CONFIGURATION_OPTIONS\"",
        "https://github.com/tensorflow/tfx/issues/3927 ('Finished operation ...' job message)",
        "apache/beam:sdks/python/apache_beam/runners/worker/sdk_worker.py ('No more requests from control plane', 'SDK Harness waiting for in-flight requests to complete', 'Done consuming work.')",
        "find_string id 24690725751 (real 'Retry with exponential backoff: waiting for ... seconds before retrying _uncached_gcs_file_copy because we caught exception: ... Traceback for above exception (most recent call last):' with retry.py line 298 wrapper)",
        SRC_RETRY, SRC_LIFECYCLE, SRC_HARNESS, SRC_BENIGN, SRC_SHAPE,
    ],
    "synthetic": SYN_COMMON + [
        "The UNSUPPORTED_OPERATION line is the docs template [V-tmpl] filled with values (12 vCPUs, 174080 MiB, 2, nvidia-a100-80gb, a2); the operation id is invented.",
        "The second 'Worker configuration'/'Starting 1 workers' pair for the right-fitted GPU pool is inferred; no public right-fitting job log was found.",
        "ffmpeg banner wording, the decode log line and the 503 exception text are invented in their usual formats.",
    ],
}


# ================================================================ hs5-04
def build_04():
    ex = Export(4, "docflow-analytics", "912044387160", "doc-classify-l4-nightly",
                "us-east1", "us-east1-c", datetime(2026, 11, 24, 6, 0, 11, tzinfo=timezone.utc))
    site = SITE311
    vm = ex.vm("w0")
    img = "us-east1-docker.pkg.dev/docflow-analytics/beam/doc-classify:torch2.5.1-cu124-b2.64.0"
    opts = base_opts(ex, "g2-standard-4", "worker_accelerator=type:nvidia-l4;count:1", img)
    jm_start(ex, 0, "g2-standard-4", 1, maxw=1)
    vm_boot(ex, 66, vm, gpu_driver=False)
    sdks = ["sdk-0-%d" % i for i in range(4)]
    sdk_startup(ex, 150, vm, sdks[0], site, opts)
    for i, s in enumerate(sdks[1:]):
        sdk_startup(ex, 151 + 0.6 * i, vm, s, site, opts, full=False)
    ex.jm(166, "Workers have started successfully.")
    ex.jm(168, "Executing operation ReadDocs/Read+ReadDocs/_PassThroughThenCleanup/ParDo(PassThrough)+Tokenize+"
               "Classify/BeamML_RunInference_Preprocess-0+Classify/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+"
               "Classify/BeamML_RunInference+Classify/BeamML_RunInference_Postprocess-0+WriteLabels/WriteToBigQuery")
    step = "Classify/BeamML_RunInference"
    for i, s in enumerate(sdks):
        t = 181 + 2.2 * i
        ex.docker(t, vm, "%s/torch/cuda/__init__.py:129: UserWarning: CUDA initialization: Found no NVIDIA driver on your "
                         "system. Please check that you have an NVIDIA GPU and installed a driver from "
                         "http://www.nvidia.com/Download/index.aspx (Triggered internally at "
                         "/pytorch/c10/cuda/CUDAFunctions.cpp:109.)" % site, "ERROR")
        ex.docker(t + 0.001, vm, "  return torch._C._cuda_getDeviceCount() > 0", "ERROR")
        ex.wk(t + 0.2, vm, s, "Model handler specified a 'GPU' device, but GPUs are not available. Switching to CPU.",
              "WARNING", src=("apache_beam/ml/inference/pytorch_inference.py", 92), site=site, thread="Thread-15", step=step)
        ex.wk(t + 0.4, vm, s, "Loading state_dict_path gs://docflow-models/deberta-v3-doctype/v12/state_dict.pt onto a cpu device",
              src=("apache_beam/ml/inference/pytorch_inference.py", 96), site=site, thread="Thread-15", step=step)
        ex.wk(t + 9.6, vm, s, "Finished loading PyTorch model.",
              src=("apache_beam/ml/inference/pytorch_inference.py", 110), site=site, thread="Thread-15", step=step)
    # slow CPU inference: lull warnings and progress
    t = 500
    for k in range(27):
        s = sdks[k % 4]
        ex.wk(t, vm, s, "classified batch of 32 documents in %.1f s" % (41 + ex.rng.random() * 18),
              src=("docflow/classify.py", 74), site=site, thread="Thread-15", step="Classify/BeamML_RunInference_Postprocess-0")
        if k % 5 == 2:
            ex.wk(t + 7, vm, s,
                  "Operation ongoing for over %.2f seconds in state process-msecs in step "
                  "ref_AppliedPTransform_Classify-BeamML_RunInference_14  without returning. Current Traceback:\n"
                  "  File \"/usr/local/lib/python3.11/threading.py\", line 1002, in _bootstrap\n    self._bootstrap_inner()\n\n"
                  "  File \"%s/torch/nn/modules/linear.py\", line 125, in forward\n    return F.linear(input, self.weight, self.bias)\n"
                  % (300 + ex.rng.random() * 200, site),
                  "WARNING", src=("apache_beam/runners/worker/sdk_worker.py", 753), site=site, thread="Thread-4")
        t += 410
    done = t + 60
    ex.jm(done, "Finished operation ReadDocs/Read+ReadDocs/_PassThroughThenCleanup/ParDo(PassThrough)+Tokenize+"
                "Classify/BeamML_RunInference_Preprocess-0+Classify/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+"
                "Classify/BeamML_RunInference+Classify/BeamML_RunInference_Postprocess-0+WriteLabels/WriteToBigQuery")
    ex.jm(done + 2, "Executing operation WriteLabels/WriteToBigQuery/BigQueryBatchFileLoads/TriggerLoadJobsWithoutTempTables")
    ex.jm(done + 95, "Finished operation WriteLabels/WriteToBigQuery/BigQueryBatchFileLoads/TriggerLoadJobsWithoutTempTables")
    for i, s in enumerate(sdks):
        ex.wk(done + 110 + i, vm, s, "No more requests from control plane", src=("apache_beam/runners/worker/sdk_worker.py", 277), site=site)
        ex.wk(done + 110.5 + i, vm, s, "Done consuming work.", src=("apache_beam/runners/worker/sdk_worker.py", 290), site=site)
    jm_teardown(ex, done + 100)
    return ex


TRUTH_04 = {
    "outcome": "succeeded_on_cpu",
    "family": "GPU driver not installed (worker_accelerator without install-nvidia-driver) -> silent CPU fallback",
    "root_cause": (
        "The job asked for an L4 with --dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1 but "
        "left out the install-nvidia-driver token, so Dataflow attached the GPU without installing the NVIDIA "
        "driver. PyTorch therefore found no driver (CUDA initialization UserWarning on stderr), "
        "torch.cuda.is_available() returned False, and Beam's PytorchModelHandlerTensor(device='GPU') logged "
        "'Model handler specified a 'GPU' device, but GPUs are not available. Switching to CPU.' and loaded the "
        "model on CPU. The job finished successfully but ran ~3 h on CPU (lull warnings, 40-60 s per batch) "
        "while paying for the GPU. The evidence is a WARNING plus the options dump; there is no driver-install "
        "output in the system log. Fix: add ;install-nvidia-driver (or install-nvidia-driver:latest/5xx) to "
        "worker_accelerator."),
    "setup": {"gpu": "1 x NVIDIA L4 attached, driver not installed", "machine": "g2-standard-4", "python": "3.11",
              "beam": "2.64.0", "stack": "PyTorch 2.5.1+cu124 via Beam PytorchModelHandlerTensor(device='GPU')",
              "region": "us-east1 (us-east1-c)"},
    "evidence": [
        "INFO worker: Python sdk harness started with pipeline_options: {... 'dataflow_service_options': ['worker_accelerator=type:nvidia-l4;count:1'] ...} (no install-nvidia-driver)",
        "WARNING worker x4: Model handler specified a 'GPU' device, but GPUs are not available. Switching to CPU.",
        "INFO worker x4: Loading state_dict_path gs://docflow-models/deberta-v3-doctype/v12/state_dict.pt onto a cpu device",
        "ERROR docker x4: .../torch/cuda/__init__.py:129: UserWarning: CUDA initialization: Found no NVIDIA driver on your system. ...",
        "absence: no 'Installing GPU driver version ...' / 'Finished installing the drivers.' lines in the system log (present in the other GPU cases of this set)",
    ],
    "red_herrings": [
        "The job state is success and the final job messages are the normal teardown sequence.",
        "'Operation ongoing for over N seconds ... without returning' WARNINGs look like a stuck step; they are the symptom of CPU inference, not a hang.",
        "Benign kubelet/system/worker-startup ERROR lines.",
    ],
    "sources": [
        "apache/beam:sdks/python/apache_beam/ml/inference/pytorch_inference.py (_load_model: logging.warning(\"Model handler specified a 'GPU' device, but GPUs are not available. Switching to CPU.\"); 'Loading state_dict_path %s onto a %s device'; 'Finished loading PyTorch model.')",
        "real torch warning text 'UserWarning: CUDA initialization: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx (Triggered internally at ... c10/cuda/CUDAFunctions.cpp:100.)' followed by '  return torch._C._cuda_getDeviceCount() > 0' (several public logs, find_string ids 22075032420, 48079643441)",
        "Dataflow GPU docs quoted in reference section 2e/2g: worker_accelerator=type:GPU_TYPE;count:GPU_COUNT;install-nvidia-driver; 'To use NVIDIA GPUs with Dataflow, set the install-nvidia-driver configuration option'",
        SRC_SDKWORKER, SRC_LIFECYCLE, SRC_HARNESS, SRC_BENIGN, SRC_SHAPE,
    ],
    "synthetic": SYN_COMMON + [
        "torch/cuda/__init__.py:129 and CUDAFunctions.cpp:109 line numbers are adapted to torch 2.5 (public copies show :52 and :100 from torch 1.x).",
        "The per-batch timing line is the team's own logging (invented); lull-warning stack frames are invented.",
    ],
}


# ================================================================ hs5-05
def build_05():
    ex = Export(5, "payguard-risk", "340918275563", "fraud-gnn-scoring-daily",
                "us-central1", "us-central1-f", datetime(2026, 11, 25, 13, 30, 2, tzinfo=timezone.utc))
    site = SITE312
    vm = ex.vm("w0")
    img = "apache/beam_python3.12_sdk:2.65.0"
    opts = base_opts(ex, "a2-highgpu-1g", "worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver:latest",
                     img, extra={"requirements_file": "requirements.txt", "sdk_location": "default"},
                     experiments=["use_runner_v2", "beam_fn_api", "no_use_multiple_sdk_containers"])
    jm_start(ex, 0, "a2-highgpu-1g", 1)
    vm_boot(ex, 74, vm, driver="570.172.08")
    ex.docker(150, vm, "Installing setup packages ...", "INFO")
    ex.docker(201, vm, "Successfully installed filelock-3.18.0 fsspec-2025.3.2 mpmath-1.3.0 networkx-3.4.2 "
                       "nvidia-cublas-cu12-12.4.5.8 nvidia-cuda-runtime-cu12-12.4.127 nvidia-cudnn-cu12-9.1.0.70 "
                       "nvidia-nccl-cu12-2.21.5 sympy-1.13.1 torch-2.6.0 torch-geometric-2.6.1 triton-3.2.0", "INFO")
    ex.docker(203, vm, "Executing: python -m apache_beam.runners.worker.sdk_worker_main", "INFO")
    s = "sdk-0-0"
    sdk_startup(ex, 206, vm, s, site, opts)
    ex.jm(219, "Workers have started successfully.")
    ex.jm(221, "Executing operation ReadTransactions/Read+ReadTransactions/_PassThroughThenCleanup/ParDo(PassThrough)+"
               "BuildGraphs+ScoreTransactions+WriteScores/WriteToBigQuery")
    step = "ScoreTransactions"
    ex.wk(233, vm, s, "downloading gs://payguard-models/gnn/v7/model.pt to /tmp/model.pt (412.6 MiB)",
          src=("fraudscore/dofns.py", 49), site=site, thread="Thread-11", step=step)
    ex.wk(239, vm, s, "using device cuda:0 (NVIDIA A100-SXM4-40GB), torch 2.6.0+cu124",
          src=("fraudscore/dofns.py", 55), site=site, thread="Thread-11", step=step)
    user = [("fraudscore/dofns.py", 58, "setup", "ckpt = torch.load(self.local_path, map_location=self.device)"),
            ("torch/serialization.py", 1470, "load", "raise pickle.UnpicklingError(_get_wo_message(str(e))) from None")]
    wo = [
        "_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only if you trust the source of the checkpoint. ",
        "\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.",
        "\t(2) Alternatively, to load with `weights_only=True` please check the recommended steps in the following error message.",
        "\tWeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. Please use `torch.serialization.add_safe_globals([scalar])` or the `torch.serialization.safe_globals([scalar])` context manager to allowlist this global if you trust this class/function.",
        "",
        "Check the documentation of torch.load to learn more about types accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.",
    ]
    wrap = [("fraudscore/dofns.py", 61, "setup",
             'raise RuntimeError(f"could not load scoring checkpoint {self.ckpt_uri}") from e')]
    rt = "RuntimeError: could not load scoring checkpoint gs://payguard-models/gnn/v7/model.pt"
    tb = (["Traceback (most recent call last):"] + frames(site, user) + wo
          + ["", "The above exception was the direct cause of the following exception:", "",
             "Traceback (most recent call last):"] + frames(site, CY_INNER_SETUP + wrap) + [rt]
          + outer_block(site, BEAM_OUTER + CY_SETUP, rt + " [while running '%s']" % step))
    t = 243
    for n in range(4):
        if n:
            ex.wk(t - 9, vm, s, "downloading gs://payguard-models/gnn/v7/model.pt to /tmp/model.pt (412.6 MiB)",
                  src=("fraudscore/dofns.py", 49), site=site, thread="Thread-%d" % (11 + n), step=step)
        emit_traceback(ex, t, vm, s, tb, "process_bundle-1209986417550021375-%d" % (2 + 3 * n), step, site,
                       jm=(n in (0, 3)))
        t += 37
    jm_fail4(ex, t + 1, "S01:ReadTransactions/Read+BuildGraphs+ScoreTransactions+WriteScores/WriteToBigQuery",
             rt + " [while running '%s']" % step, [vm])
    jm_teardown(ex, t + 2)
    return ex


TRUTH_05 = {
    "outcome": "failed",
    "family": "PyTorch 2.x upgrade: torch.load weights_only default flipped in 2.6",
    "root_cause": (
        "requirements.txt says torch>=2.3 without an upper bound, so the worker boot installed torch 2.6.0. "
        "PyTorch 2.6 changed torch.load's default to weights_only=True, and the team's checkpoint (saved with "
        "metrics held as NumPy scalars) contains the global numpy._core.multiarray.scalar, which the "
        "weights-only unpickler refuses. The DoFn wraps the failure as 'RuntimeError: could not load scoring "
        "checkpoint gs://...', so the job-message and the last traceback line show only the wrapper; the real "
        "reason is the earlier chained _pickle.UnpicklingError ('Weights only load failed ... In PyTorch 2.6, "
        "we changed the default value of the `weights_only` argument ... Unsupported global: GLOBAL "
        "numpy._core.multiarray.scalar'). Fix: pin torch<2.6 or load with weights_only=False for this trusted "
        "file / allowlist the NumPy globals with torch.serialization.add_safe_globals, and re-save as a plain "
        "state_dict."),
    "setup": {"gpu": "1 x NVIDIA A100 40GB (nvidia-tesla-a100)", "machine": "a2-highgpu-1g", "python": "3.12",
              "beam": "2.65.0", "stack": "PyTorch 2.6.0+cu124 + torch-geometric in a custom DoFn, default Beam container + requirements_file",
              "region": "us-central1 (us-central1-f)"},
    "evidence": [
        "ERROR docker: _pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only if you trust the source of the checkpoint.",
        "ERROR docker: \t(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. ...",
        "ERROR docker: \tWeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ...",
        "ERROR docker: The above exception was the direct cause of the following exception:",
        "INFO docker: Successfully installed ... torch-2.6.0 torch-geometric-2.6.1 triton-3.2.0",
        "ERROR job-message: ... RuntimeError: could not load scoring checkpoint gs://payguard-models/gnn/v7/model.pt [while running 'ScoreTransactions']",
    ],
    "red_herrings": [
        "The top-level exception and 'Root cause' in the Workflow failed message name only the wrapper RuntimeError.",
        "The GPU is healthy ('using device cuda:0 (NVIDIA A100-SXM4-40GB)').",
        "Benign kubelet/system/worker-startup ERROR lines; 'Discarding unparseable args' WARNING.",
    ],
    "sources": [
        "pytorch/pytorch:torch/serialization.py (load: 'raise pickle.UnpicklingError(_get_wo_message(str(e))) from None')",
        "public tracebacks of torch 2.6 with the full message ('Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only if you trust the source of the checkpoint.', '(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument...', '(2) Alternatively, to load with `weights_only=True` ...', 'WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. Please use `torch.serialization.add_safe_globals([scalar])` or ...', 'serialization.py, line 1470, in load'): find_string ids 35860273931, 10143154988, 70911402852",
        "https://github.com/mlcommons/mlperf-automations/issues/465 ('Check the documentation of torch.load to learn more about types accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.')",
        "Beam Python container boot strings quoted in reference section 2f (f5): 'Installing setup packages ...'; custom-container doc 'Executing: python -m apache_beam.runners.worker.sdk_worker_main'",
        SRC_LIFECYCLE, SRC_WORKFAIL, SRC_HARNESS, SRC_SDKWORKER, SRC_REraise, SRC_BENIGN, SRC_COSGPU, SRC_SHAPE,
    ],
    "synthetic": SYN_COMMON + [
        "The fraudscore DoFn, its log lines, the wrapper RuntimeError text and the checkpoint path are invented.",
        "The pip 'Successfully installed' package list is composed (format real, versions chosen to match torch 2.6.0/cu124) and its placement in the docker log at INFO is inferred.",
    ],
}


# ================================================================ hs5-06
def build_06():
    ex = Export(6, "fab-vision-eu", "677402918356", "defect-detect-trt-l4",
                "europe-west4", "europe-west4-b", datetime(2026, 11, 19, 9, 12, 40, tzinfo=timezone.utc))
    site = SITE310
    vm = ex.vm("w0")
    img = "europe-west4-docker.pkg.dev/fab-vision-eu/beam/trt-infer:trt8.6.1-b2.60.0"
    opts = base_opts(ex, "g2-standard-4", "worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver:5xx", img)
    jm_start(ex, 0, "g2-standard-4", 1, maxw=4)
    vm_boot(ex, 68, vm, driver="570.172.08")
    sdks = ["sdk-0-%d" % i for i in range(4)]
    sdk_startup(ex, 171, vm, sdks[0], site, opts)
    for i, s in enumerate(sdks[1:]):
        sdk_startup(ex, 172 + 0.6 * i, vm, s, site, opts, full=False)
    for i, s in enumerate(sdks):
        ex.wk(176 + 0.5 * i, vm, s, "tensorrt module successfully imported.",
              src=("apache_beam/ml/inference/tensorrt_inference.py", 44), site=site)
    ex.jm(187, "Workers have started successfully.")
    ex.jm(189, "Executing operation ReadImages/Read+DecodeResize+DetectDefects/BeamML_RunInference_Preprocess-0+"
               "DetectDefects/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+DetectDefects/BeamML_RunInference+"
               "FormatAlerts+WriteAlerts/Write")
    step = "DetectDefects/BeamML_RunInference"
    inner = RUNINF_LOAD + [
        ("apache_beam/ml/inference/tensorrt_inference.py", 258, "load_model", "engine = _load_engine(self.engine_path)"),
        ("apache_beam/ml/inference/tensorrt_inference.py", 59, "_load_engine", "assert engine"),
    ]
    tb = beam_setup_tb(site, inner, ["AssertionError"], step,
                       final="RuntimeError: AssertionError [while running '%s']" % step)

    def trt_lines(t, when):
        stamp = (ex.t0 + timedelta(seconds=when)).strftime("[%m/%d/%Y-%H:%M:%S]")
        rows = [
            "%s [TRT] [I] [MemUsageChange] Init CUDA: CPU +2, GPU +0, now: CPU 389, GPU 371 (MiB)" % stamp,
            "%s [TRT] [I] Loaded engine size: 94 MiB" % stamp,
            "%s [TRT] [E] 6: The engine plan file is generated on an incompatible device, expecting compute 8.9 "
            "got compute 9.0, please rebuild." % stamp,
            "%s [TRT] [E] 2: [engine.cpp::deserializeEngine::951] Error Code 2: Internal Error (Assertion "
            "engine->deserialize(start, size, allocator, runtime) failed. )" % stamp,
        ]
        for i, r in enumerate(rows):
            ex.docker(t + 0.02 * i, vm, r, "ERROR")

    t = 203
    order = [sdks[0], sdks[2], sdks[1], sdks[3]]
    for n, s in enumerate(order):
        ex.wk(t - 1.5, vm, s, "Loading engine gs://fab-vision-models/defect-yolo/v5/engine_fp16_bs16.plan",
              src=("fabvision/handlers.py", 31), site=site, thread="Thread-13", step=step)
        trt_lines(t, t)
        emit_traceback(ex, t + 0.4, vm, s, tb, "process_bundle-2650091377420986613-%d" % (4 + 5 * n), step, site,
                       jm=(n in (0, 3)))
        t += 34
    jm_fail4(ex, t + 1, "S02:ReadImages/Read+DecodeResize+DetectDefects/BeamML_RunInference+FormatAlerts",
             "RuntimeError: AssertionError [while running '%s']" % step, [vm])
    jm_teardown(ex, t + 2)
    return ex


TRUTH_06 = {
    "outcome": "failed",
    "family": "Inference runtime (TensorRT): engine plan built for a different GPU architecture",
    "root_cause": (
        "The serialized TensorRT engine (engine_fp16_bs16.plan) was built in CI on an H100 (compute capability "
        "9.0) and deployed to Dataflow workers with an L4 (compute capability 8.9). TensorRT plans are specific to "
        "the GPU architecture, so deserializeCudaEngine fails: TensorRT's logger prints '[TRT] [E] 6: The engine "
        "plan file is generated on an incompatible device, expecting compute 8.9 got compute 9.0, please "
        "rebuild.' on stderr and returns None. Beam's TensorRTEngineHandlerNumPy then hits its bare 'assert "
        "engine', which _reraise_augmented turns into the opaque 'RuntimeError: AssertionError [while running "
        "...]' that the job-message and 'Root cause' show. Fix: build the plan on an L4 (or with a "
        "hardware-compatibility level / per-SM builds) and load the plan matching the worker GPU."),
    "setup": {"gpu": "1 x NVIDIA L4 (nvidia-l4)", "machine": "g2-standard-4", "python": "3.10", "beam": "2.60.0",
              "stack": "TensorRT 8.6.1 via Beam TensorRTEngineHandlerNumPy", "region": "europe-west4 (europe-west4-b)"},
    "evidence": [
        "ERROR docker: [TRT] [E] 6: The engine plan file is generated on an incompatible device, expecting compute 8.9 got compute 9.0, please rebuild.",
        "ERROR docker: [TRT] [E] 2: [engine.cpp::deserializeEngine::951] Error Code 2: Internal Error (Assertion engine->deserialize(start, size, allocator, runtime) failed. )",
        "ERROR docker/worker: File \".../apache_beam/ml/inference/tensorrt_inference.py\", line 59, in _load_engine / assert engine / AssertionError",
        "ERROR job-message: RuntimeError: AssertionError [while running 'DetectDefects/BeamML_RunInference']",
    ],
    "red_herrings": [
        "The final exception has no message at all (bare AssertionError wrapped by Beam).",
        "'[TRT] [I] ...' info lines are written to stderr and stored at ERROR.",
        "'tensorrt module successfully imported.' and a finished driver install suggest a healthy stack.",
    ],
    "sources": [
        "apache/beam:sdks/python/apache_beam/ml/inference/tensorrt_inference.py (TRT_LOGGER = trt.Logger(trt.Logger.INFO); LOGGER.info('tensorrt module successfully imported.'); _load_engine: engine = runtime.deserialize_cuda_engine(file.read()); assert engine)",
        "real TensorRT output when running an A100-built plan on an A10: '[E] Error[6]: The engine plan file is generated on an incompatible device, expecting compute 8.6 got compute 8.0, please rebuild.' and '[E] Error[2]: [engine.cpp::deserializeEngine::951] Error Code 2: Internal Error (Assertion engine->deserialize(start, size, allocator, runtime) failed. )' (find_string id 7268546247); '[E] 6: The engine plan file is generated on an incompatible device, expecting compute 7.0 got compute 8.0, please rebuild.' (find_string id 11511884288); 'expecting compute 10.0 got compute 9.0' (find_string id 69260393297)",
        "apache/beam:sdks/python/apache_beam/runners/common.py _reraise_augmented (exception without args -> RuntimeError(format_exception_only(...)[-1].strip() + step_annotation))",
        SRC_LIFECYCLE, SRC_WORKFAIL, SRC_HARNESS, SRC_SDKWORKER, SRC_BENIGN, SRC_COSGPU, SRC_SHAPE,
    ],
    "synthetic": SYN_COMMON + [
        "The '[MM/DD/YYYY-HH:MM:SS] [TRT] [I]/[E]' prefix follows TensorRT's Python logger format; the two [I] lines and their numbers are composed.",
        "The 'Loading engine gs://...' line is the team's own logging; engine path invented.",
    ],
}


# ================================================================ hs5-07
def build_07():
    ex = Export(7, "helix-bio-compute", "128830475519", "protein-embed-jax-h100",
                "us-central1", "us-central1-a", datetime(2026, 11, 26, 17, 4, 50, tzinfo=timezone.utc))
    site = SITE311
    vm = ex.vm("w0")
    img = "us-central1-docker.pkg.dev/helix-bio-compute/beam/esm-jax:cuda12.6.3-cudnn-runtime-jax0.7.1-b2.67.0"
    opts = base_opts(ex, "a3-highgpu-1g", "worker_accelerator=type:nvidia-h100-80gb;count:1;install-nvidia-driver:latest",
                     img, extra={"number_of_worker_harness_threads": 1},
                     experiments=["use_runner_v2", "beam_fn_api", "no_use_multiple_sdk_containers"])
    jm_start(ex, 0, "a3-highgpu-1g", 1)
    vm_boot(ex, 90, vm, driver="570.172.08")
    s = "sdk-0-0"
    sdk_startup(ex, 236, vm, s, site, opts)
    ex.jm(252, "Workers have started successfully.")
    ex.jm(254, "Executing operation ReadSequences/Read+ReadSequences/_PassThroughThenCleanup/ParDo(PassThrough)+"
               "BatchSequences/ParDo(_GlobalWindowsBatchingDoFn)+EmbedSequences+WriteEmbeddings/Write")
    step = "EmbedSequences"
    ex.wk(266, vm, s, "jax 0.7.1 backend=gpu devices=[CudaDevice(id=0)] (NVIDIA H100 80GB HBM3)",
          src=("helixembed/dofns.py", 38), site=site, thread="Thread-10", step=step)
    ex.wk(275, vm, s, "loaded ESM-2 650M params from gs://helix-models/esm2_650m/flax/ (1.30 GiB)",
          src=("helixembed/dofns.py", 52), site=site, thread="Thread-10", step=step)
    ptx_locs = ", ".join([
        "./cuda_sdk_lib/bin/ptxas",
        site + "/jax_plugins/xla_cuda12/cuda/bin/ptxas",
        site + "/jax_plugins/xla_cuda12/../nvidia/cuda_nvcc/bin/ptxas",
        "/usr/local/cuda/bin/ptxas", "/usr/local/sbin/ptxas", "/usr/local/bin/ptxas", "/usr/sbin/ptxas",
        "/usr/bin/ptxas", "/sbin/ptxas", "/bin/ptxas", "/opt/cuda/bin/ptxas"])
    head = ("jax.errors.JaxRuntimeError: UNAVAILABLE: No PTX compilation provider is available. Neither ptxas/nvlink "
            "nor nvjtlink is available. As a fallback you can enable JIT compilation in the CUDA driver via the flag "
            "`--xla_gpu_unsafe_fallback_to_driver_on_ptxas_not_found`. Details: ")
    details = [
        " - Has NvJitLink support: LibNvJitLink is not supported (disabled during compilation).",
        " - Has NvPtxCompiler support: LibNvPtxCompiler is not supported (disabled during compilation).",
        " - Parallel compilation support is desired: 0",
        " - ptxas_path: Couldn't find a suitable version of ptxas. The following locations were considered: " + ptx_locs,
        " - ptxas_version: Couldn't find a suitable version of ptxas. The following locations were considered: " + ptx_locs,
    ]
    user = [("helixembed/dofns.py", 81, "process", "emb = self._embed(self.params, tokens)")]
    inner = (["Traceback (most recent call last):"] + frames(site, CY_INNER_PROC + user) + [head] + details
             + ["--------------------",
                "For simplicity, JAX has removed its internal frames from the traceback of the following exception. "
                "Set JAX_TRACEBACK_FILTERING=off to include these."])
    final_lines = [head] + details[:-1] + [details[-1] + " [while running '%s']" % step]
    outer = outer_block(site, BEAM_OUTER_PROC, final_lines[0])[:-1] + final_lines
    tb = inner + outer
    t = 290
    for n in range(4):
        ex.wk(t - 6, vm, s, "embedding batch of 64 sequences (max_len=1022)", src=("helixembed/dofns.py", 79),
              site=site, thread="Thread-%d" % (10 + n), step=step)
        emit_traceback(ex, t, vm, s, tb, "process_bundle-8851203349672210934-%d" % (5 + 2 * n), step, site)
        t += 29
    jm_fail4(ex, t + 1, "S02:ReadSequences/Read+BatchSequences/ParDo(_GlobalWindowsBatchingDoFn)+EmbedSequences+WriteEmbeddings/Write",
             head.split(". Neither")[0] + "... [while running '%s']" % step, [vm])
    jm_teardown(ex, t + 2)
    return ex


TRUTH_07 = {
    "outcome": "failed",
    "family": "JAX/XLA: CUDA compiler tools (ptxas/nvlink) missing from the container",
    "root_cause": (
        "The container is built FROM an NVIDIA CUDA *runtime* base image (cuda 12.6.3 cudnn runtime) and installs "
        "jax[cuda12_local], i.e. JAX that relies on the locally installed CUDA toolkit instead of the pip "
        "nvidia-* wheels. Runtime images ship no ptxas/nvlink and this jaxlib build has no NvJitLink/NvPtxCompiler "
        "library support, so XLA cannot turn its generated PTX into GPU code. jax.devices() only needs the driver, so "
        "the H100 is detected and the parameters load, and the failure appears at the first jitted call as "
        "'No PTX compilation provider is available'. The decisive detail ('ptxas_path: Couldn't find a suitable "
        "version of ptxas. The following locations were considered: ... /usr/local/cuda/bin/ptxas ...') sits in "
        "continuation lines of a multi-line message that the docker log splits into separate entries. Fix: use "
        "jax[cuda12] (pip CUDA wheels incl. nvidia-cuda-nvcc) or a -devel base image that contains ptxas/nvlink."),
    "setup": {"gpu": "1 x NVIDIA H100 80GB (nvidia-h100-80gb)", "machine": "a3-highgpu-1g", "python": "3.11",
              "beam": "2.67.0", "stack": "JAX 0.7.1 jax[cuda12_local] + Flax ESM-2 in a custom DoFn; nvidia/cuda 12.6.3 cudnn runtime base",
              "region": "us-central1 (us-central1-a)"},
    "evidence": [
        "ERROR docker: jax.errors.JaxRuntimeError: UNAVAILABLE: No PTX compilation provider is available. Neither ptxas/nvlink nor nvjtlink is available. ...",
        "ERROR docker: - ptxas_path: Couldn't find a suitable version of ptxas. The following locations were considered: ./cuda_sdk_lib/bin/ptxas, .../jax_plugins/xla_cuda12/..., /usr/local/cuda/bin/ptxas, ...",
        "ERROR docker: - Has NvJitLink support: LibNvJitLink is not supported (disabled during compilation).",
        "INFO worker: Python sdk harness started with pipeline_options: {... 'sdk_container_image': '...esm-jax:cuda12.6.3-cudnn-runtime-jax0.7.1-b2.67.0' ...}",
    ],
    "red_herrings": [
        "INFO 'jax 0.7.1 backend=gpu devices=[CudaDevice(id=0)]' shows the GPU is visible: this is not a driver or device problem.",
        "The message suggests --xla_gpu_unsafe_fallback_to_driver_on_ptxas_not_found; that is a workaround, not the cause.",
        "JAX's 'For simplicity, JAX has removed its internal frames ...' footer.",
        "Benign kubelet/system/worker-startup ERROR lines.",
    ],
    "sources": [
        "openxla/xla source (stream_executor cuda compilation provider selection): 'No PTX compilation provider is available. Neither ptxas/nvlink nor nvjtlink is available. As a fallback you can enable JIT compilation in the CUDA driver via the flag `--xla_gpu_unsafe_fallback_to_driver_on_ptxas_not_found`. Details: \\n' + decision log (find_string id 608790383)",
        "https://github.com/wutzebaer/tensorflow-5090/issues/3 (real decision log: ' - Has NvJitLink support: LibNvJitLink is not supported (disabled during compilation).', ' - Has NvPtxCompiler support: ...', ' - Parallel compilation support is desired: 0', ' - ptxas_path: Couldn't find a suitable version of ptxas. The following locations were considered: ./cuda_sdk_lib/bin/ptxas, ..., /usr/local/cuda/bin/ptxas, /usr/local/sbin/ptxas, ...')",
        "public notes that jax.devices() succeeds on an image with no PTX compiler and the first jitted call fails with 'No PTX compilation provider is available', fixed by a devel base image (find_string ids 61951217166, 62141911451, 33202536497)",
        "JAX traceback filtering footer '--------------------' / 'For simplicity, JAX has removed its internal frames from the traceback of the following exception. Set JAX_TRACEBACK_FILTERING=off to include these.' and the 'jax.errors.JaxRuntimeError: ...' exception name (find_string ids 17315860324, 56732720369)",
        "https://github.com/tensorflow/tfx/issues/4701 (Cython frame lines 'File \"apache_beam/runners/common.py\", line N, in apache_beam.runners.common.DoFnRunner.process' ... '_reraise_augmented')",
        SRC_LIFECYCLE, SRC_WORKFAIL, SRC_HARNESS, SRC_SDKWORKER, SRC_REraise, SRC_BENIGN, SRC_COSGPU, SRC_SHAPE,
    ],
    "synthetic": SYN_COMMON + [
        "The status prefix 'UNAVAILABLE:' is inferred from the absl::UnavailableError in the XLA source.",
        "The ptxas candidate path list is adapted to a jax[cuda12_local] install (jax_plugins/xla_cuda12 paths); 'ptxas_version' and its position are assumed.",
        "helixembed DoFn log lines, model paths and the image tag are invented.",
        "The 'Root cause' in the Workflow failed message is abbreviated.",
    ],
}


# ================================================================ hs5-08
def build_08():
    ex = Export(8, "churnlab-prod", "667015238404", "churn-score-tf-t4-weekly",
                "us-central1", "us-central1-b", datetime(2026, 11, 21, 4, 30, 0, tzinfo=timezone.utc))
    site = SITE311
    vm = ex.vm("w0")
    img = "us-central1-docker.pkg.dev/churnlab-prod/beam/tf-gpu:latest"
    opts = base_opts(ex, "n1-standard-8", "worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver",
                     img, extra={"number_of_worker_harness_threads": 4})
    jm_start(ex, 0, "n1-standard-8", 1, maxw=3)
    vm_boot(ex, 60, vm, driver="570.172.08")
    sdks = ["sdk-0-%d" % i for i in range(8)]
    sdk_startup(ex, 177, vm, sdks[0], site, opts)
    for i, s in enumerate(sdks[1:4]):
        sdk_startup(ex, 178 + 0.5 * i, vm, s, site, opts, full=False)
    ex.jm(192, "Workers have started successfully.")
    ex.jm(194, "Executing operation ReadCustomers/Read+ReadCustomers/_PassThroughThenCleanup/ParDo(PassThrough)+"
               "ToFeatures+ScoreChurn+WriteScores/WriteToBigQuery")
    step = "ScoreChurn"

    def tf_banner(t):
        d = (ex.t0 + timedelta(seconds=t)).strftime("%Y-%m-%d %H:%M:%S.") + "%06d" % ex.rng.randint(0, 999999)
        u = int((ex.t0 + timedelta(seconds=t)).timestamp())
        rows = [
            ("%s: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:477] Unable to register cuFFT factory: "
             "Attempting to register factory for plugin cuFFT when one has already been registered" % d, "ERROR"),
            ("WARNING: All log messages before absl::InitializeLog() is called are written to STDERR", "ERROR"),
            ("E0000 00:00:%d.%06d     %d cuda_dnn.cc:8310] Unable to register cuDNN factory: Attempting to register "
             "factory for plugin cuDNN when one has already been registered" % (u, ex.rng.randint(0, 999999), 412 + int(t) % 90), "ERROR"),
            ("E0000 00:00:%d.%06d     %d cuda_blas.cc:1418] Unable to register cuBLAS factory: Attempting to register "
             "factory for plugin cuBLAS when one has already been registered" % (u, ex.rng.randint(0, 999999), 412 + int(t) % 90), "ERROR"),
            ("%s: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT" % d, "ERROR"),
            ("I0000 00:00:%d.%06d     %d gpu_device.cc:2022] Created device /job:localhost/replica:0/task:0/device:GPU:0 "
             "with 13764 MB memory:  -> device: 0, name: Tesla T4, pci bus id: 0000:00:04.0, compute capability: 7.5"
             % (u + 3, ex.rng.randint(0, 999999), 412 + int(t) % 90), "ERROR"),
        ]
        for i, (r, sev) in enumerate(rows):
            ex.docker(t + 0.05 * i, vm, r, sev)

    kmsg = ("ValueError: File format not supported: filepath=gs://churnlab-models/churn_dnn/v31. Keras 3 only supports "
            "V3 `.keras` files and legacy H5 format files (`.h5` extension). Note that the legacy SavedModel format is "
            "not supported by `load_model()` in Keras 3. In order to reload a TensorFlow SavedModel as an inference-only "
            "layer in Keras 3, use `keras.layers.TFSMLayer(gs://churnlab-models/churn_dnn/v31, call_endpoint='serving_default')` "
            "(note that your `call_endpoint` might have a different name).")
    inner = [("churnlab/dofns.py", 44, "setup", "self.model = tf.keras.models.load_model(self.model_dir)"),
             ("keras/src/saving/saving_api.py", 206, "load_model", "raise ValueError(")]
    tb = (["Traceback (most recent call last):"] + frames(site, CY_INNER_SETUP + inner) + [kmsg]
          + outer_block(site, BEAM_OUTER + CY_SETUP, kmsg + " [while running '%s']" % step))
    t = 206
    order = [sdks[0], sdks[2], sdks[1], sdks[3]]
    for n, s in enumerate(order):
        tf_banner(t)
        ex.wk(t + 4, vm, s, "tensorflow 2.17.1 / keras 3.6.0, loading model from gs://churnlab-models/churn_dnn/v31",
              src=("churnlab/dofns.py", 41), site=site, thread="Thread-%d" % (12 + n), step=step)
        emit_traceback(ex, t + 6, vm, s, tb, "process_bundle-5593012874406112358-%d" % (3 + 4 * n), step, site)
        t += 31
    jm_fail4(ex, t + 1, "S01:ReadCustomers/Read+ToFeatures+ScoreChurn+WriteScores/WriteToBigQuery",
             kmsg + " [while running '%s']" % step, [vm])
    jm_teardown(ex, t + 2)
    return ex


TRUTH_08 = {
    "outcome": "failed",
    "family": "TensorFlow 2.16+ / Keras 3: legacy SavedModel cannot be loaded with tf.keras.models.load_model",
    "root_cause": (
        "The container tag 'tf-gpu:latest' was rebuilt with tensorflow[and-cuda] 2.17.1, whose tf.keras is Keras 3. "
        "The churn model is still a TF2 SavedModel directory written by Keras 2, and Keras 3's load_model only "
        "accepts .keras and .h5 files, so the DoFn's setup raises 'File format not supported ... the legacy "
        "SavedModel format is not supported by `load_model()` in Keras 3'. GPU and CUDA are healthy (TF creates "
        "the T4 device); the cause line is surrounded by TensorFlow's ERROR-level registration/startup chatter "
        "that every SDK process prints. Fix: pin tensorflow<2.16 or set TF_USE_LEGACY_KERAS=1 with tf-keras, or "
        "load the SavedModel with keras.layers.TFSMLayer / tf.saved_model.load, or re-export as .keras."),
    "setup": {"gpu": "1 x NVIDIA T4 (nvidia-tesla-t4)", "machine": "n1-standard-8", "python": "3.11", "beam": "2.62.0",
              "stack": "TensorFlow 2.17.1 (Keras 3.6.0) in a custom DoFn", "region": "us-central1 (us-central1-b)"},
    "evidence": [
        "ERROR docker/worker/job-message: ValueError: File format not supported: filepath=gs://churnlab-models/churn_dnn/v31. Keras 3 only supports V3 `.keras` files and legacy H5 format files (`.h5` extension). Note that the legacy SavedModel format is not supported by `load_model()` in Keras 3. ... [while running 'ScoreChurn']",
        "ERROR docker: File \".../keras/src/saving/saving_api.py\", line 206, in load_model",
        "INFO worker: tensorflow 2.17.1 / keras 3.6.0, loading model from gs://churnlab-models/churn_dnn/v31",
    ],
    "red_herrings": [
        "'Unable to register cuFFT/cuDNN/cuBLAS factory: Attempting to register factory for plugin ... when one has already been registered' at ERROR (harmless, printed by every TF import).",
        "'TF-TRT Warning: Could not find TensorRT' (harmless).",
        "'WARNING: All log messages before absl::InitializeLog() is called are written to STDERR'.",
        "Benign kubelet/system/worker-startup ERROR lines.",
    ],
    "sources": [
        "keras-team/keras:keras/src/saving/saving_api.py (load_model line ~206: raise ValueError(f\"File format not supported: filepath={filepath}. Keras 3 only supports V3 `.keras` files and legacy H5 format files (`.h5` extension). Note that the legacy SavedModel format is not supported by `load_model()` in Keras 3. In order to reload a TensorFlow SavedModel as an inference-only layer in Keras 3, use `keras.layers.TFSMLayer({filepath}, call_endpoint='serving_default')` (note that your `call_endpoint` might have a different name).\")); real tracebacks: find_string ids 71630439995, 70877306490",
        "real TF 2.17/2.18 startup lines 'E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:477] Unable to register cuFFT factory...', 'WARNING: All log messages before absl::InitializeLog() is called are written to STDERR', 'E0000 00:00:... cuda_dnn.cc:8310] Unable to register cuDNN factory...', 'E0000 ... cuda_blas.cc:1418] Unable to register cuBLAS factory...' (find_string ids 66292309652, 6960792002)",
        "real 'W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT' (find_string id 1298337925)",
        "reference section 2i: TF 'Created device /job:localhost/replica:0/task:0/device:GPU:0 with ... MB memory:  -> device: 0, name: ..., pci bus id: ..., compute capability: ...' (absl format) and T4 example from tensorflow/tensorflow#62170",
        SRC_LIFECYCLE, SRC_WORKFAIL, SRC_HARNESS, SRC_SDKWORKER, SRC_REraise, SRC_BENIGN, SRC_COSGPU, SRC_SHAPE,
    ],
    "synthetic": SYN_COMMON + [
        "churnlab DoFn and its log line, model path and image tag are invented; gpu_device.cc:2022 line number and thread ids are approximate.",
    ],
}


# ================================================================ hs5-09
def build_09():
    ex = Export(9, "lexica-llm", "845511209347", "contract-summarize-a100x2-tp",
                "us-central1", "us-central1-c", datetime(2026, 11, 27, 10, 0, 30, tzinfo=timezone.utc))
    site = SITE311
    vm = ex.vm("w0")
    img = "us-central1-docker.pkg.dev/lexica-llm/beam/contract-llm:torch2.7.1-cu126-b2.66.0"
    opts = base_opts(ex, "a2-ultragpu-2g", "worker_accelerator=type:nvidia-a100-80gb;count:2;install-nvidia-driver:latest",
                     img, extra={"number_of_worker_harness_threads": 2})
    jm_start(ex, 0, "a2-ultragpu-2g", 1)
    vm_boot(ex, 85, vm, driver="570.172.08")
    sdk_startup(ex, 222, vm, "sdk-0-0", site, opts)
    for i in range(1, 24, 3):
        sdk_startup(ex, 222.5 + 0.2 * i, vm, "sdk-0-%d" % i, site, opts, full=False)
    ex.jm(241, "Workers have started successfully.")
    ex.jm(243, "Executing operation ReadContracts/Read+ReadContracts/_PassThroughThenCleanup/ParDo(PassThrough)+"
               "ChunkContracts+SummarizeContracts+WriteSummaries/Write")
    step = "SummarizeContracts"
    hh = lambda t: (ex.t0 + timedelta(seconds=t)).strftime("%m%d %H:%M:%S.") + "%09d" % ex.rng.randint(0, 999999999)
    # sdk-0-0 wins the port and works
    ex.wk(255, vm, "sdk-0-0", "init_process_group(backend='nccl', init_method='env://') MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 WORLD_SIZE=1 RANK=0",
          src=("lexica/tp_model.py", 63), site=site, thread="Thread-11", step=step)
    ex.docker(256, vm, "[W%s ProcessGroupNCCL.cpp:981] Warning: TORCH_NCCL_AVOID_RECORD_STREAMS is the default now, this "
                       "environment variable is thus deprecated. (function operator())" % hh(256), "ERROR")
    ex.wk(301, vm, "sdk-0-0", "tensor-parallel shards loaded on cuda:0,cuda:1 (2 x NVIDIA A100-SXM4-80GB) in 44.6 s",
          src=("lexica/tp_model.py", 88), site=site, thread="Thread-11", step=step)
    for k in range(5):
        ex.wk(340 + 37 * k, vm, "sdk-0-0", "summarized batch of 8 contracts in %.1f s" % (28 + ex.rng.random() * 9),
              src=("lexica/dofns.py", 57), site=site, thread="Thread-11", step=step)
    user = [("lexica/dofns.py", 31, "setup", "self.model = load_tp_model(self.ckpt, world_size=1)"),
            ("lexica/tp_model.py", 64, "load_tp_model", 'dist.init_process_group(backend="nccl", init_method="env://")'),
            ("torch/distributed/c10d_logger.py", 81, "wrapper", "return func(*args, **kwargs)"),
            ("torch/distributed/c10d_logger.py", 95, "wrapper", "func_return = func(*args, **kwargs)"),
            ("torch/distributed/distributed_c10d.py", 1710, "init_process_group",
             "store, rank, world_size = next(rendezvous_iterator)"),
            ("torch/distributed/rendezvous.py", 278, "_env_rendezvous_handler", "store = _create_c10d_store("),
            ("torch/distributed/rendezvous.py", 198, "_create_c10d_store", "return TCPStore(")]
    err = ("torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. "
           "port: 29500, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use")
    tb = beam_setup_tb(site, user, [err], step)
    t = 262
    for n, sdk in enumerate(["sdk-0-7", "sdk-0-13", "sdk-0-4", "sdk-0-19"]):
        ex.wk(t - 1, vm, sdk, "init_process_group(backend='nccl', init_method='env://') MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 WORLD_SIZE=1 RANK=0",
              src=("lexica/tp_model.py", 63), site=site, thread="Thread-%d" % (11 + n), step=step)
        ex.docker(t, vm, "[W%s socket.cpp:755] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - "
                         "Address already in use)." % hh(t), "ERROR")
        ex.docker(t + 0.001, vm, "[W%s socket.cpp:755] [c10d] The server socket has failed to bind to 0.0.0.0:29500 "
                                 "(errno: 98 - Address already in use)." % hh(t), "ERROR")
        ex.docker(t + 0.002, vm, "[E%s socket.cpp:793] [c10d] The server socket has failed to listen on any local network "
                                 "address." % hh(t), "ERROR")
        emit_traceback(ex, t + 0.1, vm, sdk, tb, "process_bundle-3318840092711563508-%d" % (9 + 3 * n), step, site)
        t += 61
    jm_fail4(ex, t + 1, "S01:ReadContracts/Read+ChunkContracts+SummarizeContracts+WriteSummaries/Write",
             err + " [while running '%s']" % step, [vm])
    jm_teardown(ex, t + 2)
    return ex


TRUTH_09 = {
    "outcome": "failed",
    "family": "Multi-GPU / torch.distributed rendezvous: fixed MASTER_PORT shared by many SDK processes",
    "root_cause": (
        "The model code calls torch.distributed.init_process_group('nccl', init_method='env://') in DoFn.setup, with "
        "MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 WORLD_SIZE=1 RANK=0 baked into the image. Dataflow's Python Runner "
        "v2 starts one SDK process per vCPU (24 on a2-ultragpu-2g) because the job does not set "
        "no_use_multiple_sdk_containers, and every process that receives the step runs setup. Each process is its own "
        "rank 0 and tries to host the TCPStore on 127.0.0.1:29500; only sdk-0-0 gets the port, all others fail with "
        "DistNetworkError EADDRINUSE. The work item lands on other SDK processes four times and the job fails even "
        "though sdk-0-0 keeps producing summaries. Fix: run one SDK process per worker "
        "(--experiments=no_use_multiple_sdk_containers, or model sharing via large_model/MultiProcessShared), or use "
        "a free port per process (MASTER_PORT=0 / init_method with a unique file or port)."),
    "setup": {"gpu": "2 x NVIDIA A100 80GB (nvidia-a100-80gb)", "machine": "a2-ultragpu-2g", "python": "3.11",
              "beam": "2.66.0", "stack": "PyTorch 2.7.1 torch.distributed (NCCL) tensor-parallel model in a custom DoFn",
              "region": "us-central1 (us-central1-c)"},
    "evidence": [
        "ERROR docker: [W... socket.cpp:755] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).",
        "ERROR docker/worker/job-message (sdk-0-7, sdk-0-13, sdk-0-4, sdk-0-19): torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use [while running 'SummarizeContracts']",
        "INFO worker sdk-0-0 keeps logging 'summarized batch of 8 contracts' (one process owns port 29500)",
        "INFO worker: Python sdk harness started with pipeline_options: {... 'experiments': ['use_runner_v2', 'beam_fn_api', 'use_unified_worker', 'use_portable_job_submission'] ...} (no no_use_multiple_sdk_containers) and many portability_worker_id values sdk-0-0..sdk-0-22",
    ],
    "red_herrings": [
        "The error reads like a network/firewall problem; there is no network involved (127.0.0.1).",
        "'Warning: TORCH_NCCL_AVOID_RECORD_STREAMS is the default now ...' is harmless.",
        "NCCL/GPUs are healthy (sdk-0-0 loads shards on both A100s).",
        "Benign kubelet/system/worker-startup ERROR lines; 'Discarding unparseable args' WARNINGs.",
    ],
    "sources": [
        "pytorch/pytorch:torch/csrc/distributed/c10d/socket.cpp ('The server socket has failed to listen on any local network address.'; SocketListenOp::run) and test_store.py (DistNetworkError '^The server socket has failed to listen on any local .*{port}') (find_string ids 6001945, 25535413)",
        "real torch output 'torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 56065, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use' with frames rendezvous.py _tcp_rendezvous_handler/_create_c10d_store 'return TCPStore(' (find_string id 55904881661)",
        "real c10d warnings '[W socket.cpp:401] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).' / '0.0.0.0:29500' / '[E socket.cpp:435] [c10d] The server socket has failed to listen on any local network address.' (find_string id 23859100826)",
        "real torch 2.x warning '[W127 18:33:23.970348032 ProcessGroupNCCL.cpp:981] Warning: TORCH_NCCL_AVOID_RECORD_STREAMS is the default now, this environment variable is thus deprecated. (function operator())' (find_string id 56025705611)",
        "Dataflow GPU docs via reference section 2b (b1): one SDK process per vCPU on Runner v2 Python; --experiments=no_use_multiple_sdk_containers",
        SRC_LIFECYCLE, SRC_WORKFAIL, SRC_HARNESS, SRC_SDKWORKER, SRC_REraise, SRC_BENIGN, SRC_COSGPU, SRC_SHAPE,
    ],
    "synthetic": SYN_COMMON + [
        "The lexica model code, its log lines and file names are invented; torch frame line numbers are approximate for 2.7.",
        "The c10d log prefix '[W1127 HH:MM:SS.nnnnnnnnn socket.cpp:755]' uses the torch 2.5+ glog-style format with invented line numbers.",
        "Only a subset of the 24 SDK processes' startup lines is included.",
    ],
}


# ================================================================ hs5-10
def build_10():
    ex = Export(10, "voxtera-speech", "590321884716", "asr-whisper-batch-l4-sg",
                "asia-southeast1", "asia-southeast1-b", datetime(2026, 11, 23, 1, 15, 7, tzinfo=timezone.utc))
    vm = ex.vm("w0")
    img = "asia-southeast1-docker.pkg.dev/voxtera-speech/beam/whisper-l4:2026.11.22"
    jm_start(ex, 0, "g2-standard-12", 1)
    vm_boot(ex, 64, vm, driver="570.172.08")
    ex.jm(158, "Workers have started successfully.")
    ex.jm(160, "Executing operation ListAudio/Read+ListAudio/_PassThroughThenCleanup/ParDo(PassThrough)+"
               "Transcribe+WriteTranscripts/Write")
    pod = vm
    uid = "%s-%s-%s-%s-%s" % (_hex(ex.rng, 8), _hex(ex.rng, 4), _hex(ex.rng, 4), _hex(ex.rng, 4), _hex(ex.rng, 12))
    ex.kubelet(150, vm, 'I%s    1118 kuberuntime_manager.go:1046] "Pulling image" image="%s"' % (_klogts(ex, 150), img), "INFO")
    t = 163
    backoff = [10, 20, 40, 80, 160, 300, 300, 300, 300, 300, 300, 300, 300]
    k = 0
    while t < 3620 and k < len(backoff):
        cs = ["sdk-0-%d" % ((k * 5 + j) % 12) for j in range(2)]
        for j, c in enumerate(cs):
            tt = t + 0.3 * j
            ex.hstartup(tt, vm, "exec /opt/apache/beam/boot: exec format error", "ERROR")
            cid = _hex(ex.rng, 64)
            ex.kubelet(tt + 0.8, vm, "[topologymanager] RemoveContainer - Container ID: %s" % cid, "INFO")
            ex.kubelet(tt + 1.1, vm,
                       'E%s    1118 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \\"StartContainer\\" '
                       'for \\"%s\\" with CrashLoopBackOff: \\"back-off %s restarting failed container=%s pod=%s_default(%s)\\"" '
                       'pod="default/%s" podUID="%s"'
                       % (_klogts(ex, tt + 1.1), c, "5m0s" if backoff[k] >= 300 else "%ds" % backoff[k], c, pod, uid, pod, uid),
                       "ERROR")
        t += backoff[k] + 3
        k += 1
    ex.system(1900, vm, "ima: Can not allocate sha384 (reason: -2)")
    tf = 3762
    ex.jm(tf, "Workflow failed. Causes: The Dataflow job appears to be stuck because no worker activity has been seen in the "
              "last 1h. Please check the worker logs in Stackdriver Logging. You can also get help with Cloud Dataflow at "
              "https://cloud.google.com/dataflow/support.", "ERROR")
    jm_teardown(ex, tf + 1)
    return ex


TRUTH_10 = {
    "outcome": "failed",
    "family": "Job's own container image / Beam worker boot: image built for the wrong CPU architecture (arm64)",
    "root_cause": (
        "The custom SDK image was built with 'docker build' on an Apple-silicon laptop and pushed as a linux/arm64-only "
        "image. Dataflow's x86_64 G2 worker pulls it, but every SDK container dies immediately because the kernel cannot "
        "execute the arm64 Beam boot binary: 'exec /opt/apache/beam/boot: exec format error' in harness-startup. Kubelet "
        "restarts the sdk-0-N containers in CrashLoopBackOff, no SDK harness ever connects, and after an hour the service "
        "fails the job with the generic 'no worker activity has been seen in the last 1h' stall message. The cause is "
        "only in harness-startup/kubelet; job-message says 'Workers have started successfully.' and the GPU driver "
        "installed fine. Fix: build/push a linux/amd64 image (docker buildx --platform linux/amd64)."),
    "setup": {"gpu": "1 x NVIDIA L4 (nvidia-l4)", "machine": "g2-standard-12", "python": "3.12 (image, never started)",
              "beam": "2.68.0 (image)", "stack": "custom SDK container for Whisper ASR (never executed)",
              "region": "asia-southeast1 (asia-southeast1-b)"},
    "evidence": [
        "ERROR harness-startup (repeated): exec /opt/apache/beam/boot: exec format error",
        "ERROR kubelet (repeated): \"Error syncing pod, skipping\" err=\"failed to \\\"StartContainer\\\" for \\\"sdk-0-N\\\" with CrashLoopBackOff: \\\"back-off 5m0s restarting failed container=sdk-0-N pod=...\\\"\"",
        "INFO kubelet: [topologymanager] RemoveContainer - Container ID: ... (container exited early)",
        "absence: no 'Python sdk harness started' / no worker-log lines at all",
        "ERROR job-message: Workflow failed. Causes: The Dataflow job appears to be stuck because no worker activity has been seen in the last 1h. ...",
    ],
    "red_herrings": [
        "'Workers have started successfully.' — the VM started, the SDK never did.",
        "GPU driver installation lines succeed; GPU is irrelevant.",
        "The final job message blames a stall, not the image.",
        "Benign kubelet 'Error initializing dynamic plugin prober' and 'Skipping pod synchronization' ERRORs.",
    ],
    "sources": [
        "Dataflow common-errors / custom-container troubleshooting via reference section 2f (f3): 'exec /opt/apache/beam/boot: exec format error' (harness-startup; image built for the wrong CPU arch, e.g. on Apple Silicon)",
        "Dataflow common-errors template via reference section 2f (f2): 'Error syncing pod POD_ID, skipping: [failed to \"StartContainer\" for CONTAINER_NAME with CrashLoopBackOff: \"back-off 5m0s restarting failed container=CONTAINER_NAME pod=POD_NAME]'; real apache/beam#19622 pod naming '<job>-08131110-7hcg-harness-fbm2_default(uid)'; structured form from kubernetes pkg/kubelet/pod_workers.go klog.ErrorS(err, \"Error syncing pod, skipping\", \"pod\", ..., \"podUID\", ...)",
        "Dataflow custom-container docs via reference 2f: INFO-level '[topologymanager] RemoveContainer' in kubelet means a container exited early",
        "apache/beam PR #34381 and google-research/text-to-text-transfer-transformer#986 via reference section 2d: 'Workflow failed. Causes: The Dataflow job appears to be stuck because no worker activity has been seen in the last 1h. Please check the worker logs in Stackdriver Logging. You can also get help with Cloud Dataflow at https://cloud.google.com/dataflow/support.'",
        SRC_LIFECYCLE, SRC_BENIGN, SRC_COSGPU, SRC_SHAPE,
    ],
    "synthetic": SYN_COMMON + [
        "The kubelet 'Pulling image' line, the back-off schedule, container ids, pod UID and the alternation of sdk-0-N container names are invented; klog prefixes and kubelet source line numbers are invented.",
        "The structured (klog.ErrorS) rendering of the CrashLoopBackOff line is composed from the docs template and the kubelet source, not copied from a Dataflow export.",
    ],
}


# ================================================================ hs5-11 (healthy)
def build_11():
    ex = Export(11, "orbit-support-ml", "731942086514", "kb-answer-draft-vllm-h100",
                "us-central1", "us-central1-a", datetime(2026, 11, 28, 3, 40, 12, tzinfo=timezone.utc))
    site = SITE311
    vm = ex.vm("w0")
    img = "us-central1-docker.pkg.dev/orbit-support-ml/dataflow/vllm-h100:v0.6.4.post1-beam2.61.0"
    opts = base_opts(ex, "a3-highgpu-1g", "worker_accelerator=type:nvidia-h100-80gb;count:1;install-nvidia-driver:latest",
                     img, experiments=["use_runner_v2", "beam_fn_api", "no_use_multiple_sdk_containers"],
                     extra={"number_of_worker_harness_threads": 32})
    jm_start(ex, 0, "a3-highgpu-1g", 1)
    vm_boot(ex, 88, vm, driver="570.172.08")
    s = "sdk-0-0"
    sdk_startup(ex, 231, vm, s, site, opts)
    ex.jm(247, "Workers have started successfully.")
    ex.jm(249, "Executing operation ReadQuestions/Read+ReadQuestions/_PassThroughThenCleanup/ParDo(PassThrough)+"
               "BuildPrompts+DraftAnswers/BeamML_RunInference+WriteDrafts/WriteToBigQuery")
    step = "DraftAnswers/BeamML_RunInference"
    vsrc = ("apache_beam/ml/inference/vllm_inference.py", 71)
    port = 41237
    ex.wk(258, vm, s, "Starting service with ['python' '-m' 'vllm.entrypoints.openai.api_server' '--model' "
                      "'Qwen/Qwen2.5-7B-Instruct' '--port' '%d']" % port,
          src=("apache_beam/ml/inference/vllm_inference.py", 58), site=site, thread="Thread-12", step=step)
    hh = lambda t: (ex.t0 + timedelta(seconds=t)).strftime("%m-%d %H:%M:%S")
    rel = [
        (264, "INFO %s api_server.py:585] vLLM API server version 0.6.4.post1" % hh(264)),
        (264, "INFO %s api_server.py:586] args: Namespace(host=None, port=%d, uvicorn_log_level='info', allow_credentials=False, "
              "model='Qwen/Qwen2.5-7B-Instruct', task='auto', tokenizer=None, trust_remote_code=False, download_dir=None, "
              "load_format='auto', dtype='auto', kv_cache_dtype='auto', max_model_len=None, tensor_parallel_size=1, "
              "gpu_memory_utilization=0.9, swap_space=4, cpu_offload_gb=0, enforce_eager=False, max_num_seqs=256, "
              "disable_log_stats=False, disable_log_requests=False)" % (hh(264), port)),
        (270, "WARNING %s _http.py:713] HTTP Error 429 thrown while requesting HEAD https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/resolve/main/config.json" % hh(270)),
        (270, "WARNING %s _http.py:735] Retrying in 1s [Retry 1/5]." % hh(270)),
        (272, "INFO %s config.py:350] This model supports multiple tasks: {'generate', 'embedding'}. Defaulting to 'generate'." % hh(272)),
        (273, "INFO %s llm_engine.py:249] Initializing an LLM engine (v0.6.4.post1) with config: model='Qwen/Qwen2.5-7B-Instruct', "
              "speculative_config=None, tokenizer='Qwen/Qwen2.5-7B-Instruct', skip_tokenizer_init=False, tokenizer_mode=auto, "
              "revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=32768, download_dir=None, "
              "load_format=LoadFormat.AUTO, tensor_parallel_size=1, pipeline_parallel_size=1, quantization=None, "
              "enforce_eager=False, kv_cache_dtype=auto, device_config=cuda, seed=0, served_model_name=Qwen/Qwen2.5-7B-Instruct, "
              "num_scheduler_steps=1, chunked_prefill_enabled=False, use_async_output_proc=True" % hh(273)),
        (281, "INFO %s model_runner.py:1072] Starting to load model Qwen/Qwen2.5-7B-Instruct..." % hh(281)),
        (282, "INFO %s weight_utils.py:243] Using model weights format ['*.safetensors']" % hh(282)),
        (339, "Loading safetensors checkpoint shards: 100% Completed | 4/4 [00:04<00:00,  1.13s/it]"),
        (340, "INFO %s model_runner.py:1077] Loading model weights took 14.2487 GB" % hh(340)),
        (343, "INFO %s worker.py:232] Memory profiling results: total_gpu_memory=79.11GiB initial_memory_usage=14.81GiB "
              "peak_torch_memory=15.62GiB memory_usage_post_profile=15.03GiB non_torch_memory=0.77GiB kv_cache_size=55.58GiB "
              "gpu_memory_utilization=0.90" % hh(343)),
        (343, "INFO %s gpu_executor.py:113] # GPU blocks: 65047, # CPU blocks: 4681" % hh(343)),
        (343, "INFO %s gpu_executor.py:117] Maximum concurrency for 32768 tokens per request: 31.76x" % hh(343)),
        (346, "INFO %s model_runner.py:1400] Capturing cudagraphs for decoding. This may lead to unexpected consequences if "
              "the model is not static. To run the model in eager mode, set 'enforce_eager=True' or use '--enforce-eager' in "
              "the CLI. If out-of-memory error occurs during cudagraph capture, consider decreasing `gpu_memory_utilization` "
              "or switching to eager mode. You can also reduce the `max_num_seqs` as needed to decrease memory usage." % hh(346)),
        (360, "Capturing CUDA graph shapes: 100%|██████████| 35/35 [00:13<00:00,  2.61it/s]"),
        (360, "INFO %s model_runner.py:1528] Graph capturing finished in 14 secs, took 0.43 GiB" % hh(360)),
        (360, "INFO %s llm_engine.py:431] init engine (profile, create kv cache, warmup model) took 19.87 seconds" % hh(360)),
        (362, "INFO:     Started server process [2811]"),
        (362, "INFO:     Waiting for application startup."),
        (362, "INFO:     Application startup complete."),
        (362, "INFO:     Uvicorn running on http://0.0.0.0:%d (Press CTRL+C to quit)" % port),
        (364, 'INFO:     127.0.0.1:53210 - "GET /v1/models HTTP/1.1" 200 OK'),
    ]
    for i, (t, line) in enumerate(rel):
        ex.wk(t + 0.01 * i, vm, s, line, "INFO", src=vsrc, site=site, thread="Thread-40", step=step)
    ex.wk(364.5, vm, s, "models: [Model(id='Qwen/Qwen2.5-7B-Instruct', created=1764301576, object='model', owned_by='vllm', "
                        "root='Qwen/Qwen2.5-7B-Instruct', parent=None, max_model_len=32768, permission=[...])]",
          src=("apache_beam/ml/inference/vllm_inference.py", 120), site=site, thread="Thread-12", step=step)
    for i, ln in enumerate([
            "huggingface/tokenizers: The current process just got forked, after parallelism has already been used. "
            "Disabling parallelism to avoid deadlocks...",
            "To disable this warning, you can either:",
            "\t- Avoid using `tokenizers` before the fork if possible",
            "\t- Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)"]):
        ex.docker(262 + 0.01 * i, vm, ln, "ERROR")
    t = 400
    for k in range(18):
        ex.wk(t, vm, s, "INFO %s metrics.py:449] Avg prompt throughput: %.1f tokens/s, Avg generation throughput: %.1f tokens/s, "
                        "Running: %d reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: %.1f%%, CPU KV cache usage: 0.0%%."
              % (hh(t), 1800 + ex.rng.random() * 900, 600 + ex.rng.random() * 300, ex.rng.randint(18, 60),
                 5 + ex.rng.random() * 12), "INFO", src=vsrc, site=site, thread="Thread-40", step=step)
        ex.wk(t + 2, vm, s, 'INFO:     127.0.0.1:%d - "POST /v1/completions HTTP/1.1" 200 OK' % ex.rng.randint(40000, 60000),
              "INFO", src=vsrc, site=site, thread="Thread-40", step=step)
        if k == 6:
            ex.wk(t + 5, vm, s,
                  "Retry with exponential backoff: waiting for 4.1277368 seconds before retrying _insert_all_rows because we "
                  "caught exception: ConnectionError: ('Connection aborted.', RemoteDisconnected('Remote end closed connection "
                  "without response'))\n Traceback for above exception (most recent call last):\n  File \"%s/apache_beam/utils/"
                  "retry.py\", line 298, in wrapper\n    return fun(*args, **kwargs)\n" % site,
                  "WARNING", src=("apache_beam/utils/retry.py", 306), site=site, thread="Thread-22", step="WriteDrafts/WriteToBigQuery")
        if k in (3, 9):
            ex.wk(t + 7, vm, s, "Got work %s" % ("process_bundle-6613830094520088%03d" % k), "DEBUG",
                  src=("apache_beam/runners/worker/sdk_worker.py", 263), site=site)
        t += 60
    done = t + 30
    ex.jm(done, "Finished operation ReadQuestions/Read+ReadQuestions/_PassThroughThenCleanup/ParDo(PassThrough)+"
                "BuildPrompts+DraftAnswers/BeamML_RunInference+WriteDrafts/WriteToBigQuery")
    ex.wk(done + 20, vm, s, "No more requests from control plane", src=("apache_beam/runners/worker/sdk_worker.py", 277), site=site)
    ex.wk(done + 20.3, vm, s, "SDK Harness waiting for in-flight requests to complete",
          src=("apache_beam/runners/worker/sdk_worker.py", 278), site=site)
    ex.wk(done + 21, vm, s, "Done consuming work.", src=("apache_beam/runners/worker/sdk_worker.py", 290), site=site)
    jm_teardown(ex, done + 10)
    return ex


TRUTH_11 = {
    "outcome": "succeeded",
    "family": "healthy: LLM batch inference (vLLM via Beam) with alarming-but-harmless noise",
    "root_cause": (
        "No failure. The vLLM OpenAI server started on the H100 (Beam VLLMCompletionsModelHandler, one SDK process), "
        "loaded Qwen2.5-7B-Instruct, captured CUDA graphs and served all completions; the job finished and the worker "
        "pool was torn down normally. Noise that must not be reported as a cause: a Hugging Face 429 on a HEAD "
        "request that was retried and succeeded, vLLM's advisory text containing 'out-of-memory' and "
        "'gpu_memory_utilization', tokenizers fork warnings and tqdm bars on stderr stored at ERROR, a Beam "
        "'Retry with exponential backoff' on a BigQuery insert that then succeeded, config dumps, DEBUG lines and the "
        "benign kubelet/system ERRORs listed in the Dataflow docs."),
    "setup": {"gpu": "1 x NVIDIA H100 80GB (nvidia-h100-80gb)", "machine": "a3-highgpu-1g", "python": "3.11",
              "beam": "2.61.0", "stack": "vLLM 0.6.4.post1 (V0 engine) via Beam VLLMCompletionsModelHandler",
              "region": "us-central1 (us-central1-a)"},
    "evidence": [
        "INFO worker: INFO ... llm_engine.py:431] init engine (profile, create kv cache, warmup model) took 19.87 seconds",
        "INFO worker: INFO:     Uvicorn running on http://0.0.0.0:41237 (Press CTRL+C to quit)",
        "INFO job-message: Finished operation ...DraftAnswers/BeamML_RunInference+WriteDrafts/WriteToBigQuery",
        "INFO job-message: Worker pool stopped.",
    ],
    "red_herrings": [
        "WARNING (relayed): HTTP Error 429 thrown while requesting HEAD https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/resolve/main/config.json + 'Retrying in 1s [Retry 1/5].'",
        "INFO (relayed): '... If out-of-memory error occurs during cudagraph capture, consider decreasing `gpu_memory_utilization` or switching to eager mode ...'",
        "ERROR docker: huggingface/tokenizers fork/parallelism warning lines",
        "WARNING worker: Retry with exponential backoff ... _insert_all_rows ... ConnectionError",
        "Benign kubelet/system/worker-startup ERROR lines; 'Discarding unparseable args' WARNING; DEBUG 'Got work' lines.",
    ],
    "sources": [
        "apache/beam:sdks/python/apache_beam/ml/inference/vllm_inference.py ('Starting service with %s'; relays server stdout via logging.info; logging.info('models: %s' % models))",
        "real vLLM 0.6.x startup lines: 'vLLM API server version', 'args: Namespace(...)', 'Initializing an LLM engine (v...) with config: ...', 'Loading model weights took ... GB', '# GPU blocks: ..., # CPU blocks: ...', 'Maximum concurrency for 32768 tokens per request: ...x', 'Capturing cudagraphs for decoding. ... If out-of-memory error occurs during cudagraph capture, consider decreasing `gpu_memory_utilization` or switching to eager mode. You can also reduce the `max_num_seqs` as needed to decrease memory usage.', 'Graph capturing finished in N secs, took N GiB', 'init engine (profile, create kv cache, warmup model) took N seconds', 'Capturing CUDA graph shapes: 100%|...' (find_string ids 69421856836, 4922787267, 33197864785)",
        "huggingface/huggingface_hub:src/huggingface_hub/utils/_http.py http_backoff (logger.warning(f\"HTTP Error {status} thrown while requesting {method} {url}\"); logger.warning(f\"Retrying in {sleep_time}s [Retry {nb_tries}/{max_retries}].\")); 429 form quoted in find_string id 59847287991",
        "uvicorn startup/access lines 'INFO:     Started server process [N]', 'Waiting for application startup.', 'Application startup complete.', 'Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)' (find_string id 23220432613)",
        "tokenizers fork warning 'huggingface/tokenizers: The current process just got forked, after parallelism has already been used. Disabling parallelism to avoid deadlocks...' (find_string id 43499199491)",
        SRC_RETRY, SRC_LIFECYCLE, SRC_HARNESS, SRC_BENIGN, SRC_COSGPU, SRC_SHAPE,
        "apache/beam:sdks/python/apache_beam/runners/worker/sdk_worker.py (DEBUG 'Got work %s'; 'No more requests from control plane'; 'Done consuming work.')",
    ],
    "synthetic": SYN_COMMON + [
        "The vLLM 'Memory profiling results' and 'This model supports multiple tasks' lines are recalled from vLLM 0.6.x formats, not copied from one log; numbers invented.",
        "The Namespace(...) dump is shortened; 'Avg prompt throughput ...' metric lines use the vLLM 0.6 format with invented numbers.",
        "That the relayed 429 warning came through vLLM's HF download path is invented.",
    ],
}


# ================================================================ hs5-12 (healthy)
def build_12():
    ex = Export(12, "northwind-retail-ml", "302276815590", "shelf-vision-tf-ort-a100",
                "us-central1", "us-central1-c", datetime(2026, 11, 29, 5, 10, 44, tzinfo=timezone.utc))
    site = SITE310
    vm = ex.vm("w0")
    img = "us-central1-docker.pkg.dev/northwind-retail-ml/beam/shelf-vision:tf2.18-ort1.20-b2.63.0"
    opts = base_opts(ex, "a2-ultragpu-1g", "worker_accelerator=type:nvidia-a100-80gb;count:1;install-nvidia-driver:latest",
                     img, experiments=["use_runner_v2", "beam_fn_api", "no_use_multiple_sdk_containers"],
                     extra={"number_of_worker_harness_threads": 4})
    jm_start(ex, 0, "a2-ultragpu-1g", 1)
    vm_boot(ex, 80, vm, driver="570.172.08")
    s = "sdk-0-0"
    sdk_startup(ex, 219, vm, s, site, opts)
    ex.jm(233, "Workers have started successfully.")
    ex.jm(235, "Executing operation ReadImages/Read+DecodeImages+DetectProducts/BeamML_RunInference+"
               "EmbedCaptions/BeamML_RunInference+JoinResults+WriteResults/WriteToBigQuery")
    d = lambda t: (ex.t0 + timedelta(seconds=t)).strftime("%Y-%m-%d %H:%M:%S.") + "%06d" % ex.rng.randint(0, 999999)
    u = lambda t: "%d.%06d" % (int((ex.t0 + timedelta(seconds=t)).timestamp()), ex.rng.randint(0, 999999))
    tfl = [
        ("%s: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:477] Unable to register cuFFT factory: Attempting "
         "to register factory for plugin cuFFT when one has already been registered" % d(244)),
        "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR",
        ("E0000 00:00:%s     731 cuda_dnn.cc:8310] Unable to register cuDNN factory: Attempting to register factory for "
         "plugin cuDNN when one has already been registered" % u(244)),
        ("E0000 00:00:%s     731 cuda_blas.cc:1418] Unable to register cuBLAS factory: Attempting to register factory for "
         "plugin cuBLAS when one has already been registered" % u(244)),
        ("%s: I tensorflow/core/platform/cpu_feature_guard.cc:210] This TensorFlow binary is optimized to use available "
         "CPU instructions in performance-critical operations." % d(244)),
        "To enable the following instructions: AVX2 AVX512F AVX512_VNNI FMA, in other operations, rebuild TensorFlow with the appropriate compiler flags.",
        "%s: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT" % d(245),
        ("I0000 00:00:%s     731 gpu_device.cc:2022] Created device /job:localhost/replica:0/task:0/device:GPU:0 with "
         "78884 MB memory:  -> device: 0, name: NVIDIA A100-SXM4-80GB, pci bus id: 0000:00:05.0, compute capability: 8.0" % u(251)),
    ]
    for i, ln in enumerate(tfl):
        ex.docker(251.1 if i == 7 else 244.9 + 0.01 * i, vm, ln, "ERROR")
    ex.docker(301, vm, "W0000 00:00:%s     902 bfc_allocator.cc:310] Allocator (GPU_0_bfc) ran out of memory trying to "
                       "allocate 2.10GiB with freed_by_count=0. The caller indicates that this is not a failure, but may mean "
                       "that there could be performance gains if more memory were available." % u(301), "ERROR")
    ort = [
        ("%s [E:onnxruntime:Default, provider_bridge_ort.cc:1862 TryGetProviderInfo_TensorRT] /onnxruntime_src/onnxruntime/"
         "core/session/provider_bridge_ort.cc:1539 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() "
         "[ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_tensorrt.so with error: "
         "libnvinfer.so.10: cannot open shared object file: No such file or directory" % (d(262) + "012"), "ERROR"),
        ("*************** EP Error ***************", "INFO"),
        ("EP Error /onnxruntime_src/onnxruntime/python/onnxruntime_pybind_state.cc:507 void onnxruntime::python::"
         "RegisterTensorRTPluginsAsCustomOps(PySessionOptions&, const onnxruntime::ProviderOptions&) Please install "
         "TensorRT libraries as mentioned in the GPU requirements page, make sure they're in the PATH or LD_LIBRARY_PATH, "
         "and that your GPU is supported.", "INFO"),
        (" when using ['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'CPUExecutionProvider']", "INFO"),
        ("Falling back to ['CUDAExecutionProvider', 'CPUExecutionProvider'] and retrying.", "INFO"),
        ("****************************************", "INFO"),
    ]
    for i, (ln, sev) in enumerate(ort):
        ex.docker(262 + 0.02 * i, vm, ln, sev)
    ex.wk(264, vm, s, "caption encoder session providers: ['CUDAExecutionProvider', 'CPUExecutionProvider']",
          src=("shelfvision/handlers.py", 77), site=site, thread="Thread-13", step="EmbedCaptions/BeamML_RunInference")
    t = 320
    for k in range(36):
        ex.wk(t, vm, s, "processed %d images (%d detections), gpu=%s" % (512 * (k + 1), ex.rng.randint(3000, 9000), "A100-SXM4-80GB"),
              src=("shelfvision/dofns.py", 112), site=site, thread="Thread-13", step="JoinResults")
        if k % 4 == 1:
            ex.wk(t + 1, vm, s, "Got work process_bundle-2290517703341986%03d" % k, "DEBUG",
                  src=("apache_beam/runners/worker/sdk_worker.py", 263), site=site)
        if k == 11:
            ex.wk(t + 3, vm, s,
                  "Retry with exponential backoff: waiting for 2.9051842 seconds before retrying _uncached_gcs_file_copy "
                  "because we caught exception: google.api_core.exceptions.TooManyRequests: 429 POST https://storage."
                  "googleapis.com/storage/v1/b/northwind-shelf-tmp/o/...: The object exceeded the rate limit for object "
                  "mutation operations (create, update, and delete).\n Traceback for above exception (most recent call last):\n"
                  "  File \"%s/apache_beam/utils/retry.py\", line 298, in wrapper\n    return fun(*args, **kwargs)\n" % site,
                  "WARNING", src=("apache_beam/utils/retry.py", 306), site=site, thread="Thread-19")
        t += 45
    done = t + 20
    ex.jm(done, "Finished operation ReadImages/Read+DecodeImages+DetectProducts/BeamML_RunInference+"
                "EmbedCaptions/BeamML_RunInference+JoinResults+WriteResults/WriteToBigQuery")
    ex.jm(done + 2, "Executing operation WriteResults/WriteToBigQuery/BigQueryBatchFileLoads/TriggerLoadJobsWithoutTempTables")
    ex.jm(done + 70, "Finished operation WriteResults/WriteToBigQuery/BigQueryBatchFileLoads/TriggerLoadJobsWithoutTempTables")
    ex.wk(done + 80, vm, s, "No more requests from control plane", src=("apache_beam/runners/worker/sdk_worker.py", 277), site=site)
    ex.wk(done + 80.4, vm, s, "Done consuming work.", src=("apache_beam/runners/worker/sdk_worker.py", 290), site=site)
    jm_teardown(ex, done + 75)
    return ex


TRUTH_12 = {
    "outcome": "succeeded",
    "family": "healthy: TensorFlow 2.18 + ONNX Runtime GPU inference with alarming-but-harmless noise",
    "root_cause": (
        "No failure. TensorFlow created the A100 device and ran the detector; ONNX Runtime could not load its TensorRT "
        "execution provider (libnvinfer.so.10 not in the image) and, as designed, fell back to "
        "['CUDAExecutionProvider', 'CPUExecutionProvider'], so the caption encoder still ran on the GPU (the team logs "
        "the active providers). All stages finished and the pool was torn down normally. Must not be reported as "
        "causes: TensorFlow's cuFFT/cuDNN/cuBLAS 'Unable to register ... factory' E-lines, 'TF-TRT Warning: Could not "
        "find TensorRT', the BFC allocator 'ran out of memory ... The caller indicates that this is not a failure' "
        "line, the ORT EP Error/fallback banner, a retried GCS 429, DEBUG lines and benign kubelet/system ERRORs."),
    "setup": {"gpu": "1 x NVIDIA A100 80GB (nvidia-a100-80gb)", "machine": "a2-ultragpu-1g", "python": "3.10",
              "beam": "2.63.0", "stack": "TensorFlow 2.18 detector + onnxruntime-gpu 1.20.1 text encoder via RunInference",
              "region": "us-central1 (us-central1-c)"},
    "evidence": [
        "ERROR docker (harmless): I0000 ... gpu_device.cc:2022] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 78884 MB memory:  -> device: 0, name: NVIDIA A100-SXM4-80GB, ...",
        "INFO worker: caption encoder session providers: ['CUDAExecutionProvider', 'CPUExecutionProvider']",
        "INFO job-message: Finished operation ... / Worker pool stopped.",
    ],
    "red_herrings": [
        "ERROR docker: Unable to register cuFFT/cuDNN/cuBLAS factory ... when one has already been registered",
        "ERROR docker: W0000 ... bfc_allocator.cc:310] Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.10GiB ... The caller indicates that this is not a failure ...",
        "ERROR docker: [E:onnxruntime:Default, provider_bridge_ort.cc:1862 TryGetProviderInfo_TensorRT] ... libnvinfer.so.10: cannot open shared object file ... followed by 'Falling back to ['CUDAExecutionProvider', 'CPUExecutionProvider'] and retrying.' (GPU still used)",
        "WARNING worker: Retry with exponential backoff ... TooManyRequests: 429 ... (retried successfully)",
        "ERROR docker: TF-TRT Warning: Could not find TensorRT",
    ],
    "sources": [
        "microsoft/onnxruntime:onnxruntime/python/onnxruntime_inference_collection.py (print('*************** EP Error ***************'), print(f'EP Error {e} when using {providers}'), print(f'Falling back to {self._fallback_providers} and retrying.')) (find_string id 83771393)",
        "real ORT output '[E:onnxruntime:Default, provider_bridge_ort.cc:... TryGetProviderInfo_TensorRT] ... Failed to load library libonnxruntime_providers_tensorrt.so with error: libnvinfer.so.10: cannot open shared object file: No such file or directory' and 'EP Error /onnxruntime_src/onnxruntime/python/onnxruntime_pybind_state.cc:505 void onnxruntime::python::RegisterTensorRTPluginsAsCustomOps(PySessionOptions&, const onnxruntime::ProviderOptions&) Please install TensorRT libraries as mentioned in the GPU requirements page, make sure they're in the PATH or LD_LIBRARY_PATH, and that your GPU is supported.' with fallback to CUDA EP (find_string ids 65884863179, 63307779136)",
        "real TF 2.17/2.18 startup lines (cuFFT/cuDNN/cuBLAS registration, absl InitializeLog warning, cpu_feature_guard.cc:210, TF-TRT warning) (find_string ids 66292309652, 6960792002, 1298337925)",
        "reference section 2b (b4): 'W tensorflow/core/common_runtime/bfc_allocator.cc:275] Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.10GiB with freed_by_count=0. The caller indicates that this is not a failure, but may mean that there could be performance gains if more memory were available.' (talmolab/sleap#2142)",
        "reference section 2i: TF 'Created device ... with N MB memory:  -> device: 0, name: ..., compute capability: 8.0' (absl format)",
        SRC_RETRY, SRC_LIFECYCLE, SRC_HARNESS, SRC_BENIGN, SRC_COSGPU, SRC_SHAPE,
    ],
    "synthetic": SYN_COMMON + [
        "bfc_allocator.cc:310 and the absl-format rendering of the BFC line are adapted from the older 'W tensorflow/core/common_runtime/bfc_allocator.cc:275]' form; provider_bridge_ort.cc/pybind line numbers are adapted to ORT 1.20.",
        "The team's 'processed N images' and 'caption encoder session providers' lines and the GCS 429 exception text are invented.",
        "That ORT's print() banner lines go to stdout (INFO) while the [E:onnxruntime...] line goes to stderr (ERROR) is inferred.",
    ],
}


CASES = [
    {"id": "hs5-01", "build": build_01, "truth": TRUTH_01},
    {"id": "hs5-02", "build": build_02, "truth": TRUTH_02},
    {"id": "hs5-03", "build": build_03, "truth": TRUTH_03},
    {"id": "hs5-04", "build": build_04, "truth": TRUTH_04},
    {"id": "hs5-05", "build": build_05, "truth": TRUTH_05},
    {"id": "hs5-06", "build": build_06, "truth": TRUTH_06},
    {"id": "hs5-07", "build": build_07, "truth": TRUTH_07},
    {"id": "hs5-08", "build": build_08, "truth": TRUTH_08},
    {"id": "hs5-09", "build": build_09, "truth": TRUTH_09},
    {"id": "hs5-10", "build": build_10, "truth": TRUTH_10},
    {"id": "hs5-11", "build": build_11, "truth": TRUTH_11},
    {"id": "hs5-12", "build": build_12, "truth": TRUTH_12},
]
# ---------------------------------------------------------------- driver
def build_all():
    files = {}
    counts = {}
    for case in CASES:
        ex = case["build"]()
        cid = case["id"]
        truth = dict(case["truth"])
        truth = {"case": cid, "job": {"id": ex.job_id, "name": ex.job_name},
                 **truth}
        files["cases/%s/export.json" % cid] = ex.to_json()
        files["cases/%s/truth.yaml" % cid] = (
            "# heldout-stacks-5 ground truth; generated by make.py\n"
            + to_yaml(truth) + "\n")
        counts[cid] = len(ex.entries)
    return files, counts


def _parse_ts(s):
    base, frac = s[:-1].split(".")
    dt = datetime.strptime(base, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc)
    return int(dt.timestamp()) * 10**9 + int((frac + "000000000")[:9])


def main():
    a, counts = build_all()
    b, _ = build_all()
    if a != b:
        bad = [k for k in a if a[k] != b.get(k)]
        sys.exit("NOT DETERMINISTIC: %s" % bad)
    for rel, text in sorted(a.items()):
        path = os.path.join(HERE, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    for rel, text in a.items():
        with open(os.path.join(HERE, rel), encoding="utf-8", newline="") as fh:
            if fh.read() != text:
                sys.exit("disk content differs for %s" % rel)
    problems = []
    for cid, n in sorted(counts.items()):
        data = json.loads(a["cases/%s/export.json" % cid])
        assert len(data) == n
        ts = [_parse_ts(d["timestamp"]) for d in data]
        if ts != sorted(ts, reverse=True):
            problems.append("%s not newest-first" % cid)
        if not 100 <= n <= 250:
            problems.append("%s has %d entries" % (cid, n))
        print("%s  %3d entries" % (cid, n))
    if problems:
        sys.exit("PROBLEMS: " + "; ".join(problems))
    print("OK: %d files, two in-memory builds byte-identical, disk re-read "
          "identical, total entries %d" % (len(a), sum(counts.values())))


if __name__ == "__main__":
    main()
