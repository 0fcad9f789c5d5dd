#pragma once
// A space of an emulated device mapped into the process's address space, so
// that driver code reaches it through plain pointers, unmodified:
//
//   auto bar0 = TrappedMapping::Map(device, *model.FindSpace("bar0"));
//   auto* regs = static_cast<volatile uint32_t*>(bar0.base());
//   regs[0x14 / 4] |= 1;   // a frontdoor read of CC, then a write
//
// The pages are PROT_NONE: every load and store there faults (SIGSEGV), and
// regemu's handler decodes the instruction (Zydis), performs its accesses
// on the device through the frontdoor (Device::Read/Write: policies,
// behaviours, violations, trace, coverage), writes the result into the
// thread's registers and resumes after the instruction. Unmapping (the
// destructor) gives the address range back.
//
// x86-64 Linux only. docs/trapped-mappings.md lists the instructions
// emulated, what a fault outside every mapping does (the handler that was
// there before gets it), and the options ASan and gdb need.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "regemu/emulator/device.hpp"

namespace regemu::emulator {

namespace trap {
struct Region;
}

struct MapOptions {
  // Where the space's offset 0 goes: nothing lets the kernel choose (a BAR
  // pointer handed to the driver); an address maps exactly there (firmware
  // whose peripherals sit at 0x40000000). It must be page-aligned, and the
  // range must be free: a mapping never replaces what is there.
  std::optional<uintptr_t> fixed_address;
  // The device's virtual time per frontdoor access from now on
  // (Device::SetAccessCost), trapped or not, so that a driver's polling loop
  // sees a delayed status bit rise and ends. Nothing: a device without an
  // access cost (DeviceOptions::access_cost_ns 0) gets
  // kDefaultTrappedAccessCostNs, one with a cost keeps it. 0: time moves
  // only as the test moves it.
  std::optional<uint64_t> access_cost_ns;
};

// About one uncached read across PCIe; MapOptions::access_cost_ns.
inline constexpr uint64_t kDefaultTrappedAccessCostNs = 1000;

class TrappedMapping {
 public:
  // Maps space `space` of `device`. The device must outlive the mapping.
  // Throws std::invalid_argument for a space that cannot be mapped (an MSR
  // space's offsets are indices, a `state` space answers no bus access), a
  // fixed address that is not page-aligned, and std::runtime_error when the
  // kernel refuses the range (the fixed range is taken: the message names
  // what /proc/self/maps has there) or every one of the process's 64
  // mapping slots is in use.
  static TrappedMapping Map(Device& device, SpaceId space, MapOptions options = {});
  static TrappedMapping Map(Device& device, SpaceId space, std::optional<void*> fixed_address) {
    MapOptions options;
    if (fixed_address) options.fixed_address = reinterpret_cast<uintptr_t>(*fixed_address);
    return Map(device, space, options);
  }

  TrappedMapping(TrappedMapping&& other) noexcept;
  TrappedMapping& operator=(TrappedMapping&& other) noexcept;
  TrappedMapping(const TrappedMapping&) = delete;
  TrappedMapping& operator=(const TrappedMapping&) = delete;
  ~TrappedMapping();

  // Space offset 0; nullptr once moved from.
  void* base() const;
  // The space's size in bytes (the mapping itself is rounded up to pages;
  // the bytes past the space are the device's to refuse).
  size_t size() const;
  SpaceId space() const;
  Device& device() const;

 private:
  explicit TrappedMapping(std::unique_ptr<trap::Region> region);
  void Unmap() noexcept;

  std::unique_ptr<trap::Region> region_;
};

}  // namespace regemu::emulator
