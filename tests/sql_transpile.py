#!/usr/bin/env python3
"""Every variant of `gpudiag sql` transpiles from GoogleSQL to DuckDB with sqlglot (docs/sql.md).

    tests/sql_transpile.py --gpudiag build/cli/gpudiag

Fails when python3-sqlglot is not installed. Each variant must transpile with plain sqlglot
(errors raised, none ignored) and through the parity harness's repairs (tools/sql/transpile.py:
sqlglot 10.6.3 writes a BigQuery `STRUCT(x AS name)` for DuckDB without its fields).
"""
import argparse
import os
import subprocess
import sys

VARIANTS = [
    ["--source", "analytics:my-proj.my_logs"],
    ["--source", "analytics:my-proj.my_logs", "--since", "24h", "--until", "2024-05-08"],
    ["--source", "analytics:my-proj.my_logs.my_view", "--job-id", "a", "--job-id", "b", "--job-name", "x-*"],
    ["--source", "sink:my-proj.logs"],
    ["--source", "sink:my-proj.logs", "--since", "7d", "--max-rows-per-job", "100"],
    ["--source", "sink:my-proj.logs", "--since", "2024-05-01T00:00:00Z", "--sink-layout", "sharded"],
]


def import_sqlglot():
    try:
        import sqlglot  # noqa: F401
    except ImportError:
        sys.path.append("/usr/lib/python3/dist-packages")  # Debian's, under another python3
    import sqlglot
    return sqlglot


def to_duckdb(sql):
    """The parity harness's transpile (tools/sql/transpile.py): sqlglot plus its listed repairs."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools", "sql"))
    import transpile
    return transpile.transpile(sql)[1]  # (set-up statements, the query, its tables)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudiag", required=True)
    args = ap.parse_args()
    try:
        sqlglot = import_sqlglot()
    except ImportError:
        print("FAIL: python3-sqlglot is not installed (tools/setup test installs it)")
        return 1
    failed = 0
    for v in VARIANTS:
        sql = subprocess.run([args.gpudiag, "sql", *v], check=True, capture_output=True, text=True).stdout
        try:
            out = sqlglot.transpile(sql, read="bigquery", write="duckdb",
                                    unsupported_level=sqlglot.ErrorLevel.RAISE)
            assert len(out) == 1, f"{len(out)} statements"
            fixed = to_duckdb(sql)
            # What the plain transpile loses: a STRUCT's fields (only the sink query has STRUCTs).
            assert ": }" not in fixed and "': ," not in fixed, "a STRUCT lost its fields"
        except Exception as e:  # noqa: BLE001 - any failure is reported
            failed += 1
            print(f"FAIL {' '.join(v)}: {str(e)[:500]}")
            continue
        print(f"ok   {' '.join(v)} ({len(sql)} bytes)")
    print(f"sqlglot {sqlglot.__version__}: {len(VARIANTS) - failed} of {len(VARIANTS)} variants transpile")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
