#include "regemu/emulator/trap/instruction_memory.hpp"

#include <cstring>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/trap/split_access.hpp"

namespace regemu::emulator::trap {

uint64_t FromBytes(std::span<const uint8_t> bytes) {
  uint64_t value = 0;
  for (size_t i = 0; i < bytes.size() && i < 8; ++i) value |= uint64_t{bytes[i]} << (8 * i);
  return value;
}

void ToBytes(uint64_t value, std::span<uint8_t> bytes) {
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i < 8 ? value >> (8 * i) : 0);
}

MemoryError InstructionMemory::Locate(uint64_t address, size_t size, RegionTable::Pin& pin) {
  RegionTable& table = RegionTable::Instance();
  uint64_t last = address + size - 1;
  RegionTable::Pin first = table.Find(address);
  if (first) {
    if (!first->Contains(last)) return MemoryError::kStraddlesRegion;
    pin = std::move(first);
    return MemoryError::kNone;
  }
  // Starting outside every region, the access must also end outside.
  if (table.Find(last)) return MemoryError::kStraddlesRegion;
  return MemoryError::kNone;
}

MemoryError InstructionMemory::Read(uint64_t address, std::span<uint8_t> bytes) {
  RegionTable::Pin pin;
  if (MemoryError error = Locate(address, bytes.size(), pin); error != MemoryError::kNone) return error;
  if (!pin) {
    std::memcpy(bytes.data(), reinterpret_cast<const void*>(address), bytes.size());
    return MemoryError::kNone;
  }
  const Region& region = *pin.get();
  Device& device = *region.device;
  DeviceAccess pieces[kMaxPieces];
  size_t count = SplitAccess(address - region.begin, static_cast<unsigned>(bytes.size()),
                             device.model().spaces()[region.space].widths, pieces);
  size_t at = 0;
  for (size_t i = 0; i < count; ++i) {
    uint64_t value = device.Read(region.space, pieces[i].offset, pieces[i].width);
    ToBytes(value, bytes.subspan(at, pieces[i].width / 8));
    at += pieces[i].width / 8;
  }
  return MemoryError::kNone;
}

MemoryError InstructionMemory::Write(uint64_t address, std::span<const uint8_t> bytes) {
  RegionTable::Pin pin;
  if (MemoryError error = Locate(address, bytes.size(), pin); error != MemoryError::kNone) return error;
  if (!pin) {
    std::memcpy(reinterpret_cast<void*>(address), bytes.data(), bytes.size());
    return MemoryError::kNone;
  }
  const Region& region = *pin.get();
  Device& device = *region.device;
  DeviceAccess pieces[kMaxPieces];
  size_t count = SplitAccess(address - region.begin, static_cast<unsigned>(bytes.size()),
                             device.model().spaces()[region.space].widths, pieces);
  size_t at = 0;
  for (size_t i = 0; i < count; ++i) {
    device.Write(region.space, pieces[i].offset, pieces[i].width, FromBytes(bytes.subspan(at, pieces[i].width / 8)));
    at += pieces[i].width / 8;
  }
  return MemoryError::kNone;
}

}  // namespace regemu::emulator::trap
