#include "regemu/emulator/trap/cpu_state.hpp"

#include <asm/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "regemu/emulator/trap/xsave_area.hpp"

namespace regemu::emulator::trap {
namespace {

constexpr ZydisMachineMode kMode = ZYDIS_MACHINE_MODE_LONG_64;

// Where bytes [16 * part, 16 * part + 16) of vector register `index`
// (0-31) live: XMM0-15 in the FXSAVE image, their upper halves in YMM_Hi128
// and ZMM_Hi256, ZMM16-31 whole in Hi16_ZMM.
struct Slice {
  XstateComponent component;
  size_t offset;
};

Slice SliceOf(unsigned index, unsigned part) {
  if (index >= 16) return {XstateComponent::kHi16Zmm, 64 * (index - 16) + 16 * part};
  switch (part) {
    case 0: return {XstateComponent::kSse, 16 * index};
    case 1: return {XstateComponent::kYmmHi128, 16 * index};
    default: return {XstateComponent::kZmmHi256, 32 * index + 16 * (part - 2)};
  }
}

// XMM, YMM or ZMM 0-31: its number, or -1.
int VectorIndex(ZydisRegister reg) {
  for (ZydisRegister first : {ZYDIS_REGISTER_XMM0, ZYDIS_REGISTER_YMM0, ZYDIS_REGISTER_ZMM0}) {
    if (reg >= first && reg <= first + 31) return static_cast<int>(reg - first);
  }
  return -1;
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

void PrepareCpuState() { PrepareXsaveLayout(); }

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

bool IsEvexVector(ZydisRegister reg) { return VectorIndex(reg) >= 0; }

bool IsOpmask(ZydisRegister reg) { return reg >= ZYDIS_REGISTER_K0 && reg <= ZYDIS_REGISTER_K7; }

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
  auto index = static_cast<unsigned>(VectorIndex(reg));
  XsaveArea xsave(context_);
  for (unsigned part = 0; part * 16 < out.size(); ++part) {
    Slice slice = SliceOf(index, part);
    xsave.Read(slice.component, slice.offset, out.subspan(part * 16, std::min<size_t>(out.size() - part * 16, 16)));
  }
}

bool CpuState::WriteVector(ZydisRegister reg, std::span<const uint8_t> bytes, bool zero_upper) {
  auto index = static_cast<unsigned>(VectorIndex(reg));
  XsaveArea xsave(context_);
  uint8_t image[kMaxVectorBytes] = {};
  std::memcpy(image, bytes.data(), bytes.size());
  size_t end = zero_upper ? kMaxVectorBytes : bytes.size();
  // Every slice the write reaches must be in the frame before any changes:
  // an instruction is done whole or not at all.
  for (unsigned part = 0; part * 16 < end; ++part) {
    Slice slice = SliceOf(index, part);
    if (!xsave.Holds(slice.component) && XsaveArea::CpuHas(slice.component)) return false;
  }
  for (unsigned part = 0; part * 16 < end; ++part) {
    Slice slice = SliceOf(index, part);
    size_t size = std::min<size_t>(end - part * 16, 16);
    xsave.Write(slice.component, slice.offset, std::span<const uint8_t>(image + part * 16, size));
  }
  return true;
}

uint64_t CpuState::ReadOpmask(ZydisRegister reg) const {
  uint8_t bytes[8];
  XsaveArea(context_).Read(XstateComponent::kOpmask, 8 * static_cast<size_t>(reg - ZYDIS_REGISTER_K0), bytes);
  uint64_t value;
  std::memcpy(&value, bytes, sizeof value);
  return value;
}

bool CpuState::WriteOpmask(ZydisRegister reg, uint64_t value) {
  uint8_t bytes[8];
  std::memcpy(bytes, &value, sizeof bytes);
  return XsaveArea(context_).Write(XstateComponent::kOpmask, 8 * static_cast<size_t>(reg - ZYDIS_REGISTER_K0), bytes);
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
