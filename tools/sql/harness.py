"""Runs a GoogleSQL query of `gpudiag sql` over exports loaded as BigQuery source tables, in DuckDB, and
returns what `bq query --format=json` would print (docs/sql.md, "Parity").

    tools/sql/run-query --source analytics:P.D --query diag.sql EXPORT… > rows.json
"""

import atexit
import functools
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import bq_rows  # noqa: E402
import tables  # noqa: E402
import transpile  # noqa: E402


class Source:
    """--source analytics:P.D[.VIEW] | sink:P.D, as `gpudiag sql` takes it."""

    def __init__(self, text):
        kind, _, name = text.partition(":")
        parts = name.split(".")
        if kind not in ("analytics", "sink") or len(parts) not in (2, 3) or (kind == "sink" and len(parts) != 2):
            raise ValueError(f"--source {text!r}: analytics:PROJECT.DATASET[.VIEW] or sink:PROJECT.DATASET")
        self.kind, self.project, self.dataset = kind, parts[0], parts[1]
        self.view = parts[2] if len(parts) == 3 else "_AllLogs"


def _bq_rows(export, shape):
    return bq_rows.rows_of(export, shape, timestamps="cast", order="export")


def _quote(name):
    return '"' + name.replace('"', '""') + '"'


def load_plan(source, named, exports):
    """{(catalog, schema, table): (columns, rows)} for every table the query names; rows the query
    reads no table of are counted in the second value."""
    plan, unread = {}, 0
    if source.kind == "analytics":
        columns = tables.ANALYTICS_COLUMNS
        for t in named:
            plan[t] = (columns, [])
        rows = [r for e in exports for r in _bq_rows(e, "analytics-view")]
        # Cloud Logging stores no entry without a log name (LogEntry.logName is required): a gcloud
        # --format projection that dropped it cannot be the view's content, as it cannot be a sink's.
        stored = [tables.analytics_row(r) for r in rows if r.get("log_name") is not None]
        target = plan.get((source.project, source.dataset, source.view))
        unread = len(rows) - len(stored)
        if target is None:
            unread = len(rows)
        else:
            target[1].extend(stored)
        return plan, unread
    columns, fields = tables.sink_columns(bq_rows)
    for t in named:
        plan[t] = (columns, [])
    for export in exports:
        for r in _bq_rows(export, "sink-table"):
            name = tables.sink_table_name(r.get("logName"))
            target = plan.get((source.project, source.dataset, name))
            if target is None:
                unread += 1  # no table of its log in the query (or no log name: a sink routes none)
            else:
                target[1].append(tables.sink_row(r, fields))
    return plan, unread


def setup_statements(plan, folder):
    statements = []
    catalogs = sorted({c for c, _, _ in plan})
    for c in catalogs:
        statements.append(f"ATTACH ':memory:' AS {_quote(c)}")
    for c, s in sorted({(c, s) for c, s, _ in plan}):
        statements.append(f"CREATE SCHEMA IF NOT EXISTS {_quote(c)}.{_quote(s)}")
    for n, (key, (columns, rows)) in enumerate(sorted(plan.items())):
        name = ".".join(_quote(p) for p in key)
        if not rows:
            cols = ", ".join(f"{_quote(c)} {t}" for c, t in columns)
            statements.append(f"CREATE TABLE {name} ({cols})")
            continue
        path = os.path.join(folder, f"table{n}.ndjson")
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        spec = ", ".join(f"'{c}': '{t.replace(chr(39), chr(39) * 2)}'" for c, t in columns)
        statements.append(f"CREATE TABLE {name} AS SELECT * FROM read_json('{path}', "
                          f"format = 'newline_delimited', columns = {{{spec}}})")
    return statements


class _DuckDB:
    """One `node run.mjs --serve` for every query of this process (started on first use)."""

    def __init__(self):
        self.process = None

    def run(self, spec_path):
        """(rows text, query ms); RuntimeError with DuckDB's message when the query fails."""
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(["node", os.path.join(HERE, "run.mjs"), "--serve"],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            atexit.register(self.process.communicate)
        self.process.stdin.write(spec_path.encode() + b"\n")
        self.process.stdin.flush()
        header = self.process.stdout.readline()
        if not header:
            raise RuntimeError(f"node tools/sql/run.mjs --serve exited {self.process.wait()}")
        answer = json.loads(header)
        if "error" in answer:
            raise RuntimeError(answer["error"])
        rows = self.process.stdout.read(answer["bytes"])
        return rows.decode("utf-8", errors="surrogateescape"), answer["query_ms"]


_DUCKDB = _DuckDB()


@functools.lru_cache(maxsize=8)
def _transpiled(query_text):
    """sqlglot takes half a second over the compiled query, and the parity tests run one text 350 times."""
    return transpile.transpile(query_text)


def run(source_text, query_text, exports, timing=False):
    """(bq --format=json text, {"rows": N, "loaded": N, "unread": N, "query_ms": F or None})."""
    source = Source(source_text)
    macros, query, named = _transpiled(query_text)
    plan, unread = load_plan(source, named, exports)
    with tempfile.TemporaryDirectory() as tmp:
        spec_path = os.path.join(tmp, "spec.json")
        with open(spec_path, "w", encoding="utf-8", errors="surrogateescape") as f:
            json.dump({"setup": macros + setup_statements(plan, tmp), "query": query}, f, ensure_ascii=False)
        try:
            text, ms = _DUCKDB.run(spec_path)
        except RuntimeError as e:
            raise RuntimeError(f"{e}\n-- DuckDB text:\n{query}") from None
    stats = {"rows": len(json.loads(text)), "loaded": sum(len(rows) for _, rows in plan.values()),
             "unread": unread, "query_ms": ms}
    return text, stats
