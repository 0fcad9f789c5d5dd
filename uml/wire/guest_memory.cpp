#include "regemu/uml/wire/guest_memory.hpp"

#include <sys/mman.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "regemu/uml/wire/hex.hpp"

namespace regemu::uml {
namespace {

// [start, start + size) as a half-open range, or false when it wraps.
bool End(uint64_t start, uint64_t size, uint64_t& end) { return !__builtin_add_overflow(start, size, &end); }

bool Overlap(uint64_t a, uint64_t a_size, uint64_t b, uint64_t b_size) {
  // Both ends are known not to wrap (checked before).
  return a < b + b_size && b < a + a_size;
}

std::span<uint8_t> Find(const std::vector<GuestMemory::Region>& regions, uint64_t GuestMemory::Region::*start,
                        uint64_t addr, uint64_t length) {
  if (length == 0) return {};
  for (const GuestMemory::Region& region : regions) {
    uint64_t base = region.*start;
    // Overflow-safe "addr >= base && addr + length <= base + size".
    if (addr < base) continue;
    uint64_t offset = addr - base;
    if (offset >= region.size || length > region.size - offset) continue;
    return region.bytes.subspan(static_cast<size_t>(offset), static_cast<size_t>(length));
  }
  return {};
}

}  // namespace

GuestMemory::~GuestMemory() { Clear(); }

GuestMemory::GuestMemory(GuestMemory&& other) noexcept
    : regions_(std::move(other.regions_)), mappings_(std::move(other.mappings_)) {
  other.regions_.clear();
  other.mappings_.clear();
}

GuestMemory& GuestMemory::operator=(GuestMemory&& other) noexcept {
  if (this != &other) {
    Clear();
    regions_ = std::move(other.regions_);
    mappings_ = std::move(other.mappings_);
    other.regions_.clear();
    other.mappings_.clear();
  }
  return *this;
}

void GuestMemory::Unmap(std::vector<Mapping>& mappings) {
  for (const Mapping& mapping : mappings) ::munmap(mapping.base, mapping.length);
  mappings.clear();
}

void GuestMemory::Clear() {
  regions_.clear();
  Unmap(mappings_);
}

Status GuestMemory::Replace(std::span<const vhost::MemoryRegion> regions, std::span<const int> fds) {
  if (regions.empty()) return Status::Error("a memory table with no regions");
  if (regions.size() > vhost::kMaxMemoryRegions) {
    return Status::Error("a memory table of " + std::to_string(regions.size()) + " regions (at most " +
                         std::to_string(vhost::kMaxMemoryRegions) + ")");
  }
  if (fds.size() != regions.size()) {
    return Status::Error("a memory table of " + std::to_string(regions.size()) + " regions came with " +
                         std::to_string(fds.size()) + " fds");
  }
  for (size_t i = 0; i < regions.size(); ++i) {
    const vhost::MemoryRegion& region = regions[i];
    const std::string name = "memory region " + std::to_string(i);
    uint64_t guest_end = 0;
    uint64_t user_end = 0;
    uint64_t file_end = 0;
    if (region.size == 0) return Status::Error(name + " is empty");
    // file_end is an mmap length and an off_t.
    if (!End(region.guest_addr, region.size, guest_end) || !End(region.user_addr, region.size, user_end) ||
        !End(region.mmap_offset, region.size, file_end) || file_end > static_cast<uint64_t>(INT64_MAX)) {
      return Status::Error(name + " (guest " + Hex(region.guest_addr) + ", size " + Hex(region.size) +
                           ", user " + Hex(region.user_addr) + ", offset " + Hex(region.mmap_offset) +
                           ") wraps around the address space");
    }
    for (size_t j = 0; j < i; ++j) {
      if (Overlap(region.guest_addr, region.size, regions[j].guest_addr, regions[j].size) ||
          Overlap(region.user_addr, region.size, regions[j].user_addr, regions[j].size)) {
        return Status::Error(name + " overlaps memory region " + std::to_string(j));
      }
    }
  }

  std::vector<Region> mapped;
  std::vector<Mapping> mappings;
  for (size_t i = 0; i < regions.size(); ++i) {
    const vhost::MemoryRegion& region = regions[i];
    const std::string name = "memory region " + std::to_string(i);
    // A mapping past the end of a regular file is legal, but touching it
    // raises SIGBUS: refuse a region its file does not hold.
    const uint64_t length = region.mmap_offset + region.size;
    struct stat file {};
    if (::fstat(fds[i], &file) != 0) {
      Unmap(mappings);
      return Status::Error(name + ": its fd " + std::to_string(fds[i]) + " is not usable: " + std::strerror(errno));
    }
    if (S_ISREG(file.st_mode) && static_cast<uint64_t>(file.st_size) < length) {
      Unmap(mappings);
      return Status::Error(name + " ends at file offset " + Hex(length) + ", past its file's end (" +
                           Hex(static_cast<uint64_t>(file.st_size)) + ")");
    }
    // Mapped from file offset 0 and used from mmap_offset on, as the
    // vhost-user reference slaves do: mmap_offset need not be page aligned.
    void* base = ::mmap(nullptr, static_cast<size_t>(length), PROT_READ | PROT_WRITE, MAP_SHARED, fds[i], 0);
    if (base == MAP_FAILED) {
      Unmap(mappings);
      return Status::Error(name + ": mmap of " + Hex(length) + " bytes failed: " + std::strerror(errno));
    }
    mappings.push_back(Mapping{base, static_cast<size_t>(length)});
    auto* first = static_cast<uint8_t*>(base) + region.mmap_offset;
    mapped.push_back(Region{region.guest_addr, region.size, region.user_addr, region.mmap_offset,
                            std::span<uint8_t>(first, static_cast<size_t>(region.size))});
  }
  Clear();
  regions_ = std::move(mapped);
  mappings_ = std::move(mappings);
  return Status::Ok();
}

std::span<uint8_t> GuestMemory::Translate(uint64_t guest_addr, uint64_t length) const {
  return Find(regions_, &Region::guest_addr, guest_addr, length);
}

std::span<uint8_t> GuestMemory::TranslateUser(uint64_t user_addr, uint64_t length) const {
  return Find(regions_, &Region::user_addr, user_addr, length);
}

}  // namespace regemu::uml
