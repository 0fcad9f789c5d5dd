#pragma once
// The integer operations of emulated read-modify-write, compare and atomic
// instructions, run natively: the CPU itself computes each result and its
// status flags (CF PF AF ZF SF OF, including the ones Intel leaves
// "undefined"), so the resumed driver sees exactly what its instruction on
// real memory would have left. No flag formula is written by hand.

#include <cstdint>

namespace regemu::emulator::trap {

enum class AluOp : uint8_t {
  // destination op source
  kAdd, kOr, kAdc, kSbb, kAnd, kSub, kXor,
  kCmp, kTest,                // kSub and kAnd whose result is dropped
  kBt, kBts, kBtr, kBtc,      // source: the bit offset, already reduced modulo the width
  kShl, kShr, kSar, kRol, kRor, kRcl, kRcr,  // source: the count (CL, an immediate or 1), as given
  // destination only
  kInc, kDec, kNot, kNeg,
};

struct AluResult {
  uint64_t value = 0;  // the destination afterwards (kCmp, kTest, kBt: unchanged)
  uint64_t flags = 0;  // RFLAGS afterwards; only the status flags are meaningful
};

// `op` on `width`-bit (8, 16, 32, 64; bit tests 16 to 64) operands, with the
// status flags of `flags` as they were before (ADC, SBB, RCL and RCR read
// CF; INC and DEC leave CF alone; NOT and a shift by 0 leave every flag
// alone).
AluResult RunAlu(AluOp op, unsigned width, uint64_t destination, uint64_t source, uint64_t flags);

struct CmpxchgResult {
  bool equal = false;        // the accumulator matched: `source` is written
  uint64_t accumulator = 0;  // AL/AX/EAX/RAX afterwards
  uint64_t flags = 0;
};

// CMPXCHG with `memory` the value read: ZF and the rest as the CPU sets them.
CmpxchgResult RunCmpxchg(unsigned width, uint64_t memory, uint64_t accumulator, uint64_t source, uint64_t flags);

}  // namespace regemu::emulator::trap
