#include "regemu/emulator/trap/cpu_state.hpp"

#include <asm/prctl.h>
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace regemu::emulator::trap {
namespace {

constexpr ZydisMachineMode kMode = ZYDIS_MACHINE_MODE_LONG_64;

// The signal frame's FP state is an FXSAVE image followed, when the kernel
// saved it with XSAVE, by the XSAVE header and extended components in the
// standard (non-compacted) format. The kernel marks that in the FXSAVE
// image's software-reserved bytes (struct _fpx_sw_bytes, asm/sigcontext.h).
constexpr size_t kSwBytesOffset = 464;
constexpr uint32_t kFpXstateMagic1 = 0x46505853;
constexpr size_t kXstateBvOffset = 512;
constexpr uint64_t kYmmComponent = uint64_t{1} << 2;
constexpr uint64_t kZmmHiComponent = uint64_t{1} << 6;

// Where the standard format keeps YMM_Hi128 (bits 255:128 of YMM0-15) and
// ZMM_Hi256 (bits 511:256 of ZMM0-15), from CPUID; 0 where the CPU has none.
struct XsaveLayout {
  uint32_t ymm_hi = 0;
  uint32_t zmm_hi = 0;
};

XsaveLayout ReadLayout() {
  XsaveLayout layout;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_count(0xd, 2, &eax, &ebx, &ecx, &edx) && eax == 256) layout.ymm_hi = ebx;
  if (__get_cpuid_count(0xd, 6, &eax, &ebx, &ecx, &edx) && eax == 512) layout.zmm_hi = ebx;
  return layout;
}

const XsaveLayout& Layout() {
  static const XsaveLayout layout = ReadLayout();
  return layout;
}

// The frame's XSAVE area, and which components it holds.
struct Xsave {
  uint8_t* area = nullptr;  // nullptr: an FXSAVE image only
  uint64_t features = 0;    // the components the kernel saved
  uint32_t size = 0;

  uint64_t xstate_bv() const {
    uint64_t bv;
    std::memcpy(&bv, area + kXstateBvOffset, sizeof bv);
    return bv;
  }
  void set_xstate_bv(uint64_t bv) { std::memcpy(area + kXstateBvOffset, &bv, sizeof bv); }
  // Component `bit` at `offset` (16 registers of `stride` bytes) is in the frame.
  bool Has(uint64_t bit, uint32_t offset, uint32_t stride) const {
    return area != nullptr && (features & bit) != 0 && offset != 0 && offset + 16u * stride <= size;
  }
};

Xsave XsaveOf(const ucontext_t& context) {
  auto* fx = reinterpret_cast<uint8_t*>(context.uc_mcontext.fpregs);
  Xsave xsave;
  if (fx == nullptr) return xsave;
  uint32_t magic;
  std::memcpy(&magic, fx + kSwBytesOffset, sizeof magic);
  if (magic != kFpXstateMagic1) return xsave;
  xsave.area = fx;
  std::memcpy(&xsave.features, fx + kSwBytesOffset + 8, sizeof xsave.features);
  std::memcpy(&xsave.size, fx + kSwBytesOffset + 16, sizeof xsave.size);
  return xsave;
}

int GregOf(ZydisRegister reg64) {
  switch (reg64) {
    case ZYDIS_REGISTER_RAX: return REG_RAX;
    case ZYDIS_REGISTER_RCX: return REG_RCX;
    case ZYDIS_REGISTER_RDX: return REG_RDX;
    case ZYDIS_REGISTER_RBX: return REG_RBX;
    case ZYDIS_REGISTER_RSP: return REG_RSP;
    case ZYDIS_REGISTER_RBP: return REG_RBP;
    case ZYDIS_REGISTER_RSI: return REG_RSI;
    case ZYDIS_REGISTER_RDI: return REG_RDI;
    case ZYDIS_REGISTER_R8: return REG_R8;
    case ZYDIS_REGISTER_R9: return REG_R9;
    case ZYDIS_REGISTER_R10: return REG_R10;
    case ZYDIS_REGISTER_R11: return REG_R11;
    case ZYDIS_REGISTER_R12: return REG_R12;
    case ZYDIS_REGISTER_R13: return REG_R13;
    case ZYDIS_REGISTER_R14: return REG_R14;
    case ZYDIS_REGISTER_R15: return REG_R15;
    default: return -1;
  }
}

bool IsHighByte(ZydisRegister reg) {
  return reg == ZYDIS_REGISTER_AH || reg == ZYDIS_REGISTER_CH || reg == ZYDIS_REGISTER_DH ||
         reg == ZYDIS_REGISTER_BH;
}

}  // namespace

void PrepareCpuState() { Layout(); }

bool IsGpr(ZydisRegister reg) {
  switch (ZydisRegisterGetClass(reg)) {
    case ZYDIS_REGCLASS_GPR8:
    case ZYDIS_REGCLASS_GPR16:
    case ZYDIS_REGCLASS_GPR32:
    case ZYDIS_REGCLASS_GPR64:
      return GregOf(ZydisRegisterGetLargestEnclosing(kMode, reg)) >= 0;
    default:
      return false;
  }
}

bool IsVector(ZydisRegister reg) {
  return (reg >= ZYDIS_REGISTER_XMM0 && reg <= ZYDIS_REGISTER_XMM15) ||
         (reg >= ZYDIS_REGISTER_YMM0 && reg <= ZYDIS_REGISTER_YMM15);
}

uint64_t CpuState::rip() const { return static_cast<uint64_t>(context_.uc_mcontext.gregs[REG_RIP]); }
void CpuState::set_rip(uint64_t rip) { context_.uc_mcontext.gregs[REG_RIP] = static_cast<greg_t>(rip); }
uint64_t CpuState::rflags() const { return static_cast<uint64_t>(context_.uc_mcontext.gregs[REG_EFL]); }

void CpuState::SetStatusFlags(uint64_t flags) {
  uint64_t merged = (rflags() & ~kStatusFlags) | (flags & kStatusFlags);
  context_.uc_mcontext.gregs[REG_EFL] = static_cast<greg_t>(merged);
}

uint64_t CpuState::Read(ZydisRegister reg) const {
  auto full = static_cast<uint64_t>(context_.uc_mcontext.gregs[GregOf(ZydisRegisterGetLargestEnclosing(kMode, reg))]);
  switch (ZydisRegisterGetClass(reg)) {
    case ZYDIS_REGCLASS_GPR8: return IsHighByte(reg) ? (full >> 8) & 0xff : full & 0xff;
    case ZYDIS_REGCLASS_GPR16: return full & 0xffff;
    case ZYDIS_REGCLASS_GPR32: return full & 0xffffffff;
    default: return full;
  }
}

void CpuState::Write(ZydisRegister reg, uint64_t value) {
  greg_t& slot = context_.uc_mcontext.gregs[GregOf(ZydisRegisterGetLargestEnclosing(kMode, reg))];
  auto full = static_cast<uint64_t>(slot);
  switch (ZydisRegisterGetClass(reg)) {
    case ZYDIS_REGCLASS_GPR8:
      full = IsHighByte(reg) ? (full & ~uint64_t{0xff00}) | ((value & 0xff) << 8) : (full & ~uint64_t{0xff}) | (value & 0xff);
      break;
    case ZYDIS_REGCLASS_GPR16: full = (full & ~uint64_t{0xffff}) | (value & 0xffff); break;
    case ZYDIS_REGCLASS_GPR32: full = value & 0xffffffff; break;
    default: full = value; break;
  }
  slot = static_cast<greg_t>(full);
}

void CpuState::ReadVector(ZydisRegister reg, std::span<uint8_t> out) const {
  bool ymm = reg >= ZYDIS_REGISTER_YMM0;
  unsigned index = static_cast<unsigned>(reg - (ymm ? ZYDIS_REGISTER_YMM0 : ZYDIS_REGISTER_XMM0));
  std::fill(out.begin(), out.end(), uint8_t{0});
  size_t low = std::min<size_t>(out.size(), 16);
  std::memcpy(out.data(), context_.uc_mcontext.fpregs->_xmm[index].element, low);
  if (out.size() <= 16) return;
  Xsave xsave = XsaveOf(context_);
  const XsaveLayout& layout = Layout();
  if (!xsave.Has(kYmmComponent, layout.ymm_hi, 16) || (xsave.xstate_bv() & kYmmComponent) == 0) return;
  std::memcpy(out.data() + 16, xsave.area + layout.ymm_hi + 16 * index, std::min<size_t>(out.size() - 16, 16));
}

bool CpuState::WriteVector(ZydisRegister reg, std::span<const uint8_t> bytes, bool vex) {
  bool ymm = reg >= ZYDIS_REGISTER_YMM0;
  unsigned index = static_cast<unsigned>(reg - (ymm ? ZYDIS_REGISTER_YMM0 : ZYDIS_REGISTER_XMM0));
  Xsave xsave = XsaveOf(context_);
  const XsaveLayout& layout = Layout();
  bool has_ymm = xsave.Has(kYmmComponent, layout.ymm_hi, 16);
  if ((bytes.size() > 16 || vex) && !has_ymm) return false;
  std::memcpy(context_.uc_mcontext.fpregs->_xmm[index].element, bytes.data(), std::min<size_t>(bytes.size(), 16));
  if (bytes.size() <= 16 && !vex) return true;  // legacy SSE: bits 255:128 stay
  uint8_t upper[16] = {};
  if (bytes.size() > 16) std::memcpy(upper, bytes.data() + 16, std::min<size_t>(bytes.size() - 16, 16));
  std::memcpy(xsave.area + layout.ymm_hi + 16 * index, upper, sizeof upper);
  // Mark the component as saved, else the kernel restores it as zero.
  xsave.set_xstate_bv(xsave.xstate_bv() | kYmmComponent);
  // VEX also zeroes bits 511:256 on a CPU with AVX-512 (in its init state
  // when the header's bit is clear: nothing to do then).
  if (xsave.Has(kZmmHiComponent, layout.zmm_hi, 32) && (xsave.xstate_bv() & kZmmHiComponent) != 0) {
    std::memset(xsave.area + layout.zmm_hi + 32 * index, 0, 32);
  }
  return true;
}

uint64_t CpuState::SegmentBase(ZydisRegister segment) const {
  int code = segment == ZYDIS_REGISTER_FS ? ARCH_GET_FS : segment == ZYDIS_REGISTER_GS ? ARCH_GET_GS : 0;
  if (code == 0) return 0;
  // The thread that faulted is the one running this handler.
  unsigned long base = 0;
  syscall(SYS_arch_prctl, code, &base);
  return base;
}

}  // namespace regemu::emulator::trap
