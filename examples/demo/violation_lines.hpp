#pragma once
// The demo's bug runs print each violation regemu recorded, every line of
// its description indented under the bug's heading.

#include <ostream>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"

namespace regemu::demo {

inline void PrintViolations(const emulator::Model& model, const std::vector<emulator::Violation>& violations,
                            std::ostream& out) {
  for (const emulator::Violation& violation : violations) {
    std::string text = violation.Describe(model);
    for (size_t at = 0, next; at < text.size(); at = next + 1) {
      next = text.find('\n', at);
      if (next == std::string::npos) next = text.size();
      out << "   " << text.substr(at, next - at) << "\n";
    }
  }
}

}  // namespace regemu::demo
