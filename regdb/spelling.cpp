#include "regemu/regdb/spelling.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cctype>
#include <vector>

namespace regemu::regdb {

namespace {

unsigned char Lower(char c) { return static_cast<unsigned char>(std::tolower(static_cast<unsigned char>(c))); }

// A word of up to 64 characters, prepared for Myers' bit-parallel edit
// distance (Hyyro's formulation): one bit per word character in Peq[c].
// Matching an unknown name against the 11,000 registers of a database costs
// a few word operations per candidate character instead of a DP row.
class BitParallelWord {
 public:
  static constexpr size_t kMaxLength = 64;
  explicit BitParallelWord(std::string_view word) : length_(word.size()) {
    for (size_t i = 0; i < word.size(); ++i) peq_[Lower(word[i])] |= uint64_t{1} << i;
  }

  // The case-insensitive edit distance to `text`, or `limit` if it is at least that.
  size_t DistanceWithin(std::string_view text, size_t limit) const {
    if (length_ == 0) return std::min(text.size(), limit);
    const uint64_t last = uint64_t{1} << (length_ - 1);
    uint64_t pv = ~uint64_t{0}, mv = 0;
    size_t score = length_;
    for (size_t j = 0; j < text.size(); ++j) {
      uint64_t eq = peq_[Lower(text[j])];
      uint64_t xv = eq | mv;
      uint64_t xh = (((eq & pv) + pv) ^ pv) | eq;
      uint64_t ph = mv | ~(xh | pv);
      uint64_t mh = pv & xh;
      if (ph & last) {
        ++score;
      } else if (mh & last) {
        --score;
      }
      // Row 0 grows by one per text character: shift a 1 into Ph.
      ph = (ph << 1) | 1;
      mh <<= 1;
      pv = mh | ~(xv | ph);
      mv = ph & xv;
      // Each remaining character lowers the score by at most one.
      size_t remaining = text.size() - j - 1;
      if (score >= limit + remaining) return limit;
    }
    return std::min(score, limit);
  }

 private:
  size_t length_;
  std::array<uint64_t, 256> peq_{};
};

// The textbook dynamic programme, for words longer than 64 characters.
size_t RowByRowDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (Lower(a[i - 1]) == Lower(b[j - 1]) ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

size_t EditDistance(std::string_view a, std::string_view b) {
  if (a.size() < b.size()) std::swap(a, b);  // the shorter one is the bit-parallel word
  if (b.size() > BitParallelWord::kMaxLength) return RowByRowDistance(a, b);
  return BitParallelWord(b).DistanceWithin(a, a.size() + 1);
}

std::optional<std::string> ClosestMatch(std::string_view word, std::span<const std::string_view> candidates) {
  size_t best_distance = std::max<size_t>(2, word.size() / 3) + 1;
  std::optional<BitParallelWord> fast;
  if (word.size() <= BitParallelWord::kMaxLength) fast.emplace(word);
  std::optional<std::string> best;
  for (std::string_view candidate : candidates) {
    size_t gap = candidate.size() > word.size() ? candidate.size() - word.size() : word.size() - candidate.size();
    if (gap >= best_distance) continue;  // the distance is at least the length difference
    size_t d = fast ? fast->DistanceWithin(candidate, best_distance) : RowByRowDistance(word, candidate);
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
