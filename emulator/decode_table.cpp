#include "regemu/emulator/decode_table.hpp"

namespace regemu::emulator {

uint32_t& DecodeTable::Slot(uint64_t granule) {
  uint64_t top = granule >> (2 * kBits);
  if (top >= top_.size()) top_.resize(top + 1, 0);
  if (top_[top] == 0) {
    mids_.resize(mids_.size() + kFanout, 0);
    top_[top] = static_cast<uint32_t>(mids_.size() / kFanout);
  }
  uint32_t& mid = mids_[(top_[top] - 1) * kFanout + ((granule >> kBits) & kMask)];
  if (mid == 0) {
    leaves_.resize(leaves_.size() + kFanout, 0);
    mid = static_cast<uint32_t>(leaves_.size() / kFanout);
  }
  return leaves_[(mid - 1) * kFanout + (granule & kMask)];
}

void DecodeTable::Add(uint64_t first, uint64_t extent, uint32_t id) {
  if (indexed_) {
    for (uint64_t index = first; index < first + extent; ++index) Slot(index) = id + 1;
    return;
  }
  uint64_t end = first + extent;
  for (uint64_t granule = first >> 2; granule <= (end - 1) >> 2; ++granule) {
    uint64_t granule_start = granule << 2;
    bool whole = first <= granule_start && granule_start + 4 <= end;
    uint32_t& slot = Slot(granule);
    if (whole && slot == 0) {
      slot = id + 1;
      continue;
    }
    // Part of the granule: keep a per-byte map so neighbours can share it.
    if ((slot & kSharedBit) == 0) {
      std::array<uint32_t, 4> bytes{};
      bytes.fill(slot == 0 ? kNone : slot - 1);
      shared_.push_back(bytes);
      slot = kSharedBit | static_cast<uint32_t>(shared_.size() - 1);
    }
    std::array<uint32_t, 4>& bytes = shared_[slot & ~kSharedBit];
    for (uint64_t byte = 0; byte < 4; ++byte) {
      uint64_t offset = granule_start + byte;
      if (offset >= first && offset < end) bytes[byte] = id;
    }
  }
}

size_t DecodeTable::memory_bytes() const {
  return (top_.capacity() + mids_.capacity() + leaves_.capacity()) * sizeof(uint32_t) +
         shared_.capacity() * sizeof(std::array<uint32_t, 4>);
}

}  // namespace regemu::emulator
