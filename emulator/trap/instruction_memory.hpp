#pragma once
// The memory an emulated instruction reads and writes: bytes inside a
// trapped region become frontdoor accesses of its device (split as the
// space's widths say);
// any other address is the process's own memory, accessed directly (the
// other side of a memcpy from MMIO).

#include <cstdint>
#include <span>

#include "regemu/emulator/trap/region_table.hpp"

namespace regemu::emulator::trap {

// Why an access could not be made; the caller reports it with the instruction.
enum class MemoryError : uint8_t {
  kNone,
  kStraddlesRegion,  // part inside a trapped region, part outside
};

class InstructionMemory {
 public:
  // `bytes` little-endian, at most 64 of them (a ZMM register).
  MemoryError Read(uint64_t address, std::span<uint8_t> bytes);
  MemoryError Write(uint64_t address, std::span<const uint8_t> bytes);

 private:
  // The region holding all of [address, address + size), or nullptr when
  // none holds any of it; kStraddlesRegion in between.
  static MemoryError Locate(uint64_t address, size_t size, RegionTable::Pin& pin);
};

// Integers to and from their little-endian bytes.
uint64_t FromBytes(std::span<const uint8_t> bytes);
void ToBytes(uint64_t value, std::span<uint8_t> bytes);

}  // namespace regemu::emulator::trap
