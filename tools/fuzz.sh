#!/usr/bin/env bash
# A fuzzing campaign on this machine: tools/fuzz.sh TARGET [SECONDS] [-- LIBFUZZER_FLAGS...]
#
# Builds TARGET with the `fuzz` preset (clang, libFuzzer, ASan + UBSan),
# runs libFuzzer in -fork mode over every core for SECONDS (default 300),
# starting from the in-tree corpus and the seeds, keeps going past crashes,
# then merges the inputs that add coverage into tests/fuzz/corpus/TARGET
# and prints exec/s, the corpus size and where the crashes went.
#
# A crash file, minimised (-minimize_crash=1), becomes a regression:
# tests/fuzz/README.md "From a crash to a regression".
set -euo pipefail
cd "$(dirname "$0")/.."

if (($# < 1)); then
  echo "usage: tools/fuzz.sh TARGET [SECONDS] [-- LIBFUZZER_FLAGS...]" >&2
  echo "targets: $(cd tests/fuzz && ls ./*_fuzz.cpp | sed 's|./||; s|\.cpp||' | tr '\n' ' ')" >&2
  exit 2
fi
target=$1
seconds=${2:-300}
shift $(($# >= 2 ? 2 : 1))
[[ ${1:-} == -- ]] && shift
if [[ ! -f tests/fuzz/$target.cpp ]]; then
  echo "fuzz: no target '$target' (tests/fuzz/$target.cpp)" >&2
  exit 2
fi

./tools/setup.sh
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target "$target"

work=build/fuzz/campaign/$target
mkdir -p "$work/corpus" "$work/crashes"
binary=$PWD/build/fuzz/bin/$target
options=tests/fuzz/$target.options
max_len=$(sed -n 's/^max_len *= *//p' "$options")
source tests/fuzz/seeds.bash
mapfile -t seeds < <(fuzz_seed_paths . "$target")
# libFuzzer reads corpus folders (with -fork, nothing else): the seeds, the
# files a .seeds names among them, copied into one.
rm -rf "$work/seeds"
mkdir -p "$work/seeds"
fuzz_copy_seeds "$work/seeds" "${seeds[@]}"

jobs=$(nproc)
log=$work/fuzz.log
echo "fuzz: $target for ${seconds}s on $jobs core(s); log $log"
# -fork keeps fuzzing after a crash (-ignore_crashes); each crash is saved
# under crashes/ by the job that found it.
"$binary" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -max_total_time="$seconds" -max_len="$max_len" -dict="tests/fuzz/$target.dict" \
  -artifact_prefix="$work/crashes/" "$@" \
  "$work/corpus" "$work/seeds" >"$log" 2>&1 || true

# Fold what the campaign found back into the in-tree corpus (only inputs
# that add coverage): commit them if they are worth keeping.
before=$(find "tests/fuzz/corpus/$target" -type f | wc -l)
"$binary" -merge=1 -max_len="$max_len" "tests/fuzz/corpus/$target" "$work/corpus" >"$work/merge.log" 2>&1 || true
after=$(find "tests/fuzz/corpus/$target" -type f | wc -l)

# -fork's own status lines ("#N: cov: ... time: Ts job: J") count every
# job's executions; the jobs' lines ("#N NEW ...") count only their own.
last=$(grep -E '^#[0-9]+: ' "$log" | tail -1 || true)
execs=$(sed -nE 's/^#([0-9]+):.*/\1/p' <<<"$last")
elapsed=$(sed -nE 's/.* time: ([0-9]+)s.*/\1/p' <<<"$last")
rate=$(( ${elapsed:-0} > 0 ? ${execs:-0} / elapsed : 0 ))
crashes=$(find "$work/crashes" -type f | wc -l)
echo "fuzz: $target: ${execs:-0} executions in ${elapsed:-0} s, ${rate} exec/s ($jobs jobs together)"
echo "fuzz: corpus tests/fuzz/corpus/$target: $before -> $after input(s) ($(find "$work/corpus" -type f | wc -l) in $work/corpus)"
if ((crashes > 0)); then
  echo "fuzz: $crashes crash(es), timeout(s) or leak(s) in $work/crashes:"
  find "$work/crashes" -type f | sed 's/^/  /'
  exit 1
fi
echo "fuzz: no crash"
