#pragma once
// How an event-counter slot turns occurrences of its event into counts
// under the x86 PMU's per-cycle filters (Intel SDM 18.2.1, IA32_PERFEVTSELx):
//   - CMASK 0: every occurrence counts (INV is ignored, as with no
//     threshold there is nothing to invert);
//   - CMASK c > 0: a cycle counts when it has at least c occurrences
//     (INV: fewer than c);
//   - EDGE: a count is a false-to-true transition of that condition
//     (with CMASK 0, of "at least one occurrence").
// Occurrences at a rate are spread as evenly as integers allow over the
// core cycles of the interval: q or q + 1 per cycle (q = occurrences /
// cycles), the (q + 1) cycles evenly among the others. Edges of a
// condition true in T of N cycles, evenly spread, are min(T, N - T) runs
// (plus one when it turns true from a false last cycle). A burst
// (`inject event NAME COUNT`) is COUNT occurrences in one cycle.
#include <cstdint>

namespace regemu::emulator {

struct CycleFilter {
  uint64_t cmask = 0;
  bool invert = false;
  bool edge = false;

  bool counts_occurrences() const { return cmask == 0 && !edge; }
};

// Per slot: whether the condition held in the last cycle seen (edges).
struct CycleFilterState {
  bool last_true = false;
};

// Counts from `occurrences` spread over `cycles` core cycles (cycles 0:
// no cycle clock, so they count as one burst).
uint64_t FilteredCount(const CycleFilter& filter, uint64_t occurrences, uint64_t cycles, CycleFilterState& state);

// Counts from `occurrences` in a single cycle.
uint64_t FilteredBurst(const CycleFilter& filter, uint64_t occurrences, CycleFilterState& state);

}  // namespace regemu::emulator
