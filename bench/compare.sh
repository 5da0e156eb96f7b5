#!/usr/bin/env bash
# Speed against an earlier gpudiag, in one invocation: the two binaries run interleaved on the same
# inputs (NDJSON and array), -j2, five times each, and the medians and their ratio are appended to
# bench/RESULTS-compare.md. For changes that must not cost speed (issue 12: "no more than 2 % slower").
#
#   BASELINE=/path/to/older/gpudiag bench/compare.sh "what changed" [SIZE]   # SIZE: 400M (default), 1G …
#
# Needs: a Release build in build/, python3, GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:?usage: BASELINE=… bench/compare.sh \"what changed\" [SIZE]}"
size="${2:-400M}"
runs=5
G=build/cli/gpudiag
B="${BASELINE:?set BASELINE to the gpudiag binary to compare with}"
for tool in /usr/bin/time python3; do command -v "$tool" >/dev/null || { echo "bench: $tool is missing" >&2; exit 2; }; done
[ -x "$G" ] && [ -x "$B" ] || { echo "bench: build first; BASELINE must be executable" >&2; exit 2; }
data=bench/data
mkdir -p "$data"
ndjson=$data/$size.ndjson; array=$data/$size.json
[ -f "$ndjson" ] || python3 bench/generate.py --size "$size" --shape ndjson --out "$ndjson"
[ -f "$array" ] || python3 bench/generate.py --size "$size" --shape array --out "$array"
cat "$ndjson" "$array" > /dev/null  # warm the page cache

seconds() { /usr/bin/time -f "%e %M %U %S" -o /tmp/gpudiag-compare.time "$@" > /dev/null 2>/dev/null || true; cat /tmp/gpudiag-compare.time; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
ratio() { awk "BEGIN{printf \"%.3f\", $1 / $2}"; }

rows=""
for input in "$ndjson" "$array"; do
  : > /tmp/gpudiag-compare.new; : > /tmp/gpudiag-compare.old
  for _ in $(seq "$runs"); do  # interleaved, so drift on a shared machine hits both alike
    seconds "$G" analyze -j2 --format json "$input" >> /tmp/gpudiag-compare.new
    seconds "$B" analyze -j2 --format json "$input" >> /tmp/gpudiag-compare.old
  done
  t_new=$(cut -d' ' -f1 /tmp/gpudiag-compare.new | median); t_old=$(cut -d' ' -f1 /tmp/gpudiag-compare.old | median)
  m_new=$(cut -d' ' -f2 /tmp/gpudiag-compare.new | sort -n | tail -1); m_old=$(cut -d' ' -f2 /tmp/gpudiag-compare.old | sort -n | tail -1)
  # CPU seconds (user + system) too: steadier than wall time when the machine is shared.
  c_new=$(awk '{print $3 + $4}' /tmp/gpudiag-compare.new | median); c_old=$(awk '{print $3 + $4}' /tmp/gpudiag-compare.old | median)
  rows+="| \`$input\` | $t_old | $t_new | **$(ratio "$t_new" "$t_old")** | $c_old | $c_new | **$(ratio "$c_new" "$c_old")** | $((m_old / 1024)) / $((m_new / 1024)) |"$'\n'
done

out=bench/RESULTS-compare.md
[ -f "$out" ] || printf '# Speed against an earlier gpudiag\n\nWritten by `bench/compare.sh`: both binaries interleaved on the same inputs, `analyze -j2 --format json`,\nmedian of %s runs each. A ratio above 1 is slower than the baseline.\n' "$runs" > "$out"
{
  echo
  echo "## $what"
  echo
  echo "$(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg). Baseline: \`$B\` ($("$B" --version 2>/dev/null | head -1))."
  echo
  echo "| input | baseline (s) | this build (s) | ratio | baseline CPU (s) | this CPU (s) | CPU ratio | peak RSS baseline / this (MiB) |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s' "$rows"
} >> "$out"
tail -n 8 "$out"
