#!/usr/bin/env python3
"""Build the heldout-stacks-8 evaluation set (standard library only, deterministic).

Every export is generated twice in memory and compared, then written, re-read and
compared again.  Checks: 100-250 entries per export, every evidence string of a
case occurs verbatim in a payload (textPayload or jsonPayload.message) of that
case's export.  Prints per-case counts by severity and by log.
"""
import datetime as _dt
import gzip
import hashlib
import io
import json
import os
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(ROOT, "cases")
UTC = _dt.timezone.utc


def h(*parts, n=16):
    return hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()[:n]


def hnum(*parts, digits=19):
    v = int(h(*parts, n=30), 16)
    s = str(v)
    return s[:digits]


# --------------------------------------------------------------------------
# Case model
# --------------------------------------------------------------------------
class Case:
    def __init__(self, cid, job_name, project, project_number, region, t0,
                 py, beam, export, frac="9", res_project_number=False,
                 log_type_on_worker=False):
        self.cid = cid
        self.job_name = job_name
        self.project = project
        self.project_number = project_number
        self.region = region
        self.t0 = t0
        self.py = py
        self.beam = beam
        self.export = export          # gcloud | download | sink | sinkgz
        self.frac = frac              # "9", "6", "3", "trim"
        self.res_project = project_number if res_project_number else project
        self.log_type_on_worker = log_type_on_worker
        pac = t0 - _dt.timedelta(hours=8)
        self.job_id = pac.strftime("%Y-%m-%d_%H_%M_%S") + "-" + hnum(cid, "job", digits=19)
        self.vm_prefix = job_name[:18].rstrip("-") + "-" + pac.strftime("%m%d%H%M") + "-" + h(cid, "vm", n=4)
        self.entries = []
        self.seq = 0
        self.vm_ids = {}

    # ---- naming helpers
    def vm(self, suffix):
        return self.vm_prefix + "-harness-" + suffix

    def vmid(self, vm):
        if vm not in self.vm_ids:
            self.vm_ids[vm] = hnum(self.cid, vm, digits=19)
        return self.vm_ids[vm]

    def site(self):
        return "/usr/local/lib/python%s/site-packages" % self.py

    def lg(self, rel, line):
        return "%s/apache_beam/%s:%d" % (self.site(), rel, line)

    # ---- time
    def dt(self, off):
        return self.t0 + _dt.timedelta(seconds=off)

    def ts(self, off, salt):
        d = self.dt(off)
        base = d.strftime("%Y-%m-%dT%H:%M:%S")
        nanos = d.microsecond * 1000 + int(h(self.cid, salt, "ns", n=4), 16) % 1000
        full = "%09d" % nanos
        if self.frac == "9":
            return base + "." + full + "Z"
        if self.frac == "6":
            return base + "." + full[:6] + "Z"
        if self.frac == "3":
            return base + "." + full[:3] + "Z"
        # trim: up to 9 digits, trailing zeros removed (LogEntry allows this)
        cut = int(h(self.cid, salt, "cut", n=2), 16) % 3
        frac = full[: (9, 6, 3)[cut]].rstrip("0")
        return base + ("." + frac if frac else "") + "Z"

    def rts(self, off, salt):
        delay = 0.15 + (int(h(self.cid, salt, "rd", n=4), 16) % 2400) / 1000.0
        d = self.dt(off + delay)
        nanos = d.microsecond * 1000 + int(h(self.cid, salt, "rns", n=4), 16) % 1000
        return d.strftime("%Y-%m-%dT%H:%M:%S") + ".%09dZ" % nanos

    # ---- entry construction
    def _add(self, off, log, sev, payload, vm=None, step="", insert_id=None):
        self.seq += 1
        salt = "%s-%d" % (log, self.seq)
        if insert_id is None:
            insert_id = h(self.cid, salt, "iid", n=12) if log == "job-message" else h(self.cid, salt, "iid", n=14) + ":" + str(int(h(self.cid, salt, "i2", n=5), 16))
        rl = {"job_id": self.job_id, "job_name": self.job_name,
              "project_id": self.res_project, "region": self.region, "step_id": step}
        labels = {}
        if vm is not None:
            labels["compute.googleapis.com/resource_id"] = self.vmid(vm)
            labels["compute.googleapis.com/resource_name"] = vm
            labels["compute.googleapis.com/resource_type"] = "instance"
        labels["dataflow.googleapis.com/job_id"] = self.job_id
        labels["dataflow.googleapis.com/job_name"] = self.job_name
        if log in ("job-message", "system") or (self.log_type_on_worker and vm is not None):
            labels["dataflow.googleapis.com/log_type"] = "system" if log in ("job-message", "system") else "supportability"
        labels["dataflow.googleapis.com/region"] = self.region
        e = {"insertId": insert_id}
        if isinstance(payload, str):
            e["textPayload"] = payload
        else:
            e["jsonPayload"] = payload
        e["resource"] = {"type": "dataflow_step", "labels": rl}
        e["timestamp"] = self.ts(off, salt)
        if sev is not None:
            e["severity"] = sev
        e["labels"] = labels
        e["logName"] = "projects/%s/logs/dataflow.googleapis.com%%2F%s" % (self.project, log)
        e["receiveTimestamp"] = self.rts(off, salt)
        self.entries.append((off, self.seq, e))
        return e

    def J(self, off, sev, text):
        return self._add(off, "job-message", sev, text)

    def W(self, off, vm, sdk, sev, msg, logger, thread="MainThread", step=""):
        p = {"job": self.job_id, "logger": logger, "message": msg,
             "portability_worker_id": sdk, "thread": thread, "worker": vm}
        return self._add(off, "worker", sev, p, vm=vm, step=step)

    def D(self, off, vm, msg, sev="ERROR"):
        return self._add(off, "docker", sev, {"message": msg}, vm=vm)

    def klog(self, off, letter, src, body, pid=1843):
        d = self.dt(off)
        return "%s%s %s    %d %s] %s" % (letter, d.strftime("%m%d"), d.strftime("%H:%M:%S.%f"), pid, src, body)

    def K(self, off, vm, letter, src, body):
        sev = {"E": "ERROR", "W": "WARNING", "I": "INFO"}[letter]
        return self._add(off, "kubelet", sev, {"message": self.klog(off, letter, src, body)}, vm=vm)

    def S(self, off, vm, msg, sev="INFO"):
        d = self.dt(off)
        us = int(d.timestamp() * 1e6)
        iid = "s=%s;i=%x;b=%s;m=%x;t=%x;x=%s" % (h(self.cid, vm, "s", n=32), 100 + self.seq,
                                                 h(self.cid, vm, "b", n=32), 3000000 + int(off * 1e6) % 99999999,
                                                 us, h(self.cid, self.seq, "x", n=16))
        return self._add(off, "system", sev, {"message": msg}, vm=vm, insert_id=iid)

    def WS(self, off, vm, sev, msg):
        return self._add(off, "worker-startup", sev, {"message": msg}, vm=vm)

    def HS(self, off, vm, sev, msg):
        return self._add(off, "harness-startup", sev, {"message": msg}, vm=vm)

    # ---- export
    def ordered(self):
        return [e for _, _, e in sorted(self.entries, key=lambda x: (x[0], x[1]))]

    def render(self):
        asc = self.ordered()
        if self.export == "gcloud":
            data = list(reversed(asc))
            return "export.json", (json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
        if self.export == "download":
            return "export.json", (json.dumps(asc, indent=2, ensure_ascii=False) + "\n").encode()
        if self.export == "sink":
            # user concatenated the per-log hourly shard objects of the sink bucket:
            # grouped by log id, each shard in time order
            logs = sorted(set(e["logName"] for e in asc))
            lines = []
            for ln in logs:
                for e in asc:
                    if e["logName"] == ln:
                        lines.append(json.dumps(e, separators=(",", ":"), ensure_ascii=False))
            return "export.ndjson", ("\n".join(lines) + "\n").encode()
        if self.export == "sinkgz":
            raw = ("\n".join(json.dumps(e, separators=(",", ":"), ensure_ascii=False) for e in asc) + "\n").encode()
            buf = io.BytesIO()
            with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as g:
                g.write(raw)
            return "export.ndjson.gz", buf.getvalue()
        raise ValueError(self.export)


# --------------------------------------------------------------------------
# Shared real-wording blocks
# --------------------------------------------------------------------------
def job_preamble(c, off, fusing, streaming=False):
    """Graph optimisation job messages (wording from Beam/Dataflow console logs)."""
    t = off
    if streaming:
        c.J(t, "INFO", "Running job using Streaming Engine"); t += 0.03
    c.J(t, "INFO", "Expanding SplittableParDo operations into optimizable parts."); t += 0.02
    c.J(t, "INFO", "Expanding CoGroupByKey operations into optimizable parts."); t += 0.02
    if streaming:
        c.J(t, "INFO", "Expanding SplittableProcessKeyed operations into optimizable parts."); t += 0.01
        c.J(t, "INFO", "Expanding GroupByKey operations into streaming Read/Write steps"); t += 0.01
    else:
        c.J(t, "INFO", "Expanding GroupByKey operations into optimizable parts."); t += 0.01
        c.J(t, "INFO", "Lifting ValueCombiningMappingFns into MergeBucketsMappingFns"); t += 0.01
    c.J(t, "DEBUG", "Annotating graph with Autotuner information."); t += 0.02
    c.J(t, "INFO", "Fusing adjacent ParDo, Read, Write, and Flatten operations"); t += 0.01
    for a, b in fusing:
        c.J(t, "INFO", "Fusing consumer %s into %s" % (a, b)); t += 0.013
    c.J(t, "DEBUG", "Workflow config is missing a default resource spec."); t += 0.015
    c.J(t, "DEBUG", "Adding StepResource setup and teardown to workflow graph."); t += 0.02
    c.J(t, "DEBUG", "Adding workflow start and stop steps."); t += 0.02
    c.J(t, "DEBUG", "Assigning stage ids."); t += 0.1
    return t


def chain_fusing(steps):
    return [(steps[i + 1], steps[i]) for i in range(len(steps) - 1)]


def harness_start(c, off, vm, sdk, options, port, ctrl=12371):
    lg = c.lg
    c.W(off, vm, sdk, "INFO", "Logging handler created.", lg("runners/worker/sdk_worker_main.py", 113))
    c.W(off + 0.004, vm, sdk, "INFO", "semi_persistent_directory: /var/opt/google", lg("runners/worker/sdk_worker_main.py", 117))
    c.W(off + 0.02, vm, sdk, "INFO", "Status HTTP server running at localhost:%d" % port, lg("runners/worker/worker_status.py", 199), thread="Thread-1")
    c.W(off + 0.03, vm, sdk, "INFO", "Python sdk harness started with pipeline_options: %s" % options, lg("runners/worker/sdk_worker_main.py", 143))
    c.W(off + 0.05, vm, sdk, "INFO", "Creating insecure control channel for localhost:%d." % ctrl, lg("runners/worker/sdk_worker.py", 201))
    c.W(off + 0.07, vm, sdk, "INFO", "Control channel established.", lg("runners/worker/sdk_worker.py", 209))
    c.W(off + 0.08, vm, sdk, "INFO", "Initializing SDKHarness with unbounded number of workers.", lg("runners/worker/sdk_worker.py", 252))
    c.W(off + 0.11, vm, sdk, "INFO", "Creating insecure state channel for localhost:%d." % ctrl, lg("runners/worker/sdk_worker.py", 926), thread="Thread-4")
    c.W(off + 0.12, vm, sdk, "INFO", "State channel established.", lg("runners/worker/sdk_worker.py", 933), thread="Thread-4")
    c.W(off + 0.14, vm, sdk, "INFO", "Creating client data channel for localhost:%d" % ctrl, lg("runners/worker/data_plane.py", 781), thread="Thread-4")


def boot_lines(c, off, vm):
    # Beam's Go boot loader writes to stderr -> ERROR in the docker log even when fine.
    c.D(off, vm, "Executing: python -m apache_beam.runners.worker.sdk_worker_main")


def opts(c, extra):
    base = "{'runner': 'DataflowRunner', 'project': '%s', 'region': '%s', 'job_name': '%s', " % (c.project, c.region, c.job_name)
    return base + extra + "}"


def worker_start_msgs(c, off, machine, zone, n=1, streaming=False, maxw=None):
    c.J(off, "INFO", "Worker configuration: %s in %s." % (machine, zone))
    c.J(off + 0.3, "DEBUG", "Starting worker pool setup.")
    c.J(off + 0.33, "INFO", "Starting %d workers in %s..." % (n, zone))
    if streaming:
        c.J(off + 40, "INFO", "Autoscaling: Raised the number of workers to %d so that the pipeline can catch up with its backlog and keep up with its input rate." % n)
        c.J(off + 41, "INFO", "Autoscaling is enabled for job %s. The number of workers will be between 1 and %d." % (c.job_id, maxw or 100))
        c.J(off + 41.2, "WARNING", "Autoscaling is enabled for Dataflow Streaming Engine. Workers will scale between 1 and 100 unless maxNumWorkers is specified.")
    else:
        c.J(off + 40, "INFO", "Autoscaling: Raised the number of workers to %d based on the rate of progress in the currently running stage(s)." % n)


FAILED4 = ("{stage} failed., The job failed because a work item has failed 4 times. Look in previous log entries for the cause of each one of the 4 failures. "
           "If the logs only contain generic timeout errors related to accessing external resources, such as MongoDB, verify that the worker service account has permission to access the resource's subnetwork. "
           "For more information, see https://cloud.google.com/dataflow/docs/guides/common-errors. The work item was attempted on these workers: \n")


def failed4(c, off, stage, attempts, n_workers):
    body = FAILED4.format(stage=stage)
    for root, vm in attempts:
        body += "\n      Root cause: %s\n      Worker ID: %s," % (root, vm)
    c.J(off, "ERROR", "Workflow failed. Causes: " + body)
    teardown(c, off + 0.2, n_workers)


def teardown(c, off, n_workers):
    c.J(off, "INFO", "Cleaning up.")
    c.J(off + 0.25, "DEBUG", "Starting worker pool teardown.")
    c.J(off + 0.27, "INFO", "Stopping worker pool...")
    c.J(off + 150, "INFO", "Autoscaling: Resized worker pool from %d to 0." % n_workers)
    c.J(off + 150.1, "INFO", "Autoscaling: Would further reduce the number of workers but reached the minimum number allowed for the job.")
    c.J(off + 150.2, "INFO", "Worker pool stopped.")
    c.J(off + 150.4, "DEBUG", "Tearing down pending resources...")


BENIGN_KUBELET = [
    ("E", "plugins.go:604", 'Error initializing dynamic plugin prober" err="error (re-)creating driver directory: mkdir /usr/libexec/kubernetes: read-only file system'),
    ("E", "kubelet.go:2373", 'Skipping pod synchronization" err="container runtime status check may not have completed yet'),
]


def vm_noise(c, off, vm):
    c.S(off, vm, "ima: No architecture policies found")
    c.S(off + 0.4, vm, "ima: Can not allocate sha384 (reason: -2)")
    for i, (l, src, body) in enumerate(BENIGN_KUBELET):
        c.K(off + 6 + i * 0.3, vm, l, src, '"' + body + '"')


def sdk_tb_head(c):
    s = c.site()
    return ("Traceback (most recent call last):\n"
            '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute\n    response = task()\n'
            '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 386, in <lambda>\n    lambda: self.create_worker().do_instruction(request), request)\n'
            '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 656, in do_instruction\n    return getattr(self, request_type)(\n'
            '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 687, in process_bundle\n    bundle_processor = self.bundle_processor_cache.get(\n') % (s, s, s, s)


def setup_tb(c, user_frames):
    s = c.site()
    return (sdk_tb_head(c) +
            '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 510, in get\n    processor = bundle_processor.BundleProcessor(\n' % s +
            '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1135, in __init__\n    op.setup(self.data_sampler)\n' % s +
            '  File "apache_beam/runners/worker/operations.py", line 877, in apache_beam.runners.worker.operations.DoOperation.setup\n'
            '  File "apache_beam/runners/worker/operations.py", line 927, in apache_beam.runners.worker.operations.DoOperation.setup\n'
            '  File "apache_beam/runners/common.py", line 1522, in apache_beam.runners.common.DoFnRunner.setup\n'
            '  File "apache_beam/runners/common.py", line 1518, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method\n'
            '  File "apache_beam/runners/common.py", line 1562, in apache_beam.runners.common.DoFnRunner._reraise_augmented\n'
            '  File "apache_beam/runners/common.py", line 1516, in apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method\n'
            '  File "apache_beam/runners/common.py", line 562, in apache_beam.runners.common.DoFnInvoker.invoke_setup\n'
            + user_frames)


def process_tb(c, user_frames):
    s = c.site()
    return ("Traceback (most recent call last):\n"
            '  File "apache_beam/runners/common.py", line 1498, in apache_beam.runners.common.DoFnRunner.process\n'
            '  File "apache_beam/runners/common.py", line 685, in apache_beam.runners.common.SimpleInvoker.invoke_process\n'
            + user_frames)


def report_failure(c, off, vm, sdk, instr, tb, final_line, step_label, jm=True, jm_delay=3.0):
    """SDK harness failure: stderr print, sdk_worker ERROR log, job-message echo."""
    full = tb + final_line + " [while running '%s']\n" % step_label
    c.D(off, vm, full.rstrip("\n"))
    c.W(off + 0.002, vm, sdk, "ERROR", "Error processing instruction %s. Original traceback is\n%s\n" % (instr, full),
        c.lg("runners/worker/sdk_worker.py", 314), thread="Thread-%d" % (20 + len(instr) % 7))
    if jm:
        c.J(off + jm_delay, "ERROR", "Error message from worker: " + full.rstrip("\n"))


# --------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------
CASES = []


def case(fn):
    CASES.append(fn)
    return fn


# ---------------------------------------------------------------- hs8-01
@case
def hs8_01():
    c = Case("hs8-01", "kyc-doc-ocr-stream-l4", "fennel-kyc-prod", "418827730615", "europe-west4",
             _dt.datetime(2026, 2, 17, 9, 12, 4, 221000, tzinfo=UTC), "3.11", "2.68.0", "sink", frac="9")
    image = "europe-west4-docker.pkg.dev/fennel-ml-platform/dataflow-images/kyc-ocr-gpu:2026.02.3"
    zone = "europe-west4-b"
    vm = c.vm("x7rf")
    steps = ["ReadPubSub/Read", "ReadPubSub/Map(_from_proto_str)", "ParseRequest", "FetchDocument", "Window/WindowInto(WindowIntoFn)",
             "RunOCR/BeamML_RunInference_Preprocess-0", "RunOCR/BatchElements/ParDo(_WindowAwareBatchingDoFn)", "RunOCR/BeamML_RunInference",
             "RunOCR/BeamML_RunInference_Postprocess-0", "ToRow", "WriteBQ/StorageWriteToBigQuery/Convert"]
    t = job_preamble(c, 0, chain_fusing(steps), streaming=True)
    c.J(t + 0.2, "INFO", "Executing operation ReadPubSub/Read+ReadPubSub/Map(_from_proto_str)+ParseRequest+FetchDocument+Window/WindowInto(WindowIntoFn)+RunOCR/BeamML_RunInference_Preprocess-0+RunOCR/BatchElements/ParDo(_WindowAwareBatchingDoFn)+RunOCR/BeamML_RunInference+RunOCR/BeamML_RunInference_Postprocess-0+ToRow+WriteBQ/StorageWriteToBigQuery/Convert")
    worker_start_msgs(c, t + 1.0, "g2-standard-8", zone, 1, streaming=True, maxw=4)
    c.J(t + 88, "INFO", "Workers have started successfully.")
    b = t + 60
    vm_noise(c, b, vm)
    c.K(b + 9, vm, "I", "kubelet.go:2396", '"SyncLoop ADD" source="file" pods=["default/%s"]' % vm)
    # image pull attempts with back-off (containerd via kubelet)
    backoff = [0, 14, 41, 95, 200, 410, 720, 1030, 1340, 1650, 1960, 2270, 2580, 2890, 3200, 3510, 3820, 4130, 4440]
    for i, d in enumerate(backoff):
        tt = b + 20 + d
        if i < 6 or i % 3 == 0:
            c.K(tt, vm, "I", "kuberuntime_image.go:55", '"Pulling image" image="%s"' % image)
        err = ('failed to pull and unpack image \\"%s\\": failed to resolve reference \\"%s\\": pulling from host europe-west4-docker.pkg.dev failed with status code [manifests 2026.02.3]: 403 Forbidden' % (image, image))
        if i < 5 or i % 2 == 0:
            c.K(tt + 0.6, vm, "E", "remote_image.go:180", '"PullImage from image service failed" err="rpc error: code = Unknown desc = %s" image="%s"' % (err, image))
            c.K(tt + 0.61, vm, "E", "kuberuntime_manager.go:1256", '"Unhandled Error" err="container &Container{Name:sdk-0-0,Image:%s,} start failed in pod %s_default: ErrImagePull: %s"' % (image, vm, err))
        c.K(tt + 0.62, vm, "E", "pod_workers.go:1301", '"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"sdk-0-0\\" with ImagePullBackOff: \\"Back-off pulling image \\\\\\"%s\\\\\\"\\"" pod="default/%s"' % (image, vm))
    # periodic system noise over the stuck hour
    # between back-offs the kubelet keeps reporting the pod as not startable
    for k in range(12):
        tt = b + 400 + k * 330
        c.K(tt, vm, "E", "pod_workers.go:1301", '"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"sdk-0-0\\" with ImagePullBackOff: \\"Back-off pulling image \\\\\\"%s\\\\\\"\\"" pod="default/%s"' % (image, vm))
    for k in range(2):
        c.S(b + 1800 + k * 1800, vm, "ima: No architecture policies found")
    # streaming job: no failure, only backlog messages from the autoscaler
    for k in range(3):
        c.J(b + 1200 + k * 1200, "INFO", "Autoscaling: Raised the number of workers to 1 so that the pipeline can catch up with its backlog and keep up with its input rate.")
    evidence = ["ImagePullBackOff",
                "pulling from host europe-west4-docker.pkg.dev failed with status code [manifests 2026.02.3]: 403 Forbidden",
                "Workers have started successfully."]
    truth = dict(
        outcome="stuck",
        family="container image pull denied (Artifact Registry permission for the worker service account)",
        root_cause=("The custom SDK image lives in an Artifact Registry repository of another project (fennel-ml-platform). The job runs as a new "
                    "worker service account that was never granted Artifact Registry Reader on that repository, so every pull of the sdk-0-0 image "
                    "by the worker's kubelet/containerd is answered 403 Forbidden. The VM boots and Dataflow reports that workers started, but the SDK "
                    "container never runs (ErrImagePull -> ImagePullBackOff with growing back-off), so the streaming job makes no progress. Streaming "
                    "jobs are not failed by the service for this; the team exported the logs after about an hour of zero throughput. Fix: grant "
                    "roles/artifactregistry.reader on the repository to the worker service account (or use an image in the job's project)."),
        setup="Streaming, Streaming Engine, Python 3.11, Beam 2.68.0, europe-west4-b, g2-standard-8 with 1x NVIDIA L4 (worker_accelerator type:nvidia-l4;count:1;install-nvidia-driver), custom image " + image,
        evidence=evidence,
        red_herrings=["'Workers have started successfully.' although no SDK code ever ran",
                      "benign kubelet ERROR lines listed by the Dataflow docs (dynamic plugin prober read-only file system, Skipping pod synchronization)",
                      "autoscaler backlog messages that look like a throughput problem",
                      "no worker or docker log at all (the absence is the signal; the cause is only in the kubelet log)"],
        sources=["Kubelet/containerd pull-failure wording: googlecodelabs/monolith-to-microservices#59 ('failed to pull and unpack image ... failed to resolve reference ... pulling from host gcr.io failed with status code [manifests 1.0.0]: 403 Forbidden')",
                 "Structured kubelet 'Error syncing pod, skipping' ImagePullBackOff line: googleforgames/global-multiplayer-demo#161",
                 "Dataflow docs, Troubleshoot Dataflow errors (image pull errors; benign kubelet lines) via reference dataflow-log-signatures.md §2f, §2i",
                 "Job messages (Running job using Streaming Engine, Expanding..., Fusing consumer ..., autoscaling): reference §2i and Beam console logs quoted in public READMEs"],
        synthetic=["project, job, image name and tag, VM names and ids, timestamps, insertIds", "kubelet source file:line tags (remote_image.go:180 etc.) and pids", "the exact back-off schedule", "the 'Unhandled Error' wrapper line shape (kuberuntime_manager) is modelled on structured kubelet logging, not copied from a Dataflow export"],
    )
    return c, truth


# ---------------------------------------------------------------- hs8-02
@case
def hs8_02():
    c = Case("hs8-02", "claims-fraud-score-a100-batch", "meridian-risk-analytics", "733910284412", "us-central1",
             _dt.datetime(2025, 11, 4, 2, 30, 11, 482000, tzinfo=UTC), "3.12", "2.69.0", "download", frac="6", res_project_number=True)
    zone = "us-central1-c"
    steps = []
    names = ["ReadClaims/Read/Impulse", "ReadClaims/Read/Map(<lambda at iobase.py:911>)", "ReadClaims/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/PairWithRestriction",
             "ReadClaims/Read/SDFBoundedSourceReader/ParDo(SDFBoundedSourceDoFn)/SplitWithSizing", "DecodeAvro", "FilterOpen", "KeyByPolicy", "JoinPolicies/pair_with_claims",
             "JoinPolicies/Flatten", "JoinPolicies/GroupByKey/Write", "JoinPolicies/GroupByKey/Read", "JoinPolicies/Map(_merge_tagged_vals_under_key)", "BuildFeatures",
             "Tokenize", "Score/BeamML_RunInference_Preprocess-0", "Score/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)", "Score/BeamML_RunInference",
             "Score/BeamML_RunInference_Postprocess-0", "Explain/SelectTopDecile", "Explain/BuildBaselines", "Explain/ComputeAttributions", "Explain/SummarizeAttributions",
             "Explain/AttachToScore", "AuditSample/KeyBySample", "AuditSample/Sample/FixedSizeGlobally/AddRandomKeys", "AuditSample/Sample/FixedSizeGlobally/Combine/KeyWithVoid",
             "AuditSample/Sample/FixedSizeGlobally/Combine/CombinePerKey/GroupByKey/Write", "AuditSample/Sample/FixedSizeGlobally/Combine/CombinePerKey/GroupByKey/Read",
             "AuditSample/Sample/FixedSizeGlobally/Combine/CombinePerKey/Combine/Extract", "AuditSample/Sample/FixedSizeGlobally/Combine/UnKey", "ToBQRow", "WriteScores/Map(<lambda at bigquery.py:2332>)",
             "WriteScores/RewindowIntoGlobal", "WriteScores/AppendDestination", "WriteScores/ParDo(WriteRecordsToFile)/ParDo(WriteRecordsToFile)",
             "WriteScores/ParDo(_ShardDestinations)", "WriteScores/GroupShardedRows/Write", "WriteScores/GroupShardedRows/Read", "WriteScores/DropShardNumber",
             "WriteScores/WriteGroupedRecordsToFile", "WriteScores/IdentityWorkaround", "WriteScores/GroupFilesByTableDestinations/Write",
             "WriteScores/GroupFilesByTableDestinations/Read", "WriteScores/PartitionFiles/ParDo(PartitionFiles)", "WriteScores/TriggerLoadJobsWithTempTables/ParDo(TriggerLoadJobs)",
             "WriteScores/TriggerLoadJobsWithoutTempTables", "WriteScores/WaitForTempTableLoadJobs", "WriteScores/ParDo(UpdateDestinationSchema)",
             "WriteScores/TriggerCopyJobs/ParDo(TriggerCopyJobs)", "WriteScores/WaitForCopyJobs", "WriteScores/RemoveTempTables/Impulse",
             "WriteScores/RemoveTempTables/PassTables", "WriteScores/RemoveTempTables/AddUselessValue", "WriteScores/RemoveTempTables/DeduplicateTables/Write",
             "WriteScores/RemoveTempTables/DeduplicateTables/Read", "WriteScores/RemoveTempTables/GetTableNames/Keys", "WriteScores/RemoveTempTables/Delete",
             "WriteAudit/Write/WriteImpl/DoOnce/Impulse", "WriteAudit/Write/WriteImpl/InitializeWrite", "WriteAudit/Write/WriteImpl/WindowInto(WindowIntoFn)",
             "WriteAudit/Write/WriteImpl/WriteBundles", "WriteAudit/Write/WriteImpl/Pair", "WriteAudit/Write/WriteImpl/GroupByKey/Write",
             "WriteAudit/Write/WriteImpl/GroupByKey/Read", "WriteAudit/Write/WriteImpl/Extract", "WriteAudit/Write/WriteImpl/PreFinalize",
             "WriteAudit/Write/WriteImpl/FinalizeWrite", "Metrics/CountScored", "Metrics/CountFlagged", "Metrics/Publish"]
    fus = chain_fusing(names)
    t = job_preamble(c, 0, fus)
    c.J(t, "DEBUG", "Executing wait step start41")
    ops = ["ReadClaims/Read/Impulse+ReadClaims/Read/Map(<lambda at iobase.py:911>)+ref_AppliedPTransform_ReadClaims-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/PairWithRestriction+ref_AppliedPTransform_ReadClaims-Read-SDFBoundedSourceReader-ParDo-SDFBoundedSourceDoFn-_7/SplitWithSizing",
           "WriteScores/RemoveTempTables/Impulse+WriteScores/RemoveTempTables/PassTables+WriteScores/RemoveTempTables/AddUselessValue+WriteScores/RemoveTempTables/DeduplicateTables/Write",
           "WriteAudit/Write/WriteImpl/DoOnce/Impulse+WriteAudit/Write/WriteImpl/InitializeWrite"]
    for i, o in enumerate(ops):
        c.J(t + 0.05 + i * 0.02, "INFO", "Executing operation " + o)
    inst = "claims-fraud-score-a100-11041830-%s-harness-" % h(c.cid, "v", n=4)
    t2 = t + 0.2
    c.J(t2, "INFO", "Worker configuration: a2-highgpu-1g in %s." % zone)
    c.J(t2 + 0.02, "DEBUG", "Starting worker pool setup.")
    c.J(t2 + 0.05, "INFO", "Starting 1 workers in %s..." % zone)
    errs = []
    for k, (dz, sfx) in enumerate([(zone, "q3vd"), (zone, "m81k"), (zone, "zt0c"), (zone, "b5na")]):
        tt = t2 + 31 + k * 64
        msg = ("Startup of the worker pool in zone %s failed to bring up any of the desired 1 workers. Please refer to "
               "https://cloud.google.com/dataflow/docs/guides/common-errors#worker-pool-failure for help troubleshooting. "
               "UNSUPPORTED_OPERATION: Instance '%s%s' creation failed: Instances with guest accelerators do not support live migration." % (dz, inst, sfx))
        c.J(tt, "ERROR", msg)
        errs.append(msg)
        if k < 3:
            c.J(tt + 2.5, "INFO", "Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running stage(s).")
            c.J(tt + 2.6, "INFO", "Starting 1 workers in %s..." % zone)
    tf = t2 + 31 + 3 * 64 + 1.2
    c.J(tf, "ERROR", "Workflow failed. Causes: " + errs[-1].split(". Please refer")[0] + ".")
    teardown(c, tf + 0.3, 0)
    evidence = ["Instances with guest accelerators do not support live migration.",
                "Worker configuration: a2-highgpu-1g in us-central1-c.",
                "UNSUPPORTED_OPERATION: Instance '%sq3vd' creation failed" % inst]
    truth = dict(
        outcome="failed",
        family="worker_accelerator missing (A2 GPU machine type requested without the Dataflow accelerator service option)",
        root_cause=("The job asks for a2-highgpu-1g workers, whose A100 is built into the machine type, but the accelerator was passed as "
                    "--experiments=worker_accelerator=type:nvidia-tesla-a100;count:1;install-nvidia-driver (an SDK experiment) instead of "
                    "--dataflow_service_options=worker_accelerator=..., so the service created the worker VMs as ordinary (live-migratable) instances. "
                    "Compute Engine rejects a VM with guest accelerators whose maintenance policy is live migration, so every worker creation failed "
                    "with UNSUPPORTED_OPERATION '... do not support live migration' and the job failed before any code ran. Fix: pass "
                    "worker_accelerator through --dataflow_service_options (token order type;count;install-nvidia-driver)."),
        setup="Batch, Python 3.12, Beam 2.69.0, us-central1-c, a2-highgpu-1g (1x A100 40GB) requested; launched from Airflow with the accelerator put under --experiments.",
        evidence=evidence,
        red_herrings=["worker-pool-failure link and 'Startup of the worker pool ... failed to bring up any of the desired 1 workers' wording shared with capacity/quota failures (it is not a stock-out)",
                      "about 60 'Fusing consumer' / graph optimisation lines that bury the three errors", "no worker logs at all"],
        sources=["Dataflow docs, Troubleshoot Dataflow errors / TPU page: 'UNSUPPORTED_OPERATION: Instance <worker_instance_name> creation failed: Instances with guest accelerators do not support live migration' (reference §2g g1)",
                 "GCE wording 'Instances with guest accelerators do not support live migration.': loft-sh/devpod#973",
                 "'Startup of the worker pool in zone ... Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors#worker-pool-failure for help troubleshooting.': GoogleCloudPlatform/pontem#251 (reference §2c)",
                 "Graph-optimisation job messages (Expanding..., Fusing consumer X into Y, Adding StepResource setup and teardown to workflow graph., Executing wait step startNN): Beam console logs in public repos (apache/beam#23562, Dataflow quickstart logs found via find_string)"],
        synthetic=["project, job, step names, instance suffixes, timestamps, insertIds", "the number of creation retries before the job failed", "the final 'Workflow failed. Causes:' line reuses the worker-pool sentence (exact final wording for this error not found)", "that the option was put under --experiments is stated in truth only (no log shows the command line)"],
    )
    return c, truth


# ---------------------------------------------------------------- hs8-03
@case
def hs8_03():
    c = Case("hs8-03", "shelf-image-classify-t4", "halden-retail-vision", "205144930877", "us-central1",
             _dt.datetime(2025, 6, 23, 14, 5, 40, 0, tzinfo=UTC), "3.10", "2.61.0", "gcloud", frac="trim")
    zone = "us-central1-b"
    vm = c.vm("4kcn")
    steps = ["ReadImagePaths/Read/Impulse", "ReadImagePaths/ExpandIntoRanges", "ReadImagePaths/ReadRange", "LoadAndPreprocess",
             "Classify/BeamML_RunInference_Preprocess-0", "Classify/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)", "Classify/BeamML_RunInference",
             "Classify/BeamML_RunInference_Postprocess-0", "TopK", "WriteResults/Write/WriteImpl/WriteBundles"]
    t = job_preamble(c, 0, chain_fusing(steps))
    c.J(t, "INFO", "Executing operation ReadImagePaths/Read/Impulse+ReadImagePaths/ExpandIntoRanges+ReadImagePaths/ReadRange+LoadAndPreprocess+Classify/BeamML_RunInference_Preprocess-0+Classify/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+Classify/BeamML_RunInference+Classify/BeamML_RunInference_Postprocess-0+TopK+WriteResults/Write/WriteImpl/WriteBundles")
    worker_start_msgs(c, t + 0.5, "n1-standard-8", zone, 1)
    c.J(t + 140, "INFO", "Workers have started successfully.")
    b = t + 95
    vm_noise(c, b, vm)
    o = opts(c, "'experiments': ['use_runner_v2', 'beam_fn_api'], 'dataflow_service_options': ['worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver'], 'machine_type': 'n1-standard-8', 'sdk_container_image': 'us-central1-docker.pkg.dev/halden-retail-vision/beam/shelf-classify:cu121-py310', 'save_main_session': True, 'sdk_worker_parallelism': '1'")
    sdks = ["sdk-0-0", "sdk-0-1", "sdk-0-2", "sdk-0-3"]
    for i, s in enumerate(sdks):
        boot_lines(c, b + 30 + i * 0.7, vm)
        harness_start(c, b + 34 + i * 0.9, vm, s, o, 39011 + i * 17)
    # torchvision stderr warning (ERROR severity, harmless)
    tvw = ("/usr/local/lib/python3.10/site-packages/torchvision/models/_utils.py:208: UserWarning: The parameter 'pretrained' is deprecated since 0.13 and may be removed in the future, please use 'weights' instead.")
    for i, s in enumerate(sdks):
        c.D(b + 52 + i * 0.4, vm, tvw)
    # successful early bundles
    for k in range(6):
        s = sdks[k % 4]
        c.W(b + 60 + k * 7, vm, s, "INFO", "preprocess: decoded %d images, resized shorter side to 480 (aspect ratio kept)" % (1 + k * 3),
            "/usr/local/lib/python3.10/site-packages/shelfcls/transforms.py:74", thread="Thread-%d" % (14 + k))
    tb_user = ('  File "%s/apache_beam/ml/inference/base.py", line 1598, in process\n    return self._run_inference(batch, inference_args)\n'
               '  File "%s/apache_beam/ml/inference/base.py", line 1564, in _run_inference\n    raise e\n'
               '  File "%s/apache_beam/ml/inference/base.py", line 1550, in _run_inference\n    result_generator = self._model_handler.run_inference(\n'
               '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 535, in run_inference\n    return self._inference_fn(\n'
               '  File "%s/apache_beam/ml/inference/pytorch_inference.py", line 182, in default_tensor_inference_fn\n    batched_tensors = torch.stack(batch)\n') % ((c.site(),) * 5)
    shapes = [("[3, 480, 640]", "[3, 480, 720]", 5), ("[3, 480, 853]", "[3, 480, 640]", 2), ("[3, 640, 480]", "[3, 480, 480]", 9), ("[3, 480, 640]", "[3, 480, 360]", 3)]
    attempts = []
    for k, (a, bb, ent) in enumerate(shapes):
        tt = b + 120 + k * 55
        s = sdks[(k + 1) % 4]
        final = "RuntimeError: stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %d" % (a, bb, ent)
        report_failure(c, tt, vm, s, "process_bundle-%d" % (8801 + k * 3), process_tb(c, tb_user), final, "Classify/BeamML_RunInference")
        attempts.append((final + " [while running 'Classify/BeamML_RunInference']", vm))
        c.W(tt + 9, vm, sdks[(k + 2) % 4], "INFO", "preprocess: decoded %d images, resized shorter side to 480 (aspect ratio kept)" % (40 + k * 11),
            "/usr/local/lib/python3.10/site-packages/shelfcls/transforms.py:74", thread="Thread-%d" % (30 + k))
    failed4(c, b + 120 + 3 * 55 + 8, "S04:ReadImagePaths/ReadRange+LoadAndPreprocess+Classify/BeamML_RunInference_Preprocess-0+Classify/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+Classify/BeamML_RunInference+Classify/BeamML_RunInference_Postprocess-0+TopK+WriteResults/Write/WriteImpl/WriteBundles", attempts, 1)
    # a little more padding: state/progress lines
    for k in range(8):
        c.W(b + 70 + k * 9, vm, sdks[k % 4], "DEBUG", "BatchElements: target batch size %d (min 1, max 64)" % min(64, 2 ** k),
            c.lg("transforms/util.py", 790), thread="Thread-%d" % (14 + k))
    evidence = ["RuntimeError: stack expects each tensor to be equal size, but got [3, 480, 640] at entry 0 and [3, 480, 720] at entry 5",
                "batched_tensors = torch.stack(batch)",
                "resized shorter side to 480 (aspect ratio kept)"]
    truth = dict(
        outcome="failed",
        family="RunInference batching of variable-size tensors (PyTorch handler torch.stack)",
        root_cause=("Preprocessing resizes each shelf photo's shorter side to 480 px but keeps the aspect ratio, so images have different widths/heights. "
                    "RunInference batches elements with BatchElements and PytorchModelHandlerTensor's default inference function calls torch.stack on the "
                    "batch, which requires equal shapes. Batches of size 1 (the first bundles) succeed; as BatchElements grows the batch, torch.stack "
                    "raises 'stack expects each tensor to be equal size' and the work item fails 4 times. Fix: resize/crop to a fixed size (or pad), "
                    "or set max_batch_size=1 / a custom inference_fn."),
        setup="Batch, Python 3.10, Beam 2.61.0, us-central1-b, n1-standard-8 + 1x NVIDIA T4, custom image with torch 2.3 / torchvision, 4 SDK processes visible in the logs.",
        evidence=evidence,
        red_herrings=["torchvision 'pretrained' deprecation UserWarning on stderr (ERROR severity)", "the early bundles succeed (batch size 1)",
                      "Beam boot 'Executing: python -m apache_beam.runners.worker.sdk_worker_main' at ERROR severity", "benign kubelet/system lines"],
        sources=["'stack expects each tensor to be equal size, but got [...] at entry 0 and [...] at entry N': many public issues, e.g. qubvel-org/segmentation_models.pytorch#472, open-mmlab/mmsegmentation#2327",
                 "Beam documentation of this exact RunInference limitation ('Unable to batch tensor elements', torch.stack): apache/beam#22250, apache/beam#29509; PytorchModelHandlerTensor calls torch.stack(batch): apache/beam#37186 review",
                 "SDK harness lines and 'Error processing instruction %s. Original traceback is' (apache/beam sdk_worker.py, found via find_string); Cython frame form 'apache_beam/runners/common.py, line N, in apache_beam.runners.common.DoFnRunner.process' (ray-project/ray_beam_runner#60)",
                 "torchvision 'pretrained' deprecation UserWarning text (torchvision source)", "failed-4-times wording: apache/beam#30482 (reference §2f f8)"],
        synthetic=["project, job, image, paths, timestamps, insertIds", "traceback line numbers", "user log lines from shelfcls (module name invented)", "BatchElements DEBUG line wording is the user's/Beam-like and not verbatim", "Root cause lines in the final job message use the exception text"],
    )
    return c, truth


# ---------------------------------------------------------------- hs8-04
@case
def hs8_04():
    c = Case("hs8-04", "support-ticket-summarize-h100", "tallis-support-ai", "561203398741", "us-east5",
             _dt.datetime(2025, 9, 30, 21, 44, 2, 919000, tzinfo=UTC), "3.12", "2.67.0", "gcloud", frac="6")
    zone = "us-east5-a"
    vm = c.vm("hc2w")
    steps = ["ReadTickets/Read/Impulse", "ReadTickets/Read/Map(<lambda at iobase.py:911>)", "CleanText", "BuildPrompt",
             "Summarize/BeamML_RunInference_Preprocess-0", "Summarize/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)", "Summarize/BeamML_RunInference",
             "Summarize/BeamML_RunInference_Postprocess-0", "ToJson", "WriteSummaries/Write/WriteImpl/WriteBundles"]
    t = job_preamble(c, 0, chain_fusing(steps))
    c.J(t, "INFO", "Executing operation ReadTickets/Read/Impulse+ReadTickets/Read/Map(<lambda at iobase.py:911>)+CleanText+BuildPrompt+Summarize/BeamML_RunInference_Preprocess-0+Summarize/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+Summarize/BeamML_RunInference+Summarize/BeamML_RunInference_Postprocess-0+ToJson+WriteSummaries/Write/WriteImpl/WriteBundles")
    worker_start_msgs(c, t + 0.5, "a3-highgpu-1g", zone, 1)
    c.J(t + 170, "INFO", "Workers have started successfully.")
    b = t + 120
    vm_noise(c, b, vm)
    o = opts(c, "'experiments': ['use_runner_v2', 'no_use_multiple_sdk_containers'], 'dataflow_service_options': ['worker_accelerator=type:nvidia-h100-80gb;count:1;install-nvidia-driver:latest'], 'machine_type': 'a3-highgpu-1g', 'disk_size_gb': 200, 'sdk_container_image': 'us-east5-docker.pkg.dev/tallis-support-ai/df/summarizer:llama31-v7', 'number_of_worker_harness_threads': 1")
    s = "sdk-0-0"
    boot_lines(c, b + 40, vm)
    harness_start(c, b + 44, vm, s, o, 42157)
    ul = "/usr/local/lib/python3.12/site-packages/ticketsum/handler.py"
    c.W(b + 50, vm, s, "INFO", "Loading meta-llama/Llama-3.1-8B-Instruct from /models/llama31-8b-instruct (torch_dtype=bfloat16, device=cuda:0)", ul + ":61", thread="Thread-9")
    for k in range(4):
        c.D(b + 52 + k * 9, vm, "Loading checkpoint shards: %3d%%|%s| %d/4 [00:%02d<00:%02d,  2.21s/it]" % ((k + 1) * 25, "\u2588" * (k + 1) * 2 + " " * (8 - (k + 1) * 2), k + 1, (k + 1) * 2, (3 - k) * 2))
    c.W(b + 90, vm, s, "INFO", "Model ready; tokenizer padding_side=left, pad_token=None", ul + ":77", thread="Thread-9")
    # early batches of one: generate works, transformers warns about pad token id
    for k in range(7):
        c.D(b + 100 + k * 11, vm, "Setting `pad_token_id` to `eos_token_id`:128001 for open-end generation.")
        c.W(b + 100.5 + k * 11, vm, s, "INFO", "summarized batch of 1 ticket(s) in %.2fs" % (3.1 + k * 0.37), ul + ":118", thread="Thread-9")
    tbu = ('  File "%s/apache_beam/ml/inference/base.py", line 1598, in process\n    return self._run_inference(batch, inference_args)\n'
           '  File "%s/apache_beam/ml/inference/base.py", line 1564, in _run_inference\n    raise e\n'
           '  File "%s/apache_beam/ml/inference/base.py", line 1550, in _run_inference\n    result_generator = self._model_handler.run_inference(\n'
           '  File "%s:104, in run_inference\n    enc = self._tokenizer(prompts, padding=True, return_tensors="pt").to(self._device)\n'
           '  File "%s/transformers/tokenization_utils_base.py", line 2887, in __call__\n    encodings = self._call_one(text=text, text_pair=text_pair, **all_kwargs)\n'
           '  File "%s/transformers/tokenization_utils_base.py", line 2975, in _call_one\n    return self.batch_encode_plus(\n'
           '  File "%s/transformers/tokenization_utils_base.py", line 3165, in batch_encode_plus\n    padding_strategy, truncation_strategy, max_length, kwargs = self._get_padding_truncation_strategies(\n'
           '  File "%s/transformers/tokenization_utils_base.py", line 2787, in _get_padding_truncation_strategies\n    raise ValueError(\n') % (c.site(), c.site(), c.site(), ul.replace(":", "") , c.site(), c.site(), c.site(), c.site())
    tbu = tbu.replace(ul.replace(":", "") + ":104", ul + '", line 104')
    final = "ValueError: Asking to pad but the tokenizer does not have a padding token. Please select a token to use as `pad_token` `(tokenizer.pad_token = tokenizer.eos_token e.g.)` or add a new pad token via `tokenizer.add_special_tokens({'pad_token': '[PAD]'})`."
    attempts = []
    for k in range(4):
        tt = b + 190 + k * 42
        c.W(tt - 2, vm, s, "DEBUG", "BatchElements: target batch size %d (min 1, max 16)" % (2 + k * 2), c.lg("transforms/util.py", 790), thread="Thread-9")
        report_failure(c, tt, vm, s, "process_bundle-%d" % (511 + k * 2), process_tb(c, tbu), final, "Summarize/BeamML_RunInference")
        attempts.append((final + " [while running 'Summarize/BeamML_RunInference']", vm))
    # GPU is fine and busy: nvidia health noise from the user's periodic probe
    for k in range(16):
        c.W(b + 95 + k * 17, vm, s, "DEBUG", "gpu0 util=%d%% mem_used=%.1fGiB/79.6GiB" % (35 + (k * 7) % 50, 16.4 + (k % 3) * 0.2), ul + ":201", thread="Thread-3")
    failed4(c, b + 190 + 3 * 42 + 6, "S02:ReadTickets/Read/Map(<lambda at iobase.py:911>)+CleanText+BuildPrompt+Summarize/BeamML_RunInference_Preprocess-0+Summarize/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+Summarize/BeamML_RunInference+Summarize/BeamML_RunInference_Postprocess-0+ToJson+WriteSummaries/Write/WriteImpl/WriteBundles", attempts, 1)
    evidence = ["Asking to pad but the tokenizer does not have a padding token.",
                "pad_token=None",
                "Setting `pad_token_id` to `eos_token_id`:128001 for open-end generation."]
    truth = dict(
        outcome="failed",
        family="tokenizer without a pad token used for batched generation",
        root_cause=("A custom ModelHandler for Llama-3.1-8B-Instruct tokenizes each RunInference batch with padding=True. The Llama 3 tokenizer has no "
                    "pad token (the handler even logs pad_token=None) and the team never set tokenizer.pad_token. While BatchElements still sends single "
                    "elements, no padding is needed and generate() only warns that it sets pad_token_id to eos for open-end generation; as soon as a batch "
                    "has two or more prompts, tokenization raises 'Asking to pad but the tokenizer does not have a padding token' and the work item fails "
                    "4 times. Fix: tokenizer.pad_token = tokenizer.eos_token (with left padding) or pass pad_token_id explicitly."),
        setup="Batch, Python 3.12, Beam 2.67.0, us-east5-a, a3-highgpu-1g (1x H100 80GB), single SDK process (no_use_multiple_sdk_containers), custom image with transformers.",
        evidence=evidence,
        red_herrings=["'Setting `pad_token_id` to `eos_token_id`' warnings (stderr, ERROR severity) suggest padding is handled", "progress bars of checkpoint loading on stderr",
                      "the first five batches succeed", "GPU utilisation probes show a healthy H100"],
        sources=["ValueError text: huggingface transformers tokenization_utils_base.py as quoted in vihangd/alpaca-qlora#8, huggingface/trl#466, nod-ai/AMD-SHARK-ModelDev#938 (traceback frames)",
                 "'Setting `pad_token_id` to `eos_token_id`:... for open-end generation.' transformers generation warning (transformers source)",
                 "Beam RunInference / SDK harness / failed-4-times wording as in hs8-03"],
        synthetic=["project, job, image, module ticketsum and its log lines, timestamps, insertIds", "traceback line numbers", "progress-bar line formatting", "GPU probe lines"],
    )
    return c, truth


# ---------------------------------------------------------------- hs8-05
@case
def hs8_05():
    c = Case("hs8-05", "parcel-damage-detect-onnx", "kitsune-logistics", "880124476019", "asia-northeast1",
             _dt.datetime(2025, 4, 8, 3, 20, 55, 113000, tzinfo=UTC), "3.11", "2.63.0", "sinkgz", frac="9", res_project_number=True)
    zone = "asia-northeast1-a"
    vms = [c.vm("d1mb"), c.vm("w6yt")]
    steps = ["ListImages/Read/Impulse", "ListImages/Read/Map(<lambda at iobase.py:908>)", "ReadBytes", "DecodeResize",
             "Detect/BeamML_RunInference_Preprocess-0", "Detect/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)", "Detect/BeamML_RunInference",
             "Detect/BeamML_RunInference_Postprocess-0", "Nms", "WriteDetections/Write/WriteImpl/WriteBundles"]
    t = job_preamble(c, 0, chain_fusing(steps))
    c.J(t, "INFO", "Executing operation ListImages/Read/Impulse+ListImages/Read/Map(<lambda at iobase.py:908>)+ReadBytes+DecodeResize+Detect/BeamML_RunInference_Preprocess-0+Detect/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+Detect/BeamML_RunInference+Detect/BeamML_RunInference_Postprocess-0+Nms+WriteDetections/Write/WriteImpl/WriteBundles")
    worker_start_msgs(c, t + 0.5, "g2-standard-4", zone, 2)
    c.J(t + 150, "INFO", "Workers have started successfully.")
    o = opts(c, "'experiments': ['use_runner_v2'], 'dataflow_service_options': ['worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver'], 'machine_type': 'g2-standard-4', 'requirements_file': '/tmp/requirements.txt', 'max_num_workers': 2")
    attempts = []
    onnx_err = ("onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load model from /tmp/beam-models/parcel_damage_yolo_v11.onnx failed:"
                "/onnxruntime_src/onnxruntime/core/graph/model.cc:179 onnxruntime::Model::Model(onnx::ModelProto&&, const onnxruntime::PathString&, "
                "const onnxruntime::IOnnxRuntimeOpSchemaRegistryList*, const onnxruntime::logging::Logger&, const onnxruntime::ModelOptions&) "
                "Unsupported model IR version: 10, max supported IR version: 9")
    tbu = ('  File "%s/apache_beam/ml/inference/base.py", line 1489, in setup\n    self._model = self._load_model()\n'
           '  File "%s/apache_beam/ml/inference/base.py", line 1455, in _load_model\n    model = self._shared_model_handle.acquire(load, tag=self._cur_tag)\n'
           '  File "%s/apache_beam/utils/shared.py", line 253, in acquire\n    return self._shared_map.acquire(self._key, constructor_fn, tag)\n'
           '  File "%s/apache_beam/utils/shared.py", line 195, in acquire\n    result = control_block.acquire(constructor_fn, tag)\n'
           '  File "%s/apache_beam/utils/shared.py", line 89, in acquire\n    result = constructor_fn()\n'
           '  File "%s/apache_beam/ml/inference/base.py", line 1429, in load\n    model = self._model_handler.load_model()\n'
           '  File "%s/apache_beam/ml/inference/onnx_inference.py", line 112, in load_model\n    ort_session = ort.InferenceSession(\n'
           '  File "%s/onnxruntime/capi/onnxruntime_inference_collection.py", line 419, in __init__\n    self._create_inference_session(providers, provider_options, disabled_optimizers)\n'
           '  File "%s/onnxruntime/capi/onnxruntime_inference_collection.py", line 472, in _create_inference_session\n    sess = C.InferenceSession(session_options, self._model_path, True, self._read_config_from_model)\n') % ((c.site(),) * 9)
    for wi, vm in enumerate(vms):
        b = t + 100 + wi * 7
        vm_noise(c, b, vm)
        boot_lines(c, b + 28, vm)
        for j, s in enumerate(["sdk-0-0", "sdk-0-1", "sdk-0-2", "sdk-0-3"][: 4 if wi == 0 else 2]):
            harness_start(c, b + 31 + j * 0.6, vm, s, o, 40100 + j * 13 + wi)
        # transient GCS retry, recovered (red herring)
        if wi == 0:
            c.W(b + 40, vm, "sdk-0-1", "WARNING",
                "Retry with exponential backoff: waiting for 3.4 seconds before retrying _gcs_object because we caught exception: "
                "ServiceUnavailable: 503 GET https://storage.googleapis.com/storage/v1/b/kitsune-parcel-images/o/2025%2F04%2F07%2Fcam-112%2F000481.jpg?fields=size: We encountered an internal error. Please try again.",
                c.lg("utils/retry.py", 298), thread="Thread-11")
    k = 0
    for rnd in range(4):
        vm = vms[rnd % 2]
        s = ["sdk-0-0", "sdk-0-1"][rnd // 2]
        tt = t + 150 + rnd * 48
        c.W(tt - 1.5, vm, s, "INFO", "Downloading gs://kitsune-ml-models/parcel-damage/v11/parcel_damage_yolo_v11.onnx to /tmp/beam-models/parcel_damage_yolo_v11.onnx (ir_version stamp not checked)",
            "/usr/local/lib/python3.11/site-packages/parceldet/model_io.py:38", thread="Thread-%d" % (12 + rnd))
        report_failure(c, tt, vm, s, "process_bundle-%d" % (33 + rnd * 5), setup_tb(c, tbu), onnx_err, "Detect/BeamML_RunInference")
        attempts.append((onnx_err + " [while running 'Detect/BeamML_RunInference']", vm))
    for k in range(6):
        c.W(t + 160 + k * 31, vms[k % 2], "sdk-0-2" if k % 2 == 0 else "sdk-0-0", "INFO", "onnxruntime %s, providers available: ['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'CPUExecutionProvider']" % "1.17.1",
            "/usr/local/lib/python3.11/site-packages/parceldet/model_io.py:21", thread="Thread-%d" % (40 + k))
    failed4(c, t + 150 + 3 * 48 + 5, "S03:ListImages/Read/Map(<lambda at iobase.py:908>)+ReadBytes+DecodeResize+Detect/BeamML_RunInference_Preprocess-0+Detect/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+Detect/BeamML_RunInference+Detect/BeamML_RunInference_Postprocess-0+Nms+WriteDetections/Write/WriteImpl/WriteBundles", attempts, 2)
    evidence = ["Unsupported model IR version: 10, max supported IR version: 9",
                "onnxruntime 1.17.1, providers available: ['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'CPUExecutionProvider']"]
    truth = dict(
        outcome="failed",
        family="ONNX model IR version newer than the ONNX Runtime in the worker image",
        root_cause=("The detector was re-exported with a newer onnx package (1.16+, IR version 10) but the workers run onnxruntime-gpu 1.17.1, which "
                    "supports IR version 9 at most. OnnxModelHandlerNumpy.load_model fails when creating the InferenceSession in RunInference's setup "
                    "on every SDK process ('Unsupported model IR version: 10, max supported IR version: 9'), so the work item fails 4 times. GPU and "
                    "CUDA provider are fine. Fix: upgrade onnxruntime-gpu (>=1.18) or export with an older onnx / set ir_version to 9."),
        setup="Batch, Python 3.11, Beam 2.63.0, asia-northeast1-a, 2x g2-standard-4 (1x NVIDIA L4 each), requirements_file install, 4 and 2 SDK processes.",
        evidence=evidence,
        red_herrings=["a retried GCS 503 (WARNING) that recovered", "CUDAExecutionProvider is available (GPU is not the problem)",
                      "export is a gzipped Cloud Storage sink file"],
        sources=["ONNX Runtime message with model.cc:179 signature: microsoft/onnxruntime#20559, fastmachinelearning/hls4ml#983; IR 10 vs 9 background: microsoft/onnxruntime#15874",
                 "onnxruntime_inference_collection.py _create_inference_session frame: NVIDIA/TensorRT#3841 traceback",
                 "Beam retry log wording 'Retry with exponential backoff: waiting for ... before retrying ... because we caught exception' (apache_beam/utils/retry.py)",
                 "SDK harness / failed-4-times wording as in hs8-03"],
        synthetic=["project, job, bucket/object names, timestamps, insertIds", "Beam frame line numbers", "parceldet user log lines", "the GCS 503 message body"],
    )
    return c, truth


# ---------------------------------------------------------------- hs8-06
@case
def hs8_06():
    c = Case("hs8-06", "skin-lesion-triage-tf-t4", "aurelia-derm-research", "302398877140", "europe-west1",
             _dt.datetime(2024, 12, 3, 11, 1, 17, 338000, tzinfo=UTC), "3.11", "2.60.0", "gcloud", frac="9")
    zone = "europe-west1-d"
    vm = c.vm("p0az")
    steps = ["ReadManifest/Read/Impulse", "ReadManifest/Read/Map(<lambda at iobase.py:908>)", "ParseRow", "SegmentLesion", "ClassifyLesion", "FormatOut", "WriteOut/Write/WriteImpl/WriteBundles"]
    t = job_preamble(c, 0, chain_fusing(steps))
    c.J(t, "INFO", "Executing operation ReadManifest/Read/Impulse+ReadManifest/Read/Map(<lambda at iobase.py:908>)+ParseRow+SegmentLesion+ClassifyLesion+FormatOut+WriteOut/Write/WriteImpl/WriteBundles")
    worker_start_msgs(c, t + 0.5, "n1-highmem-4", zone, 1)
    c.J(t + 160, "INFO", "Workers have started successfully.")
    b = t + 110
    vm_noise(c, b, vm)
    o = opts(c, "'experiments': ['use_runner_v2', 'no_use_multiple_sdk_containers'], 'dataflow_service_options': ['worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver'], 'machine_type': 'n1-highmem-4', 'sdk_container_image': 'europe-west1-docker.pkg.dev/aurelia-derm-research/beam/lesion-tf:2.17'")
    s = "sdk-0-0"
    attempts = []
    um = "/usr/local/lib/python3.11/site-packages/lesion/dofns.py"
    tbu = ('  File "%s", line 88, in setup\n    configure_tf_gpu()\n'
           '  File "/usr/local/lib/python3.11/site-packages/lesion/gpu.py", line 14, in configure_tf_gpu\n    tf.config.experimental.set_memory_growth(gpu, True)\n'
           '  File "%s/tensorflow/python/framework/config.py", line 754, in set_memory_growth\n    context.context().set_memory_growth(device, enable)\n'
           '  File "%s/tensorflow/python/eager/context.py", line 1796, in set_memory_growth\n    raise RuntimeError(\n') % (um, c.site(), c.site())
    final = "RuntimeError: Physical devices cannot be modified after being initialized"
    for rnd in range(4):
        base = b + 40 + rnd * 75
        boot_lines(c, base, vm)
        harness_start(c, base + 3, vm, s, o, 41733 + rnd)
        d = c.dt(base + 6)
        stamp = d.strftime("%Y-%m-%d %H:%M:%S.%f")
        c.D(base + 6, vm, "%s: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:485] Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered" % stamp)
        c.D(base + 6.01, vm, "%s: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:8454] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered" % stamp)
        c.D(base + 6.02, vm, "%s: E external/local_xla/xla/stream_executor/cuda/cuda_blas.cc:1452] Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered" % stamp)
        c.D(base + 6.5, vm, "%s: I tensorflow/core/platform/cpu_feature_guard.cc:210] This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations." % c.dt(base + 6.5).strftime("%Y-%m-%d %H:%M:%S.%f"))
        c.W(base + 9, vm, s, "INFO", "ClassifyLesion.setup: loading SavedModel gs://aurelia-derm-models/lesion-cls/effnetv2s/7", um + ":131", thread="Thread-12")
        c.D(base + 11, vm, "%s: I tensorflow/core/common_runtime/gpu/gpu_device.cc:2021] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 13949 MB memory:  -> device: 0, name: Tesla T4, pci bus id: 0000:00:04.0, compute capability: 7.5" % c.dt(base + 11).strftime("%Y-%m-%d %H:%M:%S.%f"))
        c.W(base + 19, vm, s, "INFO", "ClassifyLesion.setup: model ready (input 384x384x3)", um + ":140", thread="Thread-12")
        c.W(base + 19.5, vm, s, "INFO", "SegmentLesion.setup: enabling GPU memory growth before loading the U-Net", um + ":86", thread="Thread-12")
        report_failure(c, base + 19.7, vm, s, "process_bundle-%d" % (2 + rnd), setup_tb(c, tbu), final, "SegmentLesion")
        attempts.append((final + " [while running 'SegmentLesion']", vm))
    failed4(c, b + 40 + 3 * 75 + 25, "S01:ReadManifest/Read/Map(<lambda at iobase.py:908>)+ParseRow+SegmentLesion+ClassifyLesion+FormatOut+WriteOut/Write/WriteImpl/WriteBundles", attempts, 1)
    evidence = ["RuntimeError: Physical devices cannot be modified after being initialized [while running 'SegmentLesion']",
                "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 13949 MB memory:  -> device: 0, name: Tesla T4",
                "SegmentLesion.setup: enabling GPU memory growth before loading the U-Net"]
    truth = dict(
        outcome="failed",
        family="TensorFlow GPU configuration after runtime initialisation (two DoFns in one fused stage)",
        root_cause=("SegmentLesion and ClassifyLesion are fused into one stage and run in the same SDK process. ClassifyLesion.setup loads its SavedModel "
                    "first, which initialises the TensorFlow runtime and creates the GPU device. SegmentLesion.setup then calls "
                    "tf.config.experimental.set_memory_growth, which is only allowed before initialisation, so it raises 'Physical devices cannot be "
                    "modified after being initialized' on every attempt and the work item fails 4 times. Fix: configure memory growth once, before any "
                    "TF op (e.g. at module import or via TF_FORCE_GPU_ALLOW_GROWTH=true), or make the call tolerant of an initialised runtime."),
        setup="Batch, Python 3.11, Beam 2.60.0, europe-west1-d, n1-highmem-4 + 1x NVIDIA T4, TensorFlow 2.17 custom image, single SDK process.",
        evidence=evidence,
        red_herrings=["cuFFT/cuDNN/cuBLAS factory-registration lines at E level on stderr", "TF created the T4 device successfully, so the GPU itself works",
                      "Beam boot line at ERROR severity repeated per container restart"],
        sources=["TensorFlow context.py set_memory_growth raising 'Physical devices cannot be modified after being initialized' (TF source as indexed; issues neureal/neureal-ai-agent#3, hunglc007/tensorflow-yolov4-tflite#171, sillsdev/silnlp#102)",
                 "TF factory-registration lines: public notebooks/logs found via find_string ('Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered')",
                 "'Created device ... with N MB memory:  -> device: 0, name: ..., pci bus id: ..., compute capability: 7.5' (reference §2i, tensorflow/tensorflow#62170)",
                 "SDK harness / failed-4-times wording as in hs8-03"],
        synthetic=["project, job, bucket, module lesion and its log lines, timestamps, insertIds", "TF/Beam source line numbers", "that the SDK container restarts between attempts"],
    )
    return c, truth


# ---------------------------------------------------------------- hs8-07
@case
def hs8_07():
    c = Case("hs8-07", "callcenter-asr-fasterwhisper", "norrbotten-voice-ops", "129455870032", "us-west1",
             _dt.datetime(2026, 2, 24, 16, 40, 3, 2000, tzinfo=UTC), "3.11", "2.71.0", "download", frac="3")
    zone = "us-west1-a"
    vms = [c.vm("fq7e"), c.vm("0s9l")]
    steps = ["ListCalls/Read/Impulse", "ListCalls/Read/Map(<lambda at iobase.py:911>)", "FetchAudio", "SplitChannels", "Transcribe", "Redact", "ToRow", "WriteBQ/StorageWriteToBigQuery/Convert"]
    t = job_preamble(c, 0, chain_fusing(steps))
    c.J(t, "INFO", "Executing operation ListCalls/Read/Impulse+ListCalls/Read/Map(<lambda at iobase.py:911>)+FetchAudio+SplitChannels+Transcribe+Redact+ToRow+WriteBQ/StorageWriteToBigQuery/Convert")
    worker_start_msgs(c, t + 0.5, "g2-standard-8", zone, 2)
    c.J(t + 130, "INFO", "Workers have started successfully.")
    o = opts(c, "'experiments': ['use_runner_v2'], 'dataflow_service_options': ['worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver:latest'], 'machine_type': 'g2-standard-8', 'sdk_container_image': 'us-west1-docker.pkg.dev/norrbotten-voice-ops/beam/asr:2026-02-23', 'max_num_workers': 2")
    um = "/usr/local/lib/python3.11/site-packages/vocops/transcribe.py"
    tbu = ('  File "%s", line 47, in setup\n    from faster_whisper import WhisperModel\n'
           '  File "%s/faster_whisper/__init__.py", line 2, in <module>\n    from faster_whisper.transcribe import BatchedInferencePipeline, WhisperModel\n'
           '  File "%s/faster_whisper/transcribe.py", line 13, in <module>\n    import ctranslate2\n'
           '  File "%s/ctranslate2/__init__.py", line 8, in <module>\n    import pkg_resources\n') % (um, c.site(), c.site(), c.site())
    final = "ModuleNotFoundError: No module named 'pkg_resources'"
    sdk_names = ["sdk-0-0", "sdk-0-1", "sdk-0-2", "sdk-0-3", "sdk-0-4", "sdk-0-5", "sdk-0-6", "sdk-0-7"]
    for wi, vm in enumerate(vms):
        b = t + 95 + wi * 4
        vm_noise(c, b, vm)
        boot_lines(c, b + 26, vm)
        for j, s in enumerate(sdk_names[:6 if wi == 0 else 3]):
            harness_start(c, b + 29 + j * 0.5, vm, s, o, 38800 + j * 7 + wi)
        c.W(b + 36, vm, "sdk-0-0", "INFO", "FetchAudio: 24 recordings listed for 2026-02-23 (stereo, 8 kHz)", "/usr/local/lib/python3.11/site-packages/vocops/io.py:52", thread="Thread-10")
    attempts = []
    order = [(0, "sdk-0-3"), (1, "sdk-0-1"), (0, "sdk-0-5"), (1, "sdk-0-2")]
    for rnd, (wi, s) in enumerate(order):
        vm = vms[wi]
        tt = t + 140 + rnd * 37
        c.W(tt - 0.4, vm, s, "INFO", "Transcribe.setup: loading large-v3 on cuda (compute_type=float16)", um + ":45", thread="Thread-%d" % (21 + rnd))
        report_failure(c, tt, vm, s, "process_bundle-%d" % (71 + rnd * 4), setup_tb(c, tbu), final, "Transcribe")
        attempts.append((final + " [while running 'Transcribe']", vm))
        # other SDK processes keep doing the CPU-only steps
        c.W(tt + 5, vms[1 - wi], "sdk-0-0", "INFO", "SplitChannels: call %s split into agent/customer channels" % h(c.cid, rnd, n=8), "/usr/local/lib/python3.11/site-packages/vocops/audio.py:88", thread="Thread-%d" % (30 + rnd))
    failed4(c, t + 140 + 3 * 37 + 6, "S02:ListCalls/Read/Map(<lambda at iobase.py:911>)+FetchAudio+SplitChannels+Transcribe+Redact+ToRow+WriteBQ/StorageWriteToBigQuery/Convert", attempts, 2)
    evidence = ["ModuleNotFoundError: No module named 'pkg_resources' [while running 'Transcribe']",
                "/ctranslate2/__init__.py\", line 8, in <module>\n    import pkg_resources"]
    truth = dict(
        outcome="failed",
        family="setuptools 82 removed pkg_resources (runtime import by ctranslate2 via faster-whisper)",
        root_cause=("The worker image was rebuilt on 2026-02-23 with 'pip install --upgrade pip setuptools wheel', which pulled setuptools 82. "
                    "setuptools 82.0.0 removed the pkg_resources module, but the pinned ctranslate2 still does 'import pkg_resources' in its "
                    "__init__. Importing faster_whisper in Transcribe.setup therefore raises ModuleNotFoundError on every SDK process and the work "
                    "item fails 4 times; nothing is wrong with the GPU or the model. Fix: pin setuptools<82 in the image (or upgrade ctranslate2/"
                    "faster-whisper to releases that use importlib.metadata)."),
        setup="Batch, Python 3.11, Beam 2.71.0, us-west1-a, 2x g2-standard-8 (1x NVIDIA L4 each), custom image, 6 and 3 SDK processes.",
        evidence=evidence,
        red_herrings=["many SDK processes interleave; CPU-only steps keep logging progress", "the error names a module that is not in requirements (it belongs to setuptools)",
                      "Logs Explorer download with millisecond timestamps"],
        sources=["Import chain faster_whisper/__init__.py line 2 -> transcribe.py line 13 'import ctranslate2' -> ctranslate2/__init__.py line 8 'import pkg_resources': abus-aikorea/voice-pro#92 (2026-05), debpalash/VoiceStudio#116",
                 "setuptools 82.0.0 removed pkg_resources: pecan/pecan#171, pre-commit/pre-commit#3621, yehoshuadimarsky/bcpandas#232 (Feb-Mar 2026)",
                 "SDK harness / failed-4-times wording as in hs8-03"],
        synthetic=["project, job, image tag/date, module vocops and its log lines, timestamps, insertIds", "Beam frame line numbers", "the Dockerfile detail (stated in truth only)"],
    )
    return c, truth


# ---------------------------------------------------------------- hs8-08
@case
def hs8_08():
    c = Case("hs8-08", "churn-propensity-a100x2", "brightwave-telco-ds", "644018223906", "us-central1",
             _dt.datetime(2025, 1, 29, 7, 15, 45, 670000, tzinfo=UTC), "3.11", "2.62.0", "gcloud", frac="9", log_type_on_worker=True)
    zone = "us-central1-a"
    vm = c.vm("tt3b")
    steps = ["ReadSubscribers/Read/Impulse", "ReadSubscribers/Read/Map(<lambda at iobase.py:911>)", "ToFeatures", "ScoreChurn", "Calibrate", "WriteScores/Write/WriteImpl/WriteBundles"]
    t = job_preamble(c, 0, chain_fusing(steps))
    c.J(t, "INFO", "Executing operation ReadSubscribers/Read/Impulse+ReadSubscribers/Read/Map(<lambda at iobase.py:911>)+ToFeatures+ScoreChurn+Calibrate+WriteScores/Write/WriteImpl/WriteBundles")
    worker_start_msgs(c, t + 0.5, "a2-highgpu-2g", zone, 1)
    c.J(t + 175, "INFO", "Workers have started successfully.")
    b = t + 120
    vm_noise(c, b, vm)
    o = opts(c, "'experiments': ['use_runner_v2'], 'dataflow_service_options': ['worker_accelerator=type:nvidia-tesla-a100;count:2;install-nvidia-driver'], 'machine_type': 'a2-highgpu-2g', 'requirements_file': '/home/airflow/gcs/dags/churn/requirements.txt', 'setup_file': None, 'save_main_session': False, 'temp_location': 'gs://brightwave-df-temp/churn'")
    sdks = ["sdk-0-%d" % i for i in range(6)]
    boot_lines(c, b + 30, vm)
    for j, s in enumerate(sdks):
        harness_start(c, b + 33 + j * 0.45, vm, s, o, 44010 + j * 11)
    um = "/tmp/beam-pipeline-main/churn_pipeline.py"
    fw = ("%s:58: FutureWarning: You are using `torch.load` with `weights_only=False` (the current default value), which uses the default pickle module implicitly. "
          "It is possible to construct malicious pickle data which will execute arbitrary code during unpickling (See https://github.com/pytorch/pytorch/blob/main/SECURITY.md#untrusted-models for more details). "
          "In a future release, the default value for `weights_only` will be flipped to `True`. This limits the functions that could be executed during unpickling. "
          "Arbitrary objects will no longer be allowed to be loaded via this mode unless they are explicitly allowlisted by the user via `torch.serialization.add_safe_globals`. "
          "We recommend you start setting `weights_only=True` for any use case where you don't have full control of the loaded file. Please open an issue on GitHub for any issues related to this experimental feature.\n"
          "  self._model = torch.load(local_path, map_location=f\"cuda:{self._gpu}\")") % um
    tbu = ('  File "%s", line 58, in setup\n    self._model = torch.load(local_path, map_location=f"cuda:{self._gpu}")\n'
           '  File "%s/torch/serialization.py", line 1360, in load\n    return _load(\n'
           '  File "%s/torch/serialization.py", line 1848, in _load\n    result = unpickler.load()\n'
           '  File "%s/torch/serialization.py", line 1837, in find_class\n    return super().find_class(mod_name, name)\n') % (um, c.site(), c.site(), c.site())
    final = "ModuleNotFoundError: No module named 'churnnet'"
    attempts = []
    for rnd in range(4):
        s = sdks[(rnd * 2 + 1) % 6]
        tt = b + 60 + rnd * 40
        c.W(tt - 3, vm, s, "INFO", "ScoreChurn.setup: gpu=%d, copying gs://brightwave-ml-artifacts/churn/2025-01-27/churn_transformer_full.pt to /tmp/churn_transformer_full.pt" % (rnd % 2),
            um + ":52", thread="Thread-%d" % (15 + rnd))
        c.D(tt - 0.3, vm, fw)
        report_failure(c, tt, vm, s, "process_bundle-%d" % (12 + rnd * 6), setup_tb(c, tbu), final, "ScoreChurn")
        attempts.append((final + " [while running 'ScoreChurn']", vm))
    for k in range(5):
        c.W(b + 70 + k * 29, vm, sdks[k % 6], "INFO", "ToFeatures: built 2048 feature rows (window=90d)", um + ":31", thread="Thread-%d" % (40 + k))
    failed4(c, b + 60 + 3 * 40 + 5, "S01:ReadSubscribers/Read/Map(<lambda at iobase.py:911>)+ToFeatures+ScoreChurn+Calibrate+WriteScores/Write/WriteImpl/WriteBundles", attempts, 1)
    evidence = ["ModuleNotFoundError: No module named 'churnnet'",
                "return super().find_class(mod_name, name)",
                "'setup_file': None"]
    truth = dict(
        outcome="failed",
        family="pickled full model needs a local package that was not staged to the workers",
        root_cause=("The checkpoint churn_transformer_full.pt was saved with torch.save(model) (the whole pickled nn.Module), so unpickling needs the class "
                    "churnnet.model.ChurnTransformer. churnnet is the team's local training package: it is installed in the Airflow/Composer "
                    "environment that launches the job, but the job only passes --requirements_file and no --setup_file/--extra_package, so the "
                    "package is not on the workers. torch.load's unpickler raises ModuleNotFoundError: No module named 'churnnet' in ScoreChurn.setup "
                    "on every attempt. Fix: ship churnnet with --setup_file/--extra_package or a custom image, or save/load a state_dict and build the "
                    "module from code that is on the workers."),
        setup="Batch, Python 3.11, Beam 2.62.0, us-central1-a, a2-highgpu-2g (2x A100 40GB), torch 2.5.1, 6 SDK processes, launched from Composer.",
        evidence=evidence,
        red_herrings=["torch.load weights_only FutureWarning on stderr (ERROR severity) points at the weights_only change, but torch 2.5 still defaults to weights_only=False",
                      "two GPUs and six SDK processes invite a multi-GPU explanation", "the CPU step ToFeatures keeps working"],
        sources=["torch.load FutureWarning text (torch 2.4/2.5): many public logs found via find_string, e.g. whisper CLI output and notebooks",
                 "unpickler frames 'result = unpickler.load()' / find_class: Bing-su/adetailer#314, PonteIneptique/YALTAi#26, facebookresearch/InferSent#11 (No module named models)",
                 "Dataflow/Beam: missing local modules on workers without --setup_file (Beam python-pipeline-dependencies docs, general knowledge)",
                 "SDK harness / failed-4-times wording as in hs8-03"],
        synthetic=["project, job, buckets, module names churnnet/churn_pipeline, timestamps, insertIds", "torch/Beam source line numbers"],
    )
    return c, truth


# ---------------------------------------------------------------- hs8-09
@case
def hs8_09():
    c = Case("hs8-09", "patent-embed-backfill-a100-80", "lumenlex-search", "990412377651", "europe-west4",
             _dt.datetime(2025, 8, 12, 18, 2, 9, 750000, tzinfo=UTC), "3.12", "2.66.0", "sink", frac="9")
    zone = "europe-west4-a"
    vm = c.vm("ul5d")
    steps = ["ReadPatents/ReadFromBigQuery/Read/Impulse", "ReadPatents/ReadFromBigQuery/Read/Map(<lambda at iobase.py:911>)", "ReadPatents/ReadFromBigQuery/_PassThroughThenCleanup/ParDo(PassThrough)",
             "ChunkClaims", "Embed", "ToRows", "WriteEmbeddings/StorageWriteToBigQuery/Convert"]
    t = job_preamble(c, 0, chain_fusing(steps))
    c.J(t, "INFO", "Executing operation ReadPatents/ReadFromBigQuery/Read/Impulse+ReadPatents/ReadFromBigQuery/Read/Map(<lambda at iobase.py:911>)+ReadPatents/ReadFromBigQuery/_PassThroughThenCleanup/ParDo(PassThrough)+ChunkClaims+Embed+ToRows+WriteEmbeddings/StorageWriteToBigQuery/Convert")
    worker_start_msgs(c, t + 0.5, "a2-ultragpu-1g", zone, 1)
    c.J(t + 180, "INFO", "Workers have started successfully.")
    b = t + 130
    vm_noise(c, b, vm)
    o = opts(c, "'experiments': ['use_runner_v2', 'no_use_multiple_sdk_containers'], 'dataflow_service_options': ['worker_accelerator=type:nvidia-a100-80gb;count:1;install-nvidia-driver'], 'machine_type': 'a2-ultragpu-1g', 'number_of_worker_harness_threads': 2, 'sdk_container_image': 'europe-west4-docker.pkg.dev/lumenlex-search/df/embedder:e5-large-v4'")
    s = "sdk-0-0"
    boot_lines(c, b + 35, vm)
    harness_start(c, b + 38, vm, s, o, 40417)
    um = "/usr/local/lib/python3.12/site-packages/lexembed/dofn.py"
    c.W(b + 45, vm, s, "INFO", "Embed.setup: intfloat/multilingual-e5-large on cuda:0 (fp16), max_len=512, batch=256; flush_every=20000 vectors", um + ":40", thread="Thread-8")
    alloc = [3.2, 9.6, 16.1, 22.5, 28.9, 35.3, 41.8, 48.2, 54.6, 61.0, 67.5, 73.9]
    for k, a in enumerate(alloc):
        tt = b + 80 + k * 240
        c.W(tt, vm, s, "INFO", "Embed: bundle done, %d chunks, %d vectors pending upload, cuda allocated=%.2f GiB reserved=%.2f GiB" % (3072, 3072 * (k + 1), a, a + 0.9 + (k % 3) * 0.05),
            um + ":97", thread="Thread-%d" % (8 + k % 2))
        c.W(tt + 0.2, vm, s, "DEBUG", "finish_bundle: pending=%d < flush_every=20000, keeping tensors for next bundle" % (3072 * (k + 1)) if 3072 * (k + 1) < 20000 else
            "finish_bundle: pending=%d, flush deferred: last upload still in flight" % (3072 * (k + 1)), um + ":121", thread="Thread-%d" % (8 + k % 2))
    oom = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.02 GiB. GPU 0 has a total capacity of 79.25 GiB of which 611.94 MiB is free. "
           "Including non-PyTorch memory, this process has 78.64 GiB memory in use. Of the allocated memory 77.10 GiB is allocated by PyTorch, and "
           "1.04 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
           "to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")
    tbu = ('  File "%s", line 88, in process\n    emb = self._encode(batch)\n'
           '  File "%s", line 71, in _encode\n    out = self._model(**enc)\n'
           '  File "%s/torch/nn/modules/module.py", line 1736, in _wrapped_call_impl\n    return self._call_impl(*args, **kwargs)\n'
           '  File "%s/torch/nn/modules/module.py", line 1747, in _call_impl\n    return forward_call(*args, **kwargs)\n'
           '  File "%s/transformers/models/xlm_roberta/modeling_xlm_roberta.py", line 976, in forward\n    encoder_outputs = self.encoder(\n') % (um, um, c.site(), c.site(), c.site())
    attempts = []
    for rnd in range(4):
        tt = b + 80 + 12 * 240 + rnd * 31
        report_failure(c, tt, vm, s, "process_bundle-%d" % (1301 + rnd), process_tb(c, tbu), oom, "Embed")
        attempts.append((oom + " [while running 'Embed']", vm))
    for k in range(40):
        c.W(b + 90 + k * 71, vm, s, "DEBUG", "ChunkClaims: patent %s -> %d chunks" % ("EP%07dB1" % (3100000 + k * 977), 3 + k % 9), "/usr/local/lib/python3.12/site-packages/lexembed/chunk.py:33", thread="Thread-%d" % (8 + k % 2))
    failed4(c, b + 80 + 12 * 240 + 3 * 31 + 5, "S03:ReadPatents/ReadFromBigQuery/Read/Map(<lambda at iobase.py:911>)+ReadPatents/ReadFromBigQuery/_PassThroughThenCleanup/ParDo(PassThrough)+ChunkClaims+Embed+ToRows+WriteEmbeddings/StorageWriteToBigQuery/Convert", attempts, 1)
    evidence = ["torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.02 GiB.",
                "vectors pending upload, cuda allocated=73.90 GiB",
                "vectors pending upload, cuda allocated=3.20 GiB",
                "keeping tensors for next bundle"]
    truth = dict(
        outcome="failed",
        family="GPU memory leak across bundles (tensors kept on the GPU by the DoFn)",
        root_cause=("The Embed DoFn keeps every output embedding tensor on the GPU in self._pending and only uploads/clears them when 20,000 vectors "
                    "are pending; after that the flush is deferred while an earlier upload is 'in flight', so nothing is ever released. Allocated memory "
                    "grows by ~6.4 GiB per bundle (3.2 -> 73.9 GiB in the DoFn's own progress lines) until a normal 1 GiB forward-pass allocation fails "
                    "with torch.OutOfMemoryError. Retries land in the same process with the leaked tensors still referenced, so the work item fails 4 times. "
                    "It is a single SDK process on an 80 GB A100 - neither batch size nor several processes sharing the GPU. Fix: move embeddings to CPU "
                    "(.cpu()/numpy) and clear the buffer in finish_bundle; wrap inference in torch.inference_mode()."),
        setup="Batch backfill, Python 3.12, Beam 2.66.0, europe-west4-a, a2-ultragpu-1g (1x A100 80GB), single SDK process (no_use_multiple_sdk_containers).",
        evidence=evidence,
        red_herrings=["PyTorch's advice to set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (fragmentation is not the problem: only 1.04 GiB reserved-but-unallocated)",
                      "'Tried to allocate 1.02 GiB' looks like a batch-size problem", "hours of healthy-looking progress before the first error",
                      "sink export grouped by log name (job-message first), not in time order"],
        sources=["PyTorch OOM message format (torch >= 2.4 'torch.OutOfMemoryError ... GPU 0 has a total capacity of ... Including non-PyTorch memory, this process has ...'): reference §2b b3 (dify-official-plugins#599) and apache/beam#22811",
                 "SDK harness / failed-4-times wording as in hs8-03"],
        synthetic=["project, job, image, lexembed module and all its log lines (allocation numbers), timestamps, insertIds", "traceback line numbers", "the exact PyTorch OOM numbers; the sentence without the private-pools clause follows PyTorch's format when no private pool memory is used"],
    )
    return c, truth


# ---------------------------------------------------------------- hs8-10
@case
def hs8_10():
    c = Case("hs8-10", "product-bg-removal-t4", "okapi-marketplace", "377120945568", "us-east1",
             _dt.datetime(2025, 5, 14, 1, 0, 30, 500000, tzinfo=UTC), "3.10", "2.65.0", "gcloud", frac="trim", res_project_number=True)
    zone = "us-east1-c"
    vms = [c.vm("8nrx"), c.vm("k4gm"), c.vm("zz1p")]
    steps = ["ListProducts/Read/Impulse", "ListProducts/Read/Map(<lambda at iobase.py:911>)", "FetchImage", "RemoveBackground", "Thumbnail", "Upload"]
    t = job_preamble(c, 0, chain_fusing(steps))
    c.J(t, "INFO", "Executing operation ListProducts/Read/Impulse+ListProducts/Read/Map(<lambda at iobase.py:911>)+FetchImage+RemoveBackground+Thumbnail+Upload")
    worker_start_msgs(c, t + 0.5, "n1-standard-4", zone, 1)
    c.J(t + 120, "INFO", "Workers have started successfully.")
    o = opts(c, "'experiments': ['use_runner_v2'], 'dataflow_service_options': ['worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver'], 'machine_type': 'n1-standard-4', 'requirements_file': '/tmp/requirements.txt', 'max_num_workers': 12")
    um = "/usr/local/lib/python3.10/site-packages/okapi_img/bg.py"
    warn = ("/usr/local/lib/python3.10/site-packages/onnxruntime/capi/onnxruntime_inference_collection.py:115: UserWarning: Specified provider 'CUDAExecutionProvider' is not in available provider names.Available providers: 'AzureExecutionProvider, CPUExecutionProvider'\n  warnings.warn(")
    up = [0, 1100, 1700]
    for wi, vm in enumerate(vms):
        b = t + 80 + up[wi]
        vm_noise(c, b, vm)
        boot_lines(c, b + 20, vm)
        for j, s in enumerate(["sdk-0-0", "sdk-0-1", "sdk-0-2", "sdk-0-3"]):
            harness_start(c, b + 23 + j * 0.5, vm, s, o, 39990 + j * 3 + wi)
            c.W(b + 30 + j * 0.7, vm, s, "INFO", "RemoveBackground.setup: nvidia-smi sees 'Tesla T4' (driver 535.261.03), creating u2net session with providers ['CUDAExecutionProvider', 'CPUExecutionProvider']",
                um + ":29", thread="Thread-%d" % (11 + j))
            c.D(b + 31 + j * 0.7, vm, warn)
            c.W(b + 31.5 + j * 0.7, vm, s, "INFO", "RemoveBackground.setup: session ready, providers=['CPUExecutionProvider']", um + ":41", thread="Thread-%d" % (11 + j))
    if True:  # autoscaling because CPU inference is slow
        c.J(t + 1160, "INFO", "Autoscaling: Raised the number of workers to 2 based on the rate of progress in the currently running stage(s).")
        c.J(t + 1760, "INFO", "Autoscaling: Raised the number of workers to 3 based on the rate of progress in the currently running stage(s).")
    for k in range(22):
        vm = vms[0] if k < 10 else vms[k % 3]
        s = "sdk-0-%d" % (k % 4)
        c.W(t + 200 + k * 140, vm, s, "INFO", "RemoveBackground: %d images in %.1fs (%.2f img/s)" % (64, 118.0 + (k % 5) * 3.7, 64 / (118.0 + (k % 5) * 3.7)),
            um + ":77", thread="Thread-%d" % (11 + k % 4))
    end = t + 200 + 22 * 140 + 30
    c.J(end, "INFO", "Cleaning up.")
    c.J(end + 0.2, "DEBUG", "Starting worker pool teardown.")
    c.J(end + 0.25, "INFO", "Stopping worker pool...")
    c.J(end + 160, "INFO", "Autoscaling: Resized worker pool from 3 to 0.")
    c.J(end + 160.1, "INFO", "Worker pool stopped.")
    c.J(end + 160.3, "DEBUG", "Tearing down pending resources...")
    evidence = ["Specified provider 'CUDAExecutionProvider' is not in available provider names.Available providers: 'AzureExecutionProvider, CPUExecutionProvider'",
                "session ready, providers=['CPUExecutionProvider']",
                "Autoscaling: Raised the number of workers to 3"]
    truth = dict(
        outcome="succeeded_on_cpu",
        family="onnxruntime (CPU) and onnxruntime-gpu installed together; CPU build shadows the GPU build",
        root_cause=("requirements.txt installs onnxruntime-gpu, but rembg pulls in the plain onnxruntime package as a dependency. Both wheels install "
                    "into the same 'onnxruntime' import package and the CPU-only one won, so the CUDA execution provider does not exist: ONNX Runtime "
                    "warns that 'CUDAExecutionProvider' is not in the available providers (Azure, CPU) and every session runs on the CPU although "
                    "nvidia-smi sees the T4. The job succeeds, at ~0.5 images/s, and autoscaling adds workers. Fix: install only onnxruntime-gpu "
                    "(e.g. pip install rembg[gpu] or uninstall onnxruntime after installing rembg)."),
        setup="Batch, Python 3.10, Beam 2.65.0, us-east1-c, n1-standard-4 + 1x NVIDIA T4, requirements_file with rembg + onnxruntime-gpu, autoscaled 1->3 workers.",
        evidence=evidence,
        red_herrings=["the warning is a Python UserWarning on stderr among other ERROR-severity stderr lines", "nvidia-smi/driver lines show a working T4",
                      "the job ends normally (no failure message)"],
        sources=["ONNX Runtime warning text 'Specified provider ... is not in available provider names.Available providers: ...' (onnxruntime_inference_collection.py; public logs e.g. with 'AzureExecutionProvider, CPUExecutionProvider') and the known fix of uninstalling onnxruntime next to onnxruntime-gpu (public troubleshooting notes found via find_string)",
                 "Dataflow job-message and autoscaling wording: reference §2i"],
        synthetic=["project, job, okapi_img module and its log lines, driver version text, throughput numbers, timestamps, insertIds"],
    )
    return c, truth


# ---------------------------------------------------------------- hs8-11 healthy streaming
@case
def hs8_11():
    c = Case("hs8-11", "review-sentiment-stream-t4", "copperleaf-reviews", "512009834411", "northamerica-northeast1",
             _dt.datetime(2025, 10, 21, 13, 30, 0, 250000, tzinfo=UTC), "3.11", "2.68.0", "sinkgz", frac="6")
    zone = "northamerica-northeast1-c"
    vm = c.vm("r2de")
    steps = ["ReadReviews/Read", "ReadReviews/Map(_from_proto_str)", "Decode", "Window/WindowInto(WindowIntoFn)", "Sentiment/BeamML_RunInference_Preprocess-0",
             "Sentiment/BatchElements/ParDo(_WindowAwareBatchingDoFn)", "Sentiment/BeamML_RunInference", "Sentiment/BeamML_RunInference_Postprocess-0", "ToRow", "WriteBQ/StorageWriteToBigQuery/Convert"]
    t = job_preamble(c, 0, chain_fusing(steps), streaming=True)
    c.J(t, "INFO", "Executing operation ReadReviews/Read+ReadReviews/Map(_from_proto_str)+Decode+Window/WindowInto(WindowIntoFn)+Sentiment/BeamML_RunInference_Preprocess-0+Sentiment/BatchElements/ParDo(_WindowAwareBatchingDoFn)+Sentiment/BeamML_RunInference+Sentiment/BeamML_RunInference_Postprocess-0+ToRow+WriteBQ/StorageWriteToBigQuery/Convert")
    worker_start_msgs(c, t + 0.5, "n1-standard-4", zone, 1, streaming=True, maxw=3)
    c.J(t + 100, "INFO", "Workers have started successfully.")
    b = t + 70
    vm_noise(c, b, vm)
    o = opts(c, "'streaming': True, 'experiments': ['use_runner_v2', 'enable_streaming_engine', 'no_use_multiple_sdk_containers'], 'dataflow_service_options': ['worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver'], 'machine_type': 'n1-standard-4', 'sdk_container_image': 'northamerica-northeast1-docker.pkg.dev/copperleaf-reviews/df/sentiment:1.9'")
    s = "sdk-0-0"
    boot_lines(c, b + 25, vm)
    harness_start(c, b + 28, vm, s, o, 43100)
    um = "/usr/local/lib/python3.11/site-packages/reviews/model.py"
    c.W(b + 29, vm, s, "DEBUG", "config: {'model': 'cardiffnlp/twitter-xlm-roberta-base-sentiment', 'revision': 'f2f1202b1bdeb07342385c3f807f9c07cd8f5cf8', 'device': 'GPU', 'max_batch_size': 64, 'max_batch_duration_secs': 5, 'oom_backoff': {'enabled': True, 'min_batch': 8}}", um + ":18", thread="Thread-6")
    c.W(b + 31, vm, s, "INFO", "Loading model on cuda:0 (Tesla T4, 15.0 GiB); batch size chosen so peak usage stays far below out of memory range", um + ":40", thread="Thread-6")
    c.D(b + 33, vm, "huggingface/tokenizers: The current process just got forked, after parallelism has already been used. Disabling parallelism to avoid deadlocks...")
    c.D(b + 33.1, vm, "To disable this warning, you can either:\n\t- Avoid using `tokenizers` before the fork if possible\n\t- Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)")
    c.W(b + 36, vm, s, "INFO", "Model ready on cuda:0 in 4.9s", um + ":55", thread="Thread-6")
    # transient BigQuery / GCS retry that recovers
    c.W(b + 600, vm, s, "WARNING", "Retry with exponential backoff: waiting for 2.7 seconds before retrying _fetch_side_lexicon because we caught exception: "
        "ServiceUnavailable: 503 GET https://storage.googleapis.com/storage/v1/b/copperleaf-config/o/lexicon%2Fbrands.json?alt=media: We encountered an internal error. Please try again.",
        c.lg("utils/retry.py", 298), thread="Thread-14")
    c.W(b + 603, vm, s, "INFO", "side lexicon refreshed: 4172 brand aliases", um + ":122", thread="Thread-14")
    for k in range(60):
        tt = b + 60 + k * 55
        c.W(tt, vm, s, "INFO", "Sentiment: batch=%d latency=%dms gpu_mem=%.2fGiB" % (32 + (k * 7) % 33, 41 + (k * 13) % 60, 1.62 + (k % 4) * 0.03), um + ":88", thread="Thread-%d" % (20 + k % 3))
        if k % 9 == 4:
            c.W(tt + 1, vm, s, "DEBUG", "oom_backoff: no CUDA out of memory events in the last 10 minutes; keeping max_batch_size=64", um + ":141", thread="Thread-%d" % (20 + k % 3))
        if k % 15 == 7:
            c.D(tt + 2, vm, "Token indices sequence length is longer than the specified maximum sequence length for this model (612 > 512). Running this sequence through the model will result in indexing errors")
    c.J(b + 2400, "INFO", "Autoscaling: Raised the number of workers to 2 so that the pipeline can catch up with its backlog and keep up with its input rate.")
    c.J(b + 3100, "INFO", "Autoscaling: Resized worker pool from 2 to 1.")
    evidence = ["Loading model on cuda:0 (Tesla T4, 15.0 GiB)", "Model ready on cuda:0 in 4.9s"]
    truth = dict(
        outcome="succeeded",
        family="healthy streaming job (noise only)",
        root_cause=("No failure. The streaming RunInference job loads the sentiment model on the T4 and keeps classifying Pub/Sub reviews for the whole export "
                    "window with stable latency and ~1.6 GiB GPU memory. Noise: Beam boot line and tokenizers fork advice on stderr (ERROR severity), a "
                    "user config dump and advisory lines that contain 'out of memory', a GCS 503 that was retried and recovered, the tokenizer 'longer than "
                    "the specified maximum sequence length' note (the handler truncates), streaming autoscaling up and down."),
        setup="Streaming (Streaming Engine), Python 3.11, Beam 2.68.0, northamerica-northeast1-c, n1-standard-4 + 1x NVIDIA T4, single SDK process.",
        evidence=evidence,
        red_herrings=["'out of memory' in INFO/DEBUG advisory text", "ERROR-severity stderr: boot line, tokenizers fork warning, sequence-length note",
                      "retried GCS 503 WARNING", "Streaming Engine autoscaling WARNING"],
        sources=["tokenizers fork warning text (huggingface/tokenizers), transformers sequence-length warning text (transformers tokenization_utils_base)",
                 "Beam retry wording (apache_beam/utils/retry.py)", "Job messages: reference §2i"],
        synthetic=["everything job-specific: project, job, model config dump, user log lines, numbers, timestamps, insertIds"],
    )
    return c, truth


# ---------------------------------------------------------------- hs8-12 healthy batch 8xH100
@case
def hs8_12():
    c = Case("hs8-12", "contract-clause-extract-h100x8", "vantor-legal-ai", "271633908154", "us-central1",
             _dt.datetime(2026, 1, 8, 4, 0, 12, 0, tzinfo=UTC), "3.12", "2.70.0", "gcloud", frac="9")
    zone = "us-central1-a"
    vm = c.vm("b7hq")
    steps = ["ListContracts/Read/Impulse", "ListContracts/Read/Map(<lambda at iobase.py:911>)", "ExtractText", "Chunk", "Extract/BeamML_RunInference_Preprocess-0",
             "Extract/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)", "Extract/BeamML_RunInference", "Extract/BeamML_RunInference_Postprocess-0", "Validate", "WriteJsonl/Write/WriteImpl/WriteBundles"]
    t = job_preamble(c, 0, chain_fusing(steps))
    c.J(t, "INFO", "Executing operation ListContracts/Read/Impulse+ListContracts/Read/Map(<lambda at iobase.py:911>)+ExtractText+Chunk+Extract/BeamML_RunInference_Preprocess-0+Extract/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+Extract/BeamML_RunInference+Extract/BeamML_RunInference_Postprocess-0+Validate+WriteJsonl/Write/WriteImpl/WriteBundles")
    worker_start_msgs(c, t + 0.5, "a3-highgpu-8g", zone, 1)
    c.J(t + 240, "INFO", "Workers have started successfully.")
    b = t + 180
    vm_noise(c, b, vm)
    o = opts(c, "'experiments': ['use_runner_v2', 'no_use_multiple_sdk_containers'], 'dataflow_service_options': ['worker_accelerator=type:nvidia-h100-80gb;count:8;install-nvidia-driver:latest'], 'machine_type': 'a3-highgpu-8g', 'disk_size_gb': 500, 'sdk_container_image': 'us-central1-docker.pkg.dev/vantor-legal-ai/df/clause-extract:llama33-70b-r3'")
    s = "sdk-0-0"
    boot_lines(c, b + 40, vm)
    harness_start(c, b + 43, vm, s, o, 45001)
    um = "/usr/local/lib/python3.12/site-packages/clausex/handler.py"
    c.W(b + 44, vm, s, "DEBUG", "handler config: {'model_dir': '/models/Llama-3.3-70B-Instruct', 'torch_dtype': 'bfloat16', 'device_map': 'auto', 'max_memory': {0: '70GiB', 1: '70GiB', 2: '70GiB', 3: '70GiB', 4: '70GiB', 5: '70GiB', 6: '70GiB', 7: '70GiB'}, 'max_new_tokens': 512, 'batch': 8}", um + ":33", thread="Thread-7")
    c.W(b + 45, vm, s, "INFO", "Loading Llama-3.3-70B-Instruct across 8 GPUs with device_map='auto'", um + ":52", thread="Thread-7")
    for k in range(30):
        pct = int((k + 1) * 100 / 30)
        c.D(b + 50 + k * 11, vm, "Loading checkpoint shards: %3d%%|%s| %d/30 [%02d:%02d<%02d:%02d, 11.02s/it]" % (pct, "\u2588" * (pct // 10) + " " * (10 - pct // 10), k + 1, ((k + 1) * 11) // 60, ((k + 1) * 11) % 60, ((29 - k) * 11) // 60, ((29 - k) * 11) % 60))
    # long load -> Beam lull warning (harmless)
    c.W(b + 350, vm, s, "WARNING", "Operation ongoing in bundle process_bundle-1 for at least 300.04 seconds without outputting or completing.\nCurrent Traceback:\n  File \"/usr/local/lib/python3.12/threading.py\", line 1032, in _bootstrap\n    self._bootstrap_inner()",
        c.lg("runners/worker/sdk_worker.py", 465), thread="Thread-3")
    c.W(b + 385, vm, s, "INFO", "Model loaded in 340.2s; hf_device_map spans cuda:0..cuda:7, 17.1-18.4 GiB per GPU", um + ":70", thread="Thread-7")
    for k in range(34):
        tt = b + 400 + k * 95
        if k < 3:
            c.D(tt - 1, vm, "Setting `pad_token_id` to `eos_token_id`:128001 for open-end generation.")
        c.W(tt, vm, s, "INFO", "Extract: batch of 8 chunks -> %d clauses in %.1fs" % (11 + (k * 5) % 17, 21.0 + (k % 6) * 1.3), um + ":131", thread="Thread-%d" % (9 + k % 2))
        if k == 12:
            c.W(tt + 3, vm, s, "WARNING", "Validate: model output for chunk 4417/3 is not valid JSON (Expecting ',' delimiter: line 1 column 812 (char 811)); retrying once with temperature=0", "/usr/local/lib/python3.12/site-packages/clausex/validate.py:58", thread="Thread-10")
            c.W(tt + 25, vm, s, "INFO", "Validate: retry for chunk 4417/3 succeeded", "/usr/local/lib/python3.12/site-packages/clausex/validate.py:66", thread="Thread-10")
        if k == 20:
            c.W(tt + 2, vm, s, "INFO", "memory check: no out of memory risk, max allocated 18.9 GiB on cuda:7", um + ":150", thread="Thread-9")
    end = b + 400 + 34 * 95
    c.J(end, "INFO", "Finished operation ListContracts/Read/Impulse+ListContracts/Read/Map(<lambda at iobase.py:911>)+ExtractText+Chunk+Extract/BeamML_RunInference_Preprocess-0+Extract/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+Extract/BeamML_RunInference+Extract/BeamML_RunInference_Postprocess-0+Validate+WriteJsonl/Write/WriteImpl/WriteBundles")
    c.J(end + 1, "INFO", "Executing operation WriteJsonl/Write/WriteImpl/PreFinalize")
    c.J(end + 9, "INFO", "Finished operation WriteJsonl/Write/WriteImpl/PreFinalize")
    c.J(end + 10, "INFO", "Executing operation WriteJsonl/Write/WriteImpl/FinalizeWrite")
    c.J(end + 22, "INFO", "Finished operation WriteJsonl/Write/WriteImpl/FinalizeWrite")
    teardown(c, end + 23, 1)
    evidence = ["Model loaded in 340.2s", "Operation ongoing in bundle process_bundle-1 for at least 300.04 seconds without outputting or completing.", "Worker pool stopped."]
    truth = dict(
        outcome="succeeded",
        family="healthy batch job on 8x H100 (noise only)",
        root_cause=("No failure. Llama-3.3-70B is sharded over the eight H100s with device_map='auto' (~18 GiB each), the long checkpoint load produces one "
                    "'Operation ongoing' lull warning, batches then run steadily, one malformed-JSON output is retried successfully, the write finalises "
                    "and the pool is torn down normally. Noise: checkpoint-loading progress bars and pad_token_id notices on stderr (ERROR severity), "
                    "a DEBUG config dump with max_memory, an INFO line that says 'no out of memory risk', benign kubelet/system lines."),
        setup="Batch, Python 3.12, Beam 2.70.0, us-central1-a, a3-highgpu-8g (8x H100 80GB), single SDK process.",
        evidence=evidence,
        red_herrings=["'Operation ongoing ... without outputting or completing' WARNING during the model load", "stderr progress bars at ERROR severity",
                      "invalid-JSON WARNING that was retried", "'out of memory' text in an INFO line"],
        sources=["Beam 'Operation ongoing' lull warning (Dataflow common-errors template 'Operation ongoing for over TIME_INTERVAL ...' and Beam sdk_worker wording; reference §2f f7)",
                 "transformers 'Loading checkpoint shards' progress bar and pad_token_id notice (transformers source)", "Job messages and teardown: reference §2i"],
        synthetic=["everything job-specific: project, job, image, clausex module and its log lines, timings, timestamps, insertIds", "the exact Beam lull-warning sentence for this Beam version (form modelled on Beam's sdk_worker message)"],
    )
    return c, truth


# --------------------------------------------------------------------------
# YAML emitter (tiny, JSON-quoted scalars are valid YAML)
# --------------------------------------------------------------------------
def yq(s):
    return json.dumps(s, ensure_ascii=False)


def truth_yaml(c, tr):
    out = []
    out.append("case: %s" % yq(c.cid))
    out.append("job:")
    out.append("  id: %s" % yq(c.job_id))
    out.append("  name: %s" % yq(c.job_name))
    out.append("outcome: %s" % tr["outcome"])
    out.append("family: %s" % yq(tr["family"]))
    out.append("root_cause: %s" % yq(tr["root_cause"]))
    out.append("setup: %s" % yq(tr["setup"]))
    for key in ("evidence", "red_herrings", "sources", "synthetic"):
        out.append("%s:" % key)
        for v in tr[key]:
            out.append("  - %s" % yq(v))
    out.append("export:")
    out.append("  file: %s" % yq(c.render()[0]))
    out.append("  shape: %s" % yq({"gcloud": "gcloud logging read --format=json (JSON array, newest first, sorted keys)",
                                   "download": "Logs Explorer Download JSON (JSON array, oldest first)",
                                   "sink": "Cloud Storage sink NDJSON shards concatenated per log id (each shard oldest first)",
                                   "sinkgz": "Cloud Storage sink NDJSON, oldest first, gzip (mtime=0)"}[c.export]))
    return ("\n".join(out) + "\n").encode()


# --------------------------------------------------------------------------
# Build / check
# --------------------------------------------------------------------------
def build_all():
    files = {}
    meta = {}
    for fn in CASES:
        c, tr = fn()
        name, data = c.render()
        d = "cases/" + c.cid
        files[d + "/" + name] = data
        files[d + "/truth.yaml"] = truth_yaml(c, tr)
        meta[c.cid] = (c, tr, d + "/" + name)
    return files, meta


def load_export(path, data):
    if path.endswith(".gz"):
        data = gzip.decompress(data)
    text = data.decode("utf-8")
    if path.endswith(".ndjson") or path.endswith(".ndjson.gz"):
        return [json.loads(l) for l in text.splitlines() if l.strip()]
    return json.loads(text)


def payload_text(e):
    if "textPayload" in e:
        return e["textPayload"]
    return (e.get("jsonPayload") or {}).get("message", "")


def main():
    f1, meta = build_all()
    f2, _ = build_all()
    if f1 != f2:
        sys.exit("FAIL: two in-memory builds differ")
    print("determinism: two in-memory builds identical (%d files)" % len(f1))
    ok = True
    for rel, data in sorted(f1.items()):
        p = os.path.join(ROOT, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as fh:
            fh.write(data)
    for rel, data in sorted(f1.items()):
        with open(os.path.join(ROOT, rel), "rb") as fh:
            if fh.read() != data:
                print("FAIL: re-read differs for", rel)
                ok = False
    print("write/re-read: %s" % ("identical" if ok else "MISMATCH"))
    for cid in sorted(meta):
        c, tr, rel = meta[cid]
        entries = load_export(rel, f1[rel])
        n = len(entries)
        if not (100 <= n <= 250):
            print("FAIL: %s has %d entries" % (cid, n))
            ok = False
        texts = [payload_text(e) for e in entries]
        for ev in tr["evidence"]:
            if not any(ev in t for t in texts):
                print("FAIL: %s evidence not found verbatim: %r" % (cid, ev))
                ok = False
        ids = set()
        for e in entries:
            k = (e["insertId"], e["timestamp"])
            if k in ids:
                print("FAIL: %s duplicate insertId/timestamp %s" % (cid, k))
                ok = False
            ids.add(k)
            if e["resource"]["labels"]["job_id"] != c.job_id:
                print("FAIL: %s wrong job id" % cid)
                ok = False
        sev = {}
        logs = {}
        for e in entries:
            sev[e.get("severity", "DEFAULT")] = sev.get(e.get("severity", "DEFAULT"), 0) + 1
            ln = e["logName"].split("%2F")[-1]
            logs[ln] = logs.get(ln, 0) + 1
        print("%s  %-17s entries=%3d  outcome=%-16s evidence=%d/%d ok" % (cid, os.path.basename(rel), n, tr["outcome"], len(tr["evidence"]), len(tr["evidence"])))
        print("    severity: " + ", ".join("%s=%d" % kv for kv in sorted(sev.items())))
        print("    logs:     " + ", ".join("%s=%d" % kv for kv in sorted(logs.items())))
    if not ok:
        sys.exit("FAIL")
    print("ALL CHECKS PASSED")


if __name__ == "__main__":
    main()
