#!/usr/bin/env python3
"""Every corpus case, re-shaped into each form `bq query` prints (tools/bq-rows), diagnoses as its export.

    python3 tests/ingest_bq_corpus.py --gpudiag build/cli/gpudiag [--case NAME] [--timestamps seconds]

Compared: the verdict and summary, each job's outcome and verdict, every finding's rule, count and
captures, the inconclusive checks and the unexplained groups' fingerprints. Evidence lines, first and
last seen times and input counts may differ (bq prints one line, and whole seconds).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import bq_rows  # noqa: E402  (tools/bq-rows, called in-process: a Python start per export was most of this test's time)
SHAPES = ["query-analytics", "query-sink", "analytics-view", "sink-table"]
# tests/fixtures/bq/: one file per shape and printer, rendered by tools/bq-rows from this case
# (tests/ingest_bq_test.cc diagnoses each; --fixtures checks they are what the converter renders).
FIXTURE_CASE = "corpus/gpu-oom-pytorch-runinference/export.json"
FIXTURES = [
    ("analytics.json", ["--shape", "query-analytics"]),
    ("sink.json", ["--shape", "query-sink"]),
    ("analytics-view.prettyjson.json", ["--shape", "analytics-view", "--format", "prettyjson"]),
    ("sink-table.json.gz", ["--shape", "sink-table", "--gzip"]),
]


def render_fixture(flags):
    return subprocess.run([sys.executable, os.path.join(ROOT, "tools", "bq-rows"), *flags,
                           os.path.join(ROOT, FIXTURE_CASE)], check=True, capture_output=True).stdout


def check_fixtures(update):
    folder = os.path.join(ROOT, "tests", "fixtures", "bq")
    stale = 0
    for name, flags in FIXTURES:
        path = os.path.join(folder, name)
        want = render_fixture(flags)
        if update:
            with open(path, "wb") as f:
                f.write(want)
        elif not os.path.exists(path) or open(path, "rb").read() != want:
            stale += 1
            print(f"{path} is not what tools/bq-rows {' '.join(flags)} {FIXTURE_CASE} renders "
                  f"(python3 tests/ingest_bq_corpus.py --fixtures --update)")
    return 1 if stale else 0


def facts_of(report):
    # Each fact's value and how many sources reported it (a query returns a fact's first entry and
    # counts the rest in its summary row; the later sources listed are what it leaves out).
    return sorted((f["name"], f["value"], f.get("sources_total")) for f in report.get("facts", []))


def diagnosis(report, facts=True):
    # facts=False: bench/sql-share.sh, whose generated jobs mix corpus cases' projects, options and
    # entries out of time order, so a fact's first value by time (the query's order) is not the
    # first in the file (the export's).
    # A summary may name where the job message is (export.json:170): the rows are elsewhere.
    summary = re.sub(r"entry at \S+:\d+", "entry at FILE:LINE", report["summary"])
    # A cut export says so on its verdict line (docs/formats.md, "Input problems"); the entries read
    # are what rows hold, and the diagnosis is theirs.
    summary = re.sub(r" \(input incomplete: [^)]*\)$", "", summary)
    return {
        "verdict": report["verdict"],
        "summary": summary,
        "jobs": [(j["id"], j.get("outcome"), j.get("verdict"), facts_of(j) if facts else None) for j in report["jobs"]],
        "facts": facts_of(report) if facts else None,
        "findings": [(f["rule_id"], f["count"], f.get("captures")) for f in report["findings"]],
        "inconclusive": [i.get("rule_id") for i in report["inconclusive"]],
        "unexplained": sorted(u.get("fingerprint", "") for u in report.get("unexplained", [])),
    }


def analyze(gpudiag, paths, extra):
    r = subprocess.run([gpudiag, "analyze", "--deterministic", "--format", "json", *extra, *paths],
                       capture_output=True, text=True)
    if not r.stdout.strip():
        return {"exit": r.returncode, "stderr": r.stderr.strip()}
    return diagnosis(json.loads(r.stdout))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudiag")
    ap.add_argument("--fixtures", action="store_true", help="check tests/fixtures/bq/ instead")
    ap.add_argument("--update", action="store_true", help="with --fixtures: write them")
    ap.add_argument("--case", action="append")
    ap.add_argument("--timestamps", default="seconds")
    ap.add_argument("--every", type=int, default=1, metavar="N",
                    help="only every Nth case (the sanitizer build, with --rotate-shapes: each shape is still read)")
    ap.add_argument("--rotate-shapes", action="store_true",
                    help="each case in one shape, the next case in the next (every case and every shape is "
                         "still checked): the sanitizer build, where every run costs several times more")
    args = ap.parse_args()
    if args.fixtures:
        return check_fixtures(args.update)
    if not args.gpudiag:
        ap.error("--gpudiag is needed")
    corpus = os.path.join(ROOT, "corpus")
    cases = args.case or sorted(c for c in os.listdir(corpus) if os.path.exists(os.path.join(corpus, c, "labels.yaml")))
    cases = cases[::max(args.every, 1)]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for index, case in enumerate(cases):
            folder = os.path.join(corpus, case)
            labels = yaml.safe_load(open(os.path.join(folder, "labels.yaml")))
            extra = []
            a = labels.get("args") or []
            for i in range(len(a) - 1):
                if a[i] == "--job":
                    extra += ["--job", os.path.join(folder, a[i + 1])]
            exports = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.startswith("export"))
            want = analyze(args.gpudiag, exports, extra)
            shapes = [SHAPES[index % len(SHAPES)]] if args.rotate_shapes else SHAPES
            for shape in shapes:
                paths = []
                for n, export in enumerate(exports):
                    out = os.path.join(tmp, f"{case}.{shape}.{n}.json")
                    with open(out, "wb") as f:
                        f.write(bq_rows.rendered(export, shape, timestamps=args.timestamps))
                    paths.append(out)
                got = analyze(args.gpudiag, paths, extra)
                if got != want:
                    failures += 1
                    print(f"FAIL {case} as {shape}:")
                    for key in sorted(set(want) | set(got)):
                        if want.get(key) != got.get(key):
                            print(f"  {key}: export {want.get(key)!r}\n  {' ' * len(key)}  rows   {got.get(key)!r}")
    checked = len(cases) if args.rotate_shapes else len(cases) * len(SHAPES)
    print(f"{len(cases)} cases in {len(SHAPES)} shapes, {checked} runs: {failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
