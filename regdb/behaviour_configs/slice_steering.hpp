#pragma once
// `kind: slice-steering`: reads of slice-located registers go to the slice
// the steering selector names; a fused-off slice answers 0.

#include <cstdint>
#include <string>
#include <vector>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/database.hpp"

namespace regemu::regdb {

struct SliceSteeringConfig : BehaviourConfig {
  struct Range {
    uint64_t first = 0;
    uint64_t last = 0;  // inclusive
    std::string unit;   // what lives there, for messages
  };

  SpaceIndex space = 0;  // where the ranges are
  RegisterIndex fuse = 0;
  FieldBits fuse_bits;  // the slice enables: bit n = slice n present
  RegisterIndex selector = 0;
  FieldBits selector_bits;    // the number of the slice reads go to
  std::vector<Range> ranges;  // sorted and disjoint
};

}  // namespace regemu::regdb
