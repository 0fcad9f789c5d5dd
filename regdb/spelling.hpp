#pragma once
// "Did you mean" suggestions for misspelt keys, kinds and names.

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace regemu::regdb {

size_t EditDistance(std::string_view a, std::string_view b);

// The candidate closest to `word`, if it is close enough to be a likely typo.
std::optional<std::string> ClosestMatch(std::string_view word, std::span<const std::string_view> candidates);

// " (did you mean 'x'?)" or "".
std::string DidYouMean(std::string_view word, std::span<const std::string_view> candidates);

}  // namespace regemu::regdb
