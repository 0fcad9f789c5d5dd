#include "regemu/emulator/trap/decoded_instruction.hpp"

#include <cstdio>

namespace regemu::emulator::trap {
namespace {

struct Zydis {
  ZydisDecoder decoder;
  ZydisFormatter formatter;
  bool ready = false;
};

Zydis& Instance() {
  static Zydis zydis = [] {
    Zydis z{};
    // Messages name every memory operand's size ("dword ptr") and print
    // numbers unpadded ("[rdi+0x8]").
    z.ready = ZYAN_SUCCESS(ZydisDecoderInit(&z.decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) &&
              ZYAN_SUCCESS(ZydisFormatterInit(&z.formatter, ZYDIS_FORMATTER_STYLE_INTEL)) &&
              ZYAN_SUCCESS(ZydisFormatterSetProperty(&z.formatter, ZYDIS_FORMATTER_PROP_FORCE_SIZE, ZYAN_TRUE)) &&
              ZYAN_SUCCESS(ZydisFormatterSetProperty(&z.formatter, ZYDIS_FORMATTER_PROP_DISP_PADDING,
                                                     ZYDIS_PADDING_DISABLED)) &&
              ZYAN_SUCCESS(ZydisFormatterSetProperty(&z.formatter, ZYDIS_FORMATTER_PROP_IMM_PADDING,
                                                     ZYDIS_PADDING_DISABLED));
    return z;
  }();
  return zydis;
}

}  // namespace

void PrepareDecoder() { Instance(); }

bool DecodedInstruction::Decode(uint64_t at) {
  address = at;
  const Zydis& zydis = Instance();
  // The length is only Zydis's bound: it reads no byte past the instruction,
  // so code at the very end of a mapping decodes without a second fault.
  return zydis.ready && ZYAN_SUCCESS(ZydisDecoderDecodeFull(&zydis.decoder, reinterpret_cast<const void*>(at),
                                                             ZYDIS_MAX_INSTRUCTION_LENGTH, &info, operands));
}

void DecodedInstruction::Format(char* buffer, size_t size) const {
  if (size == 0) return;
  if (!ZYAN_SUCCESS(ZydisFormatterFormatInstruction(&Instance().formatter, &info, operands,
                                                    info.operand_count_visible, buffer, size, address, nullptr))) {
    std::snprintf(buffer, size, "(undecodable)");
  }
}

size_t DecodedInstruction::MemoryOperands(const ZydisDecodedOperand* (&out)[2]) const {
  size_t count = 0;
  for (size_t i = 0; i < info.operand_count && count < 2; ++i) {
    const ZydisDecodedOperand& operand = operands[i];
    if (operand.type == ZYDIS_OPERAND_TYPE_MEMORY && operand.mem.type == ZYDIS_MEMOP_TYPE_MEM) out[count++] = &operand;
  }
  return count;
}

const ZydisDecodedOperand* DecodedInstruction::Operand(ZydisOperandType type, const ZydisDecodedOperand* skip) const {
  for (size_t i = 0; i < info.operand_count; ++i) {
    if (operands[i].type == type && &operands[i] != skip) return &operands[i];
  }
  return nullptr;
}

uint64_t LinearAddress(const DecodedInstruction& instruction, const ZydisDecodedOperand& operand,
                       const CpuState& cpu) {
  const ZydisDecodedOperandMem& mem = operand.mem;
  uint64_t address = 0;
  if (mem.base == ZYDIS_REGISTER_RIP) {
    address = instruction.next();
  } else if (mem.base != ZYDIS_REGISTER_NONE) {
    address = cpu.Read(mem.base);
  }
  if (mem.index != ZYDIS_REGISTER_NONE) address += cpu.Read(mem.index) * mem.scale;
  if (mem.disp.has_displacement) address += static_cast<uint64_t>(mem.disp.value);
  if (instruction.info.address_width == 32) address &= 0xffffffff;
  return address + cpu.SegmentBase(mem.segment);
}

}  // namespace regemu::emulator::trap
