#pragma once
// Offset → register decode for one space, in constant time: a three-level
// radix table over 4-byte granules (one granule per index in MSR spaces),
// allocated only where registers are. A granule shared by registers narrower
// than 4 bytes points at a per-byte slot. No hashing, no search.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace regemu::emulator {

class DecodeTable {
 public:
  static constexpr uint32_t kNone = ~uint32_t{0};
  // Offsets (bytes, or indices in indexed spaces) the table can hold.
  static constexpr uint64_t kMaxGranules = uint64_t{1} << 32;

  explicit DecodeTable(bool indexed = false) : indexed_(indexed) {}

  // Claims [first, first + extent) for `id`. The caller guarantees no
  // overlap (the checker does) and first + extent within kMaxGranules granules.
  void Add(uint64_t first, uint64_t extent, uint32_t id);

  // The id holding `offset`, or kNone.
  uint32_t Lookup(uint64_t offset) const {
    uint64_t granule = indexed_ ? offset : offset >> 2;
    uint64_t top = granule >> (2 * kBits);
    if (top >= top_.size()) return kNone;
    uint32_t mid = top_[top];
    if (mid == 0) return kNone;
    uint32_t leaf = mids_[(mid - 1) * kFanout + ((granule >> kBits) & kMask)];
    if (leaf == 0) return kNone;
    uint32_t entry = leaves_[(leaf - 1) * kFanout + (granule & kMask)];
    if ((entry & kSharedBit) == 0) return entry - 1;  // 0 - 1 wraps to kNone
    return shared_[entry & ~kSharedBit][offset & 3];
  }

  size_t memory_bytes() const;

 private:
  static constexpr unsigned kBits = 10;
  static constexpr uint64_t kFanout = uint64_t{1} << kBits;
  static constexpr uint64_t kMask = kFanout - 1;
  static constexpr uint32_t kSharedBit = uint32_t{1} << 31;

  uint32_t& Slot(uint64_t granule);

  bool indexed_;
  std::vector<uint32_t> top_;     // granule >> 20 → mid table number + 1
  std::vector<uint32_t> mids_;    // mid tables: → leaf number + 1
  std::vector<uint32_t> leaves_;  // leaves: → id + 1, or kSharedBit | shared slot
  std::vector<std::array<uint32_t, 4>> shared_;
};

}  // namespace regemu::emulator
