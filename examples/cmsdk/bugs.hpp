#pragma once
// The mistakes the Linux-style sequences of examples/cmsdk can be told to
// make (cmsdk_bugs.h, the C drivers' `bugs` bits), one switch each, so the
// tests show what regemu reports for each. A driver with no bug set runs
// Linux 6.1's drivers/watchdog/sp805_wdt.c and
// drivers/clocksource/timer-sp804.c sequences.

#include <cstdint>
#include <string_view>

#include "examples/bug_set.hpp"
#include "examples/cmsdk/cmsdk_bugs.h"

namespace regemu::cmsdk {

enum class Bug : uint8_t {
  // wdt_ping without the UNLOCK write: WDOGLOAD and WDOGINTCLR written
  // while locked (`protocol`, the database's WDOGLOCK write gate: ARM DDI
  // 0270B §3.3.8). The hardware ignores both: the ping never lands and the
  // watchdog resets the system.
  kPingWhileLocked = CMSDK_BUG_PING_WHILE_LOCKED,
  // sp804_set_periodic without evt_timer_shutdown: a running one-shot
  // timer made periodic in place (`protocol`, rule mode_while_enabled of
  // dual_timer).
  kModeWhileEnabled = CMSDK_BUG_MODE_WHILE_ENABLED,
};

inline constexpr Bug kAllBugs[] = {Bug::kPingWhileLocked, Bug::kModeWhileEnabled};

constexpr std::string_view BugName(Bug bug) {
  switch (bug) {
    case Bug::kPingWhileLocked: return "ping-while-locked";
    case Bug::kModeWhileEnabled: return "mode-while-enabled";
  }
  return "?";
}

using Bugs = examples::BugSet<Bug>;

// The C drivers' `bugs` member for `bugs`.
constexpr unsigned CBugs(Bugs bugs) {
  unsigned bits = 0;
  for (Bug bug : kAllBugs) {
    if (bugs.Has(bug)) bits |= 1u << static_cast<unsigned>(bug);
  }
  return bits;
}

}  // namespace regemu::cmsdk
