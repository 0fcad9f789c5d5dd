#pragma once
// What device.cpp (state, backdoor, time) and device_frontdoor.cpp (the
// access path) share; not part of the public API.

#include <cstdint>
#include <vector>

#include "regemu/emulator/device.hpp"

namespace regemu::emulator {

// A frontdoor access in progress. Its trace entry is the ring's open slot
// (Device::OpenAccess), filled in as the access goes and committed by Finish.
struct Device::Access {
  explicit Access(TraceEntry& entry_in) : entry(entry_in) {}

  TraceEntry& entry;
  bool violated = false;
  // Read-modify-write bookkeeping over the registers one write covers (a
  // dword write of PCI COMMAND + STATUS is two): the first register whose
  // stored bits it changes, and the first whose status bits it carries back
  // as the driver read them, acting on them (see Device::WriteBits).
  RegisterId changed_reg = kNoRegister;
  uint64_t changed_bits = 0;
  RegisterId carried_reg = kNoRegister;
  uint64_t carried_bits = 0;
  // Its violations wait in Device::pending_violations_ until it finishes.
};

inline Device::Access Device::OpenAccess(const TraceEntry& entry) {
  TraceEntry& slot = trace_.Open();
  slot = entry;
  return Access(slot);
}

inline bool IsAccessWidth(unsigned width) { return width == 8 || width == 16 || width == 32 || width == 64; }
inline uint64_t WidthMask(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

}  // namespace regemu::emulator
