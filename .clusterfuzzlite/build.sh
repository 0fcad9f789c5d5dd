#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script. It follows OSS-Fuzz's
# conventions: the compilers and flags come from $CC, $CXX, $CFLAGS and
# $CXXFLAGS (they carry the sanitizer and coverage flags), the engine from
# $LIB_FUZZING_ENGINE, and everything a runner needs goes into $OUT:
#   <target>                   every tests/fuzz/*_fuzz.cpp
#   <target>.dict, .options    the dictionary and libFuzzer options
#   <target>_seed_corpus.zip   the in-tree corpus, the seeds and the reproducers
#   regemu_yaml/               the shipped databases the targets open
# tests/fuzz/clusterfuzzlite_build_test.sh runs it with the variables set
# as OSS-Fuzz sets them, without Docker.
# OSS-Fuzz runs this from $SRC/regemu (the Dockerfile's WORKDIR); a local
# run from anywhere builds the tree this script is in.
if [[ -n ${SRC:-} && -d $SRC/regemu ]]; then
  src=$SRC/regemu
else
  src=$(cd "$(dirname "$0")/.." && pwd)
fi
build=${WORK:-/tmp}/regemu-fuzz-build
source "$src/tests/fuzz/seeds.bash"

targets=()
for source in "$src"/tests/fuzz/*_fuzz.cpp; do
  target=$(basename "$source" .cpp)
  # empty_fuzz is the exec/s baseline for measurements, nothing to fuzz.
  [[ $target == empty_fuzz ]] || targets+=("$target")
done

cmake -S "$src" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE= \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DREGEMU_FUZZ=ON -DREGEMU_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
  -DREGEMU_BUILD_TESTS=OFF -DREGEMU_BUILD_KIT=OFF -DREGEMU_BUILD_BENCH=OFF
cmake --build "$build" --target "${targets[@]}"

rm -rf "$OUT/regemu_yaml"
cp -r "$src/yaml" "$OUT/regemu_yaml"
for target in "${targets[@]}"; do
  cp "$build/bin/$target" "$OUT/"
  cp "$src/tests/fuzz/$target.dict" "$src/tests/fuzz/$target.options" "$OUT/"
  # What each target's replay test replays (tests/fuzz/CMakeLists.txt).
  mapfile -t seeds < <(fuzz_seed_paths "$src" "$target")
  rm -f "$OUT/${target}_seed_corpus.zip"
  # -j: flat names; zip numbers nothing, so the names are unique by content.
  staging=$(mktemp -d)
  fuzz_copy_seeds "$staging" "${seeds[@]}"
  if compgen -G "$staging/*" >/dev/null; then
    (cd "$staging" && zip -q -j "$OUT/${target}_seed_corpus.zip" ./*)
  fi
  rm -rf "$staging"
done
