#pragma once
// An HPET (IA-PC HPET Specification 1.0a) cut down to what `kind:
// counter` drives, for the counter's tests: the main counter at 69841279 fs
// (14.31818 MHz, the period COUNTER_CLK_PERIOD reports on PC chipsets),
// started and halted by GEN_CONF.ENABLE_CNF, and two timers whose
// comparators raise GINTR_STA bits. T0_PERIOD stands for the accumulator a
// real HPET keeps behind T0_CMP in periodic mode (software sets it
// through T0_CMP with Tn_VAL_SET_CNF); here it is a register.

#include <cstdint>
#include <memory>
#include <string>

#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator::testing_support {

inline constexpr uint64_t kGenConf = 0x10;
inline constexpr uint64_t kGintrSta = 0x20;
inline constexpr uint64_t kMainCnt = 0xF0;
inline constexpr uint64_t kT0Conf = 0x100;
inline constexpr uint64_t kT0Cmp = 0x108;
inline constexpr uint64_t kT0Period = 0x110;
inline constexpr uint64_t kT1Cmp = 0x128;
inline constexpr uint64_t kHpetPeriodFs = 69'841'279;

// `counter_width`: MAIN_CNT's (64, or 32 for a 32-bit HPET); `counter_keys`:
// more keys of the counter behaviour, each line indented by four spaces;
// `more`: more behaviours, as list items.
inline std::string HpetYaml(unsigned counter_width = 64, const std::string& counter_keys = "",
                            const std::string& more = "") {
  return R"(device: hpet
spaces:
  - {name: mmio, kind: mmio, size: 0x400}
registers:
  - name: GEN_CONF
    space: mmio
    offset: 0x10
    width: 64
    fields:
      - {name: ENABLE_CNF, bits: 0, access: rw}
      - {name: LEG_RT_CNF, bits: 1, access: rw}
  - name: GINTR_STA
    space: mmio
    offset: 0x20
    width: 64
    fields:
      - {name: T0_INT_STS, bits: 0, access: w1c}
      - {name: T1_INT_STS, bits: 1, access: w1c}
  - {name: MAIN_CNT, space: mmio, offset: 0xf0, width: )" +
         std::to_string(counter_width) + R"(, access: rw}
  - name: T0_CONF
    space: mmio
    offset: 0x100
    width: 64
    fields:
      - {name: INT_ENB_CNF, bits: 2, access: rw}
      - {name: TYPE_CNF, bits: 3, access: rw}
  - {name: T0_CMP, space: mmio, offset: 0x108, width: 64, access: rw, reset: 0xffffffffffffffff}
  - {name: T0_PERIOD, space: mmio, offset: 0x110, width: 64, access: rw}
  - {name: T1_CMP, space: mmio, offset: 0x128, width: 64, access: rw, reset: 0xffffffffffffffff}
  - {name: SCRATCH, space: mmio, offset: 0x200, width: 64, access: rw}
behaviours:
  - name: hpet
    kind: counter
    register: MAIN_CNT
    period: 69841279fs
    enable: GEN_CONF.ENABLE_CNF
)" + counter_keys +
         R"(    compare:
      - {name: T0, register: T0_CMP, set: GINTR_STA.T0_INT_STS, periodic: T0_CONF.TYPE_CNF, period_register: T0_PERIOD}
      - {name: T1, register: T1_CMP, set: GINTR_STA.T1_INT_STS}
)" + more;
}

inline std::unique_ptr<Device> Hpet(unsigned counter_width = 64, const std::string& counter_keys = "",
                                    const std::string& more = "", DeviceOptions options = {}) {
  return MakeDevice(HpetYaml(counter_width, counter_keys, more), std::move(options));
}

// The first ns at which a counter at the HPET's period has counted `ticks`
// from a fresh start: ceil(ticks * P / 10^6).
inline constexpr uint64_t HpetNsFor(uint64_t ticks) { return (ticks * kHpetPeriodFs + 999'999) / 1'000'000; }

}  // namespace regemu::emulator::testing_support
