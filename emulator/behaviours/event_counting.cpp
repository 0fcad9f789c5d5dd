#include "regemu/emulator/behaviours/event_counting.hpp"

#include <algorithm>

namespace regemu::emulator {
namespace {

uint64_t Threshold(const CycleFilter& filter) { return filter.cmask == 0 ? 1 : filter.cmask; }

// The edge count of a condition true in `true_cycles` of `cycles`.
uint64_t Edges(uint64_t true_cycles, uint64_t cycles, CycleFilterState& state) {
  if (true_cycles == 0) {
    state.last_true = false;
    return 0;
  }
  if (true_cycles == cycles) {
    uint64_t edges = state.last_true ? 0 : 1;
    state.last_true = true;
    return edges;
  }
  uint64_t edges = std::min(true_cycles, cycles - true_cycles);
  state.last_true = true_cycles * 2 > cycles;
  return edges;
}

}  // namespace

uint64_t FilteredCount(const CycleFilter& filter, uint64_t occurrences, uint64_t cycles, CycleFilterState& state) {
  if (filter.counts_occurrences()) return occurrences;
  if (cycles == 0) return FilteredBurst(filter, occurrences, state);
  uint64_t per_cycle = occurrences / cycles;
  uint64_t busier = occurrences % cycles;  // cycles with per_cycle + 1
  uint64_t threshold = Threshold(filter);
  uint64_t true_cycles = threshold <= per_cycle ? cycles : (threshold == per_cycle + 1 ? busier : 0);
  if (filter.invert && filter.cmask != 0) true_cycles = cycles - true_cycles;
  if (!filter.edge) return true_cycles;
  return Edges(true_cycles, cycles, state);
}

uint64_t FilteredBurst(const CycleFilter& filter, uint64_t occurrences, CycleFilterState& state) {
  if (filter.counts_occurrences()) return occurrences;
  bool holds = occurrences >= Threshold(filter);
  if (filter.invert && filter.cmask != 0) holds = !holds;
  if (!filter.edge) return holds ? 1 : 0;
  uint64_t edges = holds && !state.last_true ? 1 : 0;
  state.last_true = holds;
  return edges;
}

}  // namespace regemu::emulator
