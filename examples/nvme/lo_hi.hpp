#pragma once
// include/linux/io-64-nonatomic-lo-hi.h: a 64-bit register as two 32-bit
// accesses, low dword first (nvme-pci reads CAP with lo_hi_readq and writes
// ASQ/ACQ with lo_hi_writeq). Each half is reported at the caller's line.

#include <cstdint>

#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::nvme {

inline uint64_t LoHiReadQ(fakes::MmioBus& bus, uint64_t offset,
                          fakes::MmioBus::Site site = fakes::MmioBus::Site::current()) {
  uint64_t low = bus.ReadAt(offset, 32, site);
  uint64_t high = bus.ReadAt(offset + 4, 32, site);
  return (high << 32) | (low & 0xFFFFFFFFu);
}

inline void LoHiWriteQ(fakes::MmioBus& bus, uint64_t offset, uint64_t value,
                       fakes::MmioBus::Site site = fakes::MmioBus::Site::current()) {
  bus.WriteAt(offset, 32, value & 0xFFFFFFFFu, site);
  bus.WriteAt(offset + 4, 32, value >> 32, site);
}

}  // namespace regemu::nvme
