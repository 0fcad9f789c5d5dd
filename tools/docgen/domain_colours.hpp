#pragma once
// Colours for power domains (force-wake) on the address maps and the
// domain page: one per domain index, distinct enough side by side.

#include <string>

namespace regemu::docgen {

std::string DomainColour(size_t index);

}  // namespace regemu::docgen
