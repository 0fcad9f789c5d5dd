#pragma once
// The seam between a driver and its registers: one MmioBus per address
// space the driver maps (BAR0, PCI configuration space, ...), like a Linux
// `void __iomem *`. Driver code takes an MmioBus& (or, in template drivers,
// anything satisfying regemu::hwreg::RegisterIo, which MmioBus does), so the
// same code runs on real hardware, on the emulator (FakeMmioBus) or on a
// gmock mock delegating to the emulator (MockMmioBus).

#include <cstdint>

#include "regemu/hwreg.hpp"

namespace regemu::fakes {

class MmioBus {
 public:
  virtual ~MmioBus() = default;

  // `width` is 8, 16, 32 or 64 bits; `offset` in bytes (MSR spaces: the index).
  virtual uint64_t Read(uint64_t offset, unsigned width) = 0;
  virtual void Write(uint64_t offset, unsigned width, uint64_t value) = 0;

  // readb/readw/readl/readq-style helpers over Read/Write.
  uint8_t Read8(uint64_t offset) { return static_cast<uint8_t>(Read(offset, 8)); }
  uint16_t Read16(uint64_t offset) { return static_cast<uint16_t>(Read(offset, 16)); }
  uint32_t Read32(uint64_t offset) { return static_cast<uint32_t>(Read(offset, 32)); }
  uint64_t Read64(uint64_t offset) { return Read(offset, 64); }
  void Write8(uint64_t offset, uint8_t value) { Write(offset, 8, value); }
  void Write16(uint64_t offset, uint16_t value) { Write(offset, 16, value); }
  void Write32(uint64_t offset, uint32_t value) { Write(offset, 32, value); }
  void Write64(uint64_t offset, uint64_t value) { Write(offset, 64, value); }
};

// Template drivers take any IO object with Read(offset, width) and
// Write(offset, width, value): the generated register headers' concept.
template <typename T>
concept MmioBusLike = hwreg::RegisterIo<T>;

static_assert(MmioBusLike<MmioBus>);

// Intel masked registers: bits 31:16 of a write select which of bits 15:0 it
// changes (i915's _MASKED_BIT_ENABLE / _MASKED_BIT_DISABLE / _MASKED_FIELD).
constexpr uint32_t MaskedBitEnable(uint32_t bits) { return (bits << 16) | bits; }
constexpr uint32_t MaskedBitDisable(uint32_t bits) { return bits << 16; }
constexpr uint32_t MaskedField(uint32_t mask, uint32_t value) { return (mask << 16) | (value & mask); }

}  // namespace regemu::fakes
