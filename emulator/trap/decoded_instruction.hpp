#pragma once
// One x86-64 instruction as Zydis decodes it, with what emulating it needs:
// its memory operands and their linear addresses, and its text for
// messages. Nothing here allocates: it runs in the SIGSEGV handler.

#include <cstddef>
#include <cstdint>

#include <Zydis/Zydis.h>

#include "regemu/emulator/trap/cpu_state.hpp"

namespace regemu::emulator::trap {

struct DecodedInstruction {
  uint64_t address = 0;  // where it is (RIP)
  ZydisDecodedInstruction info{};
  ZydisDecodedOperand operands[ZYDIS_MAX_OPERAND_COUNT]{};

  // Decodes the instruction at `address` (code the thread was running, so
  // readable). False when Zydis cannot decode the bytes.
  bool Decode(uint64_t at);

  // "or dword ptr [rax+0x14], 0x1", Intel syntax, into `buffer`.
  void Format(char* buffer, size_t size) const;

  // The operands the instruction reads or writes memory through (not LEA's
  // address generation), explicit and implicit (MOVS's [rsi] and [rdi]).
  size_t MemoryOperands(const ZydisDecodedOperand* (&out)[2]) const;
  // The first operand of `type` other than `skip`, or nullptr.
  const ZydisDecodedOperand* Operand(ZydisOperandType type, const ZydisDecodedOperand* skip = nullptr) const;

  bool has(ZydisInstructionAttributes attribute) const { return (info.attributes & attribute) != 0; }
  uint64_t next() const { return address + info.length; }
};

// The linear address of memory operand `operand`: segment base (FS, GS) +
// base + index * scale + displacement, RIP-relative from the next
// instruction, truncated to 32 bits under an address-size prefix.
uint64_t LinearAddress(const DecodedInstruction& instruction, const ZydisDecodedOperand& operand,
                       const CpuState& cpu);

// Loads the decoder and formatter tables once, outside the signal handler.
void PrepareDecoder();

}  // namespace regemu::emulator::trap
