#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build, and run the main
# job: compile the shipped databases into fake devices and run driver-style
# scenarios against them, printing what happened: the Haswell OA buffer
# programming sequence of its seed, and on Ice Lake a Gen11 interrupt
# delivered as MSI and serviced by i915's handler. Then show driver
# mistakes failing (unannounced), and the checker catching the Haswell
# seed's OAPERF_A31 erratum.
set -euo pipefail
cd "$(dirname "$0")/.."

./tools/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target regemu

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
echo "== regemu check yaml/*/  (every shipped database)"
"$regemu" check yaml/*/

echo
echo "== regemu run yaml/hsw tests/scripts/hsw_oa_buffer_setup.script  (a driver programming the OA buffer)"
expect_exit 0 "$regemu" run yaml/hsw tests/scripts/hsw_oa_buffer_setup.script

echo
echo "== the same driver writing 1 to OASTATUS2's must-be-zero bit 5, unannounced"
expect_exit 1 "$regemu" run yaml/hsw tests/scripts/hsw_oa_buffer_setup_bad.script

echo
echo "== regemu run yaml/icl tests/scripts/icl_msi_gen11_irq.script  (MSI enable, Gen11 interrupt, i915's handler)"
expect_exit 0 "$regemu" run yaml/icl tests/scripts/icl_msi_gen11_irq.script

echo
echo "== the Gen11 handler clearing GT_INTR_DW0 before servicing selector and identity, unannounced"
expect_exit 1 "$regemu" run yaml/icl tests/scripts/icl_irq_handler_bad.script

echo
echo "== regemu check tests/data/hsw_literal  (the seed's OAPERF_A31 address, transcribed literally)"
expect_exit 1 "$regemu" check tests/data/hsw_literal
echo "(yaml/hsw ships A31 at the corrected 0x287C)"
