#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build, and run the main
# job: check every shipped register database, then show the checker catching
# the Haswell seed's OAPERF_A31 erratum in its literal transcription.
set -euo pipefail
cd "$(dirname "$0")/.."

./tools/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target regemu

regemu=build/default/bin/regemu
echo
echo "== regemu check yaml/*  (the shipped databases)"
"$regemu" check yaml/*/

echo
echo "== regemu check tests/data/hsw_literal  (the seed's OAPERF_A31 address, transcribed literally)"
status=0
"$regemu" check tests/data/hsw_literal || status=$?
if [[ $status -ne 1 ]]; then
  echo "demo: expected exit 1 for the literal transcription, got $status" >&2
  exit 1
fi
echo "(exit 1, as expected: yaml/hsw ships A31 at the corrected 0x287C)"
