#pragma once
// The mistakes the example driver can be told to make, one switch each, so
// tests and the demo show what regemu reports for each. A driver built with
// no bug set is the one that mirrors i915.

#include <cstdint>
#include <string_view>

#include "examples/bug_set.hpp"

namespace regemu::i915_mini {

enum class Bug : uint8_t {
  // Touches render and GT registers without holding their force-wake
  // domains: the device refuses each access (`forcewake`).
  kSkipForcewake,
  // The Gen11 handler acknowledges GT_INTR_DW before servicing the engines
  // through selector and identity (`protocol`, ICL PRM Vol 13, "DW_IIR bits must
  // not be cleared without first servicing...").
  kClearDwBeforeService,
  // The Gen11 handler selects every pending engine of a bank with one
  // selector write instead of one bit at a time (`protocol`, "the Selector
  // data must be one-hot").
  kSelectAllPending,
  // Caps the GT frequency by writing RP_STATE_CAP through the GTTMMADR
  // MCHBAR mirror, an Ironlake-era habit: since Haswell the mirror is
  // read-only (`alias-write`).
  kWriteMchbarMirror,
  // Enables memory decode and bus mastering with one 32-bit read-modify-
  // write of COMMAND and STATUS at 0x04 instead of pci_enable_device's and
  // pci_set_master's 16-bit writes of COMMAND: the STATUS half carries back
  // the error bits it read as 1, which are write-1-to-clear, so pending
  // PCI errors are acked by accident (`hazard`).
  kRmwCommandStatus,
};

inline constexpr Bug kAllBugs[] = {Bug::kSkipForcewake, Bug::kClearDwBeforeService, Bug::kSelectAllPending,
                                   Bug::kWriteMchbarMirror, Bug::kRmwCommandStatus};

constexpr std::string_view BugName(Bug bug) {
  switch (bug) {
    case Bug::kSkipForcewake: return "skip-forcewake";
    case Bug::kClearDwBeforeService: return "clear-dw-before-service";
    case Bug::kSelectAllPending: return "select-all-pending";
    case Bug::kWriteMchbarMirror: return "write-mchbar-mirror";
    case Bug::kRmwCommandStatus: return "rmw-command-status";
  }
  return "?";
}

using Bugs = examples::BugSet<Bug>;

}  // namespace regemu::i915_mini
