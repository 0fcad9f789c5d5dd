#pragma once
// What an instruction that faulted on a trapped region does, done by hand:
// its memory accesses through InstructionMemory (a read, then a write, in
// the instruction's order), its register and flag results into the
// thread's CpuState, and RIP past it. docs/trapped-mappings.md lists the
// instructions; anything else is refused, never guessed.

#include "regemu/emulator/trap/cpu_state.hpp"
#include "regemu/emulator/trap/decoded_instruction.hpp"
#include "regemu/emulator/trap/instruction_memory.hpp"

namespace regemu::emulator::trap {

// Emulates `instruction`, decoded at the thread's RIP. Returns nullptr when
// done (RIP then points past it), else why it is not emulated, a static
// string: the thread must not resume then (FatalReport).
const char* Emulate(const DecodedInstruction& instruction, CpuState& cpu, InstructionMemory& memory);

// The families Emulate hands on, each in its own file.
const char* EmulateString(const DecodedInstruction& instruction, CpuState& cpu, InstructionMemory& memory);
const char* EmulateVector(const DecodedInstruction& instruction, CpuState& cpu, InstructionMemory& memory);
const char* EmulateEvex(const DecodedInstruction& instruction, CpuState& cpu, InstructionMemory& memory);
const char* EmulateEvexCompute(const DecodedInstruction& instruction, CpuState& cpu, InstructionMemory& memory);

// The refusal for an access half inside a trapped region (MemoryError).
inline constexpr const char* kStraddles =
    "the access runs across the edge of a trapped mapping (part inside, part outside)";

}  // namespace regemu::emulator::trap
