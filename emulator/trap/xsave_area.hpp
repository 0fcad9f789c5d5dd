#pragma once
// The vector and opmask state the kernel saved in a signal frame: the
// FXSAVE image (XMM0-15) and, after it, the XSAVE header and the extended
// components in the standard format. Where each component sits comes from
// CPUID leaf 0xD; whether it holds anything from the header's XSTATE_BV (a
// clear bit means the component is in its init state, all zero, and its
// bytes in the frame are stale). Nothing here allocates: it runs in the
// SIGSEGV handler.

#include <sys/ucontext.h>

#include <cstddef>
#include <cstdint>
#include <span>

namespace regemu::emulator::trap {

// The XSAVE state components an emulated instruction reads or writes, by
// their bit in XCR0 / XSTATE_BV.
enum class XstateComponent : uint8_t {
  kSse = 1,        // XMM0-15, bits 127:0 (in the FXSAVE image)
  kYmmHi128 = 2,   // YMM0-15, bits 255:128
  kOpmask = 5,     // k0-k7
  kZmmHi256 = 6,   // ZMM0-15, bits 511:256
  kHi16Zmm = 7,    // ZMM16-31, all 512 bits
};

class XsaveArea {
 public:
  explicit XsaveArea(ucontext_t& context);

  // Whether the CPU has the component at all (CPUID). A CPU without it
  // cannot run an instruction that uses it.
  static bool CpuHas(XstateComponent component);
  // Whether the frame has room for the component.
  bool Holds(XstateComponent component) const;

  // Bytes [offset, offset + out.size()) of the component: zero when it is
  // in its init state or the CPU lacks it.
  void Read(XstateComponent component, size_t offset, std::span<uint8_t> out) const;
  // Writes them. A component in its init state is zeroed first and then
  // marked as saved: XRSTOR would otherwise restore it as zero. Writing
  // zeros to a component in init state (or one the CPU lacks) changes
  // nothing. False when the frame has no room for it.
  bool Write(XstateComponent component, size_t offset, std::span<const uint8_t> bytes);

 private:
  bool InUse(XstateComponent component) const;
  uint8_t* Bytes(XstateComponent component) const;

  uint8_t* fx_ = nullptr;    // the FXSAVE image, nullptr when the frame has no FP state
  bool xsave_ = false;       // the kernel saved it with XSAVE (a header follows)
  uint64_t features_ = 0;    // the components it saved
  uint32_t size_ = 0;        // the bytes it saved
};

// Reads the CPU's XSAVE layout once (CPUID leaf 0xD): call it before the
// first fault, outside the signal handler.
void PrepareXsaveLayout();

}  // namespace regemu::emulator::trap
