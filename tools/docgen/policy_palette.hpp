#pragma once
// How the register map shows access policies: each policy belongs to one
// family (what a driver author must know before touching the bits: plain
// read/write, read-only, write-to-act status, side effect on read, ...), and
// each family has one colour or pattern, explained by a legend. The family is
// derived from the policy's facets in regdb's access table, never from its name.

#include <string>
#include <string_view>
#include <vector>

#include "regemu/regdb/access.hpp"

namespace regemu::docgen {

struct PolicyFamily {
  std::string_view css_class;  // "pf-status": the fill in regemu-doc.css
  std::string_view title;      // "write to act (status)"
  std::string_view meaning;    // one sentence for the legend
};

const PolicyFamily& FamilyOf(regdb::Access access);

// The legend for the policies present: one entry per family, naming the policies.
std::string PolicyLegend(const std::vector<regdb::Access>& present);

// "w1c — write 1 to clear".
std::string PolicyInWords(regdb::Access access);

}  // namespace regemu::docgen
