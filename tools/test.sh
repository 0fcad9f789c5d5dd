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

prefix=build/default-install
rm -rf "$prefix" build/consumer
cmake --install build/default --prefix "$prefix" >/dev/null
PKG_CONFIG_PATH="$PWD/$prefix/lib/pkgconfig" \
  cmake -S tests/consumer -B build/consumer -G Ninja -DCMAKE_PREFIX_PATH="$PWD/$prefix" >/dev/null
cmake --build build/consumer
ctest --test-dir build/consumer --output-on-failure
