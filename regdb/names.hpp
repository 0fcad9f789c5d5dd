#pragma once
// The names of a list of named things (spaces, registers, fields, access
// policies), as candidates for "did you mean" suggestions.

#include <string_view>
#include <vector>

#include <range/v3/range/conversion.hpp>
#include <range/v3/view/transform.hpp>

namespace regemu::regdb {

template <typename Named>
std::vector<std::string_view> NamesOf(const Named& items) {
  return items | ranges::views::transform([](const auto& item) { return std::string_view(item.name); }) |
         ranges::to<std::vector>();
}

}  // namespace regemu::regdb
