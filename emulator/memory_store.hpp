#pragma once
// The bytes of a `memory` space (graphics memory behind the GGTT, where an
// OA unit writes its reports): sparse 4 KiB pages, allocated on the first
// write, so a 64 MiB space costs nothing until it is used; unwritten bytes
// read 0. Copies share their pages until one side writes a page
// (copy-on-write), so a device snapshot costs a pointer per written page,
// not a copy of the memory.
//
// A store can instead be backed by memory outside the device
// (ExternalMemory: a kernel's RAM, shared over vhost-user, that the device
// reaches by DMA). Then its bytes are the owner's: Read and Write go to the
// owner's regions, an access outside every region reads all-ones and is
// dropped (and says so), Clear leaves them alone, and copies (snapshots)
// share the regions rather than the bytes: restoring a snapshot does not
// restore what the owner's memory held.
//
// Not thread-safe on its own: the owning Device's lock guards it. Sharing a
// page between a device and its snapshots is safe, because only a device
// writes, and it copies a page that anyone else still holds.

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <unordered_map>
#include <vector>

namespace regemu::emulator {

// Bytes owned outside the device, mapped at offsets of a memory space.
struct ExternalRegion {
  uint64_t offset = 0;        // where the region starts in the space
  std::span<uint8_t> bytes;   // the owner's bytes; they outlive the attachment
};

class ExternalMemory {
 public:
  explicit ExternalMemory(std::vector<ExternalRegion> regions);
  // The region holding the byte at `offset`, or null.
  const ExternalRegion* Find(uint64_t offset) const;
  const std::vector<ExternalRegion>& regions() const { return regions_; }

 private:
  std::vector<ExternalRegion> regions_;  // sorted by offset, disjoint
};

class MemoryStore {
 public:
  static constexpr uint64_t kPageBytes = 4096;

  // Little-endian loads and stores of 1 to 8 bytes; they may cross pages.
  uint64_t Load(uint64_t offset, unsigned bytes) const;
  void Store(uint64_t offset, unsigned bytes, uint64_t value);
  // false when external memory holds only part of the bytes (or none): the
  // rest read all-ones and are not written.
  bool Read(uint64_t offset, std::span<uint8_t> out) const;
  bool Write(uint64_t offset, std::span<const uint8_t> bytes);
  // Every byte reads 0 again (the store's own pages; external memory is its owner's).
  void Clear() {
    pages_.clear();
    last_written_ = {};
  }
  // Backs the store by `external` from now on (null: its own pages again).
  void Attach(std::shared_ptr<const ExternalMemory> external) { external_ = std::move(external); }
  const ExternalMemory* external() const { return external_.get(); }
  // Pages written so far (memory held: pages() * kPageBytes).
  size_t pages() const { return pages_.size(); }

 private:
  using Page = std::array<uint8_t, kPageBytes>;

  const Page* FindPage(uint64_t index) const;
  // The page, allocated zeroed or unshared from a snapshot first.
  Page& WritablePage(uint64_t index);

  bool ReadExternal(uint64_t offset, std::span<uint8_t> out) const;
  bool WriteExternal(uint64_t offset, std::span<const uint8_t> bytes) const;

  std::unordered_map<uint64_t, std::shared_ptr<Page>> pages_;
  std::shared_ptr<const ExternalMemory> external_;

  // The entry of the page written last: a device's writes come in runs on
  // one page (an OA report is two writes to one), and the hash lookup was
  // the largest cost of a small write. Map entries stay put when the map
  // rehashes; a copy of the store starts without one (it is another map).
  struct LastWritten {
    uint64_t index = 0;
    std::shared_ptr<Page>* entry = nullptr;
    LastWritten() = default;
    LastWritten(const LastWritten&) {}
    LastWritten& operator=(const LastWritten&) {
      entry = nullptr;
      return *this;
    }
  };
  LastWritten last_written_;
};

}  // namespace regemu::emulator
