// Every register yaml/mi200's overlay names agrees with AMD's gc_9_4_2
// headers, and every hand-typed one of yaml/mi300 with gc_9_4_3
// (tests/convert/data/amdgpu): at the same byte offset, with the same
// fields (name, lsb, width). yaml/mi200 takes its offsets and fields from
// the converted map (yaml/gc_9_4_2), so for it this holds the overlay's
// own changes (an added or removed field) to the headers. A register without fields agrees with a header register whose
// one field is the whole register. Where a database must differ, it says
// why beside the register, and the exception is listed here: an exception
// that no longer differs fails too, so the list stays true.

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "regemu/regdb/loader.hpp"
#include "tools/convert/amdgpu_reader.hpp"

namespace regemu::convert {
namespace {

namespace fs = std::filesystem;

const fs::path kSource(REGEMU_SOURCE_DIR);

struct Agreement {
  size_t registers = 0;  // hand-typed registers compared
  size_t fields = 0;     // their fields (a fieldless register counts one)
  size_t agreeing_registers = 0;
  size_t agreeing_fields = 0;
  std::map<std::string, std::string> disagreements;  // register → what differs
};

std::string FieldText(std::string_view name, unsigned msb, unsigned lsb) {
  return std::string(name) + "[" + std::to_string(msb) + ":" + std::to_string(lsb) + "]";
}

// `changed_only`: only the registers an overlay change names (an overlay's
// imported registers agree by construction).
Agreement Compare(const fs::path& database, const std::string& header_stem, const std::vector<uint64_t>& bases,
                  bool changed_only = false) {
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(database);
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << regdb::FormatDiagnostics(loaded.sources, loaded.diagnostics);
  fs::path data = kSource / "tests/convert/data/amdgpu";
  AmdgpuReadResult read =
      ReadAmdgpuHeaderFiles(data / (header_stem + "_offset.h"), data / (header_stem + "_sh_mask.h"), bases);
  EXPECT_TRUE(read.map.has_value()) << regdb::FormatDiagnostics(read.sources, read.diagnostics);
  Agreement result;
  if (!read.map) return result;
  std::map<std::string, const AmdgpuRegister*> by_name;
  for (const AmdgpuRegister& reg : read.map->registers) by_name[reg.name] = &reg;

  for (const regdb::Register& reg : loaded.database.registers) {
    if (reg.space_name != "mmio" || (changed_only && !reg.changed_by_overlay)) continue;
    ++result.registers;
    result.fields += std::max<size_t>(1, reg.fields.size());
    auto it = by_name.find(reg.name);
    if (it == by_name.end()) {
      result.disagreements[reg.name] = "not in " + header_stem + "_offset.h";
      continue;
    }
    const AmdgpuRegister& header = *it->second;
    std::ostringstream differs;
    if (header.byte_offset != reg.offset) {
      differs << "offset " << regdb::Hex(reg.offset) << ", header " << regdb::Hex(header.byte_offset) << "; ";
    }
    std::set<std::string> ours, theirs;
    for (const regdb::Field& field : reg.fields) ours.insert(FieldText(field.name, field.bits.msb, field.bits.lsb));
    for (const AmdgpuField& field : header.fields) theirs.insert(FieldText(field.name, field.msb, field.lsb));
    size_t agreeing = 0;
    if (reg.fields.empty()) {
      bool whole = header.fields.empty() ||
                   (header.fields.size() == 1 && header.fields[0].lsb == 0 && header.fields[0].msb == reg.width - 1);
      if (whole) {
        agreeing = 1;
      } else {
        differs << "no fields, header has " << header.fields.size() << "; ";
      }
    } else {
      for (const std::string& field : ours) {
        if (theirs.count(field)) {
          ++agreeing;
        } else {
          differs << "ours " << field << " not in header; ";
        }
      }
      for (const std::string& field : theirs) {
        if (!ours.count(field)) differs << "header " << field << " not ours; ";
      }
    }
    result.agreeing_fields += agreeing;
    if (differs.str().empty()) {
      ++result.agreeing_registers;
    } else {
      result.disagreements[reg.name] = differs.str();
    }
  }
  return result;
}

void ExpectOnly(const Agreement& agreement, const std::map<std::string, std::string>& exceptions) {
  for (const auto& [name, what] : agreement.disagreements) {
    EXPECT_TRUE(exceptions.count(name)) << name << ": " << what;
  }
  for (const auto& [name, why] : exceptions) {
    EXPECT_TRUE(agreement.disagreements.count(name))
        << name << " is listed as an exception (" << why << ") but agrees with the header: remove it from the list";
  }
}

// The exceptions: hand-typed registers that differ from the header on
// purpose, each with the reason the database gives beside it.
const std::map<std::string, std::string> kMi200Exceptions = {};
const std::map<std::string, std::string> kMi300Exceptions = {
    {"RLC_PERFMON_CLK_CNTL",
     "not in gc_9_4_3_offset.h, but aqlprofile writes it on gfx942 "
     "(yaml/mi300/README.md, Judgement calls)"},
};

TEST(AmdgpuAgreement, Mi200AgreesWithGc942) {
  Agreement agreement =
      Compare(kSource / "yaml/mi200", "gc_9_4_2", {0x2000, 0xA000, 0x02402C00}, /*changed_only=*/true);
  EXPECT_EQ(agreement.registers, 167u);  // perfcounters.yaml's changes
  ExpectOnly(agreement, kMi200Exceptions);
  RecordProperty("registers", std::to_string(agreement.registers));
  std::cout << "mi200: " << agreement.agreeing_registers << " of " << agreement.registers << " registers and "
            << agreement.agreeing_fields << " of " << agreement.fields << " fields agree with gc_9_4_2\n";
}

TEST(AmdgpuAgreement, Mi300AgreesWithGc943) {
  Agreement agreement = Compare(kSource / "yaml/mi300", "gc_9_4_3", {0x2000, 0xA000});
  EXPECT_GT(agreement.registers, 150u);
  ExpectOnly(agreement, kMi300Exceptions);
  std::cout << "mi300: " << agreement.agreeing_registers << " of " << agreement.registers << " registers and "
            << agreement.agreeing_fields << " of " << agreement.fields << " fields agree with gc_9_4_3\n";
}

}  // namespace
}  // namespace regemu::convert
