#include "regemu/emulator/trap/masked_access.hpp"

#include <algorithm>
#include <bit>

namespace regemu::emulator::trap {
namespace {

// Calls access(offset, size) for the selected bytes of a `total`-byte
// operand at `address`, a run of selected elements as naturally aligned
// pieces of 64, 32, ... 1 bytes (as byte enables would carry them): bytes
// 1-2 of a space are two byte accesses, not a misaligned 16-bit one.
template <typename Access>
MemoryError ForEachRun(uint64_t address, size_t total, size_t element_size, uint64_t selected, Access access) {
  size_t elements = total / element_size;
  for (size_t first = 0; first < elements;) {
    if (((selected >> first) & 1) == 0) {
      ++first;
      continue;
    }
    size_t end = first;
    while (end < elements && ((selected >> end) & 1) != 0) ++end;
    size_t offset = first * element_size;
    size_t left = (end - first) * element_size;
    while (left != 0) {
      uint64_t at = address + offset;
      size_t aligned = at == 0 ? 64 : static_cast<size_t>(at & -at);  // the largest power of two dividing it
      size_t piece = std::min({std::bit_floor(left), aligned, size_t{64}});
      if (MemoryError error = access(offset, piece); error != MemoryError::kNone) return error;
      offset += piece;
      left -= piece;
    }
    first = end;
  }
  return MemoryError::kNone;
}

}  // namespace

uint64_t OpmaskSelection(const DecodedInstruction& instruction, const CpuState& cpu, size_t elements) {
  uint64_t all = elements >= 64 ? ~uint64_t{0} : (uint64_t{1} << elements) - 1;
  ZydisMaskMode mode = instruction.info.avx.mask.mode;
  if (mode != ZYDIS_MASK_MODE_MERGING && mode != ZYDIS_MASK_MODE_ZEROING) return all;
  return cpu.ReadOpmask(instruction.info.avx.mask.reg) & all;
}

MemoryError ReadSelected(InstructionMemory& memory, uint64_t address, std::span<uint8_t> bytes,
                         size_t element_size, uint64_t selected) {
  return ForEachRun(address, bytes.size(), element_size, selected, [&](size_t offset, size_t size) {
    return memory.Read(address + offset, bytes.subspan(offset, size));
  });
}

MemoryError WriteSelected(InstructionMemory& memory, uint64_t address, std::span<const uint8_t> bytes,
                          size_t element_size, uint64_t selected) {
  return ForEachRun(address, bytes.size(), element_size, selected, [&](size_t offset, size_t size) {
    return memory.Write(address + offset, bytes.subspan(offset, size));
  });
}

}  // namespace regemu::emulator::trap
