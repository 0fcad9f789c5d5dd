#!/usr/bin/env bash
# Quick start, command 2: install what is missing, build everything with
# warnings as errors, run the whole test suite, then install regemu into a
# scratch prefix and build and run a driver project against the installed
# package (tests/consumer: find_package(regemu) and pkg-config).
set -euo pipefail
cd "$(dirname "$0")/.."

./tools/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default
ctest --preset default

# The install prefix and the consumer project both live outside the
# checkout, as a driver team's would: nothing there can reach the sources.
outside=$(mktemp -d "${TMPDIR:-/tmp}/regemu-consumer.XXXXXX")
trap 'rm -rf "$outside"' EXIT
prefix=$outside/prefix
cmake --install build/default --prefix "$prefix" >/dev/null
cp -r tests/consumer "$outside/project"
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" \
  cmake -S "$outside/project" -B "$outside/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$outside/build"
ctest --test-dir "$outside/build" --output-on-failure
