#pragma once
// A register map as amdgpu's generated headers give it
// (drivers/gpu/drm/amd/include/asic_reg/<ip>/<ip>_<ver>_offset.h and
// _sh_mask.h in Linux): registers at byte offsets, each with its fields.
// The headers say nothing about access, reset values or behaviour.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "regemu/regdb/source.hpp"

namespace regemu::convert {

struct AmdgpuField {
  std::string name;
  unsigned msb = 0;
  unsigned lsb = 0;
  regdb::SourceLoc loc;  // its __SHIFT line
};

struct AmdgpuRegister {
  std::string name;                 // without the reg/mm prefix
  std::string address_block;        // the `// addressBlock:` comment above it ("" when none)
  uint64_t dword_offset = 0;        // as the header gives it, inside its segment
  uint32_t base_index = 0;          // the segment (NAME_BASE_IDX)
  uint64_t byte_offset = 0;         // 4 x (segment base + dword offset)
  std::string alias_of;             // an earlier register at the same byte offset
  std::vector<AmdgpuField> fields;  // by lsb; empty: the header gives none
  regdb::SourceLoc loc;
};

struct AmdgpuRegisterMap {
  std::vector<AmdgpuRegister> registers;  // in header order
  // Indirect registers (ixNAME: reached through an index/data pair, not at
  // a BAR offset) the offset header lists, and their fields: not converted.
  size_t indirect_registers = 0;
  size_t indirect_fields = 0;
  // Fields of registers the offset header does not define: not converted.
  std::vector<std::string> orphan_field_registers;  // sorted
  size_t orphan_fields = 0;

  size_t FieldCount() const {
    size_t count = 0;
    for (const AmdgpuRegister& reg : registers) count += reg.fields.size();
    return count;
  }
};

// Bounds on what one pair of headers may cost. gfx90a's are 0.8 MB and
// 3.5 MB, 7058 registers, lines under 130 characters.
struct AmdgpuLimits {
  size_t max_file_bytes = size_t{32} << 20;
  size_t max_line_chars = 4096;
  size_t max_registers = 200'000;
  size_t max_fields = 1'000'000;
  size_t max_bases = 16;
};

}  // namespace regemu::convert
