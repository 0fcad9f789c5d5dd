// SSE and AVX loads and stores of 32 to 256 bits (what memcpy, struct
// copies and vectorized loops emit): the memory operand's bytes move
// between the device and the register, split into device accesses of the
// space's widths in address order (split_access.hpp); the register's other
// bytes are kept or zeroed exactly as the instruction's encoding says.
#include <cstring>
#include <optional>

#include "regemu/emulator/trap/emulate.hpp"

namespace regemu::emulator::trap {
namespace {

// Where the memory operand sits in the register.
enum class Shape : uint8_t {
  kWhole,     // MOVDQU, MOVAPS, ...: the whole register (16 or 32 bytes)
  kScalar,    // MOVD, MOVQ, MOVSS, MOVSD: the low 4 or 8 bytes; a load zeroes the rest
  kLowHalf,   // MOVLPS, MOVLPD: bytes 0-7; a load keeps bytes 8-15
  kHighHalf,  // MOVHPS, MOVHPD: bytes 8-15; a load keeps bytes 0-7
};

std::optional<Shape> ShapeOf(ZydisMnemonic mnemonic) {
  switch (mnemonic) {
    case ZYDIS_MNEMONIC_MOVDQA: case ZYDIS_MNEMONIC_MOVDQU: case ZYDIS_MNEMONIC_MOVAPS:
    case ZYDIS_MNEMONIC_MOVUPS: case ZYDIS_MNEMONIC_MOVAPD: case ZYDIS_MNEMONIC_MOVUPD:
    case ZYDIS_MNEMONIC_MOVNTDQ: case ZYDIS_MNEMONIC_MOVNTPS: case ZYDIS_MNEMONIC_MOVNTPD:
    case ZYDIS_MNEMONIC_MOVNTDQA: case ZYDIS_MNEMONIC_LDDQU:
    case ZYDIS_MNEMONIC_VMOVDQA: case ZYDIS_MNEMONIC_VMOVDQU: case ZYDIS_MNEMONIC_VMOVAPS:
    case ZYDIS_MNEMONIC_VMOVUPS: case ZYDIS_MNEMONIC_VMOVAPD: case ZYDIS_MNEMONIC_VMOVUPD:
    case ZYDIS_MNEMONIC_VMOVNTDQ: case ZYDIS_MNEMONIC_VMOVNTPS: case ZYDIS_MNEMONIC_VMOVNTPD:
    case ZYDIS_MNEMONIC_VMOVNTDQA: case ZYDIS_MNEMONIC_VLDDQU:
      return Shape::kWhole;
    case ZYDIS_MNEMONIC_MOVD: case ZYDIS_MNEMONIC_MOVQ: case ZYDIS_MNEMONIC_MOVSS: case ZYDIS_MNEMONIC_MOVSD:
    case ZYDIS_MNEMONIC_VMOVD: case ZYDIS_MNEMONIC_VMOVQ: case ZYDIS_MNEMONIC_VMOVSS: case ZYDIS_MNEMONIC_VMOVSD:
      return Shape::kScalar;
    case ZYDIS_MNEMONIC_MOVLPS: case ZYDIS_MNEMONIC_MOVLPD: case ZYDIS_MNEMONIC_VMOVLPS: case ZYDIS_MNEMONIC_VMOVLPD:
      return Shape::kLowHalf;
    case ZYDIS_MNEMONIC_MOVHPS: case ZYDIS_MNEMONIC_MOVHPD: case ZYDIS_MNEMONIC_VMOVHPS: case ZYDIS_MNEMONIC_VMOVHPD:
      return Shape::kHighHalf;
    default:
      return std::nullopt;
  }
}

constexpr const char* kNoAvxState = "the signal frame holds no AVX state to write the register's upper half into";

}  // namespace

const char* EmulateVector(const DecodedInstruction& instruction, CpuState& cpu, InstructionMemory& memory) {
  std::optional<Shape> shape = ShapeOf(instruction.info.mnemonic);
  if (!shape) return "it is not an instruction regemu emulates";
  const ZydisDecodedOperand* memory_operands[2];
  if (instruction.MemoryOperands(memory_operands) != 1) return "it does not have exactly one memory operand";
  const ZydisDecodedOperand& m = *memory_operands[0];
  size_t size = m.size / 8;
  if (size != 4 && size != 8 && size != 16 && size != 32) return "its memory operand is not 4, 8, 16 or 32 bytes";
  bool vex = instruction.info.encoding == ZYDIS_INSTRUCTION_ENCODING_VEX;
  uint64_t address = LinearAddress(instruction, m, cpu);
  size_t half = *shape == Shape::kHighHalf ? 8 : 0;  // where in the register the memory bytes go

  if (&m == &instruction.operands[0]) {  // a store: the register is the (last) visible source
    const ZydisDecodedOperand& source = instruction.operands[instruction.info.operand_count_visible - 1];
    if (source.type != ZYDIS_OPERAND_TYPE_REGISTER || !IsVector(source.reg.value)) {
      return "its register is not an XMM or YMM register (MMX is not emulated)";
    }
    uint8_t bytes[32];
    cpu.ReadVector(source.reg.value, bytes);
    if (memory.Write(address, std::span<const uint8_t>(bytes + half, size)) != MemoryError::kNone) return kStraddles;
  } else {  // a load into operand 0
    const ZydisDecodedOperand& destination = instruction.operands[0];
    if (destination.type != ZYDIS_OPERAND_TYPE_REGISTER || !IsVector(destination.reg.value)) {
      return "its register is not an XMM or YMM register (MMX is not emulated)";
    }
    uint8_t data[32];
    if (memory.Read(address, std::span<uint8_t>(data, size)) != MemoryError::kNone) return kStraddles;
    size_t register_size = destination.size / 8;
    uint8_t image[32] = {};
    if (*shape == Shape::kLowHalf || *shape == Shape::kHighHalf) {
      // The other half: the destination's own (SSE), or the first source's
      // (VEX's three-operand form).
      ZydisRegister kept = vex ? instruction.operands[1].reg.value : destination.reg.value;
      if (!IsVector(kept)) return "its register is not an XMM or YMM register";
      cpu.ReadVector(kept, std::span<uint8_t>(image, 16));
    }
    std::memcpy(image + half, data, size);
    // SSE writes 16 bytes and leaves YMM's upper half; VEX writes the whole
    // register and zeroes what is above it.
    size_t written = vex ? register_size : 16;
    if (!cpu.WriteVector(destination.reg.value, std::span<const uint8_t>(image, written), vex)) return kNoAvxState;
  }
  cpu.set_rip(instruction.next());
  return nullptr;
}

}  // namespace regemu::emulator::trap
