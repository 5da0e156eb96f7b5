#!/usr/bin/env python3
"""gpudiag fetch and analyze --project through the real gcloud, against a stand-in for two REST APIs.

    python3 tests/fetch_gcloud.py --gpudiag build/cli/gpudiag            # every scenario
    python3 tests/fetch_gcloud.py --gpudiag build/cli/gpudiag --bench 100000   # time a 100k-entry job

The stand-in answers, on a random loopback port, what gcloud asks of:
  - Cloud Logging v2 `POST /v2/entries:list` ({filter, orderBy, pageSize, pageToken, resourceNames} →
    {entries, nextPageToken}): the filter's job id and `timestamp>=`/`<=` bounds are applied, entries are
    served oldest first in pages (capped below gcloud's pageSize of 1000, as the API may), and errors
    come as the API's {"error": {code, message, status}};
  - Dataflow v1b3 `GET /v1b3/projects/P/locations/R/jobs/J` (a Job, or a 404/403 error body).
gcloud is the installed one (it must be: without it the test fails, it does not skip), pointed at the
stand-in with CLOUDSDK_API_ENDPOINT_OVERRIDES_LOGGING/_DATAFLOW, CLOUDSDK_AUTH_DISABLE_CREDENTIALS and a
temporary CLOUDSDK_CONFIG.
"""

import argparse
import bisect
import datetime
import glob
import gzip
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASE = "gpu-oom-then-sdk-disconnected-work-item-failed"
PROJECT = "traffic-cams-ai"
REGION = "us-central1"


def when(ts):
    """An RFC 3339 time (any fraction) as a comparable (datetime, nanoseconds) pair."""
    m = re.match(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z$", ts)
    base = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S")
    return (base, int((m.group(2) or "0").ljust(9, "0")[:9]))


class Job:
    """A job the stand-in serves: its description and its entries, oldest first."""

    def __init__(self, description, entries, stages=None):
        self.description = description
        self.entries = sorted(entries, key=lambda e: when(e["timestamp"]))
        self.times = [when(e["timestamp"]) for e in self.entries]  # for bisect: a page costs its own entries
        # A running job (--follow): [(entries logged so far, state)], one step per jobs.get, the last kept.
        self.stages = stages
        self.describes = 0
        self.late = {}  # insertId → the stage (1-based) from which Cloud Logging has it: received late

    def visible(self):
        """How many of the entries have been logged, as of the last jobs.get."""
        if not self.stages:
            return len(self.entries)
        return self.stages[min(self.describes, len(self.stages)) - 1][0] if self.describes else 0

    def describe(self):
        if not self.stages:
            return self.description
        self.describes += 1
        state = self.stages[min(self.describes, len(self.stages)) - 1][1]
        return dict(self.description, currentState=state)


def corpus_job():
    with open(os.path.join(ROOT, "corpus", CASE, "export.json")) as f:
        entries = json.load(f)
    job_id = entries[0]["resource"]["labels"]["job_id"]
    first = min(entries, key=lambda e: when(e["timestamp"]))["timestamp"]
    last = max(entries, key=lambda e: when(e["timestamp"]))["timestamp"]
    return Job(job_description(job_id, entries[0]["resource"]["labels"].get("job_name", "job"), first, last,
                               "JOB_STATE_FAILED"), entries)


def running_job(job_id, stages):
    """The corpus job under another id, logging its entries in `stages` (see Job.stages)."""
    with open(os.path.join(ROOT, "corpus", CASE, "export.json")) as f:
        text = f.read()
    old_id = json.loads(text)[0]["resource"]["labels"]["job_id"]
    entries = json.loads(text.replace(old_id, job_id))
    first = min(entries, key=lambda e: when(e["timestamp"]))["timestamp"]
    last = max(entries, key=lambda e: when(e["timestamp"]))["timestamp"]
    return Job(job_description(job_id, entries[0]["resource"]["labels"].get("job_name", "job"), first, last,
                               "JOB_STATE_RUNNING"), entries, stages)


def job_description(job_id, name, created, ended, state):
    # The shape of projects.locations.jobs.get's Job (JOB_VIEW_ALL), the fields gpudiag reads.
    return {
        "id": job_id, "projectId": PROJECT, "name": name, "type": "JOB_TYPE_BATCH",
        "currentState": state, "currentStateTime": ended, "createTime": created, "startTime": created,
        "location": REGION,
        "environment": {"serviceOptions": ["worker_accelerator=type:nvidia-tesla-p4;count:1;install-nvidia-driver"],
                        "experiments": ["use_runner_v2"]},
        "jobMetadata": {"sdkVersion": {"version": "2.43.0", "versionDisplayName": "Apache Beam Python 3.9 SDK",
                                       "sdkSupportStatus": "SUPPORTED"}},
    }


def synthetic_job(n, same_time=3):
    """n entries, `same_time` of them at each timestamp (so a resume lands among equal timestamps)."""
    job_id = "2024-05-01_03_00_00-1234567890123456789"
    start = datetime.datetime(2024, 5, 1, 10, 0, 5)
    entries = []
    for i in range(n):
        t = start + datetime.timedelta(milliseconds=10 * (i // same_time))
        ts = t.strftime("%Y-%m-%dT%H:%M:%S.%f") + "Z"
        entries.append({
            "insertId": f"id{i:08d}", "logName": f"projects/{PROJECT}/logs/dataflow.googleapis.com%2Fworker",
            "receiveTimestamp": ts, "severity": "INFO", "timestamp": ts,
            "resource": {"type": "dataflow_step", "labels": {"job_id": job_id, "job_name": "synthetic",
                                                              "project_id": PROJECT, "region": REGION,
                                                              "step_id": ""}},
            "labels": {"compute.googleapis.com/resource_name": f"synthetic-05010300-abcd-harness-{i % 7}"},
            "jsonPayload": {"message": f"Processing bundle {i} of the synthetic job", "line": "sdk_worker.py:123"},
        })
    last = entries[-1]["timestamp"] if entries else "2024-05-01T10:00:05Z"
    return Job(job_description(job_id, "synthetic", "2024-05-01T10:00:00.000000Z", last, "JOB_STATE_DONE"), entries)


def api_error(code, status, message):
    return code, {"error": {"code": code, "message": message, "status": status}}


class StandIn:
    """The two endpoints, with faults to inject: {request number of entries:list: (code, body)}."""

    def __init__(self, jobs, page_cap=20):
        self.jobs = {j.description["id"]: j for j in jobs}
        self.page_cap = page_cap
        self.faults = {}         # nth entries:list request (1-based) → (code, body)
        self.always = None       # every entries:list request → (code, body)
        self.deny_jobs = set()   # jobs.get → 403
        self.delay = 0.0         # seconds before each entries:list answer
        self.requests = []       # (method, path, body)
        self.lock = threading.Lock()
        stand_in = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def reply(self, code, body):
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json; charset=UTF-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except BrokenPipeError:  # gcloud stopped (the Ctrl-C scenario)
                    pass

            def do_GET(self):
                with stand_in.lock:
                    stand_in.requests.append(("GET", self.path, None))
                if re.match(r"/v1b3/projects/[^/]+/jobs:aggregated", self.path):  # jobs list, every region
                    return self.reply(200, {"jobs": [dict(j.description) for j in stand_in.jobs.values()]})
                m = re.match(r"/v1b3/projects/([^/]+)/locations/([^/]+)/jobs/([^/?]+)", self.path)
                if not m:
                    return self.reply(*api_error(404, "NOT_FOUND", "no such path"))
                job = stand_in.jobs.get(m.group(3))
                if m.group(3) in stand_in.deny_jobs:
                    return self.reply(*api_error(403, "PERMISSION_DENIED",
                                                 f"Permission 'dataflow.jobs.get' denied on project: '{m.group(1)}'"))
                if job is None or m.group(2) != job.description["location"]:
                    return self.reply(*api_error(
                        404, "NOT_FOUND",
                        f"(8d4b1a6c2f5e3b70): Information about job {m.group(3)} could not be found in our system. "
                        "Please double check that the API being used is projectJobs.get or projectLocationJobs.get "
                        "with the correct location specified."))
                with stand_in.lock:
                    description = job.describe()
                return self.reply(200, description)

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                with stand_in.lock:
                    stand_in.requests.append(("POST", self.path, body))
                    n = sum(1 for r in stand_in.requests if r[0] == "POST")
                    fault = stand_in.faults.pop(n, None) or stand_in.always
                if not self.path.startswith("/v2/entries:list"):
                    return self.reply(*api_error(404, "NOT_FOUND", "no such path"))
                if fault:
                    return self.reply(*fault)
                time.sleep(stand_in.delay)
                return self.reply(200, stand_in.page(body))

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def page(self, body):
        flt = body.get("filter", "")
        m = re.search(r'resource\.labels\.job_id="([^"]+)"', flt)
        job = self.jobs.get(m.group(1)) if m else None
        if job is None:
            return {}
        lows = [when(t) for t in re.findall(r'timestamp>="([^"]+)"', flt)]
        highs = [when(t) for t in re.findall(r'timestamp<="([^"]+)"', flt)]
        first = bisect.bisect_left(job.times, max(lows)) if lows else 0
        end = bisect.bisect_right(job.times, min(highs)) if highs else len(job.times)
        end = min(end, job.visible())
        chosen = [e for e in job.entries[first:max(first, end)] if job.late.get(e["insertId"], 0) <= job.describes]
        if body.get("orderBy", "timestamp asc") != "timestamp asc":
            chosen.reverse()
        start = int(body.get("pageToken") or 0)
        size = min(int(body.get("pageSize", 1000)), self.page_cap)
        out = {}
        if chosen[start:start + size]:
            out["entries"] = chosen[start:start + size]
        if start + size < len(chosen):
            out["nextPageToken"] = str(start + size)
        return out

    def list_requests(self):
        return [r for r in self.requests if r[0] == "POST"]

    def stop(self):
        self.server.shutdown()


class Runner:
    def __init__(self, gpudiag, stand_in, work):
        self.gpudiag = gpudiag
        self.stand_in = stand_in
        self.work = work
        self.failures = []
        config = os.path.join(work, "gcloud-config")
        os.makedirs(config, exist_ok=True)
        endpoint = f"http://127.0.0.1:{stand_in.port}/"
        self.env = dict(os.environ, CLOUDSDK_CONFIG=config, CLOUDSDK_API_ENDPOINT_OVERRIDES_LOGGING=endpoint,
                        CLOUDSDK_API_ENDPOINT_OVERRIDES_DATAFLOW=endpoint, CLOUDSDK_AUTH_DISABLE_CREDENTIALS="true",
                        CLOUDSDK_CORE_DISABLE_PROMPTS="1", CLOUDSDK_CORE_PROJECT="unused-default-project",
                        GPUDIAG_FETCH_BACKOFF_MS="20", XDG_CACHE_HOME=os.path.join(work, "cache"))

    def run(self, args, env=None):
        return subprocess.run([self.gpudiag] + args, capture_output=True, text=True, env=env or self.env,
                              cwd=self.work, timeout=600)

    def check(self, what, ok, detail=""):
        print(("ok   " if ok else "FAIL ") + what + ("" if ok else f"\n     {detail}"))
        if not ok:
            self.failures.append(what)


def read_export(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def scenarios(r, corpus, synthetic):
    s = r.stand_in
    cid = corpus.description["id"]
    sid = synthetic.description["id"]
    base = ["--project", PROJECT, "--region", REGION]

    # Several pages: 85 entries in pages of 20, one gcloud run, every entry once, oldest first.
    s.requests.clear()
    p = r.run(["fetch", cid, *base, "-o", "oom.json"])
    export = read_export(os.path.join(r.work, "oom.json")) if p.returncode == 0 else []
    r.check("pages: exit 0", p.returncode == 0, p.stderr)
    r.check("pages: every entry once, oldest first",
            [e["insertId"] for e in export] == [e["insertId"] for e in corpus.entries], f"{len(export)} entries")
    lists = s.list_requests()
    r.check("pages: gcloud paged with pageToken", len(lists) == 5 and lists[1][2].get("pageToken") == "20",
            f"{[(b.get('pageToken'), b.get('pageSize')) for _, _, b in lists]}")
    flt = lists[0][2]["filter"] if lists else ""
    r.check("pages: the job's window in the filter, oldest first",
            'resource.labels.job_id="%s"' % cid in flt and 'timestamp>="2022-11-28T21:50:41Z"' in flt
            and 'timestamp<="2022-11-28T22:39:25Z"' in flt and lists[0][2].get("orderBy") == "timestamp asc", flt)
    gets = [q for q in s.requests if q[0] == "GET"]
    r.check("pages: the description from jobs.get (JOB_VIEW_ALL)",
            gets and gets[0][1].startswith(f"/v1b3/projects/{PROJECT}/locations/{REGION}/jobs/{cid}")
            and "view=JOB_VIEW_ALL" in gets[0][1], f"{gets}")
    job = json.load(open(os.path.join(r.work, "oom.job.json"))) if p.returncode == 0 else {}
    r.check("pages: the job file is the description, noted complete",
            job.get("id") == cid and job.get("gpudiagFetch", {}).get("complete") is True
            and job["gpudiagFetch"].get("entries") == 85, json.dumps(job.get("gpudiagFetch")))
    a = r.run(["analyze", "--job", "oom.job.json", "oom.json"])
    r.check("pages: analyze --job reads the fetched pair", a.returncode == 0 and "FAILED — most likely cause: GPU ran "
            "out of memory" in a.stdout, a.stderr + a.stdout[:400])

    # An existing export is not replaced without --force.
    again = r.run(["fetch", cid, *base, "-o", "oom.json"])
    r.check("exists: exit 2 without --force", again.returncode == 2 and "--force" in again.stderr, again.stderr)
    forced = r.run(["fetch", cid, *base, "-o", "oom.json", "--force"])
    r.check("exists: --force replaces it", forced.returncode == 0, forced.stderr)

    # A 429 in the middle: gcloud prints what it had and exits 1; gpudiag resumes after a backoff.
    s.requests.clear()
    s.faults = {3: api_error(429, "RESOURCE_EXHAUSTED",
                             "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute' of "
                             "service 'logging.googleapis.com' for consumer 'project_number:123'.")}
    p = r.run(["fetch", sid, *base, "-o", "syn.json.gz"])
    export = read_export(os.path.join(r.work, "syn.json.gz")) if p.returncode == 0 else []
    ids = [e["insertId"] for e in export]
    r.check("429: exit 0 after the resume", p.returncode == 0, p.stderr)
    r.check("429: every entry exactly once, in order (gzip)", ids == [e["insertId"] for e in synthetic.entries],
            f"{len(ids)} entries, {len(set(ids))} distinct, want {len(synthetic.entries)}")
    lists = s.list_requests()
    resumed = [b for _, _, b in lists if b["filter"].count("timestamp>=") == 2]
    r.check("429: resumed from the last timestamp kept", resumed and not resumed[0].get("pageToken")
            and f'timestamp>="{synthetic.entries[39]["timestamp"]}"' in resumed[0]["filter"],
            f"{[b['filter'][-60:] for _, _, b in lists]}")
    r.check("429: two gcloud runs", "2 gcloud logging read runs" in p.stderr, p.stderr)

    # Quota still exhausted after the retries: written, marked, exit 2; analyze says input not read in full.
    s.requests.clear()
    s.faults = {}
    s.always = api_error(429, "RESOURCE_EXHAUSTED", "Quota exceeded for quota metric 'Read requests'.")
    p = r.run(["fetch", sid, *base, "-o", "part.json"])
    s.always = None
    r.check("429 always: exit 2 with how long it waited",
            p.returncode == 2 and "fetch-incomplete" in p.stderr and "after 6 retries" in p.stderr, p.stderr)
    job = json.load(open(os.path.join(r.work, "part.job.json"))) if os.path.exists(
        os.path.join(r.work, "part.job.json")) else {}
    r.check("429 always: the job file says not complete", job.get("gpudiagFetch", {}).get("complete") is False,
            json.dumps(job.get("gpudiagFetch")))
    a = r.run(["analyze", "--format", "json", "--job", "part.job.json", "part.json"])
    try:
        report = json.loads(a.stdout)
    except ValueError:
        report = {}
    codes = [e.get("code") for e in report.get("input_errors", [])]
    r.check("429 always: analyze reports the export as not read in full",
            "fetch-incomplete" in codes and a.returncode == 2, f"exit {a.returncode}, codes {codes}, {a.stderr[:300]}")

    # A job that is not there: 404, exit 2, what to check, nothing left behind.
    before = set(os.listdir(r.work))
    p = r.run(["fetch", "2024-05-01_03_00_00-999", *base, "-o", "nope.json"])
    r.check("404: exit 2, says to check the id and region",
            p.returncode == 2 and "fetch-job-not-found" in p.stderr and "--region" in p.stderr
            and "could not be found" in p.stderr, p.stderr)
    r.check("404: nothing left behind", set(os.listdir(r.work)) == before, f"{set(os.listdir(r.work)) - before}")

    # Permission denied, on the job and on its logs.
    s.deny_jobs = {cid}
    p = r.run(["fetch", cid, *base, "-o", "denied.json"])
    s.deny_jobs = set()
    r.check("403 jobs.get: exit 2 naming roles/dataflow.viewer",
            p.returncode == 2 and "roles/dataflow.viewer" in p.stderr and "PERMISSION_DENIED" in p.stderr, p.stderr)
    s.always = api_error(403, "PERMISSION_DENIED",
                         "Permission 'logging.logEntries.list' denied on resource (or it may not exist).")
    p = r.run(["fetch", cid, *base, "-o", "denied.json"])
    s.always = None
    r.check("403 entries:list: exit 2 naming roles/logging.viewer",
            p.returncode == 2 and "roles/logging.viewer" in p.stderr, p.stderr)
    r.check("403: nothing left behind", set(os.listdir(r.work)) == before, f"{set(os.listdir(r.work)) - before}")

    # Not logged in: no credentials, none disabled.
    env = dict(r.env)
    del env["CLOUDSDK_AUTH_DISABLE_CREDENTIALS"]
    env["CLOUDSDK_CONFIG"] = os.path.join(r.work, "empty-gcloud-config")
    p = r.run(["fetch", cid, *base, "-o", "nologin.json"], env=env)
    r.check("not logged in: exit 2, gcloud auth login",
            p.returncode == 2 and "fetch-not-logged-in" in p.stderr and "gcloud auth login" in p.stderr, p.stderr)

    # gcloud missing: a PATH without it.
    env = dict(r.env, PATH="/nonexistent")
    p = r.run(["fetch", cid, *base, "-o", "missing.json"], env=env)
    r.check("gcloud missing: exit 2, how to install google-cloud-cli",
            p.returncode == 2 and "fetch-gcloud-missing" in p.stderr and "google-cloud-cli" in p.stderr, p.stderr)

    # Ctrl-C while gcloud reads: gcloud is stopped, nothing is left behind, exit 130 as analyze's.
    s.delay = 3.0
    before = set(os.listdir(r.work))
    asked = len(s.list_requests())
    proc = subprocess.Popen([r.gpudiag, "fetch", cid, *base, "-o", "interrupted.json"], cwd=r.work, env=r.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while len(s.list_requests()) == asked and time.monotonic() < deadline:
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    s.delay = 0.0
    r.check("Ctrl-C: exit 130, nothing left behind",
            proc.returncode == 130 and set(os.listdir(r.work)) == before and "interrupted" in err,
            f"exit {proc.returncode}, {set(os.listdir(r.work)) ^ before}, {err[:300]}")

    # An empty window: a job with no entries.
    empty = synthetic_job(0)
    empty.description["id"] = "2024-05-01_03_00_00-555"
    s.jobs[empty.description["id"]] = empty
    p = r.run(["fetch", "2024-05-01_03_00_00-555", *base, "-o", "empty.json"])
    r.check("empty window: exit 0 and an empty array", p.returncode == 0 and read_export(
        os.path.join(r.work, "empty.json")) == [] and "(0 entries" in p.stderr, p.stderr)

    # analyze --project --job-id: fetched into the cache, then reused (the job has ended, the export is whole).
    s.requests.clear()
    a = r.run(["analyze", "--brief", *base, "--job-id", cid])
    r.check("analyze --project: fetches and diagnoses",
            a.returncode == 0 and "GPU ran out of memory" in a.stdout and "fetched 85 entries" in a.stderr,
            a.stderr + a.stdout[:300])
    cached = os.path.join(r.work, "cache", "gpudiag", "fetch", PROJECT, REGION, cid + ".json.gz")
    r.check("analyze --project: the export is in $XDG_CACHE_HOME", os.path.exists(cached), cached)
    n = len(s.requests)
    g = r.run(["gate", *base, "--job-id", cid])
    r.check("gate --project: the cached export is reused (no request), the gate trips",
            g.returncode == 1 and len(s.requests) == n and "using the export fetched before" in g.stderr,
            f"exit {g.returncode}, {len(s.requests) - n} requests, {g.stderr[:300]}")
    offline = f"export: {cached} (fetched; offline: gpudiag analyze --job {cached[:-len('.json.gz')]}.job.json {cached})"
    r.check("gate --project: the report's header names the export, and how to re-run it offline",
            offline in g.stdout, g.stdout[:600])
    trimmed = r.run(["analyze", "-q", *base, "--job-id", sid], env=dict(r.env, GPUDIAG_CACHE_MAX_MB="0"))
    kept = os.path.join(r.work, "cache", "gpudiag", "fetch", PROJECT, REGION, sid + ".json.gz")
    r.check("cache: bounded, the oldest out first, never the job just fetched",
            trimmed.returncode == 0 and not os.path.exists(cached) and os.path.exists(kept),
            f"exit {trimmed.returncode}, {os.path.exists(cached)} {os.path.exists(kept)} {trimmed.stderr[:300]}")
    both = r.run(["analyze", "--project", PROJECT, "--job-id", cid, "oom.json"])
    r.check("analyze --project with a path: usage error", both.returncode == 2 and "not both" in both.stderr,
            both.stderr)
    none = r.run(["analyze", "--project", PROJECT])
    r.check("analyze --project without --job-id: usage error", none.returncode == 2 and "--job-id" in none.stderr,
            none.stderr)
    region = r.run(["analyze", "--region", REGION, "oom.json"])
    r.check("analyze --region without --project: usage error", region.returncode == 2 and "--project" in region.stderr,
            region.stderr)
    sel = r.run(["analyze", "--job-id", cid, "oom.json"])
    r.check("analyze --job-id X PATH still reads PATH", sel.returncode == 0 and "GPU ran out of memory" in sel.stdout,
            sel.stderr)


def region_scenarios(r):
    """A job outside gcloud's default region, fetched without --region: found in the jobs of every region."""
    s = r.stand_in
    eid = "2022-11-28_14_05_40-1000000000000000003"
    job = running_job(eid, None)
    job.description.update(location="europe-west4", currentState="JOB_STATE_FAILED")
    s.jobs[eid] = job
    s.requests.clear()
    p = r.run(["fetch", eid, "--project", PROJECT, "-o", "europe.json"])
    described = [q[1] for q in s.requests if q[0] == "GET" and "/jobs/" + eid in q[1]]
    r.check("region: a job in another region is found without --region", p.returncode == 0 and
            "is in region europe-west4" in p.stderr and len(described) == 2 and
            "/locations/us-central1/" in described[0] and "/locations/europe-west4/" in described[1],
            p.stderr[-600:] + f"{described}")
    missing = r.run(["fetch", "2022-11-28_14_05_40-1000000000000000009", "--project", PROJECT, "-o", "nowhere.json"])
    r.check("region: a job in no region says so, exit 2", missing.returncode == 2 and
            "nor any other region" in missing.stderr and not os.path.exists(os.path.join(r.work, "nowhere.json")),
            missing.stderr[-600:])


def follow_scenarios(r):
    """analyze --follow: a running job polled until it ends, and one followed until Ctrl-C."""
    s = r.stand_in
    base = ["--project", PROJECT, "--region", REGION]
    # Three polls: 20 entries, 50, then all 85 and the job failed. The cuts fall among entries of one
    # timestamp, so a poll resumes at `timestamp>=` the last one seen and drops what it had by insertId.
    fid = "2022-11-28_14_05_40-1000000000000000001"
    s.jobs[fid] = running_job(fid, [(20, "JOB_STATE_RUNNING"), (50, "JOB_STATE_RUNNING"), (85, "JOB_STATE_FAILED")])
    # The 18th entry reaches Cloud Logging late: only by the second poll, older than the last one seen.
    late = s.jobs[fid].entries[17]
    s.jobs[fid].late[late["insertId"]] = 2
    assert when(s.jobs[fid].entries[19]["timestamp"])[0] - when(late["timestamp"])[0] < datetime.timedelta(minutes=2)
    s.requests.clear()
    p = r.run(["analyze", *base, "--job-id", fid, "--follow", "--poll-interval", "1", "--format", "json"])
    report = json.loads(p.stdout) if p.stdout.strip().startswith("{") else {}
    r.check("follow: exit 0 at the job's end (analyze's code), with the report",
            p.returncode == 0 and report.get("job", {}).get("outcome") == "failed", p.stderr[-800:])
    totals = report.get("totals", {})
    r.check("follow: every entry once across the polls, the late one too", totals.get("entries") == 85 and
            totals.get("duplicates") == 0, json.dumps(totals))
    polls = re.findall(r"follow: poll (\d+): (\d+) new entries, (\d+) in all, (\S+)", p.stderr)
    r.check("follow: polled until the job ended", [(int(n), st) for _, n, _, st in polls] ==
            [(19, "JOB_STATE_RUNNING"), (31, "JOB_STATE_RUNNING"), (35, "JOB_STATE_FAILED")], f"{polls}")
    since = [re.search(r'timestamp>="([^"]+)"', b["filter"]).group(1) for _, _, b in s.list_requests()]
    # Poll 1 reads from the job's creation less 15 minutes; the next from the last entry seen less the
    # two minutes' lookback for entries Cloud Logging receives late.
    r.check("follow: a poll reads from the last entry seen, less the lookback", len(since) >= 3 and
            since[0] == "2022-11-28T21:50:41Z" and since[1] > since[0] and since[-1] >= since[1], f"{since}")
    told = re.findall(r"^\d\d:\d\d:\d\d new: \[[A-Z]+\] .*\(([^()]+)\), (?:\d+ entr|from the job's conf)", p.stderr,
                      re.M)
    r.check("follow: each finding told once, as it appeared", len(told) == len(set(told)) and
            {f["rule_id"] for f in report.get("findings", [])} <= set(told) and
            p.stderr.index("new: ") > p.stderr.index("follow: poll 1"), f"{told}")
    oom = p.stderr.find("(gpu-out-of-memory)")
    r.check("follow: the out-of-memory finding told at the poll that brought it", oom > p.stderr.find("poll 2:") > 0
            or oom > p.stderr.find("poll 1:") >= 0, p.stderr[:1500])

    # Ctrl-C: a job still running; the report of what came (outcome running, nothing incomplete), exit 0.
    cid = "2022-11-28_14_05_40-1000000000000000002"
    s.jobs[cid] = running_job(cid, [(40, "JOB_STATE_RUNNING")])
    proc = subprocess.Popen([r.gpudiag, "analyze", *base, "--job-id", cid, "--follow", "--poll-interval", "1"],
                            cwd=r.work, env=r.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while s.jobs[cid].describes < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    r.check("follow Ctrl-C: exit 0 (analyze's code, not 130) with the report", proc.returncode == 0 and
            f"gpudiag 0.1.0 — job {cid}" in out, f"exit {proc.returncode}\n" + err[-800:] + out[:800])
    r.check("follow Ctrl-C: not an input read in part", "interrupted" not in out and "incomplete" not in out.lower(),
            out[:1200])
    r.check("follow Ctrl-C: the report's header names the pieces and the offline command",
            re.search(r"export: \S+\.follow/\*\.entries\.json \(\d+ pieces?; offline: gpudiag analyze --job \S+"
                      r"\.entries\.job\.json \S+\.follow/\*\.entries\.json\)", out) is not None, out[:700])
    r.check("follow Ctrl-C: the findings so far, told before the report", "new: [" in out and
            out.index("new: [") < out.index("gpudiag "), out[:600])
    pieces = os.path.join(r.work, "cache", "gpudiag", "fetch", PROJECT, REGION, cid + ".follow")
    descriptions = glob.glob(os.path.join(pieces, "*.entries.job.json"))
    r.check("follow Ctrl-C: one description kept, the latest", len(descriptions) == 1, f"{descriptions}")
    j = r.run(["analyze", "--format", "json", "--job", *descriptions[:1],
               *sorted(glob.glob(os.path.join(pieces, "*.entries.json")))])
    again = json.loads(j.stdout) if j.stdout.strip().startswith("{") else {}
    r.check("follow Ctrl-C: the pieces it kept re-run offline", again.get("totals", {}).get("entries") == 40 and
            again.get("job", {}).get("outcome") == "running", j.stderr[-600:])


def bench(r, n):
    """The time to fetch an n-entry job, and where it goes: the stand-in's pages alone, gcloud without
    printing (--format=none: the API's JSON decoded into its messages), gcloud printing JSON, gpudiag
    fetch (gcloud and gpudiag's own work), and the analysis of the result."""
    job = synthetic_job(n)
    r.stand_in.jobs[job.description["id"]] = job
    r.stand_in.page_cap = 1000
    r.stand_in.requests.clear()
    t = time.monotonic()
    p = r.run(["fetch", job.description["id"], "--project", PROJECT, "--region", REGION, "-o", "bench.json",
               "--force"])
    fetch_s = time.monotonic() - t
    pages = len(r.stand_in.list_requests())
    size = os.path.getsize(os.path.join(r.work, "bench.json"))
    flt = json.load(open(os.path.join(r.work, "bench.job.json")))["gpudiagFetch"]["filter"]
    # The pages alone, as gcloud asks for them, over HTTP from this process.
    import urllib.request
    t = time.monotonic()
    token = None
    while True:
        body = {"filter": flt, "orderBy": "timestamp asc", "pageSize": 1000, "resourceNames": [f"projects/{PROJECT}"]}
        if token:
            body["pageToken"] = token
        req = urllib.request.Request(f"http://127.0.0.1:{r.stand_in.port}/v2/entries:list?alt=json",
                                     data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
        token = json.load(urllib.request.urlopen(req)).get("nextPageToken")
        if not token:
            break
    pages_s = time.monotonic() - t
    timings = {}
    for fmt in ("none", "json"):
        t = time.monotonic()
        with open(os.path.join(r.work, "gcloud-alone.json"), "w") as out:
            subprocess.run(["gcloud", "logging", "read", flt, "--order=asc", f"--format={fmt}",
                            f"--project={PROJECT}"], stdout=out, env=r.env, check=True)
        timings[fmt] = time.monotonic() - t
    t = time.monotonic()
    a = r.run(["analyze", "-q", "--job", "bench.job.json", "bench.json"])
    analyze_s = time.monotonic() - t
    print(f"bench: {n} entries, {pages} pages, export {size / 1e6:.1f} MB: gpudiag fetch {fetch_s:.1f} s "
          f"(exit {p.returncode}); the stand-in's pages alone {pages_s:.1f} s; gcloud logging read "
          f"--format=none {timings['none']:.1f} s, --format=json {timings['json']:.1f} s; "
          f"gpudiag analyze of the export {analyze_s:.1f} s (exit {a.returncode})")
    return 0 if p.returncode == 0 else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpudiag", required=True)
    ap.add_argument("--bench", type=int, default=0, help="time a fetch of this many entries")
    args = ap.parse_args()
    if shutil.which("gcloud") is None:
        print("FAIL gcloud is not on PATH: these tests run the real gcloud. Install google-cloud-cli from Google's apt "
              "repository (https://cloud.google.com/sdk/docs/install#deb), then run them again.")
        return 1
    corpus = corpus_job()
    synthetic = synthetic_job(100)
    stand_in = StandIn([corpus, synthetic])
    with tempfile.TemporaryDirectory(prefix="gpudiag-fetch-") as work:
        r = Runner(os.path.abspath(args.gpudiag), stand_in, work)
        try:
            if args.bench:
                return bench(r, args.bench)
            scenarios(r, corpus, synthetic)
            follow_scenarios(r)
            region_scenarios(r)
        finally:
            stand_in.stop()
    print(f"{len(r.failures)} failed" if r.failures else "all passed")
    return 1 if r.failures else 0


if __name__ == "__main__":
    sys.exit(main())
