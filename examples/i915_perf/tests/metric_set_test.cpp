// The RenderBasic tables generated from the replay scripts: the list sizes
// and the entries of IGT's oa-*.xml, and the order
// WriteRegList writes them in.
#include "examples/i915_perf/metric_set.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace regemu::i915_perf {
namespace {

using ::testing::ElementsAre;
using ::testing::FieldsAre;
using ::testing::IsEmpty;

TEST(MetricSetTest, IclRenderBasicIsIgtsList) {
  MetricSet set = IclRenderBasic();
  EXPECT_EQ(set.name, "RenderBasic");
  ASSERT_EQ(set.mux.size(), 61u);
  EXPECT_THAT(set.mux.front(), FieldsAre(0x0D04u, 0x00000200u));
  EXPECT_THAT(set.mux[32], FieldsAre(0x9884u, 0x00000003u));  // GEN10_NOA_WRITE_HIGH switched mid-list
  EXPECT_THAT(set.mux.back(), FieldsAre(0x9888u, 0x421F4001u));
  EXPECT_THAT(set.b_counter, ElementsAre(FieldsAre(0x2740u, 0u), FieldsAre(0x2710u, 0u), FieldsAre(0x2714u, 0x00800000u),
                                         FieldsAre(0x2720u, 0u), FieldsAre(0x2724u, 0x00800000u)));
  EXPECT_THAT(set.flex, ElementsAre(FieldsAre(0xE65Cu, 0xFFFFFFFFu), FieldsAre(0xE458u, 0x00005004u),
                                    FieldsAre(0xE558u, 0x00010003u), FieldsAre(0xE658u, 0x00012011u),
                                    FieldsAre(0xE758u, 0x00051050u), FieldsAre(0xE45Cu, 0x00000052u)));
}

TEST(MetricSetTest, HswRenderBasicIsIgtsList) {
  MetricSet set = HswRenderBasic();
  ASSERT_EQ(set.mux.size(), 62u);
  EXPECT_THAT(set.mux.front(), FieldsAre(0x9840u, 0x00000080u));
  EXPECT_THAT(set.mux[59], FieldsAre(0x25428u, 0x00042049u));
  EXPECT_THAT(set.mux[60], FieldsAre(0x91BCu, 0xE0400000u));
  EXPECT_THAT(set.mux[61], FieldsAre(0x91C4u, 0xE4500000u));
  EXPECT_THAT(set.b_counter, ElementsAre(FieldsAre(0x2724u, 0x00800000u), FieldsAre(0x2720u, 0u),
                                         FieldsAre(0x2714u, 0x00800000u), FieldsAre(0x2710u, 0u)));
  EXPECT_THAT(set.flex, IsEmpty());
}

struct RecordingIo {
  uint64_t Read(uint64_t, unsigned) { return 0; }
  void Write(uint64_t offset, unsigned width, uint64_t value) { writes.push_back({offset, width, value}); }
  struct Access {
    uint64_t offset;
    unsigned width;
    uint64_t value;
  };
  std::vector<Access> writes;
};

TEST(MetricSetTest, WriteRegListWritesEachEntryInOrder) {
  const RegWrite list[] = {{0x9888, 1}, {0x9884, 3}, {0x9888, 2}};
  RecordingIo io;
  WriteRegList(io, list);
  EXPECT_THAT(io.writes, ElementsAre(FieldsAre(0x9888u, 32u, 1u), FieldsAre(0x9884u, 32u, 3u),
                                     FieldsAre(0x9888u, 32u, 2u)));
}

}  // namespace
}  // namespace regemu::i915_perf
