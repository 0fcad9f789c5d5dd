#pragma once
// `kind: counter`: a free-running counter driven by the virtual clock.

#include <cstdint>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/database.hpp"

namespace regemu::regdb {

struct CounterConfig : BehaviourConfig {
  RegisterIndex reg = 0;
  FieldBits bits;  // the counting bits: a field, or the whole register
  uint64_t period_ns = 1;
  uint64_t increment = 1;
};

}  // namespace regemu::regdb
