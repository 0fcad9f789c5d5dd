#pragma once
// A test run's coverage (regemu coverage files) as the register map paints
// it: per register and field, touched or not with counts on hover, and the
// behaviour paths that ran. Empty when `regemu doc` runs without --coverage.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tools/docgen/bitfield_svg.hpp"

namespace regemu::docgen {

struct RegisterMark {
  uint64_t reads = 0, writes = 0;
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
  std::map<std::string, uint64_t, std::less<>> violations;             // by kind
  std::string summary_html;  // the index's summary table

  const RegisterMark* Of(std::string_view reg) const {
    auto found = registers.find(reg);
    return found == registers.end() ? nullptr : &found->second;
  }
};

}  // namespace regemu::docgen
