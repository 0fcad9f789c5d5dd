// The page-list walk behind `kind: ring`'s `data:` (NVMe's PRP entries and
// lists, NVM Express Base Specification 2.0c §4.1.1), on its own: which
// memory ranges hold a command's data, and each way a list is malformed.
#include <cstdint>
#include <map>
#include <ostream>
#include <span>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/behaviours/page_list.hpp"

namespace regemu::emulator {

void PrintTo(const MemorySegment& s, std::ostream* os) {
  *os << "{0x" << std::hex << s.address << ", 0x" << s.bytes << std::dec << "}";
}

namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// List pages in a sparse memory of 8-byte entries.
class PageListTest : public ::testing::Test {
 protected:
  void Entry(uint64_t address, uint64_t value) { memory_[address] = value; }
  PageListWalk Walk(uint64_t first, uint64_t second, uint64_t page, uint64_t bytes) {
    reads_ = 0;
    return WalkPageList(first, second, page, bytes, [&](uint64_t address, std::span<uint8_t> out) {
      ++reads_;
      for (size_t i = 0; i < out.size(); i += 8) {
        uint64_t value = memory_.count(address + i) ? memory_[address + i] : 0;
        for (size_t b = 0; b < 8; ++b) out[i + b] = static_cast<uint8_t>(value >> (8 * b));
      }
    });
  }
  std::map<uint64_t, uint64_t> memory_;
  int reads_ = 0;
};

TEST_F(PageListTest, DataInsideTheFirstPageNeedsOnlyTheFirstEntry) {
  EXPECT_THAT(Walk(0x10100, 0xDEAD000, 0x1000, 0x200).segments, ElementsAre(MemorySegment{0x10100, 0x200}));
  EXPECT_EQ(reads_, 0) << "the second entry is not used, not even read";
}

TEST_F(PageListTest, DataSpanningTwoPagesUsesTheSecondEntryAsThePage) {
  EXPECT_THAT(Walk(0x10800, 0x20000, 0x1000, 0x1000).segments,
              ElementsAre(MemorySegment{0x10800, 0x800}, MemorySegment{0x20000, 0x800}));
}

TEST_F(PageListTest, MoreThanTwoPagesMakeTheSecondEntryAListPointer) {
  Entry(0x40000, 0x31000);
  Entry(0x40008, 0x33000);
  Entry(0x40010, 0x35000);
  PageListWalk walk = Walk(0x30800, 0x40000, 0x1000, 0x3000);
  EXPECT_EQ(walk.error, "");
  EXPECT_THAT(walk.segments, ElementsAre(MemorySegment{0x30800, 0x800}, MemorySegment{0x31000, 0x1000},
                                         MemorySegment{0x33000, 0x1000}, MemorySegment{0x35000, 0x800}));
}

TEST_F(PageListTest, AListPointerWithAnOffsetStartsThereAndAFullListPageChainsThroughItsLastEntry) {
  // 64-byte pages: a list page holds 8 entries; starting at offset 0x30
  // leaves room for 2, so the first list page carries one data page and
  // the chain pointer.
  Entry(0x1030, 0x2000);
  Entry(0x1038, 0x3000);  // the next list page
  Entry(0x3000, 0x2040);
  Entry(0x3008, 0x2080);
  PageListWalk walk = Walk(0x5000, 0x1030, 64, 64 * 4);
  EXPECT_EQ(walk.error, "");
  EXPECT_THAT(walk.segments, ElementsAre(MemorySegment{0x5000, 64}, MemorySegment{0x2000, 64},
                                         MemorySegment{0x2040, 64}, MemorySegment{0x2080, 64}));
  EXPECT_EQ(reads_, 2);
}

TEST_F(PageListTest, NothingToMoveIsNoSegment) {
  PageListWalk walk = Walk(0x3, 0x5, 0x1000, 0);
  EXPECT_THAT(walk.segments, IsEmpty());
  EXPECT_EQ(walk.error, "");
}

TEST_F(PageListTest, EachMalformedEntryIsRefusedWithWhatIsWrong) {
  EXPECT_THAT(Walk(0x10002, 0, 0x1000, 4).error, HasSubstr("not dword aligned"));
  EXPECT_THAT(Walk(0x10800, 0x20010, 0x1000, 0x1000).error, HasSubstr("its offset must be 0"));
  EXPECT_THAT(Walk(0x10000, 0x40004, 0x1000, 0x3000).error, HasSubstr("not qword aligned"));
  Entry(0x40000, 0x31000);
  Entry(0x40008, 0x33010);
  PageListWalk bad = Walk(0x10000, 0x40000, 0x1000, 0x3000);
  EXPECT_THAT(bad.error, HasSubstr("list entry 1 at 0x40008 is 0x33010"));
  EXPECT_THAT(bad.segments, IsEmpty());
  Entry(0x1038, 0x3010);  // a chain pointer with an offset
  EXPECT_THAT(Walk(0x5000, 0x1030, 64, 64 * 4).error, HasSubstr("next list page"));
  EXPECT_THAT(Walk(0x5000, 0x1030, 48, 64).error, HasSubstr("power of two"));
  EXPECT_THAT(Walk(0x5000, 0x1030, 8, 64).error, HasSubstr("power of two of 16 or more"));
}

}  // namespace
}  // namespace regemu::emulator
