#include "tools/convert/amdgpu_yaml_writer.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>
#include <string_view>

#include "tools/convert/yaml_text.hpp"

namespace regemu::convert {

namespace {

constexpr std::string_view kSpace = "mmio";
// Below the loader's 256 files per database, with device.yaml among them.
constexpr size_t kMaxRegisterFiles = 200;
// Registers named in the note on fields not converted; the rest are counted.
constexpr size_t kOrphansListed = 20;

std::string Bits(unsigned msb, unsigned lsb) {
  return msb == lsb ? std::to_string(lsb) : Quoted(std::to_string(msb) + ":" + std::to_string(lsb));
}

// A generated C++ header gives field F the accessor f(): a field named all
// in lower case (gfx90a's RLC_CP_SCHEDULERS scheduler0..3) would have its
// accessor's name, so it is named in upper case, and `note` says so.
std::string UpperIfAllLower(const std::string& name, std::string& note) {
  note.clear();
  if (std::any_of(name.begin(), name.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)); }) ||
      !std::any_of(name.begin(), name.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); })) {
    return name;
  }
  std::string upper = name;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  note = name + " is named " + upper + " here: a generated C++ header's accessor of a field is its name in lower case";
  return upper;
}

// Register names as the database gives them. A generated C header names a
// register's own values NAME_RESET, NAME_WIDTH, ... and its fields'
// NAME_FIELD_MASK, ...: a register whose name is one of those of another
// register (gfx90a has CP_VMID and CP_VMID_RESET) gets a '_' after it.
class RegisterNames {
 public:
  explicit RegisterNames(const AmdgpuRegisterMap& map) {
    std::set<std::string> derived;
    for (const AmdgpuRegister& reg : map.registers) {
      for (std::string_view suffix : {"_SPACE", "_WIDTH", "_RESET", "_ZERO_ON_WRITE", "_MBZ"}) {
        derived.insert(reg.name + std::string(suffix));
      }
      for (const AmdgpuField& field : reg.fields) {
        for (std::string_view suffix : {"_MASK", "_SHIFT", "_WIDTH", "_RESET"}) {
          derived.insert(reg.name + "_" + field.name + std::string(suffix));
        }
      }
    }
    for (const AmdgpuRegister& reg : map.registers) {
      if (derived.count(reg.name)) renamed_[reg.name] = reg.name + "_";
    }
  }
  std::string Of(const std::string& name) const {
    auto it = renamed_.find(name);
    return YamlName(it == renamed_.end() ? name : it->second);
  }
  bool Renamed(const std::string& name) const { return renamed_.count(name) != 0; }

 private:
  std::map<std::string, std::string> renamed_;
};

void WriteRegister(std::ostream& out, const AmdgpuRegister& reg, const RegisterNames& names) {
  if (names.Renamed(reg.name)) {
    out << "  # " << reg.name << " is named " << names.Of(reg.name) << " here: a generated C header already has "
        << reg.name << " for another register's value or field\n";
  }
  out << "  - name: " << names.Of(reg.name) << "\n";
  out << "    space: " << kSpace << "\n";
  out << "    offset: " << Hex(reg.byte_offset) << "\n";
  if (!reg.alias_of.empty()) out << "    alias_of: " << names.Of(reg.alias_of) << "\n";
  out << "    fields:\n";
  if (reg.fields.empty()) {
    out << "      # the headers give this register no fields: one field, the "
           "whole register\n";
    out << "      - {name: " << YamlName(reg.name, true) << ", bits: " << Bits(31, 0) << ", access: rw}\n";
    return;
  }
  for (const AmdgpuField& field : reg.fields) {
    std::string case_note, macro_note;
    std::string name = FieldNameForHeaders(UpperIfAllLower(field.name, case_note), macro_note);
    for (const std::string* note : {&case_note, &macro_note}) {
      if (!note->empty()) out << "      # " << *note << "\n";
    }
    out << "      - {name: " << name << ", bits: " << Bits(field.msb, field.lsb) << ", access: rw}\n";
  }
}

// The register BAR: a power of two past the last register, at least 4 KiB.
uint64_t SpaceSize(const AmdgpuRegisterMap& map) {
  uint64_t end = 0;
  for (const AmdgpuRegister& reg : map.registers) end = std::max(end, reg.byte_offset + 4);
  uint64_t size = 0x1000;
  while (size < end) size <<= 1;
  return size;
}

std::string BasesText(const std::vector<uint64_t>& bases) {
  std::string text;
  for (size_t i = 0; i < bases.size(); ++i) text += (i ? ", " : "") + std::to_string(i) + ": " + Hex(bases[i]);
  return text;
}

}  // namespace

std::map<std::string, std::string> WriteAmdgpuDatabaseYaml(const AmdgpuRegisterMap& map, const AmdgpuSource& source) {
  const std::string header = "# Converted from " + source.offsets_name + " and " + source.masks_name +
                             " (amdgpu register headers) by `regemu convert "
                             "amdgpu`: re-convert rather than edit.\n"
                             "# The headers give no access policies, resets or "
                             "behaviour: every field is imported "
                             "as `rw` and every reset as 0.\n";
  // Registers by address block, blocks in the order the header first names
  // them.
  RegisterNames names(map);
  std::vector<std::string> blocks;
  std::map<std::string, std::ostringstream> block_text;
  for (const AmdgpuRegister& reg : map.registers) {
    std::string block = reg.address_block.empty() ? "registers" : IdentifierFrom(reg.address_block);
    if (!block_text.count(block)) blocks.push_back(block);
    WriteRegister(block_text[block], reg, names);
  }
  std::map<std::string, std::string> files;
  std::ostringstream includes;
  const size_t per_file = std::max<size_t>(1, (blocks.size() + kMaxRegisterFiles - 1) / kMaxRegisterFiles);
  for (size_t first = 0; first < blocks.size(); first += per_file) {
    std::string path = "registers/" + blocks[first] + ".yaml";
    std::string text = header;
    std::string entries;
    for (size_t i = first; i < std::min(blocks.size(), first + per_file); ++i) {
      text += "# addressBlock " + blocks[i] + "\n";
      entries += block_text[blocks[i]].str();
    }
    files[path] = text + "registers:\n" + entries;
    includes << "  - " << path << "\n";
  }

  std::ostringstream root;
  root << header;
  root << "# Byte offset = 4 x (segment base + the header's dword offset); "
          "segment bases in dwords, by base index: "
       << BasesText(source.bases) << ".\n";
  root << "# " << map.registers.size() << " registers, " << map.FieldCount() << " fields.\n";
  if (map.indirect_registers != 0) {
    root << "# Not converted: " << map.indirect_registers << " indirect registers (ixNAME, reached through an "
         << "index/data register pair, not at a BAR offset) and their " << map.indirect_fields << " fields.\n";
  }
  if (map.orphan_fields != 0) {
    root << "# Not converted: " << map.orphan_fields << " fields of registers " << source.offsets_name
         << " does not define:";
    size_t listed = std::min(map.orphan_field_registers.size(), kOrphansListed);
    for (size_t i = 0; i < listed; ++i) root << " " << map.orphan_field_registers[i];
    root << (listed < map.orphan_field_registers.size() ? " ...\n" : "\n");
  }
  root << "device: " << IdentifierFrom(source.device) << "\n";
  root << "doc: " << Quoted("Registers of " + source.offsets_name + " and " + source.masks_name) << "\n";
  root << "spaces:\n";
  root << "  - {name: " << kSpace << ", kind: mmio, size: " << Hex(SpaceSize(map))
       << ", doc: \"the register BAR: byte offset = 4 x (segment base + dword "
          "offset)\"}\n";
  if (!includes.str().empty()) root << "include:\n" << includes.str();
  files["device.yaml"] = root.str();
  return files;
}

}  // namespace regemu::convert
