#pragma once
// Force-wake power domains as the map draws them: a colour per domain (the
// address maps and the domain page), and the ranges each one powers.

#include <string>
#include <vector>

#include "regemu/regdb/behaviour_configs/forcewake.hpp"

namespace regemu::docgen {

std::string DomainColour(size_t index);

// The ranges of `config` that need domain `domain` awake, in address order.
std::vector<const regdb::ForcewakeConfig::Range*> RangesPoweredBy(const regdb::ForcewakeConfig& config, size_t domain);

}  // namespace regemu::docgen
