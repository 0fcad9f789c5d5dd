#pragma once
// The faulting thread's registers, as the kernel saved them in the signal
// frame (ucontext_t): what an emulated instruction reads and writes, with
// x86-64's rules for partial registers, so that resuming the thread sees
// exactly what the real instruction would have left.

#include <sys/ucontext.h>

#include <cstdint>
#include <span>

#include <Zydis/Zydis.h>

namespace regemu::emulator::trap {

// The status flags an ALU instruction sets: CF PF AF ZF SF OF.
inline constexpr uint64_t kStatusFlags = 0x8d5;
inline constexpr uint64_t kDirectionFlag = 0x400;

bool IsGpr(ZydisRegister reg);
// XMM0-15 or YMM0-15: what a VEX or legacy SSE instruction can name.
bool IsVector(ZydisRegister reg);
// XMM, YMM or ZMM 0-31: what an EVEX instruction can name.
bool IsEvexVector(ZydisRegister reg);
// k0-k7.
bool IsOpmask(ZydisRegister reg);

// A ZMM register's bytes.
inline constexpr size_t kMaxVectorBytes = 64;

class CpuState {
 public:
  explicit CpuState(ucontext_t& context) : context_(context) {}

  uint64_t rip() const;
  void set_rip(uint64_t rip);
  uint64_t rflags() const;
  // Replaces the status flags with those of `flags`; the others stay.
  void SetStatusFlags(uint64_t flags);

  // A general-purpose register of any width (AL, AH, AX, EAX, RAX, R8B,
  // ...), zero-extended. `reg` must satisfy IsGpr.
  uint64_t Read(ZydisRegister reg) const;
  // Writes as the CPU does: a 32-bit register zero-extends into its 64-bit
  // one, 8- and 16-bit registers (AH: bits 15:8) leave the other bits.
  void Write(ZydisRegister reg, uint64_t value);

  // The low out.size() (at most 64) bytes of a vector register
  // (IsEvexVector): its bytes beyond XMM's are zero when the frame holds
  // none (the component in its init state, or a CPU without it).
  void ReadVector(ZydisRegister reg, std::span<uint8_t> out) const;
  // Writes `bytes` (at most 64) to the register's low bytes. With
  // `zero_upper` (VEX and EVEX encodings) every byte above them is zeroed,
  // to bit 511 where the CPU has AVX-512; without (legacy SSE) they stay.
  // False, changing nothing, when the frame has no room for state the
  // write reaches (no XSAVE area).
  bool WriteVector(ZydisRegister reg, std::span<const uint8_t> bytes, bool zero_upper);

  // An opmask register (IsOpmask), zero when the frame holds none.
  uint64_t ReadOpmask(ZydisRegister reg) const;
  // False when the frame has no room for the opmask state.
  bool WriteOpmask(ZydisRegister reg, uint64_t value);

  // The base of segment FS or GS (arch_prctl), 0 for the others.
  uint64_t SegmentBase(ZydisRegister segment) const;

 private:
  ucontext_t& context_;
};

// Reads the CPU's XSAVE layout once (xsave_area.hpp): call it before the
// first fault, outside the signal handler.
void PrepareCpuState();

}  // namespace regemu::emulator::trap
