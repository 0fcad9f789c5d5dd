#!/usr/bin/env bash
# Quick start, command 2: install what is missing, build everything with
# warnings as errors, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

./tools/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default
ctest --preset default
