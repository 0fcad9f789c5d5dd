#!/usr/bin/env bash
# .clusterfuzzlite/build.sh run the way OSS-Fuzz and ClusterFuzzLite run it
# (their environment variables, a fresh $OUT and $WORK; no Docker), then
# every target it produced run briefly from $OUT on its seed corpus, as a
# runner would. CI calls this (.ci/run); by hand:
#   tests/fuzz/clusterfuzzlite_build_test.sh [SECONDS_PER_TARGET]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export SRC=$scratch/src OUT=$scratch/out WORK=$scratch/work
mkdir -p "$SRC" "$OUT" "$WORK"
# OSS-Fuzz's libFuzzer + ASan build (infra/base-images/base-builder).
export CC=clang CXX=clang++
export SANITIZER=address FUZZING_ENGINE=libfuzzer ARCHITECTURE=x86_64
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer

bash .clusterfuzzlite/build.sh >"$scratch/build.log" 2>&1 || {
  tail -40 "$scratch/build.log"
  echo "clusterfuzzlite: build.sh failed" >&2
  exit 1
}

status=0
for source in tests/fuzz/*_fuzz.cpp; do
  target=$(basename "$source" .cpp)
  [[ $target == empty_fuzz ]] && continue
  for file in "$target" "$target.dict" "$target.options" "${target}_seed_corpus.zip"; do
    if [[ ! -s $OUT/$file ]]; then
      echo "clusterfuzzlite: build.sh did not put $file in \$OUT" >&2
      status=1
    fi
  done
  [[ -x $OUT/$target ]] || continue
  # As a runner: the binary and what build.sh put beside it, nothing else.
  corpus=$scratch/corpus/$target
  mkdir -p "$corpus"
  (cd "$corpus" && unzip -q -o "$OUT/${target}_seed_corpus.zip")
  max_len=$(sed -n 's/^max_len *= *//p' "$OUT/$target.options")
  log=$scratch/$target.log
  if (cd "$OUT" && "./$target" -max_total_time="$seconds" -max_len="$max_len" -dict="$target.dict" \
        -artifact_prefix="$scratch/" "$corpus" >"$log" 2>&1); then
    echo "clusterfuzzlite: $target: $(grep -E '^#[0-9]+' "$log" | tail -1)"
  else
    tail -30 "$log"
    echo "clusterfuzzlite: $target crashed on \$OUT's build; the input is in the log above" >&2
    status=1
  fi
done
[[ -d $OUT/regemu_yaml/icl ]] || { echo "clusterfuzzlite: no regemu_yaml/ in \$OUT" >&2; status=1; }
exit $status
