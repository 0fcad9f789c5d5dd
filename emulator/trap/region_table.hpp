#pragma once
// The trapped regions of the process, as the SIGSEGV handler looks them up:
// a fixed table of slots read with atomics only (no lock, no allocation), so
// that a fault anywhere (inside malloc, inside another signal handler) can
// ask "is this address regemu's?" safely and, if not, go on to the handler
// that was there before.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "regemu/emulator/model.hpp"

namespace regemu::emulator {
class Device;
}

namespace regemu::emulator::trap {

// One mapped space. Owned by its TrappedMapping; the table only points at it.
struct Region {
  uintptr_t begin = 0;     // space offset 0
  uintptr_t end = 0;       // one past the mapping's last page
  uint64_t space_size = 0; // bytes of the space (end - begin rounds it up to pages)
  Device* device = nullptr;
  SpaceId space = 0;
  size_t slot = 0;             // its slot in the RegionTable

  bool Contains(uintptr_t address) const { return address >= begin && address < end; }
};

class RegionTable {
 public:
  static constexpr size_t kCapacity = 64;

  // The process's table.
  static RegionTable& Instance();

  // A region found by Find, held until the Pin goes: Remove waits for every
  // Pin of its region to go before it returns (the caller then frees it).
  class Pin {
   public:
    Pin() = default;
    Pin(Pin&& other) noexcept : region_(other.region_), users_(other.users_) { other.users_ = nullptr; }
    Pin& operator=(Pin&& other) noexcept {
      if (this != &other) {
        Release();
        region_ = other.region_;
        users_ = other.users_;
        other.users_ = nullptr;
      }
      return *this;
    }
    ~Pin() { Release(); }
    const Region* get() const { return users_ != nullptr ? region_ : nullptr; }
    explicit operator bool() const { return get() != nullptr; }
    const Region* operator->() const { return region_; }

   private:
    friend class RegionTable;
    Pin(const Region* region, std::atomic<uint32_t>* users) : region_(region), users_(users) {}
    void Release() {
      if (users_ != nullptr) users_->fetch_sub(1, std::memory_order_seq_cst);
      users_ = nullptr;
    }
    const Region* region_ = nullptr;
    std::atomic<uint32_t>* users_ = nullptr;
  };

  // Publishes `region` and sets region->slot; throws std::runtime_error
  // when all kCapacity slots are in use.
  void Add(Region* region);
  // Withdraws `region`; returns once no Pin holds it.
  void Remove(const Region& region);
  // The region holding `address`, pinned, or an empty Pin.
  // Async-signal-safe: atomics only.
  Pin Find(uintptr_t address);

 private:
  struct Slot {
    // Copies of the region's bounds, so that a lookup compares addresses
    // without dereferencing a region that Remove may be freeing.
    std::atomic<uintptr_t> begin{0};
    std::atomic<uintptr_t> end{0};
    std::atomic<const Region*> region{nullptr};
    std::atomic<uint32_t> users{0};
  };

  Slot slots_[kCapacity];
  std::atomic<size_t> used_{0};  // slots [0, used_) have ever been taken
  std::mutex writers_;           // Add and Remove, never the handler
};

}  // namespace regemu::emulator::trap
