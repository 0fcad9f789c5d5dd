#pragma once
// The example OA driver (examples/i915_perf) on the Ice Lake database: a
// short periodic stream with a workload injected, what its read returned,
// then one of its bugs and the violation regemu reports for it.

#include <memory>
#include <ostream>

#include "regemu/emulator/model.hpp"

namespace regemu::demo {

// True when the stream ran clean and returned reports, and the bug run
// recorded only protocol violations (at least one).
bool RunOaStream(const std::shared_ptr<const emulator::Model>& model, std::ostream& out);

}  // namespace regemu::demo
