#!/usr/bin/env python3
"""Build heldout-stacks-13: 12 synthetic-but-realistic Dataflow GPU log exports (stdlib only)."""
import datetime, gzip, io, json, os, random, sys

HERE = os.path.dirname(os.path.abspath(__file__))

def ts(base, off, rng):
    t = base + datetime.timedelta(seconds=off)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%06d%03d" % (t.microsecond, rng.randint(0, 999)) + "Z"

def jsonl(s):
    return s

# ---------------------------------------------------------------- common pieces
PIP_ROOT = ("WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour "
            "with the system package manager. It is recommended to use a virtual environment instead: "
            "https://pip.pypa.io/warnings/venv")
TOK_FORK = ("huggingface/tokenizers: The current process just got forked, after parallelism has already been used. "
            "Disabling parallelism to avoid deadlocks...")

def start_block(c, W, t0, procs=("sdk-0-0",)):
    """worker start-up, driver install, boot, pip and harness start for worker W at offset t0."""
    E = []
    a = E.append
    a((t0 + 0.0, "system", "INFO", "Linux version 6.6.56+ (builder@localhost) (Chromium OS 17.0_pre498229-r33 clang version 17.0.0) #1 SMP PREEMPT_DYNAMIC", W))
    a((t0 + 1.2, "system", "INFO", "ima: No architecture policies found", W))
    a((t0 + 9.5, "system", "INFO", "Installing GPU driver version %s" % c["driver"], W))
    a((t0 + 52.0, "system", "INFO", "Verifying GPU driver installation", W))
    a((t0 + 55.3, "system", "INFO", "Finished installing the drivers.", W))
    a((t0 + 58.0, "worker-startup", "INFO", "Pulling image %s" % c["image_uri"], W))
    a((t0 + 61.0, "kubelet", "INFO", "Successfully pulled image \"%s\"" % c["image_uri"], W))
    for i, p in enumerate(procs):
        tp = t0 + 95 + i * 0.8
        a((tp, "wboot", "DEBUG", "Initializing python harness: /opt/apache/beam/boot --id=%s --provision_endpoint=localhost:12376" % p, W, p))
        a((tp + 1.0, "wboot", "DEBUG", "Installing setup packages ...", W, p))
        a((tp + 1.3, "wboot", "DEBUG", "Found artifact: requirements.txt", W, p))
        if i == 0:
            a((tp + 40, "docker", "INFO", "Successfully installed %s" % c["pip_installed"], W))
            a((tp + 40.4, "docker", "ERROR", PIP_ROOT, W))
        a((tp + 44, "wboot", "DEBUG", "Executing: python -m apache_beam.runners.worker.sdk_worker_main", W, p))
        h = tp + 50
        for k, m in enumerate([
            "Logging handler created.",
            "semi_persistent_directory: /var/opt/google",
            "Status HTTP server running at localhost:%d" % (40000 + hash(p) % 1000 if False else 43335 + i),
            "Python sdk harness started with pipeline_options: %s" % c["options"],
            "Creating state cache with size 0",
            "Creating insecure control channel for localhost:12371.",
            "Control channel established.",
            "Initializing SDKHarness with unbounded number of workers.",
            "Creating insecure state channel for localhost:12371.",
            "State channel established.",
            "Creating client data channel for localhost:12371",
        ]):
            logger = "sdk_worker_main.py:%d" % (110 + k) if k < 4 else "sdk_worker.py:%d" % (200 + k * 7)
            a((h + k * 0.05, "worker", "INFO", m, W, p, c["pyroot"] + "/apache_beam/runners/worker/" + logger, "MainThread"))
    return E

def job_start(c, n_workers, streaming=False):
    z = c["zone"]
    J = [
        (0.0, "job", "INFO", "Worker configuration: %s in %s." % (c["machine"], z)),
        (0.4, "job", "INFO", "Expanding SplittableParDo operations into optimizable parts."),
        (0.6, "job", "INFO", "Fusing adjacent ParDo, Read, Write, and Flatten operations"),
        (1.0, "job", "DEBUG", "Workflow config is missing a default resource spec."),
        (1.2, "job", "DEBUG", "Starting worker pool setup."),
        (1.5, "job", "INFO", "Starting %d workers in %s..." % (n_workers, z)),
    ]
    if streaming:
        J.append((2.0, "job", "WARNING", "Autoscaling is enabled for Dataflow Streaming Engine. Workers will scale between 1 and %d unless maxNumWorkers is specified." % c["maxw"]))
    else:
        J.append((2.0, "job", "INFO", "Autoscaling is enabled for job %s. The number of workers will be between 1 and %d." % (c["job_id"], c["maxw"])))
    return J

def teardown(t, nfrom):
    return [(t, "job", "INFO", "Cleaning up."), (t + 1, "job", "DEBUG", "Starting worker pool teardown."),
            (t + 1.5, "job", "INFO", "Stopping worker pool..."),
            (t + 95, "job", "INFO", "Autoscaling: Resized worker pool from %d to 0." % nfrom),
            (t + 96, "job", "INFO", "Worker pool stopped."), (t + 97, "job", "DEBUG", "Tearing down pending resources...")]

def wf_failed(step, workers):
    return ("Workflow failed. Causes: %s failed., The job failed because a work item has failed 4 times. Look in previous log "
            "entries for the cause of each one of the 4 failures. If the logs only contain generic timeout errors related to "
            "accessing external resources, such as MongoDB, verify that the worker service account has permission to access the "
            "resource's subnetwork. For more information, see https://cloud.google.com/dataflow/docs/guides/common-errors. The work "
            "item was attempted on these workers: \n      %s" % (step, "\n      ".join(workers)))

STUCK = ("Workflow failed. Causes: The Dataflow job appears to be stuck because no worker activity has been seen in the last 1h. "
         "Please check the worker logs in Stackdriver Logging. You can also get help with Cloud Dataflow at "
         "https://cloud.google.com/dataflow/support.")

def tb(frames, tail):
    s = "Traceback (most recent call last):\n"
    for f, ln, fn, code in frames:
        s += '  File "%s", line %d, in %s\n    %s\n' % (f, ln, fn, code)
    return s + tail

def beam_setup_frames(py):
    b = py + "/apache_beam"
    return [
        (b + "/runners/worker/sdk_worker.py", 311, "_execute", "response = task()"),
        (b + "/runners/worker/sdk_worker.py", 382, "<lambda>", "lambda: self.create_worker().do_instruction(request), request)"),
        (b + "/runners/worker/sdk_worker.py", 658, "do_instruction", "return getattr(self, request_type)("),
        (b + "/runners/worker/sdk_worker.py", 689, "process_bundle", "bundle_processor = self.bundle_processor_cache.get("),
        (b + "/runners/worker/bundle_processor.py", 1177, "create_execution_tree", "get_operation(transform_id))) for transform_id in sorted("),
        (b + "/runners/common.py", 1562, "apache_beam.runners.common.DoFnRunner._invoke_setup", "self.do_fn_invoker.invoke_setup()"),
        (b + "/runners/common.py", 578, "apache_beam.runners.common.DoFnInvoker.invoke_setup", "self.signature.setup_lifecycle_method.method_value()"),
    ]

def filler_lines(c, rng, n, t_lo, t_hi, workers, procs):
    out = []
    for i in range(n):
        t = rng.uniform(t_lo, t_hi)
        W = rng.choice(workers); p = rng.choice(procs)
        tmpl = rng.choice(c["filler"])
        msg = tmpl.format(n=rng.randint(1, 900), k=rng.randint(1000, 99000), ms=rng.randint(40, 2400), f=round(rng.uniform(0.1, 9.9), 2), s=rng.randint(0, 63))
        out.append((t, "worker", "INFO", msg, W, p, c["pyroot_user"], "Thread-%d" % rng.randint(12, 40)))
    return out

# ---------------------------------------------------------------- envelope
LOGS = {"job": "job-message", "worker": "worker", "wboot": "worker", "docker": "docker", "system": "system",
        "kubelet": "kubelet", "worker-startup": "worker-startup", "harness": "harness"}

def envelope(c, ev, rng, base, seq):
    t, kind, sev, msg = ev[0], ev[1], ev[2], ev[3]
    W = ev[4] if len(ev) > 4 else None
    log = LOGS[kind]
    e = {"logName": "projects/%s/logs/dataflow.googleapis.com%%2F%s" % (c["project"], log),
         "resource": {"type": "dataflow_step", "labels": {"job_id": c["job_id"], "job_name": c["job_name"],
                      "project_id": c["project"], "region": c["region"], "step_id": ""}},
         "severity": sev, "timestamp": ts(base, t, rng), "receiveTimestamp": ts(base, t + rng.uniform(0.3, 3.5), rng)}
    labels = {"dataflow.googleapis.com/job_id": c["job_id"], "dataflow.googleapis.com/job_name": c["job_name"],
              "dataflow.googleapis.com/region": c["region"]}
    if kind == "job":
        labels["dataflow.googleapis.com/log_type"] = "system"
        e["textPayload"] = msg
        e["insertId"] = "".join(rng.choice("0123456789abcdefghijklmnopqrstuvwxyz") for _ in range(12))
    else:
        labels.update({"compute.googleapis.com/resource_type": "instance", "compute.googleapis.com/resource_name": W,
                       "compute.googleapis.com/resource_id": c["vm_ids"][W]})
        if kind in ("worker", "wboot"):
            p = ev[5]
            jp = {"job": c["job_id"], "message": msg, "portability_worker_id": p, "worker": W}
            if kind == "worker":
                jp["logger"] = ev[6]; jp["thread"] = ev[7]
                if len(ev) > 8 and ev[8]:
                    e["resource"]["labels"]["step_id"] = ev[8]
            e["jsonPayload"] = jp
            e["insertId"] = "%x" % rng.getrandbits(52)
        else:
            e["jsonPayload"] = {"message": msg}
            if kind in ("system", "kubelet"):
                e["insertId"] = "s=%032x;i=%x;b=%032x;m=%x;t=%x;x=%016x" % (rng.getrandbits(128), seq, rng.getrandbits(128),
                                 rng.getrandbits(28), rng.getrandbits(48), rng.getrandbits(64))
            else:
                e["insertId"] = "%x" % rng.getrandbits(48)
        labels["dataflow.googleapis.com/log_type"] = "system" if kind in ("system", "kubelet", "docker", "worker-startup") else "supportability" if False else "system"
    e["labels"] = labels
    return e

# ---------------------------------------------------------------- shapes
def render(shape, entries, rng):
    entries = sorted(entries, key=lambda e: e["timestamp"])
    if shape == "gcloud":
        return json.dumps(list(reversed(entries)), indent=2, sort_keys=True).encode() + b"\n"
    if shape == "explorer":
        return json.dumps(entries, indent=2).encode() + b"\n"
    if shape == "sink":
        shards = {}
        for e in entries:
            k = (e["logName"].split("%2F")[1], e["timestamp"][:13])
            shards.setdefault(k, []).append(e)
        out = []
        for k in sorted(shards):
            lst = shards[k][:]
            rng.shuffle(lst)
            out += [json.dumps(x, separators=(",", ":")) for x in lst]
        return ("\n".join(out) + "\n").encode()
    if shape == "gz":
        raw = ("\n".join(json.dumps(x, separators=(",", ":")) for x in entries) + "\n").encode()
        bio = io.BytesIO()
        with gzip.GzipFile(fileobj=bio, mode="wb", mtime=0, filename="") as g:
            g.write(raw)
        return bio.getvalue()
    raise ValueError(shape)

def parse(shape, data):
    if shape in ("gcloud", "explorer"):
        return json.loads(data)
    if shape == "gz":
        data = gzip.decompress(data)
    return [json.loads(l) for l in data.decode().splitlines() if l.strip()]

with open(os.path.join(HERE, "cases_def.py")) as _fh:  # case definitions live next to this file
    exec(compile(_fh.read(), "cases_def.py", "exec"), globals())

def y(s):
    return json.dumps(s, ensure_ascii=False)

def truth_yaml(c, n):
    L = ["case: %s" % c["case"], "job:", "  id: %s" % y(c["job_id"]), "  name: %s" % y(c["job_name"]),
         "outcome: %s" % c["outcome"], "family: %s" % y(c["family"]), "one_line_truth: %s" % y(c["one_line"]),
         "root_cause:", "  summary: %s" % y(c["summary"]), "  fix: %s" % y(c["fix"]), "setup:"]
    for k in ("hardware", "sdk", "image", "pipeline", "gpu_option"):
        L.append("  %s: %s" % (k, y(c["setup"][k])))
    L.append("evidence:")
    L += ["  - %s" % y(s) for s in c["evidence"]]
    L.append("red_herrings:")
    for t, why in c["red_herrings"]:
        L += ["  - text: %s" % y(t), "    why: %s" % y(why)]
    L.append("sources:")
    for t, src in c["sources"]:
        L += ["  - line: %s" % y(t), "    source: %s" % y(src)]
    L.append("synthetic:")
    L += ["  - %s" % y(s) for s in c["synthetic"]]
    L += ["export:", "  shape: %s" % c["shape"], "  file: %s" % y(c["file"]), "  entries: %d" % n]
    return "\n".join(L) + "\n"

def build_all():
    out = {}
    for c in CASES:
        rng = random.Random("hs13-seed-" + c["case"])
        c["vm_ids"] = {w: str(rng.randrange(10**18, 10**19)) for w in c["workers"]}
        evs = c["events"](c, rng)
        base = datetime.datetime.strptime(c["start"], "%Y-%m-%dT%H:%M:%S")
        evs.sort(key=lambda e: e[0])
        entries = [envelope(c, ev, rng, base, i + 1) for i, ev in enumerate(evs)]
        data = render(c["shape"], entries, rng)
        out[c["case"]] = (data, len(entries), truth_yaml(c, len(entries)))
    return out

def check(c, data, n):
    ents = parse(c["shape"], data)
    assert len(ents) == n, (c["case"], len(ents), n)
    assert 100 <= n <= 250, (c["case"], n)
    payloads = []
    for e in ents:
        for k in ("logName", "resource", "timestamp", "severity", "insertId", "receiveTimestamp"):
            assert k in e, (c["case"], k)
        assert e["resource"]["type"] == "dataflow_step"
        for k in ("job_id", "job_name", "project_id", "region", "step_id"):
            assert k in e["resource"]["labels"]
        assert ("textPayload" in e) != ("jsonPayload" in e)
        payloads.append(e.get("textPayload") or e["jsonPayload"]["message"])
    blob = "\n\x00".join(payloads)
    for s in c["evidence"] + [t for t, _ in c["red_herrings"]]:
        assert any(s in p for p in payloads), (c["case"], "missing verbatim string", s)

def readme(results):
    rows = []
    for c in CASES:
        rows.append("| %s | %s | %s | %s | %s | `%s` (%s) | %d |" % (c["case"], c["stack"], c["family"], c["outcome"],
                    c["one_line"], c["file"], c["shape"], results[c["case"]][1]))
    return README_HEAD + "\n".join(rows) + "\n\n" + SHAPES + "\n"

README_HEAD = """# heldout-stacks-13: Dataflow GPU log exports (held-out test set)

Twelve synthetic-but-realistic Google Cloud Logging exports of Apache Beam Python jobs on Dataflow GPU workers (2025-2026 stacks), written as a blind held-out test set for a log-diagnosis tool: ten jobs that each had one real, publicly documented problem (seven failed batch jobs, one job stuck at start-up until Dataflow's 1h limit, one failed streaming job cancelled by the operator, one job that succeeded with silently wrong output and one that succeeded but silently ran on the CPU) and two healthy jobs full of harmless noise (one batch, one streaming). Each `cases/hs13-NN/` holds one export and a `truth.yaml` (job id/name, outcome, family, root cause with the fix, setup, verbatim evidence with the key line first, red herrings with the reason they are harmless, the public source of every real log line, what is invented, and the export's shape and entry count).

## How it was written

- Independence: written without looking at the diagnosis tool under test. The only inputs read under /work/main were this folder's `.exclusions-input.txt` (failure modes used by earlier sets; every case here differs from all of them by underlying cause, not just by wording or by the framework that prints it) and `../heldout-stacks-12/README.md` (only as a description of the expected layout; its cases, make.py and RESULTS.md were not opened). Other inputs: `/work/shared/reference/` (`dataflow-log-signatures.md` and the Dataflow GPU doc pages) and public material found with the search tools (issue threads, library source at tagged versions, release notes, docs, public logs quoting real output). No other file under /work/main was read (no project code, rules, corpus, docs, tools or other bench sets), nothing called `gpudiag` was run, /work/main/build* was not looked at, and no git command was used.
- Every failure is a real, publicly documented failure. Real library lines are written as the library prints them for the version the case states (format strings read in library source, or real outputs quoted in issue threads and public logs). `sources` in each truth.yaml names the source of each real line; `synthetic` lists what is invented (envelopes, ids, names, timestamps, the pipelines' own log lines, source line numbers in loggers and traceback frames, wrappers).
- Envelopes follow real LogEntry shapes: `logName` `projects/P/logs/dataflow.googleapis.com%2F<log>` for job-message, worker, worker-startup, docker, kubelet and system; `resource.type` `dataflow_step` with job_id/job_name/project_id/region/step_id; worker `jsonPayload` with job/logger/message/portability_worker_id/thread/worker (Beam boot.go lines, sent at DEBUG, carry no logger/thread); job messages as `textPayload`; journald cursors as `insertId` for system and kubelet; anything a process writes to stderr lands at ERROR in the docker log whatever it says; lines a DoFn relays from a child process (the vLLM server) land at INFO in the worker log.
- Every job has worker start-up, GPU-driver install lines, Beam boot/pip chatter, SDK harness start-up, the pipeline's own INFO lines and several red herrings. Failed batch jobs end with Dataflow's 'Workflow failed. Causes: ... a work item has failed 4 times' message and teardown; the stuck job ends with Dataflow's 1h stuck message; the failed streaming job ends when the operator cancels it (teardown only); succeeded jobs end with the normal teardown.
- `make.py` (Python standard library only; case definitions in `cases_def.py`) builds everything twice in memory with one seeded `random.Random` per case and gzip mtime 0, requires byte-identical output, checks that each export holds 100-250 LogEntry objects with the basic fields and that every evidence and red-herring string occurs verbatim in some payload, then writes `cases/` and this README. Re-run with `python3 make.py`.

## Cases

| case | stack / hardware | family | outcome | one-line truth | export | entries |
|---|---|---|---|---|---|---|
"""

SHAPES = ("Shapes: `gcloud` = `gcloud logging read --format=json` array, newest first, keys sorted, 2-space indent; "
          "`explorer` = Logs Explorer JSON download (`downloaded-logs-YYYYMMDD-HHMMSS.json`), oldest first; "
          "`sink` = Cloud Storage sink NDJSON shards (one per log id and hour, order inside a shard not guaranteed) concatenated; "
          "`gz` = gzipped NDJSON, oldest first.")

def main():
    a = build_all(); b = build_all()
    for k in a:
        assert a[k][0] == b[k][0] and a[k][2] == b[k][2], "non-deterministic output for " + k
    for c in CASES:
        check(c, a[c["case"]][0], a[c["case"]][1])
    for c in CASES:
        d = os.path.join(HERE, "cases", c["case"])
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
        with open(os.path.join(d, c["file"]), "wb") as fh:
            fh.write(a[c["case"]][0])
        with open(os.path.join(d, "truth.yaml"), "w") as fh:
            fh.write(a[c["case"]][2])
    with open(os.path.join(HERE, "README.md"), "w") as fh:
        fh.write(readme(a))
    for c in CASES:
        print("%s %-9s %-9s %3d entries  %s" % (c["case"], c["shape"], c["outcome"], a[c["case"]][1], c["file"]))
    print("OK: deterministic, all checks passed")

if __name__ == "__main__":
    sys.path.insert(0, HERE)
    main()
