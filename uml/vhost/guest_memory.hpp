#pragma once
// The kernel's memory as vhost-user's SET_MEM_TABLE shares it: each region
// is a file the kernel passes by fd, mapped here MAP_SHARED. In UML the
// file is its physical memory (arch/um/drivers/virtio_uml.c,
// vhost_user_set_mem_table): guest_addr is a physical address, which is
// also the bus address DMA uses, and user_addr (the address vring
// addresses are given in) equals it.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "regemu/uml/vhost/vhost_user_messages.hpp"

namespace regemu::uml {

struct GuestRegion {
  uint64_t guest_addr = 0;
  uint64_t user_addr = 0;
  std::span<uint8_t> bytes;  // the region's bytes, mapped
};

class GuestMemory {
 public:
  GuestMemory() = default;
  ~GuestMemory() { Unmap(); }
  GuestMemory(const GuestMemory&) = delete;
  GuestMemory& operator=(const GuestMemory&) = delete;

  // Replaces the table; takes ownership of `fds` (closed here, mapped or
  // not). "" or why the table was refused (then it is empty).
  std::string Set(std::span<const MemoryRegionDesc> regions, std::span<const int> fds);

  // The bytes [address, address + length) when one region holds them all, else empty.
  std::span<uint8_t> Translate(uint64_t guest_addr, uint64_t length) const;
  std::span<uint8_t> TranslateUser(uint64_t user_addr, uint64_t length) const;
  const std::vector<GuestRegion>& regions() const { return regions_; }

 private:
  void Unmap();
  struct Mapping {
    void* base;
    size_t length;
  };
  std::vector<GuestRegion> regions_;
  std::vector<Mapping> mappings_;
};

}  // namespace regemu::uml
