#!/usr/bin/env bash
# The cost of the rule pack's RE2::Set on small exports, where its lazily built DFA is most of the
# work: gpudiag's instructions (callgrind, -j1, deterministic) on a few corpus exports, and on `[]`
# (start-up alone), for this build and for a baseline binary in the same run. Written for the
# set forms (engine/src/pack/set_form.h); results in bench/RESULTS-set-form.md.
#
#   BASELINE=/path/to/older/gpudiag bench/set-form.sh
#
# Needs: a Release build in build/, valgrind. About 2 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "bench: valgrind is missing (apt-get install valgrind)" >&2; exit 2; }
G=build/cli/gpudiag
[ -x "$G" ] || { echo "bench: build first" >&2; exit 2; }
[ -n "${BASELINE:-}" ] && [ ! -x "$BASELINE" ] && { echo "bench: BASELINE=$BASELINE is not an executable" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo '[]' > "$tmp/empty.json"
inputs=("$tmp/empty.json" corpus/user-dofn-valueerror-python/export.json corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json
        corpus/healthy-gpu-t4-tensorflow/export.json corpus/container-crash-loop-then-stall/export.json)
instructions() {  # binary input
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" analyze -j1 --format json "$2" \
    2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
if [ -n "${BASELINE:-}" ]; then
  printf '| input | entries | baseline | this build | ratio |\n|---|---:|---:|---:|---:|\n'
else
  printf '| input | entries | this build |\n|---|---:|---:|\n'
fi
for input in "${inputs[@]}"; do
  entries=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$input")
  now=$(instructions "$G" "$input")
  if [ -n "${BASELINE:-}" ]; then
    base=$(instructions "$BASELINE" "$input")
    ratio=$(python3 -c "print(f'{$now/$base:.3f}×')")
    printf '| %s | %s | %s | %s | %s |\n' "${input#"$tmp/"}" "$entries" "$base" "$now" "$ratio"
  else
    printf '| %s | %s | %s |\n' "${input#"$tmp/"}" "$entries" "$now"
  fi
done
