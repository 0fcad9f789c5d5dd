#!/usr/bin/env bash
# Quick start, command 2: install what is missing, build the User-Mode
# Linux kernel the boot tests need, build the whole test
# suite with warnings as errors under AddressSanitizer and
# UndefinedBehaviorSanitizer and run it (every test binary, the browser
# tests included), then build the package as a user installs it, install it
# into a scratch prefix and build and run a driver project against it
# (tests/consumer: find_package(regemu) and pkg-config).
#
# One build of the tests, sanitized, instead of a plain one and a sanitized
# one: on 2 cores the suite's compile time is most of CI's. The sanitized
# build uses clang (about twice as fast as g++ at -O0 with the sanitizers);
# the package below is built with g++, so both compilers see the tree.
# Day-to-day work uses the plain `default` preset (docs/building.md).
set -euo pipefail
cd "$(dirname "$0")/.."

./tools/setup.sh
# The User-Mode Linux kernel the boot tests run (tests/uml): built once,
# then cached by the hash of its inputs (tools/uml/build-kernel.sh).
REGEMU_UML_KERNEL=$(./tools/uml/build-kernel.sh | tail -1)
export REGEMU_UML_KERNEL
cmake --preset asan >/dev/null
cmake --build --preset asan
ctest --preset asan

# The package: the libraries, the kit and the tools, no sanitizer (a
# driver project links it as it is).
cmake --preset package >/dev/null
cmake --build --preset package

# The install prefix and the consumer project both live outside the
# checkout, as a driver team's would: nothing there can reach the sources.
outside=$(mktemp -d "${TMPDIR:-/tmp}/regemu-consumer.XXXXXX")
trap 'rm -rf "$outside"' EXIT
prefix=$outside/prefix
cmake --install build/package --prefix "$prefix" >/dev/null
cp -r tests/consumer "$outside/project"
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" \
  cmake -S "$outside/project" -B "$outside/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$outside/build"
ctest --test-dir "$outside/build" --output-on-failure
