#pragma once
// Reads an amdgpu register-offset header and its shift/mask header into an
// AmdgpuRegisterMap: `#define regNAME 0x...` (or mmNAME) with
// `#define regNAME_BASE_IDX N` give a register's byte offset, 4 x
// (bases[N] + offset); `#define NAME__FIELD__SHIFT` with
// `#define NAME__FIELD_MASK` give a field. Every pair is checked: a mask
// that is not one run of bits, a shift that is not the mask's lowest bit,
// one without the other, a duplicate, a base index with no base, fields
// that overlap: located errors (file:line:col), and with any error no map.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/source.hpp"
#include "tools/convert/amdgpu_model.hpp"

namespace regemu::convert {

struct AmdgpuReadResult {
  regdb::SourceSet sources;
  regdb::Diagnostics diagnostics;
  std::optional<AmdgpuRegisterMap> map;
};

struct AmdgpuHeaderText {
  std::string name;  // how diagnostics name the file
  std::string text;
};

// `bases`: the IP's segment bases in dwords, by base index.
AmdgpuReadResult ReadAmdgpuHeaders(AmdgpuHeaderText offsets, AmdgpuHeaderText masks, const std::vector<uint64_t>& bases,
                                   const AmdgpuLimits& limits = {});
// Refuses a file larger than limits.max_file_bytes before reading it.
AmdgpuReadResult ReadAmdgpuHeaderFiles(const std::filesystem::path& offsets, const std::filesystem::path& masks,
                                       const std::vector<uint64_t>& bases, const AmdgpuLimits& limits = {});

// "0x2000,0xA000,0x02402C00" → the bases; nullopt with `error` set when a
// part is not a number.
std::optional<std::vector<uint64_t>> ParseAmdgpuBases(const std::string& text, std::string& error);

}  // namespace regemu::convert
