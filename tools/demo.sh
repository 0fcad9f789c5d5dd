#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build, and run the main
# job. First the example driver (examples/i915_mini, a mini i915 written
# against the generated Ice Lake header) on the shipped yaml/icl: its
# register accesses step by step, annotated (PCI probe and MSI, force-wake,
# Gen11 interrupts installed, two engine interrupts serviced, frequencies
# through the MCHBAR mirror), then each of its deliberate bugs and the
# violation regemu reports for it; then the example OA driver
# (examples/i915_perf): a short periodic OA stream with an injected
# workload, the counter deltas its read returned, and its buffer
# programmed out of order. Then the database checker and a script
# scenario on Haswell: the OA buffer programming sequence of the HSW PRM, the
# same with a must-be-zero mistake, and the checker catching the PRM's
# OAPERF_A31 erratum.
set -euo pipefail
cd "$(dirname "$0")/.."

./tools/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target regemu regemu_example_demo

regemu=build/default/bin/regemu

# Runs a command that must exit with `expected`, and says so.
expect_exit() {
  local expected=$1
  shift
  local status=0
  "$@" || status=$?
  if [[ $status -ne $expected ]]; then
    echo "demo: expected exit $expected from '$*', got $status" >&2
    exit 1
  fi
  echo "(exit $status, as expected)"
}

echo
echo "== build/default/bin/regemu_example_demo  (examples/i915_mini and examples/i915_perf on yaml/icl; --full shows every access)"
expect_exit 0 build/default/bin/regemu_example_demo

echo
echo "== regemu check yaml/*/  (every shipped database)"
"$regemu" check yaml/*/

echo
echo "== regemu run yaml/hsw tests/scripts/hsw_oa_buffer_setup.script  (a driver programming the OA buffer)"
expect_exit 0 "$regemu" run yaml/hsw tests/scripts/hsw_oa_buffer_setup.script

echo
echo "== the same driver writing 1 to OASTATUS2's must-be-zero bit 5, unannounced"
expect_exit 1 "$regemu" run yaml/hsw tests/scripts/hsw_oa_buffer_setup_bad.script

echo
echo "== regemu check tests/data/hsw_literal  (the PRM's OAPERF_A31 address, transcribed literally)"
expect_exit 1 "$regemu" check tests/data/hsw_literal
echo "(yaml/hsw ships A31 at the corrected 0x287C)"
