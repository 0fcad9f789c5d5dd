#include "tools/docgen/power_domains.hpp"

#include <algorithm>
#include <array>

namespace regemu::docgen {

std::string DomainColour(size_t index) {
  // Tableau 20's darker half, then its lighter half: 20 domains before a repeat.
  static constexpr std::array<const char*, 20> kColours = {
      "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
      "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  return kColours[index % kColours.size()];
}

std::vector<const regdb::ForcewakeConfig::Range*> RangesPoweredBy(const regdb::ForcewakeConfig& config, size_t domain) {
  std::vector<const regdb::ForcewakeConfig::Range*> ranges;
  for (const regdb::ForcewakeConfig::Range& range : config.ranges) {
    if (std::find(range.domains.begin(), range.domains.end(), domain) != range.domains.end()) ranges.push_back(&range);
  }
  return ranges;
}

}  // namespace regemu::docgen
