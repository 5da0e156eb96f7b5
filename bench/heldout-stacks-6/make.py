#!/usr/bin/env python3
"""Deterministic generator for bench/heldout-stacks-6.

Python 3 standard library only.  Builds every case twice in memory and stops if
the two builds differ, writes cases/hs6-NN/{export.json,truth.yaml}, re-reads and
compares the files, checks each export is newest-first with 100-250 entries and
that every `evidence` string occurs verbatim in a payload of its export, then
prints counts.
"""
import datetime as dt
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "cases")


def hx(*parts):
    return hashlib.sha256("|".join(str(p) for p in parts).encode("utf-8")).hexdigest()


B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def b36(seed, n):
    v = int(hx(seed), 16)
    out = []
    for _ in range(n):
        v, r = divmod(v, 36)
        out.append(B36[r])
    return "".join(out)


# --------------------------------------------------------------------------
# Job: collects events and renders LogEntry objects
# --------------------------------------------------------------------------
class Job:
    def __init__(self, case, project, number, region, zone, pacific, utc_off_h,
                 idnum, name, machine, workers, frac, jm_label="id",
                 worker_line=True, py="/usr/local/lib/python3.11/site-packages",
                 batch=True, maxw=4):
        self.case = case
        self.project = project
        self.number = number
        self.region = region
        self.zone = zone
        self.job_id = "%s-%s" % (pacific, idnum)
        self.name = name
        self.machine = machine
        self.workers = workers
        self.frac = frac
        self.jm_label = jm_label
        self.worker_line = worker_line
        self.py = py
        self.batch = batch
        self.maxw = maxw
        local = dt.datetime.strptime(pacific, "%Y-%m-%d_%H_%M_%S")
        self.start = local + dt.timedelta(hours=utc_off_h, seconds=3)
        self.events = []
        self.seq = 0

    # ---- event adders -------------------------------------------------
    def add(self, t, log, sev, msg, w=None, sdk=None, logger=None, line=None,
            thread="MainThread", step=""):
        self.seq += 1
        self.events.append(dict(t=t, seq=self.seq, log=log, sev=sev, msg=msg, w=w,
                                sdk=sdk, logger=logger, line=line, thread=thread,
                                step=step))

    def jm(self, t, sev, msg):
        self.add(t, "job-message", sev, msg)

    def wk(self, t, sev, msg, w, sdk="sdk-0-0", logger="root", line=None,
           thread="MainThread", step=""):
        self.add(t, "worker", sev, msg, w=w, sdk=sdk, logger=logger, line=line,
                 thread=thread, step=step)

    def lines(self, t, log, sev, text, w, step_s=0.002):
        for i, ln in enumerate(text.split("\n")):
            if ln == "":
                continue
            self.add(t + i * step_s, log, sev, ln, w=w)

    # ---- rendering ----------------------------------------------------
    def _ns(self, ev):
        base = int(round(ev["t"] * 1000)) * 1000000
        jit = int(hx(self.case, "j", ev["seq"])[:8], 16) % 900000
        if self.frac == 3:
            jit = 0
        elif self.frac == 6:
            jit -= jit % 1000
        elif self.frac == "trim" and ev["seq"] % 3 == 0:
            jit -= jit % 100000
        return base + jit

    def _fmt(self, ns, digits):
        d = self.start + dt.timedelta(microseconds=ns // 1000)
        sub = ns % 1000000000
        head = d.strftime("%Y-%m-%dT%H:%M:%S")
        if digits == 0:
            return head + "Z"
        if digits == "trim":
            s = ("%09d" % sub).rstrip("0")
            return head + ("." + s if s else "") + "Z"
        return head + "." + ("%09d" % sub)[:digits] + "Z"

    def _rid(self, w):
        return str(int(hx(self.case, "rid", w)[:15], 16) % 9000000000000000000 + 1000000000000000000)

    def render(self):
        evs = sorted(self.events, key=lambda e: (self._ns(e), e["seq"]))
        out = []
        for ev in evs:
            ns = self._ns(ev)
            rns = ns + 150000000 + int(hx(self.case, "r", ev["seq"])[:6], 16) % 9000000000
            e = {
                "logName": "projects/%s/logs/dataflow.googleapis.com%%2F%s" % (self.project, ev["log"]),
                "receiveTimestamp": self._fmt(rns, 9),
                "severity": ev["sev"],
                "timestamp": self._fmt(ns, self.frac),
            }
            res_labels = {"job_id": self.job_id, "job_name": self.name,
                          "project_id": self.project, "region": self.region,
                          "step_id": ev["step"]}
            labels = {"dataflow.googleapis.com/job_id": self.job_id,
                      "dataflow.googleapis.com/job_name": self.name,
                      "dataflow.googleapis.com/region": self.region}
            if ev["log"] == "job-message":
                e["textPayload"] = ev["msg"]
                e["insertId"] = b36((self.case, "iid", ev["seq"]), 11)
                labels["dataflow.googleapis.com/log_type"] = "system"
                if self.jm_label == "number":
                    res_labels["project_id"] = self.number
            else:
                w = ev["w"]
                labels["compute.googleapis.com/resource_id"] = self._rid(w)
                labels["compute.googleapis.com/resource_name"] = w
                labels["compute.googleapis.com/resource_type"] = "instance"
                if ev["log"] == "worker":
                    p = {"job": self.job_id, "logger": ev["logger"], "message": ev["msg"],
                         "portability_worker_id": ev["sdk"], "thread": ev["thread"], "worker": w}
                    if self.worker_line and ev["line"]:
                        p["line"] = ev["line"]
                    e["jsonPayload"] = p
                    e["insertId"] = b36((self.case, "iid", ev["seq"]), 14)
                elif ev["log"] == "system":
                    labels["dataflow.googleapis.com/log_type"] = "system"
                    e["jsonPayload"] = {"message": ev["msg"]}
                    h = hx(self.case, "sys", ev["seq"])
                    e["insertId"] = "s=%s;i=%x;b=%s;m=%x;t=%x;x=%s" % (
                        h[:32], 0x100 + ev["seq"], hx(self.case, w)[:32],
                        0x300000 + ev["seq"] * 97, 0x5ec1dd2461000 + ns // 1000, h[32:48])
                else:
                    e["jsonPayload"] = {"message": ev["msg"]}
                    e["insertId"] = b36((self.case, "iid", ev["seq"]), 13)
            e["labels"] = labels
            e["resource"] = {"labels": res_labels, "type": "dataflow_step"}
            out.append(e)
        out.reverse()  # gcloud logging read default: newest first
        return out


# --------------------------------------------------------------------------
# Shared building blocks (real platform wording; see README "Sources")
# --------------------------------------------------------------------------
def opts_repr(j, extra):
    d = {"runner": "DataflowRunner", "project": j.project, "job_name": j.name,
         "region": j.region, "temp_location": "gs://%s-dataflow/tmp" % j.project,
         "machine_type": j.machine}
    d.update(extra)
    return repr(d)


def start_block(j, n_start, maxw=None):
    maxw = maxw or j.maxw
    j.jm(0.412, "INFO", "Worker configuration: %s in %s." % (j.machine, j.zone))
    j.jm(1.208, "INFO", "Expanding SplittableParDo operations into optimizable parts.")
    j.jm(1.344, "INFO", "Fusing adjacent ParDo, Read, Write, and Flatten operations")
    j.jm(2.019, "DEBUG", "Workflow config is missing a default resource spec.")
    j.jm(2.513, "DEBUG", "Starting worker pool setup.")
    j.jm(3.107, "INFO", "Starting %d workers in %s..." % (n_start, j.zone))
    if j.batch:
        j.jm(3.866, "INFO", "Autoscaling is enabled for job %s. The number of workers will be between 1 and %d." % (j.job_id, maxw))
    else:
        j.jm(3.866, "INFO", "Autoscaling is enabled for job %s. The number of workers will be between 1 and %d." % (j.job_id, maxw))
        j.jm(3.902, "WARNING", "Autoscaling is enabled for Dataflow Streaming Engine. Workers will scale between 1 and %d unless maxNumWorkers is specified." % maxw)


def vm_boot(j, w, t, driver="550.90.07"):
    j.add(t, "system", "INFO", "ima: No architecture policies found", w=w)
    j.add(t + 0.35, "system", "INFO", "ima: Can not allocate sha384 (reason: -2)", w=w)
    j.add(t + 9.1, "worker-startup", "INFO", "Installing GPU driver version %s" % driver, w=w)
    j.add(t + 41.7, "worker-startup", "INFO", "Verifying GPU driver installation", w=w)
    j.add(t + 43.2, "worker-startup", "INFO", "Finished installing the drivers.", w=w)
    j.add(t + 47.9, "kubelet", "ERROR", 'Error initializing dynamic plugin prober" err="error (re-)creating driver directory: mkdir /usr/libexec/kubernetes: read-only file system', w=w)
    j.add(t + 48.4, "kubelet", "INFO", 'Skipping pod synchronization" err="container runtime status check may not have completed yet"', w=w)
    j.add(t + 52.0, "system", "ERROR", "Error running LookupEffectiveGuestPolicies", w=w)


def sdk_start(j, w, sdk, t, opts, port=12371):
    mod = "apache_beam.runners.worker.sdk_worker_main"
    j.add(t, "docker", "INFO", "Executing: python -m %s" % mod, w=w)
    seq = [
        ("Logging handler created.", "sdk_worker_main.py:128"),
        ("semi_persistent_directory: /var/opt/google", "sdk_worker_main.py:129"),
        ("Status HTTP server running at localhost:%d" % (33000 + int(hx(j.case, w, sdk)[:4], 16) % 20000), "sdk_worker_main.py:196"),
        ("Discarding unparseable args: ['--autoscalingAlgorithm=THROUGHPUT_BASED', '--direct_runner_use_stacked_bundle', '--pipeline_type_check']", "pipeline_options.py:417"),
        ("Python sdk harness started with pipeline_options: %s" % opts, "sdk_worker_main.py:166"),
        ("Creating state cache with size 0", "statecache.py:234"),
        ("Creating insecure control channel for localhost:%d." % port, "sdk_worker.py:190"),
        ("Control channel established.", "sdk_worker.py:198"),
        ("Initializing SDKHarness with unbounded number of workers.", "sdk_worker.py:243"),
        ("Creating insecure state channel for localhost:%d." % port, "sdk_worker.py:888"),
        ("State channel established.", "sdk_worker.py:895"),
        ("Creating client data channel for localhost:%d" % port, "data_plane.py:770"),
    ]
    for i, (m, ln) in enumerate(seq):
        j.wk(t + 0.8 + i * 0.011, "INFO", m, w, sdk=sdk, logger=ln.split(".py")[0], line=ln)


def teardown(j, t, n_from):
    j.jm(t, "INFO", "Cleaning up.")
    j.jm(t + 0.3, "DEBUG", "Starting worker pool teardown.")
    j.jm(t + 0.6, "INFO", "Stopping worker pool...")
    j.jm(t + 118.4, "INFO", "Autoscaling: Resized worker pool from %d to 0." % n_from)
    j.jm(t + 118.9, "INFO", "Worker pool stopped.")
    j.jm(t + 119.6, "DEBUG", "Tearing down pending resources...")


FAIL4 = ("The job failed because a work item has failed 4 times. Look in previous log entries for the cause of each one of the 4 failures. "
         "If the logs only contain generic timeout errors related to accessing external resources, such as MongoDB, verify that the worker service "
         "account has permission to access the resource's subnetwork. For more information, see https://cloud.google.com/dataflow/docs/guides/common-errors. "
         "The work item was attempted on these workers: \n\n")


def workflow_failed(j, t, stage, attempts, root):
    body = "".join("      Root cause: %s\n      Worker ID: %s,\n" % (root, w) for w in attempts)
    j.jm(t, "ERROR", "Workflow failed. Causes: %s failed., %s%s" % (stage, FAIL4, body.rstrip(",\n")))


# ---- Beam traceback assembly ------------------------------------------------
def sdk_outer(py):
    return [
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute' % py,
        "    response = task()",
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 386, in <lambda>' % py,
        "    lambda: self.create_worker().do_instruction(request), request)",
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 658, in do_instruction' % py,
        "    return getattr(self, request_type)(",
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 689, in process_bundle' % py,
    ]


def tb_setup(py, inner, exc, step, pre=None):
    """DoFn.setup failure re-raised by Beam with [while running ...]."""
    head = ["Traceback (most recent call last):",
            '  File "apache_beam/runners/common.py", line 1563, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
            '  File "apache_beam/runners/common.py", line 602, in apache_beam.runners.common.DoFnInvoker.invoke_setup'] + inner
    outer = (["", "During handling of the above exception, another exception occurred:", "",
              "Traceback (most recent call last):"] + sdk_outer(py) + [
        "    bundle_processor = self.bundle_processor_cache.get(",
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 512, in get' % py,
        "    processor = bundle_processor.BundleProcessor(",
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1137, in __init__' % py,
        "    op.setup(self.data_sampler)",
        '  File "apache_beam/runners/worker/operations.py", line 875, in apache_beam.runners.worker.operations.DoOperation.setup',
        '  File "apache_beam/runners/worker/operations.py", line 925, in apache_beam.runners.worker.operations.DoOperation.setup',
        '  File "apache_beam/runners/common.py", line 1569, in apache_beam.runners.common.DoFnRunner.setup',
        '  File "apache_beam/runners/common.py", line 1565, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
        '  File "apache_beam/runners/common.py", line 1610, in apache_beam.runners.common.DoFnRunner._reraise_augmented',
        '  File "apache_beam/runners/common.py", line 1563, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
        '  File "apache_beam/runners/common.py", line 602, in apache_beam.runners.common.DoFnInvoker.invoke_setup'] + inner)
    aug = exc[:-1] + [exc[-1] + " [while running '%s']" % step]
    parts = (pre or []) + head + exc + outer + aug
    return "\n".join(parts)


def tb_process(py, inner, exc, step, pre=None, extra_outer=None):
    head = ["Traceback (most recent call last):",
            '  File "apache_beam/runners/common.py", line 1501, in apache_beam.runners.common.DoFnRunner.process',
            '  File "apache_beam/runners/common.py", line 690, in apache_beam.runners.common.SimpleInvoker.invoke_process'] + inner
    outer = (["", "During handling of the above exception, another exception occurred:", "",
              "Traceback (most recent call last):"] + sdk_outer(py) + [
        "    bundle_processor.process_bundle(instruction_id))",
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1311, in process_bundle' % py,
        "    input_op_by_transform_id[element.transform_id].process_encoded(",
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 239, in process_encoded' % py,
        "    self.output(decoded_value)",
        '  File "apache_beam/runners/worker/operations.py", line 569, in apache_beam.runners.worker.operations.Operation.output',
        '  File "apache_beam/runners/worker/operations.py", line 260, in apache_beam.runners.worker.operations.SingletonElementConsumerSet.receive',
        '  File "apache_beam/runners/worker/operations.py", line 950, in apache_beam.runners.worker.operations.DoOperation.process',
        '  File "apache_beam/runners/common.py", line 1503, in apache_beam.runners.common.DoFnRunner.process',
        '  File "apache_beam/runners/common.py", line 1613, in apache_beam.runners.common.DoFnRunner._reraise_augmented',
        '  File "apache_beam/runners/common.py", line 1501, in apache_beam.runners.common.DoFnRunner.process',
        '  File "apache_beam/runners/common.py", line 690, in apache_beam.runners.common.SimpleInvoker.invoke_process'] + inner)
    aug = exc[:-1] + [exc[-1] + " [while running '%s']" % step]
    return "\n".join((pre or []) + head + exc + outer + aug)


def fail_attempts(j, t0, gap, attempts, tb, step_id, docker_first=True, worker_sev="ERROR"):
    """One failed work item attempt per (worker, sdk): docker stderr (line by line,
    first attempt only), worker log 'Error processing instruction', job-message."""
    for k, (w, sdk) in enumerate(attempts):
        t = t0 + k * gap
        iid = "process_bundle-%d-%d" % (int(hx(j.case, "pb")[:6], 16) % 9000000000 + 1000, 11 + k * 7)
        if docker_first and k == 0:
            j.lines(t, "docker", "ERROR", tb, w)
        j.wk(t + 0.35, worker_sev, "Error processing instruction %s. Original traceback is\n%s\n" % (iid, tb), w,
             sdk=sdk, logger="sdk_worker", line="sdk_worker.py:315", thread="Thread-14", step=step_id)
        j.jm(t + 3.9, "ERROR", "Error message from worker: %s" % tb)


def pad(j, t0, t1, w, sdk, msgs, n):
    """User-code progress lines (synthetic) spread between t0 and t1."""
    for i in range(n):
        t = t0 + (t1 - t0) * i / max(1, n)
        j.wk(t, "INFO", msgs[i % len(msgs)].format(i=i + 1, n=n * 64), w, sdk=sdk,
             logger="__main__", line="pipeline.py:%d" % (90 + i % 3), thread="Thread-%d" % (14 + i % 2))


# --------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------
CASES = []


def case(fn):
    CASES.append(fn)
    return fn


@case
def hs6_01():
    j = Job("hs6-01", "retail-vision-prod", "418822907716", "us-central1", "us-central1-a",
            "2026-02-03_06_41_17", 8, "4410928391751299820", "catalog-img-embed-20260203",
            "n1-standard-8", ["catalog-img-embed-2026-02030641-9x2k-harness-q7tn",
                              "catalog-img-embed-2026-02030641-9x2k-harness-mm4c"], 6, jm_label="number")
    py = j.py
    opts = opts_repr(j, {"dataflow_service_options": ["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"],
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "sdk_container_image": "us-central1-docker.pkg.dev/retail-vision-prod/beam/img-embed:2.61.0-cu124",
                         "max_num_workers": 4, "disk_size_gb": 100, "save_main_session": False})
    start_block(j, 2)
    W = j.workers
    for i, w in enumerate(W):
        vm_boot(j, w, 61 + i * 4)
    j.jm(128.7, "INFO", "Autoscaling: Raised the number of workers to 2 based on the rate of progress in the currently running stage(s).")
    j.jm(141.2, "INFO", "Workers have started successfully.")
    for i, w in enumerate(W):
        sdk_start(j, w, "sdk-0-0", 150 + i * 3, opts)
        j.wk(171 + i * 3, "INFO", "Loaded open_clip ViT-B-16 (laion2b_s34b_b88k) on cuda:0 in 19.4s", w, logger="imgembed.dofns", line="dofns.py:57")
        j.add(176 + i * 3, "docker", "ERROR",
              "/usr/local/lib/python3.11/site-packages/torch/utils/data/dataloader.py:624: UserWarning: This DataLoader will create 16 worker processes in total. "
              "Our suggested max number of worker in current system is 8, which is smaller than what this DataLoader is going to create. Please be aware that "
              "excessive worker creation might get DataLoader running slow or even freeze, lower the worker number to avoid potential slowness/freeze if necessary.", w=w)
        j.add(176.01 + i * 3, "docker", "ERROR", "  warnings.warn(", w=w)
        j.wk(176.5 + i * 3, "INFO", "Embedding shard gs://retail-vision-prod-catalog/images/part-%05d-of-00096.tfrecord with DataLoader(num_workers=16, batch_size=128)" % (i * 7), w, logger="imgembed.dofns", line="dofns.py:84")
    inner = [
        '  File "%s/imgembed/dofns.py", line 88, in process' % py,
        "    for batch in loader:",
        '  File "%s/torch/utils/data/dataloader.py", line 708, in __next__' % py,
        "    data = self._next_data()",
        '  File "%s/torch/utils/data/dataloader.py", line 1480, in _next_data' % py,
        "    return self._process_data(data)",
        '  File "%s/torch/utils/data/dataloader.py", line 1505, in _process_data' % py,
        "    data.reraise()",
        '  File "%s/torch/_utils.py", line 733, in reraise' % py,
        "    raise exception",
    ]
    exc = ["RuntimeError: Caught RuntimeError in DataLoader worker process 0.",
           "Original Traceback (most recent call last):",
           '  File "%s/torch/utils/data/_utils/worker.py", line 349, in _worker_loop' % py,
           "    data = fetcher.fetch(index)  # type: ignore[possibly-undefined]",
           '  File "%s/torch/utils/data/_utils/fetch.py", line 52, in fetch' % py,
           "    data = [self.dataset[idx] for idx in possibly_batched_index]",
           '  File "%s/imgembed/data.py", line 41, in __getitem__' % py,
           "    return self.normalize(img.to(self.device, non_blocking=True))",
           '  File "%s/torch/cuda/__init__.py", line 305, in _lazy_init' % py,
           "    raise RuntimeError(",
           "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method"]
    step = "EmbedImages/ParDo(ClipEmbedDoFn)"
    tb = tb_process(py, inner, exc, step)
    att = [(W[0], "sdk-0-0"), (W[1], "sdk-0-0"), (W[0], "sdk-0-0"), (W[1], "sdk-0-0")]
    fail_attempts(j, 183, 41.3, att, tb, "s3")
    pad(j, 190, 330, W[1], "sdk-0-0", ["Listing shard {i}: 1024 records pending"], 8)
    workflow_failed(j, 352.2, "S03:ReadShards/Read+EmbedImages/ParDo(ClipEmbedDoFn)+WriteEmbeddings/WriteToBigQuery", [w for w, _ in att],
                    "Traceback (most recent call last):")
    teardown(j, 352.9, 2)
    truth = dict(
        synthetic=['open_clip model name and DataLoader sizes; torch frame line numbers (dataloader.py, _utils.py, worker.py, fetch.py, cuda/__init__.py)'],
        outcome="failed", family="cuda-reinit-in-forked-dataloader-worker",
        root_cause="The DoFn initialises CUDA in setup() and then iterates a torch DataLoader with num_workers=16 (fork start method) whose Dataset.__getitem__ moves tensors to the GPU, so every forked loader worker fails with 'Cannot re-initialize CUDA in forked subprocess'.",
        setup="Batch RunInference-style custom DoFn (open_clip image embeddings) on n1-standard-8 + 1x NVIDIA T4, Beam 2.61 Python 3.11 custom container, 2 workers, one SDK process per worker.",
        evidence=["RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method",
                  "RuntimeError: Caught RuntimeError in DataLoader worker process 0.",
                  "    return self.normalize(img.to(self.device, non_blocking=True))",
                  "DataLoader(num_workers=16, batch_size=128)"],
        red_herrings=["ERROR-severity torch UserWarning that the DataLoader creates more worker processes than suggested and 'might ... freeze' (a performance advisory, not the failure)",
                      "kubelet 'Error initializing dynamic plugin prober' and system 'Error running LookupEffectiveGuestPolicies' (documented benign)",
                      "The outer exception is the DataLoader wrapper 'Caught RuntimeError in DataLoader worker process 0'; the CUDA reason is only in the embedded 'Original Traceback'"],
        sources=["pytorch/pytorch#40403 and #2971 (Caught ... in DataLoader worker process 0 / Original Traceback / Cannot re-initialize CUDA in forked subprocess wording)",
                 "facebookresearch/pycls#183 (full 'Cannot re-initialize CUDA ... 'spawn' start method' line)",
                 "pytorch torch/utils/data/dataloader.py _create_warning_msg (suggested max number of worker warning); public logs quoting 'dataloader.py:624: UserWarning: This DataLoader will create 4 worker processes in total...'",
                 "apache/beam sdks/python/apache_beam/runners/worker/sdk_worker.py _execute ('Error processing instruction %s. Original traceback is')",
                 "tensorflow/tfx#4701 and ray-project/ray_beam_runner#60 (Beam frame layout: sdk_worker _execute, operations.py, common.py _reraise_augmented)",
                 "apache/beam#30482 ('The job failed because a work item has failed 4 times...' wording)",
                 "Dataflow docs common-errors (benign kubelet/system lines); reference file sections 1.2, 2f, 2i"],
    )
    return j, truth


@case
def hs6_02():
    j = Job("hs6-02", "nlp-batch-eval", "733019285104", "us-east4", "us-east4-c",
            "2025-07-22_10_05_48", 7, "1192837465501928374", "glm4-summaries-0722",
            "g2-standard-24", ["glm4-summaries-0722-07221005-p0d3-harness-2hvb",
                               "glm4-summaries-0722-07221005-p0d3-harness-x81s"], 9, worker_line=False,
            py="/usr/local/lib/python3.10/dist-packages")
    py = j.py
    opts = opts_repr(j, {"dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:2;install-nvidia-driver:latest"],
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "sdk_container_image": "us-east4-docker.pkg.dev/nlp-batch-eval/images/sglang-beam:0.4.5.post1",
                         "number_of_worker_harness_threads": 4, "max_num_workers": 2, "disk_size_gb": 200})
    start_block(j, 2, 2)
    W = j.workers
    for i, w in enumerate(W):
        vm_boot(j, w, 58 + i * 2.5)
    j.jm(133.1, "INFO", "Workers have started successfully.")
    for i, w in enumerate(W):
        sdk_start(j, w, "sdk-0-0", 141 + i * 2, opts)
    step = "Summarize/ParDo(SGLangServerDoFn)"
    for k, w in enumerate(W * 2):
        t = 160 + k * 97
        lg = "sglang_server"
        j.wk(t, "INFO", "Starting SGLang: python3 -m sglang.launch_server --model-path THUDM/GLM-4-9B-0414 --tp-size 2 --port 30000 --mem-fraction-static 0.85", w, logger="summarize.server")
        j.wk(t + 9.2, "INFO", "[2025-07-22 17:%02d:%02d] server_args=ServerArgs(model_path='THUDM/GLM-4-9B-0414', tokenizer_path='THUDM/GLM-4-9B-0414', tokenizer_mode='auto', load_format='auto', trust_remote_code=False, dtype='auto', mem_fraction_static=0.85, tp_size=2, port=30000)" % (7 + k, (t % 60)), w, logger=lg)
        j.wk(t + 12.6, "INFO", "[2025-07-22 17:%02d:%02d TP0] Scheduler hit an exception: Traceback (most recent call last):" % (7 + k, (t + 3) % 60), w, logger=lg)
        for n, ln in enumerate([
                '  File "%s/sglang/srt/managers/scheduler.py", line 1748, in run_scheduler_process' % py,
                "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)",
                '  File "%s/sglang/srt/model_executor/model_runner.py", line 205, in __init__' % py,
                "    self.load_model()",
                '  File "%s/sglang/srt/model_loader/utils.py", line 37, in get_model_architecture' % py,
                "    architectures = resolve_transformers_arch(model_config, architectures)",
                "ValueError: Model architectures ['Glm4ForCausalLM'] are not supported for now. Supported architectures: dict_keys(['BaichuanForCausalLM', 'ChatGLMModel', 'CLIPModel', 'CohereForCausalLM', 'Cohere2ForCausalLM', 'DbrxForCausalLM', 'DeepseekForCausalLM', 'MultiModalityCausalLM', 'DeepseekV3ForCausalLMNextN', 'DeepseekV2ForCausalLM', 'DeepseekV3ForCausalLM', 'DeepseekVL2ForCausalLM', 'ExaoneForCausalLM', 'GemmaForCausalLM', 'Gemma2ForCausalLM', 'Gemma2ForSequenceClassification', 'Gemma3ForCausalLM', 'Gemma3ForConditionalGeneration'])"]):
            j.wk(t + 12.61 + n * 0.002, "INFO", ln, w, logger=lg)
        j.wk(t + 13.4, "INFO", "[2025-07-22 17:%02d:%02d] Received sigquit from a child process. It usually means the child failed." % (7 + k, (t + 4) % 60), w, logger=lg)
        j.wk(t + 14.0, "WARNING", "SGLang /health not ready after 14s (attempt 1/60): Connection refused", w, logger="summarize.server")
        inner = ['  File "%s/summarize/server.py", line 112, in setup' % py,
                 "    self._wait_ready(timeout_s=900)",
                 '  File "%s/summarize/server.py", line 71, in _wait_ready' % py,
                 "    raise RuntimeError(",]
        exc = ["RuntimeError: SGLang server process exited with return code -9 before /health returned 200 (see server log above)"]
        tb = tb_setup(py, inner, exc, step)
        iid = "process_bundle-%d-%d" % (5531906 + k, 3 + k)
        if k == 0:
            j.lines(t + 15.0, "docker", "ERROR", tb, w)
        j.wk(t + 15.4, "ERROR", "Error processing instruction %s. Original traceback is\n%s\n" % (iid, tb), w, logger="sdk_worker", thread="Thread-12", step="s2")
        j.jm(t + 19.9, "ERROR", "Error message from worker: %s" % tb)
    workflow_failed(j, 563.4, "S02:ReadArticles/Read+Summarize/ParDo(SGLangServerDoFn)+WriteSummaries/Write", W * 2,
                    "Traceback (most recent call last):")
    teardown(j, 564.0, 2)
    pad(j, 150, 160, W[0], "sdk-0-0", ["Prefetching article batch {i} of 12 from BigQuery storage read stream"], 10)
    truth = dict(
        synthetic=['SGLang intermediate frames (model_runner.py/model_loader/utils.py names and line numbers), the server_args line contents, the 0.4.5.post1 pin, the supported-architecture list cut after 18 names'],
        outcome="failed", family="serving-engine-unsupported-model-architecture",
        root_cause="The SGLang release pinned in the container (0.4.5.post1) does not register the Glm4ForCausalLM architecture of THUDM/GLM-4-9B-0414, so the SGLang scheduler raises 'Model architectures [...] are not supported for now' and the server subprocess dies before becoming healthy.",
        setup="Batch job, custom DoFn starting an SGLang server subprocess (tp-size 2) in setup(); g2-standard-24 with 2x NVIDIA L4; Beam Python 3.10 custom container; server output relayed through a Python logger (INFO).",
        evidence=["ValueError: Model architectures ['Glm4ForCausalLM'] are not supported for now.",
                  "Scheduler hit an exception: Traceback (most recent call last):",
                  "Received sigquit from a child process. It usually means the child failed.",
                  "RuntimeError: SGLang server process exited with return code -9 before /health returned 200 (see server log above)"],
        red_herrings=["The loud ERROR entries (worker, docker, job-message) only carry the DoFn's generic 'server process exited with return code -9' wrapper; the ValueError is in INFO-level relayed server output",
                      "return code -9 suggests an OOM kill but is SGLang's own kill_process_tree after the scheduler failed",
                      "'/health not ready ... Connection refused' WARNING is a consequence",
                      "benign kubelet/system ERROR lines"],
        sources=["sgl-project/sglang#5441 (ValueError: Model architectures ['Glm4ForCausalLM'] are not supported for now. Supported architectures: dict_keys([...]) - list prefix copied)",
                 "sgl-project/sglang#4689 and #2356 ('Scheduler hit an exception: Traceback', scheduler.py run_scheduler_process frame, '[date TP0]' prefix)",
                 "sglang python/sglang/srt/entrypoints/engine.py sigquit_handler ('Received sigquit from a child process. It usually means the child failed.')",
                 "apache/beam sdk_worker.py _execute; apache/beam common.py _reraise_augmented (via tensorflow/tfx#4701 layout)",
                 "apache/beam#30482 (work item failed 4 times); reference file sections 1.2, 2f, 2i"],
    )
    return j, truth


@case
def hs6_03():
    j = Job("hs6-03", "support-genai-dev", "102938475610", "us-central1", "us-central1-b",
            "2025-10-09_14_22_05", 7, "8829103746651029384", "ticket-triage-llama-w4a16",
            "n1-standard-16", ["ticket-triage-llama-w4a-10091422-c3fz-harness-lw0d"], 3,
            py="/usr/local/lib/python3.12/site-packages")
    py = j.py
    opts = opts_repr(j, {"dataflow_service_options": ["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver:5xx"],
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "sdk_container_image": "us-central1-docker.pkg.dev/support-genai-dev/beam/vllm-beam:0.10.2",
                         "max_num_workers": 1, "disk_size_gb": 150})
    start_block(j, 1, 1)
    w = j.workers[0]
    vm_boot(j, w, 63.0)
    j.jm(127.4, "INFO", "Workers have started successfully.")
    sdk_start(j, w, "sdk-0-0", 135.0, opts)
    step = "Triage/ParDo(VllmTriageDoFn)"
    for k in range(4):
        t = 150 + k * 88
        pid = 585 + k * 212
        mm = "%02d" % (22 + k)
        j.wk(t, "INFO", "Building vLLM engine for RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16 (max_model_len=4096, dtype=auto)", w, logger="triage.dofn", line="dofn.py:48")
        j.add(t + 4.1, "docker", "INFO", "INFO 10-09 21:%s:07 [__init__.py:241] Automatically detected platform cuda." % mm, w=w)
        j.add(t + 9.3, "docker", "INFO", "INFO 10-09 21:%s:12 [utils.py:326] non-default args: {'model': 'RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16', 'max_model_len': 4096, 'disable_log_stats': True}" % mm, w=w)
        j.add(t + 11.0, "docker", "ERROR", "huggingface/tokenizers: The current process just got forked, after parallelism has already been used. Disabling parallelism to avoid deadlocks...", w=w)
        j.add(t + 11.01, "docker", "ERROR", "To disable this warning, you can either:", w=w)
        j.add(t + 11.02, "docker", "ERROR", "\t- Avoid using `tokenizers` before the fork if possible", w=w)
        j.add(t + 11.03, "docker", "ERROR", "\t- Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)", w=w)
        pre = "(EngineCore_DP0 pid=%d) ERROR 10-09 21:%s:22 [core.py:718] " % (pid, mm)
        eng = ["EngineCore failed to start.",
               "Traceback (most recent call last):",
               '  File "%s/vllm/model_executor/models/llama.py", line 276, in __init__' % py,
               "    self.self_attn = LlamaAttention(",
               "                     ^^^^^^^^^^^^^^^",
               '  File "%s/vllm/model_executor/models/llama.py", line 150, in __init__' % py,
               "    self.qkv_proj = QKVParallelLinear(",
               "                    ^^^^^^^^^^^^^^^^^^",
               '  File "%s/vllm/model_executor/layers/linear.py", line 884, in __init__' % py,
               "    super().__init__(input_size=input_size,",
               '  File "%s/vllm/model_executor/layers/quantization/compressed_tensors/compressed_tensors.py", line 626, in get_scheme' % py,
               "    self._check_scheme_supported(scheme.get_min_capability())",
               "RuntimeError: ('Quantization scheme is not supported for ', 'the current GPU. Min capability: 80. ', 'Current capability: 75.')"]
        for n, ln in enumerate(eng):
            j.add(t + 19.0 + n * 0.002, "docker", "ERROR", pre + ln, w=w)
        inner = ['  File "%s/triage/dofn.py", line 52, in setup' % py,
                 "    self._llm = LLM(model=self._model, max_model_len=4096, disable_log_stats=True)",
                 '  File "%s/vllm/entrypoints/llm.py", line 285, in __init__' % py,
                 "    self.llm_engine = LLMEngine.from_engine_args(",
                 '  File "%s/vllm/v1/engine/core_client.py", line 448, in __init__' % py,
                 "    with launch_core_engines(vllm_config, executor_class,",
                 '  File "%s/vllm/v1/engine/utils.py", line 729, in launch_core_engines' % py,
                 "    wait_for_engine_startup(",
                 '  File "%s/vllm/v1/engine/utils.py", line 782, in wait_for_engine_startup' % py,
                 '    raise RuntimeError("Engine core initialization failed. "']
        exc = ["RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}"]
        tb = tb_setup(py, inner, exc, step)
        iid = "process_bundle-%d-%d" % (8812001 + k, 2)
        j.wk(t + 21.5, "ERROR", "Error processing instruction %s. Original traceback is\n%s\n" % (iid, tb), w, logger="sdk_worker", line="sdk_worker.py:315", thread="Thread-11", step="s2")
        j.jm(t + 25.2, "ERROR", "Error message from worker: %s" % tb)
    pad(j, 136, 149, w, "sdk-0-0", ["Read {i} ticket pages from gs://support-genai-dev-tickets/2025-10-08/"], 12)
    workflow_failed(j, 440.3, "S02:ReadTickets/Read+Triage/ParDo(VllmTriageDoFn)+WriteTriage/Write", [w] * 4,
                    "Traceback (most recent call last):")
    teardown(j, 441.0, 1)
    truth = dict(
        synthetic=['model id RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16 (illustrative), vLLM llm.py/core_client.py/utils.py frame line numbers, engine-core pids and vLLM timestamps'],
        outcome="failed", family="quantization-scheme-needs-newer-gpu",
        root_cause="The model is a compressed-tensors W4A16 checkpoint whose vLLM kernel needs compute capability 8.0, but the job runs on NVIDIA T4 (capability 7.5), so the vLLM engine-core process fails while building the quantized layers and the DoFn only sees 'Engine core initialization failed'.",
        setup="Batch job, vLLM offline LLM() built in DoFn.setup(); n1-standard-16 + 1x NVIDIA T4; vLLM 0.10-era V1 engine (EngineCore child process); Python 3.12 custom container; single worker.",
        evidence=["RuntimeError: ('Quantization scheme is not supported for ', 'the current GPU. Min capability: 80. ', 'Current capability: 75.')",
                  "EngineCore failed to start.",
                  "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
                  "worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver:5xx"],
        red_herrings=["Worker log and job-message carry only the generic 'Engine core initialization failed. See root cause above.'; the cause is only in docker (engine-core child stderr)",
                      "ERROR-severity huggingface/tokenizers fork warning (harmless)",
                      "benign kubelet/system ERROR lines"],
        sources=["vllm-project/vllm#14040 (EngineCore_DP0 ERROR [core.py:718] prefix, llama.py/linear.py frames, the tuple-form RuntimeError text)",
                 "vllm-project/vllm#26297 and #29707 (compressed_tensors.py get_scheme / _check_scheme_supported frames)",
                 "vllm-project/vllm v1/engine/utils.py wait_for_engine_startup ('Engine core initialization failed. See root cause above. Failed core proc(s): {}' as quoted in public logs)",
                 "sasha0552/pascal-pkgs-ci#28 ('Automatically detected platform cuda.' and 'non-default args' line shapes)",
                 "huggingface tokenizers fork warning as quoted in public notebooks/logs",
                 "apache/beam sdk_worker.py; apache/beam#30482; reference file sections 1.2, 2f, 2i"],
    )
    return j, truth


@case
def hs6_04():
    j = Job("hs6-04", "cx-analytics-471", "571209384756", "europe-west4", "europe-west4-a",
            "2026-01-19_02_14_40", 8, "6038291745510293847", "review-sentiment-backfill",
            "g2-standard-8", ["review-sentiment-backfi-01190214-7hq2-harness-0xk1",
                              "review-sentiment-backfi-01190214-7hq2-harness-d5rw"], "trim")
    py = j.py
    opts = opts_repr(j, {"dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"],
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "requirements_file": "requirements.txt", "max_num_workers": 6, "disk_size_gb": 80})
    start_block(j, 2, 6)
    W = j.workers
    for i, w in enumerate(W):
        vm_boot(j, w, 55 + i * 3)
    j.jm(122.3, "INFO", "Workers have started successfully.")
    j.jm(123.0, "INFO", "Autoscaling: Raised the number of workers to 2 based on the rate of progress in the currently running stage(s).")
    for i, w in enumerate(W):
        sdk_start(j, w, "sdk-0-0", 130 + i * 2, opts)
        j.wk(149 + i * 2, "INFO", "Loading pipeline task=text-classification model=distilbert/distilbert-base-uncased-finetuned-sst-2-english device=GPU batch_size=64", w,
             logger="apache_beam.ml.inference.base", line="base.py:1389")
        j.wk(161 + i * 2, "INFO", "Finished loading model in 11.8s", w, logger="apache_beam.ml.inference.base", line="base.py:1405")
    step = "ClassifyReviews/BeamML_RunInference"
    # The decisive tokenizer warning (WARNING, logged once per process).
    for i, w in enumerate(W):
        j.wk(169.4 + i * 41, "WARNING", "Token indices sequence length is longer than the specified maximum sequence length for this model (%d > 512). Running this sequence through the model will result in indexing errors" % (1379 if i == 0 else 2211),
             w, logger="transformers.tokenization_utils_base", line="tokenization_utils_base.py:4096", thread="Thread-15")
    asserts = ["../aten/src/ATen/native/cuda/Indexing.cu:1141: indexSelectLargeIndex: block: [%d,0,0], thread: [%d,0,0] Assertion `srcIndex < srcSelectDimSize` failed." % (b, th)
               for b, th in [(42, 58), (42, 59), (42, 60), (42, 61), (42, 62), (42, 63), (2, 96), (2, 97), (2, 98)]]
    inner = ['  File "%s/apache_beam/ml/inference/base.py", line 1470, in process' % py,
             "    return self._run_inference(batch, inference_args)",
             '  File "%s/apache_beam/ml/inference/base.py", line 1436, in _run_inference' % py,
             "    raise e",
             '  File "%s/apache_beam/ml/inference/base.py", line 1422, in _run_inference' % py,
             "    result_generator = self._model_handler.run_inference(",
             '  File "%s/apache_beam/ml/inference/huggingface_inference.py", line 726, in run_inference' % py,
             "    return self._inference_fn(batch, model, inference_args)",
             '  File "%s/transformers/pipelines/text_classification.py", line 159, in __call__' % py,
             "    result = super().__call__(*inputs, **kwargs)",
             '  File "%s/transformers/models/distilbert/modeling_distilbert.py", line 112, in forward' % py,
             "    embeddings = input_embeds + position_embeddings  # (bs, max_seq_length, dim)"]
    exc = ["RuntimeError: CUDA error: device-side assert triggered",
           "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
           "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
           "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."]
    tb = tb_process(py, inner, exc, step)
    att = [(W[0], "sdk-0-0"), (W[1], "sdk-0-0"), (W[0], "sdk-0-0"), (W[1], "sdk-0-0")]
    for k, (w, sdk) in enumerate(att):
        t = 170 + k * 41
        for n, a in enumerate(asserts if k < 2 else asserts[:3]):
            j.add(t + n * 0.002, "docker", "ERROR", a, w=w)
        if k == 0:
            j.add(t + 0.9, "system", "ERROR", "NVRM: Xid (PCI:0000:00:03): 43, pid=2291, name=python, Ch 00000008", w=w)
    fail_attempts(j, 171.0, 41, att, tb, "s4")
    pad(j, 131, 168, W[1], "sdk-0-0", ["Batched {i} review rows (avg 211 chars, max 14873 chars)"], 6)
    workflow_failed(j, 305.7, "S04:ReadReviews/Read+ClassifyReviews/BeamML_RunInference+WriteScores/WriteToBigQuery", [w for w, _ in att],
                    "Traceback (most recent call last):")
    teardown(j, 306.4, 2)
    truth = dict(
        synthetic=['review lengths (1379/2211 tokens), transformers/Beam frame line numbers, Xid 43 line values (pid, channel, PCI address)'],
        outcome="failed", family="device-side-assert-sequence-longer-than-position-embeddings",
        root_cause="Reviews longer than 512 tokens are fed to a DistilBERT text-classification pipeline without truncation, so the position-embedding lookup indexes past its table and the CUDA kernel asserts (device-side assert triggered), failing every retry.",
        setup="Batch RunInference with HuggingFacePipelineModelHandler (text-classification, device=GPU) on g2-standard-8 + 1x NVIDIA L4, 2 workers, Beam Python 3.11 default container + requirements_file.",
        evidence=["Token indices sequence length is longer than the specified maximum sequence length for this model (1379 > 512). Running this sequence through the model will result in indexing errors",
                  "Assertion `srcIndex < srcSelectDimSize` failed.",
                  "RuntimeError: CUDA error: device-side assert triggered"],
        red_herrings=["NVRM Xid 43 in the system log looks like a GPU fault but is the application-class consequence of the device-side assert",
                      "'CUDA kernel errors might be asynchronously reported ... stacktrace below might be incorrect' invites blaming the position-embedding frame's hardware/driver",
                      "The decisive tokenizer message is WARNING severity and is logged once per process, long before the ERRORs"],
        sources=["huggingface/transformers#14384 and tabularis-ai/be_great#6 (Indexing.cu:1141 indexSelectLargeIndex ... Assertion `srcIndex < srcSelectDimSize` failed.)",
                 "huggingface transformers tokenization_utils_base.py ('Token indices sequence length is longer than the specified maximum sequence length for this model ({} > {}). Running this sequence through the model will result in indexing errors')",
                 "hpcaitech/ColossalAI#2606 ('RuntimeError: CUDA error: device-side assert triggered' on sequence length beyond positions)",
                 "PyTorch c10 CUDA error text ('CUDA kernel errors might be asynchronously reported...', 'For debugging consider passing CUDA_LAUNCH_BLOCKING=1', 'Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.')",
                 "NVIDIA driver Xid format 'NVRM: Xid (PCI:%04x:%02x:%02x): %d, pid=%s, name=%s, ...' and Xid 43 meaning (reference file 2h)",
                 "apache/beam sdks/python/apache_beam/ml/inference/base.py and huggingface_inference.py (frame names)",
                 "apache/beam#30482; reference file sections 1.2, 2f, 2i"],
    )
    return j, truth


@case
def hs6_05():
    j = Job("hs6-05", "fin-docs-ml", "880417263391", "us-central1", "us-central1-c",
            "2026-03-14_07_12_33", 7, "1234567890123456789", "qwen7b-kyc-extract-tp8",
            "g2-standard-96", ["qwen7b-kyc-extract-tp8-03140712-z8v5-harness-hh2m"], 6,
            py="/usr/local/lib/python3.12/site-packages")
    py = j.py
    opts = opts_repr(j, {"dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:8;install-nvidia-driver:latest"],
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "sdk_container_image": "us-central1-docker.pkg.dev/fin-docs-ml/containers/vllm-beam:2026.03",
                         "max_num_workers": 1, "disk_size_gb": 250, "number_of_worker_harness_threads": 1})
    start_block(j, 1, 1)
    w = j.workers[0]
    vm_boot(j, w, 66.0)
    for n in range(8):
        j.add(120.0 + n * 0.05, "worker-startup", "INFO", "GPU %d: NVIDIA L4 (UUID: GPU-%s-%s-%s-%s-%s)" % (
            n, hx("g", n)[:8], hx("g", n)[8:12], hx("g", n)[12:16], hx("g", n)[16:20], hx("g", n)[20:32]), w=w)
    j.add(121.0, "worker-startup", "INFO", "WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager. It is recommended to use a virtual environment instead: https://pip.pypa.io/warnings/venv", w=w)
    j.jm(131.8, "INFO", "Workers have started successfully.")
    sdk_start(j, w, "sdk-0-0", 139.0, opts)
    step = "Extract/ParDo(QwenExtractDoFn)"
    for k in range(4):
        t = 155 + k * 64
        mm = 21 + k
        j.wk(t, "INFO", "Initialising vLLM for Qwen/Qwen2.5-7B-Instruct with tensor_parallel_size=8 (all visible GPUs), gpu_memory_utilization=0.85", w, logger="kyc.extract", line="extract.py:61")
        j.add(t + 3.2, "docker", "INFO", "INFO 03-14 14:%02d:%02d [__init__.py:241] Automatically detected platform cuda." % (mm, (t + 3) % 60), w=w)
        j.add(t + 6.7, "docker", "INFO", "INFO 03-14 14:%02d:%02d [utils.py:326] non-default args: {'model': 'Qwen/Qwen2.5-7B-Instruct', 'tensor_parallel_size': 8, 'gpu_memory_utilization': 0.85, 'max_model_len': 8192}" % (mm, (t + 6) % 60), w=w)
        j.add(t + 8.1, "docker", "INFO", "INFO 03-14 14:%02d:%02d [config.py:717] Resolved architecture: Qwen2ForCausalLM" % (mm, (t + 8) % 60), w=w)
        pre = ["Traceback (most recent call last):",
               '  File "%s/kyc/extract.py", line 66, in setup' % py,
               "    self._llm = LLM(**self._engine_kwargs)",
               '  File "%s/vllm/entrypoints/llm.py", line 285, in __init__' % py,
               "    self.llm_engine = LLMEngine.from_engine_args(",
               '  File "%s/vllm/engine/arg_utils.py", line 1124, in create_engine_config' % py,
               "    config = VllmConfig(",
               '  File "%s/vllm/config/__init__.py", line 3722, in __post_init__' % py,
               "    self.model_config.verify_with_parallel_config(self.parallel_config)",
               '  File "%s/vllm/config/__init__.py", line 1305, in verify_with_parallel_config' % py,
               "    raise ValueError(",
               "ValueError: Total number of attention heads (28) must be divisible by tensor parallel size (8).",
               "",
               "The above exception was the direct cause of the following exception:",
               ""]
        inner = ['  File "%s/kyc/extract.py", line 70, in setup' % py,
                 '    raise RuntimeError(f"could not build LLM engine for {self._model} on {n_gpus} GPU(s)") from e']
        exc = ["RuntimeError: could not build LLM engine for Qwen/Qwen2.5-7B-Instruct on 8 GPU(s)"]
        tb = tb_setup(py, inner, exc, step, pre=pre)
        iid = "process_bundle-%d-%d" % (44120097 + k, 1)
        if k == 0:
            j.lines(t + 9.0, "docker", "ERROR", tb, w)
        j.wk(t + 9.4, "ERROR", "Error processing instruction %s. Original traceback is\n%s\n" % (iid, tb), w, logger="sdk_worker", line="sdk_worker.py:315", thread="Thread-11", step="s2")
        j.jm(t + 13.0, "ERROR", "Error message from worker: %s" % tb)
    pad(j, 140, 154, w, "sdk-0-0", ["Queued KYC document batch {i} (32 PDFs, text already extracted)"], 10)
    workflow_failed(j, 411.5, "S02:ListDocs/Read+Extract/ParDo(QwenExtractDoFn)+WriteResults/Write", [w] * 4,
                    "Traceback (most recent call last):")
    teardown(j, 412.1, 1)
    truth = dict(
        synthetic=["vLLM arg_utils.py/config frames and line numbers, 'Resolved architecture' line, GPU UUID lines in worker-startup"],
        outcome="failed", family="tensor-parallel-size-does-not-divide-attention-heads",
        root_cause="The DoFn starts vLLM with tensor_parallel_size=8 to use all eight L4 GPUs, but Qwen2.5-7B-Instruct has 28 attention heads, which 8 does not divide, so vLLM's config validation raises before any GPU work and the DoFn wraps it in a generic RuntimeError.",
        setup="Batch job, vLLM offline LLM() in DoFn.setup() on g2-standard-96 with 8x NVIDIA L4 (worker_accelerator count:8), one worker, one SDK process, Python 3.12 custom container.",
        evidence=["ValueError: Total number of attention heads (28) must be divisible by tensor parallel size (8).",
                  "The above exception was the direct cause of the following exception:",
                  "RuntimeError: could not build LLM engine for Qwen/Qwen2.5-7B-Instruct on 8 GPU(s)",
                  "worker_accelerator=type:nvidia-l4;count:8;install-nvidia-driver:latest"],
        red_herrings=["The last exception line of every traceback (and of the job-message) is the DoFn's generic 'could not build LLM engine' wrapper; the real ValueError sits in the middle of the chain",
                      "pip 'Running pip as the root user' WARNING in worker-startup (harmless)",
                      "8 GPUs listed in worker-startup suggest a multi-GPU/NCCL problem, but NCCL is never reached"],
        sources=["vllm-project/vllm#2652, #414, #596 and THU-KEG/AdaptThink#1 ('ValueError: Total number of attention heads (28) must be divisible by tensor parallel size (8)' and the Qwen 28-head case)",
                 "vllm-project/vllm#11797 (vllm config.py verify_with_parallel_config raise site)",
                 "pip 'Running pip as the 'root' user can result in broken permissions...' as quoted in public build logs",
                 "CPython chained-exception separator 'The above exception was the direct cause of the following exception:'",
                 "apache/beam sdk_worker.py; apache/beam#30482; reference file sections 1.2, 2f, 2g"],
    )
    return j, truth


@case
def hs6_06():
    j = Job("hs6-06", "creative-assets-gen", "290381746650", "us-west1", "us-west1-b",
            "2025-11-25_16_48_09", 8, "5561029384756102938", "sdxl-thumbs-nightly",
            "g2-standard-16", ["sdxl-thumbs-nightly-11251648-m4k8-harness-2q9z"], 9, jm_label="number",
            py="/usr/local/lib/python3.11/site-packages")
    py = j.py
    opts = opts_repr(j, {"dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"],
                         "experiments": ["use_runner_v2"], "sdk_worker_parallelism": "4",
                         "requirements_file": "requirements.txt", "max_num_workers": 3, "disk_size_gb": 120})
    start_block(j, 1, 3)
    w = j.workers[0]
    vm_boot(j, w, 57.0)
    pip = ["Collecting diffusers==0.25.1 (from -r /var/opt/google/staged/requirements.txt (line 3))",
           "Collecting huggingface-hub>=0.19.4 (from diffusers==0.25.1->-r /var/opt/google/staged/requirements.txt (line 3))",
           "Installing collected packages: huggingface-hub, fsspec, diffusers",
           "  Attempting uninstall: huggingface-hub",
           "    Found existing installation: huggingface-hub 0.24.6",
           "    Uninstalling huggingface-hub-0.24.6:",
           "      Successfully uninstalled huggingface-hub-0.24.6",
           "Successfully installed diffusers-0.25.1 fsspec-2024.9.0 huggingface-hub-0.26.2"]
    for n, ln in enumerate(pip):
        j.add(112.0 + n * 0.4, "worker-startup", "INFO", ln, w=w)
    j.add(115.6, "worker-startup", "ERROR", "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.", w=w)
    j.add(115.61, "worker-startup", "ERROR", "gcsfs 2024.6.1 requires fsspec==2024.6.1, but you have fsspec 2024.9.0 which is incompatible.", w=w)
    j.jm(126.0, "INFO", "Workers have started successfully.")
    sdks = ["sdk-0-0", "sdk-0-1", "sdk-0-2", "sdk-0-3"]
    for n, s in enumerate(sdks):
        sdk_start(j, w, s, 131 + n * 0.9, opts)
    step = "Render/ParDo(SdxlThumbnailDoFn)"
    inner = ['  File "%s/thumbs/render.py", line 34, in setup' % py,
             "    from diffusers import AutoPipelineForText2Image",
             '  File "%s/diffusers/__init__.py", line 5, in <module>' % py,
             "    from .utils import (",
             '  File "%s/diffusers/utils/__init__.py", line 38, in <module>' % py,
             "    from .dynamic_modules_utils import get_class_from_dynamic_module",
             '  File "%s/diffusers/utils/dynamic_modules_utils.py", line 28, in <module>' % py,
             "    from huggingface_hub import cached_download, hf_hub_download, model_info"]
    exc = ["ImportError: cannot import name 'cached_download' from 'huggingface_hub' (%s/huggingface_hub/__init__.py)" % py]
    tb = tb_setup(py, inner, exc, step)
    att = [("sdk-0-2", 0), ("sdk-0-0", 1), ("sdk-0-3", 2), ("sdk-0-1", 3)]
    for s, k in att:
        t = 150 + k * 23.5
        j.wk(t - 1.2, "INFO", "Loading stabilityai/sdxl-turbo fp16 on cuda:0", w, sdk=s, logger="thumbs.render", line="render.py:31")
        iid = "process_bundle-%d-%d" % (7719302 + k, 4)
        if k == 0:
            j.lines(t, "docker", "ERROR", tb, w)
        j.wk(t + 0.3, "ERROR", "Error processing instruction %s. Original traceback is\n%s\n" % (iid, tb), w, sdk=s, logger="sdk_worker", line="sdk_worker.py:315", thread="Thread-13", step="s3")
        j.jm(t + 4.4, "ERROR", "Error message from worker: %s" % tb)
    for n, s in enumerate(sdks):
        pad(j, 132 + n, 148 + n, w, s, ["Prompt batch {i}: 16 prompts, 512x512, 4 steps"], 3)
    workflow_failed(j, 243.9, "S03:ReadPrompts/Read+Render/ParDo(SdxlThumbnailDoFn)+Upload/WriteToGCS", [w] * 4,
                    "Traceback (most recent call last):")
    teardown(j, 244.5, 1)
    truth = dict(
        synthetic=['pip install transcript contents (versions 0.25.1 / 0.26.2 / 0.24.6, gcsfs/fsspec conflict)'],
        outcome="failed", family="diffusers-huggingface-hub-version-skew",
        root_cause="requirements.txt pins an old diffusers (0.25.1) but lets huggingface-hub float to 0.26.2, which removed cached_download, so importing diffusers in DoFn.setup() raises ImportError in every SDK process.",
        setup="Batch job, custom DoFn running an SDXL-Turbo diffusers pipeline on g2-standard-16 + 1x NVIDIA L4; four SDK processes per worker (sdk_worker_parallelism 4); dependencies installed at worker start from requirements_file.",
        evidence=["ImportError: cannot import name 'cached_download' from 'huggingface_hub' (/usr/local/lib/python3.11/site-packages/huggingface_hub/__init__.py)",
                  "Successfully installed diffusers-0.25.1 fsspec-2024.9.0 huggingface-hub-0.26.2",
                  "    from huggingface_hub import cached_download, hf_hub_download, model_info"],
        red_herrings=["pip's dependency-resolver ERROR about gcsfs/fsspec in worker-startup is real but unrelated to the failure",
                      "Four SDK processes (sdk-0-0..sdk-0-3) fail the same way; the per-process interleaving makes it look like a crash loop",
                      "benign kubelet/system ERROR lines"],
        sources=["mit-han-lab/distrifuser#24, Tencent-Hunyuan/Hunyuan3D-1#59, TMElyralab/MuseTalk#265 (diffusers/utils/dynamic_modules_utils.py import frames and the cached_download ImportError text)",
                 "LayerDiffuse_DiffusersCLI#13 and YanjieZe/3D-Diffusion-Policy#91 (cached_download removed in huggingface_hub 0.26.0)",
                 "pip resolver wording ('ERROR: pip's dependency resolver does not currently take into account...', 'X requires Y, but you have Z which is incompatible.')",
                 "apache/beam sdk_worker.py; reference file D (portability_worker_id sdk-0-N, one per SDK process), 2i"],
    )
    return j, truth


@case
def hs6_07():
    j = Job("hs6-07", "shelf-audit-cv", "661092837455", "us-central1", "us-central1-f",
            "2025-09-02_23_30_51", 7, "3039485761029384756", "shelf-detect-backfill",
            "n1-standard-4", ["shelf-detect-backfill-09022330-f6u1-harness-b3kd",
                              "shelf-detect-backfill-09022330-f6u1-harness-t0ze"], 3)
    py = j.py
    opts = opts_repr(j, {"dataflow_service_options": ["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"],
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "sdk_container_image": "us-central1-docker.pkg.dev/shelf-audit-cv/beam/yolo-beam:py311-slim",
                         "max_num_workers": 8})
    start_block(j, 2, 8)
    W = j.workers
    for i, w in enumerate(W):
        vm_boot(j, w, 60 + i * 2)
    j.jm(126.2, "INFO", "Workers have started successfully.")
    for i, w in enumerate(W):
        sdk_start(j, w, "sdk-0-0", 133 + i * 2, opts)
        j.wk(151 + i * 2, "WARNING",
             "ultralytics import failed (libGL.so.1: cannot open shared object file: No such file or directory); shelf detector disabled, falling back to torchvision preprocessing only",
             w, logger="shelfaudit.detect", line="detect.py:22")
        j.wk(151.5 + i * 2, "INFO", "torch 2.5.1+cu124, cuda available: True, device: Tesla T4", w, logger="shelfaudit.detect", line="detect.py:30")
    step = "Detect/ParDo(ShelfDetectDoFn)"
    inner = ['  File "%s/shelfaudit/detect.py", line 47, in process' % py,
             "    results = self._model.predict(frames, imgsz=640, conf=0.35, verbose=False)"]
    exc = ["AttributeError: 'ShelfDetectDoFn' object has no attribute '_model'"]
    tb = tb_process(py, inner, exc, step)
    att = [(W[0], "sdk-0-0"), (W[1], "sdk-0-0"), (W[1], "sdk-0-0"), (W[0], "sdk-0-0")]
    fail_attempts(j, 160, 29.5, att, tb, "s2")
    for i, w in enumerate(W):
        pad(j, 136 + i, 150 + i, w, "sdk-0-0", ["Decoded store video segment {i} (30 frames @ 1920x1080)"], 9)
    workflow_failed(j, 262.8, "S02:ListSegments/Read+Detect/ParDo(ShelfDetectDoFn)+WriteDetections/Write", [w for w, _ in att],
                    "Traceback (most recent call last):")
    teardown(j, 263.4, 2)
    truth = dict(
        synthetic=["the user DoFn's WARNING text that embeds the real ImportError message, image tag py311-slim"],
        outcome="failed", family="container-missing-system-library-libgl",
        root_cause="The custom python:3.11-slim based image lacks libGL, so importing ultralytics (which imports OpenCV's cv2) fails with 'libGL.so.1: cannot open shared object file'; the DoFn swallows the ImportError as a WARNING, never creates its model, and every bundle then fails with a misleading AttributeError.",
        setup="Batch job, custom DoFn running an Ultralytics YOLO detector on n1-standard-4 + 1x NVIDIA T4, 2 workers, custom slim SDK container image.",
        evidence=["ultralytics import failed (libGL.so.1: cannot open shared object file: No such file or directory)",
                  "AttributeError: 'ShelfDetectDoFn' object has no attribute '_model'",
                  "sdk_container_image': 'us-central1-docker.pkg.dev/shelf-audit-cv/beam/yolo-beam:py311-slim'"],
        red_herrings=["The ERROR traceback (worker, docker, job-message) shows only AttributeError '_model' in process(), pointing at user code logic",
                      "'cuda available: True, device: Tesla T4' shows the GPU is fine",
                      "benign kubelet/system ERROR lines"],
        sources=["ultralytics/ultralytics#1270 and bentoml/BentoYolo#7/#8 (ImportError: libGL.so.1: cannot open shared object file: No such file or directory via cv2 pulled in by ultralytics, slim Debian base image)",
                 "ultralytics/yolov5#2897, ThoughtfulDev/EagleEye#132 (same libGL text from cv2 in Docker)",
                 "apache/beam sdk_worker.py; apache/beam#30482; reference file sections 1.2, 2f"],
    )
    return j, truth


@case
def hs6_08():
    j = Job("hs6-08", "legal-llm-eval", "339182746501", "us-central1", "us-central1-a",
            "2026-04-02_09_03_22", 7, "7720193847561029384", "contract-qa-a100-fa2",
            "a2-highgpu-1g", ["contract-qa-a100-fa2-04020903-r2d7-harness-9pnz"], 6, jm_label="number")
    w = j.workers[0]
    start_block(j, 1, 2)
    vm_boot(j, w, 64.0, driver="550.90.07")
    j.jm(137.9, "INFO", "Workers have started successfully.")
    j.jm(138.4, "INFO", "Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).")
    pip_fail = [
        "Processing /var/opt/google/staged/flash_attn-2.7.4.post1.tar.gz",
        "  Installing build dependencies: started",
        "  Installing build dependencies: finished with status 'done'",
        "  Getting requirements to build wheel: started",
        "  Getting requirements to build wheel: finished with status 'error'",
        "  error: subprocess-exited-with-error",
        "  ",
        "  × Getting requirements to build wheel did not run successfully.",
        "  │ exit code: 1",
        "  ╰─> [20 lines of output]",
        "      Traceback (most recent call last):",
        '        File "/usr/local/lib/python3.11/site-packages/pip/_vendor/pyproject_hooks/_in_process/_in_process.py", line 353, in <module>',
        "          main()",
        '        File "/usr/local/lib/python3.11/site-packages/pip/_vendor/pyproject_hooks/_in_process/_in_process.py", line 335, in main',
        "          json_out['return_val'] = hook(**hook_input['kwargs'])",
        '        File "/usr/local/lib/python3.11/site-packages/pip/_vendor/pyproject_hooks/_in_process/_in_process.py", line 118, in get_requires_for_build_wheel',
        "          return hook(config_settings)",
        '        File "/tmp/pip-build-env-k0w8x1ts/overlay/lib/python3.11/site-packages/setuptools/build_meta.py", line 331, in get_requires_for_build_wheel',
        "          return self._get_build_requires(config_settings, requirements=[])",
        '        File "<string>", line 22, in <module>',
        "      ModuleNotFoundError: No module named 'torch'",
        "      [end of output]",
        "  ",
        "  note: This error originates from a subprocess, and is likely not a problem with pip.",
        "error: subprocess-exited-with-error",
        "× Getting requirements to build wheel did not run successfully.",
        "│ exit code: 1",
        "╰─> See above for output.",
        "note: This error originates from a subprocess, and is likely not a problem with pip.",
    ]
    pod = "contract-qa-a100-fa2-04020903-r2d7-harness-9pnz_default(6c1f0d2e8a4b4b7f9e3d2c1b0a998877)"
    for k in range(5):
        t = 150 + k * 330
        j.add(t, "worker-startup", "INFO", "Installing setup packages ...", w=w)
        j.add(t + 2.0, "worker-startup", "INFO", "Found artifact: requirements.txt", w=w)
        j.add(t + 2.5, "worker-startup", "INFO", "Installing packages from requirements.txt (torch==2.6.0, transformers==4.51.3, accelerate==1.6.0, flash-attn==2.7.4.post1)", w=w)
        body = pip_fail if k < 2 else pip_fail[:1] + pip_fail[4:6] + pip_fail[20:21]
        for n, ln in enumerate(body):
            j.add(t + 61.0 + n * 0.003, "worker-startup", "INFO", ln, w=w)
        j.add(t + 62.0, "worker-startup", "ERROR", "Failed to install required packages: failed to install requirements: exit status 1", w=w)
        j.add(t + 63.5, "kubelet", "INFO", '[topologymanager] RemoveContainer - Container ID: %s' % hx(j.case, "cid", k)[:64], w=w)
        if k >= 1:
            j.add(t + 64.0, "kubelet", "ERROR",
                  'Error syncing pod 6c1f0d2e8a4b4b7f9e3d2c1b0a998877 ("%s"), skipping: failed to "StartContainer" for "sdk-0-0" with CrashLoopBackOff: "back-off %s restarting failed container=sdk-0-0 pod=%s"'
                  % (pod, ["20s", "40s", "1m20s", "2m40s"][k - 1], pod), w=w)
    for k in range(12):
        j.add(1830 + k * 150, "kubelet", "ERROR",
              'Error syncing pod 6c1f0d2e8a4b4b7f9e3d2c1b0a998877 ("%s"), skipping: failed to "StartContainer" for "sdk-0-0" with CrashLoopBackOff: "back-off 5m0s restarting failed container=sdk-0-0 pod=%s"' % (pod, pod), w=w)
        j.add(1830.5 + k * 150, "system", "INFO", "ima: No architecture policies found", w=w) if k % 4 == 0 else None
    j.add(1500.0, "worker-startup", "WARNING", "WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager. It is recommended to use a virtual environment instead: https://pip.pypa.io/warnings/venv", w=w)
    j.jm(3738.0, "ERROR", "Workflow failed. Causes: The Dataflow job appears to be stuck because no worker activity has been seen in the last 1h. Please check the worker logs in Stackdriver Logging. You can also get help with Cloud Dataflow at https://cloud.google.com/dataflow/support.")
    teardown(j, 3738.6, 1)
    truth = dict(
        synthetic=["pip transcript paths (pip-build-env dir, '<string>' line 22), staged-file path, back-off sequence 20s..5m0s, pod UID, the 'Installing packages from requirements.txt (...)' summary line"],
        outcome="failed", family="requirements-sdist-build-fails-at-worker-start",
        root_cause="requirements.txt lists flash-attn, which PyPI ships only as a source distribution (staged as flash_attn-2.7.4.post1.tar.gz); pip builds it on the worker in an isolated build environment without torch ('No module named torch'), the SDK container's dependency install fails on every restart (CrashLoopBackOff) and the batch job is cancelled after an hour without worker activity.",
        setup="Batch job on a2-highgpu-1g (1x NVIDIA A100 40GB), default Beam Python 3.11 SDK container with --requirements_file (torch, transformers, accelerate, flash-attn); no SDK harness ever starts, so there are no worker-log entries.",
        evidence=["ModuleNotFoundError: No module named 'torch'",
                  "Processing /var/opt/google/staged/flash_attn-2.7.4.post1.tar.gz",
                  "Failed to install required packages: failed to install requirements: exit status 1",
                  "no worker activity has been seen in the last 1h"],
        red_herrings=["Only the final job-message 'no worker activity ... 1h' and kubelet CrashLoopBackOff are ERROR in the job view; the pip build failure is INFO in worker-startup",
                      "'Workers have started successfully.' ~1h before the stall suggests the VM and GPU were fine (they were)",
                      "pip 'Running pip as the root user' WARNING",
                      "benign kubelet 'Error initializing dynamic plugin prober' and system LookupEffectiveGuestPolicies ERROR lines"],
        sources=["Dao-AILab/flash-attention#1920, #1421, #258, #1639 and meituan-longcat/LongCat-Video#135 (pip 'Getting requirements to build wheel did not run successfully', pyproject_hooks _in_process frames, 'ModuleNotFoundError: No module named 'torch'', build isolation explanation)",
                 "apache/beam sdks/python/container boot.go ('Failed to install required packages: %v', 'failed to install requirements: %v', 'Installing setup packages ...', 'Found artifact: %s'; reference file f5)",
                 "Dataflow docs common-errors (CrashLoopBackOff 'Error syncing pod ... back-off 5m0s restarting failed container' template; '[topologymanager] RemoveContainer'; stuck 1h batch failure) and apache/beam#19622",
                 "apache/beam PR #34381 and text-to-text-transfer-transformer#986 (no worker activity ... 1h wording)",
                 "reference file sections 1.2, 1.4, 2d, 2f"],
    )
    return j, truth


@case
def hs6_09():
    j = Job("hs6-09", "edu-content-gen", "120938475601", "us-east1", "us-east1-c",
            "2025-12-11_05_55_14", 8, "2203948576610293847", "quiz-gen-gemma2-t4",
            "n1-standard-8", ["quiz-gen-gemma2-t4-12110555-h3bb-harness-5wkc",
                              "quiz-gen-gemma2-t4-12110555-h3bb-harness-p1ya"], 3, worker_line=False)
    py = j.py
    opts = opts_repr(j, {"dataflow_service_options": ["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver"],
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "sdk_container_image": "us-east1-docker.pkg.dev/edu-content-gen/beam/hf-gen:4.46",
                         "max_num_workers": 4})
    start_block(j, 2, 4)
    W = j.workers
    for i, w in enumerate(W):
        vm_boot(j, w, 59 + i * 3)
    j.jm(124.4, "INFO", "Workers have started successfully.")
    for i, w in enumerate(W):
        sdk_start(j, w, "sdk-0-0", 131 + i * 2, opts)
        j.wk(139 + i * 2, "INFO", "T4 has no bfloat16 support; loading google/gemma-2-2b-it with torch_dtype=torch.float16", w, logger="quizgen.model")
        j.wk(158 + i * 2, "INFO", "Model ready on cuda:0, 5.3 GiB allocated; generation config: do_sample=True, temperature=0.8, top_p=0.95, max_new_tokens=384", w, logger="quizgen.model")
        for n in range(3):
            j.wk(163 + i * 2 + n * 6.1, "WARNING", "Setting `pad_token_id` to `eos_token_id`:1 for open-end generation.", w, logger="transformers.generation.utils", thread="Thread-16")
    step = "Generate/ParDo(QuizGenerateDoFn)"
    inner = ['  File "%s/quizgen/dofn.py", line 77, in process' % py,
             "    out = self._model.generate(**enc, generation_config=self._gen_cfg)",
             '  File "%s/torch/utils/_contextlib.py", line 116, in decorate_context' % py,
             "    return func(*args, **kwargs)",
             '  File "%s/transformers/generation/utils.py", line 2215, in generate' % py,
             "    result = self._sample(",
             '  File "%s/transformers/generation/utils.py", line 3249, in _sample' % py,
             "    next_tokens = torch.multinomial(probs, num_samples=1).squeeze(1)"]
    exc = ["RuntimeError: probability tensor contains either `inf`, `nan` or element < 0"]
    tb = tb_process(py, inner, exc, step)
    att = [(W[0], "sdk-0-0"), (W[1], "sdk-0-0"), (W[0], "sdk-0-0"), (W[1], "sdk-0-0")]
    fail_attempts(j, 190, 53.2, att, tb, "s3")
    for i, w in enumerate(W):
        pad(j, 132 + i, 138 + i, w, "sdk-0-0", ["Prompt shard {i}: 40 lesson summaries tokenised (max 1630 tokens)"], 10)
    workflow_failed(j, 363.1, "S03:ReadLessons/Read+Generate/ParDo(QuizGenerateDoFn)+WriteQuizzes/Write", [w for w, _ in att],
                    "Traceback (most recent call last):")
    teardown(j, 363.8, 2)
    truth = dict(
        synthetic=['transformers frame line numbers, generation config values'],
        outcome="failed", family="fp16-overflow-nan-logits-in-sampling",
        root_cause="Because the T4 lacks bfloat16, the DoFn loads Gemma-2-2b-it (trained in bf16) in float16; activations overflow to inf/NaN and sampling with torch.multinomial fails with 'probability tensor contains either inf, nan or element < 0'.",
        setup="Batch job, transformers generate() (do_sample) in a custom DoFn on n1-standard-8 + 1x NVIDIA T4, 2 workers, Python 3.11 custom container.",
        evidence=["RuntimeError: probability tensor contains either `inf`, `nan` or element < 0",
                  "T4 has no bfloat16 support; loading google/gemma-2-2b-it with torch_dtype=torch.float16",
                  "    next_tokens = torch.multinomial(probs, num_samples=1).squeeze(1)"],
        red_herrings=["Repeated WARNING 'Setting `pad_token_id` to `eos_token_id`:1 for open-end generation.' (harmless)",
                      "The decisive dtype choice is an INFO line from user code, far above the ERROR",
                      "benign kubelet/system ERROR lines"],
        sources=["JIA-Lab-research/LongLoRA#165 and joydeb28/llm-lab#3 (probability tensor contains either inf, nan or element < 0 fixed by switching float16 -> bfloat16)",
                 "InternLM/InternLM#459 and LianjiaTech/BELLE#412 (torch.multinomial frame, exact RuntimeError text, float16 as cause)",
                 "huggingface transformers generation/utils.py (Setting `pad_token_id` to `eos_token_id`:{eos_token_id} for open-end generation.)",
                 "apache/beam sdk_worker.py; apache/beam#30482; reference file sections 1.2, 2i"],
    )
    return j, truth


@case
def hs6_10():
    j = Job("hs6-10", "media-tagging-ops", "558201938476", "us-central1", "us-central1-b",
            "2026-05-20_11_40_02", 7, "9182736450019283746", "caption-topic-tagger-daily",
            "g2-standard-8", ["caption-topic-tagger-da-05201140-w9ce-harness-kl3v",
                              "caption-topic-tagger-da-05201140-w9ce-harness-7rxa"], 6)
    py = j.py
    opts = opts_repr(j, {"dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"],
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "requirements_file": "requirements.txt", "max_num_workers": 10})
    start_block(j, 2, 10)
    W = j.workers
    for i, w in enumerate(W):
        vm_boot(j, w, 61 + i * 2)
        j.add(112 + i * 2, "worker-startup", "INFO", "Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/cpu", w=w)
        j.add(140 + i * 2, "worker-startup", "INFO", "Successfully installed safetensors-0.4.5 tokenizers-0.20.3 torch-2.5.1+cpu transformers-4.46.3", w=w)
    j.jm(151.5, "INFO", "Workers have started successfully.")
    for i, w in enumerate(W):
        sdk_start(j, w, "sdk-0-0", 158 + i * 2, opts)
        j.wk(171 + i * 2, "INFO", "nvidia-smi: NVIDIA L4, driver 550.90.07, 23034 MiB", w, logger="tagger.env", line="env.py:18")
        j.wk(176 + i * 2, "WARNING", "HuggingFaceModelHandler specified a 'GPU' device, but GPUs are not available. Switching to CPU.", w,
             logger="apache_beam.ml.inference.huggingface_inference", line="huggingface_inference.py:131")
        j.wk(189 + i * 2, "INFO", "Finished loading model in 12.7s", w, logger="apache_beam.ml.inference.base", line="base.py:1405")
    j.jm(420.0, "INFO", "Autoscaling: Raised the number of workers to 6 based on the rate of progress in the currently running stage(s).")
    j.jm(900.0, "INFO", "Autoscaling: Raised the number of workers to 10 based on the rate of progress in the currently running stage(s).")
    for i, w in enumerate(W):
        pad(j, 200 + i, 5200 + i, w, "sdk-0-0", ["Tagged {i} caption batches (64 rows each); mean batch latency 9.8s"], 22)
    j.jm(5405.5, "INFO", "Autoscaling: Resized worker pool from 10 to 2.")
    teardown(j, 5520.0, 2)
    truth = dict(
        synthetic=["pip 'Successfully installed' package set, nvidia-smi summary line, Beam logger line numbers"],
        outcome="succeeded_on_cpu", family="cpu-only-torch-wheel-silent-cpu-fallback",
        root_cause="requirements.txt pulls torch from the PyTorch CPU index (torch-2.5.1+cpu), so torch.cuda.is_available() is False on L4 workers and Beam's HuggingFace model handler silently switches to CPU; the job succeeds but runs ~10x slower and scales out to max workers.",
        setup="Batch RunInference with HuggingFaceModelHandlerKeyedTensor(device='GPU') on g2-standard-8 + 1x NVIDIA L4; dependencies installed at worker start from requirements_file with --extra-index-url https://download.pytorch.org/whl/cpu.",
        evidence=["HuggingFaceModelHandler specified a 'GPU' device, but GPUs are not available. Switching to CPU.",
                  "torch-2.5.1+cpu",
                  "Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/cpu"],
        red_herrings=["nvidia-smi line and driver install lines show a healthy GPU on the host",
                      "Autoscaling raising the pool to 10 workers looks like input growth; it is the symptom of slow CPU inference",
                      "no ERROR from the pipeline at all; the job ends 'Worker pool stopped.'"],
        sources=["apache/beam sdks/python/apache_beam/ml/inference/huggingface_inference.py no_gpu_available_warning ('HuggingFaceModelHandler specified a 'GPU' device, but GPUs are not available. Switching to CPU.')",
                 "meituan-longcat/LongCat-Video#135 (a plain torch pin pulling a CPU build over a CUDA build)",
                 "pip 'Looking in indexes:' / 'Successfully installed' output format",
                 "reference file sections 1.2, 2i (job-message sequence)"],
    )
    return j, truth


@case
def hs6_11():
    j = Job("hs6-11", "search-platform-prd", "740192837465", "us-central1", "us-central1-a",
            "2026-02-27_18_02_44", 8, "4091827364550192837", "listing-embeddings-stream",
            "g2-standard-4", ["listing-embeddings-stre-02271802-a1q4-harness-c6vn"], 9,
            jm_label="number", batch=False, maxw=3)
    py = j.py
    opts = opts_repr(j, {"streaming": True,
                         "dataflow_service_options": ["worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver:latest"],
                         "experiments": ["use_runner_v2", "enable_streaming_engine", "no_use_multiple_sdk_containers"],
                         "sdk_container_image": "us-central1-docker.pkg.dev/search-platform-prd/beam/st-embed:3.3",
                         "max_num_workers": 3, "input_subscription": "projects/search-platform-prd/subscriptions/listing-updates-embed"})
    start_block(j, 1, 3)
    w = j.workers[0]
    vm_boot(j, w, 55.0)
    j.jm(118.0, "INFO", "Workers have started successfully.")
    j.jm(118.6, "INFO", "Executing operation ReadListings/Read+Parse+Embed/BeamML_RunInference+ToRows+WriteEmbeddings/StreamingInserts")
    sdk_start(j, w, "sdk-0-0", 126.0, opts)
    hf = "'(ReadTimeoutError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out. (read timeout=10)\"), '(Request ID: %s)')' thrown while requesting HEAD https://huggingface.co/BAAI/bge-base-en-v1.5/resolve/main/%s"
    for n, (f, rid) in enumerate([("config.json", "5f0d2a61-3c8e-4b7a-9d21-77ab10c4e2f9"), ("modules.json", "c1e93d40-8f2b-46aa-b0d7-2d9a6e513b08")]):
        j.add(140 + n * 12, "docker", "ERROR", hf % (rid, f), w=w)
        j.add(140.01 + n * 12, "docker", "ERROR", "Retrying in 1s [Retry 1/5].", w=w)
    j.wk(168.0, "INFO", "Loaded SentenceTransformer BAAI/bge-base-en-v1.5 on cuda:0 (max_seq_length=512)", w, logger="listing.embed", line="embed.py:40")
    j.add(169.0, "docker", "ERROR", "huggingface/tokenizers: The current process just got forked, after parallelism has already been used. Disabling parallelism to avoid deadlocks...", w=w)
    j.add(169.01, "docker", "ERROR", "To disable this warning, you can either:", w=w)
    j.add(169.02, "docker", "ERROR", "\t- Avoid using `tokenizers` before the fork if possible", w=w)
    j.add(169.03, "docker", "ERROR", "\t- Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)", w=w)
    j.wk(171.5, "WARNING",
         "Batch-size probe: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB. GPU 0 has a total capacity of 22.05 GiB of which 1.91 GiB is free. "
         "Including non-PyTorch memory, this process has 20.12 GiB memory in use. Of the allocated memory 19.43 GiB is allocated by PyTorch, and 402.18 MiB is reserved by PyTorch but unallocated. "
         "If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  "
         "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables) -- probe batch 2048 rejected, using batch 512",
         w, logger="listing.embed", line="embed.py:63")
    j.wk(172.0, "INFO", "Embedding batch size fixed at 512 after probe", w, logger="listing.embed", line="embed.py:66")
    pad(j, 180, 3900, w, "sdk-0-0", ["Embedded {i} micro-batches (512 listings each); p95 encode latency 212 ms"], 54)
    for k in range(5):
        j.add(600 + k * 700, "kubelet", "INFO", "Unable to fetch data due to token mismatch for key", w=w)
    j.jm(3950.0, "INFO", "Autoscaling: Would further reduce the number of workers but reached the minimum number allowed for the job.")
    teardown(j, 3990.0, 1)
    truth = dict(
        synthetic=['Request IDs in the Hub retry lines, the batch-size probe design and its numbers'],
        outcome="succeeded", family="healthy-noise-streaming-sentence-transformers",
        root_cause="No failure: a healthy streaming embedding job; the ERROR-severity lines are stderr chatter (Hub HEAD retries that succeed, tokenizers fork advice) and a caught, handled out-of-memory probe.",
        setup="Streaming Pub/Sub -> RunInference-style sentence-transformers (BAAI/bge-base-en-v1.5) -> BigQuery on g2-standard-4 + 1x NVIDIA L4 with Streaming Engine; the job was drained by its operator after ~66 minutes (teardown messages at the end).",
        evidence=["Loaded SentenceTransformer BAAI/bge-base-en-v1.5 on cuda:0 (max_seq_length=512)",
                  "Embedding batch size fixed at 512 after probe",
                  "Embedded 40 micro-batches (512 listings each); p95 encode latency 212 ms"],
        red_herrings=["ERROR-severity Hugging Face Hub ReadTimeoutError '... thrown while requesting HEAD' followed by 'Retrying in 1s [Retry 1/5].' - retried and then loaded",
                      "WARNING with a full torch.OutOfMemoryError text from a deliberate batch-size probe that is caught and handled",
                      "ERROR-severity huggingface/tokenizers fork warning",
                      "kubelet 'Unable to fetch data due to token mismatch for key' and 'Error initializing dynamic plugin prober', system 'Error running LookupEffectiveGuestPolicies' (documented benign)",
                      "DEBUG job messages"],
        sources=["huggingface_hub retry wording (''(ReadTimeoutError(...))' thrown while requesting HEAD https://huggingface.co/...' / 'Retrying in 1s [Retry 1/5].') as quoted in public logs",
                 "dify-official-plugins#599 via reference file 2b b3 (newest torch.OutOfMemoryError wording)",
                 "huggingface tokenizers fork warning as quoted in public notebooks/logs",
                 "Dataflow docs common-errors benign lines; reference file 2i (streaming autoscaling WARNING, job-message sequence)"],
    )
    return j, truth


@case
def hs6_12():
    j = Job("hs6-12", "ads-creative-ml", "903182746550", "us-central1", "us-central1-c",
            "2026-06-08_20_15_37", 7, "6650192837465019283", "llama31-8b-ad-rewrite-tp2",
            "a2-ultragpu-2g", ["llama31-8b-ad-rewrite-tp-06082015-n7c2-harness-4fzq",
                               "llama31-8b-ad-rewrite-tp-06082015-n7c2-harness-ug0m"], 3,
            py="/usr/local/lib/python3.12/site-packages", maxw=2)
    opts = opts_repr(j, {"dataflow_service_options": ["worker_accelerator=type:nvidia-a100-80gb;count:2;install-nvidia-driver:latest"],
                         "experiments": ["use_runner_v2", "no_use_multiple_sdk_containers"],
                         "sdk_container_image": "us-central1-docker.pkg.dev/ads-creative-ml/beam/vllm-beam:0.6.3",
                         "max_num_workers": 2, "disk_size_gb": 300})
    start_block(j, 2, 2)
    W = j.workers
    for i, w in enumerate(W):
        vm_boot(j, w, 70 + i * 4)
    j.jm(140.0, "INFO", "Workers have started successfully.")
    for i, w in enumerate(W):
        sdk_start(j, w, "sdk-0-0", 147 + i * 3, opts)
        b = 170 + i * 3
        j.add(b, "docker", "INFO", "INFO 06-09 03:18:%02d config.py:1005] Defaulting to use mp for distributed inference" % (b % 60), w=w)
        j.add(b + 30.0, "docker", "INFO", "INFO 06-09 03:19:%02d model_runner.py:1056] Starting to load model meta-llama/Llama-3.1-8B-Instruct..." % ((b + 30) % 60), w=w)
        j.add(b + 61.0, "docker", "INFO", "INFO 06-09 03:19:%02d model_runner.py:1400] Capturing the model for CUDA graphs. This may lead to unexpected consequences if the model is not static. To run the model in eager mode, set 'enforce_eager=True' or use '--enforce-eager' in the CLI." % ((b + 61) % 60), w=w)
        j.add(b + 61.01, "docker", "INFO", "INFO 06-09 03:19:%02d model_runner.py:1404] CUDA graphs can take additional 1~3 GiB memory per GPU. If you are running out of memory, consider decreasing `gpu_memory_utilization` or enforcing eager mode. You can also reduce the `max_num_seqs` as needed to decrease memory usage." % ((b + 61) % 60), w=w)
        j.add(b + 61.02, "docker", "INFO", "(VllmWorkerProcess pid=%d) INFO 06-09 03:19:%02d model_runner.py:1400] Capturing the model for CUDA graphs. This may lead to unexpected consequences if the model is not static. To run the model in eager mode, set 'enforce_eager=True' or use '--enforce-eager' in the CLI." % (391 + i * 17, (b + 61) % 60), w=w)
        j.add(b + 71.0, "docker", "INFO", "INFO 06-09 03:19:%02d model_runner.py:1528] Graph capturing finished in 10 secs." % ((b + 71) % 60), w=w)
        j.add(b + 72.0, "docker", "ERROR", "huggingface/tokenizers: The current process just got forked, after parallelism has already been used. Disabling parallelism to avoid deadlocks...", w=w)
        j.add(b + 72.01, "docker", "ERROR", "To disable this warning, you can either:", w=w)
        j.add(b + 72.02, "docker", "ERROR", "\t- Avoid using `tokenizers` before the fork if possible", w=w)
        j.add(b + 72.03, "docker", "ERROR", "\t- Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)", w=w)
        j.wk(b + 74.0, "INFO", "vLLM engine ready: meta-llama/Llama-3.1-8B-Instruct tensor_parallel_size=2 on 2x NVIDIA A100-SXM4-80GB", w, logger="adrewrite.dofn", line="dofn.py:58")
        j.wk(b + 80.0, "WARNING", "Rewrite 2291 returned no JSON on first attempt (error: Expecting ',' delimiter: line 1 column 88); retried with stricter prompt and succeeded", w, logger="adrewrite.dofn", line="dofn.py:104")
        pad(j, b + 85, 1950 + i, w, "sdk-0-0", ["Rewrote {i} ad-copy batches (256 prompts each); 1812 output tok/s"], 32)
    j.jm(1990.0, "INFO", "Autoscaling: Resized worker pool from 2 to 1.")
    teardown(j, 2110.0, 1)
    truth = dict(
        synthetic=['vLLM pids, timestamps and model_runner line numbers as in public vLLM 0.6.x logs, throughput numbers, the retried JSON output'],
        outcome="succeeded", family="healthy-noise-vllm-multigpu-batch",
        root_cause="No failure: a healthy vLLM tensor-parallel batch job; 'out of memory' appears only in vLLM's CUDA-graph advisory, ERROR-severity lines are tokenizers fork chatter, and one malformed-JSON output was retried successfully.",
        setup="Batch job, vLLM 0.6.3 offline LLM (tensor_parallel_size=2, mp backend) in a DoFn on a2-ultragpu-2g (2x NVIDIA A100 80GB), 2 workers.",
        evidence=["vLLM engine ready: meta-llama/Llama-3.1-8B-Instruct tensor_parallel_size=2 on 2x NVIDIA A100-SXM4-80GB",
                  "Graph capturing finished in 10 secs.",
                  "Worker pool stopped."],
        red_herrings=["vLLM INFO 'CUDA graphs can take additional 1~3 GiB memory per GPU. If you are running out of memory, consider decreasing `gpu_memory_utilization`...' (advisory)",
                      "ERROR-severity huggingface/tokenizers fork warning (two per worker)",
                      "WARNING mentioning 'error: Expecting ',' delimiter' for one retried output",
                      "benign kubelet/system ERROR lines, DEBUG job messages"],
        sources=["vllm worker/model_runner.py capture_model log lines ('Capturing the model for CUDA graphs...', 'CUDA graphs can take additional 1~3 GiB memory per GPU...'); public logs of vLLM 0.6.x showing 'model_runner.py:1400]'/'1404]'/'1528] Graph capturing fin...' and '(VllmWorkerProcess pid=...)' prefixes",
                 "huggingface tokenizers fork warning as quoted in public notebooks/logs",
                 "Dataflow job-message sequence of a normal run (reference file 2i)"],
    )
    return j, truth


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------
COMMON_SYNTH = [
    "all job ids, job names, project ids/numbers, worker VM names, resource ids, insertIds, receive delays, pod ids and instruction ids",
    "all timestamps, time gaps between events and fractional-second jitter",
    "user module names, DoFn names, step names, user log messages (logger names other than Beam/transformers) and their text",
    "Beam frame line numbers and the exact frame list of the Beam-wrapped tracebacks (layout modelled on public Beam tracebacks)",
    "pipeline option values, machine/GPU pairing, container image URIs, driver version 550.90.07",
    "the per-log mapping of jsonPayload fields (line/logger/thread values) and the severity chosen for each relayed line",
    "the 'Root cause:' body of the 'work item has failed 4 times' message (real template, body filled with the traceback's first line)",
]


def yq(s):
    return json.dumps(s, ensure_ascii=True)


def truth_yaml(j, t):
    out = ["case: %s" % j.case,
           "job:",
           "  id: %s" % yq(j.job_id),
           "  name: %s" % yq(j.name),
           "outcome: %s" % t["outcome"],
           "family: %s" % t["family"],
           "root_cause: %s" % yq(t["root_cause"]),
           "setup: %s" % yq(t["setup"])]
    for key in ("evidence", "red_herrings", "sources"):
        out.append("%s:" % key)
        for v in t[key]:
            out.append("  - %s" % yq(v))
    out.append("synthetic:")
    for v in t.get("synthetic", []) + COMMON_SYNTH:
        out.append("  - %s" % yq(v))
    return "\n".join(out) + "\n"


def build_all():
    res = {}
    for fn in CASES:
        j, t = fn()
        entries = j.render()
        res[j.case] = (json.dumps(entries, indent=2, sort_keys=True, ensure_ascii=False) + "\n",
                       truth_yaml(j, t), entries, t, j)
    return res


def payload(e):
    if "textPayload" in e:
        return e["textPayload"]
    return e.get("jsonPayload", {}).get("message", "")


def parse_ts(s):
    head, frac = s[:-1], ""
    if "." in head:
        head, frac = head.split(".")
    d = dt.datetime.strptime(head, "%Y-%m-%dT%H:%M:%S")
    return (d - dt.datetime(1970, 1, 1)).total_seconds() * 10 ** 9 + int((frac + "000000000")[:9])


def check(case, entries, t):
    n = len(entries)
    if not 100 <= n <= 250:
        sys.exit("%s: %d entries (need 100-250)" % (case, n))
    ts = [parse_ts(e["timestamp"]) for e in entries]
    for a, b in zip(ts, ts[1:]):
        if a < b:
            sys.exit("%s: not newest-first" % case)
    texts = [payload(e) for e in entries]
    for ev in t["evidence"]:
        if not any(ev in x for x in texts):
            sys.exit("%s: evidence not found verbatim: %r" % (case, ev))
    if t["outcome"] not in ("failed", "succeeded", "succeeded_on_cpu"):
        sys.exit("%s: bad outcome" % case)


def main():
    a = build_all()
    b = build_all()
    for k in a:
        if a[k][0] != b[k][0] or a[k][1] != b[k][1]:
            sys.exit("non-deterministic build for %s" % k)
    outcomes = {}
    for case in sorted(a):
        exp, ty, entries, t, j = a[case]
        check(case, entries, t)
        d = os.path.join(CASES_DIR, case)
        os.makedirs(d, exist_ok=True)
        for name, text in (("export.json", exp), ("truth.yaml", ty)):
            with open(os.path.join(d, name), "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
        for name, text in (("export.json", exp), ("truth.yaml", ty)):
            with open(os.path.join(d, name), encoding="utf-8") as f:
                if f.read() != text:
                    sys.exit("re-read mismatch %s/%s" % (case, name))
        reread = json.loads(exp)
        check(case, reread, t)
        sev = {}
        logs = {}
        for e in entries:
            sev[e["severity"]] = sev.get(e["severity"], 0) + 1
            lg = e["logName"].split("%2F")[-1]
            logs[lg] = logs.get(lg, 0) + 1
        outcomes[t["outcome"]] = outcomes.get(t["outcome"], 0) + 1
        print("%s  %-9s %-16s entries=%3d  %s  %s" % (
            case, t["outcome"], t["family"][:16], len(entries),
            " ".join("%s:%d" % kv for kv in sorted(sev.items())),
            " ".join("%s:%d" % kv for kv in sorted(logs.items()))))
    print("cases=%d outcomes=%s" % (len(a), outcomes))


if __name__ == "__main__":
    main()
