#pragma once
// The example HPET driver (examples/hpet) on the shipped yaml/hpet: Linux's
// hpet_enable, a 1 kHz periodic tick for one virtual second, one-shot
// events with the "too late" check (an SMI in the middle of one), then one
// of its bugs on a fresh device with the violation regemu reports.

#include <filesystem>
#include <ostream>

namespace regemu::demo {

// True when the driver ran clean with exactly 1000 ticks in the second, the
// too-late event caught and retried, and the bug recorded exactly its
// violations.
bool RunHpet(const std::filesystem::path& database, std::ostream& out);

}  // namespace regemu::demo
