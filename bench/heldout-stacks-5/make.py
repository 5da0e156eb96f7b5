#!/usr/bin/env python3
"""Deterministic generator for the held-out set heldout-stacks-5 (hs5).

Writes cases/hs5-NN/export.json (a `gcloud logging read --format=json` style
array of LogEntry objects, newest first) and cases/hs5-NN/truth.yaml.

Run `python3 make.py`.  It builds every file twice in memory, checks that the
two builds are byte-identical, writes them, re-reads them from disk and checks
again, and checks the 100..250 entries-per-case bound.  Python 3 stdlib only.

All case content lives in cases_def.py (same folder).
"""
import json
import os
import random
import sys
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

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


# ---------------------------------------------------------------- driver
def build_all():
    import cases_def
    files = {}
    counts = {}
    for case in cases_def.CASES:
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
        ts = [d["timestamp"] for d in data]
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
