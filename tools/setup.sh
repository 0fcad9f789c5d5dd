#!/usr/bin/env bash
# Installs the Debian packages regemu builds against, only when one is missing,
# so running it twice costs nothing. Safe to call from CI and from the README.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  lld                   # links regemu's own binaries several times faster than GNU ld (REGEMU_LLD)
  clang                 # generated headers are tested with clang as well as g++; the fuzz targets
  libclang-rt-14-dev    # libFuzzer and the sanitizer runtimes for clang (tests/fuzz)
  zip unzip             # fuzz seed corpora as OSS-Fuzz wants them (.clusterfuzzlite/build.sh)
  libyaml-cpp-dev       # the YAML parser behind regdb's loader
  libmuparser-dev       # derived-metric expressions of event counters (GPUBusy, L2CacheHit, ...)
  librange-v3-dev       # regdb/names.hpp's view: the candidates of "did you mean" suggestions
  libgtest-dev libgmock-dev   # unit tests and driver-test mocks
  libbenchmark-dev      # bench/: performance against a raw baseline
  libcli11-dev          # the regemu command line
  nlohmann-json3-dev    # regemu check --json, coverage files
  libpugixml-dev        # the XML of CMSIS-SVD files: regemu convert svd / --to svd
  libdtl-dev            # the diff algorithm (Myers O(ND)) behind regemu diff's unified view of two driver runs
  libzydis-dev          # the x86-64 decoder of trapped mappings: a plain-pointer driver's faulting load or store (emulator/trap)
  libdw-dev             # elfutils' DWARF reader: a trapped access's code address as the driver's source line
  intel-gpu-tools       # IGT's i915-perf-reader decodes exported recordings, intel_reg reads snapshots, in tests
  python3-jsonschema python3-yaml  # tests/schema: the shipped databases validate against `regemu schema`
  linux-source-6.1 bc bison flex libelf-dev  # the User-Mode Linux kernel of `regemu boot` and its tests (tools/uml/build-kernel.sh)
  busybox-static cpio   # the initramfs a boot runs (tools/uml/make-initramfs.sh)
  xz-utils patch        # unpacking and patching that source
  chromium              # headless browser of tests/doc: regemu doc's pages opened, searched and screenshotted (ctest -L browser)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
