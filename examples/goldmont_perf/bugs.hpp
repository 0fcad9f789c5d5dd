#pragma once
// The mistakes the example Goldmont PMU driver can be told to make, one
// switch each, so tests and the demo show what regemu reports for each.
// A driver with no bug set is the one that mirrors Linux perf
// (arch/x86/events/intel/core.c).

#include <cstdint>
#include <string_view>

#include "examples/bug_set.hpp"

namespace regemu::goldmont_perf {

enum class Bug : uint8_t {
  // The PMI handler handles the overflow and re-enables the PMU, but never
  // writes IA32_PERF_GLOBAL_OVF_CTRL: the status bit stays set and the
  // counter's next overflow raises no PMI (`protocol`, at the re-enable).
  kStatusNeverAcked,
  // Every event select also sets AnyThread (bit 21), which Goldmont's
  // vPMU reserves: a #GP under KVM (`mbz`, at IA32_PERFEVTSELx).
  kReservedEvtselBit,
  // Starting an event programs its period after enabling it and the PMU:
  // the counter is written while it counts (`protocol`).
  kCounterWrittenWhileEnabled,
};

inline constexpr Bug kAllBugs[] = {Bug::kStatusNeverAcked, Bug::kReservedEvtselBit, Bug::kCounterWrittenWhileEnabled};

constexpr std::string_view BugName(Bug bug) {
  switch (bug) {
    case Bug::kStatusNeverAcked: return "status-never-acked";
    case Bug::kReservedEvtselBit: return "reserved-evtsel-bit";
    case Bug::kCounterWrittenWhileEnabled: return "counter-written-while-enabled";
  }
  return "?";
}

using Bugs = examples::BugSet<Bug>;

}  // namespace regemu::goldmont_perf
