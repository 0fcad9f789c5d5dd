#include "regemu/emulator/trap/region_table.hpp"

#include <sched.h>

#include <stdexcept>
#include <string>

namespace regemu::emulator::trap {

RegionTable& RegionTable::Instance() {
  // Never destroyed: a fault during static destruction still finds a table
  // to look in. Made before the handler is installed (TrappedMapping::Map).
  static RegionTable* table = new RegionTable();
  return *table;
}

void RegionTable::Add(Region* region) {
  std::lock_guard guard(writers_);
  for (size_t slot = 0; slot < kCapacity; ++slot) {
    Slot& s = slots_[slot];
    if (s.region.load(std::memory_order_relaxed) != nullptr) continue;
    region->slot = slot;
    s.begin.store(region->begin, std::memory_order_relaxed);
    s.end.store(region->end, std::memory_order_relaxed);
    s.region.store(region, std::memory_order_seq_cst);
    if (slot >= used_.load(std::memory_order_relaxed)) used_.store(slot + 1, std::memory_order_seq_cst);
    return;
  }
  throw std::runtime_error("regemu: every one of the process's " + std::to_string(kCapacity) +
                           " trapped-mapping slots is in use: unmap one first");
}

void RegionTable::Remove(const Region& region) {
  std::lock_guard guard(writers_);
  Slot& s = slots_[region.slot];
  s.region.store(nullptr, std::memory_order_seq_cst);
  s.begin.store(0, std::memory_order_relaxed);
  s.end.store(0, std::memory_order_relaxed);
  // A handler that pinned the region before it was withdrawn is still
  // emulating an instruction on it: the region must outlive that.
  while (s.users.load(std::memory_order_seq_cst) != 0) sched_yield();
}

RegionTable::Pin RegionTable::Find(uintptr_t address) {
  size_t used = used_.load(std::memory_order_acquire);
  for (size_t slot = 0; slot < used; ++slot) {
    Slot& s = slots_[slot];
    if (address < s.begin.load(std::memory_order_relaxed) || address >= s.end.load(std::memory_order_relaxed)) {
      continue;
    }
    // Pin first, then check the region is still there (Remove withdraws it
    // before it waits for users): only a pinned region is dereferenced.
    s.users.fetch_add(1, std::memory_order_seq_cst);
    const Region* region = s.region.load(std::memory_order_seq_cst);
    if (region != nullptr && region->Contains(address)) return Pin(region, &s.users);
    s.users.fetch_sub(1, std::memory_order_seq_cst);
  }
  return Pin();
}

}  // namespace regemu::emulator::trap
