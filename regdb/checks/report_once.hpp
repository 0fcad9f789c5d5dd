#pragma once
// Arrays and blocks expand one YAML line into many registers, so a mistake
// on that line would otherwise be reported once per element or instance.
// ReportOnce remembers which (location, topic) pairs were already reported.

#include <set>
#include <string>
#include <string_view>
#include <tuple>

#include "regemu/regdb/source.hpp"

namespace regemu::regdb {

class ReportOnce {
 public:
  // True the first time this location is reported about `topic`.
  bool First(SourceLoc loc, std::string_view topic = {}) {
    return seen_.emplace(loc.file, loc.line, loc.column, std::string(topic)).second;
  }
  // True the first time this pair of locations is reported together.
  bool First(SourceLoc loc, SourceLoc other) {
    return First(loc, std::to_string(other.file) + ":" + std::to_string(other.line) + ":" +
                          std::to_string(other.column));
  }

 private:
  std::set<std::tuple<uint32_t, uint32_t, uint32_t, std::string>> seen_;
};

}  // namespace regemu::regdb
