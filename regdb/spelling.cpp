#include "regdb/spelling.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace regemu::regdb {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                  std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string> ClosestMatch(std::string_view word, std::span<const std::string_view> candidates) {
  size_t best_distance = std::max<size_t>(2, word.size() / 3) + 1;
  std::optional<std::string> best;
  for (std::string_view candidate : candidates) {
    size_t d = EditDistance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = std::string(candidate);
    }
  }
  return best;
}

std::string DidYouMean(std::string_view word, std::span<const std::string_view> candidates) {
  auto match = ClosestMatch(word, candidates);
  return match ? " (did you mean '" + *match + "'?)" : "";
}

}  // namespace regemu::regdb
