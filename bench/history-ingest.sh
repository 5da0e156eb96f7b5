#!/usr/bin/env bash
# How fast `gpudiag ingest` stores a large export in SQLite, against just reading the file.
#
#   bench/history-ingest.sh [MB] [ndjson|array] [runs]     (defaults: 1000 ndjson 3)
#
# Generates a realistic export once (bench/generate.py: corpus entries re-stamped) into
# bench/data/, then times, each `runs` times into a fresh database: `cat FILE > /dev/null` (the
# file is in the page cache), `gpudiag ingest --no-fts`, and `gpudiag ingest` with the FTS5 index.
# Prints the median MB/s of export (1 MB = 1e6 bytes of JSON) for each. Needs a Release build in
# build/ (or GPUDIAG=path/to/gpudiag).
set -euo pipefail
cd "$(dirname "$0")/.."

mb="${1:-1000}"
shape="${2:-ndjson}"
runs="${3:-3}"
gpudiag="${GPUDIAG:-build/cli/gpudiag}"
data="bench/data"
export_file="$data/history-${mb}mb.$shape"
db_dir="$(mktemp -d "${TMPDIR:-/tmp}/gpudiag-history-bench.XXXXXX")"
trap 'rm -rf "$db_dir"' EXIT

mkdir -p "$data"
[ -s "$export_file" ] || python3 bench/generate.py --size "${mb}M" --shape "$shape" --seed 3 --out "$export_file"
bytes=$(stat -c %s "$export_file")
cat "$export_file" > /dev/null  # into the page cache

# Seconds (wall clock) of one run of "$@".
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }'
}

median_rate() {  # label, command...
  local label="$1"; shift
  local times=()
  for ((i = 0; i < runs; i++)); do
    rm -f "$db_dir"/bench.db*
    times+=("$(seconds "$@")")
  done
  local median
  median=$(printf '%s\n' "${times[@]}" | sort -g | sed -n "$(( (runs + 1) / 2 ))p")
  printf '%-30s %7.2f s %7.0f MB/s   (runs: %s)\n' "$label" "$median" \
    "$(awk -v n="$bytes" -v s="$median" 'BEGIN { print n / 1e6 / s }')" "${times[*]}"
}

echo "export: $export_file, $((bytes / 1000000)) MB, $shape; $(nproc) cores; $("$gpudiag" --version)"
median_rate "cat > /dev/null" sh -c "cat '$export_file' > /dev/null"
median_rate "gpudiag ingest --no-fts" "$gpudiag" ingest --db "$db_dir/bench.db" --no-fts "$export_file"
median_rate "gpudiag ingest (with FTS5)" "$gpudiag" ingest --db "$db_dir/bench.db" "$export_file"
rm -f "$db_dir"/bench.db*
"$gpudiag" ingest --db "$db_dir/bench.db" --no-fts "$export_file" > /dev/null
echo "database: $(du -h "$db_dir/bench.db" | cut -f1) without the FTS5 index"
