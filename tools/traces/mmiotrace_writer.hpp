#pragma once
// Linux mmiotrace text (Documentation/trace/mmiotrace.rst, format version
// 20070824), written line for line as kernel/trace/trace_mmiotrace.c prints
// it to trace_pipe, so an emulated run gives a trace that the tools reading
// real captures read too (tests/data/traces/ holds samples).
//
//   MmiotraceWriter writer(out);
//   writer.Version();
//   writer.PciDev(device);
//   writer.Map(0, bar0);
//   writer.Access({.direction = MmiotraceDirection::kRead, .width_bytes = 4, .time_ns = 1500,
//                  .map_id = bar0.map_id, .phys = bar0.phys + 0x190010, .value = 0x80000000, .pc = 0});
//   writer.Mark(2000, "irq: gen11_irq_handler");
//   writer.Unmap(9000, bar0.map_id);

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "regemu/emulator/model.hpp"
#include "regemu/emulator/trace.hpp"

namespace regemu::traces {

inline constexpr std::string_view kMmiotraceVersion = "20070824";

// One PCI function as its PCIDEV line shows it: the resources the kernel
// holds for it, BAR0..BAR5 then the expansion ROM.
struct MmiotracePciDevice {
  uint8_t bus = 0;
  uint8_t devfn = 0;  // slot << 3 | function: 00:02.0 is 0x10
  uint16_t vendor = 0;
  uint16_t device = 0;
  uint32_t irq = 0;
  // Per resource, its start address ORed with its PCI_REGION_FLAG_MASK
  // flags, which are the low bits of the BAR (0x1 I/O, 0x4 64-bit, 0x8
  // prefetchable). The upper dword of a 64-bit BAR is an unused resource: 0.
  std::array<uint64_t, 7> bar_start_flags{};
  std::array<uint64_t, 7> bar_size{};  // bytes; 0 for an unused resource
  std::string driver;                  // the bound driver; empty: none bound yet
};

// An ioremap the trace saw: the MAP line, and the id the accesses through it carry.
struct MmiotraceMapping {
  uint32_t map_id = 1;  // the kernel numbers mappings from 1
  uint64_t phys = 0;    // PCI bus address: the BAR's start
  uint64_t virt = 0;    // the kernel virtual address ioremap returned
  uint64_t len = 0;
};

enum class MmiotraceDirection : uint8_t { kRead, kWrite };

// One R or W line.
struct MmiotraceAccess {
  MmiotraceDirection direction = MmiotraceDirection::kRead;
  unsigned width_bytes = 4;  // 1, 2, 4 or 8
  uint64_t time_ns = 0;
  uint32_t map_id = 1;
  uint64_t phys = 0;
  uint64_t value = 0;
  uint64_t pc = 0;  // the accessing instruction; 0: not recorded
};

// `secs.usecs`, rounded to the nearest microsecond as the kernel's
// ns2usecs() rounds: 1'234'567'890 ns is "1.234568".
std::string MmiotraceTimestamp(uint64_t time_ns);

// Writes records to `out`, one line each, in the order they are called:
// the caller keeps the file's order (VERSION, PCIDEV lines, then events).
// Hex is lower case without leading zeros except where the kernel pads
// (PCIDEV's bus, devfn, vendor and device).
class MmiotraceWriter {
 public:
  explicit MmiotraceWriter(std::ostream& out) : out_(&out) {}

  void Version();
  // Without a driver the line ends in a blank, as the kernel prints it.
  void PciDev(const MmiotracePciDevice& device);
  void Map(uint64_t time_ns, const MmiotraceMapping& mapping);
  void Unmap(uint64_t time_ns, uint32_t map_id);
  // Throws std::invalid_argument for a width other than 1, 2, 4 or 8 bytes.
  void Access(const MmiotraceAccess& access);
  // A marker (what a write to tracing/trace_marker leaves). Throws
  // std::invalid_argument if `text` holds a newline: it would end the record.
  void Mark(uint64_t time_ns, std::string_view text);

 private:
  std::ostream* out_;
};

// The R or W record of one device trace entry, when it is a frontdoor read
// or write of `space` (seen at `mapping`.phys + offset); nothing for the
// rest. mmiotrace sees only what the CPU does through an ioremapped range:
// not the backdoor (peek, poke: the test's, not the driver's), not clock
// steps and resets, not other spaces. PCI configuration space in particular
// is reached through ports 0xCF8/0xCFC or the ECAM window the kernel mapped
// at boot, and mmiotrace sees only ranges ioremapped while it runs: config
// accesses are never in a trace. An access of a
// width no CPU instruction has (a `width` violation) is left out too. The
// device's own register accesses (a behaviour's, as a command processor
// makes them) are frontdoor entries as well: on a device that has such
// behaviours, they are the caller's to tell apart.
std::optional<MmiotraceAccess> ToMmiotraceAccess(const emulator::TraceEntry& entry, emulator::SpaceId space,
                                                 const MmiotraceMapping& mapping);

}  // namespace regemu::traces
