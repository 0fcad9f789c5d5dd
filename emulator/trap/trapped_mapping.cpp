#include "regemu/emulator/trap/trapped_mapping.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "regemu/emulator/trap/fault_handler.hpp"
#include "regemu/emulator/trap/region_table.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

using regdb::Hex;

uint64_t PageSize() { return static_cast<uint64_t>(sysconf(_SC_PAGESIZE)); }

// "space 'bar0' of device 'nvme'"
std::string Name(const Device& device, SpaceId space) {
  return "space '" + device.model().spaces()[space].name + "' of device '" + device.model().device() + "'";
}

// What /proc/self/maps has in [begin, end): the lines a refused fixed
// mapping collides with.
std::string MappingsIn(uint64_t begin, uint64_t end) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  std::string found;
  while (std::getline(maps, line)) {
    std::istringstream fields(line);
    uint64_t first = 0, last = 0;
    char dash = 0;
    fields >> std::hex >> first >> dash >> last;
    if (fields && first < end && last > begin) found += (found.empty() ? "" : "; ") + line;
  }
  return found.empty() ? "nothing /proc/self/maps shows" : found;
}

void CheckMappable(const Device& device, SpaceId space) {
  const auto& spaces = device.model().spaces();
  if (space >= spaces.size()) {
    throw std::invalid_argument("regemu: device '" + device.model().device() + "' has no space number " +
                                std::to_string(space) + " (it has " + std::to_string(spaces.size()) + ")");
  }
  const SpaceModel& s = spaces[space];
  if (s.indexed) {
    throw std::invalid_argument("regemu: cannot map " + Name(device, space) +
                                ": its offsets are MSR indices, not bytes; use Device::Read/Write");
  }
  if (s.kind == regdb::SpaceKind::kState) {
    throw std::invalid_argument("regemu: cannot map " + Name(device, space) +
                                ": a `state` space is the device's inside, which no bus access reaches");
  }
  if (s.size == 0) throw std::invalid_argument("regemu: cannot map " + Name(device, space) + ": it is empty");
}

}  // namespace

TrappedMapping TrappedMapping::Map(Device& device, SpaceId space, MapOptions options) {
  CheckMappable(device, space);
  uint64_t page = PageSize();
  uint64_t space_size = device.model().spaces()[space].size;
  uint64_t length = (space_size + page - 1) / page * page;
  if (length < space_size) throw std::invalid_argument("regemu: cannot map " + Name(device, space) + ": too large");

  int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  void* hint = nullptr;
  if (options.fixed_address) {
    if (*options.fixed_address % page != 0) {
      throw std::invalid_argument("regemu: cannot map " + Name(device, space) + " at " +
                                  Hex(*options.fixed_address) + ": the address must be page-aligned (" +
                                  Hex(page) + ")");
    }
    hint = reinterpret_cast<void*>(*options.fixed_address);
    // Never MAP_FIXED: it would silently replace whatever is there.
    flags |= MAP_FIXED_NOREPLACE;
  }
  void* base = mmap(hint, length, PROT_NONE, flags, -1, 0);
  if (base == MAP_FAILED) {
    int error = errno;
    std::string what = "regemu: cannot map " + Name(device, space) + " (" + Hex(length) + " bytes)";
    if (options.fixed_address && error == EEXIST) {
      throw std::runtime_error(what + " at " + Hex(*options.fixed_address) + ": the range [" +
                               Hex(*options.fixed_address) + ", " + Hex(*options.fixed_address + length) +
                               ") is already in use: " + MappingsIn(*options.fixed_address,
                                                                    *options.fixed_address + length));
    }
    throw std::runtime_error(what + (options.fixed_address ? " at " + Hex(*options.fixed_address) : "") + ": " +
                             std::strerror(error));
  }
  if (options.fixed_address && base != hint) {
    // A kernel older than 4.17 takes MAP_FIXED_NOREPLACE as a mere hint.
    munmap(base, length);
    throw std::runtime_error("regemu: cannot map " + Name(device, space) + " at " + Hex(*options.fixed_address) +
                             ": the kernel placed it elsewhere (MAP_FIXED_NOREPLACE needs Linux 4.17)");
  }

  auto region = std::make_unique<trap::Region>();
  region->begin = reinterpret_cast<uintptr_t>(base);
  region->end = region->begin + length;
  region->space_size = space_size;
  region->device = &device;
  region->space = space;
  try {
    trap::InstallFaultHandler();
    trap::RegionTable::Instance().Add(region.get());
  } catch (...) {
    munmap(base, length);
    throw;
  }
  // A cost on the device, not in the trap: the frontdoor applies it inside
  // each access, so the trace shows the accesses at their instants and no
  // extra steps between them.
  if (options.access_cost_ns) {
    device.SetAccessCost(*options.access_cost_ns);
  } else if (device.access_cost_ns() == 0) {
    device.SetAccessCost(kDefaultTrappedAccessCostNs);
  }
  return TrappedMapping(std::move(region));
}

TrappedMapping::TrappedMapping(std::unique_ptr<trap::Region> region) : region_(std::move(region)) {}
TrappedMapping::TrappedMapping(TrappedMapping&& other) noexcept = default;

TrappedMapping& TrappedMapping::operator=(TrappedMapping&& other) noexcept {
  if (this != &other) {
    Unmap();
    region_ = std::move(other.region_);
  }
  return *this;
}

TrappedMapping::~TrappedMapping() { Unmap(); }

void TrappedMapping::Unmap() noexcept {
  if (!region_) return;
  trap::RegionTable::Instance().Remove(*region_);
  munmap(reinterpret_cast<void*>(region_->begin), region_->end - region_->begin);
  region_.reset();
}

void* TrappedMapping::base() const { return region_ ? reinterpret_cast<void*>(region_->begin) : nullptr; }
size_t TrappedMapping::size() const { return region_ ? region_->space_size : 0; }
SpaceId TrappedMapping::space() const { return region_->space; }
Device& TrappedMapping::device() const { return *region_->device; }

}  // namespace regemu::emulator
