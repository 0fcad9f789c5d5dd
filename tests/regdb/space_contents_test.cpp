// A memory space's `contents:` (yaml/README.md, "spaces"): the bytes it
// holds from reset, checked at load, each mistake at its line.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::CheckYaml;
using testing_support::Rendered;

std::string WithContents(const std::string& items, const std::string& kind = "memory") {
  return "device: rom\nspaces:\n  - name: rom\n    kind: " + kind + "\n    size: 0x40\n    contents:\n" + items;
}

TEST(SpaceContentsTest, ValuesTextAndBytesBecomeTheSpacesBytesInOffsetOrder) {
  LoadedDatabase loaded = CheckYaml(WithContents(
      "      - {offset: 0x10, text: \"AB\", size: 4, pad: 0x20}\n"
      "      - {offset: 0x0, width: 16, value: 0x1B36}\n"
      "      - {offset: 0x20, bytes: [1, 2, 3]}\n"
      "      - {offset: 0x30, text: \"xyz\"}\n"));
  ASSERT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const auto& contents = loaded.database.spaces[0].contents;
  ASSERT_EQ(contents.size(), 4u);
  EXPECT_EQ(contents[0].offset, 0x0u);
  EXPECT_THAT(contents[0].bytes, ElementsAre(0x36, 0x1B)) << "little-endian";
  EXPECT_THAT(contents[1].bytes, ElementsAre('A', 'B', ' ', ' ')) << "padded to its size";
  EXPECT_THAT(contents[2].bytes, ElementsAre(1, 2, 3));
  EXPECT_THAT(contents[3].bytes, ElementsAre('x', 'y', 'z')) << "no size: the text's own";
}

TEST(SpaceContentsTest, EachMistakeIsAnErrorAtItsLine) {
  auto rendered = [](const std::string& yaml) { return Rendered(CheckYaml(yaml)); };
  EXPECT_THAT(rendered(WithContents("      - {offset: 0x3E, width: 32, value: 1}\n")),
              HasSubstr(":7:18: error: contents of space 'rom': 4 bytes at 0x3e run past the end of the space"));
  EXPECT_THAT(rendered(WithContents("      - {offset: 0, text: \"too long\", size: 4}\n")),
              HasSubstr("the text is 8 bytes, more than its size 4"));
  EXPECT_THAT(rendered(WithContents("      - {offset: 0, width: 8, value: 0x100}\n")),
              HasSubstr("0x100 does not fit 8 bits"));
  EXPECT_THAT(rendered(WithContents("      - {offset: 0, value: 1, bytes: [1]}\n")),
              HasSubstr("exactly one of `value`"));
  EXPECT_THAT(rendered(WithContents("      - {offset: 0, text: \"a\", width: 8}\n")),
              HasSubstr("`width` goes with `value`"));
  EXPECT_THAT(rendered(WithContents("      - {offset: 0, bytes: [1, 2, 3, 4]}\n      - {offset: 2, bytes: [9]}\n")),
              HasSubstr(":8:9: error: contents of space 'rom': the item at 0x2 overlaps the one at 0x0 (4 bytes)"));
  EXPECT_THAT(rendered(WithContents("      - {offset: 0, bytes: [1]}\n", "mmio")),
              HasSubstr("contents are only for memory spaces (space 'rom')"));
}

}  // namespace
}  // namespace regemu::regdb
