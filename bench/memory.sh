#!/usr/bin/env bash
# gpudiag's memory benchmark: each dimension of an export that used to cost memory in proportion
# (issue 11, finding 5) is generated at 1x and 4x, and gpudiag's peak RSS (GNU time) is recorded
# for both in bench/RESULTS-memory.md. Flat means bounded: the promise is <= 64 MiB whatever the input.
#
#   bench/memory.sh
#   BASELINE=/path/to/older/gpudiag bench/memory.sh   # adds that binary's figures, same inputs, same run
#
# Needs: a Release build in build/, python3, GNU time (/usr/bin/time: apt-get install time).
# Inputs are modest (the largest is ~100 MB) and runs use -j2.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in /usr/bin/time python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install time)" >&2; exit 2; }
done
G=build/cli/gpudiag
[ -x "$G" ] || { echo "bench: build first" >&2; exit 2; }
data=bench/data/memory
mkdir -p "$data"

# One generator for every dimension: gen.py DIMENSION SCALE OUT
cat > "$data/gen.py" <<'EOF'
import json, sys
dim, scale, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
OOM = "RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB"

def entry(i, message, worker="w-1", job="2024-01-01_00_00_00-1", log="worker", severity="ERROR"):
    return json.dumps({
        "insertId": f"id-{i}", "timestamp": f"2024-01-01T{(i // 3600) % 24:02}:{(i // 60) % 60:02}:{i % 60:02}Z",
        "severity": severity, "logName": f"projects/p/logs/dataflow.googleapis.com%2F{log}",
        "resource": {"type": "dataflow_step", "labels": {"job_id": job, "project_id": "p", "region": "us-central1"}},
        "labels": {"compute.googleapis.com/resource_name": worker},
        "jsonPayload": {"message": message}}) + "\n"

with open(out, "w") as f:
    if dim == "entry-size":      # one message of 25 MB per scale, the signature in its middle
        half = "x" * (12_500_000 * scale)
        f.write(entry(0, "starting", severity="INFO"))
        f.write(entry(1, half + "\n" + OOM + "\n" + half))
    elif dim == "matches":       # matching entries of 3 MB each (under --max-entry-bytes): 8 per scale
        for i in range(8 * scale):
            f.write(entry(i, OOM + "\n" + "y" * 3_000_000))
    elif dim == "workers":       # 25,000 distinct workers per scale, each with the error
        for i in range(25_000 * scale):
            f.write(entry(i, OOM, worker=f"job-harness-{i:07}"))
    elif dim == "jobs":          # 25,000 distinct job ids per scale
        for i in range(25_000 * scale):
            f.write(entry(i, OOM, job=f"2024-01-01_00_00_00-{i:09}"))
    elif dim == "job-messages":  # 50,000 "Workflow failed … invalid configuration" messages per scale
        for i in range(50_000 * scale):
            f.write(entry(i, "Workflow failed. Causes: 4 vCpus with 16384 MiB memory is an invalid "
                             "configuration for 2 count of 'nvidia-l4' in family 'g2-standard'.", log="job-message"))
    elif dim == "rules":         # a small export; the rules are the dimension (written by memory.sh)
        for i in range(1000):
            f.write(entry(i, f"needle-r{i % 100:03} and some text", severity="INFO"))
EOF

write_rules() {  # write_rules DIR COUNT: COUNT user rules, each with a 4 KiB example
  rm -rf "$1"; mkdir -p "$1"
  python3 - "$1" "$2" <<'EOF'
import sys
out, n = sys.argv[1], int(sys.argv[2])
pad = "z" * 4000
for i in range(n):
    open(f"{out}/r{i:04}.yaml", "w").write(f"""id: user-r{i:04}
title: A generated rule {i}
family: runtime
severity: warning
confidence: 0.5
description: A generated rule for the memory benchmark.
match:
  text: 'needle-r{i:04}'
examples:
  match:
    - 'needle-r{i:04} {pad}'
  no_match:
    - 'hay'
""")
EOF
}

peak_mib() {  # peak_mib CMD…: runs it, prints its peak RSS in MiB and its wall time
  /usr/bin/time -v "$@" > /dev/null 2> "$data/time.txt" || true
  local kb secs
  kb=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$data/time.txt")
  secs=$(awk '/Elapsed \(wall clock\)/ {print $NF}' "$data/time.txt")
  printf '%s|%s' "$(awk -v kb="$kb" 'BEGIN { printf "%.1f", kb / 1024 }')" "$secs"
}

rows=()
for dim in entry-size matches workers jobs job-messages rules; do
  line="| $dim |"
  for scale in 1 4; do
    input=$data/$dim-$scale.ndjson
    [ -f "$input" ] || python3 "$data/gen.py" "$dim" "$scale" "$input"
    args=(analyze -j2 --format json "$input")
    if [ "$dim" = rules ]; then
      write_rules "$data/rules-$scale" $((100 * scale))
      args=(analyze -j2 --format json --rules "$data/rules-$scale" "$input")
    fi
    size=$(du -m "$input" | cut -f1)
    result=$(peak_mib "$G" "${args[@]}")
    line+=" ${size} MB: **${result%|*} MiB**, ${result#*|} s"
    if [ -n "${BASELINE:-}" ]; then
      result=$(peak_mib "$BASELINE" "${args[@]}")
      line+=" (baseline ${result%|*} MiB, ${result#*|} s)"
    fi
    line+=" |"
  done
  rows+=("$line")
  echo "$line"
done
# gpudiag ingest (the history database) over the largest inputs.
line="| ingest (workers) |"
for scale in 1 4; do
  rm -f "$data/ingest-$scale.sqlite"
  result=$(peak_mib "$G" ingest --db "$data/ingest-$scale.sqlite" "$data/workers-$scale.ndjson")
  line+=" **${result%|*} MiB**, ${result#*|} s"
  if [ -n "${BASELINE:-}" ]; then
    rm -f "$data/ingest-$scale.sqlite"
    result=$(peak_mib "$BASELINE" ingest --db "$data/ingest-$scale.sqlite" "$data/workers-$scale.ndjson")
    line+=" (baseline ${result%|*} MiB, ${result#*|} s)"
  fi
  line+=" |"
done
rows+=("$line")
echo "$line"

{
  echo "# Memory benchmark"
  echo
  echo "Written by \`bench/memory.sh\` on $(date -u +%Y-%m-%d) ($(nproc) cores, -j2). Peak RSS from GNU time;"
  echo "each dimension at 1x and 4x of its size. Flat is the point: the promise is <= 64 MiB whatever the"
  echo "input (docs/performance.md, \"Memory caps\"). The growth that is left comes from the duplicate filter,"
  echo "which remembers insertIds exactly for the first 1,572,864 entries (at most 16 MiB), and is bounded."
  [ -n "${BASELINE:-}" ] && echo "Baseline: the \`main\` branch's binary before the memory caps, in the same run."
  echo
  echo "| dimension | 1x | 4x |"
  echo "|---|---|---|"
  printf '%s\n' "${rows[@]}"
} > bench/RESULTS-memory.md
echo "bench: wrote bench/RESULTS-memory.md"
