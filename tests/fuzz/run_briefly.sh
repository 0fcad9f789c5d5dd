#!/usr/bin/env bash
# Every fuzz target of a build run briefly, each from its seed corpus (the
# in-tree corpus, the committed reproducers and the files its .seeds names,
# as .clusterfuzzlite/build.sh zips them). CI calls it on the asan build,
# whose libFuzzer targets share the test suite's objects (ASan + UBSan):
#   tests/fuzz/run_briefly.sh BIN_DIR [SECONDS_PER_TARGET]
# It proves the targets link, run and find nothing in a few seconds; real
# campaigns are tools/fuzz.sh (tests/fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
if (($# < 1)); then
  echo "usage: tests/fuzz/run_briefly.sh BIN_DIR [SECONDS_PER_TARGET]" >&2
  exit 2
fi
bin=$(cd "$1" && pwd)
source tests/fuzz/seeds.bash
seconds=${2:-10}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# One target per core at a time (each is one process): on CI's 2 cores the
# phase takes half as long. Results print in the targets' order.
cores=$(nproc 2>/dev/null || echo 1)

run_target() {
  local target=$1
  # libFuzzer writes what it finds into its first corpus folder: a scratch
  # copy of the seeds, so the run leaves the tree as it was.
  local corpus=$scratch/corpus/$target
  mkdir -p "$corpus"
  local seeds
  mapfile -t seeds < <(fuzz_seed_paths . "$target")
  fuzz_copy_seeds "$corpus" "${seeds[@]}"
  local max_len
  max_len=$(sed -n 's/^max_len *= *//p' "tests/fuzz/$target.options")
  local log=$scratch/$target.log
  if "$bin/$target" -max_total_time="$seconds" -max_len="$max_len" -dict="tests/fuzz/$target.dict" \
      -artifact_prefix="$scratch/$target-" "$corpus" >"$log" 2>&1; then
    echo "fuzz: $target: $(grep -E '^#[0-9]+' "$log" | tail -1)" >"$scratch/$target.result"
  else
    { tail -30 "$log"; echo "fuzz: $target crashed; the input is in the log above"; } >"$scratch/$target.failed"
  fi
}

status=0
targets=()
for source in tests/fuzz/*_fuzz.cpp; do
  target=$(basename "$source" .cpp)
  [[ $target == empty_fuzz ]] && continue
  if [[ ! -x $bin/$target ]]; then
    echo "fuzz: no $target in $bin (configure with REGEMU_FUZZ=ON)" >&2
    status=1
    continue
  fi
  targets+=("$target")
  run_target "$target" &
  while (($(jobs -rp | wc -l) >= cores)); do wait -n || true; done
done
wait
for target in "${targets[@]}"; do
  if [[ -f $scratch/$target.result ]]; then
    cat "$scratch/$target.result"
  elif [[ -f $scratch/$target.failed ]]; then
    cat "$scratch/$target.failed" >&2
    status=1
  else
    echo "fuzz: $target did not run (its seeds could not be gathered)" >&2
    status=1
  fi
done
exit $status
