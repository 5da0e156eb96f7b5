#!/usr/bin/env python3
"""Every JSON report validates against reports/data/report.schema.json (docs/json-schema.md).

The corpus goldens are real reports but share one set of options; the report shapes they lack
(--db, a gate, --baseline, preflight, a cut export, summary rows, past the job lists' caps, --lang,
no --deterministic) come from running the binary. Then mutated reports must be rejected, so that a
schema which accepts anything cannot pass.

Run from the repository root: tests/report_schema.py --gpudiag build/cli/gpudiag
"""
import argparse
import copy
import gzip
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import jsonschema

SCHEMA = Path("reports/data/report.schema.json")
CORPUS = Path("corpus")
BAD_INPUT = Path("tests/fixtures/bad-input")


def run(gpudiag, *args, codes=(0,)):
    """The JSON report gpudiag prints for ARGS; its exit code must be one of CODES."""
    p = subprocess.run([gpudiag, *map(str, args)], capture_output=True, text=True)
    if p.returncode not in codes:
        sys.exit(f"report_schema: gpudiag {' '.join(map(str, args))} exited {p.returncode}, not {codes}:\n{p.stderr}")
    return json.loads(p.stdout)


def corpus_reports():
    return [(str(p), json.loads(p.read_text())) for p in sorted(CORPUS.glob("*/expected.json"))]


def history_reports(gpudiag, tmp):
    """--db: runs.history, findings[].history (new, then known), changes_since_green, jobs[].history."""
    db = tmp / "h.db"
    out = []
    # A green run, then two red runs of one pipeline: the third knows the second's findings and
    # has a green run to compare its facts with.
    for case in ("healthy-cpu-batch", "chained-exception-python", "user-dofn-valueerror-python"):
        out.append((f"gate --new-only --db ({case})",
                    run(gpudiag, "gate", "--format", "json", "--deterministic", "--fail-on", "warning", "--new-only",
                        "--db", db, "--pipeline", "schema-test", CORPUS / case / "export.json", codes=(0, 1))))
    out.append(("analyze --db (8 jobs)",
                run(gpudiag, "analyze", "--format", "json", "--deterministic", "--db", db,
                    CORPUS / "multi-job-sink-shard-two-failures/export.ndjson")))
    return out


def gate_reports(gpudiag, tmp):
    """gate: tripped, and refused (an empty export without --allow-empty)."""
    return [
        ("gate --fail-on warning", run(gpudiag, "gate", "--fail-on", "warning", "--format", "json", "--deterministic",
                                       CORPUS / "flex-start-succeeded-with-config-warning/export.json", codes=(1,))),
        ("gate (empty export)", run(gpudiag, "gate", "--format", "json", "--deterministic",
                                    CORPUS / "empty-export/export.json", codes=(2,))),
    ]


def baseline_reports(gpudiag, tmp):
    """--baseline with an entry in each state: suppressing through an old fingerprint, expired, a
    suppressed unexplained group, unused."""
    case = CORPUS / "chained-exception-python"
    golden = json.loads((case / "expected.json").read_text())
    found, group = golden["findings"], golden["unexplained"][0]
    entries = [
        (found[0]["rule_id"], found[0]["fingerprint_v1"], None),
        (found[1]["rule_id"], found[1]["fingerprint"], "2001-01-01"),
        ("unexplained-error", group["fingerprint"], "2999-12-31"),
        ("gpu-out-of-memory", "gpu-out-of-memory/0000000000000000", None),
    ]
    lines = ["version: 1", "suppress:"]
    for rule, fingerprint, expires in entries:
        lines += [f"  - rule: {rule}", f"    fingerprint: {fingerprint}", "    reason: schema test"]
        lines += [f"    expires: {expires}"] if expires else []
    baseline = tmp / "baseline.yaml"
    baseline.write_text("\n".join(lines) + "\n")
    return [("gate --baseline", run(gpudiag, "gate", "--format", "json", "--deterministic", "--baseline", baseline,
                                    case / "export.json", codes=(0, 1)))]


def preflight_reports(gpudiag, tmp):
    """preflight: the `preflight` object, inputs that are option sources rather than exports."""
    fixtures = Path("tests/fixtures/preflight")
    common = ["preflight", "--format", "json", "--deterministic", "--no-launch-env"]
    return [
        ("preflight --script --job", run(gpudiag, *common, "--script", fixtures / "launch.sh", "--job",
                                         fixtures / "cases/boot-disk-too-small/job.json", codes=(0, 1))),
        ("preflight -- command", run(gpudiag, *common, "--image-python", "3.10", "--image-beam", "2.60.0", "--",
                                     "python", "main.py", "--runner", "DataflowRunner",
                                     "--worker_machine_type", "g2-standard-4",
                                     "--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:2",
                                     codes=(0, 1))),
    ]


def truncated_reports(gpudiag, tmp):
    """Inputs not read in full: input_errors, verdict incomplete, and inputs that could not be read."""
    healthy = (CORPUS / "healthy-cpu-batch/export.json").read_bytes()
    cut = tmp / "cut.json"
    cut.write_bytes(healthy[: len(healthy) // 2])
    failing = (CORPUS / "chained-exception-python/export.json").read_bytes()
    cut_gz = tmp / "cut.json.gz"
    cut_gz.write_bytes(gzip.compress(failing)[: len(gzip.compress(failing)) // 2])
    common = ["analyze", "--format", "json", "--deterministic"]
    return [
        ("cut export", run(gpudiag, *common, cut, codes=(2,))),
        ("cut gzip export", run(gpudiag, *common, cut_gz, codes=(2,))),
        ("export beside unreadable inputs",
         run(gpudiag, *common, CORPUS / "chained-exception-python/export.json", BAD_INPUT / "corrupt.ndjson.gz",
             BAD_INPUT / "scalar-null.json", BAD_INPUT / "utf16.json", codes=(2,))),
    ]


def summary_rows_report(gpudiag, tmp):
    """totals.source, inputs[].source, jobs[].totals.source: bq rows with a gpudiag sql summary row."""
    rows = json.loads(Path("tests/fixtures/bq/analytics.json").read_text())
    job_id = json.loads(rows[0]["resource"]["labels"])["job_id"]
    summary = dict.fromkeys(rows[0])
    summary["gpudiag_summary"] = json.dumps(
        {"v": 1, "job_id": job_id, "entries": len(rows) + 5, "returned": len(rows), "capped": 5})
    path = tmp / "rows.json"
    path.write_text(json.dumps([summary] + rows))
    return [("bq rows with a summary row", run(gpudiag, "analyze", "--format", "json", "--deterministic", path))]


def many_jobs_reports(gpudiag, tmp):
    """Past the lists' caps: jobs_unlisted (1,000 jobs), not_diagnosed and not_selected (10,000 each)."""
    def entry(i, text, severity, hour):
        return json.dumps({
            "insertId": f"{i}-{hour}", "logName": "projects/p/logs/dataflow.googleapis.com%2Fjob-message",
            "resource": {"type": "dataflow_step", "labels": {"job_id": f"2024-01-01_00_00_00-{1000 + i}",
                                                             "job_name": f"job-{i}", "project_id": "p",
                                                             "region": "us-central1"}},
            "severity": severity, "textPayload": text, "timestamp": f"2024-01-01T0{hour}:{i // 60 % 60:02}:{i % 60:02}Z"})

    stuck = "Workflow failed. Causes: The Dataflow job appears to be stuck because no worker activity has been seen in the last 1h."
    failing = tmp / "failing.ndjson"
    failing.write_text("".join(entry(i, stuck, "ERROR", 1) + "\n" for i in range(1100)))
    # Every job's entries come twice, the second time after all the others': with --max-jobs 1 each
    # returning job is one --max-jobs made room by diagnosing.
    returning = tmp / "returning.ndjson"
    returning.write_text("".join(entry(i, "Worker pool started.", "INFO", h) + "\n" for h in (1, 2) for i in range(10002)))
    common = ["analyze", "--format", "json", "--deterministic"]
    return [
        ("1,100 failed jobs", run(gpudiag, *common, failing)),
        ("10,002 jobs --max-jobs 1", run(gpudiag, *common, "--max-jobs", "1", returning)),
        ("10,002 jobs --job-name job-1", run(gpudiag, *common, "--job-name", "job-1", returning)),
    ]


def option_reports(gpudiag, tmp):
    """--lang (doc.localized, fixes[].localized, first_step.doc.localized) and a run without
    --deterministic (tool.version, tool.rule_pack)."""
    return [
        ("--lang es", run(gpudiag, "analyze", "--format", "json", "--deterministic", "--lang", "es",
                          CORPUS / "gpu-oom-pytorch-runinference/export.json")),
        ("--lang ja, not --deterministic", run(gpudiag, "analyze", "--format", "json", "--lang", "ja",
                                    CORPUS / "chained-exception-python/export.json")),
    ]


def json_path(error):
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)


def negative_checks(validator):
    """Reports the schema must reject; returns the failures (mutations it accepted)."""
    golden = json.loads((CORPUS / "chained-exception-python/expected.json").read_text())

    def renamed_verdict(r):
        r["verdikt"] = r.pop("verdict")

    def numeric_severity(r):
        r["findings"][0]["severity"] = 3

    def numeric_severity_in_job(r):  # the same definition, reached through jobs[]
        r["jobs"][0]["findings"][0]["severity"] = 3

    def no_schema(r):
        del r["schema"]

    failures = []
    for mutate in (renamed_verdict, numeric_severity, numeric_severity_in_job, no_schema):
        report = copy.deepcopy(golden)
        mutate(report)
        error = jsonschema.exceptions.best_match(validator.iter_errors(report))
        if error is None:
            failures.append(f"{mutate.__name__}: accepted, must be rejected")
        else:
            print(f"rejected as it must be: {mutate.__name__}: {json_path(error)}: {error.message[:100]}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpudiag", required=True, help="the built binary")
    args = parser.parse_args()

    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)

    reports = corpus_reports()
    with tempfile.TemporaryDirectory() as tmp:
        for job in (history_reports, gate_reports, baseline_reports, preflight_reports, truncated_reports,
                    summary_rows_report, many_jobs_reports, option_reports):
            reports += job(args.gpudiag, Path(tmp))

    failures = []
    for name, report in reports:
        for error in validator.iter_errors(report):
            failures.append(f"{name}: {json_path(error)}: {error.message[:200]}")
    failures += negative_checks(validator)
    for failure in failures:
        print(f"FAIL {failure}", file=sys.stderr)
    if failures:
        return 1
    print(f"report_schema: {len(reports)} reports valid against {SCHEMA}; 4 mutated reports rejected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
