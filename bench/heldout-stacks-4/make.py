#!/usr/bin/env python3
"""Deterministic generator for the heldout-stacks-4 evaluation set.

Writes cases/hs4-NN/export.json (a `gcloud logging read --format=json` style array of
LogEntry objects, newest first) and cases/hs4-NN/truth.yaml, then checks the set.
Python 3 stdlib only.  Every run writes byte-identical files (fixed seeds, fixed times).

Library / platform error lines are copied from public sources cited in each truth.yaml;
envelopes, ids, timestamps, VM names, user-code log lines and Beam frame line numbers
are synthetic (listed per case under `synthetic`).
"""
import datetime as _dt
import hashlib
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "cases")

# ----------------------------------------------------------------------------- helpers

EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


def _fmt(us, digits, extra_ns=0):
    d = EPOCH + _dt.timedelta(microseconds=us)
    base = d.strftime("%Y-%m-%dT%H:%M:%S")
    frac_ns = (us % 1_000_000) * 1000 + extra_ns
    frac = "%09d" % frac_ns
    return base + "." + frac[:digits] + "Z"


def _klog_ts(us):
    d = EPOCH + _dt.timedelta(microseconds=us)
    return d.strftime("%m%d %H:%M:%S.") + "%06d" % (us % 1_000_000)


class Case:
    def __init__(self, cid, job_name, job_id, project, project_number, region, zone,
                 start, seed):
        self.cid = cid
        self.job_name = job_name
        self.job_id = job_id
        self.project = project
        self.project_number = project_number
        self.region = region
        self.zone = zone
        self.t0 = int((start - EPOCH).total_seconds()) * 1_000_000
        self.rng = random.Random(seed)
        self.entries = []
        self.seq = 0
        self.vm_ids = {}

    # --- ids
    def _rid(self, n, alphabet="abcdefghijklmnopqrstuvwxyz0123456789"):
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def vm(self, tag):
        short = self.job_name[:20].rstrip("-")
        d = self.job_id[5:7] + self.job_id[8:10] + self.job_id[11:13] + self.job_id[14:16]
        name = "%s-%s-%s-harness-%s" % (short, d, tag[:4], tag[4:8])
        if name not in self.vm_ids:
            self.vm_ids[name] = str(self.rng.randint(10 ** 18, 9 * 10 ** 18))
        return name

    def us(self, t, jit=True):
        return self.t0 + int(round(t * 1_000_000)) + (self.rng.randint(0, 999) if jit else 0)

    # --- core
    def add(self, t, log, sev, text=None, msg=None, vm=None, step="", logger=None,
            line=None, thread=None, sdk=None, jit=True):
        us = self.us(t, jit)
        self.seq += 1
        e = {}
        if log == "job-message":
            e["insertId"] = self._rid(12)
        elif log == "system":
            e["insertId"] = "s=%s;i=%x;b=%s;m=%x;t=%x;x=%s" % (
                self._rid(32, "0123456789abcdef"), self.rng.randint(100, 9000),
                self._rid(32, "0123456789abcdef"), self.rng.randint(10 ** 5, 10 ** 8),
                us, self._rid(16, "0123456789abcdef"))
        else:
            e["insertId"] = self._rid(16, "0123456789abcdef")
        if text is not None:
            e["textPayload"] = text
        else:
            jp = {}
            if log in ("worker", "harness"):
                jp["job"] = self.job_id
            if line is not None:
                jp["line"] = line
            if logger is not None:
                jp["logger"] = logger
            jp["message"] = msg
            if sdk is not None:
                jp["portability_worker_id"] = sdk
            if thread is not None:
                jp["thread"] = thread
            if vm is not None and log in ("worker", "harness"):
                jp["worker"] = vm
            e["jsonPayload"] = jp
        e["resource"] = {
            "type": "dataflow_step",
            "labels": {
                "job_id": self.job_id,
                "job_name": self.job_name,
                "project_id": self.project_number if log == "job-message" else self.project,
                "region": self.region,
                "step_id": step,
            },
        }
        digits = {"job-message": 9, "docker": 9, "kubelet": 9}.get(log, 6)
        e["timestamp"] = _fmt(us, digits, self.rng.randint(0, 999))
        e["severity"] = sev
        if log == "job-message":
            e["labels"] = {
                "dataflow.googleapis.com/log_type": "system",
                "dataflow.googleapis.com/region": self.region,
                "dataflow.googleapis.com/job_id": self.job_id,
                "dataflow.googleapis.com/job_name": self.job_name,
            }
        else:
            e["labels"] = {
                "compute.googleapis.com/resource_type": "instance",
                "compute.googleapis.com/resource_name": vm,
                "compute.googleapis.com/resource_id": self.vm_ids.get(vm, "0"),
                "dataflow.googleapis.com/job_name": self.job_name,
                "dataflow.googleapis.com/region": self.region,
                "dataflow.googleapis.com/job_id": self.job_id,
            }
        e["logName"] = "projects/%s/logs/dataflow.googleapis.com%%2F%s" % (self.project, log)
        e["receiveTimestamp"] = _fmt(us + self.rng.randint(200_000, 4_000_000), 9,
                                     self.rng.randint(0, 999))
        self.entries.append((us, self.seq, e))

    # --- shorthands
    def jm(self, t, text, sev="INFO"):
        self.add(t, "job-message", sev, text=text)

    def wk(self, t, vm, msg, sev="INFO", logger="apache_beam.runners.worker.sdk_worker",
           line="sdk_worker.py:233", sdk="sdk-0-0", thread="MainThread", step=""):
        self.add(t, "worker", sev, msg=msg, vm=vm, logger=logger, line=line, sdk=sdk,
                 thread=thread, step=step)

    def hn(self, t, vm, msg, sev="INFO", thread="42"):
        self.add(t, "harness", sev, msg=msg, vm=vm, thread=thread)

    def dk(self, t, vm, text, sev="ERROR", jit=True):
        self.add(t, "docker", sev, text=text, vm=vm, jit=jit)

    def dk_lines(self, t, vm, block, sev="ERROR", dt=0.0004):
        for i, ln in enumerate(block.split("\n")):
            self.dk(t + i * dt, vm, ln, sev, jit=False)
        return t + len(block.split("\n")) * dt

    def kl(self, t, vm, text, sev="INFO"):
        self.add(t, "kubelet", sev, text=text, vm=vm)

    def sy(self, t, vm, text, sev="INFO"):
        self.add(t, "system", sev, text=text, vm=vm)

    def ws(self, t, vm, msg, sev="INFO"):
        self.add(t, "worker-startup", sev, msg=msg, vm=vm)

    def export(self):
        rows = sorted(self.entries, key=lambda r: (r[0], r[1]), reverse=True)
        return [r[2] for r in rows]


# ----------------------------------------------------------------------------- shared text

def opts_dump(c, py, beam, machine, accel, image, extra_exp=(), extra=""):
    exps = ["use_runner_v2", "use_unified_worker", "beam_fn_api", "use_portable_job_submission",
            "use_multiple_sdk_containers"] + list(extra_exp)
    return ("Python sdk harness started with pipeline_options: {'runner': 'DataflowRunner', "
            "'project': '%s', 'region': '%s', 'job_name': '%s', 'temp_location': "
            "'gs://%s-dataflow/tmp', 'staging_location': 'gs://%s-dataflow/staging', "
            "'save_main_session': True, 'sdk_container_image': '%s', 'sdk_location': 'container', "
            "'machine_type': '%s', 'dataflow_service_options': ['worker_accelerator=%s'], "
            "'experiments': %r, 'max_num_workers': 1, 'num_workers': 1, 'disk_size_gb': 100, "
            "'sdk_worker_parallelism': '1', 'pipeline_type_check': True%s}"
            % (c.project, c.region, c.job_name, c.project, c.project, image, machine, accel,
               exps, extra))


def sdk_start(c, t, vm, py, opts, sdk="sdk-0-0"):
    sp = "/usr/local/lib/python%s/site-packages/apache_beam/runners/worker/" % py
    L = "apache_beam.runners.worker.sdk_worker_main"
    c.hn(t - 3, vm, "Starting SDK harness container %s" % sdk)
    c.dk(t, vm, "Executing: python -m apache_beam.runners.worker.sdk_worker_main", "INFO")
    c.hn(t + 2.2, vm, "SDK harness %s connected to the control service" % sdk)
    c.wk(t + 1.1, vm, "Logging handler created.", logger=L, line="sdk_worker_main.py:109", sdk=sdk)
    c.wk(t + 1.2, vm, "semi_persistent_directory: /var/opt/google", logger=L,
         line="sdk_worker_main.py:123", sdk=sdk)
    c.wk(t + 1.3, vm, "Status HTTP server running at localhost:%d" % (40000 + c.rng.randint(0, 5000)),
         logger="apache_beam.runners.worker.worker_status", line="worker_status.py:110", sdk=sdk)
    c.wk(t + 1.35, vm, "Discarding unparseable args: ['--direct_runner_use_stacked_bundle', "
         "'--pipeline_type_check']", sev="WARNING",
         logger="apache_beam.options.pipeline_options", line="pipeline_options.py:388", sdk=sdk)
    c.wk(t + 1.4, vm, opts, logger=L, line="sdk_worker_main.py:164", sdk=sdk)
    c.wk(t + 1.5, vm, "Creating state cache with size 104857600", logger=L,
         line="sdk_worker_main.py:183", sdk=sdk)
    c.wk(t + 1.6, vm, "Creating insecure control channel for localhost:12371.",
         line="sdk_worker.py:195", sdk=sdk)
    c.wk(t + 1.65, vm, "Control channel established.", line="sdk_worker.py:203", sdk=sdk)
    c.wk(t + 1.7, vm, "Initializing SDKHarness with unbounded number of workers.",
         line="sdk_worker.py:246", sdk=sdk)
    c.wk(t + 1.8, vm, "Creating insecure state channel for localhost:12371.",
         line="sdk_worker.py:925", sdk=sdk, thread="Thread-12")
    c.wk(t + 1.85, vm, "State channel established.", line="sdk_worker.py:932", sdk=sdk,
         thread="Thread-12")
    c.wk(t + 1.9, vm, "Creating client data channel for localhost:12371",
         logger="apache_beam.runners.worker.data_plane", line="data_plane.py:807", sdk=sdk,
         thread="Thread-12")
    return t + 2.0


def vm_boot(c, t, vm, driver="550.90.07", gpu_installer=True):
    """Host-level noise of a worker VM coming up (system, kubelet, worker-startup)."""
    c.sy(t, vm, "ima: No architecture policies found")
    c.sy(t + 0.2, vm, "ima: Can not allocate sha384 (reason: -2)")
    if gpu_installer:
        c.ws(t + 8, vm, "Getting the latest GPU driver version")
        c.ws(t + 9, vm, "Installing GPU driver version %s" % driver)
        c.ws(t + 70, vm, "Verifying GPU driver installation")
        c.ws(t + 74, vm, "Finished installing the drivers.")
    kt = t + 80
    c.kl(kt, vm, 'E%s    1187 plugins.go:720] "Error initializing dynamic plugin prober" '
         'err="error (re-)creating driver directory: mkdir /usr/libexec/kubernetes: read-only file system"'
         % _klog_ts(c.us(kt)), "ERROR")
    c.kl(kt + 0.5, vm, 'I%s    1187 kubelet.go:2340] "Skipping pod synchronization" '
         'err="container runtime status check may not have completed yet"' % _klog_ts(c.us(kt + 0.5)))
    c.kl(kt + 1.5, vm, 'I%s    1187 kubelet.go:2340] "Skipping pod synchronization" '
         'err="PLEG is not healthy: pleg has yet to be successful"' % _klog_ts(c.us(kt + 1.5)))
    return kt + 3


def job_start(c, t, machine, nworkers=1, maxw=1, steps=()):
    c.jm(t, "The Dataflow RunnerV2 container image of this job's workers will be ready for update in 7 days.")
    c.jm(t + 1, "Worker configuration: %s in %s." % (machine, c.zone))
    c.jm(t + 2, "Expanding SplittableParDo operations into optimizable parts.")
    c.jm(t + 2.1, "Expanding CoGroupByKey operations into optimizable parts.")
    c.jm(t + 2.2, "Expanding GroupByKey operations into optimizable parts.")
    c.jm(t + 2.4, "Fusing adjacent ParDo, Read, Write, and Flatten operations")
    for i in range(1, len(steps)):
        c.jm(t + 2.5 + i * 0.05, "Fusing consumer %s into %s" % (steps[i], steps[i - 1]))
    c.jm(t + 3, "Workflow config is missing a default resource spec.", "DEBUG")
    c.jm(t + 3.1, "Adding StepResource setup and teardown to workflow graph.", "DEBUG")
    c.jm(t + 3.2, "Adding workflow start and stop steps.", "DEBUG")
    c.jm(t + 3.3, "Assigning stage ids.", "DEBUG")
    c.jm(t + 4, "Starting worker pool setup.", "DEBUG")
    c.jm(t + 4.5, "Starting %d workers in %s..." % (nworkers, c.zone))
    c.jm(t + 5, "Executing operation %s" % "+".join(steps))
    c.jm(t + 6, "Autoscaling is enabled for job %s. The number of workers will be between 1 and %d."
         % (c.job_id, maxw))
    c.jm(t + 7, "Autoscaling: Raised the number of workers to %d based on the rate of progress in "
         "the currently running stage(s)." % nworkers)


def job_teardown(c, t, nworkers=1):
    c.jm(t, "Cleaning up.")
    c.jm(t + 1, "Starting worker pool teardown.", "DEBUG")
    c.jm(t + 1.5, "Stopping worker pool...")
    c.jm(t + 60, "Autoscaling: Resized worker pool from %d to 0." % nworkers)
    c.jm(t + 61, "Worker pool stopped.")
    c.jm(t + 62, "Tearing down pending resources...", "DEBUG")


FAIL4 = ("Workflow failed. Causes: %s failed., The job failed because a work item has failed 4 "
         "times. Look in previous log entries for the cause of each one of the 4 failures. If the "
         "logs only contain generic timeout errors related to accessing external resources, such "
         "as MongoDB, verify that the worker service account has permission to access the "
         "resource's subnetwork. For more information, see "
         "https://cloud.google.com/dataflow/docs/guides/common-errors. The work item was attempted "
         "on these workers: \n")


def fail4(step, vm, root, n=4):
    s = FAIL4 % step
    for _ in range(n):
        s += "\n      Root cause: %s\n      Worker ID: %s," % (root, vm)
    return s


def beam_setup_tb(py, user_frames, step_id):
    """Frames of a DoFn.setup() failure inside RunInference on a Runner v2 Python worker.
    Line numbers are synthetic; the Cython-frame style is Beam's."""
    sp = "/usr/local/lib/python%s/site-packages" % py
    head = [
        "Traceback (most recent call last):",
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute' % sp,
        "    response = task()",
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 386, in <lambda>' % sp,
        "    lambda: self.create_worker().do_instruction(request), request)",
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 658, in do_instruction' % sp,
        "    return getattr(self, request_type)(",
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 689, in process_bundle' % sp,
        "    bundle_processor = self.bundle_processor_cache.get(",
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 512, in get' % sp,
        "    processor = bundle_processor.BundleProcessor(",
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1135, in __init__' % sp,
        "    op.setup(self.data_sampler)",
        '  File "apache_beam/runners/worker/operations.py", line 875, in apache_beam.runners.worker.operations.DoOperation.setup',
        '  File "apache_beam/runners/worker/operations.py", line 925, in apache_beam.runners.worker.operations.DoOperation.setup',
        '  File "apache_beam/runners/common.py", line 1569, in apache_beam.runners.common.DoFnRunner.setup',
        '  File "apache_beam/runners/common.py", line 1565, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
        '  File "apache_beam/runners/common.py", line 1610, in apache_beam.runners.common.DoFnRunner._reraise_augmented',
        '  File "apache_beam/runners/common.py", line 1563, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
        '  File "apache_beam/runners/common.py", line 600, in apache_beam.runners.common.DoFnInvoker.invoke_setup',
        '  File "%s/apache_beam/ml/inference/base.py", line 1620, in setup' % sp,
        "    self._model = self._load_model()",
        '  File "%s/apache_beam/ml/inference/base.py", line 1586, in _load_model' % sp,
        "    model = self._shared_model_handle.acquire(load, tag=self._cur_tag)",
        '  File "%s/apache_beam/utils/shared.py", line 324, in acquire' % sp,
        "    return _shared_map.acquire(self._key, constructor_fn, tag)",
        '  File "%s/apache_beam/utils/shared.py", line 265, in acquire' % sp,
        "    result = control_block.acquire(constructor_fn, tag)",
        '  File "%s/apache_beam/utils/shared.py", line 172, in acquire' % sp,
        "    result = constructor_fn()",
        '  File "%s/apache_beam/ml/inference/base.py", line 1560, in load' % sp,
        "    model = self._model_handler.load_model()",
    ]
    return head + user_frames


def report_failure(c, t, vm, tb_lines, instr, sdk="sdk-0-0", step="", stderr=True):
    """One failed bundle: stderr print (one docker entry per line), the SDK's error log, and
    the job-message relay."""
    tb = "\n".join(tb_lines)
    t2 = c.dk_lines(t, vm, tb, "ERROR") if stderr else t + 0.05
    c.wk(t2 + 0.01, vm, "Error processing instruction %s. Original traceback is\n%s\n" % (instr, tb),
         sev="ERROR", line="sdk_worker.py:318", sdk=sdk, thread="Thread-14")
    c.jm(t2 + 3.5, "Error message from worker: %s" % tb, "ERROR")
    return t2 + 4


def pip_root_warning(c, t, vm):
    c.dk(t, vm, "WARNING: Running pip as the 'root' user can result in broken permissions and "
         "conflicting behaviour with the system package manager. It is recommended to use a "
         "virtual environment instead: https://pip.pypa.io/warnings/venv", "ERROR")


S_DOCS_LOG = "https://cloud.google.com/dataflow/docs/guides/logging (Work with pipeline logs: log names, INFO-level container symptoms)"
S_DOCS_ERR = "https://cloud.google.com/dataflow/docs/guides/common-errors (worker-pool-failure, benign kubelet/ima lines, work item failed 4 times)"
S_BEAM30482 = "https://github.com/apache/beam/issues/30482 (current 'work item has failed 4 times' job-message wording)"
S_BEAM24906 = "https://github.com/apache/beam/issues/24906 ('Error message from worker: Traceback ...' job-message form)"
S_HARNESS = "https://github.com/jcbaey/dataflow_python_timer README (Python SDK harness start-up lines, 'Python sdk harness started with pipeline_options' record)"
S_SDKWORKER = "apache/beam sdks/python/apache_beam/runners/worker/sdk_worker.py (_execute: traceback printed to stderr + 'Error processing instruction %s. Original traceback is')"
S_PIP = "pypa/pip (root-user warning 'Running pip as the 'root' user can result in broken permissions ...', https://pip.pypa.io/warnings/venv)"
S_COSGPU = "GoogleCloudPlatform/container-engine-accelerators#237 and cos-gpu-installer source (driver install lines; placement in worker-startup is inferred)"

COMMON_SYNTH = [
    "LogEntry envelopes (insertId, timestamps, receiveTimestamp, labels, resource ids, VM names, job ids, project ids)",
    "job name and pipeline step names",
    "Beam traceback frame line numbers and the exact frame list",
    "values inside the pipeline_options dump",
    "kubelet klog prefixes (timestamps, pids, source file:line)",
    "placement of cos-gpu-installer lines in worker-startup and the driver version",
    "Fusing consumer / graph-optimization job-message sequence",
    "all runner-harness (dataflow.googleapis.com/harness) messages - no public verbatim wording was found",
]


# ============================================================================ cases

def case_bnb():
    """bitsandbytes 0.41 cannot find libcudart in a slim image -> 'CUDA Setup failed despite GPU'."""
    c = Case("A", "support-ticket-tagger-daily", "2026-11-17_04_31_08-9106627738412390551",
             "acme-support-ml", "480213339871", "us-central1", "us-central1-b",
             _dt.datetime(2026, 11, 17, 12, 31, 8, tzinfo=_dt.timezone.utc), 101)
    py, beam, machine = "3.10", "2.61.0", "g2-standard-8"
    vm = c.vm("11170431k3vd7xq2")
    steps = ["ReadTickets/Read", "ReadTickets/Map(parse)", "Prompt/Map(build_prompt)",
             "RunInference/BeamML_RunInference", "WriteTags/WriteToBigQuery/_StreamToBigQuery"]
    job_start(c, 0, machine, steps=steps)
    t = vm_boot(c, 40, vm, driver="550.90.07")
    c.jm(150, "Workers have started successfully.")
    c.hn(t, vm, "Starting 1 SDK process(es) from image us-central1-docker.pkg.dev/acme-support-ml/images/tagger:2024-09-llama2-8bit")
    sp = "/usr/local/lib/python%s/site-packages" % py
    opts = opts_dump(c, py, beam, machine, "type:nvidia-l4;count:1;install-nvidia-driver:5xx",
                     "us-central1-docker.pkg.dev/acme-support-ml/images/tagger:2024-09-llama2-8bit",
                     extra_exp=["no_use_multiple_sdk_containers"])
    t = sdk_start(c, t + 20, vm, py, opts)
    pip_root_warning(c, t - 10, vm)
    bnb_out = [
        ("", "INFO"),
        ("===================================BUG REPORT===================================", "INFO"),
        ("%s/bitsandbytes/cuda_setup/main.py:166: UserWarning: Welcome to bitsandbytes. For bug reports, please run" % sp, "ERROR"),
        ("", "ERROR"),
        ("python -m bitsandbytes", "ERROR"),
        ("", "ERROR"),
        ("  warn(msg)", "ERROR"),
        ("================================================================================", "INFO"),
        ("%s/bitsandbytes/cuda_setup/main.py:166: UserWarning: /usr/local did not contain ['libcudart.so', 'libcudart.so.11.0', 'libcudart.so.12.0'] as expected! Searching further paths..." % sp, "ERROR"),
        ("  warn(msg)", "ERROR"),
        ("%s/bitsandbytes/cuda_setup/main.py:166: UserWarning: WARNING: The following directories listed in your path were found to be non-existent: {PosixPath('/usr/local/nvidia/lib64'), PosixPath('/usr/local/nvidia/lib')}" % sp, "ERROR"),
        ("  warn(msg)", "ERROR"),
        ("CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...", "INFO"),
        ("The following directories listed in your path were found to be non-existent: {PosixPath('/usr/local/cuda/lib64')}", "INFO"),
        ("DEBUG: Possible options found for libcudart.so: set()", "INFO"),
        ("CUDA SETUP: PyTorch settings found: CUDA_VERSION=121, Highest Compute Capability: 8.9.", "INFO"),
        ("CUDA SETUP: To manually override the PyTorch CUDA version please see:https://github.com/TimDettmers/bitsandbytes/blob/main/how_to_use_nonpytorch_cuda.md", "INFO"),
        ("CUDA SETUP: Problem: The main issue seems to be that the main CUDA runtime library was not detected.", "INFO"),
        ("CUDA SETUP: Solution 1: To solve the issue the libcudart.so location needs to be added to the LD_LIBRARY_PATH variable", "INFO"),
        ("CUDA SETUP: Solution 1a): Find the cuda runtime library via: find / -name libcudart.so 2>/dev/null", "INFO"),
        ("CUDA SETUP: Solution 1b): Once the library is found add it to the LD_LIBRARY_PATH: export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:FOUND_PATH_FROM_1a", "INFO"),
        ("CUDA SETUP: Setup Failed!", "INFO"),
    ]
    bnb_err = ("RuntimeError: \n        CUDA Setup failed despite GPU being available. Please run the following command to get more information:\n\n"
               "        python -m bitsandbytes\n\n"
               "        Inspect the output of the command and see if you can locate CUDA libraries. You might need to add them\n"
               "        to your LD_LIBRARY_PATH. If you suspect a bug, please take the information from python -m bitsandbytes\n"
               "        and open an issue at: https://github.com/TimDettmers/bitsandbytes/issues")
    inner = [
        "Traceback (most recent call last):",
        '  File "%s/transformers/utils/import_utils.py", line 1099, in _get_module' % sp,
        '    return importlib.import_module("." + module_name, self.__name__)',
        '  File "/usr/local/lib/python3.10/importlib/__init__.py", line 126, in import_module',
        "    return _bootstrap._gcd_import(name[level:], package, level)",
        '  File "%s/transformers/models/llama/modeling_llama.py", line 32, in <module>' % sp,
        "    from ...modeling_utils import PreTrainedModel",
        '  File "%s/transformers/modeling_utils.py", line 86, in <module>' % sp,
        "    from accelerate import dispatch_model, infer_auto_device_map, init_empty_weights",
        '  File "%s/accelerate/utils/bnb.py", line 42, in <module>' % sp,
        "    import bitsandbytes as bnb",
        '  File "%s/bitsandbytes/__init__.py", line 6, in <module>' % sp,
        "    from . import cuda_setup, utils, research",
        '  File "%s/bitsandbytes/optim/__init__.py", line 6, in <module>' % sp,
        "    from bitsandbytes.cextension import COMPILED_WITH_CUDA",
        '  File "%s/bitsandbytes/cextension.py", line 20, in <module>' % sp,
        "    raise RuntimeError('''",
    ] + bnb_err.split("\n") + ["", "The above exception was the direct cause of the following exception:", ""]
    user = [
        '  File "/usr/local/lib/python3.10/site-packages/tagger/handlers.py", line 58, in load_model',
        "    model = AutoModelForCausalLM.from_pretrained(self._path, device_map={'': 0}, load_in_8bit=True)",
        '  File "%s/transformers/models/auto/auto_factory.py", line 492, in from_pretrained' % sp,
        "    model_class = _get_model_class(config, cls._model_mapping)",
        '  File "%s/transformers/models/auto/auto_factory.py", line 376, in _get_model_class' % sp,
        "    supported_models = model_mapping[type(config)]",
        '  File "%s/transformers/utils/import_utils.py", line 1089, in __getattr__' % sp,
        "    module = self._get_module(self._class_to_module[name])",
        '  File "%s/transformers/utils/import_utils.py", line 1101, in _get_module' % sp,
        "    raise RuntimeError(",
        "RuntimeError: Failed to import transformers.models.llama.modeling_llama because of the following error (look up to see its traceback):",
        "",
    ] + bnb_err.split("\n")[1:]
    user[-1] = user[-1] + " [while running 'RunInference/BeamML_RunInference-ptransform-41']"
    tb = inner + beam_setup_tb(py, user, "")
    tt = t + 30
    for k in range(4):
        c.wk(tt, vm, "Loading model from /models/llama-2-7b-chat-hf (8-bit, device cuda:0)",
             logger="tagger.handlers", line="handlers.py:52", step="RunInference/BeamML_RunInference")
        if k < 2:
            for i, (ln, sev) in enumerate(bnb_out):
                c.dk(tt + 1 + i * 0.003, vm, ln, sev)
        tt = report_failure(c, tt + 2, vm, tb, "process_bundle-%d" % (8861273 + k * 7), stderr=(k < 2))
        tt += 35 + k * 20
    c.jm(tt + 5, fail4("S03:RunInference/BeamML_RunInference", vm,
                       "RuntimeError: Failed to import transformers.models.llama.modeling_llama because of the following error (look up to see its traceback):"), "ERROR")
    job_teardown(c, tt + 7)
    truth = dict(
        outcome="failed", family="cuda-library-setup",
        root_cause=("bitsandbytes 0.41.x in a python:3.10-slim based custom container could not find the CUDA "
                    "runtime library (libcudart.so is not on any library path; torch's pip wheel keeps its own copy), "
                    "so it loaded the CPU build and raised 'CUDA Setup failed despite GPU being available' when the "
                    "8-bit Llama-2 model was loaded. The GPU and driver were fine. Fix: upgrade bitsandbytes (>=0.43 "
                    "ships CUDA binaries that use torch's runtime) or build on a CUDA runtime base image / add the "
                    "libcudart directory to LD_LIBRARY_PATH."),
        setup=dict(gpu="1x NVIDIA L4 (g2-standard-8)", python="3.10", beam=beam,
                   stack="transformers 4.3x + accelerate + bitsandbytes 0.41.1, Llama-2-7b-chat 8-bit, RunInference custom handler, custom container",
                   region="us-central1"),
        evidence=[
            "CUDA SETUP: Problem: The main issue seems to be that the main CUDA runtime library was not detected.",
            "CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...",
            "DEBUG: Possible options found for libcudart.so: set()",
            "CUDA Setup failed despite GPU being available. Please run the following command to get more information:",
        ],
        red_herrings=[
            "RuntimeError: Failed to import transformers.models.llama.modeling_llama because of the following error (look up to see its traceback):",
            "Error initializing dynamic plugin prober",
            "Running pip as the 'root' user can result in broken permissions",
            "Discarding unparseable args",
        ],
        sources=[
            "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/778 (BUG REPORT banner, 'did not contain [libcudart.so ...]', 'libcudart.so not found in any environmental path', 'Possible options found for libcudart.so: set()')",
            "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/723 ('CUDA SETUP: Problem: The main issue seems to be that the main CUDA runtime library was not detected.' and Solution 1/1a/1b lines)",
            "bitsandbytes 0.41 bitsandbytes/cextension.py (RuntimeError 'CUDA Setup failed despite GPU being available. Please run the following command ...', found via the code index)",
            "public write-up of the same chained traceback (transformers import_utils 'Failed to import transformers.models.llama.modeling_llama because of the following error (look up to see its traceback)', accelerate/utils/bnb.py import of bitsandbytes), found via the code index",
            S_SDKWORKER, S_BEAM24906, S_BEAM30482, S_HARNESS, S_DOCS_ERR, S_PIP, S_COSGPU,
        ],
        synthetic=COMMON_SYNTH + [
            "user module tagger/handlers.py, its log line and model path",
            "the exact list of non-existent paths in the bitsandbytes warnings (format is real)",
            "harness line 'Starting 1 SDK process(es) from image ...'",
            "stderr (docker) copies of the bitsandbytes banner and traceback are kept for the first two of the four attempts only, to stay under 300 entries",
        ],
    )
    return c, truth


def case_xid48():
    c = Case("B", "patent-embed-shard-run", "2026-11-20_09_02_51-14860275522310917342",
             "ipx-research-prod", "771902254013", "us-east4", "us-east4-c",
             _dt.datetime(2026, 11, 20, 17, 2, 51, tzinfo=_dt.timezone.utc), 202)
    py, beam, machine = "3.11", "2.65.0", "a2-ultragpu-2g"
    vm = c.vm("11200902p7c2m9tz")
    steps = ["ListShards/Impulse", "ListShards/FlatMap(list_shards)", "Reshuffle/AddRandomKeys",
             "EmbedShard/ParDo(TorchrunEmbedFn)", "WriteIndex/WriteToParquet"]
    job_start(c, 0, machine, steps=steps)
    t = vm_boot(c, 45, vm, driver="550.90.07")
    c.jm(160, "Workers have started successfully.")
    opts = opts_dump(c, py, beam, machine, "type:nvidia-a100-80gb;count:2;install-nvidia-driver:latest",
                     "us-east4-docker.pkg.dev/ipx-research-prod/beam/embedder:2026.11.2",
                     extra_exp=["no_use_multiple_sdk_containers"])
    t = sdk_start(c, t + 25, vm, py, opts)
    L = "embedder.torchrun_fn"
    stepn = "EmbedShard/ParDo(TorchrunEmbedFn)"

    def relay(tt, s, sev="INFO"):
        c.wk(tt, vm, "[torchrun] " + s, sev=sev, logger=L, line="torchrun_fn.py:88", thread="Thread-17", step=stepn)

    host = "patent-embed-shard-r"
    nccl_init = [
        "%s:211:211 [0] NCCL INFO Bootstrap : Using eth0:10.150.0.14<0>",
        "%s:211:211 [0] NCCL INFO NET/Plugin: No plugin found (libnccl-net.so)",
        "%s:211:211 [0] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-net.so",
        "%s:211:211 [0] NCCL INFO NET/Plugin: Using internal network plugin.",
        "%s:211:211 [0] NCCL INFO cudaDriverVersion 12040",
        "NCCL version 2.21.5+cuda12.4",
        "%s:212:212 [1] NCCL INFO cudaDriverVersion 12040",
        "%s:212:212 [1] NCCL INFO Bootstrap : Using eth0:10.150.0.14<0>",
        "%s:212:212 [1] NCCL INFO NET/Plugin: No plugin found (libnccl-net.so)",
        "%s:212:212 [1] NCCL INFO NET/Plugin: Using internal network plugin.",
    ]
    tt = t + 20
    for attempt in range(4):
        shard = "gs://ipx-research-prod-corpus/shards/part-%05d.parquet" % (117 + attempt * 0)
        c.wk(tt, vm, "Launching torchrun --nproc_per_node=2 embed_shard.py --shard %s" % shard,
             logger=L, line="torchrun_fn.py:61", step=stepn)
        for i, s in enumerate(nccl_init):
            relay(tt + 6 + i * 0.01, s.replace("%s", host) if "%s" in s else s)
        if attempt == 0:
            relay(tt + 40, "rank0: loaded BAAI/bge-m3 in 31.2s; 48213 docs in shard")
            for k in range(6):
                relay(tt + 120 + k * 150, "rank0: embedded %d/48213 docs" % ((k + 1) * 6400))
            x = tt + 1050
            c.sy(x, vm, "NVRM: GPU at PCI:0000:00:05: GPU-7c1e5a90-3b2d-8f41-a6e2-1d93c0b7f5a4", "ERROR")
            c.sy(x + 0.001, vm, "NVRM: GPU Board Serial Number: 1324621054337", "ERROR")
            c.sy(x + 0.002, vm, "NVRM: Xid (PCI:0000:00:05): 48, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at physAddr 0x9f3a25c40 partition 5, subpartition 1.", "ERROR")
            c.sy(x + 0.003, vm, "NVRM: Xid (PCI:0000:00:05): 48, pid=212, name=python3, channel 0x00000002", "ERROR")
            c.sy(x + 0.004, vm, "NVRM: Xid (PCI:0000:00:05): 63, pid=212, name=python3, Row Remapper: New row (0x00000009f3a25c40) marked for remapping, reset gpu to activate.", "ERROR")
            ts1 = _klog_ts(c.us(x + 0.3))
            relay(x + 0.3, "[rank1]:[E%s ProcessGroupNCCL.cpp:1899] [PG ID 0 PG GUID 0(default_pg) Rank 1] Process group watchdog thread terminated with exception: CUDA error: uncorrectable ECC error encountered" % (ts1[:4] + " " + ts1[5:] + "779"))
            relay(x + 0.31, "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.")
            relay(x + 0.32, "For debugging consider passing CUDA_LAUNCH_BLOCKING=1")
            relay(x + 0.33, "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.")
            relay(x + 0.34, "terminate called after throwing an instance of 'c10::DistBackendError'")
            relay(x + 0.35, "Fatal Python error: Aborted")
            seq = 51753
        else:
            x = tt + 50
            relay(x, "[rank1]: RuntimeError: CUDA error: uncorrectable ECC error encountered")
            relay(x + 0.01, "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.")
            relay(x + 0.02, "For debugging consider passing CUDA_LAUNCH_BLOCKING=1")
            relay(x + 0.03, "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.")
            c.sy(x - 0.2, vm, "NVRM: Xid (PCI:0000:00:05): 48, pid=%d, name=python3, channel 0x00000002" % (212 + attempt * 101), "ERROR")
            seq = 1
        # lull while rank0 waits in the collective
        c.wk(x + 330, vm, ("Operation ongoing for over %.2f seconds in state process-msecs in step %s  without returning. "
                           "Current Traceback:\n  File \"/usr/local/lib/python3.11/threading.py\", line 1002, in _bootstrap\n"
                           "    self._bootstrap_inner()\n  File \"/usr/local/lib/python3.11/site-packages/embedder/torchrun_fn.py\", line 79, in process\n"
                           "    for line in proc.stdout:\n") % (330 + (x - tt) if attempt == 0 else 380.0, stepn),
             sev="WARNING", logger="apache_beam.runners.worker.worker_status", line="worker_status.py:245",
             thread="Thread-7")
        y = x + 600.1
        ts0 = _klog_ts(c.us(y))
        relay(y, "[rank0]:[E%s ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=%d, OpType=ALLREDUCE, NumelIn=5057683, NumelOut=5057683, Timeout(ms)=600000) ran for 600072 milliseconds before timing out."
              % (ts0[:4] + " " + ts0[5:] + "139", seq))
        relay(y + 0.01, "[rank0]: ... last enqueued work: %d, last completed work: %d" % (seq, seq - 1))
        relay(y + 0.02, "[rank0]: To avoid data inconsistency, we are taking the entire process down.")
        relay(y + 30, "W%s Sending process 212 closing signal SIGTERM" % _klog_ts(c.us(y + 30))[:13])
        relay(y + 31, "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:")
        relay(y + 31.01, "  exitcode  : -6 (pid: 211)")
        relay(y + 31.02, "  traceback : Signal 6 (SIGABRT) received by PID 211")
        user = [
            '  File "apache_beam/runners/common.py", line 1501, in apache_beam.runners.common.DoFnRunner.process',
            '  File "apache_beam/runners/common.py", line 689, in apache_beam.runners.common.SimpleInvoker.invoke_process',
            '  File "/usr/local/lib/python3.11/site-packages/embedder/torchrun_fn.py", line 97, in process',
            "    raise subprocess.CalledProcessError(rc, cmd)",
            "subprocess.CalledProcessError: Command '['torchrun', '--nproc_per_node=2', 'embed_shard.py', '--shard', '%s']' returned non-zero exit status 1. [while running 'EmbedShard/ParDo(TorchrunEmbedFn)-ptransform-33']" % shard,
        ]
        sp = "/usr/local/lib/python3.11/site-packages"
        tb = ["Traceback (most recent call last):",
              '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute' % sp,
              "    response = task()",
              '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 689, in process_bundle' % sp,
              "    bundle_processor.process_bundle(instruction_id))",
              '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1274, in process_bundle' % sp,
              "    input_op_by_transform_id[element.transform_id].process_encoded(",
              '  File "apache_beam/runners/worker/operations.py", line 1009, in apache_beam.runners.worker.operations.DoOperation.process',
              ] + user
        tt = report_failure(c, y + 32, vm, tb, "process_bundle-%d" % (40021 + attempt * 5))
        tt += 20
    c.jm(tt + 5, fail4("S02:EmbedShard/ParDo(TorchrunEmbedFn)", vm,
                       "subprocess.CalledProcessError: Command '['torchrun', '--nproc_per_node=2', 'embed_shard.py', '--shard', 'gs://ipx-research-prod-corpus/shards/part-00117.parquet']' returned non-zero exit status 1."), "ERROR")
    job_teardown(c, tt + 7)
    truth = dict(
        outcome="failed", family="gpu-hardware",
        root_cause=("Uncorrectable double-bit ECC error (NVIDIA Xid 48, row remap pending per Xid 63) on the second "
                    "A100 80GB of the only worker. Rank 1 of the torchrun job aborted with 'CUDA error: uncorrectable "
                    "ECC error encountered'; rank 0 then hung in the ALLREDUCE until the 600 s NCCL watchdog killed it. "
                    "All four retries ran on the same bad VM (max_num_workers=1) and failed the same way. Not a code or "
                    "NCCL-config bug: replace the VM (let Dataflow recycle the worker / rerun with more than one worker) "
                    "- the GPU needs a reset for the row remap."),
        setup=dict(gpu="2x NVIDIA A100 80GB (a2-ultragpu-2g)", python="3.11", beam=beam,
                   stack="PyTorch 2.5 torchrun (2 ranks, NCCL 2.21.5) launched from a DoFn, BAAI/bge-m3 embeddings",
                   region="us-east4"),
        evidence=[
            "NVRM: Xid (PCI:0000:00:05): 48, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer",
            "Row Remapper: New row (0x00000009f3a25c40) marked for remapping, reset gpu to activate.",
            "Process group watchdog thread terminated with exception: CUDA error: uncorrectable ECC error encountered",
        ],
        red_herrings=[
            "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=51753, OpType=ALLREDUCE",
            "NCCL INFO NET/Plugin: No plugin found (libnccl-net.so)",
            "returned non-zero exit status 1.",
            "Operation ongoing for over",
            "Error initializing dynamic plugin prober",
        ],
        sources=[
            "public incident write-up (GitHub-hosted blog, 2026-08, 'GPU ECC 장애: VRAM DBE부터 row remapping까지') with journalctl lines 'NVRM: Xid (PCI:...): 48, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at physAddr ...', 'Xid ... 48, pid=..., name=python, channel 0x00000002', 'Xid ... 63, ... Row Remapper: New row (...) marked for remapping, reset gpu to activate.' and the rank1/rank0 torch lines (ProcessGroupNCCL.cpp:1899 'Process group watchdog thread terminated with exception: CUDA error: uncorrectable ECC error encountered', ProcessGroupNCCL.cpp:632 'Watchdog caught collective operation timeout: WorkNCCL(SeqNum=51753, OpType=ALLREDUCE, ...) ran for 600072 milliseconds before timing out.', 'To avoid data inconsistency, we are taking the entire process down.', ChildFailedError exitcode -6) - found via the code index",
            "https://github.com/huggingface/accelerate/issues/1192 and https://github.com/vllm-project/vllm/issues/5222 ('RuntimeError: CUDA error: uncorrectable ECC error encountered' + 'CUDA kernel errors might be asynchronously reported ...'; maintainers: hardware error)",
            "https://github.com/NVIDIA/nccl/issues/1504 (NCCL INFO Bootstrap / NET/Plugin / cudaDriverVersion 12040 / 'NCCL version 2.21.5+cuda12.4' lines)",
            "NVIDIA Xid documentation (Xid 48 DBE, Xid 63 row remapping) via /work/shared/reference/dataflow-log-signatures.md section 2h",
            "apache/beam sdks/python/apache_beam/runners/worker/worker_status.py ('Operation ongoing for over %.2f seconds in state %s' + ' in step %s ' + 'without returning. Current Traceback:')",
            S_SDKWORKER, S_BEAM24906, S_BEAM30482, S_HARNESS, S_DOCS_ERR, S_COSGPU,
        ],
        synthetic=COMMON_SYNTH + [
            "user DoFn embedder/torchrun_fn.py relaying torchrun output with a '[torchrun] ' prefix, its progress lines",
            "PCI address, physAddr, GPU UUID/serial and pids in the NVRM lines (format real)",
            "placement of kernel NVRM lines in the Dataflow system log (inferred; no public Dataflow Xid entry exists)",
            "rank0/rank1 timestamps inside the relayed torch lines",
        ],
    )
    return c, truth


def case_pymismatch():
    c = Case("C", "defect-classifier-backfill", "2026-11-12_02_44_19-5523190874410266023",
             "fabline-vision", "306881420557", "europe-west4", "europe-west4-a",
             _dt.datetime(2026, 11, 12, 10, 44, 19, tzinfo=_dt.timezone.utc), 303)
    py, beam, machine = "3.10", "2.64.0", "n1-standard-8"
    vm = c.vm("11120244q2wzc8rf")
    steps = ["ReadImages/MatchAll", "ReadImages/ReadMatches", "Decode/Map(decode_png)",
             "Classify/RunInference/BeamML_RunInference", "Write/WriteToText"]
    job_start(c, 0, machine, steps=steps)
    t = vm_boot(c, 40, vm, driver="550.90.07")
    c.jm(140, "Workers have started successfully.")
    image = "europe-west4-docker.pkg.dev/fabline-vision/beam/defect-clf:ngc-24.08"
    opts = opts_dump(c, py, beam, machine, "type:nvidia-tesla-t4;count:1;install-nvidia-driver",
                     image, extra=", 'requirements_file': 'requirements.txt'")
    pip_root_warning(c, t + 12, vm)
    c.dk(t + 13, vm, "Installing setup packages ...", "INFO")
    t = sdk_start(c, t + 20, vm, py, opts)
    sp = "/usr/local/lib/python3.10/dist-packages"
    tb = ["Traceback (most recent call last):",
          '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute' % sp,
          "    response = task()",
          '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 386, in <lambda>' % sp,
          "    lambda: self.create_worker().do_instruction(request), request)",
          '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 658, in do_instruction' % sp,
          "    return getattr(self, request_type)(",
          '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 689, in process_bundle' % sp,
          "    bundle_processor = self.bundle_processor_cache.get(",
          '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 512, in get' % sp,
          "    processor = bundle_processor.BundleProcessor(",
          '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1103, in __init__' % sp,
          "    _verify_descriptor_created_in_a_compatible_env(process_bundle_descriptor)",
          '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1066, in _verify_descriptor_created_in_a_compatible_env' % sp,
          "    raise RuntimeError(",
          "RuntimeError: Pipeline construction environment and pipeline runtime environment are not compatible. If you use a custom container image, check that the Python interpreter minor version and the Apache Beam version in your image match the versions used at pipeline construction time. Submission environment: beam:version:sdk_base:apache/beam_python3.12_sdk:2.64.0. Runtime environment: beam:version:sdk_base:apache/beam_python3.10_sdk:2.64.0.",
          ]
    tt = t + 8
    for k in range(4):
        tt = report_failure(c, tt, vm, tb, "process_bundle-%d" % (17 + k * 3))
        tt += 12 + k * 9
    c.jm(tt + 4, fail4("S01:ReadImages/MatchAll+ReadImages/ReadMatches+Decode/Map(decode_png)+Classify/RunInference/BeamML_RunInference", vm,
                       "RuntimeError: Pipeline construction environment and pipeline runtime environment are not compatible."), "ERROR")
    job_teardown(c, tt + 6)
    truth = dict(
        outcome="failed", family="version-skew",
        root_cause=("Python minor-version skew: the pipeline was launched from Python 3.12 (apache-beam 2.64.0) but the "
                    "custom container, built FROM nvcr.io/nvidia/pytorch:24.08-py3, runs Python 3.10. Beam's runtime "
                    "check rejects every bundle ('Submission environment: ...python3.12_sdk... Runtime environment: "
                    "...python3.10_sdk...'). The T4 and driver were healthy. Fix: launch from Python 3.10 (or build the "
                    "image on a 3.12 base) with the same Beam version."),
        setup=dict(gpu="1x NVIDIA T4 (n1-standard-8)", python="3.10 in container / 3.12 at launch", beam=beam,
                   stack="PyTorch (NGC 24.08 image) image classifier via RunInference, custom container",
                   region="europe-west4"),
        evidence=[
            "Pipeline construction environment and pipeline runtime environment are not compatible.",
            "Submission environment: beam:version:sdk_base:apache/beam_python3.12_sdk:2.64.0. Runtime environment: beam:version:sdk_base:apache/beam_python3.10_sdk:2.64.0.",
        ],
        red_herrings=[
            "Running pip as the 'root' user can result in broken permissions",
            "Error initializing dynamic plugin prober",
            "Discarding unparseable args",
        ],
        sources=[
            "apache/beam sdks/python/apache_beam/runners/worker/bundle_processor.py _verify_descriptor_created_in_a_compatible_env (RuntimeError text), via /work/shared/reference/dataflow-log-signatures.md a4",
            "https://github.com/apache/beam/issues/28084 and https://github.com/apache/beam/issues/37670 (real 'Submission environment: beam:version:sdk_base:apache/beam_python3.X_sdk:V. Runtime environment: ...' values)",
            "https://cloud.google.com/dataflow/docs/guides/common-errors#custom-container-python-version (minor Python version must match)",
            "apache/beam boot.go ('Installing setup packages ...', 'Executing: python ...')",
            S_SDKWORKER, S_BEAM24906, S_BEAM30482, S_HARNESS, S_DOCS_ERR, S_PIP, S_COSGPU,
        ],
        synthetic=COMMON_SYNTH + ["image name and requirements_file option"],
    )
    return c, truth


def case_missing_boot():
    c = Case("D", "video-frame-captioner", "2026-11-09_13_05_42-3381740921605571184",
             "streamcut-media", "918204477362", "us-west1", "us-west1-b",
             _dt.datetime(2026, 11, 9, 21, 5, 42, tzinfo=_dt.timezone.utc), 404)
    machine = "g2-standard-8"
    vm = c.vm("11091305f8qk2n4w")
    steps = ["ListVideos/Impulse", "ListVideos/FlatMap(expand)", "Frames/ParDo(SampleFrames)",
             "Caption/RunInference/BeamML_RunInference", "WriteCaptions/WriteToBigQuery"]
    job_start(c, 0, machine, steps=steps)
    t = vm_boot(c, 40, vm, driver="550.90.07")
    c.jm(150, "Workers have started successfully.")
    image = "us-west1-docker.pkg.dev/streamcut-media/ml/captioner:cu124-v7"
    c.kl(t + 2, vm, 'I%s    1187 kuberuntime_manager.go:1105] "Creating PodSandbox for pod" pod="default/%s"' % (_klog_ts(c.us(t + 2)), vm))
    c.kl(t + 40, vm, 'I%s    1187 kubelet.go:2455] "SyncLoop (PLEG): event for pod" pod="default/%s" event={"ID":"5f0c2b6e","Type":"ContainerStarted","Data":"harness"}' % (_klog_ts(c.us(t + 40)), vm))
    c.hn(t + 45, vm, "Starting 1 SDK process(es) from image %s" % image)
    oci = ('failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: '
           'unable to start container process: exec: \\"/opt/apache/beam/boot\\": stat /opt/apache/beam/boot: '
           'no such file or directory: unknown')
    tt = t + 60
    back = ["10s", "20s", "40s", "1m20s", "2m40s", "5m0s"]
    for k in range(40):
        if tt > 3770:
            break
        ts = _klog_ts(c.us(tt))
        if k % 2 == 0:
            c.kl(tt, vm, 'E%s    1187 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"sdk-0-0\\" with RunContainerError: \\"%s\\"" pod="default/%s" podUID="5f0c2b6e-91d4-4a8e-b2c7-0e4d1f9a3c21"'
                 % (ts, oci, vm), "ERROR")
        else:
            b = back[min(k // 2, 5)]
            c.kl(tt, vm, 'E%s    1187 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"sdk-0-0\\" with CrashLoopBackOff: \\"back-off %s restarting failed container=sdk-0-0 pod=%s_default(5f0c2b6e-91d4-4a8e-b2c7-0e4d1f9a3c21)\\"" pod="default/%s" podUID="5f0c2b6e-91d4-4a8e-b2c7-0e4d1f9a3c21"'
                 % (ts, b, vm, vm), "ERROR")
            c.kl(tt + 0.2, vm, 'I%s    1187 scope.go:117] "RemoveContainer" containerID="%s"' % (_klog_ts(c.us(tt + 0.2)), c._rid(64, "0123456789abcdef")))
        tt += 40 if k < 8 else 300
    c.hn(t + 600, vm, "SDK harness sdk-0-0 has not connected after 600 seconds; still waiting", "WARNING")
    c.hn(t + 1800, vm, "SDK harness sdk-0-0 has not connected after 1800 seconds; still waiting", "WARNING")
    c.jm(3780, "Workflow failed. Causes: The Dataflow job appears to be stuck because no worker activity has been seen in the last 1h. Please check the worker logs in Stackdriver Logging. You can also get help with Cloud Dataflow at https://cloud.google.com/dataflow/support.", "ERROR")
    job_teardown(c, 3782)
    truth = dict(
        outcome="failed", family="custom-container",
        root_cause=("The custom SDK image (multi-stage build on a CUDA base) does not contain Beam's boot "
                    "entrypoint: the Dockerfile sets ENTRYPOINT /opt/apache/beam/boot but never copies /opt/apache/beam "
                    "from the Beam SDK image, so runc cannot exec it and the sdk-0-0 container never starts "
                    "(RunContainerError, then CrashLoopBackOff). No SDK harness ever connected and the job was killed by "
                    "the 1h no-activity watchdog. Fix: COPY --from=apache/beam_python3.12_sdk:<ver> /opt/apache/beam /opt/apache/beam."),
        setup=dict(gpu="1x NVIDIA L4 (g2-standard-8)", python="3.12", beam="2.63.0",
                   stack="BLIP-2 style image captioning via RunInference in a CUDA 12.4 custom container",
                   region="us-west1"),
        evidence=[
            "stat /opt/apache/beam/boot: no such file or directory",
            "with RunContainerError",
            "no worker activity has been seen in the last 1h",
        ],
        red_herrings=[
            "Workers have started successfully.",
            "Error initializing dynamic plugin prober",
            "PLEG is not healthy: pleg has yet to be successful",
        ],
        sources=[
            "https://cloud.google.com/dataflow/docs/guides/using-custom-containers and common-errors (exec /opt/apache/beam/boot errors, 'Error syncing pod' CrashLoopBackOff template, RemoveContainer, stuck-job ending), via the reference file 2f",
            "https://github.com/kubeflow/spark-operator/issues/1492 and https://github.com/kubeflow/pipelines/issues/11166 (runc wording 'OCI runtime create failed: runc create failed: unable to start container process: exec: \"...\": stat ...: no such file or directory: unknown')",
            "kubernetes pkg/kubelet/pod_workers.go structured log 'Error syncing pod, skipping' err=... (reference file f1)",
            "https://github.com/google-research/text-to-text-transfer-transformer/issues/986 and apache/beam PR #34381 ('The Dataflow job appears to be stuck because no worker activity has been seen in the last 1h...')",
            S_DOCS_ERR, S_COSGPU,
        ],
        synthetic=COMMON_SYNTH + [
            "the composed kubelet RunContainerError line (runc wording from the cited issues, container/pod names ours)",
            "harness lines 'Starting 1 SDK process(es) ...' and 'SDK harness sdk-0-0 has not connected after N seconds; still waiting'",
            "kubelet PodSandbox / PLEG event lines",
        ],
    )
    return c, truth


def case_n1_l4():
    c = Case("E", "call-transcript-summaries", "2026-11-21_01_17_03-7792018455301266740",
             "voxline-analytics", "553017286410", "us-central1", "us-central1-a",
             _dt.datetime(2026, 11, 21, 9, 17, 3, tzinfo=_dt.timezone.utc), 505)
    machine = "n1-standard-8"
    steps = ["ReadTranscripts/Read", "ReadTranscripts/Map(json.loads)", "Chunk/FlatMap(chunk)",
             "Summarize/RunInference/BeamML_RunInference", "Summarize/Map(postprocess)",
             "Write/WriteToBigQuery/_StreamToBigQuery/StreamInsertRows", "Write/WriteToBigQuery/Map(format)"]
    c.jm(0, "The Dataflow RunnerV2 container image of this job's workers will be ready for update in 7 days.")
    c.jm(1, "Worker configuration: %s in %s." % (machine, c.zone))
    c.jm(2, "Expanding SplittableParDo operations into optimizable parts.")
    c.jm(2.1, "Expanding CoGroupByKey operations into optimizable parts.")
    c.jm(2.2, "Expanding GroupByKey operations into optimizable parts.")
    c.jm(2.3, "Lifting ValueCombiningMappingFns into MergeBucketsMappingFns", "DEBUG")
    c.jm(2.4, "Annotating graph with Autotuner information.", "DEBUG")
    c.jm(2.5, "Fusing adjacent ParDo, Read, Write, and Flatten operations")
    for i in range(1, len(steps)):
        c.jm(2.6 + i * 0.05, "Fusing consumer %s into %s" % (steps[i], steps[i - 1]))
    extra = ["ReadTranscripts/Read/Impulse", "ReadTranscripts/Read/Split", "ReadTranscripts/Read/Reshuffle/AddRandomKeys",
             "ReadTranscripts/Read/Reshuffle/ReshufflePerKey/Map(reify_timestamps)",
             "ReadTranscripts/Read/Reshuffle/ReshufflePerKey/GroupByKey/Reify",
             "ReadTranscripts/Read/Reshuffle/ReshufflePerKey/GroupByKey/Write",
             "ReadTranscripts/Read/Reshuffle/ReshufflePerKey/GroupByKey/Read",
             "ReadTranscripts/Read/Reshuffle/ReshufflePerKey/FlatMap(restore_timestamps)",
             "ReadTranscripts/Read/Reshuffle/RemoveRandomKeys", "ReadTranscripts/Read/ReadSplits"]
    for i in range(1, len(extra)):
        c.jm(3 + i * 0.05, "Fusing consumer %s into %s" % (extra[i], extra[i - 1]))
    c.jm(4, "Value \"ReadTranscripts/Read/Reshuffle/ReshufflePerKey/GroupByKey/Session\" materialized.", "DEBUG")
    c.jm(4.1, "Workflow config is missing a default resource spec.", "DEBUG")
    c.jm(4.2, "Adding StepResource setup and teardown to workflow graph.", "DEBUG")
    c.jm(4.3, "Adding workflow start and stop steps.", "DEBUG")
    c.jm(4.4, "Assigning stage ids.", "DEBUG")
    c.jm(5, "Starting worker pool setup.", "DEBUG")
    c.jm(5.5, "Starting 1 workers in %s..." % c.zone)
    c.jm(6, "Executing operation ReadTranscripts/Read/Reshuffle/ReshufflePerKey/GroupByKey/Create", "INFO")
    c.jm(6.1, "Finished operation ReadTranscripts/Read/Reshuffle/ReshufflePerKey/GroupByKey/Create", "INFO")
    c.jm(6.2, "Value \"ReadTranscripts/Read/Reshuffle/ReshufflePerKey/GroupByKey/Session\" materialized.", "DEBUG")
    c.jm(6.3, "Executing operation ReadTranscripts/Read/Impulse+ReadTranscripts/Read/Split+ReadTranscripts/Read/Reshuffle/AddRandomKeys+ReadTranscripts/Read/Reshuffle/ReshufflePerKey/Map(reify_timestamps)+ReadTranscripts/Read/Reshuffle/ReshufflePerKey/GroupByKey/Reify+ReadTranscripts/Read/Reshuffle/ReshufflePerKey/GroupByKey/Write")
    c.jm(7, "Autoscaling is enabled for job %s. The number of workers will be between 1 and 2." % c.job_id)
    names = ["call-transcript-summ-11210117-w2hd-harness-6k1m", "call-transcript-summ-11210117-w2hd-harness-q0vb",
             "call-transcript-summ-11210117-w2hd-harness-zt7c", "call-transcript-summ-11210117-w2hd-harness-3xne",
             "call-transcript-summ-11210117-w2hd-harness-j8pd", "call-transcript-summ-11210117-w2hd-harness-u5ra",
             "call-transcript-summ-11210117-w2hd-harness-m1gs", "call-transcript-summ-11210117-w2hd-harness-b9lw"]
    t = 40
    for k, n in enumerate(names):
        c.jm(t, "Startup of the worker pool in zone %s failed to bring up any of the desired 1 workers. Please refer to "
             "https://cloud.google.com/dataflow/docs/guides/common-errors#worker-pool-failure for help troubleshooting. "
             "UNSUPPORTED_OPERATION: Instance '%s' creation failed: [nvidia-l4, n1-standard-8] features are not compatible "
             "for creating instance." % (c.zone, n), "ERROR")
        c.jm(t + 1, "Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).")
        t += 95 + k * 30
    c.jm(t, "Workflow failed.", "ERROR")
    c.jm(t + 1, "Cleaning up.")
    c.jm(t + 2, "Starting worker pool teardown.", "DEBUG")
    c.jm(t + 2.5, "Stopping worker pool...")
    c.jm(t + 10, "Autoscaling: Would further reduce the number of workers but reached the minimum number allowed for the job.")
    c.jm(t + 12, "Worker pool stopped.")
    c.jm(t + 13, "Tearing down pending resources...", "DEBUG")
    # job-message DEBUG/DETAILED noise around the startup retries
    for k in range(14):
        c.jm(50 + k * 55, "Checking permissions granted to controller Service Account.", "DEBUG" if k % 2 else "INFO")
    truth = dict(
        outcome="failed", family="accelerator-config",
        root_cause=("Machine type cannot take the requested GPU: the job asked for worker_accelerator type nvidia-l4 on "
                    "n1-standard-8 workers. L4 GPUs are only offered on G2 machine types, so every worker VM creation was "
                    "rejected ('[nvidia-l4, n1-standard-8] features are not compatible for creating instance') and no worker "
                    "ever started. Fix: use a g2-standard-* machine type (or a T4/V100 with n1)."),
        setup=dict(gpu="1x NVIDIA L4 requested on n1-standard-8 (never created)", python="3.11", beam="2.66.0",
                   stack="vLLM-based summarization via RunInference (never ran)", region="us-central1"),
        evidence=[
            "[nvidia-l4, n1-standard-8] features are not compatible for creating instance.",
            "failed to bring up any of the desired 1 workers",
        ],
        red_herrings=[
            "Checking permissions granted to controller Service Account.",
            "Autoscaling: Raised the number of workers to 1 based on the rate of progress",
        ],
        sources=[
            "https://github.com/skypilot-org/skypilot/issues/212 (GCE: \"[nvidia-tesla-a100, n1-highmem-8] features are not compatible for creating instance.\")",
            "https://github.com/kubernetes/test-infra/pull/35205 (GCE: '[e2-standard-2, nvidia-tesla-t4] features are not compatible for creating instance.')",
            "https://cloud.google.com/dataflow/docs/gpu/use-l4-gpus (L4 requires G2 machine types)",
            "https://github.com/GoogleCloudPlatform/pontem/issues/251 and common-errors (Startup of the worker pool ... Please refer to ...#worker-pool-failure ... wording); UNSUPPORTED_OPERATION code for accelerator/machine problems from common-errors g1",
            "https://github.com/google-research/text-to-text-transfer-transformer/issues/986 (Value \"...\" materialized., Executing operation ...)",
            S_DOCS_ERR,
        ],
        synthetic=COMMON_SYNTH + [
            "the composed Dataflow worker-pool job message (Dataflow wrapper + GCE sentence from the cited issues; error code UNSUPPORTED_OPERATION assumed)",
            "'Workflow failed.' as the bare final message, 'Checking permissions granted to controller Service Account.' noise",
            "the cause is visible only in job-message entries (no worker VM was created)",
        ],
    )
    return c, truth


def case_triton():
    c = Case("F", "product-photo-scoring", "2026-11-14_22_40_12-12004418835520917730",
             "shopgrid-ml", "204419986530", "asia-southeast1", "asia-southeast1-b",
             _dt.datetime(2026, 11, 15, 6, 40, 12, tzinfo=_dt.timezone.utc), 606)
    py, beam, machine = "3.10", "2.60.0", "g2-standard-8"
    vm = c.vm("11142240n5hd0s1e")
    steps = ["ReadPhotos/Read", "Preprocess/Map(resize_224)", "Score/ParDo(TritonScoreFn)", "Write/WriteToBigQuery"]
    job_start(c, 0, machine, steps=steps)
    t = vm_boot(c, 40, vm, driver="535.230.02")
    c.jm(145, "Workers have started successfully.")
    opts = opts_dump(c, py, beam, machine, "type:nvidia-l4;count:1;install-nvidia-driver",
                     "asia-southeast1-docker.pkg.dev/shopgrid-ml/beam/triton-scorer:23.12",
                     extra_exp=["no_use_multiple_sdk_containers"])
    t = sdk_start(c, t + 20, vm, py, opts)
    L = "scorer.triton_fn"
    stp = "Score/ParDo(TritonScoreFn)"

    def tr(tt, s):
        c.wk(tt, vm, "tritonserver: " + s, logger=L, line="triton_fn.py:71", thread="Thread-21", step=stp)

    tbl = [
        "+----------------------------------+----------------------------------------------------------------------------------------------------+",
        "| Option                           | Value                                                                                              |",
        "+----------------------------------+----------------------------------------------------------------------------------------------------+",
        "| server_id                        | triton                                                                                             |",
        "| server_version                   | 2.41.0                                                                                             |",
        "| model_repository_path[0]         | /models                                                                                            |",
        "| model_control_mode               | MODE_NONE                                                                                          |",
        "| strict_model_config              | 0                                                                                                  |",
        "| rate_limit                       | OFF                                                                                                |",
        "| pinned_memory_pool_byte_size     | 268435456                                                                                          |",
        "| cuda_memory_pool_byte_size{0}    | 67108864                                                                                           |",
        "| min_supported_compute_capability | 6.0                                                                                                |",
        "| strict_readiness                 | 1                                                                                                  |",
        "| exit_timeout                     | 30                                                                                                 |",
        "| cache_enabled                    | 0                                                                                                  |",
        "+----------------------------------+----------------------------------------------------------------------------------------------------+",
    ]
    tt = t + 15
    for k in range(4):
        c.wk(tt, vm, "Syncing gs://shopgrid-ml-models/triton-repo/ to /models", logger=L, line="triton_fn.py:44", step=stp)
        c.wk(tt + 9, vm, "Starting tritonserver --model-repository=/models --backend-config=onnxruntime,default-max-batch-size=4", logger=L, line="triton_fn.py:58", step=stp)
        b = tt + 11
        kt = lambda d: _klog_ts(c.us(b + d))
        tr(b + 0.10, "I%s 88 model_lifecycle.cc:461] loading: densenet_onnx:1" % kt(0.10))
        tr(b + 0.20, "I%s 88 onnxruntime.cc:2608] TRITONBACKEND_Initialize: onnxruntime" % kt(0.20))
        tr(b + 0.21, "I%s 88 onnxruntime.cc:2618] Triton TRITONBACKEND API version: 1.17" % kt(0.21))
        tr(b + 0.22, "I%s 88 onnxruntime.cc:2624] 'onnxruntime' TRITONBACKEND API version: 1.17" % kt(0.22))
        tr(b + 0.30, "I%s 88 onnxruntime.cc:2719] TRITONBACKEND_ModelInitialize: densenet_onnx (version 1)" % kt(0.30))
        tr(b + 0.31, "I%s 88 onnxruntime.cc:692] skipping model configuration auto-complete for 'densenet_onnx': inputs and outputs already specified" % kt(0.31))
        tr(b + 0.40, "I%s 88 onnxruntime.cc:2784] TRITONBACKEND_ModelInstanceInitialize: densenet_onnx_0_0 (GPU device 0)" % kt(0.40))
        tr(b + 0.90, "I%s 88 onnxruntime.cc:2836] TRITONBACKEND_ModelInstanceFinalize: delete instance state" % kt(0.90))
        tr(b + 0.91, "E%s 88 backend_model.cc:635] ERROR: Failed to create instance: model 'densenet_onnx', tensor 'fc6_1': the model expects 4 dimensions (shape [1,1000,1,1]) but the model configuration specifies 1 dimensions (shape [1001])" % kt(0.91))
        tr(b + 0.92, "I%s 88 onnxruntime.cc:2760] TRITONBACKEND_ModelFinalize: delete model state" % kt(0.92))
        tr(b + 0.93, "E%s 88 model_lifecycle.cc:621] failed to load 'densenet_onnx' version 1: Invalid argument: model 'densenet_onnx', tensor 'fc6_1': the model expects 4 dimensions (shape [1,1000,1,1]) but the model configuration specifies 1 dimensions (shape [1001])" % kt(0.93))
        tr(b + 0.94, "I%s 88 model_lifecycle.cc:756] failed to load 'densenet_onnx'" % kt(0.94))
        if k == 0:
            for i, row in enumerate(tbl):
                tr(b + 1.0 + i * 0.002, row)
        tr(b + 1.1, "I%s 88 server.cc:307] Waiting for in-flight requests to complete." % kt(1.1))
        tr(b + 1.2, "error: creating server: Internal - failed to load all models")
        sp = "/usr/local/lib/python3.10/dist-packages"
        user = [
            '  File "apache_beam/runners/common.py", line 1501, in apache_beam.runners.common.DoFnRunner.process',
            '  File "apache_beam/runners/common.py", line 689, in apache_beam.runners.common.SimpleInvoker.invoke_process',
            '  File "%s/scorer/triton_fn.py", line 96, in process' % sp,
            "    self._ensure_server()",
            '  File "%s/scorer/triton_fn.py", line 83, in _ensure_server' % sp,
            "    raise RuntimeError('tritonserver exited with code %d before becoming ready on localhost:8001' % rc)",
            "RuntimeError: tritonserver exited with code 1 before becoming ready on localhost:8001 [while running 'Score/ParDo(TritonScoreFn)-ptransform-27']",
        ]
        tb = ["Traceback (most recent call last):",
              '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute' % sp,
              "    response = task()",
              '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 689, in process_bundle' % sp,
              "    bundle_processor.process_bundle(instruction_id))",
              '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1274, in process_bundle' % sp,
              "    input_op_by_transform_id[element.transform_id].process_encoded(",
              '  File "apache_beam/runners/worker/operations.py", line 1009, in apache_beam.runners.worker.operations.DoOperation.process',
              ] + user
        tt = report_failure(c, b + 3, vm, tb, "process_bundle-%d" % (301 + k * 4))
        tt += 25 + 15 * k
    c.jm(tt + 4, fail4("S02:Preprocess/Map(resize_224)+Score/ParDo(TritonScoreFn)", vm,
                       "RuntimeError: tritonserver exited with code 1 before becoming ready on localhost:8001"), "ERROR")
    job_teardown(c, tt + 6)
    truth = dict(
        outcome="failed", family="model-server",
        root_cause=("Triton Inference Server (23.12, started as a subprocess by the DoFn) refused to load the only model: "
                    "config.pbtxt of 'densenet_onnx' declares output fc6_1 with dims [1001] while the ONNX model produces "
                    "[1,1000,1,1], so 'failed to load all models' and tritonserver exited. The DoFn's loud RuntimeError "
                    "('exited with code 1 before becoming ready') is only the symptom; the cause is in the relayed Triton "
                    "log lines logged at INFO. Fix the config.pbtxt output dims (1000 with reshape, or max_batch_size/dims "
                    "matching the model)."),
        setup=dict(gpu="1x NVIDIA L4 (g2-standard-8)", python="3.10", beam=beam,
                   stack="Triton Inference Server 23.12 (server 2.41.0) onnxruntime backend in the SDK container, tritonclient gRPC",
                   region="asia-southeast1"),
        evidence=[
            "failed to load 'densenet_onnx' version 1: Invalid argument: model 'densenet_onnx', tensor 'fc6_1': the model expects 4 dimensions (shape [1,1000,1,1]) but the model configuration specifies 1 dimensions (shape [1001])",
            "error: creating server: Internal - failed to load all models",
        ],
        red_herrings=[
            "RuntimeError: tritonserver exited with code 1 before becoming ready on localhost:8001",
            "skipping model configuration auto-complete for 'densenet_onnx': inputs and outputs already specified",
            "Error initializing dynamic plugin prober",
        ],
        sources=[
            "https://github.com/triton-inference-server/onnxruntime_backend/issues/268 (r23.12 / server 2.41.0 log: TRITONBACKEND_* lines, 'ERROR: Failed to create instance: model 'densenet_onnx', tensor 'fc6_1': the model expects 4 dimensions (shape [1,1000,1,1]) but the model configuration specifies 1 dimensions (shape [1001])', model_lifecycle.cc 'failed to load 'densenet_onnx' version 1: Invalid argument: ...', option table)",
            "https://github.com/triton-inference-server/server/issues/6416 and /issues/1311 ('error: creating server: Internal - failed to load all models')",
            S_SDKWORKER, S_BEAM24906, S_BEAM30482, S_HARNESS, S_DOCS_ERR, S_COSGPU,
        ],
        synthetic=COMMON_SYNTH + [
            "user DoFn scorer/triton_fn.py (gsutil sync, subprocess start, 'tritonserver: ' relay prefix, its RuntimeError text)",
            "'server.cc:307] Waiting for in-flight requests to complete.' line, Triton pid 88 and klog timestamps",
        ],
    )
    return c, truth


def case_offload():
    c = Case("G", "claims-summarizer-batch", "2026-11-18_06_12_44-16631902745130028815",
             "northwind-claims", "662091837745", "us-east4", "us-east4-a",
             _dt.datetime(2026, 11, 18, 14, 12, 44, tzinfo=_dt.timezone.utc), 707)
    py, beam, machine = "3.11", "2.62.0", "g2-standard-8"
    vm = c.vm("11180612d4ms0pqe")
    steps = ["ReadClaims/ReadFromBigQuery", "Prompt/Map(to_prompt)", "Summarize/RunInference/BeamML_RunInference",
             "Write/WriteToBigQuery"]
    job_start(c, 0, machine, steps=steps)
    t = vm_boot(c, 40, vm, driver="550.90.07")
    c.jm(150, "Workers have started successfully.")
    opts = opts_dump(c, py, beam, machine, "type:nvidia-l4;count:1;install-nvidia-driver:5xx",
                     "us-east4-docker.pkg.dev/northwind-claims/beam/summarizer:1.8.0",
                     extra_exp=["no_use_multiple_sdk_containers"])
    pip_root_warning(c, t + 10, vm)
    t = sdk_start(c, t + 20, vm, py, opts)
    sp = "/usr/local/lib/python3.11/site-packages"
    L = "summarizer.model"
    stp = "Summarize/RunInference/BeamML_RunInference"
    user = [
        '  File "%s/summarizer/model.py", line 64, in load_model' % sp,
        "    model = AutoModelForCausalLM.from_pretrained(",
        '  File "%s/transformers/models/auto/auto_factory.py", line 561, in from_pretrained' % sp,
        "    return model_class.from_pretrained(",
        '  File "%s/transformers/modeling_utils.py", line 3480, in from_pretrained' % sp,
        "    ) = cls._load_pretrained_model(",
        '  File "%s/transformers/modeling_utils.py", line 3601, in _load_pretrained_model' % sp,
        "    raise ValueError(",
        "ValueError: The current `device_map` had weights offloaded to the disk. Please provide an `offload_folder` for them. Alternatively, make sure you have `safetensors` installed if the model you are using offers the weights in this format. [while running 'Summarize/RunInference/BeamML_RunInference-ptransform-52']",
    ]
    tb = beam_setup_tb(py, user, "")
    tt = t + 15
    for k in range(4):
        c.wk(tt, vm, "Copying gs://northwind-claims-models/claims-llm-34b-ft/ (7 x pytorch_model-0000N-of-00007.bin, 67.5 GiB) to /mnt/models/claims-llm-34b-ft",
             logger=L, line="model.py:41", step=stp)
        c.wk(tt + 420, vm, "Loading claims-llm-34b-ft with torch_dtype=float16, device_map='auto' (GPU 0: 22.0 GiB free, host RAM: 31.3 GiB)",
             logger=L, line="model.py:58", step=stp)
        if k == 0:
            c.wk(tt + 300, vm, ("Operation ongoing for over 301.27 seconds in state start-msecs in step %s  without returning. Current Traceback:\n"
                                "  File \"%s/summarizer/model.py\", line 47, in load_model\n    _copy_tree(src, dst)\n") % (stp, sp),
                 sev="WARNING", logger="apache_beam.runners.worker.worker_status", line="worker_status.py:245", thread="Thread-7")
        tt = report_failure(c, tt + 431, vm, tb, "process_bundle-%d" % (1203 + k * 6))
        tt += 30
    c.jm(tt + 4, fail4("S02:Prompt/Map(to_prompt)+Summarize/RunInference/BeamML_RunInference", vm,
                       "ValueError: The current `device_map` had weights offloaded to the disk. Please provide an `offload_folder` for them."), "ERROR")
    job_teardown(c, tt + 6)
    truth = dict(
        outcome="failed", family="gpu-memory",
        root_cause=("Model too large for the worker: a 34B-parameter fine-tune in float16 (~67 GB of .bin shards) was "
                    "loaded with device_map='auto' on a g2-standard-8 (one 24 GB L4, 32 GB RAM). accelerate could not fit "
                    "it in GPU+CPU memory and planned disk offload, which transformers refuses for non-safetensors "
                    "checkpoints without offload_folder. Adding offload_folder would only make it crawl; the real fix is "
                    "more GPU memory (a2-ultragpu / multiple L4s with tensor parallelism) or a quantized/smaller model."),
        setup=dict(gpu="1x NVIDIA L4 (g2-standard-8)", python="3.11", beam=beam,
                   stack="transformers + accelerate device_map='auto', 34B fp16 .bin checkpoint, RunInference custom handler",
                   region="us-east4"),
        evidence=[
            "The current `device_map` had weights offloaded to the disk. Please provide an `offload_folder` for them.",
            "Loading claims-llm-34b-ft with torch_dtype=float16, device_map='auto' (GPU 0: 22.0 GiB free, host RAM: 31.3 GiB)",
        ],
        red_herrings=[
            "Operation ongoing for over 301.27 seconds",
            "Running pip as the 'root' user can result in broken permissions",
            "Error initializing dynamic plugin prober",
        ],
        sources=[
            "huggingface/transformers src/transformers/modeling_utils.py (ValueError 'The current `device_map` had weights offloaded to the disk. Please provide an `offload_folder` for them. Alternatively, make sure you have `safetensors` installed ...'), found via the code index",
            "public issue copy with the real frames 'modeling_utils.py, line 3480, in from_pretrained' / 'line 3601, in _load_pretrained_model' (code index id 69524594941)",
            "https://huggingface.co/docs/accelerate big-model inference docs (device_map='auto' offloads to CPU then disk when GPU memory is insufficient)",
            "apache/beam worker_status.py (Operation ongoing wording)",
            S_SDKWORKER, S_BEAM24906, S_BEAM30482, S_HARNESS, S_DOCS_ERR, S_PIP, S_COSGPU,
        ],
        synthetic=COMMON_SYNTH + ["user module summarizer/model.py and its copy / memory log lines"],
    )
    return c, truth


def case_einops():
    c = Case("H", "kb-article-embeddings", "2026-11-19_03_55_30-8840127732019945512",
             "helpdesk-search", "119407735268", "us-central1", "us-central1-c",
             _dt.datetime(2026, 11, 19, 11, 55, 30, tzinfo=_dt.timezone.utc), 808)
    py, beam, machine = "3.11", "2.67.0", "n1-highmem-4"
    vm = c.vm("11190355h7ye4a2k")
    steps = ["ReadArticles/ReadFromText", "Clean/Map(strip_html)", "Embed/RunInference/BeamML_RunInference",
             "Write/WriteToParquet"]
    job_start(c, 0, machine, steps=steps)
    t = vm_boot(c, 40, vm, driver="550.90.07")
    c.jm(150, "Workers have started successfully.")
    opts = opts_dump(c, py, beam, machine, "type:nvidia-tesla-t4;count:1;install-nvidia-driver",
                     "apache/beam_python3.11_sdk:2.67.0",
                     extra=", 'requirements_file': 'requirements.txt'")
    c.dk(t + 5, vm, "Installing setup packages ...", "INFO")
    for i, pk in enumerate(["sentence-transformers==5.1.0", "transformers==4.56.1", "torch==2.8.0"]):
        c.dk(t + 6 + i, vm, "Collecting %s" % pk, "INFO")
    pip_root_warning(c, t + 70, vm)
    t = sdk_start(c, t + 80, vm, py, opts)
    sp = "/usr/local/lib/python3.11/site-packages"
    stp = "Embed/RunInference/BeamML_RunInference"
    user = [
        '  File "%s/apache_beam/ml/inference/huggingface_inference.py", line 402, in load_model' % sp,
        "    model = SentenceTransformer(self._model_uri, **self._model_config_args)",
        '  File "%s/sentence_transformers/SentenceTransformer.py", line 308, in __init__' % sp,
        "    modules, self.module_kwargs = self._load_sbert_model(",
        '  File "%s/sentence_transformers/SentenceTransformer.py", line 1739, in _load_sbert_model' % sp,
        "    module = module_class(model_name_or_path, cache_dir=cache_folder, backend=self.backend, **kwargs)",
        '  File "%s/sentence_transformers/models/Transformer.py", line 81, in __init__' % sp,
        "    self._load_model(model_name_or_path, config, cache_dir, backend, is_peft_model, **model_args)",
        '  File "%s/sentence_transformers/models/Transformer.py", line 181, in _load_model' % sp,
        "    self.auto_model = AutoModel.from_pretrained(",
        '  File "%s/transformers/models/auto/auto_factory.py", line 582, in from_pretrained' % sp,
        "    model_class = get_class_from_dynamic_module(",
        '  File "%s/transformers/dynamic_module_utils.py", line 570, in get_class_from_dynamic_module' % sp,
        "    final_module = get_cached_module_file(",
        '  File "%s/transformers/dynamic_module_utils.py", line 393, in get_cached_module_file' % sp,
        "    modules_needed = check_imports(resolved_module_file)",
        '  File "%s/transformers/dynamic_module_utils.py", line 181, in check_imports' % sp,
        "    raise ImportError(",
        "ImportError: This modeling file requires the following packages that were not found in your environment: einops. Run `pip install einops` [while running 'Embed/RunInference/BeamML_RunInference-ptransform-36']",
    ]
    tb = beam_setup_tb(py, user, "")
    tt = t + 12
    for k in range(4):
        if k == 0:
            c.dk(tt, vm, "A new version of the following files was downloaded from https://huggingface.co/nomic-ai/nomic-bert-2048:", "ERROR")
            c.dk(tt + 0.001, vm, "- configuration_hf_nomic_bert.py", "ERROR")
            c.dk(tt + 0.002, vm, ". Make sure to double-check they do not contain any added malicious code. To avoid downloading new versions of the code file, you can pin a revision.", "ERROR")
            c.dk(tt + 1.5, vm, "'(ReadTimeoutError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out. (read timeout=10)\"), '(Request ID: 3f6d1c0e-8b2a-4f57-9d1e-52c7a0e94b18)')' thrown while requesting HEAD https://huggingface.co/nomic-ai/nomic-bert-2048/resolve/main/modeling_hf_nomic_bert.py", "ERROR")
            c.dk(tt + 1.501, vm, "Retrying in 1s [Retry 1/5].", "ERROR")
            c.dk(tt + 3, vm, "A new version of the following files was downloaded from https://huggingface.co/nomic-ai/nomic-bert-2048:", "ERROR")
            c.dk(tt + 3.001, vm, "- modeling_hf_nomic_bert.py", "ERROR")
            c.dk(tt + 3.002, vm, ". Make sure to double-check they do not contain any added malicious code. To avoid downloading new versions of the code file, you can pin a revision.", "ERROR")
        tt = report_failure(c, tt + 4, vm, tb, "process_bundle-%d" % (77 + k * 2))
        tt += 15 + k * 10
    c.jm(tt + 4, fail4("S02:Clean/Map(strip_html)+Embed/RunInference/BeamML_RunInference", vm,
                       "ImportError: This modeling file requires the following packages that were not found in your environment: einops. Run `pip install einops`"), "ERROR")
    job_teardown(c, tt + 6)
    truth = dict(
        outcome="failed", family="dependency-missing",
        root_cause=("nomic-ai/nomic-embed-text-v1.5 is loaded with trust_remote_code=True; its remote modeling file "
                    "(nomic-bert-2048) imports einops, which is not in the worker's requirements.txt, so transformers' "
                    "check_imports raised ImportError in RunInference's load_model on every attempt. Fix: add einops to "
                    "the worker requirements / image. The HF 'new version ... malicious code' notice and the HEAD read "
                    "timeout (retried and succeeded) are noise."),
        setup=dict(gpu="1x NVIDIA T4 (n1-highmem-4)", python="3.11", beam=beam,
                   stack="sentence-transformers 5.1 + transformers 4.56 (trust_remote_code) via Beam HuggingFace/SentenceTransformer handler",
                   region="us-central1"),
        evidence=[
            "ImportError: This modeling file requires the following packages that were not found in your environment: einops. Run `pip install einops`",
        ],
        red_herrings=[
            "Make sure to double-check they do not contain any added malicious code.",
            "thrown while requesting HEAD https://huggingface.co/nomic-ai/nomic-bert-2048/resolve/main/modeling_hf_nomic_bert.py",
            "Retrying in 1s [Retry 1/5].",
            "Running pip as the 'root' user can result in broken permissions",
        ],
        sources=[
            "https://github.com/rh-aiservices-bu/llm-on-openshift/pull/77 ('transformers/dynamic_module_utils.py, line 181, in check_imports' + 'ImportError: This modeling file requires the following packages that were not found in your environment: einops. Run `pip install einops`')",
            "https://github.com/simonw/llm-sentence-transformers/issues/18 (same error from SentenceTransformer(..., trust_remote_code) for a nomic model, with sentence_transformers frames)",
            "https://github.com/01-ai/Yi/issues/78 ('A new version of the following files was downloaded from https://huggingface.co/...: - configuration_yi.py . Make sure to double-check they do not contain any added malicious code. ...')",
            "https://github.com/unslothai/unsloth/issues/3486 (huggingface_hub ReadTimeoutError '... thrown while requesting HEAD https://huggingface.co/.../resolve/main/...'), https://github.com/huggingface/lerobot/issues/2566 ('Retrying in 1s [Retry 1/5].' style)",
            "apache/beam boot.go ('Installing setup packages ...')",
            S_SDKWORKER, S_BEAM24906, S_BEAM30482, S_HARNESS, S_DOCS_ERR, S_PIP, S_COSGPU,
        ],
        synthetic=COMMON_SYNTH + ["HF request id, pip 'Collecting' lines, the exact sentence-transformers frame line numbers"],
    )
    return c, truth


def case_safetensors():
    c = Case("I", "contract-clause-extract", "2026-11-10_07_21_09-2290183377610452281",
             "lexbridge-ai", "845520901377", "europe-west4", "europe-west4-b",
             _dt.datetime(2026, 11, 10, 15, 21, 9, tzinfo=_dt.timezone.utc), 909)
    py, beam, machine = "3.11", "2.65.0", "g2-standard-12"
    vm = c.vm("11100721r2nb6v0x")
    steps = ["ReadContracts/MatchFiles", "ReadContracts/ReadMatches", "Split/FlatMap(split_clauses)",
             "Extract/RunInference/BeamML_RunInference", "Write/WriteToJson"]
    job_start(c, 0, machine, steps=steps)
    t = vm_boot(c, 40, vm, driver="550.90.07")
    c.jm(150, "Workers have started successfully.")
    opts = opts_dump(c, py, beam, machine, "type:nvidia-l4;count:1;install-nvidia-driver:5xx",
                     "europe-west4-docker.pkg.dev/lexbridge-ai/beam/clause-extract:3.2",
                     extra_exp=["no_use_multiple_sdk_containers"])
    t = sdk_start(c, t + 20, vm, py, opts)
    sp = "/usr/local/lib/python3.11/site-packages"
    L = "clauses.loader"
    stp = "Extract/RunInference/BeamML_RunInference"
    user = [
        '  File "%s/clauses/loader.py", line 71, in load_model' % sp,
        "    model = AutoModelForCausalLM.from_pretrained(local_dir, torch_dtype=torch.bfloat16, device_map={'': 0})",
        '  File "%s/transformers/models/auto/auto_factory.py", line 571, in from_pretrained' % sp,
        "    return model_class.from_pretrained(",
        '  File "%s/transformers/modeling_utils.py", line 3284, in from_pretrained' % sp,
        '    with safe_open(resolved_archive_file, framework="pt") as f:',
        "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge [while running 'Extract/RunInference/BeamML_RunInference-ptransform-44']",
    ]
    tb = beam_setup_tb(py, user, "")
    tt = t + 14
    for k in range(4):
        c.wk(tt, vm, "Copying gs://lexbridge-models/mistral-7b-instruct-v0.3-clauses/ to /tmp/model", logger=L, line="loader.py:52", step=stp)
        c.wk(tt + 2.4, vm, "Copied 11 objects (27.4 KiB) from gs://lexbridge-models/mistral-7b-instruct-v0.3-clauses/ to /tmp/model", logger=L, line="loader.py:60", step=stp)
        c.wk(tt + 2.5, vm, "Model files: config.json, generation_config.json, model-00001-of-00003.safetensors (134 B), model-00002-of-00003.safetensors (134 B), model-00003-of-00003.safetensors (134 B), model.safetensors.index.json, special_tokens_map.json, tokenizer.json, tokenizer.model (131 B), tokenizer_config.json, .gitattributes",
             logger=L, line="loader.py:63", step=stp)
        tt = report_failure(c, tt + 3.5, vm, tb, "process_bundle-%d" % (902 + k * 3))
        tt += 18 + k * 11
    c.jm(tt + 4, fail4("S02:Split/FlatMap(split_clauses)+Extract/RunInference/BeamML_RunInference", vm,
                       "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge"), "ERROR")
    job_teardown(c, tt + 6)
    truth = dict(
        outcome="failed", family="model-artifact",
        root_cause=("The model weights in gs://lexbridge-models/mistral-7b-instruct-v0.3-clauses/ are Git LFS pointer files "
                    "(134-byte *.safetensors, 11 objects = 27 KiB for a 7B model) because the repo was cloned without "
                    "git-lfs before being copied to GCS. safetensors reads the pointer text as a header length and fails "
                    "with 'Error while deserializing header: HeaderTooLarge'. Fix: re-upload the real weights (git lfs "
                    "pull / huggingface-cli download) and verify object sizes."),
        setup=dict(gpu="1x NVIDIA L4 (g2-standard-12)", python="3.11", beam=beam,
                   stack="transformers + safetensors, Mistral-7B-Instruct fine-tune loaded from GCS, RunInference custom handler",
                   region="europe-west4"),
        evidence=[
            "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge",
            "Copied 11 objects (27.4 KiB) from gs://lexbridge-models/mistral-7b-instruct-v0.3-clauses/ to /tmp/model",
            "model-00001-of-00003.safetensors (134 B)",
        ],
        red_herrings=[
            "Error initializing dynamic plugin prober",
            "Discarding unparseable args",
            "ima: Can not allocate sha384 (reason: -2)",
        ],
        sources=[
            "https://github.com/huggingface/transformers/issues/27923, https://github.com/codefuse-ai/MFTCoder/issues/20, https://github.com/microsoft/OmniParser/issues/34 ('safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge'; maintainers/users: file is an incomplete or git-lfs-less download)",
            "https://github.com/PKU-YuanGroup/MagicTime/issues/21 (frame 'transformers/modeling_utils.py, line 3284, in from_pretrained / with safe_open(resolved_archive_file, framework=\"pt\") as f:')",
            S_SDKWORKER, S_BEAM24906, S_BEAM30482, S_HARNESS, S_DOCS_ERR, S_COSGPU,
        ],
        synthetic=COMMON_SYNTH + ["user module clauses/loader.py and its copy / file-listing log lines (the size hint is ours)"],
    )
    return c, truth


def case_jax_cpu():
    c = Case("J", "weather-ensemble-postproc", "2026-11-16_00_08_37-4471290561180042397",
             "meteo-grid-ops", "390041266815", "us-central1", "us-central1-a",
             _dt.datetime(2026, 11, 16, 8, 8, 37, tzinfo=_dt.timezone.utc), 1010)
    py, beam, machine = "3.12", "2.68.0", "g2-standard-8"
    vm = c.vm("11160008c5tj1rw8")
    steps = ["ListMembers/Impulse", "ListMembers/FlatMap(members)", "Load/ParDo(LoadZarr)",
             "Postproc/ParDo(JaxCalibrateFn)", "Write/ParDo(WriteZarr)"]
    job_start(c, 0, machine, steps=steps)
    t = vm_boot(c, 40, vm, driver="550.90.07")
    c.jm(150, "Workers have started successfully.")
    opts = opts_dump(c, py, beam, machine, "type:nvidia-l4;count:1;install-nvidia-driver:5xx",
                     "us-central1-docker.pkg.dev/meteo-grid-ops/beam/ens-postproc:2026.10",
                     extra_exp=["no_use_multiple_sdk_containers"])
    t = sdk_start(c, t + 20, vm, py, opts)
    stp = "Postproc/ParDo(JaxCalibrateFn)"
    c.wk(t + 5, vm, "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.",
         sev="WARNING", logger="jax._src.xla_bridge", line="xla_bridge.py:791", thread="Thread-19", step=stp)
    c.wk(t + 5.2, vm, "JaxCalibrateFn.setup: jax 0.6.2, devices=[CpuDevice(id=0)], x64=False", logger="ens.calibrate",
         line="calibrate.py:40", thread="Thread-19", step=stp)
    c.wk(t + 5.3, vm, "Compiling calibrate_member (quantile mapping, 51 members x 721 x 1440)", logger="ens.calibrate",
         line="calibrate.py:58", thread="Thread-19", step=stp)
    tt = t + 30
    for k in range(51):
        dur = 175 + c.rng.randint(0, 40)
        tt += dur
        c.wk(tt, vm, "member %02d calibrated in %.1fs" % (k, dur - 0.3), logger="ens.calibrate", line="calibrate.py:77",
             thread="Thread-19", step=stp)
        if k in (3, 17, 30, 44):
            c.wk(tt - 60, vm, ("Operation ongoing for over %.2f seconds in state process-msecs in step %s  without returning. Current Traceback:\n"
                               "  File \"/usr/local/lib/python3.12/site-packages/ens/calibrate.py\", line 74, in process\n"
                               "    out = jax.block_until_ready(self._fn(arr))\n") % (301.0 + k, stp),
                 sev="WARNING", logger="apache_beam.runners.worker.worker_status", line="worker_status.py:245", thread="Thread-7")
    c.jm(tt + 30, "Autoscaling: Would further reduce the number of workers but reached the minimum number allowed for the job.")
    job_teardown(c, tt + 60)
    truth = dict(
        outcome="succeeded_on_cpu", family="cpu-fallback",
        root_cause=("The job finished but never used the L4: the image installs plain `jax`/`jaxlib` from PyPI (CPU-only) "
                    "instead of `jax[cuda12]`, so JAX logged 'a CUDA-enabled jaxlib is not installed. Falling back to cpu' "
                    "and the DoFn ran on CpuDevice (~3 min per ensemble member, ~2.7 h total, with 'Operation ongoing' "
                    "lulls). Driver and GPU were fine. Fix: pip install 'jax[cuda12]' matching the jax version."),
        setup=dict(gpu="1x NVIDIA L4 (g2-standard-8), unused", python="3.12", beam=beam,
                   stack="JAX 0.6.2 (CPU jaxlib) quantile-mapping calibration of weather ensembles, custom container",
                   region="us-central1"),
        evidence=[
            "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.",
            "devices=[CpuDevice(id=0)]",
        ],
        red_herrings=[
            "Operation ongoing for over",
            "Error initializing dynamic plugin prober",
            "Discarding unparseable args",
        ],
        sources=[
            "https://github.com/jax-ml/jax/issues/29068 and https://github.com/sanchit-gandhi/whisper-jax/issues/211 ('WARNING:...:jax._src.xla_bridge:791: An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.')",
            "https://github.com/JeffSHF/ColabDock/issues/28 (maintainer: CPU jax installed; install jax[cuda12])",
            "apache/beam worker_status.py (Operation ongoing wording)",
            S_HARNESS, S_DOCS_ERR, S_COSGPU,
        ],
        synthetic=COMMON_SYNTH + ["user module ens/calibrate.py and all its log lines (devices=[CpuDevice(id=0)] is jax's repr)"],
    )
    return c, truth


def case_healthy_tf():
    c = Case("K", "catalog-image-embed-nightly", "2026-11-13_19_30_02-11307739460025183642",
             "mercado-catalog", "731180462594", "us-east4", "us-east4-a",
             _dt.datetime(2026, 11, 14, 3, 30, 2, tzinfo=_dt.timezone.utc), 1111)
    py, beam, machine = "3.11", "2.64.0", "g2-standard-4"
    vm = c.vm("11131930v6ga3d1n")
    steps = ["ReadImages/ReadFromBigQuery", "Fetch/ParDo(FetchImage)", "Embed/RunInference/BeamML_RunInference",
             "Write/WriteToBigQuery"]
    job_start(c, 0, machine, steps=steps)
    t = vm_boot(c, 40, vm, driver="550.90.07")
    c.jm(150, "Workers have started successfully.")
    opts = opts_dump(c, py, beam, machine, "type:nvidia-l4;count:1;install-nvidia-driver:5xx",
                     "us-east4-docker.pkg.dev/mercado-catalog/beam/tf-embed:2.17",
                     extra_exp=["no_use_multiple_sdk_containers"])
    t = sdk_start(c, t + 20, vm, py, opts)
    d = t + 3

    def absl(tt, lvl, src, msg):
        us = c.us(tt)
        c.dk(tt, vm, "%s0000 00:00:%d.%06d %7d %s] %s" % (lvl, us // 1_000_000, us % 1_000_000, 58, src, msg), "ERROR")

    tstamp = lambda tt: (EPOCH + _dt.timedelta(microseconds=c.us(tt))).strftime("%Y-%m-%d %H:%M:%S.%f")
    c.dk(d, vm, "%s: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:485] Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered" % tstamp(d), "ERROR")
    c.dk(d + 0.01, vm, "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR", "ERROR")
    absl(d + 0.02, "E", "cuda_dnn.cc:8454", "Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered")
    absl(d + 0.03, "E", "cuda_blas.cc:1452", "Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered")
    c.dk(d + 0.2, vm, "%s: I tensorflow/core/platform/cpu_feature_guard.cc:210] This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations." % tstamp(d + 0.2), "ERROR")
    c.dk(d + 0.201, vm, "To enable the following instructions: AVX2 AVX512F AVX512_VNNI FMA, in other operations, rebuild TensorFlow with the appropriate compiler flags.", "ERROR")
    c.dk(d + 1.1, vm, "%s: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT" % tstamp(d + 1.1), "ERROR")
    stp = "Embed/RunInference/BeamML_RunInference"
    c.dk(d + 5, vm, "'(ReadTimeoutError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out. (read timeout=10)\"), '(Request ID: 9b2e7f10-6c4d-4e0a-8a31-d7f25c6b0e44)')' thrown while requesting HEAD https://huggingface.co/openai/clip-vit-base-patch32/resolve/main/config.json", "ERROR")
    c.dk(d + 5.001, vm, "Retrying in 1s [Retry 1/5].", "ERROR")
    absl(d + 9, "I", "cuda_executor.cc:1015", "successful NUMA node read from SysFS had negative value (-1), but there must be at least one NUMA node, so returning NUMA node zero. See more at https://github.com/torvalds/linux/blob/v6.0/Documentation/ABI/testing/sysfs-bus-pci#L344-L355")
    absl(d + 9.4, "I", "gpu_device.cc:2021", "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 20758 MB memory:  -> device: 0, name: NVIDIA L4, pci bus id: 0000:00:03.0, compute capability: 8.9")
    c.wk(d + 12, vm, "Loaded TFCLIPModel openai/clip-vit-base-patch32 on ['/physical_device:GPU:0']", logger="embed.model", line="model.py:33", step=stp)
    tt = d + 20
    for k in range(40):
        tt += 35 + c.rng.randint(0, 20)
        c.wk(tt, vm, "embedded batch %d (256 images, %.1f img/s)" % (k, 256 / (1.6 + c.rng.random())), logger="embed.model",
             line="model.py:61", step=stp)
        if k in (6, 21):
            c.wk(tt + 1, vm, "Fetch failed for https://img.mercado-catalog.example/p/%d.jpg: HTTP 404; skipping" % (100000 + k * 7919),
                 sev="WARNING", logger="embed.fetch", line="fetch.py:29", step="Fetch/ParDo(FetchImage)")
    c.jm(tt + 20, "Autoscaling: Would further reduce the number of workers but reached the minimum number allowed for the job.")
    job_teardown(c, tt + 40)
    truth = dict(
        outcome="succeeded", family="healthy",
        root_cause=("Healthy run: TensorFlow 2.17 found the L4 ('Created device ... name: NVIDIA L4 ... compute capability 8.9') "
                    "and embedded all batches. The cuFFT/cuDNN/cuBLAS factory-registration errors, the TF-TRT warning, the "
                    "NUMA line, a Hugging Face HEAD timeout that was retried, and two 404 image fetches are harmless noise."),
        setup=dict(gpu="1x NVIDIA L4 (g2-standard-4)", python="3.11", beam=beam,
                   stack="TensorFlow 2.17 + transformers TFCLIPModel image embeddings via RunInference",
                   region="us-east4"),
        evidence=[
            "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 20758 MB memory:  -> device: 0, name: NVIDIA L4",
        ],
        red_herrings=[
            "Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered",
            "Unable to register cuFFT factory",
            "TF-TRT Warning: Could not find TensorRT",
            "successful NUMA node read from SysFS had negative value (-1)",
            "thrown while requesting HEAD https://huggingface.co/openai/clip-vit-base-patch32/resolve/main/config.json",
            "HTTP 404; skipping",
            "Error initializing dynamic plugin prober",
        ],
        sources=[
            "https://github.com/openxla/xla/issues/20803, https://github.com/kr-colab/ReLERNN/issues/63, https://github.com/sehoffmann/dmlcloud/issues/38 (factory-registration E lines, absl format, cpu_feature_guard, TF-TRT warning, NUMA line)",
            "/work/shared/reference/dataflow-log-signatures.md 2i (TF 'Created device ... with N MB memory:  -> device: 0, name: ..., pci bus id: ..., compute capability: ...' absl format)",
            "https://github.com/unslothai/unsloth/issues/3486 (huggingface_hub ReadTimeoutError HEAD line)",
            S_HARNESS, S_DOCS_ERR, S_COSGPU,
        ],
        synthetic=COMMON_SYNTH + ["user log lines (embed.model, embed.fetch), memory MB value, absl pids, source line numbers in TF lines"],
    )
    return c, truth


def case_healthy_vllm():
    c = Case("L", "review-sentiment-llm-batch", "2026-11-22_05_47_26-6018832290017743359",
             "pebble-reviews", "287730015462", "us-central1", "us-central1-c",
             _dt.datetime(2026, 11, 22, 13, 47, 26, tzinfo=_dt.timezone.utc), 1212)
    py, beam, machine = "3.12", "2.67.0", "g2-standard-24"
    vm = c.vm("11220547e9pf2c6u")
    steps = ["ReadReviews/ReadFromBigQuery", "Prompt/Map(to_chat)", "Classify/RunInference/BeamML_RunInference",
             "Write/WriteToBigQuery"]
    job_start(c, 0, machine, steps=steps)
    t = vm_boot(c, 40, vm, driver="570.172.08")
    c.jm(150, "Workers have started successfully.")
    opts = opts_dump(c, py, beam, machine, "type:nvidia-l4;count:2;install-nvidia-driver:latest",
                     "us-central1-docker.pkg.dev/pebble-reviews/beam/vllm-batch:0.10.2",
                     extra_exp=["no_use_multiple_sdk_containers"])
    t = sdk_start(c, t + 20, vm, py, opts)
    stp = "Classify/RunInference/BeamML_RunInference"
    d = t + 4

    def vl(tt, s, sev="ERROR"):
        c.dk(tt, vm, s, sev)

    md = (EPOCH + _dt.timedelta(microseconds=c.us(d))).strftime("%m-%d %H:%M:%S")
    vl(d, "INFO %s [__init__.py:216] Automatically detected platform cuda." % md)
    vl(d + 2, "INFO %s [config.py:1604] Defaulting to use mp for distributed inference" % md)
    vl(d + 5, "(EngineCore_0 pid=412) INFO %s [core.py:76] Initializing a V1 LLM engine (v0.10.2) with config: model='/models/Qwen2.5-14B-Instruct-AWQ', tokenizer='/models/Qwen2.5-14B-Instruct-AWQ', tensor_parallel_size=2, disable_custom_all_reduce=False, quantization=awq_marlin, enforce_eager=False, kv_cache_dtype=auto, device_config=cuda, seed=0" % md)
    host = "review-sentiment-llm"
    nccl = [
        "%s:455:455 [0] NCCL INFO Bootstrap : Using eth0:10.128.0.41<0>" % host,
        "%s:455:455 [0] NCCL INFO NET/Plugin: No plugin found (libnccl-net.so)" % host,
        "%s:455:455 [0] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-net.so" % host,
        "%s:455:455 [0] NCCL INFO NET/Plugin: Using internal network plugin." % host,
        "%s:455:455 [0] NCCL INFO cudaDriverVersion 12080" % host,
        "NCCL version 2.21.5+cuda12.4",
        "%s:456:456 [1] NCCL INFO cudaDriverVersion 12080" % host,
        "%s:456:456 [1] NCCL INFO Bootstrap : Using eth0:10.128.0.41<0>" % host,
        "%s:456:456 [1] NCCL INFO NET/Plugin: No plugin found (libnccl-net.so)" % host,
    ]
    for i, s in enumerate(nccl):
        vl(d + 14 + i * 0.01, s)
    vl(d + 16, "(Worker_TP1 pid=456) WARNING %s [custom_all_reduce.py:85] Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly." % md)
    vl(d + 16.01, "(Worker_TP0 pid=455) WARNING %s [custom_all_reduce.py:85] Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly." % md)
    vl(d + 20, "'(ReadTimeoutError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out. (read timeout=10)\"), '(Request ID: 51c0a9e2-7d3b-4c1f-9e08-2b6d4f7a13c5)')' thrown while requesting HEAD https://huggingface.co/Qwen/Qwen2.5-14B-Instruct-AWQ/resolve/main/generation_config.json")
    vl(d + 20.001, "Retrying in 1s [Retry 1/5].")
    for k in range(4):
        vl(d + 60 + k * 55, "Loading safetensors checkpoint shards: %3d%% Completed | %d/3 [%02d:%02d<%02d:%02d, 55.10s/it]"
           % (int(100 * k / 3) if k < 3 else 100, k, (k * 55) // 60, (k * 55) % 60, ((3 - k) * 55) // 60, ((3 - k) * 55) % 60))
    vl(d + 226, "(Worker_TP0 pid=455) INFO %s [default_loader.py:267] Loading weights took 165.31 seconds" % md, "INFO")
    vl(d + 227, "(Worker_TP0 pid=455) INFO %s [gpu_model_runner.py:2007] Model loading took 4.77 GiB and 166.904312 seconds" % md, "INFO")
    c.wk(d + 304, vm, ("Operation ongoing for over 300.41 seconds in state start-msecs in step %s  without returning. Current Traceback:\n"
                       "  File \"/usr/local/lib/python3.12/site-packages/apache_beam/ml/inference/vllm_inference.py\", line 316, in load_model\n"
                       "    return LLM(model=self._model_name, **self._vllm_kwargs)\n") % stp,
         sev="WARNING", logger="apache_beam.runners.worker.worker_status", line="worker_status.py:245", thread="Thread-7")
    vl(d + 330, "(Worker_TP0 pid=455) INFO %s [gpu_worker.py:276] Available KV cache memory: 11.92 GiB" % md, "INFO")
    vl(d + 331, "(EngineCore_0 pid=412) INFO %s [kv_cache_utils.py:864] GPU KV cache size: 130,160 tokens" % md, "INFO")
    vl(d + 352, "(Worker_TP0 pid=455) INFO %s [gpu_model_runner.py:2708] Graph capturing finished in 19 secs, took 0.62 GiB" % md, "INFO")
    vl(d + 353, "(EngineCore_0 pid=412) INFO %s [core.py:214] init engine (profile, create kv cache, warmup model) took 118.42 seconds" % md, "INFO")
    c.wk(d + 355, vm, "vLLM engine ready (tensor_parallel_size=2) after 351.2s", logger="reviews.classify", line="classify.py:48", step=stp)
    tt = d + 360
    for k in range(45):
        tt += 40 + c.rng.randint(0, 25)
        c.wk(tt, vm, "classified batch %d (512 reviews, %.0f tok/s)" % (k, 2100 + c.rng.randint(-300, 300)),
             logger="reviews.classify", line="classify.py:77", step=stp)
        if k % 9 == 0:
            vl(tt + 0.5, "Processed prompts: 100%%|██████████| 512/512 [00:%02d<00:00, %.2fit/s, est. speed input: %.2f toks/s, output: %.2f toks/s]"
               % (30 + c.rng.randint(0, 20), 12 + c.rng.random() * 4, 9000 + c.rng.random() * 900, 420 + c.rng.random() * 50))
    c.jm(tt + 20, "Autoscaling: Would further reduce the number of workers but reached the minimum number allowed for the job.")
    job_teardown(c, tt + 40)
    truth = dict(
        outcome="succeeded", family="healthy",
        root_cause=("Healthy run: vLLM 0.10 with tensor_parallel_size=2 on two PCIe L4s loaded Qwen2.5-14B-AWQ (slowly - "
                    "a ~6 min model load produced one 'Operation ongoing' lull) and classified all batches. The custom "
                    "all-reduce P2P warning, NCCL INFO/plugin lines, a retried Hugging Face HEAD timeout and stderr "
                    "progress bars at ERROR severity are expected noise."),
        setup=dict(gpu="2x NVIDIA L4 (g2-standard-24)", python="3.12", beam=beam,
                   stack="vLLM 0.10.2 (V1 engine, TP=2, AWQ) via Beam VLLM handler", region="us-central1"),
        evidence=[
            "vLLM engine ready (tensor_parallel_size=2) after 351.2s",
            "Graph capturing finished in 19 secs",
        ],
        red_herrings=[
            "Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed.",
            "NCCL INFO NET/Plugin: No plugin found (libnccl-net.so)",
            "Operation ongoing for over 300.41 seconds",
            "thrown while requesting HEAD https://huggingface.co/Qwen/Qwen2.5-14B-Instruct-AWQ/resolve/main/generation_config.json",
            "Error initializing dynamic plugin prober",
        ],
        sources=[
            "https://github.com/vllm-project/vllm/issues/4770 ('Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly.')",
            "https://github.com/vllm-project/vllm/issues/38820 and /pull/44106 ((Worker_TP0 pid=...) INFO ... [default_loader.py] Loading weights took ..., [gpu_model_runner.py] Model loading took ..., 'Loading safetensors checkpoint shards: 100% Completed | n/n [...]')",
            "https://github.com/NVIDIA/nccl/issues/1504 (NCCL INFO lines, 'NCCL version 2.21.5+cuda12.4')",
            "https://github.com/unslothai/unsloth/issues/3486 (huggingface_hub HEAD read-timeout line)",
            "apache/beam worker_status.py (Operation ongoing wording)",
            S_HARNESS, S_DOCS_ERR, S_COSGPU,
        ],
        synthetic=COMMON_SYNTH + [
            "vLLM lines' source line numbers, KV-cache/graph numbers and the init-engine/available-KV-cache wording details",
            "'Processed prompts' progress-bar values, user log lines (reviews.classify)",
        ],
    )
    return c, truth


# ----------------------------------------------------------------------------- assemble

ORDER = [  # shuffled: directory number -> builder
    ("hs4-01", case_offload),
    ("hs4-02", case_healthy_tf),
    ("hs4-03", case_pymismatch),
    ("hs4-04", case_jax_cpu),
    ("hs4-05", case_bnb),
    ("hs4-06", case_triton),
    ("hs4-07", case_n1_l4),
    ("hs4-08", case_healthy_vllm),
    ("hs4-09", case_safetensors),
    ("hs4-10", case_xid48),
    ("hs4-11", case_einops),
    ("hs4-12", case_missing_boot),
]


def yq(s):
    return json.dumps(s, ensure_ascii=False)


def truth_yaml(c, tr):
    out = ["# ground truth for %s - written 2026-12-06 without knowledge of the tool under test" % c.job_name]
    out.append("job:")
    out.append("  job_id: %s" % yq(c.job_id))
    out.append("  job_name: %s" % yq(c.job_name))
    out.append("  project: %s" % yq(c.project))
    out.append("outcome: %s" % tr["outcome"])
    out.append("family: %s" % tr["family"])
    out.append("root_cause: %s" % yq(tr["root_cause"]))
    out.append("setup:")
    for k in ("gpu", "python", "beam", "stack", "region"):
        out.append("  %s: %s" % (k, yq(tr["setup"][k])))
    for key in ("evidence", "red_herrings", "sources", "synthetic"):
        out.append("%s:" % key)
        for v in tr[key]:
            out.append("  - %s" % yq(v))
    return "\n".join(out) + "\n"


def build():
    files = {}
    summary = []
    for cid, fn in ORDER:
        c, tr = fn()
        exp = c.export()
        files["cases/%s/export.json" % cid] = (json.dumps(exp, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
        files["cases/%s/truth.yaml" % cid] = truth_yaml(c, tr).encode("utf-8")
        summary.append((cid, c, tr, len(exp)))
    return files, summary


def check(files, summary):
    errors = []
    total = 0
    for path, data in files.items():
        total += len(data)
    for cid, c, tr, n in summary:
        data = json.loads(files["cases/%s/export.json" % cid].decode("utf-8"))
        if not isinstance(data, list):
            errors.append("%s: not a list" % cid)
        if not (60 <= len(data) <= 300):
            errors.append("%s: %d entries (need 60-300)" % (cid, len(data)))
        texts = []
        for e in data:
            if "textPayload" in e:
                texts.append(e["textPayload"])
            elif "jsonPayload" in e:
                texts.append(e["jsonPayload"].get("message", ""))
        blob = "\n\x00".join(texts)
        for key in ("evidence", "red_herrings"):
            for s in tr[key]:
                if s not in blob:
                    errors.append("%s: %s string not found verbatim: %r" % (cid, key, s))
        ts = [e["timestamp"] for e in data]
        if ts != sorted(ts, reverse=True):
            errors.append("%s: not newest-first" % cid)
        if not any("job-message" in e["logName"] for e in data):
            errors.append("%s: no job-message entries" % cid)
    if total >= 5 * 1024 * 1024:
        errors.append("set is %d bytes (>= 5 MB)" % total)
    return errors, total


def main():
    files, summary = build()
    files2, _ = build()
    if any(files[k] != files2[k] for k in files):
        print("FAIL: generator is not deterministic")
        return 1
    errors, total = check(files, summary)
    for path, data in sorted(files.items()):
        full = os.path.join(HERE, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
    for cid, c, tr, n in summary:
        print("%s  %-4d %-17s %-20s %s" % (cid, n, tr["outcome"], tr["family"], c.job_name))
    print("total bytes: %d" % total)
    digest = hashlib.sha256(b"".join(files[k] for k in sorted(files))).hexdigest()
    print("sha256(all files): %s" % digest)
    if errors:
        print("CHECK FAILURES:")
        for e in errors:
            print("  " + e)
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
