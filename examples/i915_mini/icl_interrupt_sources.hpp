#pragma once
// Where each Ice Lake interrupt source reports: its engine class and
// instance (what the identity register names) and its GT INT DW bank and
// bit (Linux 5.4 i915_reg.h GEN11_GT_INTR_DW0/DW1; the same table as yaml/icl/interrupts_behaviour.yaml).
// i915 itself needs only class and instance; the example uses the table to
// name sources in reports and traces.

#include <cstdint>
#include <string_view>

namespace regemu::i915_mini {

struct InterruptSource {
  std::string_view name;
  uint8_t engine_class = 0;  // 0 render, 1 video decode, 2 video enhancement, 3 copy, 4 other
  uint8_t instance = 0;
  uint8_t bank = 0;
  uint8_t bit = 0;
};

inline constexpr InterruptSource kIclInterruptSources[] = {
    {"RCS0", 0, 0, 0, 0},   {"BCS0", 3, 0, 0, 15},  {"GTPM", 4, 1, 0, 16},  {"KCR", 4, 4, 0, 19},
    {"WDOAPERF", 4, 2, 0, 20}, {"GUC", 4, 0, 0, 25}, {"GUNIT", 4, 5, 0, 28}, {"CSME", 4, 6, 0, 31},
    {"VCS0", 1, 0, 1, 0},   {"VCS1", 1, 1, 1, 1},   {"VCS2", 1, 2, 1, 2},   {"VCS3", 1, 3, 1, 3},
    {"VCS4", 1, 4, 1, 4},   {"VCS5", 1, 5, 1, 5},   {"VCS6", 1, 6, 1, 6},   {"VCS7", 1, 7, 1, 7},
    {"VECS0", 2, 0, 1, 31}, {"VECS1", 2, 1, 1, 30}, {"VECS2", 2, 2, 1, 29}, {"VECS3", 2, 3, 1, 28},
};

// The source behind DW bit `bit` of bank `bank`, or nullptr.
constexpr const InterruptSource* SourceAt(unsigned bank, unsigned bit) {
  for (const InterruptSource& source : kIclInterruptSources) {
    if (source.bank == bank && source.bit == bit) return &source;
  }
  return nullptr;
}

// The source an identity names, or nullptr.
constexpr const InterruptSource* SourceOf(unsigned engine_class, unsigned instance) {
  for (const InterruptSource& source : kIclInterruptSources) {
    if (source.engine_class == engine_class && source.instance == instance) return &source;
  }
  return nullptr;
}

}  // namespace regemu::i915_mini
