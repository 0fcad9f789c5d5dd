#pragma once
// One record of a register capture, whichever format it came from: a Linux
// mmiotrace (Documentation/trace/mmiotrace.rst), i915's `i915_reg_rw`
// ftrace event, or a plain `R 0xOFFSET: 0xVALUE` register log. Readers
// (capture_reader.hpp) turn lines into records; the address map
// (capture_address_map.hpp) places accesses in a database's spaces.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace regemu::traces {

enum class CaptureFormat : uint8_t {
  kMmiotrace,   // R/W/MAP/UNMAP/MARK/PCIDEV records, bus addresses
  kI915RegRw,   // ftrace text of i915:i915_reg_rw, GTTMMADR offsets
  kRegisterLog, // `R 0x2358: 0x1`, `W32 0x2358: 0x1`, BAR offsets
};

std::string_view CaptureFormatName(CaptureFormat format);

enum class CaptureKind : uint8_t {
  kRead,
  kWrite,
  kMap,      // mmiotrace: an ioremap of [address, address + length)
  kUnmap,    // mmiotrace: its iounmap
  kMark,     // a marker the user wrote into the trace; `text`
  kLost,     // mmiotrace: `Lost N events`: the capture is incomplete (`value` = N)
  kUnknown,  // mmiotrace: an access the tracer could not decode; `text` has its opcode bytes
  kPciDev,   // mmiotrace: a PCI device and its BARs; `pci`
  kVersion,  // mmiotrace: the format version; `value`
};

// A PCI device as mmiotrace's PCIDEV line lists it. Resource i is BAR i
// (Linux keeps a 64-bit BAR's upper half's slot empty), 6 is the ROM.
struct CapturePciDevice {
  uint16_t bus_devfn = 0;  // bus << 8 | devfn
  uint16_t vendor = 0;
  uint16_t device = 0;
  std::array<uint64_t, 7> start{};  // bus address, flags masked off
  std::array<uint64_t, 7> size{};
  std::array<bool, 7> io{};         // an I/O port BAR, not memory
  std::string driver;
};

struct CaptureRecord {
  CaptureKind kind = CaptureKind::kRead;
  uint64_t line = 0;      // 1-based line in the capture
  uint64_t time_ns = 0;   // when the capture has timestamps
  bool has_time = false;
  unsigned width = 0;     // bytes: 1, 2, 4 or 8
  uint32_t map_id = 0;    // mmiotrace: the mapping an access or UNMAP belongs to
  // mmiotrace: a bus address; the other formats: an offset in the BAR.
  uint64_t address = 0;
  uint64_t value = 0;     // read or written; kLost: events lost; kVersion: the version
  uint64_t length = 0;    // kMap
  std::string text;       // kMark, kUnknown
  CapturePciDevice pci;   // kPciDev

  bool is_access() const { return kind == CaptureKind::kRead || kind == CaptureKind::kWrite; }
};

// Parses one line of a format. Returns true and fills `record` for a record,
// false with an empty `error` for a line that carries nothing (blank, a
// comment, another ftrace event), false with `error` set for a malformed one.
bool ParseMmiotraceLine(std::string_view line, CaptureRecord& record, std::string& error);
bool ParseI915RegRwLine(std::string_view line, CaptureRecord& record, std::string& error);
bool ParseRegisterLogLine(std::string_view line, CaptureRecord& record, std::string& error);

// The format a capture's first meaningful line is in, or none.
bool DetectCaptureFormat(std::string_view line, CaptureFormat& format);

}  // namespace regemu::traces
