// AVX-512 (EVEX-encoded) loads and stores of 4 to 64 bytes, what glibc's
// evex and avx512 memcpy, memmove and memset run on an AVX-512 CPU: the
// whole-vector moves on XMM, YMM and ZMM 0-31 and the scalar ones, under
// an opmask or not. A masked load merges into the register or zeroes the
// unselected elements; a masked store writes only the selected ones; the
// device sees only the selected elements' bytes (masked_access.hpp).
// Every EVEX load zeroes the register above what it wrote, to bit 511.
// The compares and logic of memcmp and strlen: emulate_evex_compute.cpp.
#include <cstring>

#include "regemu/emulator/trap/emulate.hpp"
#include "regemu/emulator/trap/masked_access.hpp"

namespace regemu::emulator::trap {
namespace {

bool IsEvexMove(ZydisMnemonic mnemonic) {
  switch (mnemonic) {
    case ZYDIS_MNEMONIC_VMOVDQU8: case ZYDIS_MNEMONIC_VMOVDQU16: case ZYDIS_MNEMONIC_VMOVDQU32:
    case ZYDIS_MNEMONIC_VMOVDQU64: case ZYDIS_MNEMONIC_VMOVDQA32: case ZYDIS_MNEMONIC_VMOVDQA64:
    case ZYDIS_MNEMONIC_VMOVUPS: case ZYDIS_MNEMONIC_VMOVAPS: case ZYDIS_MNEMONIC_VMOVUPD:
    case ZYDIS_MNEMONIC_VMOVAPD: case ZYDIS_MNEMONIC_VMOVNTDQ: case ZYDIS_MNEMONIC_VMOVNTPS:
    case ZYDIS_MNEMONIC_VMOVNTPD: case ZYDIS_MNEMONIC_VMOVNTDQA:
    case ZYDIS_MNEMONIC_VMOVD: case ZYDIS_MNEMONIC_VMOVQ: case ZYDIS_MNEMONIC_VMOVSS: case ZYDIS_MNEMONIC_VMOVSD:
      return true;
    default:
      return false;
  }
}

constexpr const char* kNotEvexVector = "its register is not an XMM, YMM or ZMM register";
constexpr const char* kNoAvx512State = "the signal frame holds no AVX-512 state to write the register in";

}  // namespace

const char* EmulateEvex(const DecodedInstruction& instruction, CpuState& cpu, InstructionMemory& memory) {
  if (!IsEvexMove(instruction.info.mnemonic)) return EmulateEvexCompute(instruction, cpu, memory);
  const ZydisDecodedOperand* memory_operands[2];
  if (instruction.MemoryOperands(memory_operands) != 1) return "it does not have exactly one memory operand";
  const ZydisDecodedOperand& m = *memory_operands[0];
  if (instruction.info.avx.broadcast.mode != ZYDIS_BROADCAST_MODE_INVALID) return "it broadcasts its memory operand";
  size_t size = m.size / 8;
  if (size != 4 && size != 8 && size != 16 && size != 32 && size != 64) {
    return "its memory operand is not 4, 8, 16, 32 or 64 bytes";
  }
  size_t element_size = m.element_size / 8;
  if (element_size == 0 || element_size > size) element_size = size;
  uint64_t selected = OpmaskSelection(instruction, cpu, size / element_size);
  uint64_t address = LinearAddress(instruction, m, cpu);

  if (&m == &instruction.operands[0]) {  // a store: the register is the last visible operand
    const ZydisDecodedOperand& source = instruction.operands[instruction.info.operand_count_visible - 1];
    if (source.type != ZYDIS_OPERAND_TYPE_REGISTER || !IsEvexVector(source.reg.value)) return kNotEvexVector;
    uint8_t bytes[kMaxVectorBytes];
    cpu.ReadVector(source.reg.value, std::span<uint8_t>(bytes, size));
    if (WriteSelected(memory, address, std::span<const uint8_t>(bytes, size), element_size, selected) !=
        MemoryError::kNone) {
      return kStraddles;
    }
  } else {  // a load into operand 0
    const ZydisDecodedOperand& destination = instruction.operands[0];
    if (destination.type != ZYDIS_OPERAND_TYPE_REGISTER || !IsEvexVector(destination.reg.value)) {
      return kNotEvexVector;
    }
    // Merge-masking keeps the unselected elements; zero-masking and no
    // mask start from zero. Above the memory operand, zero.
    uint8_t image[kMaxVectorBytes] = {};
    if (instruction.info.avx.mask.mode == ZYDIS_MASK_MODE_MERGING) {
      cpu.ReadVector(destination.reg.value, std::span<uint8_t>(image, size));
    }
    if (ReadSelected(memory, address, std::span<uint8_t>(image, size), element_size, selected) !=
        MemoryError::kNone) {
      return kStraddles;
    }
    if (!cpu.WriteVector(destination.reg.value, std::span<const uint8_t>(image, size), true)) return kNoAvx512State;
  }
  cpu.set_rip(instruction.next());
  return nullptr;
}

}  // namespace regemu::emulator::trap
