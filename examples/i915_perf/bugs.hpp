#pragma once
// The mistakes the example OA driver can be told to make, one switch each,
// so tests and the demo show what regemu reports for each (or, where the
// device cannot tell, what the driver then hands to userspace). A stream
// with no bug set is the one that mirrors i915-perf.

#include <cstdint>
#include <string_view>

#include "examples/bug_set.hpp"

namespace regemu::i915_perf {

enum class Bug : uint8_t {
  // The buffer is programmed with the tail register (OATAILPTR, HSW
  // OASTATUS1) before OABUFFER. The PRM wants OABUFFER "before OATAILPTR
  // and after OAHEADPTR" for the overflow bit to work (`protocol`, at the
  // tail write).
  kTailBeforeBuffer,
  // The read loop never writes the head back (OAHEADPTR, HSW OASTATUS2):
  // the unit believes nothing was read, and although the driver keeps up
  // the buffer overflows (OABUFFER_OVERFLOW, a BUFFER_LOST record).
  kNoHeadWriteBack,
  // The read loop trusts the hardware tail: it does not walk back over
  // reports whose dwords 0 and 1 have not landed yet, and hands out a
  // half-written report (both dwords zero).
  kIgnoreTailRace,
  // The read loop steps through the buffer in 128-byte reports while
  // OACONTROL selects the 256-byte format: every report comes out as two
  // samples, the second half parsed as if it were a report.
  kAssume128ByteReports,
};

inline constexpr Bug kAllBugs[] = {Bug::kTailBeforeBuffer, Bug::kNoHeadWriteBack, Bug::kIgnoreTailRace,
                                   Bug::kAssume128ByteReports};

constexpr std::string_view BugName(Bug bug) {
  switch (bug) {
    case Bug::kTailBeforeBuffer: return "tail-before-buffer";
    case Bug::kNoHeadWriteBack: return "no-head-write-back";
    case Bug::kIgnoreTailRace: return "ignore-tail-race";
    case Bug::kAssume128ByteReports: return "assume-128-byte-reports";
  }
  return "?";
}

using Bugs = examples::BugSet<Bug>;

}  // namespace regemu::i915_perf
