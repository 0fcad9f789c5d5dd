#pragma once
// The mistakes the example HPET driver can be told to make, one switch
// each, so tests and the demo show what regemu reports for each (or, for
// kNoTooLateCheck, what the driver then sees). A driver built with no bug
// set is the one that follows Linux's arch/x86/kernel/hpet.c.

#include <cstdint>
#include <string_view>

#include "examples/bug_set.hpp"

namespace regemu::hpet {

enum class Bug : uint8_t {
  // hpet_restart_counter resets the main counter without stopping it first
  // (`protocol`, rule main_counter_written_while_running: HPET 1.0a §2.3.7,
  // writes only while the counter is halted).
  kCounterResetWhileRunning,
  // The periodic tick is programmed on channel 1, which has no periodic
  // capability (`protocol`, rule t1_periodic_not_capable: §2.3.8
  // Tn_TYPE_CNF reads 0 without Tn_PER_INT_CAP). The timer stays one-shot:
  // the tick comes once and never again.
  kPeriodicOnOneShotChannel,
  // hpet_clkevt_set_next_event without the read-back of the counter after
  // the comparator write: a comparator written after the counter passed it
  // (an NMI or SMI between the two) is reported as programmed, and the
  // event never comes (the match is on equality). No register rule can see
  // this: the missing interrupt shows it.
  kNoTooLateCheck,
};

inline constexpr Bug kAllBugs[] = {Bug::kCounterResetWhileRunning, Bug::kPeriodicOnOneShotChannel,
                                   Bug::kNoTooLateCheck};

constexpr std::string_view BugName(Bug bug) {
  switch (bug) {
    case Bug::kCounterResetWhileRunning: return "counter-reset-while-running";
    case Bug::kPeriodicOnOneShotChannel: return "periodic-on-one-shot-channel";
    case Bug::kNoTooLateCheck: return "no-too-late-check";
  }
  return "?";
}

using Bugs = examples::BugSet<Bug>;

}  // namespace regemu::hpet
