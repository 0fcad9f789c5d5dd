#include "tools/convert/amdgpu_reader.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <unordered_map>

#include "regemu/regdb/numbers.hpp"
#include "tools/convert/amdgpu_header_scan.hpp"
#include "tools/convert/bounded_file.hpp"

namespace regemu::convert {

namespace {

using regdb::Hex;
using regdb::SourceLoc;

constexpr std::string_view kBaseIndexSuffix = "_BASE_IDX";
constexpr std::string_view kShiftSuffix = "__SHIFT";
constexpr std::string_view kMaskSuffix = "_MASK";

struct BaseIndex {
  uint64_t value = 0;
  SourceLoc loc;
};

// One REGISTER__FIELD's two defines, as far as they were found.
struct FieldDefines {
  std::string register_name, field_name;
  std::optional<uint64_t> shift, mask;
  SourceLoc shift_loc, mask_loc;
};

class AmdgpuReader {
 public:
  AmdgpuReader(AmdgpuReadResult& result, const std::vector<uint64_t>& bases, const AmdgpuLimits& limits)
      : result_(result), diagnostics_(result.diagnostics), bases_(bases), limits_(limits) {}

  void Read(uint32_t offsets_file, uint32_t masks_file) {
    if (bases_.empty() || bases_.size() > limits_.max_bases) {
      diagnostics_.Error({offsets_file, 0, 0}, "give between 1 and " + std::to_string(limits_.max_bases) +
                                                   " segment bases (--bases), not " + std::to_string(bases_.size()));
      return;
    }
    bool scanned = ScanAmdgpuHeader(result_.sources, offsets_file, limits_, diagnostics_,
                                    [&](const HeaderDefine& define) { OffsetDefine(define); });
    if (!scanned || diagnostics_.has_errors()) return;
    ResolveOffsets();
    scanned = ScanAmdgpuHeader(result_.sources, masks_file, limits_, diagnostics_,
                               [&](const HeaderDefine& define) { MaskDefine(define); });
    if (!scanned || diagnostics_.has_errors()) return;
    ResolveFields();
    if (!diagnostics_.has_errors()) result_.map = std::move(map_);
  }

 private:
  static std::string_view WithoutPrefix(std::string_view name, std::string_view& prefix) {
    for (std::string_view candidate : {"reg", "mm", "ix"}) {
      if (name.starts_with(candidate) && name.size() > candidate.size()) {
        prefix = candidate;
        return name.substr(candidate.size());
      }
    }
    prefix = {};
    return name;
  }

  void OffsetDefine(const HeaderDefine& define) {
    std::string_view prefix;
    std::string_view name = WithoutPrefix(define.name, prefix);
    if (prefix.empty()) {
      diagnostics_.Error(define.loc, std::string(define.name) +
                                         ": not a register (amdgpu's offset headers name "
                                         "them regNAME, mmNAME or ixNAME)");
      return;
    }
    if (prefix == "ix") {
      // Indirect: an index for an index/data register pair, not a BAR offset.
      indirect_.insert(std::string(name));
      return;
    }
    if (name.ends_with(kBaseIndexSuffix) && name.size() > kBaseIndexSuffix.size()) {
      std::string reg(name.substr(0, name.size() - kBaseIndexSuffix.size()));
      auto [it, added] = base_indices_.try_emplace(reg, BaseIndex{define.value, define.loc});
      if (!added && it->second.value != define.value) Duplicate(define, it->second.loc);
      return;
    }
    if (map_.registers.size() >= limits_.max_registers) {
      if (!registers_refused_) {
        diagnostics_.Error(define.loc, "more than " + std::to_string(limits_.max_registers) + " registers; refused");
      }
      registers_refused_ = true;
      return;
    }
    std::string reg_name(name);
    auto [it, added] = register_index_.try_emplace(reg_name, map_.registers.size());
    if (!added) {
      if (map_.registers[it->second].dword_offset != define.value) Duplicate(define, map_.registers[it->second].loc);
      return;
    }
    AmdgpuRegister reg;
    reg.name = std::move(reg_name);
    reg.address_block = std::string(define.address_block);
    reg.dword_offset = define.value;
    reg.loc = define.loc;
    map_.registers.push_back(std::move(reg));
  }

  // C accepts a macro defined again with the same value (gc_9_4_2_sh_mask.h
  // repeats CP_ME1_INT_STAT_DEBUG's fields so); another value is an error.
  void Duplicate(const HeaderDefine& define, SourceLoc first) {
    diagnostics_.Error(define.loc, std::string(define.name) + " is defined again with another value")
        .notes.push_back({first, "first defined here"});
  }

  void ResolveOffsets() {
    std::unordered_map<uint64_t, std::string> at_offset;
    for (AmdgpuRegister& reg : map_.registers) {
      auto base = base_indices_.find(reg.name);
      if (base == base_indices_.end()) {
        diagnostics_.Error(reg.loc, reg.name + " has no " + reg.name + std::string(kBaseIndexSuffix) +
                                        ": its segment, so its byte offset, is unknown");
        continue;
      }
      reg.base_index = static_cast<uint32_t>(std::min<uint64_t>(base->second.value, UINT32_MAX));
      if (base->second.value >= bases_.size()) {
        diagnostics_.Error(base->second.loc, reg.name + " is in segment " + std::to_string(base->second.value) +
                                                 ", but --bases gives " + std::to_string(bases_.size()) +
                                                 " segment base(s), 0 to " + std::to_string(bases_.size() - 1));
        continue;
      }
      // Dword offsets and bases are far below 2^32 in every header; a value
      // that would overflow the byte offset is not a register offset.
      uint64_t dwords = bases_[reg.base_index] + reg.dword_offset;
      if (reg.dword_offset >= (uint64_t{1} << 40) || dwords >= (uint64_t{1} << 60)) {
        diagnostics_.Error(reg.loc, reg.name + ": offset " + Hex(reg.dword_offset) + " in segment " +
                                        std::to_string(reg.base_index) + " is past any register BAR");
        continue;
      }
      reg.byte_offset = dwords * 4;
      auto [it, added] = at_offset.try_emplace(reg.byte_offset, reg.name);
      if (!added) reg.alias_of = it->second;
    }
    for (const auto& [name, base] : base_indices_) {
      if (!register_index_.count(name)) {
        diagnostics_.Error(base.loc, name + std::string(kBaseIndexSuffix) + " without a register " + name);
      }
    }
  }

  // REGISTER__FIELD__SHIFT or REGISTER__FIELD_MASK: the register's name ends
  // at the first "__" (register names have single underscores).
  void MaskDefine(const HeaderDefine& define) {
    std::string_view name = define.name;
    bool is_shift = name.ends_with(kShiftSuffix);
    if (is_shift) {
      name.remove_suffix(kShiftSuffix.size());
    } else if (name.ends_with(kMaskSuffix)) {
      name.remove_suffix(kMaskSuffix.size());
    } else {
      diagnostics_.Error(define.loc,
                         std::string(define.name) + ": expected REGISTER__FIELD__SHIFT or REGISTER__FIELD_MASK");
      return;
    }
    size_t split = name.find("__");
    if (split == std::string_view::npos || split == 0 || split + 2 >= name.size()) {
      diagnostics_.Error(define.loc,
                         std::string(define.name) + ": expected REGISTER__FIELD__SHIFT or REGISTER__FIELD_MASK");
      return;
    }
    std::string key(name);
    auto it = field_index_.find(key);
    if (it == field_index_.end()) {
      if (fields_.size() >= limits_.max_fields) {
        if (fields_.size() == limits_.max_fields) {
          diagnostics_.Error(define.loc, "more than " + std::to_string(limits_.max_fields) + " fields; refused");
          fields_.emplace_back();  // said once
        }
        return;
      }
      it = field_index_.emplace(key, fields_.size()).first;
      fields_.push_back({std::string(name.substr(0, split)), std::string(name.substr(split + 2)), {}, {}, {}, {}});
    }
    FieldDefines& field = fields_[it->second];
    std::optional<uint64_t>& slot = is_shift ? field.shift : field.mask;
    SourceLoc& loc = is_shift ? field.shift_loc : field.mask_loc;
    if (slot) {
      if (*slot != define.value) Duplicate(define, loc);
      return;
    }
    slot = define.value;
    loc = define.loc;
  }

  void ResolveFields() {
    std::set<std::string> orphans;
    for (const FieldDefines& defines : fields_) {
      if (defines.register_name.empty()) continue;  // the limit's marker
      std::optional<AmdgpuField> field = CheckedField(defines);
      if (!field) continue;
      if (auto reg = register_index_.find(defines.register_name); reg != register_index_.end()) {
        map_.registers[reg->second].fields.push_back(std::move(*field));
      } else if (indirect_.count(defines.register_name)) {
        ++map_.indirect_fields;
      } else {
        ++map_.orphan_fields;
        orphans.insert(defines.register_name);
      }
    }
    map_.orphan_field_registers.assign(orphans.begin(), orphans.end());
    map_.indirect_registers = indirect_.size();
    for (AmdgpuRegister& reg : map_.registers) {
      std::sort(reg.fields.begin(), reg.fields.end(),
                [](const AmdgpuField& a, const AmdgpuField& b) { return a.lsb < b.lsb; });
      for (size_t i = 1; i < reg.fields.size(); ++i) {
        const AmdgpuField& before = reg.fields[i - 1];
        const AmdgpuField& field = reg.fields[i];
        if (field.lsb <= before.msb) {
          diagnostics_
              .Error(field.loc, reg.name + "__" + field.name + " (bits " + std::to_string(field.msb) + ":" +
                                    std::to_string(field.lsb) + ") overlaps " + before.name + " (bits " +
                                    std::to_string(before.msb) + ":" + std::to_string(before.lsb) + ")")
              .notes.push_back({before.loc, before.name + " is here"});
        }
      }
    }
  }

  // The field a __SHIFT/_MASK pair describes, when the two agree.
  std::optional<AmdgpuField> CheckedField(const FieldDefines& d) {
    std::string full = d.register_name + "__" + d.field_name;
    if (!d.mask) {
      diagnostics_.Error(d.shift_loc, full + "__SHIFT has no " + full + "_MASK");
      return std::nullopt;
    }
    if (!d.shift) {
      diagnostics_.Error(d.mask_loc, full + "_MASK has no " + full + "__SHIFT");
      return std::nullopt;
    }
    uint64_t mask = *d.mask;
    if (mask == 0 || mask > 0xFFFFFFFFu) {
      diagnostics_.Error(d.mask_loc, full + "_MASK " + Hex(mask) + " is not a field of a 32-bit register");
      return std::nullopt;
    }
    unsigned lsb = static_cast<unsigned>(std::countr_zero(mask));
    uint64_t run = mask >> lsb;
    if ((run & (run + 1)) != 0) {
      diagnostics_.Error(d.mask_loc, full + "_MASK " + Hex(mask) + " is not one run of bits");
      return std::nullopt;
    }
    if (*d.shift != lsb) {
      diagnostics_
          .Error(d.shift_loc, full + "__SHIFT is " + std::to_string(*d.shift) + ", but " + full + "_MASK " + Hex(mask) +
                                  " starts at bit " + std::to_string(lsb))
          .notes.push_back({d.mask_loc, "the mask is here"});
      return std::nullopt;
    }
    unsigned msb = lsb + static_cast<unsigned>(std::countr_one(run)) - 1;
    return AmdgpuField{d.field_name, msb, lsb, d.shift_loc};
  }

  AmdgpuReadResult& result_;
  regdb::Diagnostics& diagnostics_;
  const std::vector<uint64_t>& bases_;
  const AmdgpuLimits& limits_;
  AmdgpuRegisterMap map_;
  std::unordered_map<std::string, size_t> register_index_;
  bool registers_refused_ = false;  // said once
  std::map<std::string, BaseIndex> base_indices_;
  std::set<std::string> indirect_;
  std::unordered_map<std::string, size_t> field_index_;
  std::vector<FieldDefines> fields_;
};

}  // namespace

AmdgpuReadResult ReadAmdgpuHeaders(AmdgpuHeaderText offsets, AmdgpuHeaderText masks, const std::vector<uint64_t>& bases,
                                   const AmdgpuLimits& limits) {
  AmdgpuReadResult result;
  bool too_large = false;
  for (const AmdgpuHeaderText* header : {&offsets, &masks}) {
    if (header->text.size() > limits.max_file_bytes) {
      RefuseLargeFile(result.sources.Add(header->name, ""), header->text.size(), limits.max_file_bytes,
                      result.diagnostics);
      too_large = true;
    }
  }
  if (too_large) return result;
  uint32_t offsets_file = result.sources.Add(std::move(offsets.name), std::move(offsets.text));
  uint32_t masks_file = result.sources.Add(std::move(masks.name), std::move(masks.text));
  AmdgpuReader(result, bases, limits).Read(offsets_file, masks_file);
  return result;
}

AmdgpuReadResult ReadAmdgpuHeaderFiles(const std::filesystem::path& offsets, const std::filesystem::path& masks,
                                       const std::vector<uint64_t>& bases, const AmdgpuLimits& limits) {
  AmdgpuReadResult failed;
  std::optional<std::string> offsets_text =
      ReadBoundedFile(offsets, limits.max_file_bytes, failed.sources, failed.diagnostics);
  std::optional<std::string> masks_text =
      ReadBoundedFile(masks, limits.max_file_bytes, failed.sources, failed.diagnostics);
  if (!offsets_text || !masks_text) return failed;
  return ReadAmdgpuHeaders({offsets.string(), std::move(*offsets_text)}, {masks.string(), std::move(*masks_text)},
                           bases, limits);
}

std::optional<std::vector<uint64_t>> ParseAmdgpuBases(const std::string& text, std::string& error) {
  std::vector<uint64_t> bases;
  std::string_view rest = text;
  while (true) {
    size_t comma = rest.find(',');
    std::string_view part = rest.substr(0, comma);
    auto parsed = regdb::ParseUnsigned(part);
    if (auto* number_error = std::get_if<regdb::NumberError>(&parsed)) {
      error = "segment base '" + std::string(part) + "': " + number_error->message;
      return std::nullopt;
    }
    bases.push_back(std::get<uint64_t>(parsed));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return bases;
}

}  // namespace regemu::convert
