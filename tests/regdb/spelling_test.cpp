// "Did you mean" (regdb/spelling.hpp): the distance, the closest match
// within reach, and no suggestion when nothing is close.
#include <algorithm>
#include <cctype>
#include <random>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

TEST(SpellingTest, EditDistanceCountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(EditDistance("", ""), 0u);
  EXPECT_EQ(EditDistance("OACONTROL", "OACONTROL"), 0u);
  EXPECT_EQ(EditDistance("OACONTROL", "oacontrol"), 0u);  // case does not count
  EXPECT_EQ(EditDistance("OACONTROL", "OACONTRL"), 1u);
  EXPECT_EQ(EditDistance("OASTATUS1", "OASTATUS2"), 1u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(EditDistance("", "GTIIR"), 5u);
  EXPECT_EQ(EditDistance("ABCDEFGH", "ZYXWVUTS"), 8u);
}

TEST(SpellingTest, ClosestMatchPicksTheNearestWithinReach) {
  std::vector<std::string_view> names{"OASTATUS", "OASTATUS2", "OAHEADPTR", "OATAILPTR", "OACONTROL"};
  EXPECT_EQ(ClosestMatch("OASTATUS22", names), "OASTATUS2");  // 1 away; OASTATUS is 2
  EXPECT_EQ(ClosestMatch("OASTATUS3", names), "OASTATUS");    // 1 away from both: the first
  EXPECT_EQ(ClosestMatch("OATAILPTER", names), "OATAILPTR");
  EXPECT_EQ(ClosestMatch("oaheadptr", names), "OAHEADPTR");
  EXPECT_EQ(ClosestMatch("GTIIR", names), std::nullopt);  // nothing close
  EXPECT_EQ(DidYouMean("OACONTRL", names), " (did you mean 'OACONTROL'?)");
  EXPECT_EQ(DidYouMean("XYZ", names), "");
}

// Many far candidates and one near one, as an unknown name in a database
// of 10,000 registers: the near one is found.
TEST(SpellingTest, ClosestMatchAmongManyFarCandidates) {
  std::vector<std::string> storage;
  for (int i = 0; i < 10000; ++i) storage.push_back("NOA_MUX_" + std::to_string(i * 7919));
  storage.push_back("GEN11_GT_INTR_DW0");
  std::vector<std::string_view> names(storage.begin(), storage.end());
  EXPECT_EQ(ClosestMatch("GEN11_GT_INTR_DW1", names), "GEN11_GT_INTR_DW0");
}

// EditDistance (bit-parallel up to 64 characters) against the textbook
// dynamic programme, on random words over a small alphabet (so that
// matches are common), of every length up to 70.
size_t ReferenceDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) == std::tolower(static_cast<unsigned char>(b[j - 1]));
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same ? 0 : 1)});
    }
  }
  return d[a.size()][b.size()];
}

TEST(SpellingTest, EditDistanceAgreesWithTheTextbookProgramme) {
  std::mt19937 random(12345);  // fixed: the same words every run
  auto word = [&](size_t length) {
    std::string text;
    for (size_t i = 0; i < length; ++i) text += "abcAB_"[random() % 6];
    return text;
  };
  for (size_t la = 0; la <= 70; ++la) {
    for (int trial = 0; trial < 8; ++trial) {
      std::string a = word(la), b = word(random() % 71);
      ASSERT_EQ(EditDistance(a, b), ReferenceDistance(a, b)) << "'" << a << "' vs '" << b << "'";
      ASSERT_EQ(EditDistance(b, a), ReferenceDistance(a, b)) << "'" << b << "' vs '" << a << "'";
    }
  }
}

// ClosestMatch stops on each candidate as soon as it cannot beat the best
// so far: it still picks what a full comparison of every distance picks.
TEST(SpellingTest, ClosestMatchAgreesWithComparingEveryDistance) {
  std::mt19937 random(54321);
  auto word = [&](size_t length) {
    std::string text;
    for (size_t i = 0; i < length; ++i) text += "abcd"[random() % 4];
    return text;
  };
  for (int trial = 0; trial < 300; ++trial) {
    std::string target = word(random() % 20);
    std::vector<std::string> storage;
    for (int i = 0; i < 40; ++i) storage.push_back(word(random() % 20));
    std::vector<std::string_view> names(storage.begin(), storage.end());
    std::optional<std::string> expected;
    size_t best = std::max<size_t>(2, target.size() / 3) + 1;
    for (const std::string& name : storage) {
      if (size_t d = ReferenceDistance(target, name); d < best) {
        best = d;
        expected = name;
      }
    }
    ASSERT_EQ(ClosestMatch(target, names), expected) << "'" << target << "'";
  }
}

}  // namespace
}  // namespace regemu::regdb
