#!/usr/bin/env bash
# driver_fuzz against each of the example i915 driver's selectable bugs:
# for each, libFuzzer runs from the seed corpus until its first crash (or
# SECONDS pass), and the table says how long it took, after how many
# executions, and what the device reported. Then the correct driver runs
# for CORRECT_SECONDS, where any crash is a false positive (or a real bug).
#   tools/driver_fuzz_bugs.sh [SECONDS_PER_BUG] [CORRECT_SECONDS]
# Needs the fuzz build: cmake --preset fuzz && cmake --build --preset fuzz
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-120}
correct_seconds=${2:-60}
binary=$PWD/build/fuzz/bin/driver_fuzz
[[ -x $binary ]] || { echo "driver_fuzz_bugs: no $binary; run: cmake --preset fuzz && cmake --build --preset fuzz" >&2; exit 2; }
max_len=$(sed -n 's/^max_len *= *//p' tests/fuzz/driver_fuzz.options)
bugs=(skip-forcewake clear-dw-before-service select-all-pending write-mchbar-mirror rmw-command-status)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One libFuzzer run from a fresh copy of the quiet seeds (seed_*: decode on,
# no errors, no interrupts; the rest of the in-tree corpus came from
# campaigns and would hand the fuzzer what it is to find); prints
# "SECONDS EXECS EXIT_STATUS".
run() {
  local name=$1 limit=$2
  local corpus=$work/$name/corpus
  mkdir -p "$corpus"
  cp tests/fuzz/corpus/driver_fuzz/seed_* "$corpus/"
  local start end status=0
  start=$(date +%s.%N)
  "$binary" -max_total_time="$limit" -max_len="$max_len" -dict=tests/fuzz/driver_fuzz.dict \
    -artifact_prefix="$work/$name/" -print_final_stats=1 "$corpus" >"$work/$name.log" 2>&1 || status=$?
  end=$(date +%s.%N)
  local execs
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log" | tail -1)
  [[ -n $execs ]] || execs=$(grep -oE '^#[0-9]+' "$work/$name.log" | tail -1 | tr -d '#')
  printf '%s %s %s\n' "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }')" "${execs:-?}" "$status"
}

printf '%-26s %10s %10s  %s\n' "bug" "seconds" "execs" "first crash"
for bug in "${bugs[@]}"; do
  read -r took execs status < <(REGEMU_FUZZ_BUG=$bug run "$bug" "$seconds")
  if [[ $status -ne 0 ]]; then
    what=$(grep -m1 -oE 'driver_fuzz: the driver failed at .*' "$work/$bug.log" | cut -c1-110)
  else
    what="NOT FOUND in ${seconds}s"
  fi
  printf '%-26s %10s %10s  %s\n' "$bug" "$took" "$execs" "$what"
done

read -r took execs status < <(run correct "$correct_seconds")
if [[ $status -ne 0 ]]; then
  grep -m1 -A3 'driver_fuzz: the driver failed' "$work/correct.log" || tail -20 "$work/correct.log"
  printf '%-26s %10s %10s  %s\n' "(correct driver)" "$took" "$execs" "CRASHED: see above"
  exit 1
fi
printf '%-26s %10s %10s  %s\n' "(correct driver)" "$took" "$execs" "no crash"
