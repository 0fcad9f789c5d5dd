// MOVS and STOS, with or without REP: memcpy_toio / memset_io into a BAR,
// and memcpy out of one. One element (1, 2, 4 or 8 bytes) per device
// access, in the order the CPU moves them, RCX, RSI and RDI updated as it
// would, backwards when DF is set.
#include "regemu/emulator/trap/emulate.hpp"

namespace regemu::emulator::trap {
namespace {

struct StringRegisters {
  ZydisRegister count;
  ZydisRegister source;
  ZydisRegister destination;
};

StringRegisters RegistersFor(unsigned address_width) {
  if (address_width == 32) return {ZYDIS_REGISTER_ECX, ZYDIS_REGISTER_ESI, ZYDIS_REGISTER_EDI};
  return {ZYDIS_REGISTER_RCX, ZYDIS_REGISTER_RSI, ZYDIS_REGISTER_RDI};
}

ZydisRegister Accumulator(unsigned bytes) {
  switch (bytes) {
    case 1: return ZYDIS_REGISTER_AL;
    case 2: return ZYDIS_REGISTER_AX;
    case 4: return ZYDIS_REGISTER_EAX;
    default: return ZYDIS_REGISTER_RAX;
  }
}

}  // namespace

const char* EmulateString(const DecodedInstruction& instruction, CpuState& cpu, InstructionMemory& memory) {
  ZydisMnemonic mnemonic = instruction.info.mnemonic;
  bool store = mnemonic == ZYDIS_MNEMONIC_STOSB || mnemonic == ZYDIS_MNEMONIC_STOSW ||
               mnemonic == ZYDIS_MNEMONIC_STOSD || mnemonic == ZYDIS_MNEMONIC_STOSQ;
  unsigned bytes = instruction.info.operand_width / 8;
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) return "its element size is not 1, 2, 4 or 8 bytes";
  // MOVS's source may take a segment override (FS, GS); the destination is ES.
  uint64_t source_base = 0;
  if (!store) {
    const ZydisDecodedOperand* memory_operands[2];
    if (instruction.MemoryOperands(memory_operands) != 2) return "it does not have MOVS's two memory operands";
    for (const ZydisDecodedOperand* operand : memory_operands) {
      if (operand->mem.base == ZYDIS_REGISTER_RSI || operand->mem.base == ZYDIS_REGISTER_ESI) {
        source_base = cpu.SegmentBase(operand->mem.segment);
      }
    }
  }
  bool repeat = instruction.has(ZYDIS_ATTRIB_HAS_REP) || instruction.has(ZYDIS_ATTRIB_HAS_REPE) ||
                instruction.has(ZYDIS_ATTRIB_HAS_REPNE);
  StringRegisters regs = RegistersFor(instruction.info.address_width);
  uint64_t address_mask = instruction.info.address_width == 32 ? 0xffffffff : ~uint64_t{0};
  uint64_t count = repeat ? cpu.Read(regs.count) : 1;
  uint64_t step = (cpu.rflags() & kDirectionFlag) != 0 ? -uint64_t{bytes} : uint64_t{bytes};
  uint64_t source = cpu.Read(regs.source);
  uint64_t destination = cpu.Read(regs.destination);
  uint64_t stored = store ? cpu.Read(Accumulator(bytes)) : 0;
  uint8_t element[8];
  std::span<uint8_t> data(element, bytes);
  const char* refusal = nullptr;
  for (; count != 0; --count) {
    if (store) {
      ToBytes(stored, data);
    } else if (memory.Read(source_base + source, data) != MemoryError::kNone) {
      refusal = kStraddles;
      break;
    }
    if (memory.Write(destination, data) != MemoryError::kNone) {
      refusal = kStraddles;
      break;
    }
    if (!store) source = (source + step) & address_mask;
    destination = (destination + step) & address_mask;
  }
  // Where it got to, also when it stopped: as an interrupted REP leaves them.
  if (!store) cpu.Write(regs.source, source);
  cpu.Write(regs.destination, destination);
  if (repeat) cpu.Write(regs.count, count);
  if (refusal == nullptr) cpu.set_rip(instruction.next());
  return refusal;
}

}  // namespace regemu::emulator::trap
