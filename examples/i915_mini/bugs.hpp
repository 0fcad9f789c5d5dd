#pragma once
// The mistakes the example driver can be told to make, one switch each, so
// tests and the demo show what regemu reports for each. A driver built with
// no bug set is the one that mirrors i915.

#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace regemu::i915_mini {

enum class Bug : uint8_t {
  // Touches render and GT registers without holding their force-wake
  // domains: the device refuses each access (`forcewake`).
  kSkipForcewake,
  // The Gen11 handler acknowledges GT_INTR_DW before servicing the engines
  // through selector and identity (`protocol`, seed 001 "DW_IIR bits must
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
};

inline constexpr Bug kAllBugs[] = {Bug::kSkipForcewake, Bug::kClearDwBeforeService, Bug::kSelectAllPending,
                                   Bug::kWriteMchbarMirror};

constexpr std::string_view BugName(Bug bug) {
  switch (bug) {
    case Bug::kSkipForcewake: return "skip-forcewake";
    case Bug::kClearDwBeforeService: return "clear-dw-before-service";
    case Bug::kSelectAllPending: return "select-all-pending";
    case Bug::kWriteMchbarMirror: return "write-mchbar-mirror";
  }
  return "?";
}

// A set of bugs; empty by default.
class Bugs {
 public:
  constexpr Bugs() = default;
  constexpr Bugs(std::initializer_list<Bug> bugs) {
    for (Bug bug : bugs) bits_ |= Bit(bug);
  }
  constexpr bool Has(Bug bug) const { return (bits_ & Bit(bug)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }

 private:
  static constexpr uint32_t Bit(Bug bug) { return uint32_t{1} << static_cast<unsigned>(bug); }
  uint32_t bits_ = 0;
};

}  // namespace regemu::i915_mini
