"""The relation "healthy-jobs-added" (tools/metamorphic/README.md): a project-wide export or a sink
shard holds other jobs beside the one that failed. A case's export with the entries of one or two
healthy corpus cases added — their job ids, job names, worker VM names and insertIds rewritten to
fresh ones, their project set to the case's, their timestamps shifted — must leave the case's own
job analysed as before, and the added jobs ok.

Two placements:
- `healthy-jobs-interleaved`: the added jobs run at the same time as the case's job; their entries
  are merged into the case's by timestamp (the case's own order is kept, whatever it is);
- `healthy-jobs-first`: the added job ran after the case's job and the export is newest first, as a
  project export read with `gcloud logging read` is: the other job's entries come first in the file.
"""

import calendar
import json
import random
import re
import time

from exports import Item, parse_items, case_inputs, write_array

_TS = re.compile(r"^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(\.\d+)?(Z|[+-]\d\d:?\d\d)?$")
_JOB_ID = re.compile(r"^(\d{4})-(\d\d)-(\d\d)_(\d\d)_(\d\d)_(\d\d)-(\d+)$")
_VM = re.compile(r"\b[a-z][a-z0-9-]*-harness-[a-z0-9]{4}\b")


def seconds(ts):
    """An RFC 3339 timestamp as (whole seconds since the epoch, fraction text), or None."""
    if not isinstance(ts, str):
        return None
    m = _TS.match(ts)
    if not m:
        return None
    whole = calendar.timegm(tuple(int(x) for x in m.groups()[:6]))
    zone = m.group(8) or "Z"
    if zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        digits = zone[1:].replace(":", "")
        whole -= sign * (int(digits[:2]) * 3600 + int(digits[2:]) * 60)
    return whole, m.group(7) or ""


def sort_key(ts):
    s = seconds(ts)
    return None if s is None else (s[0], float("0" + s[1]) if s[1] else 0.0)


def _format(whole, fraction):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + fraction + "Z"


def shift_timestamp(ts, by):
    s = seconds(ts)
    return ts if s is None else _format(s[0] + by, s[1])


def _job_of(entry):
    res = entry.get("resource") if isinstance(entry.get("resource"), dict) else {}
    labels = res.get("labels") if isinstance(res.get("labels"), dict) else {}
    top = entry.get("labels") if isinstance(entry.get("labels"), dict) else {}
    return (labels.get("job_id") or top.get("dataflow.googleapis.com/job_id"),
            labels.get("job_name") or top.get("dataflow.googleapis.com/job_name"),
            labels.get("project_id"))


class Healthy:
    """A healthy corpus case, read once: its entries, its one job's id, name and project, its span."""

    def __init__(self, name):
        self.name = name
        self.items = []
        for path in case_inputs(f"corpus/{name}"):
            self.items += parse_items(path, path)[0]
        if any(i.entry is None for i in self.items):
            raise ValueError(f"healthy case {name} has unparsable lines; it cannot be added to another export")
        ids = {_job_of(i.entry)[0] for i in self.items} - {None}
        if len(ids) != 1:
            raise ValueError(f"healthy case {name} holds {len(ids)} job ids, not one")
        self.job_id = ids.pop()
        self.job_name = next(n for _, n, _ in (_job_of(i.entry) for i in self.items) if n)
        self.project = next((p for _, _, p in (_job_of(i.entry) for i in self.items) if p), None)
        stamps = [s for s in (seconds(i.entry.get("timestamp")) for i in self.items) if s]
        self.start, self.end = min(s[0] for s in stamps), max(s[0] for s in stamps)
        self.entries = None  # its own analysis' entry count, filled in by run.py

    def copy_as(self, tag, shift, project, rnd):
        """The entries as another job's: fresh job id (its date moved by `shift` seconds like the
        timestamps), name, VM names and insertIds, `project` instead of the case's own project.
        Returns (new job id, new job name, items)."""
        m = _JOB_ID.match(self.job_id)
        if m:
            when = calendar.timegm(tuple(int(x) for x in m.groups()[:6])) + shift
            job_id = time.strftime("%Y-%m-%d_%H_%M_%S", time.gmtime(when)) + "-1" + \
                "".join(rnd.choice("0123456789") for _ in range(18))
        else:
            job_id = f"{self.job_id}-{tag}"
        job_name = f"{tag}-{self.job_name}"
        mapping = {self.job_id: job_id, self.job_name: job_name}
        if project and self.project and project != self.project:
            mapping[self.project] = project
        vms = set()
        for i in self.items:
            vms.update(_VM.findall(json.dumps(i.entry)))
        for vm in sorted(vms):
            mapping[vm] = f"{job_name[:25].rstrip('-')}-" + "".join(rnd.choice("0123456789") for _ in range(8)) + \
                "-" + "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(4)) + "-harness-" + \
                "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(4))
        # One pass, longest first: a job name that is a VM name's prefix is not replaced twice.
        pattern = re.compile("|".join(re.escape(k) for k in sorted(mapping, key=len, reverse=True)))
        out = []
        for i in self.items:
            entry = json.loads(pattern.sub(lambda mm: mapping[mm.group(0)], json.dumps(i.entry)))
            for key in ("timestamp", "receiveTimestamp"):
                if key in entry:
                    entry[key] = shift_timestamp(entry[key], shift)
            if isinstance(entry.get("insertId"), str):
                entry["insertId"] = f"{entry['insertId']}-{tag}"
            out.append(Item(entry, None, f"{tag}:{i.file}", i.line))
        return job_id, job_name, out


def load_healthy(names):
    return [Healthy(n) for n in names]


def _span(items):
    stamps = [s[0] for s in (seconds(i.entry.get("timestamp")) for i in items if i.entry is not None) if s]
    return (min(stamps), max(stamps)) if stamps else None


def _project(items):
    for i in items:
        if i.entry is not None:
            p = _job_of(i.entry)[2]
            if p:
                return p
    return None


def _merge(original, added):
    """The case's items in their own order, the added entries (oldest first) slipped in before the
    first case entry that is later; newest first when the case is."""
    keys = [sort_key(i.entry.get("timestamp")) if i.entry is not None else None for i in original]
    known = [k for k in keys if k is not None]
    descending = len(known) >= 2 and known[0] > known[-1]
    added = sorted(added, key=lambda i: sort_key(i.entry.get("timestamp")) or (0, 0.0), reverse=descending)
    out, a = [], 0
    for item, key in zip(original, keys):
        if key is not None:
            while a < len(added):
                k = sort_key(added[a].entry.get("timestamp")) or (0, 0.0)
                if (k > key) if descending else (k < key):
                    out.append(added[a])
                    a += 1
                else:
                    break
        out.append(item)
    return out + added[a:]


def _pick(healthy, case, how_many, salt):
    others = [h for h in healthy if h.name != case]
    rnd = random.Random(f"{salt}:{case}")
    return rnd.sample(others, min(how_many, len(others))), rnd


def interleaved(items, case, healthy):
    """Two healthy jobs running over the case's job's span. Returns (files, added jobs) or None."""
    span = _span(items)
    if span is None:
        return None
    chosen, rnd = _pick(healthy, case, 2, "interleaved")
    project, added, jobs = _project(items), [], []
    for n, h in enumerate(chosen, start=1):
        # The added job's middle at the case's middle, the second a little later.
        shift = (span[0] + span[1]) // 2 - (h.start + h.end) // 2 + (n - 1) * 97
        job_id, job_name, its = h.copy_as(f"mm{n}", shift, project, rnd)
        added += its
        jobs.append((job_id, job_name, h))
    return [("export.json", _merge(items, added), write_array)], jobs


def first(items, case, healthy):
    """One healthy job that started after the case's job ended; the whole export newest first, so
    the healthy job's entries come first in the file."""
    span = _span(items)
    if span is None:
        return None
    chosen, rnd = _pick(healthy, case, 1, "first")
    h = chosen[0]
    shift = span[1] + 60 - h.start
    job_id, job_name, its = h.copy_as("mm1", shift, _project(items), rnd)
    parsed = [i for i in items if i.entry is not None]
    raw = [i for i in items if i.entry is None]
    ordered = sorted(its, key=lambda i: sort_key(i.entry.get("timestamp")) or (0, 0.0), reverse=True)
    ordered += sorted(parsed, key=lambda i: sort_key(i.entry.get("timestamp")) or (0, 0.0), reverse=True)
    return [("export.json", ordered + raw, write_array)], [(job_id, job_name, h)]


VARIANTS = [
    ("healthy-jobs-interleaved", interleaved),
    ("healthy-jobs-first", first),
]


def job_signature(job):
    """What must not move in the case's own job: its verdict and outcome, each finding as (rule id,
    fingerprint, severity, count), its inconclusive rule ids and its entry count."""
    return {
        "verdict": job.get("verdict"),
        "outcome": job.get("outcome"),
        "findings": sorted((f["rule_id"], f.get("fingerprint"), f["severity"], f["count"]) for f in job.get("findings", [])),
        "inconclusive": sorted(i["rule_id"] for i in job.get("inconclusive", [])),
        "entries": (job.get("totals") or {}).get("entries"),
    }


def compare(base_job, base_verdict, report, added, text_head):
    """The relation's checks on one variant's report; a failure message, or None."""
    out = []
    by_id = {j.get("id"): j for j in report.get("jobs", [])}
    got = by_id.get(base_job.get("id"))
    if got is None:
        return f"job {base_job.get('id')} is not in jobs[] (ids: {sorted(by_id)})"
    want, have = job_signature(base_job), job_signature(got)
    for key in ("verdict", "outcome", "entries"):
        if want[key] != have[key]:
            out.append(f"its {key} {want[key]} → {have[key]}")
    for key in ("findings", "inconclusive"):
        lost = [x for x in want[key] if x not in have[key]]
        new = [x for x in have[key] if x not in want[key]]
        if lost:
            out.append(f"its {key} lost {lost}")
        if new:
            out.append(f"its {key} gained {new}")
    for job_id, job_name, h in added:
        j = by_id.get(job_id)
        if j is None:
            out.append(f"added job {job_id} ({h.name}) is not in jobs[]")
            continue
        loud = [(f["rule_id"], f["severity"]) for f in j.get("findings", []) if f["severity"] != "info"]
        # In an export that was cut (the corpus keeps some) no job is "ok": each is "incomplete".
        healthy = "incomplete" if report.get("input_errors") else "ok"
        if loud or j.get("verdict") != healthy:
            out.append(f"added job {job_name} ({h.name}): verdict {j.get('verdict')}, findings {loud}")
        entries = (j.get("totals") or {}).get("entries")
        if h.entries is not None and entries != h.entries:
            out.append(f"added job {job_name} ({h.name}): {entries} entries, alone {h.entries}")
    extra = sorted(set(by_id) - {base_job.get("id")} - {a[0] for a in added})
    if extra:
        out.append(f"jobs[] has jobs nobody added: {extra}")
    if report.get("verdict") != base_verdict:
        out.append(f"top-level verdict {base_verdict} → {report.get('verdict')}")
    if text_head is not None and base_job.get("id") not in "\n".join(text_head):
        out.append(f"the text report's first 3 lines do not name job {base_job.get('id')}: {text_head}")
    return "; ".join(out) or None
