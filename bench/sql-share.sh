#!/usr/bin/env bash
# The share of a fleet's entries `gpudiag sql` returns (issue 18: under 5 %), the local DuckDB time of
# the query and `gpudiag sql --explain`'s bytes-scanned estimate, on a 31-job export made with
# bench/generate.py's default failure and traceback rates, run through the parity harness (tools/sql:
# the GoogleSQL text transpiled by sqlglot, executed in DuckDB). Also checks that the returned rows
# diagnose as the export. bench/RESULTS-sql.md records a run.
#
#   bench/sql-share.sh [SIZE]        # SIZE: 40M (default)
#   GPUDIAG=… GPUDIAG_SQL=… bench/sql-share.sh     # the binary to analyse with / to compile the query
#
# Needs: a Release build, /usr/bin/python3 with python3-sqlglot, node with tools/sql/node_modules
# (tools/setup test installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
size="${1:-40M}"
G="${GPUDIAG:-build/cli/gpudiag}"
S="${GPUDIAG_SQL:-$G}"
PY=/usr/bin/python3
data=bench/data
mkdir -p "$data"
export_file=$data/$size-31jobs.ndjson
# The defaults: one failure entry per 20,000 entries, one long traceback per 400 (generate.py --help).
[ -f "$export_file" ] || python3 bench/generate.py --size "$size" --jobs 31 --out "$export_file"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "export: $export_file ($(stat -c %s "$export_file") bytes), bench/generate.py --size $size --jobs 31"
"$G" analyze --deterministic --format json "$export_file" > "$tmp/want.json" || true
for schema in analytics sink; do
  case $schema in analytics) source=analytics:bench-proj.fleet_logs ;; sink) source=sink:bench-proj.fleet_sink ;; esac
  "$S" sql --source "$source" > "$tmp/$schema.sql"
  times=()
  for run in 1 2 3; do  # the query alone, not the loading; median of three
    tools/sql/run-query --source "$source" --query "$tmp/$schema.sql" "$export_file" > "$tmp/$schema.rows.json" 2> "$tmp/stats"
    times+=("$($PY -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1])["query_ms"])' "$tmp/stats")")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)
  "$G" analyze --deterministic --format json "$tmp/$schema.rows.json" > "$tmp/got.json" || true
  $PY - "$tmp/$schema.rows.json" "$tmp/stats" "$tmp/want.json" "$tmp/got.json" "$schema" "$median" <<'PY'
import json, sys
sys.path.insert(0, "tests")
from ingest_bq_corpus import diagnosis
rows = json.load(open(sys.argv[1]))
stats = json.loads(open(sys.argv[2]).read().splitlines()[-1])
summary = sum(1 for r in rows if r.get("gpudiag_summary") is not None)
entries = len(rows) - summary
want, got = json.load(open(sys.argv[3])), json.load(open(sys.argv[4]))
same = diagnosis(want, facts=False) == diagnosis(got, facts=False)
# Fact values per job: the generated jobs mix corpus cases (projects, options, driver lines) and
# put entries out of time order, so the first value by time (the query's) can differ from the
# first in the file (the export's); the corpus parity test compares facts on real-shaped jobs.
fw = {j["id"]: {f["name"]: f["value"] for f in j.get("facts", [])} for j in want["jobs"]}
fg = {j["id"]: {f["name"]: f["value"] for f in j.get("facts", [])} for j in got["jobs"]}
facts_same = sum(1 for k in fw if fw[k] == fg.get(k))
differ = {}
for k in fw:
    for name in set(fw[k]) | set(fg.get(k, {})):
        if fw[k].get(name) != fg.get(k, {}).get(name):
            differ[name] = differ.get(name, 0) + 1
differ = ", ".join(f"{n} {c}" for n, c in sorted(differ.items(), key=lambda x: (-x[1], x[0])))
print(f"{sys.argv[5]}: {len(rows)} rows returned ({entries} entries + {summary} summary rows) of {stats['loaded']} "
      f"entries = {100 * len(rows) / stats['loaded']:.2f} % (entries alone {100 * entries / stats['loaded']:.2f} %); "
      f"DuckDB query {float(sys.argv[6]):.0f} ms (median of 3); diagnosis as the export's: {'yes' if same else 'NO'} "
      f"(findings, verdicts, outcomes, inconclusive, unexplained); every fact value as the export's in {facts_same} of {len(fw)} jobs"
      + (f" (jobs whose value differs, per fact: {differ})" if differ else ""))
PY
  echo "$schema: times ms ${times[*]}"
  "$S" sql --source "$source" --since 24h --explain > "$tmp/explain.txt" 2>&1 || true  # as a daily query
  echo "$schema: gpudiag sql --source $source --since 24h --explain:"; sed 's/^/    /' "$tmp/explain.txt"
done
