#pragma once
// SVD's `dim` arrays: an element with dim N stands for N copies, copy i at
// i * dimIncrement, its name with `%s` replaced by the i-th dimIndex (a
// list "A,B,C", a range "0-7" or "A-D", default 0 … N-1). `NAME[%s]` is a
// C array: copy i is NAMEi. regemu names each copy as SVD's header
// generators do and places it as a register of its own.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/convert/svd_limits.hpp"

namespace regemu::convert {

struct DimCopy {
  std::string name;
  uint64_t offset = 0;  // from the first copy
  std::string index;    // what replaced %s ("" for an element without dim)
};

// `reference` (an alternateRegister inside a dim array, Microchip's
// `CC%s` beside `CC%s_DITH4`) with %s or [%s] replaced by the copy's index.
std::string NameForCopy(const std::string& reference, const DimCopy& copy);

// An element without dim is one copy of its own name. `error` is set (and
// nothing returned) for an inconsistent or over-large dim.
std::vector<DimCopy> ExpandDim(const std::string& name, const std::optional<std::string>& dim,
                               const std::optional<std::string>& increment, const std::optional<std::string>& index,
                               const SvdLimits& limits, std::string& error);

}  // namespace regemu::convert
