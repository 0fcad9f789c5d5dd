#include "regemu/emulator/trap/alu.hpp"

#include <cstdlib>

#include "regemu/emulator/trap/cpu_state.hpp"

namespace regemu::emulator::trap {
namespace {

// Loads the status flags, runs one instruction, saves the flags. The stack
// pointer first steps over the red zone: the compiler may keep this leaf
// function's locals there, and the push would overwrite them. For the same
// reason no operand is an "m" one (it could be addressed from %rsp).
#define REGEMU_WITH_FLAGS(instruction)                                             \
  "lea -128(%%rsp), %%rsp\n\tpushq %[flags]\n\tpopfq\n\t" instruction "\n\t" \
  "pushfq\n\tpopq %[flags]\n\tlea 128(%%rsp), %%rsp"

template <typename T>
AluResult Run(AluOp op, T a, T b, uint64_t flags) {
  auto count = static_cast<uint8_t>(b);
  switch (op) {
#define REGEMU_BINARY(id, mnemonic)                                                                         \
  case AluOp::id:                                                                                           \
    asm(REGEMU_WITH_FLAGS(mnemonic " %[b], %[a]") : [a] "+r"(a), [flags] "+r"(flags) : [b] "r"(b) : "cc"); \
    break;
#define REGEMU_UNARY(id, mnemonic)                                                        \
  case AluOp::id:                                                                         \
    asm(REGEMU_WITH_FLAGS(mnemonic " %[a]") : [a] "+r"(a), [flags] "+r"(flags) : : "cc"); \
    break;
// The count in CL, as the instruction had it (the CPU masks it).
#define REGEMU_SHIFT(id, mnemonic)                                                                        \
  case AluOp::id:                                                                                         \
    asm(REGEMU_WITH_FLAGS(mnemonic " %%cl, %[a]") : [a] "+r"(a), [flags] "+r"(flags) : "c"(count) : "cc"); \
    break;
    REGEMU_BINARY(kAdd, "add")
    REGEMU_BINARY(kOr, "or")
    REGEMU_BINARY(kAdc, "adc")
    REGEMU_BINARY(kSbb, "sbb")
    REGEMU_BINARY(kAnd, "and")
    REGEMU_BINARY(kSub, "sub")
    REGEMU_BINARY(kXor, "xor")
    REGEMU_BINARY(kCmp, "cmp")
    REGEMU_BINARY(kTest, "test")
    REGEMU_UNARY(kInc, "inc")
    REGEMU_UNARY(kDec, "dec")
    REGEMU_UNARY(kNot, "not")
    REGEMU_UNARY(kNeg, "neg")
    REGEMU_SHIFT(kShl, "shl")
    REGEMU_SHIFT(kShr, "shr")
    REGEMU_SHIFT(kSar, "sar")
    REGEMU_SHIFT(kRol, "rol")
    REGEMU_SHIFT(kRor, "ror")
    REGEMU_SHIFT(kRcl, "rcl")
    REGEMU_SHIFT(kRcr, "rcr")
    case AluOp::kBt:
    case AluOp::kBts:
    case AluOp::kBtr:
    case AluOp::kBtc:
      // There is no 8-bit bit test; the decoder never gives one.
      if constexpr (sizeof(T) > 1) {
        switch (op) {
          REGEMU_BINARY(kBt, "bt")
          REGEMU_BINARY(kBts, "bts")
          REGEMU_BINARY(kBtr, "btr")
          REGEMU_BINARY(kBtc, "btc")
          default: break;
        }
      } else {
        std::abort();
      }
      break;
#undef REGEMU_BINARY
#undef REGEMU_UNARY
#undef REGEMU_SHIFT
  }
  return {static_cast<uint64_t>(a), flags};
}

template <typename T>
CmpxchgResult Cmpxchg(T memory, T accumulator, T source, uint64_t flags) {
  T cell = memory;
  T* at = &cell;
  asm(REGEMU_WITH_FLAGS("cmpxchg %[source], (%[at])")
      : "+a"(accumulator), [flags] "+r"(flags)
      : [at] "r"(at), [source] "r"(source)
      : "cc", "memory");
  return {(flags & 0x40) != 0, static_cast<uint64_t>(accumulator), flags};
}

// The flags loaded before the instruction: the status flags, and bit 1,
// which is always set. Nothing else (no trap flag, no direction flag).
uint64_t FlagsIn(uint64_t flags) { return (flags & kStatusFlags) | 0x2; }

}  // namespace

AluResult RunAlu(AluOp op, unsigned width, uint64_t destination, uint64_t source, uint64_t flags) {
  flags = FlagsIn(flags);
  switch (width) {
    case 8: return Run<uint8_t>(op, static_cast<uint8_t>(destination), static_cast<uint8_t>(source), flags);
    case 16: return Run<uint16_t>(op, static_cast<uint16_t>(destination), static_cast<uint16_t>(source), flags);
    case 32: return Run<uint32_t>(op, static_cast<uint32_t>(destination), static_cast<uint32_t>(source), flags);
    default: return Run<uint64_t>(op, destination, source, flags);
  }
}

CmpxchgResult RunCmpxchg(unsigned width, uint64_t memory, uint64_t accumulator, uint64_t source, uint64_t flags) {
  flags = FlagsIn(flags);
  switch (width) {
    case 8:
      return Cmpxchg<uint8_t>(static_cast<uint8_t>(memory), static_cast<uint8_t>(accumulator),
                              static_cast<uint8_t>(source), flags);
    case 16:
      return Cmpxchg<uint16_t>(static_cast<uint16_t>(memory), static_cast<uint16_t>(accumulator),
                               static_cast<uint16_t>(source), flags);
    case 32:
      return Cmpxchg<uint32_t>(static_cast<uint32_t>(memory), static_cast<uint32_t>(accumulator),
                               static_cast<uint32_t>(source), flags);
    default: return Cmpxchg<uint64_t>(memory, accumulator, source, flags);
  }
}

}  // namespace regemu::emulator::trap
