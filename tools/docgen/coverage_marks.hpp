#pragma once
// A test run's coverage (regemu coverage files) as the register map paints
// it: per register and field, touched or not with counts on hover, and the
// behaviour paths that ran. Empty when `regemu doc` runs without --coverage.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/emulator/coverage/coverage.hpp"
#include "regemu/regdb/database.hpp"
#include "tools/docgen/bitfield_svg.hpp"

namespace regemu::docgen {

struct RegisterMark {
  std::string hover;  // "read 12 times, written 3 times; effects: w1c 2"
  FieldMarks fields;  // every field of the register: "covered" or "uncovered"
};

struct PointMark {
  std::string group, name;
  uint64_t hits = 0;
};

struct CoverageMarks {
  bool enabled = false;
  std::string source;  // the files it came from, for the pages' captions
  std::map<std::string, RegisterMark, std::less<>> registers;          // only registers a test touched
  std::map<std::string, std::vector<PointMark>, std::less<>> behaviours;  // by behaviour name
  std::string summary_html;  // the index's summary table

  const RegisterMark* Of(std::string_view reg) const {
    auto found = registers.find(reg);
    return found == registers.end() ? nullptr : &found->second;
  }
};

// The marks of `model` (one device model of a coverage file) on `db`'s map.
// A field counts as covered when a test write changed it or, for a field no
// write can change (read-only, hardware-owned, reserved), when a test read
// its register. `source` names the files, for the captions.
CoverageMarks MarksFrom(const emulator::ModelCoverage& model, const regdb::Database& db, std::string source);

// The model of `data` that describes `db`: the one named after its device
// with as many registers, else the one with its name; null with `error`
// naming the models there are.
const emulator::ModelCoverage* ModelFor(const emulator::CoverageData& data, const regdb::Database& db,
                                        std::string& error);

}  // namespace regemu::docgen
