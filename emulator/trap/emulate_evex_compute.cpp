// AVX-512 (EVEX) instructions that compute with a memory source, what
// glibc's evex and avx512 memcmp, strlen and memchr run on the bytes they
// scan: the integer compares into an opmask (VPCMPEQ*, VPCMPGT*, VPCMP[U]*
// with their predicate), the bitwise ones (VPAND/ANDN/OR/XOR D/Q and
// VPTERNLOGD/Q) and the unsigned and signed minimum and maximum. The
// memory operand is read as a masked load reads it (only the selected
// elements, masked_access.hpp); the result goes to the opmask (zeroed
// where unselected) or to the vector register (merged or zeroed where
// unselected, zero above the vector length).
#include <cstring>
#include <optional>

#include "regemu/emulator/trap/emulate.hpp"
#include "regemu/emulator/trap/masked_access.hpp"

namespace regemu::emulator::trap {
namespace {

enum class Kind : uint8_t { kCompare, kAnd, kAndNot, kOr, kXor, kTernary, kMin, kMax };

struct Operation {
  Kind kind;
  bool is_signed = false;
  int predicate = -1;  // a compare's, or -1: from the immediate (VPCMP, VPCMPU)
};

std::optional<Operation> OperationOf(ZydisMnemonic mnemonic) {
  switch (mnemonic) {
    case ZYDIS_MNEMONIC_VPCMPEQB: case ZYDIS_MNEMONIC_VPCMPEQW: case ZYDIS_MNEMONIC_VPCMPEQD:
    case ZYDIS_MNEMONIC_VPCMPEQQ:
      return Operation{Kind::kCompare, false, 0};
    case ZYDIS_MNEMONIC_VPCMPGTB: case ZYDIS_MNEMONIC_VPCMPGTW: case ZYDIS_MNEMONIC_VPCMPGTD:
    case ZYDIS_MNEMONIC_VPCMPGTQ:
      return Operation{Kind::kCompare, true, 6};
    case ZYDIS_MNEMONIC_VPCMPB: case ZYDIS_MNEMONIC_VPCMPW: case ZYDIS_MNEMONIC_VPCMPD: case ZYDIS_MNEMONIC_VPCMPQ:
      return Operation{Kind::kCompare, true, -1};
    case ZYDIS_MNEMONIC_VPCMPUB: case ZYDIS_MNEMONIC_VPCMPUW: case ZYDIS_MNEMONIC_VPCMPUD:
    case ZYDIS_MNEMONIC_VPCMPUQ:
      return Operation{Kind::kCompare, false, -1};
    case ZYDIS_MNEMONIC_VPANDD: case ZYDIS_MNEMONIC_VPANDQ: return Operation{Kind::kAnd};
    case ZYDIS_MNEMONIC_VPANDND: case ZYDIS_MNEMONIC_VPANDNQ: return Operation{Kind::kAndNot};
    case ZYDIS_MNEMONIC_VPORD: case ZYDIS_MNEMONIC_VPORQ: return Operation{Kind::kOr};
    case ZYDIS_MNEMONIC_VPXORD: case ZYDIS_MNEMONIC_VPXORQ: return Operation{Kind::kXor};
    case ZYDIS_MNEMONIC_VPTERNLOGD: case ZYDIS_MNEMONIC_VPTERNLOGQ: return Operation{Kind::kTernary};
    case ZYDIS_MNEMONIC_VPMINUB: case ZYDIS_MNEMONIC_VPMINUW: case ZYDIS_MNEMONIC_VPMINUD:
    case ZYDIS_MNEMONIC_VPMINUQ:
      return Operation{Kind::kMin, false};
    case ZYDIS_MNEMONIC_VPMINSB: case ZYDIS_MNEMONIC_VPMINSW: case ZYDIS_MNEMONIC_VPMINSD:
    case ZYDIS_MNEMONIC_VPMINSQ:
      return Operation{Kind::kMin, true};
    case ZYDIS_MNEMONIC_VPMAXUB: case ZYDIS_MNEMONIC_VPMAXUW: case ZYDIS_MNEMONIC_VPMAXUD:
    case ZYDIS_MNEMONIC_VPMAXUQ:
      return Operation{Kind::kMax, false};
    case ZYDIS_MNEMONIC_VPMAXSB: case ZYDIS_MNEMONIC_VPMAXSW: case ZYDIS_MNEMONIC_VPMAXSD:
    case ZYDIS_MNEMONIC_VPMAXSQ:
      return Operation{Kind::kMax, true};
    default:
      return std::nullopt;
  }
}

uint64_t Lane(const uint8_t* bytes, size_t size) {
  uint64_t value = 0;
  std::memcpy(&value, bytes, size);
  return value;
}

// A lane as a signed number (size bytes, sign-extended), or unsigned.
int64_t Signed(uint64_t value, size_t size) {
  unsigned shift = 64 - 8 * static_cast<unsigned>(size);
  return static_cast<int64_t>(value << shift) >> shift;
}

// VPCMP's predicate, imm8 bits 2:0 (Intel SDM vol. 2, VPCMPB/VPCMPUB):
// EQ LT LE FALSE NEQ NLT NLE TRUE.
bool Compare(int predicate, uint64_t a, uint64_t b, size_t size, bool is_signed) {
  bool less = is_signed ? Signed(a, size) < Signed(b, size) : a < b;
  bool equal = a == b;
  switch (predicate & 7) {
    case 0: return equal;
    case 1: return less;
    case 2: return less || equal;
    case 3: return false;
    case 4: return !equal;
    case 5: return !less;
    case 6: return !less && !equal;
    default: return true;
  }
}

// VPTERNLOG: each result bit is bit (a << 2 | b << 1 | c) of the immediate.
uint64_t Ternary(uint8_t table, uint64_t a, uint64_t b, uint64_t c) {
  uint64_t result = 0;
  for (unsigned index = 0; index < 8; ++index) {
    if (((table >> index) & 1) == 0) continue;
    result |= ((index & 4) ? a : ~a) & ((index & 2) ? b : ~b) & ((index & 1) ? c : ~c);
  }
  return result;
}

uint64_t Combine(const Operation& op, uint8_t imm, uint64_t old, uint64_t a, uint64_t b, size_t size) {
  switch (op.kind) {
    case Kind::kAnd: return a & b;
    case Kind::kAndNot: return ~a & b;
    case Kind::kOr: return a | b;
    case Kind::kXor: return a ^ b;
    case Kind::kTernary: return Ternary(imm, old, a, b);
    case Kind::kMin: return (op.is_signed ? Signed(a, size) < Signed(b, size) : a < b) ? a : b;
    default: return (op.is_signed ? Signed(a, size) > Signed(b, size) : a > b) ? a : b;  // kMax
  }
}

}  // namespace


const char* EmulateEvexCompute(const DecodedInstruction& instruction, CpuState& cpu, InstructionMemory& memory) {
  std::optional<Operation> op = OperationOf(instruction.info.mnemonic);
  if (!op) return "it is not an AVX-512 (EVEX) instruction regemu emulates";
  if (instruction.info.avx.broadcast.mode != ZYDIS_BROADCAST_MODE_INVALID) return "it broadcasts its memory operand";
  // destination, opmask, first source (a register), memory, [immediate]
  const ZydisDecodedOperand* operands = instruction.operands;
  if (instruction.info.operand_count_visible < 4 || operands[3].type != ZYDIS_OPERAND_TYPE_MEMORY ||
      operands[2].type != ZYDIS_OPERAND_TYPE_REGISTER || !IsEvexVector(operands[2].reg.value) ||
      operands[0].type != ZYDIS_OPERAND_TYPE_REGISTER) {
    return "its operands are not a register, a register and memory";
  }
  const ZydisDecodedOperand& m = operands[3];
  size_t size = m.size / 8;
  size_t element_size = m.element_size / 8;
  if ((size != 16 && size != 32 && size != 64) ||
      (element_size != 1 && element_size != 2 && element_size != 4 && element_size != 8)) {
    return "its memory operand is not a vector of 1-, 2-, 4- or 8-byte elements";
  }
  uint8_t imm = 0;
  if (instruction.info.operand_count_visible > 4 && operands[4].type == ZYDIS_OPERAND_TYPE_IMMEDIATE) {
    imm = static_cast<uint8_t>(operands[4].imm.value.u);
  }
  size_t elements = size / element_size;
  uint64_t selected = OpmaskSelection(instruction, cpu, elements);

  uint8_t a[kMaxVectorBytes] = {};
  uint8_t b[kMaxVectorBytes] = {};
  cpu.ReadVector(operands[2].reg.value, std::span<uint8_t>(a, size));
  uint64_t address = LinearAddress(instruction, m, cpu);
  if (ReadSelected(memory, address, std::span<uint8_t>(b, size), element_size, selected) != MemoryError::kNone) {
    return kStraddles;
  }

  const ZydisRegister destination = operands[0].reg.value;
  if (op->kind == Kind::kCompare) {
    if (!IsOpmask(destination)) return "its destination is not an opmask register";
    int predicate = op->predicate >= 0 ? op->predicate : imm;
    uint64_t result = 0;
    for (size_t e = 0; e < elements; ++e) {
      if (((selected >> e) & 1) == 0) continue;
      uint64_t x = Lane(a + e * element_size, element_size);
      uint64_t y = Lane(b + e * element_size, element_size);
      if (Compare(predicate, x, y, element_size, op->is_signed)) result |= uint64_t{1} << e;
    }
    if (!cpu.WriteOpmask(destination, result)) return "the signal frame holds no opmask state to write";
  } else {
    if (!IsEvexVector(destination)) return "its destination is not an XMM, YMM or ZMM register";
    uint8_t image[kMaxVectorBytes] = {};
    cpu.ReadVector(destination, std::span<uint8_t>(image, size));
    bool merging = instruction.info.avx.mask.mode == ZYDIS_MASK_MODE_MERGING;
    for (size_t e = 0; e < elements; ++e) {
      uint8_t* lane = image + e * element_size;
      if (((selected >> e) & 1) == 0) {
        if (!merging) std::memset(lane, 0, element_size);
        continue;
      }
      uint64_t value = Combine(*op, imm, Lane(lane, element_size), Lane(a + e * element_size, element_size),
                               Lane(b + e * element_size, element_size), element_size);
      std::memcpy(lane, &value, element_size);
    }
    if (!cpu.WriteVector(destination, std::span<const uint8_t>(image, size), true)) {
      return "the signal frame holds no AVX-512 state to write the register in";
    }
  }
  cpu.set_rip(instruction.next());
  return nullptr;
}

}  // namespace regemu::emulator::trap
