#!/usr/bin/env bash
# gpudiag's memory benchmark: each dimension of an export that used to cost memory in proportion
# (issues 11 and 37) is generated at 1x and 4x, and gpudiag's peak RSS (GNU time) is recorded at -j1
# and at -j2 for each in bench/RESULTS-memory.md. Flat means bounded: the promise is <= 64 MiB
# whatever the input, at any -j; the script exits 1 when one of gpudiag's figures is over it.
#
#   bench/memory.sh
#   BASELINE=/path/to/older/gpudiag bench/memory.sh   # adds that binary's figures, same inputs, same run
#
# Needs: a Release build in build/, python3, GNU time (/usr/bin/time: apt-get install time).
# Most inputs are modest (~100 MB at 4x); three are large on purpose: 300 k job messages over 50
# jobs (148 MB at 1x, 590 MB at 4x), 10 M tiny entries (734 MB at 4x) and the stress row, 1.5 M
# distinct workers (636 MB). Inputs are generated once into bench/data/memory (git-ignored, ~2.8 GB;
# ~4 minutes) and reused; delete that folder after changing the generator. About 15 minutes on 2
# cores with BASELINE=, most of it the stress row and the jobs rows.
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
    elif dim == "job-messages-50-jobs":  # 300,000 matching job messages per scale over 50 job ids
        for i in range(300_000 * scale):
            f.write(entry(i, "Workflow failed. Causes: 4 vCpus with 16384 MiB memory is an invalid "
                             "configuration for 2 count of 'nvidia-l4' in family 'g2-standard'.",
                          job=f"2024-01-01_00_00_00-{i % 50:09}", log="job-message"))
    elif dim == "tiny":          # 2,500,000 entries per scale, each the least a LogEntry with a job id is
        # (a payload, the job label) plus a distinct insertId, so the duplicate filter sees every one.
        # Written by hand, not json.dumps: 10 M entries would take minutes.
        batch = []
        for i in range(2_500_000 * scale):
            batch.append(f'{{"insertId":"{i:x}","textPayload":"x","resource":{{"labels":{{"job_id":"j"}}}}}}\n')
            if len(batch) == 100_000:
                f.write("".join(batch))
                batch.clear()
        f.write("".join(batch))
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

peak_mib() {  # peak_mib CMD…: runs it (its output in $data/out.txt), prints its peak RSS in MiB and its wall time
  /usr/bin/time -v "$@" > "$data/out.txt" 2> "$data/time.txt" || true
  local kb secs
  kb=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$data/time.txt")
  secs=$(awk '/Elapsed \(wall clock\)/ {print $NF}' "$data/time.txt")
  printf '%s|%s' "$(awk -v kb="$kb" 'BEGIN { printf "%.1f", kb / 1024 }')" "$secs"
}

# cell runs in a command substitution (a subshell): what is over goes to a file, not a variable.
: > "$data/over.txt"
cell() {  # cell ARGS…: " **MiB**, s (baseline …) |" for gpudiag (and the baseline) running analyze ARGS
  local result text
  result=$(peak_mib "$G" "$@")
  text=" **${result%|*} MiB**, ${result#*|} s"
  if awk -v mib="${result%|*}" 'BEGIN { exit !(mib > 64) }'; then
    text+=" (over 64 MiB)"
    echo "$*" >> "$data/over.txt"
  fi
  if [ -n "${BASELINE:-}" ]; then
    mv "$data/out.txt" "$data/out-gpudiag.txt"
    result=$(peak_mib "$BASELINE" "$@")
    text+=" (baseline ${result%|*} MiB, ${result#*|} s"
    # The reports are compared too: a cap that bites must say so, so a changed report is news.
    cmp -s "$data/out.txt" "$data/out-gpudiag.txt" || text+=", **report differs**"
    text+=")"
  fi
  printf '%s |' "$text"
}

# Each input: DIMENSION SCALE. workers 60 is the stress campaign's export (issue 11): 1.5 M distinct
# workers, each with the OOM line.
inputs=(
  "entry-size 1" "entry-size 4" "matches 1" "matches 4" "workers 1" "workers 4" "workers 60"
  "jobs 1" "jobs 4" "job-messages 1" "job-messages 4" "job-messages-50-jobs 1" "job-messages-50-jobs 4"
  "tiny 1" "tiny 4" "rules 1" "rules 4"
)
rows=()
for spec in "${inputs[@]}"; do
  read -r dim scale <<< "$spec"
  input=$data/$dim-$scale.ndjson
  [ -f "$input" ] || python3 "$data/gen.py" "$dim" "$scale" "$input"
  extra=()
  if [ "$dim" = rules ]; then
    write_rules "$data/rules-$scale" $((100 * scale))
    extra=(--rules "$data/rules-$scale")
  fi
  size=$(du -m "$input" | cut -f1)
  line="| $dim | ${scale}x | ${size} MB |"
  for jobs in 1 2; do
    line+=$(cell analyze -j$jobs --format json "${extra[@]}" "$input")
  done
  rows+=("$line")
  echo "$line"
done
# gpudiag ingest (the history database) over the workers inputs. ingest has no -j: it uses the cores
# available (2 on the bench machine), so its figure is in the -j2 column.
for scale in 1 4; do
  input=$data/workers-$scale.ndjson
  line="| ingest (workers) | ${scale}x | $(du -m "$input" | cut -f1) MB | — |"
  rm -f "$data/ingest.sqlite"
  result=$(peak_mib "$G" ingest --db "$data/ingest.sqlite" "$input")
  line+=" **${result%|*} MiB**, ${result#*|} s"
  if awk -v mib="${result%|*}" 'BEGIN { exit !(mib > 64) }'; then
    line+=" (over 64 MiB)"
    echo "ingest $input" >> "$data/over.txt"
  fi
  if [ -n "${BASELINE:-}" ]; then
    rm -f "$data/ingest.sqlite"
    result=$(peak_mib "$BASELINE" ingest --db "$data/ingest.sqlite" "$input")
    line+=" (baseline ${result%|*} MiB, ${result#*|} s)"
  fi
  line+=" |"
  rows+=("$line")
  echo "$line"
done

{
  echo "# Memory benchmark"
  echo
  echo "Written by \`bench/memory.sh\` on $(date -u +%Y-%m-%d) ($(nproc) cores). Peak RSS from GNU time and"
  echo "wall time, at -j1 and -j2, of \`analyze --format json\` (and of \`ingest\`); each dimension at 1x and"
  echo "4x of its size. Flat is the point: the promise is <= 64 MiB whatever the input, at any -j"
  echo "(docs/performance.md, \"Memory caps\")."
  [ -n "${BASELINE:-}" ] && echo "Baseline: ${BASELINE}, in the same run on the same inputs."
  echo
  echo "| dimension | scale | input | -j1 | -j2 |"
  echo "|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} > bench/RESULTS-memory.md
echo "bench: wrote bench/RESULTS-memory.md"
if [ -s "$data/over.txt" ]; then
  sed 's/^/bench: over 64 MiB: /' "$data/over.txt" >&2
  exit 1
fi
