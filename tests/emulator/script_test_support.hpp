#pragma once
// Helpers for the script tests: one small device that has every kind of
// register a script can touch, compiled once, and parsing against it.

#include <memory>
#include <stdexcept>
#include <string>

#include "regemu/emulator/model.hpp"
#include "regemu/emulator/script.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::emulator::script_testing {

// CTRL: rw fields and an mbz bit; STATUS: read-only; CLEAR: clear-on-read;
// SMALL: 16 bits; COUNT: a counter adding 1 every 100ns; WIDE: 64 bits;
// an MSR space; a gap at mmio 0x100 where nothing decodes.
inline constexpr const char* kDeviceYaml = R"(
device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
  - {name: msr, kind: msr, size: 0x100}
registers:
  - name: CTRL
    space: mmio
    offset: 0x10
    fields:
      - {name: EN, bits: 0, access: rw}
      - {name: RSVD, bits: 5, access: mbz}
      - {name: HI, bits: "31:8", access: rw}
  - {name: STATUS, space: mmio, offset: 0x14, access: ro, reset: 0x1}
  - {name: CLEAR, space: mmio, offset: 0x18, access: rc, reset: 0xff}
  - {name: SMALL, space: mmio, offset: 0x20, width: 16}
  - {name: COUNT, space: mmio, offset: 0x30, access: hw}
  - {name: WIDE, space: mmio, offset: 0x40, width: 64}
  - {name: PERF_CTL, space: msr, offset: 0x10, width: 64}
behaviours:
  - {kind: counter, register: COUNT, period: 100ns}
)";

inline std::shared_ptr<const Model> CompileYaml(const std::string& yaml) {
  regdb::LoadedDatabase loaded = regdb::testing_support::CheckYaml(yaml);
  if (loaded.diagnostics.has_errors()) {
    throw std::runtime_error("the test database has errors:\n" + regdb::testing_support::Rendered(loaded));
  }
  CompileResult compiled = Compile(loaded.database);
  if (!compiled.model) throw std::runtime_error("the test database does not compile");
  return compiled.model;
}

inline const std::shared_ptr<const Model>& TestModel() {
  static const std::shared_ptr<const Model> model = CompileYaml(kDeviceYaml);
  return model;
}

inline Script Parse(const std::string& text, const ScriptLimits& limits = {}) {
  return ParseScript(text, "test.script", *TestModel(), limits);
}

// Behaviours for `inject`: gt_iir (classic-iir) takes `inject gt_iir BIT`,
// ticker (counter) takes no inject verb.
inline const std::shared_ptr<const Model>& InjectModel() {
  static const std::shared_ptr<const Model> model = CompileYaml(R"(device: i
spaces: [{name: mmio, kind: mmio, size: 0x100}]
registers:
  - {name: ISR, space: mmio, offset: 0x0, access: hw}
  - {name: IMR, space: mmio, offset: 0x4}
  - {name: IIR, space: mmio, offset: 0x8, access: w1c}
  - {name: IER, space: mmio, offset: 0xc}
  - {name: COUNT, space: mmio, offset: 0x10, access: hw}
behaviours:
  - {name: gt_iir, kind: classic-iir, isr: ISR, imr: IMR, iir: IIR, ier: IER}
  - {name: ticker, kind: counter, register: COUNT, period: 1us}
)");
  return model;
}

}  // namespace regemu::emulator::script_testing
