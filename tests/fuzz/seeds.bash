# Sourced by the scripts that run or package a fuzz target's seeds
# (tests/fuzz/run_briefly.sh, tools/fuzz.sh, .clusterfuzzlite/build.sh), so
# that all three start from what the target's replay test replays
# (tests/fuzz/CMakeLists.txt): its in-tree corpus, its committed
# reproducers, and the files its .seeds names (one path per line, from the
# source root; # starts a comment).

# fuzz_seed_paths ROOT TARGET: each seed folder or file, one per line.
fuzz_seed_paths() {
  local root=$1 target=$2
  echo "$root/tests/fuzz/corpus/$target"
  if [[ -d $root/tests/fuzz/regressions/$target ]]; then
    echo "$root/tests/fuzz/regressions/$target"
  fi
  if [[ -f $root/tests/fuzz/$target.seeds ]]; then
    local seed
    while IFS= read -r seed; do
      [[ -z $seed || $seed == \#* ]] || echo "$root/$seed"
    done <"$root/tests/fuzz/$target.seeds"
  fi
}

# fuzz_copy_seeds DEST PATH...: every file under the PATHs into DEST, named
# by its SHA-1: flat and unique by content, as a zip or a corpus wants.
fuzz_copy_seeds() {
  local dest=$1
  shift
  find "$@" -type f -print0 | while IFS= read -r -d '' file; do
    cp "$file" "$dest/$(sha1sum "$file" | cut -c1-40)"
  done
}
