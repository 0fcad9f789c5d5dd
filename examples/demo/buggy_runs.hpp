#pragma once
// The example driver with one deliberate bug, on a fresh lenient device
// (violations recorded, nothing aborted), driven just far enough to make
// the mistake; prints what regemu reports.

#include <memory>
#include <ostream>

#include "regemu/emulator/model.hpp"
#include "regemu/emulator/violation.hpp"
#include "examples/i915_mini/bugs.hpp"

namespace regemu::demo {

// The violation kind each bug must cause, and nothing else.
emulator::ViolationKind ExpectedKind(i915_mini::Bug bug);

// True when the run recorded at least one violation and all of them were
// of ExpectedKind(bug).
bool RunBuggy(const std::shared_ptr<const emulator::Model>& model, i915_mini::Bug bug, std::ostream& out);

}  // namespace regemu::demo
