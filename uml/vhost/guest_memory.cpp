#include "regemu/uml/vhost/guest_memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace regemu::uml {

void GuestMemory::Unmap() {
  for (const Mapping& m : mappings_) ::munmap(m.base, m.length);
  mappings_.clear();
  regions_.clear();
}

std::string GuestMemory::Set(std::span<const MemoryRegionDesc> regions, std::span<const int> fds) {
  Unmap();
  std::string error;
  if (regions.size() != fds.size()) {
    error = "SET_MEM_TABLE: " + std::to_string(regions.size()) + " region(s) but " + std::to_string(fds.size()) +
            " file descriptor(s)";
  }
  for (size_t i = 0; error.empty() && i < regions.size(); ++i) {
    const MemoryRegionDesc& r = regions[i];
    // The device maps from file offset 0 and starts at mmap_offset.
    if (r.size == 0 || r.mmap_offset > UINT64_MAX - r.size || r.guest_addr > UINT64_MAX - r.size ||
        r.user_addr > UINT64_MAX - r.size || r.size + r.mmap_offset > (uint64_t{1} << 47)) {
      error = "SET_MEM_TABLE: region " + std::to_string(i) + " has an impossible size or offset";
      break;
    }
    size_t length = static_cast<size_t>(r.size + r.mmap_offset);
    void* base = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fds[i], 0);
    if (base == MAP_FAILED) {
      error = "SET_MEM_TABLE: cannot map region " + std::to_string(i) + ": " + std::strerror(errno);
      break;
    }
    mappings_.push_back({base, length});
    regions_.push_back(GuestRegion{r.guest_addr, r.user_addr,
                                   std::span<uint8_t>(static_cast<uint8_t*>(base) + r.mmap_offset, r.size)});
  }
  for (int fd : fds) ::close(fd);
  if (!error.empty()) Unmap();
  return error;
}

std::span<uint8_t> GuestMemory::Translate(uint64_t guest_addr, uint64_t length) const {
  for (const GuestRegion& r : regions_) {
    if (guest_addr >= r.guest_addr && guest_addr - r.guest_addr <= r.bytes.size() &&
        length <= r.bytes.size() - (guest_addr - r.guest_addr)) {
      return r.bytes.subspan(guest_addr - r.guest_addr, length);
    }
  }
  return {};
}

std::span<uint8_t> GuestMemory::TranslateUser(uint64_t user_addr, uint64_t length) const {
  for (const GuestRegion& r : regions_) {
    if (user_addr >= r.user_addr && user_addr - r.user_addr <= r.bytes.size() &&
        length <= r.bytes.size() - (user_addr - r.user_addr)) {
      return r.bytes.subspan(user_addr - r.user_addr, length);
    }
  }
  return {};
}

}  // namespace regemu::uml
