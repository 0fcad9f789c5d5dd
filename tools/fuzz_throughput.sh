#!/usr/bin/env bash
# Executions per second of each fuzz target against libFuzzer's own ceiling:
# empty_fuzz (a target that does nothing, built the same way) runs right
# before them, one process on one core each, SECONDS apiece; the table
# gives each target's exec/s and its ratio to the empty target's.
# access_fuzz runs twice: as the fuzzer runs it, and as the throughput
# goal states it (yaml/icl only, every input exactly 64 operations:
# REGEMU_FUZZ_DEVICES=icl REGEMU_FUZZ_OPS=64), with ops/s.
#   tools/fuzz_throughput.sh [SECONDS]
# Needs the fuzz build: cmake --preset fuzz && cmake --build --preset fuzz
# Measurements only; never part of CI (other load on the machine skews them).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
bin=$PWD/build/fuzz/bin
for target in empty_fuzz regdb_fuzz script_fuzz access_fuzz driver_fuzz; do
  [[ -x $bin/$target ]] || { echo "fuzz_throughput: no $bin/$target; run: cmake --preset fuzz && cmake --build --preset fuzz" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# measure LABEL TARGET MAX_LEN [ENV=VALUE...]: prints the average exec/s.
measure() {
  local label=$1 target=$2 max_len=$3
  shift 3
  local corpus=$work/$label
  mkdir -p "$corpus"
  [[ -d tests/fuzz/corpus/$target ]] && cp tests/fuzz/corpus/"$target"/* "$corpus/"
  env "$@" "$bin/$target" -max_total_time="$seconds" -max_len="$max_len" -print_final_stats=1 \
    -artifact_prefix="$work/" "$corpus" >"$work/$label.log" 2>&1 || {
    tail -20 "$work/$label.log" >&2
    echo "fuzz_throughput: $label crashed" >&2
    exit 1
  }
  sed -n 's/^stat::average_exec_per_sec: *//p' "$work/$label.log" | tail -1
}

max_len_of() { sed -n 's/^max_len *= *//p' "tests/fuzz/$1.options"; }

printf '%-34s %12s %10s\n' "target" "exec/s" "of empty"
empty=$(measure empty empty_fuzz "$(max_len_of access_fuzz)")
printf '%-34s %12s %10s\n' "empty_fuzz (the ceiling)" "$empty" "100%"
row() {
  local label=$1 rate=$2 extra=${3:-}
  printf '%-34s %12s %9s%%  %s\n' "$label" "$rate" "$(awk -v r="$rate" -v e="$empty" 'BEGIN { printf "%.2f", 100 * r / e }')" "$extra"
}
row regdb_fuzz "$(measure regdb_fuzz regdb_fuzz "$(max_len_of regdb_fuzz)")"
row script_fuzz "$(measure script_fuzz script_fuzz "$(max_len_of script_fuzz)")"
row access_fuzz "$(measure access_fuzz access_fuzz "$(max_len_of access_fuzz)")"
rate=$(measure access_fuzz_icl_64 access_fuzz "$(max_len_of access_fuzz)" REGEMU_FUZZ_DEVICES=icl REGEMU_FUZZ_OPS=64)
row "access_fuzz, icl, 64 operations" "$rate" "($((rate * 64)) operations/s)"
row driver_fuzz "$(measure driver_fuzz driver_fuzz "$(max_len_of driver_fuzz)")"
