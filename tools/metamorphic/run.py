#!/usr/bin/env python3
"""Metamorphic suite over the corpus (tools/metamorphic/README.md).

  tools/metamorphic/run.py --gpudiag build/cli/gpudiag             # every case, every variant, shapes
  tools/metamorphic/run.py --gpudiag build/cli/gpudiag --case hostile-log-text --keep /tmp/mm
  tools/metamorphic/run.py --gpudiag build/cli/gpudiag --shapes-only

For each corpus case it analyses the original export and variants of it written to a temporary
directory, and compares the diagnoses: variants Dataflow or Cloud Logging really produce for the same
job must not change it; removing a finding's evidence entries must make that finding go away (or
become inconclusive). Then it embeds every rule's match examples in text that is not a failure and
checks that no rule fires. Exit 0 when every check holds, 1 when one fails (a missing binary or
corpus case is a failure, never a skip), 2 on bad usage.
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import yaml  # noqa: E402

import exports  # noqa: E402
import jobs  # noqa: E402
import shapes  # noqa: E402
import variants  # noqa: E402

REMOVAL_ROUNDS = 8  # evidence is listed capped (earliest and latest); each round removes what is left


class Gpudiag:
    def __init__(self, binary, rules):
        self.binary = binary
        self.rules = rules
        self.runs = 0

    def analyze(self, inputs, job=None, text_to=None):
        cmd = [self.binary, "analyze", "--format", "json", "-j", "1"]
        if text_to:  # the text report to a file, JSON on stdout, in one run
            cmd = [self.binary, "report", "--format", "json", "-j", "1", "-o", text_to, "-o", "-"]
        for r in self.rules:
            cmd += ["--rules", r]
        if job:
            cmd += ["--job", job]
        cmd += ["--"] + inputs  # `--rules` takes several values; `--` ends them
        self.runs += 1
        p = subprocess.run(cmd, capture_output=True, text=True, errors="surrogateescape")
        # Exit 2 with a report: an input not read in full (a cut export, docs/formats.md): the corpus
        # keeps cut exports on purpose, and a variant may move a malformed entry to the end.
        cut = p.returncode == 2 and p.stdout.lstrip().startswith("{") and all(
            e.get("code") in CUT_CODES for e in json.loads(p.stdout).get("input_errors", [{}]))
        if p.returncode not in (0, 1) and not cut:
            raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()[:500]}")
        return json.loads(p.stdout)


# The input errors of an export read only in part; what was read is still diagnosed.
CUT_CODES = ("gzip-truncated", "gzip-corrupt", "input-truncated")


def signature(report):
    """What "the same diagnosis" means: verdict, each finding's rule id, severity and count, the
    inconclusive checks, and how many entries were analysed. Not file:line, input names, duplicate
    or skipped counts, titles or ranks."""
    return {
        "verdict": report["verdict"],
        "findings": sorted((f["rule_id"], f["severity"], f["count"]) for f in report["findings"]),
        "inconclusive": sorted(i["rule_id"] for i in report["inconclusive"]),
        "analysed": report["totals"]["analysed"],
    }


def describe_difference(want, got):
    out = []
    for key in ("verdict", "analysed"):
        if want[key] != got[key]:
            out.append(f"{key} {want[key]} → {got[key]}")
    for key in ("findings", "inconclusive"):
        lost = [x for x in want[key] if x not in got[key]]
        new = [x for x in got[key] if x not in want[key]]
        if lost:
            out.append(f"{key} lost {lost}")
        if new:
            out.append(f"{key} gained {new}")
    return "; ".join(out)


def evidence_places(finding, line_map=None):
    places = set()
    for e in finding.get("evidence", []):
        place = (e["file"], e["line"])
        places.add(line_map.get(place, place) if line_map is not None else place)
    return places


def write_variant(directory, files):
    """Writes a variant's files; returns their paths and, per (path, line) of an NDJSON file, the
    original item's (file, line)."""
    os.makedirs(directory, exist_ok=True)
    paths, line_map = [], {}
    for name, items, writer in files:
        path = os.path.join(directory, name)
        writer(path, items)
        paths.append(path)
        if writer is exports.write_ndjson or (writer is exports.write_array and any(i.entry is None for i in items)):
            for number, item in enumerate(items, start=1):
                line_map[(path, number)] = (item.file, item.line)
    return paths, line_map


class Case:
    def __init__(self, source, name):
        self.name = name
        self.rel = f"corpus/{name}"
        self.dir = os.path.join("corpus", name)  # relative: run() works from the repository
        labels_path = os.path.join(self.dir, "labels.yaml")
        if not os.path.isfile(labels_path):
            raise FileNotFoundError(f"corpus case {name}: no {labels_path}")
        with open(labels_path, encoding="utf-8") as f:
            labels = yaml.safe_load(f) or {}
        args = labels.get("args") or []
        self.job = None
        for i, a in enumerate(args[:-1]):
            if a == "--job":
                self.job = os.path.join(self.dir, args[i + 1])
        self.has_jobs = "jobs" in labels  # a multi-job case: healthy-jobs-added does not apply
        self.inputs = exports.case_inputs(self.dir)
        if not self.inputs:
            raise FileNotFoundError(f"corpus case {name}: no export* file in {self.dir}")


def run_jobs_added(case, base, items, gpudiag, healthy, tmp):
    """The relation healthy-jobs-added (jobs.py): a list of (check name, failure message or None)."""
    if case.has_jobs or len(base.get("jobs", [])) != 1 or not base["jobs"][0].get("id"):
        # A multi-job case (its labels say `jobs:`), or no job id to keep the jobs apart by: an empty
        # export, or one whose entries carry no job label (a projection strips them from every job).
        return []
    base_job = base["jobs"][0]
    results = []
    for name, make in jobs.VARIANTS:
        made = make(items, case.name, healthy)
        if made is None:
            continue  # no timestamp to place the other jobs by
        files, added = made
        directory = os.path.join(tmp, case.name, name)
        paths, _ = write_variant(directory, files)
        text = os.path.join(directory, "report.txt") if base_job.get("verdict") != "ok" else None
        report = gpudiag.analyze(paths, case.job, text_to=text)
        head = None
        if text:
            with open(text, encoding="utf-8", errors="replace") as f:
                head = [f.readline().rstrip("\n") for _ in range(3)]
        results.append((name, jobs.compare(base_job, base["verdict"], report, added, head)))
    return results


def run_case(case, gpudiag, severities, tmp, healthy=()):
    """Every check of one case: a list of (check name, failure message or None)."""
    results = []
    base = gpudiag.analyze(case.inputs, case.job)
    want = signature(base)
    items = []
    for path in case.inputs:
        its, _ = exports.parse_items(path, path)
        items += its
    evidence = set()
    for f in base["findings"]:
        evidence |= evidence_places(f)
    ctx = {"severities": severities, "evidence": evidence, "case": case.name, "job": case.job,
           "outcome": base.get("job", {}).get("outcome")}
    for name, make in variants.INVARIANT:
        files = make(items, ctx)
        if files is None:
            continue  # nothing in this case for the variant to change
        paths, _ = write_variant(os.path.join(tmp, case.name, name), files)
        got = signature(gpudiag.analyze(paths, case.job))
        results.append((name, None if got == want else describe_difference(want, got)))
    # Another launch of the same pipeline: the same diagnosis, and the same fingerprints.
    files = variants.another_launch(items, ctx)
    if files is not None:
        paths, _ = write_variant(os.path.join(tmp, case.name, "another-launch"), files)
        got_report = gpudiag.analyze(paths, case.job)
        got = signature(got_report)
        failure = None if got == want else describe_difference(want, got)
        if failure is None:
            before = sorted((f["rule_id"], f["fingerprint"]) for f in base["findings"])
            after = sorted((f["rule_id"], f["fingerprint"]) for f in got_report["findings"])
            if before != after:
                failure = f"fingerprints {[x for x in before if x not in after]} → {[x for x in after if x not in before]}"
        results.append(("another-launch", failure))
    for finding in base["findings"]:
        if finding["via"] != "match" or not finding.get("evidence"):
            continue  # found from facts or from an absence: no entry to take away
        rule = finding["rule_id"]
        drop = evidence_places(finding)
        check = f"without-evidence:{rule}"
        failure = f"{rule} still fires after {REMOVAL_ROUNDS} rounds of removing its evidence"
        for round_ in range(REMOVAL_ROUNDS):
            directory = os.path.join(tmp, case.name, f"without-{rule}-{round_}")
            paths, line_map = write_variant(directory, [("export.ndjson", variants.without(items, drop),
                                                         exports.write_ndjson)])
            report = gpudiag.analyze(paths, case.job)
            still = [f for f in report["findings"] if f["rule_id"] == rule]
            if not still:
                failure = None
                break
            more = evidence_places(still[0], line_map) - drop
            if not more:
                failure = f"{rule} still fires without its evidence entries (now via {still[0]['via']})"
                break
            drop |= more
        results.append((check, failure))
    if healthy:
        results += run_jobs_added(case, base, items, gpudiag, healthy, tmp)
    return results


def run_shapes(source, gpudiag, tmp, rules_dirs):
    texts = []
    for d in [os.path.join(source, "rules")] + rules_dirs:
        texts += shapes.example_texts(d)
    results = []
    for shape, log, severity, build in shapes.SHAPES:
        entries = [shapes.entry(i, log, severity, build(text)) for i, (_, text) in enumerate(texts)]
        directory = os.path.join(tmp, "shapes")
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, f"{shape}.ndjson")
        with open(path, "w", encoding="utf-8") as f:
            for e in entries:
                f.write(json.dumps(e, ensure_ascii=False) + "\n")
        report = gpudiag.analyze([path])
        for finding in report["findings"]:
            lines = sorted(line for _, line in evidence_places(finding))
            quoted = sorted({texts[n - 1][0] for n in lines})
            results.append((f"shape:{shape}",
                            f"{finding['rule_id']} fires on {finding['count']} entries (lines {lines[:8]}); "
                            f"the examples quoted there are from {quoted}"))
        if not report["findings"]:
            results.append((f"shape:{shape}", None))
    return results, len(texts)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gpudiag", required=True, help="the built gpudiag binary")
    parser.add_argument("--source", default=os.path.dirname(os.path.dirname(here)), help="the repository")
    parser.add_argument("--case", action="append", default=[], help="only this corpus case (repeatable)")
    parser.add_argument("--rules", action="append", default=[], help="extra rule directory, passed to gpudiag")
    parser.add_argument("--jobs", type=int, default=2, help="cases analysed in parallel")
    parser.add_argument("--shapes-only", action="store_true")
    parser.add_argument("--no-shapes", action="store_true")
    parser.add_argument("--every", type=int, default=1, metavar="N",
                        help="only every Nth corpus case, in name order (the sanitizer run: each variant kind "
                             "still runs, on fewer cases)")
    parser.add_argument("--keep", help="write the variants here and keep them (default: a temporary directory)")
    args = parser.parse_args()

    started = time.monotonic()
    if not (os.path.isfile(args.gpudiag) and os.access(args.gpudiag, os.X_OK)):
        print(f"FAIL: gpudiag binary {args.gpudiag} is missing or not executable", file=sys.stderr)
        return 1
    severities = variants.read_severity_table(os.path.join(args.source, "docs", "log-severities.md"))
    gpudiag = Gpudiag(os.path.abspath(args.gpudiag), args.rules)
    os.chdir(args.source)  # reports name inputs repo-relative, as the goldens do

    names = args.case
    if not names and not args.shapes_only:
        names = sorted(n for n in os.listdir("corpus") if os.path.isfile(os.path.join("corpus", n, "labels.yaml")))
        if not names:
            print("FAIL: no corpus cases found", file=sys.stderr)
            return 1
        names = names[::max(1, args.every)]
    cases, failures = [], []
    for n in [] if args.shapes_only else names:
        try:
            cases.append(Case(args.source, n))
        except FileNotFoundError as e:
            failures.append((n, "setup", str(e)))

    # The healthy cases whose entries healthy-jobs-added puts beside every other case's, each
    # analysed alone once for its entry count.
    healthy = []
    if cases:
        try:
            healthy = jobs.load_healthy(sorted(n for n in os.listdir("corpus") if n.startswith("healthy-")))
            for h in healthy:
                alone = gpudiag.analyze(exports.case_inputs(os.path.join("corpus", h.name)))
                if len(alone.get("jobs", [])) != 1 or alone["jobs"][0].get("verdict") != "ok":
                    raise ValueError(f"healthy case {h.name} is not one ok job on its own")
                h.entries = (alone["jobs"][0].get("totals") or {}).get("entries")
        except (ValueError, RuntimeError) as e:
            failures.append(("healthy-*", "setup", str(e)))
        if len(healthy) < 2:
            failures.append(("healthy-*", "setup", f"healthy-jobs-added needs two healthy-* cases, found {len(healthy)}"))
            healthy = []

    tmp_owner = None
    if args.keep:
        tmp = os.path.abspath(args.keep)
        os.makedirs(tmp, exist_ok=True)
    else:
        tmp_owner = tempfile.TemporaryDirectory(prefix="gpudiag-metamorphic-")
        tmp = tmp_owner.name

    checks = 0
    per_variant = {}  # check kind → how many were run, for the summary
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run_case, c, gpudiag, severities, tmp, healthy): c for c in cases}
        for future in concurrent.futures.as_completed(futures):
            case = futures[future]
            try:
                results = future.result()
            except Exception as e:  # a run that broke is a failure of this case, not of the suite
                failures.append((case.name, "run", str(e)))
                continue
            checks += len(results)
            for check, failure in results:
                kind = check.split(":", 1)[0]
                per_variant[kind] = per_variant.get(kind, 0) + 1
                if failure:
                    failures.append((case.name, check, failure))
    shape_texts = 0
    if not args.no_shapes:
        results, shape_texts = run_shapes(args.source, gpudiag, tmp, args.rules)
        checks += len(results)
        failures += [("embedded", check, failure) for check, failure in results if failure]

    print("checks per variant: " + ", ".join(f"{k} {n}" for k, n in sorted(per_variant.items())))
    for case, check, failure in sorted(failures):
        print(f"FAIL {case} [{check}]: {failure}")
    print(f"metamorphic: {len(cases)} cases, {checks} checks ({shape_texts} example texts × "
          f"{0 if args.no_shapes else len(shapes.SHAPES)} shapes), {gpudiag.runs} gpudiag runs, "
          f"{len(failures)} failed, {time.monotonic() - started:.1f}s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
