#pragma once
// The master's memory as vhost-user shares it (VHOST_USER_SET_MEM_TABLE):
// each region is a file the master maps, passed as an fd, that the device
// maps too. Under User-Mode Linux there is one region (two with highmem):
// the file behind the kernel's physical memory, minus the kernel image
// (vhost_user_set_mem_table in arch/um/drivers/virtio_uml.c).
//
// Two address spaces name its bytes: guest addresses (what a device sees
// as DMA addresses; UML uses dma-direct, so a bus address is the kernel's
// physical address) and the master's user addresses (what SET_VRING_ADDR
// uses). UML sends guest_addr == user_addr, but they are kept apart.

#include <cstdint>
#include <span>
#include <vector>

#include "regemu/uml/wire/status.hpp"
#include "regemu/uml/wire/vhost_user_messages.hpp"

namespace regemu::uml {

class GuestMemory {
 public:
  struct Region {
    uint64_t guest_addr = 0;
    uint64_t size = 0;
    uint64_t user_addr = 0;
    uint64_t mmap_offset = 0;
    std::span<uint8_t> bytes;  // the region's `size` bytes, mapped here
  };

  GuestMemory() = default;
  ~GuestMemory();
  GuestMemory(GuestMemory&& other) noexcept;
  GuestMemory& operator=(GuestMemory&& other) noexcept;
  GuestMemory(const GuestMemory&) = delete;
  GuestMemory& operator=(const GuestMemory&) = delete;

  // Maps `regions[i]` from `fds[i]` (the fds stay the caller's), replacing
  // the current table. On an error nothing changes. At most
  // vhost::kMaxMemoryRegions regions, none empty, none overlapping another
  // in either address space, each within its file.
  Status Replace(std::span<const vhost::MemoryRegion> regions, std::span<const int> fds);
  void Clear();

  // The bytes of [addr, addr + length) when they lie wholly in one region,
  // else an empty span (also for length 0).
  std::span<uint8_t> Translate(uint64_t guest_addr, uint64_t length) const;
  std::span<uint8_t> TranslateUser(uint64_t user_addr, uint64_t length) const;

  const std::vector<Region>& regions() const { return regions_; }
  bool empty() const { return regions_.empty(); }

 private:
  struct Mapping {
    void* base = nullptr;
    size_t length = 0;
  };
  static void Unmap(std::vector<Mapping>& mappings);

  std::vector<Region> regions_;
  std::vector<Mapping> mappings_;  // one per region, what munmap needs
};

}  // namespace regemu::uml
