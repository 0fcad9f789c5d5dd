#pragma once
// Helpers for the script tests: one small device that has every kind of
// register a script can touch, compiled once, and parsing against it; a
// device with fields (and its database), one with inject verbs; a run's
// results.

#include <memory>
#include <stdexcept>
#include <string>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
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

// A model with the database it came from (which names enumerated values).
struct CompiledDevice {
  regdb::LoadedDatabase loaded;
  std::shared_ptr<const Model> model;
};

inline CompiledDevice CompileDevice(const std::string& yaml) {
  CompiledDevice device{regdb::testing_support::CheckYaml(yaml), nullptr};
  if (device.loaded.diagnostics.has_errors()) {
    throw std::runtime_error("the test database has errors:\n" + regdb::testing_support::Rendered(device.loaded));
  }
  device.model = Compile(device.loaded.database).model;
  if (!device.model) throw std::runtime_error("the test database does not compile");
  return device;
}

inline std::shared_ptr<const Model> CompileYaml(const std::string& yaml) { return CompileDevice(yaml).model; }

inline const std::shared_ptr<const Model>& TestModel() {
  static const std::shared_ptr<const Model> model = CompileYaml(kDeviceYaml);
  return model;
}

inline Script Parse(const std::string& text, const ScriptLimits& limits = {}) {
  return ParseScript(text, "test.script", *TestModel(), limits);
}

// A parsed script, the device it ran on and what the run found.
struct Ran {
  Script script;
  std::unique_ptr<Device> device;
  RunResult result;

  // Every failure and the script error, rendered: for a test's failure message.
  std::string Failures() const {
    std::string text;
    for (const ScriptFailure& failure : result.failures) text += FormatScriptFailure(script, failure);
    if (result.error) text += FormatScriptFailure(script, *result.error);
    return text;
  }
};

// Registers with fields, for REG.FIELD: UART_CTL has rw fields (MODE
// enumerated), a clear-on-read counter, a write-1-to-clear and a
// write-0-to-clear status bit and an mbz bit; DOORBELL is an 8-bit
// write-only register that is one field; KEYS is write-only in two fields;
// FW_REQ is an Intel masked register; STAMP is 64 bits with a field in its
// high half; TICKS counts up every 100ns in its LOW field; ID has no fields.
inline constexpr const char* kFieldDeviceYaml = R"(
device: f
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
  - {name: aux, kind: mmio, size: 0x10}
registers:
  - name: UART_CTL
    space: mmio
    offset: 0x0
    fields:
      - {name: DIV, bits: "31:16", access: rw}
      - {name: RXCOUNT, bits: "15:8", access: rc}
      - {name: NACK, bits: 7, access: w0c}
      - {name: ERR, bits: 6, access: w1c}
      - {name: RSVD, bits: 5, access: mbz}
      - name: MODE
        bits: "3:2"
        access: rw
        values: [{name: SLOW, value: 1}, {name: FAST, value: 2}]
      - {name: ENABLE, bits: 0, access: rw}
  - name: DOORBELL
    space: mmio
    offset: 0x4
    width: 8
    access: wo
    fields: [{name: RING, bits: "7:0", access: wo}]
  - name: KEYS
    space: mmio
    offset: 0x8
    access: wo
    fields: [{name: HI, bits: "31:16", access: wo}, {name: LO, bits: "15:0", access: wo}]
  - name: FW_REQ
    space: mmio
    offset: 0xc
    masked: true
    fields: [{name: FALLBACK, bits: 15}, {name: KERNEL, bits: 0}]
  - name: STAMP
    space: mmio
    offset: 0x10
    width: 64
    fields: [{name: EPOCH, bits: "63:48"}, {name: COUNT, bits: "47:0"}]
  - name: TICKS
    space: mmio
    offset: 0x20
    access: hw
    fields: [{name: HIGH, bits: "31:8", access: hw}, {name: LOW, bits: "7:0", access: hw}]
  - {name: ID, space: mmio, offset: 0x30, access: ro, reset: 0x8086}
  - {name: AUX_CTL, space: aux, offset: 0x0, fields: [{name: ON, bits: 0}]}
behaviours:
  - {kind: counter, register: TICKS, period: 100ns}
)";

inline const CompiledDevice& FieldDevice() {
  static const CompiledDevice device = CompileDevice(kFieldDeviceYaml);
  return device;
}

inline Script ParseFields(const std::string& text, const ScriptLimits& limits = {}) {
  return ParseScript(text, "test.script", *FieldDevice().model, limits);
}

// Behaviours for `inject`: gt_iir_events (reactions) takes `inject gt_iir
// BIT [on|off]`, ticker (counter) takes no inject verb.
inline const std::shared_ptr<const Model>& InjectModel() {
  static const std::shared_ptr<const Model> model = CompileYaml(R"y(device: i
spaces: [{name: mmio, kind: mmio, size: 0x100}]
registers:
  - {name: ISR, space: mmio, offset: 0x0, access: hw}
  - {name: IMR, space: mmio, offset: 0x4}
  - {name: IIR, space: mmio, offset: 0x8, access: w1c}
  - {name: IER, space: mmio, offset: 0xc}
  - {name: COUNT, space: mmio, offset: 0x10, access: hw}
behaviours:
  - name: gt_iir_events
    kind: reactions
    reactions:
      - name: pulse
        on: {event: gt_iir, args: [{name: bit, max: 31}, {name: level, words: {"on": 1, "off": 2}, default: 0}]}
        do: [{set: {IIR: "IIR | ((1 << bit) & ~IMR)"}}]
  - {name: gt_iir, kind: interrupts, sources: [{name: iir, status: IIR, enable: IER}]}
  - {name: ticker, kind: counter, register: COUNT, period: 1us}
)y");
  return model;
}

}  // namespace regemu::emulator::script_testing
