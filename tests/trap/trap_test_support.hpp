#pragma once
// What the trapped-mapping tests share: the small devices they map, and
// the accesses a device saw (from its trace) in a form EXPECT_THAT prints.

#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator::trap_testing {

// RAM behind a bus: 64-bit read-write registers with no side effect over
// `bar` (every width allowed: an access reads and writes bytes as memory
// does) and 32-bit ones over `narrow` (32-bit accesses only), so that an
// instruction on a mapping must give exactly what it gives on memory.
inline constexpr const char* kRamDatabase = R"yaml(device: ram
spaces:
  - {name: bar, kind: mmio, size: 0x100}
  - {name: narrow, kind: mmio, size: 0x100, widths: [32]}
  - {name: cfg, kind: pci-config, size: 0x100}
  - {name: msr, kind: msr, size: 0x1000}
  - {name: inside, kind: state, size: 0x10}
registers:
  - {name: "R{n}", space: bar, offset: 0x0, width: 64, array: {count: 32, stride: 8}}
  - {name: "N{n}", space: narrow, offset: 0x0, array: {count: 64, stride: 4}}
  - {name: VID, space: cfg, offset: 0x0, width: 16, access: ro, reset: 0x8086}
  - {name: DID, space: cfg, offset: 0x2, width: 16, access: ro, reset: 0x1234}
  - {name: MSR_A, space: msr, offset: 0x10, width: 64}
  - {name: HIDDEN, space: inside, offset: 0x0}
)yaml";

// A microcontroller's peripherals where CMSIS headers put them: `apb` at
// 0x40000000 (a UART at +0x1000, a mailbox at +0x100) and the system
// control space `scs` at 0xE000E000 (NVIC set/clear-enable views of
// interrupts 0-63). Writing
// the UART's data register empties the transmitter for 10 us.
inline constexpr const char* kMcuDatabase = R"yaml(device: mcu
spaces:
  - {name: apb, kind: mmio, size: 0x2000}
  - {name: scs, kind: mmio, size: 0x1000, widths: [32]}
registers:
  - {name: MBOX_SEM, space: apb, offset: 0x100}
  - {name: MBOX_COUNT, space: apb, offset: 0x108, width: 64}
  - {name: MBOX_FLAGS, space: apb, offset: 0x110, width: 64}
  - name: UART0_CR
    space: apb
    offset: 0x1000
    fields: [{name: UE, bits: 0}, {name: LBE, bits: 2}, {name: TE, bits: 3}]
  - {name: UART0_SR, space: apb, offset: 0x1004, access: hw, reset: 0x80, fields: [{name: TXE, bits: 7}]}
  - {name: UART0_DR, space: apb, offset: 0x1008}
  - {name: UART0_BRR, space: apb, offset: 0x100C, width: 16}
  - {name: UART0_LCR, space: apb, offset: 0x100E, width: 8, reset: 0x03}
  - {name: UART0_TSTAMP, space: apb, offset: 0x1010, width: 64, access: ro, reset: 0x1122334455667788}
  - {name: NVIC_ISER0, space: scs, offset: 0x100, access: w1s}
  - {name: NVIC_ISER1, space: scs, offset: 0x104, access: w1s}
  - {name: NVIC_ICER0, space: scs, offset: 0x180, access: w1c, view_of: NVIC_ISER0}
  - {name: NVIC_ICER1, space: scs, offset: 0x184, access: w1c, view_of: NVIC_ISER1}
behaviours:
  - name: uart
    kind: reactions
    reactions:
      - name: transmit
        on: {write: UART0_DR}
        do:
          - {set: {UART0_SR.TXE: 0}}
          - {after: 10us, set: {UART0_SR.TXE: 1}}
)yaml";

// A device of `yaml` (one of the databases above), compiled once per test
// binary: compiling is most of a small test's time under the sanitizers.
inline std::unique_ptr<Device> MakeDevice(const char* yaml, DeviceOptions options = {}) {
  static std::map<std::string, std::shared_ptr<const Model>> models;
  std::shared_ptr<const Model>& model = models[yaml];
  if (!model) model = testing_support::CompileYaml(yaml);
  return std::make_unique<Device>(model, std::move(options));
}

inline constexpr uintptr_t kApbBase = 0x40000000;
inline constexpr uintptr_t kScsBase = 0xE000E000;

// One frontdoor access as a test states it.
struct Access {
  TraceOp op = TraceOp::kRead;
  uint64_t offset = 0;
  unsigned width = 0;
  uint64_t value = 0;
  bool operator==(const Access&) const = default;
};

inline Access Read(uint64_t offset, unsigned width, uint64_t value) { return {TraceOp::kRead, offset, width, value}; }
inline Access Write(uint64_t offset, unsigned width, uint64_t value) { return {TraceOp::kWrite, offset, width, value}; }

inline void PrintTo(const Access& access, std::ostream* os) {
  *os << (access.op == TraceOp::kRead ? "read" : "write") << access.width << " 0x" << std::hex << access.offset
      << " = 0x" << access.value << std::dec;
}

// The frontdoor reads and writes of `space` in the device's trace since
// sequence number `after` (Device::access_count() before the accesses).
inline std::vector<Access> AccessesSince(const Device& device, uint64_t after, SpaceId space) {
  std::vector<Access> accesses;
  for (const TraceEntry& entry : device.Trace()) {
    if (entry.sequence <= after || entry.space != space) continue;
    if (entry.op != TraceOp::kRead && entry.op != TraceOp::kWrite) continue;
    accesses.push_back({entry.op, entry.offset, entry.width, entry.value});
  }
  return accesses;
}

}  // namespace regemu::emulator::trap_testing
