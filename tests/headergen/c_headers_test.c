/* The generated C headers of two devices in one translation unit, used the
 * i915 way: offsets, spaces, array and block macros, fields, enumerated values. */
#include <stdio.h>
#include <string.h>

#include "regemu/regs/golden.h"
#include "regemu/regs/hsw.h"

_Static_assert(HSW_OACONTROL == 0x2360u, "OACONTROL offset");
_Static_assert(HSW_OAPERF_A(31) == 0x287cu, "OAPERF_A31 follows the array");
_Static_assert(GOLDEN_RING_RING_TAIL(GOLDEN_RING_BCS0_BASE) == 0x3030u, "a block register at an instance");
_Static_assert(GOLDEN_RING_RING_CTX(GOLDEN_RING_RCS0_BASE, 2) == 0x2108u, "an array in a block");
_Static_assert(GOLDEN_AUX_VIEW_BASE == 0x9000u && GOLDEN_AUX_VIEW_SIZE == 0x1000u, "an alias window");
_Static_assert(GOLDEN_HOLE_BASE == 0x8000u && GOLDEN_HOLE_SIZE == 0x100u, "a reserved range");
_Static_assert(GOLDEN_COUNTER_VALUE(1) == 0x100u && GOLDEN_COUNTER_VALUE(4) == 0x118u, "an array from start 1");
_Static_assert(HSW_OACONTROL_COUNTER_SELECT_A45_B8_C8 == 0x14u, "an enumerated value in place");
_Static_assert(HSW_OACONTROL_PERFORMANCE_COUNTER_ENABLE == REGEMU_BIT(0), "a one-bit field");
_Static_assert(REGEMU_FIELD_GET(HSW_OACONTROL_TIMER_PERIOD_MASK, 0x175u) == 5u, "field extraction");
_Static_assert(REGEMU_MASKED_BIT_ENABLE(GOLDEN_MODE_CTL_ENABLE) == 0x00100010u, "masked enable");
_Static_assert(REGEMU_MASKED_BIT_DISABLE(GOLDEN_MODE_CTL_ENABLE) == 0x00100000u, "masked disable");

int main(void) {
  /* The OA enable value of tests/scripts/hsw_oa_buffer_setup.script, built from macros. */
  uint64_t oacontrol = REGEMU_FIELD_PREP(HSW_OACONTROL_TIMER_PERIOD_MASK, 5u) | HSW_OACONTROL_TIMER_ENABLE_ENABLE |
                       HSW_OACONTROL_COUNTER_SELECT_A45_B8_C8 | HSW_OACONTROL_PERFORMANCE_COUNTER_ENABLE;
  if (oacontrol != 0x175u) {
    printf("OACONTROL: 0x%llx, expected 0x175\n", (unsigned long long)oacontrol);
    return 1;
  }
  /* A driver with several spaces picks its accessor by the register's space. */
  if (strcmp(HSW_OACONTROL_SPACE, "mmio") != 0 || strcmp(GOLDEN_MSR_PLATFORM_INFO_SPACE, "msr") != 0) {
    printf("_SPACE: %s, %s; expected mmio, msr\n", HSW_OACONTROL_SPACE, GOLDEN_MSR_PLATFORM_INFO_SPACE);
    return 1;
  }
  return 0;
}
