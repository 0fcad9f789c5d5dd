#pragma once
// A checked database out as CMSIS-SVD 1.3, for svd2rust, IDE register views
// and other SVD consumers. SVD describes one memory-mapped bus: the first
// mmio space is written; a block becomes a peripheral (its first instance,
// the others derivedFrom it) and the space's other registers one
// peripheral named after the space, with an empty <prependToName> so that
// `regemu convert svd` gives them back their names. What SVD cannot hold is
// left out and listed: other spaces, behaviours (and the rules in them),
// alias ranges, masked registers, views, banked registers, reserved and
// must-be-zero fields, `volatile`, and the difference between hw/fixed and
// read-only.

#include <string>
#include <vector>

#include "regemu/regdb/database.hpp"

namespace regemu::convert {

struct SvdExport {
  std::string text;
  size_t registers = 0;
  std::vector<std::string> left_out;
};

SvdExport WriteSvd(const regdb::Database& database);

}  // namespace regemu::convert
