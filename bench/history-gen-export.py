#!/usr/bin/env python3
"""Writes a large, realistic Cloud Logging export for the history ingest benchmark.

Every entry is a real corpus entry (corpus/*/export.*) re-stamped: a fresh insertId, a timestamp that
moves forward through the day, and one of --jobs job ids, so that nothing is a duplicate and the
entries spread over many jobs and workers as a project-wide sink would.

  bench/history-gen-export.py --mb 1024 --shape ndjson > /tmp/big.ndjson
  bench/history-gen-export.py --mb 1024 --shape array  > /tmp/big.json   # gcloud --format=json
"""
import argparse
import glob
import gzip
import json
import os
import random
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def corpus_entries():
    entries = []
    for path in sorted(glob.glob(os.path.join(ROOT, "corpus", "*", "export*"))):
        raw = gzip.open(path, "rb").read() if path.endswith(".gz") else open(path, "rb").read()
        text = raw.decode("utf-8", "replace").strip()
        if not text:
            continue
        try:
            doc = json.loads(text)
            items = doc if isinstance(doc, list) else [doc]
        except json.JSONDecodeError:  # NDJSON (or a deliberately broken case)
            items = []
            for line in text.splitlines():
                try:
                    items.append(json.loads(line))
                except json.JSONDecodeError:
                    pass
        entries.extend(e for e in items if isinstance(e, dict) and "timestamp" in e)
    return entries


def restamp(entry, n, rng, jobs):
    e = json.loads(json.dumps(entry))  # a deep copy
    job = jobs[n % len(jobs)]
    e["insertId"] = "%012x" % rng.getrandbits(48)
    seconds = n // 50
    stamp = "2024-06-%02dT%02d:%02d:%02d.%06dZ" % (1 + seconds // 86400 % 28, seconds // 3600 % 24,
                                                   seconds // 60 % 60, seconds % 60, n % 1000000)
    e["timestamp"] = stamp
    if "receiveTimestamp" in e:
        e["receiveTimestamp"] = stamp
    labels = e.setdefault("resource", {}).setdefault("labels", {})
    labels["job_id"] = job
    if "job_name" in labels:
        labels["job_name"] = "nightly-embed-" + job[:10].replace("-", "").replace("_", "")
    if isinstance(e.get("labels"), dict) and "dataflow.googleapis.com/job_id" in e["labels"]:
        e["labels"]["dataflow.googleapis.com/job_id"] = job
    return e


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=256, help="approximate size to write, in MB (1e6 bytes)")
    ap.add_argument("--shape", choices=["ndjson", "array"], default="ndjson")
    ap.add_argument("--jobs", type=int, default=200, help="distinct job ids")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    pool = corpus_entries()
    jobs = ["2024-06-%02d_%02d_00_00-%019d" % (1 + i % 28, i % 24, rng.getrandbits(60)) for i in range(args.jobs)]
    target = int(args.mb * 1e6)
    out = sys.stdout
    written = 0
    n = 0
    if args.shape == "array":
        out.write("[\n")
        written += 2
    while written < target:
        e = restamp(pool[n % len(pool)], n, rng, jobs)
        if args.shape == "ndjson":
            text = json.dumps(e, separators=(",", ":")) + "\n"
        else:
            text = ("" if n == 0 else ",\n") + "\n".join("  " + l for l in json.dumps(e, indent=2).split("\n"))
        out.write(text)
        written += len(text.encode("utf-8"))
        n += 1
    if args.shape == "array":
        out.write("\n]\n")
    print("wrote %d entries, %.0f MB (%s)" % (n, written / 1e6, args.shape), file=sys.stderr)


if __name__ == "__main__":
    main()
