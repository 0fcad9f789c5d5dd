#include "regemu/emulator/trap/emulate.hpp"

#include <optional>

#include "regemu/emulator/trap/alu.hpp"

namespace regemu::emulator::trap {
namespace {

constexpr const char* kNotGpr = "it names a register that is not a general-purpose one";

uint64_t WidthMask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

uint64_t SignExtend(uint64_t value, unsigned from_bits) {
  if (from_bits >= 64) return value;
  uint64_t sign = uint64_t{1} << (from_bits - 1);
  value &= WidthMask(from_bits);
  return (value ^ sign) - sign;
}

uint64_t ByteSwap(uint64_t value, unsigned bits) {
  uint64_t swapped = 0;
  for (unsigned i = 0; i < bits / 8; ++i) swapped = (swapped << 8) | ((value >> (8 * i)) & 0xff);
  return swapped;
}

// A register or immediate operand's value, or nothing for a register that
// is not a general-purpose one.
std::optional<uint64_t> ValueOf(const ZydisDecodedOperand& operand, const CpuState& cpu) {
  if (operand.type == ZYDIS_OPERAND_TYPE_IMMEDIATE) return operand.imm.value.u;
  if (operand.type == ZYDIS_OPERAND_TYPE_REGISTER && IsGpr(operand.reg.value)) return cpu.Read(operand.reg.value);
  return std::nullopt;
}

// One memory operand: where, how wide, and its bytes.
struct MemoryOperand {
  uint64_t address = 0;
  unsigned bits = 0;

  MemoryError Read(InstructionMemory& memory, uint64_t& value) const {
    uint8_t bytes[8] = {};
    MemoryError error = memory.Read(address, std::span<uint8_t>(bytes, bits / 8));
    value = FromBytes(std::span<const uint8_t>(bytes, bits / 8));
    return error;
  }
  MemoryError Write(InstructionMemory& memory, uint64_t value) const {
    uint8_t bytes[8];
    ToBytes(value, std::span<uint8_t>(bytes, bits / 8));
    return memory.Write(address, std::span<const uint8_t>(bytes, bits / 8));
  }
};

// The instruction's one integer memory operand (1 to 8 bytes), or nothing.
std::optional<MemoryOperand> SoleMemoryOperand(const DecodedInstruction& instruction, const CpuState& cpu,
                                               const ZydisDecodedOperand** which = nullptr) {
  const ZydisDecodedOperand* memory[2];
  if (instruction.MemoryOperands(memory) != 1) return std::nullopt;
  unsigned bits = memory[0]->size;
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return std::nullopt;
  if (which != nullptr) *which = memory[0];
  return MemoryOperand{LinearAddress(instruction, *memory[0], cpu), bits};
}

// MOV (every width, immediates, MOVABS's moffs form), MOVZX, MOVSX,
// MOVSXD, MOVBE, MOVNTI.
const char* EmulateMove(const DecodedInstruction& instruction, CpuState& cpu, InstructionMemory& memory) {
  const ZydisDecodedOperand* memory_operand = nullptr;
  std::optional<MemoryOperand> m = SoleMemoryOperand(instruction, cpu, &memory_operand);
  if (!m) return "it has no single integer memory operand of 1 to 8 bytes";
  const ZydisDecodedOperand& destination = instruction.operands[0];
  const ZydisDecodedOperand& source = instruction.operands[1];
  ZydisMnemonic mnemonic = instruction.info.mnemonic;
  if (memory_operand == &source) {  // a load
    if (destination.type != ZYDIS_OPERAND_TYPE_REGISTER || !IsGpr(destination.reg.value)) return kNotGpr;
    uint64_t value = 0;
    if (m->Read(memory, value) != MemoryError::kNone) return kStraddles;
    if (mnemonic == ZYDIS_MNEMONIC_MOVSX || mnemonic == ZYDIS_MNEMONIC_MOVSXD) value = SignExtend(value, m->bits);
    if (mnemonic == ZYDIS_MNEMONIC_MOVBE) value = ByteSwap(value, m->bits);
    cpu.Write(destination.reg.value, value & WidthMask(destination.size));
  } else {  // a store
    std::optional<uint64_t> value = ValueOf(source, cpu);
    if (!value) return kNotGpr;
    uint64_t stored = *value & WidthMask(m->bits);
    if (mnemonic == ZYDIS_MNEMONIC_MOVBE) stored = ByteSwap(stored, m->bits);
    if (m->Write(memory, stored) != MemoryError::kNone) return kStraddles;
  }
  cpu.set_rip(instruction.next());
  return nullptr;
}

std::optional<AluOp> AluOpOf(ZydisMnemonic mnemonic) {
  switch (mnemonic) {
    case ZYDIS_MNEMONIC_ADD: return AluOp::kAdd;
    case ZYDIS_MNEMONIC_OR: return AluOp::kOr;
    case ZYDIS_MNEMONIC_ADC: return AluOp::kAdc;
    case ZYDIS_MNEMONIC_SBB: return AluOp::kSbb;
    case ZYDIS_MNEMONIC_AND: return AluOp::kAnd;
    case ZYDIS_MNEMONIC_SUB: return AluOp::kSub;
    case ZYDIS_MNEMONIC_XOR: return AluOp::kXor;
    case ZYDIS_MNEMONIC_CMP: return AluOp::kCmp;
    case ZYDIS_MNEMONIC_TEST: return AluOp::kTest;
    case ZYDIS_MNEMONIC_BT: return AluOp::kBt;
    case ZYDIS_MNEMONIC_BTS: return AluOp::kBts;
    case ZYDIS_MNEMONIC_BTR: return AluOp::kBtr;
    case ZYDIS_MNEMONIC_BTC: return AluOp::kBtc;
    case ZYDIS_MNEMONIC_INC: return AluOp::kInc;
    case ZYDIS_MNEMONIC_DEC: return AluOp::kDec;
    case ZYDIS_MNEMONIC_NOT: return AluOp::kNot;
    case ZYDIS_MNEMONIC_NEG: return AluOp::kNeg;
    case ZYDIS_MNEMONIC_SHL: return AluOp::kShl;
    case ZYDIS_MNEMONIC_SHR: return AluOp::kShr;
    case ZYDIS_MNEMONIC_SAR: return AluOp::kSar;
    case ZYDIS_MNEMONIC_ROL: return AluOp::kRol;
    case ZYDIS_MNEMONIC_ROR: return AluOp::kRor;
    case ZYDIS_MNEMONIC_RCL: return AluOp::kRcl;
    case ZYDIS_MNEMONIC_RCR: return AluOp::kRcr;
    default: return std::nullopt;
  }
}

bool WritesDestination(AluOp op) {
  return op != AluOp::kCmp && op != AluOp::kTest && op != AluOp::kBt;
}

bool IsBitTest(AluOp op) { return op == AluOp::kBt || op == AluOp::kBts || op == AluOp::kBtr || op == AluOp::kBtc; }

bool IsShift(AluOp op) {
  return op == AluOp::kShl || op == AluOp::kShr || op == AluOp::kSar || op == AluOp::kRol || op == AluOp::kRor ||
         op == AluOp::kRcl || op == AluOp::kRcr;
}

// ADD OR ADC SBB AND SUB XOR CMP TEST BT BTS BTR BTC INC DEC NOT NEG and the
// shifts and rotates, with the memory operand as destination (a read, then
// a write) or as source (a read only), LOCK or not.
const char* EmulateAlu(const DecodedInstruction& instruction, AluOp op, CpuState& cpu, InstructionMemory& memory) {
  const ZydisDecodedOperand* memory_operand = nullptr;
  std::optional<MemoryOperand> m = SoleMemoryOperand(instruction, cpu, &memory_operand);
  if (!m) return "it has no single integer memory operand of 1 to 8 bytes";
  const ZydisDecodedOperand& destination = instruction.operands[0];
  // A shift's count is its second operand even where the encoding implies
  // it (SHL m, 1); the other unary forms have none.
  bool unary = instruction.info.operand_count_visible == 1 && !IsShift(op);
  const ZydisDecodedOperand* source = unary ? nullptr : &instruction.operands[1];
  bool memory_is_destination = memory_operand == &destination;

  uint64_t other = 0;  // the operand that is not in memory
  const ZydisDecodedOperand* register_operand = memory_is_destination ? source : &destination;
  if (register_operand != nullptr) {
    std::optional<uint64_t> value = ValueOf(*register_operand, cpu);
    if (!value) return kNotGpr;
    other = *value & WidthMask(m->bits);
  }
  if (IsBitTest(op)) {
    // A register bit offset addresses the whole bit string: it may reach
    // past the operand, to the word (bits) that holds bit `offset`. An
    // immediate one is taken modulo the width.
    if (source->type == ZYDIS_OPERAND_TYPE_REGISTER) {
      auto offset = static_cast<int64_t>(SignExtend(other, m->bits));
      int64_t words = offset >= 0 ? offset / m->bits : -((-offset + m->bits - 1) / m->bits);
      m->address += static_cast<uint64_t>(words * (m->bits / 8));
    }
    other &= m->bits - 1;
  }

  uint64_t in_memory = 0;
  if (m->Read(memory, in_memory) != MemoryError::kNone) return kStraddles;
  uint64_t a = memory_is_destination ? in_memory : other;
  uint64_t b = memory_is_destination ? other : in_memory;
  AluResult result = RunAlu(op, m->bits, a, b, cpu.rflags());
  if (WritesDestination(op)) {
    if (memory_is_destination) {
      if (m->Write(memory, result.value) != MemoryError::kNone) return kStraddles;
    } else {
      cpu.Write(destination.reg.value, result.value);
    }
  }
  cpu.SetStatusFlags(result.flags);
  cpu.set_rip(instruction.next());
  return nullptr;
}

ZydisRegister Accumulator(unsigned bits) {
  switch (bits) {
    case 8: return ZYDIS_REGISTER_AL;
    case 16: return ZYDIS_REGISTER_AX;
    case 32: return ZYDIS_REGISTER_EAX;
    default: return ZYDIS_REGISTER_RAX;
  }
}

// XCHG (locked by the CPU whatever the prefix), XADD and CMPXCHG: a read,
// then the write (for CMPXCHG only when the accumulator matched).
const char* EmulateExchange(const DecodedInstruction& instruction, CpuState& cpu, InstructionMemory& memory) {
  const ZydisDecodedOperand* memory_operand = nullptr;
  std::optional<MemoryOperand> m = SoleMemoryOperand(instruction, cpu, &memory_operand);
  if (!m) return "it has no single integer memory operand of 1 to 8 bytes";
  const ZydisDecodedOperand* other = instruction.Operand(ZYDIS_OPERAND_TYPE_REGISTER);
  // CMPXCHG's accumulator is a hidden register operand; the visible one is
  // the second.
  if (instruction.info.mnemonic == ZYDIS_MNEMONIC_CMPXCHG) other = &instruction.operands[1];
  if (other == nullptr || other->type != ZYDIS_OPERAND_TYPE_REGISTER || !IsGpr(other->reg.value)) return kNotGpr;
  uint64_t register_value = cpu.Read(other->reg.value);

  uint64_t old = 0;
  if (m->Read(memory, old) != MemoryError::kNone) return kStraddles;
  switch (instruction.info.mnemonic) {
    case ZYDIS_MNEMONIC_XCHG:
      if (m->Write(memory, register_value) != MemoryError::kNone) return kStraddles;
      cpu.Write(other->reg.value, old);
      break;
    case ZYDIS_MNEMONIC_XADD: {
      AluResult sum = RunAlu(AluOp::kAdd, m->bits, old, register_value, cpu.rflags());
      if (m->Write(memory, sum.value) != MemoryError::kNone) return kStraddles;
      cpu.Write(other->reg.value, old);
      cpu.SetStatusFlags(sum.flags);
      break;
    }
    default: {  // CMPXCHG
      ZydisRegister accumulator = Accumulator(m->bits);
      CmpxchgResult result = RunCmpxchg(m->bits, old, cpu.Read(accumulator), register_value, cpu.rflags());
      if (result.equal) {
        if (m->Write(memory, register_value) != MemoryError::kNone) return kStraddles;
      } else {
        // Only a failed compare loads the accumulator (and, at 32 bits,
        // zeroes RAX's upper half); a successful one leaves it untouched.
        cpu.Write(accumulator, result.accumulator);
      }
      cpu.SetStatusFlags(result.flags);
      break;
    }
  }
  cpu.set_rip(instruction.next());
  return nullptr;
}

bool HasVectorOperand(const DecodedInstruction& instruction) {
  for (size_t i = 0; i < instruction.info.operand_count; ++i) {
    const ZydisDecodedOperand& operand = instruction.operands[i];
    if (operand.type == ZYDIS_OPERAND_TYPE_REGISTER &&
        (ZydisRegisterGetClass(operand.reg.value) == ZYDIS_REGCLASS_XMM ||
         ZydisRegisterGetClass(operand.reg.value) == ZYDIS_REGCLASS_YMM)) {
      return true;
    }
  }
  return false;
}

}  // namespace

const char* Emulate(const DecodedInstruction& instruction, CpuState& cpu, InstructionMemory& memory) {
  if (instruction.info.encoding == ZYDIS_INSTRUCTION_ENCODING_EVEX) return EmulateEvex(instruction, cpu, memory);
  if (instruction.info.encoding == ZYDIS_INSTRUCTION_ENCODING_MVEX) {
    return "it is a Xeon Phi (MVEX) instruction, which regemu does not emulate";
  }
  ZydisMnemonic mnemonic = instruction.info.mnemonic;
  switch (mnemonic) {
    case ZYDIS_MNEMONIC_MOV:
    case ZYDIS_MNEMONIC_MOVZX:
    case ZYDIS_MNEMONIC_MOVSX:
    case ZYDIS_MNEMONIC_MOVSXD:
    case ZYDIS_MNEMONIC_MOVBE:
    case ZYDIS_MNEMONIC_MOVNTI:
      return EmulateMove(instruction, cpu, memory);
    case ZYDIS_MNEMONIC_XCHG:
    case ZYDIS_MNEMONIC_XADD:
    case ZYDIS_MNEMONIC_CMPXCHG:
      return EmulateExchange(instruction, cpu, memory);
    case ZYDIS_MNEMONIC_MOVSB:
    case ZYDIS_MNEMONIC_MOVSW:
    case ZYDIS_MNEMONIC_MOVSQ:
    case ZYDIS_MNEMONIC_STOSB:
    case ZYDIS_MNEMONIC_STOSW:
    case ZYDIS_MNEMONIC_STOSD:
    case ZYDIS_MNEMONIC_STOSQ:
      return EmulateString(instruction, cpu, memory);
    case ZYDIS_MNEMONIC_MOVSD:  // the string move of dwords, or SSE2's scalar double move
      return HasVectorOperand(instruction) ? EmulateVector(instruction, cpu, memory)
                                           : EmulateString(instruction, cpu, memory);
    default:
      break;
  }
  if (std::optional<AluOp> op = AluOpOf(mnemonic)) return EmulateAlu(instruction, *op, cpu, memory);
  return EmulateVector(instruction, cpu, memory);
}

}  // namespace regemu::emulator::trap
