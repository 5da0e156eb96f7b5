#!/usr/bin/python3
"""Parity, proven by running the query itself (issue 18; docs/sql.md, "Parity"): every corpus case is
loaded as rows of both source schemas into DuckDB, the GoogleSQL text `gpudiag sql` prints is
transpiled mechanically by sqlglot and executed, and the diagnosis of the rows it returns must equal
the diagnosis of the full export (tests/ingest_bq_corpus.py's diagnosis(): verdict, summary, each
job's outcome and verdict, findings with counts and captures, inconclusive checks, unexplained
fingerprints, each fact's value and sources_total).

    tests/sql_parity.py --gpudiag build/cli/gpudiag [--gpudiag-sql BIN] [--case NAME] [--schema sink]
                        [--query analytics=FILE] [--keep DIR] [--batch N]
    tests/sql_parity.py --gpudiag build/cli/gpudiag --self-check     # the harness against tools/bq-rows

It fails, not skips, when sqlglot, node or DuckDB (tools/sql/node_modules: `npm ci` in tools/sql,
which `tools/setup test` runs) is missing.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "tools", "sql"))
sys.path.insert(0, os.path.join(ROOT, "tools"))

# The names the query is compiled for; the harness creates these tables (tools/sql/tables.py).
SOURCES = {"analytics": "analytics:parity-proj.gpudiag_logs", "sink": "sink:parity-proj.gpudiag_sink"}


def engines_missing():
    missing = []
    try:
        import sqlglot  # noqa: F401
    except ImportError:
        missing.append("sqlglot (Debian package python3-sqlglot, for /usr/bin/python3)")
    probe = subprocess.run(["node", "-e", "require.resolve('@duckdb/node-api')"], cwd=os.path.join(ROOT, "tools", "sql"),
                           capture_output=True) if _have("node") else None
    if probe is None:
        missing.append("node (Debian package nodejs)")
    elif probe.returncode != 0:
        missing.append("@duckdb/node-api (npm ci in tools/sql; tools/setup test does it)")
    return missing


def _have(program):
    return any(os.access(os.path.join(d, program), os.X_OK) for d in os.environ.get("PATH", "").split(os.pathsep))


def compiled_query(gpudiag_sql, source, override):
    if override:
        return open(override, encoding="utf-8").read()
    r = subprocess.run([gpudiag_sql, "sql", "--source", source], capture_output=True, text=True)
    if r.returncode != 0 or not r.stdout.strip():
        raise RuntimeError(f"{gpudiag_sql} sql --source {source} exited {r.returncode}: {r.stderr.strip()}")
    return r.stdout


IDENTITY = os.path.join(ROOT, "tests", "fixtures", "sql", "identity-{}.sql")
JSON_COLUMNS = ("json_payload", "labels")


def _normal(rows):
    """Rows with the JSON columns' text parsed: DuckDB and Python spell a JSON escape differently
    (\\u001B, \\u001b), the same JSON."""
    def parse(v):
        return json.loads(v) if isinstance(v, str) else v
    out = []
    for r in rows:
        r = dict(r, **{k: parse(r.get(k)) for k in JSON_COLUMNS})
        if isinstance(r.get("resource"), dict):
            r["resource"] = dict(r["resource"], labels=parse(r["resource"].get("labels")))
        out.append(r)
    return out


def self_check(cases):
    """The harness itself: a query returning every entry in the contract's row shape
    (tests/fixtures/sql/identity-*.sql) prints what tools/bq-rows --shape query-* renders — the
    loading, the column types and the bq printer are those the ingest tests already read."""
    import bq_rows
    import harness
    differ = 0
    for case in cases:
        exports, _ = case_inputs(os.path.join(ROOT, "corpus", case))
        for export in exports:
            for schema in sorted(SOURCES):
                got, _ = harness.run(SOURCES[schema], open(IDENTITY.format(schema)).read(), [export])
                want = bq_rows.rendered(export, f"query-{schema}").decode("utf-8", errors="surrogateescape")
                if got == want:
                    continue
                want_rows = json.loads(want)
                # Cloud Logging stores no entry without a log name (tools/sql/harness.py load_plan)
                want_rows = [r for r in want_rows if r.get("log_name") is not None]
                if _normal(json.loads(got)) != _normal(want_rows):
                    differ += 1
                    print(f"FAIL {os.path.relpath(export, ROOT)} ({schema}): the harness's rows are not "
                          f"tools/bq-rows --shape query-{schema}'s")
    print(f"self-check: {len(cases)} cases x {len(SOURCES)} schemas: {differ} differ")
    return 1 if differ else 0


def case_inputs(folder):
    import yaml
    labels = yaml.safe_load(open(os.path.join(folder, "labels.yaml")))
    extra, a = [], labels.get("args") or []
    for i in range(len(a) - 1):
        if a[i] == "--job":
            extra += ["--job", os.path.join(folder, a[i + 1])]
    exports = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.startswith("export"))
    return exports, extra


def batches(cases, wants, size):
    """The cases in runs of at most `size` that one query can diagnose together: each case's report
    names its jobs, every id non-empty and no two cases sharing one (a case without a report, or
    with an entry of no job, runs alone)."""
    out, current, seen = [], [], set()
    for case in cases:
        ids = [j[0] for j in wants[case].get("jobs") or []]
        if size <= 1 or not ids or not all(ids) or any(i in seen for i in ids) or len(set(ids)) != len(ids):
            if current:
                out.append(current)
            out.append([case])
            current, seen = [], set()
            continue
        if len(current) == size:
            out.append(current)
            current, seen = [], set()
        current.append(case)
        seen.update(ids)
    if current:
        out.append(current)
    return out


def split_by_case(text, batch, wants):
    """{case: its rows} from one query's rows over the batch, or None when a row's job is no case's."""
    owner = {j[0]: case for case in batch for j in wants[case]["jobs"]}
    out = {case: [] for case in batch}
    case = None
    for row in json.loads(text):
        if row.get("gpudiag_summary") is not None:
            case = owner.get(json.loads(row["gpudiag_summary"]).get("job_id"))
        if case is None:
            return None
        out[case].append(row)
    return out


def bq_json(rows):
    """Rows as run.mjs prints them (its sortedJson: Python's dumps with sorted keys, no spaces)."""
    return json.dumps(rows, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpudiag", required=True)
    ap.add_argument("--gpudiag-sql", help="the binary whose `sql` prints the query (default: --gpudiag)")
    ap.add_argument("--case", action="append")
    ap.add_argument("--schema", action="append", choices=sorted(SOURCES))
    ap.add_argument("--query", action="append", default=[], metavar="SCHEMA=FILE",
                    help="run this GoogleSQL file instead of the compiled query (developing the harness)")
    ap.add_argument("--keep", help="write each case's returned rows here")
    ap.add_argument("--rotate-schemas", action="store_true",
                    help="each case in one schema, the next case in the other (every case and both schemas are "
                         "still run): the sanitizer build, where .ci/run must stay well under 30 minutes")
    ap.add_argument("--every", type=int, default=1, metavar="N",
                    help="only every Nth case (the sanitizer build: gpudiag's part here is reading query rows, which "
                         "the bq rows test checks on every case; the compiled query's semantics are the Release build's)")
    ap.add_argument("--batch", type=int, default=40, metavar="N",
                    help="run up to N cases whose jobs differ in one query (1: a query per case). DuckDB spends "
                         "most of a corpus case's query on the query, not its rows: 0.7 s of 1.1 s (2026-12-07)")
    ap.add_argument("--self-check", action="store_true",
                    help="check the harness: tests/fixtures/sql/identity-*.sql gives tools/bq-rows's rows")
    args = ap.parse_args()
    missing = engines_missing()
    if missing:
        print("FAIL: the parity test needs " + "; ".join(missing))
        return 1
    import harness
    from ingest_bq_corpus import analyze

    corpus = os.path.join(ROOT, "corpus")
    cases = args.case or sorted(c for c in os.listdir(corpus) if os.path.exists(os.path.join(corpus, c, "labels.yaml")))
    cases = cases[::max(args.every, 1)]
    if args.self_check:
        return self_check(cases)

    overrides = dict(q.split("=", 1) for q in args.query)
    schemas = args.schema or sorted(SOURCES)
    gpudiag_sql = args.gpudiag_sql or args.gpudiag
    queries = {}
    for schema in schemas:
        try:
            queries[schema] = compiled_query(gpudiag_sql, SOURCES[schema], overrides.get(schema))
        except (RuntimeError, OSError) as e:
            print(f"FAIL: no query for {schema}: {e}")
            return 1
    passed = {s: 0 for s in schemas}
    runs = {s: 0 for s in schemas}
    totals = {s: {"rows": 0, "loaded": 0, "query_ms": 0.0, "queries": 0} for s in schemas}
    not_applicable = []
    started = time.monotonic()
    inputs, wants = {}, {}
    for case in cases:
        inputs[case] = case_inputs(os.path.join(corpus, case))
        wants[case] = analyze(args.gpudiag, inputs[case][0], inputs[case][1])
    plan = {s: [] for s in schemas}  # schema -> the cases it runs, in corpus order
    for index, case in enumerate(cases):
        for schema in ([schemas[index % len(schemas)]] if args.rotate_schemas else schemas):
            plan[schema].append(case)
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = args.keep or tmp
        os.makedirs(out_dir, exist_ok=True)

        def check(case, schema, rows, note):
            runs[schema] += 1
            path = os.path.join(out_dir, f"{case}.{schema}.json")
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(rows)
            want, extra = wants[case], inputs[case][1]
            got = analyze(args.gpudiag, [path], extra)
            if note["loaded"] == 0 and note["unread"] and got != want:
                # Cloud Logging stores no entry without a log name (LogEntry.logName is required),
                # and a sink routes by it: an export none of whose entries has one (a gcloud
                # --format projection) cannot be the content of either source.
                not_applicable.append((case, schema))
                print(f"n/a  {case} ({schema}): {note['text']}; no entry has a logName, so no BigQuery source holds any")
                return
            if got == want:
                passed[schema] += 1
                print(f"ok   {case} ({schema}): {note['text']}")
                return
            print(f"FAIL {case} ({schema}): {note['text']}")
            for key in sorted(set(want) | set(got)):
                if want.get(key) != got.get(key):
                    print(f"  {key}: export {want.get(key)!r}\n  {' ' * len(key)}  query  {got.get(key)!r}")

        def run_query(schema, exports):
            try:
                rows, stats = harness.run(SOURCES[schema], queries[schema], exports)
            except (RuntimeError, ValueError) as e:
                return None, str(e)
            totals[schema]["queries"] += 1
            for k in ("rows", "loaded", "query_ms"):
                totals[schema][k] += stats[k] or 0
            return rows, stats

        def alone(case, schema):
            rows, stats = run_query(schema, inputs[case][0])
            if rows is None:
                runs[schema] += 1
                print(f"FAIL {case} ({schema}): the query did not run: {stats}")
                return
            text = (f"{stats['rows']} rows returned / {stats['loaded']} entries loaded"
                    + (f", {stats['unread']} not loaded (no logName, or no table of their log in the query)"
                       if stats["unread"] else "") + f", query {stats['query_ms']:.0f} ms")
            check(case, schema, rows, {"loaded": stats["loaded"], "unread": stats["unread"], "text": text})

        for schema in schemas:
            for batch in batches(plan[schema], wants, args.batch):
                if len(batch) == 1:
                    alone(batch[0], schema)
                    continue
                # One query over the batch's cases together, as a dataset holds many jobs: each
                # job's rows are the block its summary row heads (docs/sql.md, "Rows are ordered
                # by job"), each case's rows its jobs' blocks, in the query's order.
                rows, stats = run_query(schema, [e for case in batch for e in inputs[case][0]])
                split = split_by_case(rows, batch, wants) if rows is not None else None
                if split is None or stats["unread"]:
                    # An entry of no job the batch's reports name, or entries a source cannot hold:
                    # each case alone, where such rows are told apart as before.
                    for case in batch:
                        alone(case, schema)
                    continue
                for case in batch:
                    text = (f"{len(split[case])} rows returned, in one query with {len(batch) - 1} other cases "
                            f"({stats['loaded']} entries loaded, {stats['query_ms']:.0f} ms)")
                    check(case, schema, bq_json(split[case]), {"loaded": stats["loaded"], "unread": 0, "text": text})
    failed = 0
    for schema in schemas:
        t = totals[schema]
        share = 100.0 * t["rows"] / t["loaded"] if t["loaded"] else 0.0
        na = sum(1 for _, s in not_applicable if s == schema)
        print(f"{schema}: {passed[schema]}/{runs[schema] - na} cases diagnose as their export"
              + (f" ({na} cannot be a BigQuery source's rows)" if na else "") + f"; {t['rows']} rows returned "
              f"of {t['loaded']} entries ({share:.1f} %) in {t['queries']} queries, DuckDB query time "
              f"{t['query_ms'] / 1000:.1f} s in all")
        failed += runs[schema] - na - passed[schema]
    if not_applicable:
        print("not applicable (no entry has a logName): " + ", ".join(f"{c} ({s})" for c, s in not_applicable))
    print(f"{time.monotonic() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
