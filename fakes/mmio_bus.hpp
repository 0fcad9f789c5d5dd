#pragma once
// The seam between a driver and its registers: one MmioBus per address
// space the driver maps (BAR0, PCI configuration space, ...), like a Linux
// `void __iomem *`. Driver code takes an MmioBus& (or, in template drivers,
// anything satisfying regemu::hwreg::RegisterIo, which MmioBus does), so the
// same code runs on real hardware, on the emulator (FakeMmioBus) or on a
// gmock mock delegating to the emulator (MockMmioBus).

#include <cstdint>
#include <optional>

#include "regemu/hwreg.hpp"

namespace regemu::fakes {

// Where in the driver the access in progress on this thread was made: the
// source location of the outermost MmioBus helper call (Read32, Write32,
// ...) or hwreg ReadFrom/WriteTo, so DeviceTest can report a violation at
// the driver's line. Outermost, because a driver's own wrapper around the
// bus is not the line a developer wants to see, its caller is. Per thread,
// and header-only: driver code built for real hardware includes this
// header without linking the test kit.
namespace detail {
inline thread_local std::optional<hwreg::SourceLocation> current_access_site;
}  // namespace detail

inline std::optional<hwreg::SourceLocation> CurrentAccessSite() { return detail::current_access_site; }

// Marks `site` as the current access site for its lifetime, unless an outer
// one already is.
class AccessSiteScope {
 public:
  explicit AccessSiteScope(const hwreg::SourceLocation& site) : outermost_(!detail::current_access_site) {
    if (outermost_) detail::current_access_site = site;
  }
  ~AccessSiteScope() {
    if (outermost_) detail::current_access_site.reset();
  }
  AccessSiteScope(const AccessSiteScope&) = delete;
  AccessSiteScope& operator=(const AccessSiteScope&) = delete;

 private:
  bool outermost_;
};

class MmioBus {
 public:
  virtual ~MmioBus() = default;

  // `width` is 8, 16, 32 or 64 bits; `offset` in bytes (MSR spaces: the index).
  virtual uint64_t Read(uint64_t offset, unsigned width) = 0;
  virtual void Write(uint64_t offset, unsigned width, uint64_t value) = 0;

  // Read/Write remembering the caller's line (CurrentAccessSite).
  uint64_t ReadAt(uint64_t offset, unsigned width, const hwreg::SourceLocation& site) {
    AccessSiteScope scope(site);
    return Read(offset, width);
  }
  void WriteAt(uint64_t offset, unsigned width, uint64_t value, const hwreg::SourceLocation& site) {
    AccessSiteScope scope(site);
    Write(offset, width, value);
  }

  // readb/readw/readl/readq-style helpers over Read/Write; each remembers
  // the line that called it.
  using Site = hwreg::SourceLocation;
  uint8_t Read8(uint64_t offset, Site site = Site::current()) { return static_cast<uint8_t>(ReadAt(offset, 8, site)); }
  uint16_t Read16(uint64_t offset, Site site = Site::current()) {
    return static_cast<uint16_t>(ReadAt(offset, 16, site));
  }
  uint32_t Read32(uint64_t offset, Site site = Site::current()) {
    return static_cast<uint32_t>(ReadAt(offset, 32, site));
  }
  uint64_t Read64(uint64_t offset, Site site = Site::current()) { return ReadAt(offset, 64, site); }
  void Write8(uint64_t offset, uint8_t value, Site site = Site::current()) { WriteAt(offset, 8, value, site); }
  void Write16(uint64_t offset, uint16_t value, Site site = Site::current()) { WriteAt(offset, 16, value, site); }
  void Write32(uint64_t offset, uint32_t value, Site site = Site::current()) { WriteAt(offset, 32, value, site); }
  void Write64(uint64_t offset, uint64_t value, Site site = Site::current()) { WriteAt(offset, 64, value, site); }
};

// Template drivers take any IO object with Read(offset, width) and
// Write(offset, width, value): the generated register headers' concept.
template <typename T>
concept MmioBusLike = hwreg::RegisterIo<T>;

static_assert(MmioBusLike<MmioBus>);

// Intel masked registers: bits 31:16 of a write select which of bits 15:0 it
// changes (i915's _MASKED_BIT_ENABLE / _MASKED_BIT_DISABLE / _MASKED_FIELD).
constexpr uint32_t MaskedBitEnable(uint32_t bits) { return (bits << 16) | bits; }
constexpr uint32_t MaskedBitDisable(uint32_t bits) { return bits << 16; }
constexpr uint32_t MaskedField(uint32_t mask, uint32_t value) { return (mask << 16) | (value & mask); }

}  // namespace regemu::fakes
