#pragma once
// The example driver without bugs, on a strict device watched by the
// protocol rules, with its trace printed step by step.

#include <cstddef>
#include <memory>
#include <ostream>

#include "regemu/emulator/model.hpp"

namespace regemu::demo {

// True when the run recorded no violation and broke no protocol rule.
// `max_lines`: accesses shown per step (0: all).
bool RunHappy(const std::shared_ptr<const emulator::Model>& model, size_t max_lines, std::ostream& out);

}  // namespace regemu::demo
