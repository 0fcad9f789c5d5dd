#include "regemu/emulator/trap/xsave_area.hpp"

#include <cpuid.h>

#include <algorithm>
#include <cstring>

namespace regemu::emulator::trap {
namespace {

// The kernel marks an XSAVE frame in the FXSAVE image's software-reserved
// bytes (struct _fpx_sw_bytes, asm/sigcontext.h): magic, then the saved
// features (XCR0's bits) and the frame's size.
constexpr size_t kSwBytesOffset = 464;
constexpr uint32_t kFpXstateMagic1 = 0x46505853;
constexpr size_t kXstateBvOffset = 512;  // the XSAVE header, after the 512-byte FXSAVE image
constexpr size_t kXmmOffset = 160;       // XMM0 in the FXSAVE image

struct Placement {
  uint32_t offset = 0;  // 0: the CPU has no such component
  uint32_t size = 0;
};

// Indexed by component bit, for the bits of XstateComponent.
struct XsaveLayout {
  Placement components[8];
};

XsaveLayout ReadLayout() {
  XsaveLayout layout;
  layout.components[1] = {kXmmOffset, 256};
  for (unsigned bit : {2u, 5u, 6u, 7u}) {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    // Sub-leaf `bit` of leaf 0xD: the component's size (EAX) and offset in
    // the standard format (EBX); zeros where the CPU has none.
    if (__get_cpuid_count(0xd, bit, &eax, &ebx, &ecx, &edx) && eax != 0 && ebx != 0) {
      layout.components[bit] = {ebx, eax};
    }
  }
  return layout;
}

const XsaveLayout& Layout() {
  static const XsaveLayout layout = ReadLayout();
  return layout;
}

const Placement& PlacementOf(XstateComponent component) {
  return Layout().components[static_cast<unsigned>(component)];
}

uint64_t Bit(XstateComponent component) { return uint64_t{1} << static_cast<unsigned>(component); }

}  // namespace

void PrepareXsaveLayout() { Layout(); }

XsaveArea::XsaveArea(ucontext_t& context) : fx_(reinterpret_cast<uint8_t*>(context.uc_mcontext.fpregs)) {
  if (fx_ == nullptr) return;
  uint32_t magic;
  std::memcpy(&magic, fx_ + kSwBytesOffset, sizeof magic);
  if (magic != kFpXstateMagic1) return;
  xsave_ = true;
  std::memcpy(&features_, fx_ + kSwBytesOffset + 8, sizeof features_);
  std::memcpy(&size_, fx_ + kSwBytesOffset + 16, sizeof size_);
}

bool XsaveArea::CpuHas(XstateComponent component) { return PlacementOf(component).offset != 0; }

bool XsaveArea::Holds(XstateComponent component) const {
  if (fx_ == nullptr) return false;
  if (component == XstateComponent::kSse) return true;  // every frame has the FXSAVE image
  const Placement& placement = PlacementOf(component);
  return xsave_ && placement.offset != 0 && (features_ & Bit(component)) != 0 &&
         placement.offset + placement.size <= size_;
}

bool XsaveArea::InUse(XstateComponent component) const {
  if (!Holds(component)) return false;
  if (!xsave_) return true;  // an FXSAVE image: XMM0-15 are what it holds
  uint64_t bv;
  std::memcpy(&bv, fx_ + kXstateBvOffset, sizeof bv);
  return (bv & Bit(component)) != 0;
}

uint8_t* XsaveArea::Bytes(XstateComponent component) const { return fx_ + PlacementOf(component).offset; }

void XsaveArea::Read(XstateComponent component, size_t offset, std::span<uint8_t> out) const {
  std::fill(out.begin(), out.end(), uint8_t{0});
  if (!InUse(component)) return;
  std::memcpy(out.data(), Bytes(component) + offset, out.size());
}

bool XsaveArea::Write(XstateComponent component, size_t offset, std::span<const uint8_t> bytes) {
  bool zeros = std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; });
  if (!InUse(component)) {
    if (zeros && (!CpuHas(component) || Holds(component))) return true;  // already zero
    if (!Holds(component)) return false;
    std::memset(Bytes(component), 0, PlacementOf(component).size);
    uint64_t bv;
    std::memcpy(&bv, fx_ + kXstateBvOffset, sizeof bv);
    bv |= Bit(component);
    std::memcpy(fx_ + kXstateBvOffset, &bv, sizeof bv);
  }
  std::memcpy(Bytes(component) + offset, bytes.data(), bytes.size());
  return true;
}

}  // namespace regemu::emulator::trap
