#pragma once
// The memory accesses of an AVX-512 instruction under an opmask: only the
// selected elements are read or written, as the CPU does (a masked-off
// element is not accessed, not even to fault), which matters where a read
// or a write has a side effect. Each run of consecutive selected elements
// goes through InstructionMemory as naturally aligned power-of-two pieces,
// what byte enables would carry: on an aligned operand, a run of every
// element is the access the unmasked instruction makes.

#include <cstddef>
#include <cstdint>
#include <span>

#include "regemu/emulator/trap/decoded_instruction.hpp"
#include "regemu/emulator/trap/instruction_memory.hpp"

namespace regemu::emulator::trap {

// The elements of `elements` (at most 64) that the instruction's opmask
// selects: all of them without one (k0 in the encoding).
uint64_t OpmaskSelection(const DecodedInstruction& instruction, const CpuState& cpu, size_t elements);

// Reads the elements of `bytes` (each `element_size` bytes; at most 64
// elements) whose bit in `selected` is set, from `address` on; the other
// bytes of `bytes` are left as they are.
MemoryError ReadSelected(InstructionMemory& memory, uint64_t address, std::span<uint8_t> bytes,
                         size_t element_size, uint64_t selected);
// Writes the selected elements of `bytes` to `address` on.
MemoryError WriteSelected(InstructionMemory& memory, uint64_t address, std::span<const uint8_t> bytes,
                          size_t element_size, uint64_t selected);

}  // namespace regemu::emulator::trap
