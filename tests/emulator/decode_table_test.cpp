// DecodeTable (emulator/decode_table.hpp): offset → register id in constant
// time, over 4-byte granules (bytes shared by narrow registers get a
// per-byte slot) or over indices in MSR spaces; and the limit Compile
// enforces for it (the first 16 GiB, or 2^32 MSR indices).
#include <cstdint>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/decode_table.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

constexpr uint32_t kNone = DecodeTable::kNone;

struct Claim {
  uint64_t first;
  uint64_t extent;
  uint32_t id;
};

// Adds `claims` and checks that every byte (index) of each claim decodes to
// its id and that the byte just before and just after decodes to kNone
// unless another claim holds it.
void ExpectDecodes(DecodeTable& table, const std::vector<Claim>& claims) {
  for (const Claim& c : claims) table.Add(c.first, c.extent, c.id);
  auto owner = [&claims](uint64_t offset) {
    for (const Claim& c : claims) {
      if (offset >= c.first && offset - c.first < c.extent) return c.id;
    }
    return kNone;
  };
  for (const Claim& c : claims) {
    for (uint64_t offset = c.first; offset < c.first + c.extent; ++offset) {
      EXPECT_EQ(table.Lookup(offset), c.id) << "at " << std::hex << offset;
    }
    if (c.first > 0) {
      EXPECT_EQ(table.Lookup(c.first - 1), owner(c.first - 1)) << "before " << std::hex << c.first;
    }
    EXPECT_EQ(table.Lookup(c.first + c.extent), owner(c.first + c.extent))
        << "after " << std::hex << c.first + c.extent - 1;
  }
}

// An empty table decodes nothing, anywhere.
TEST(DecodeTableTest, EmptyTableDecodesNothing) {
  DecodeTable table;
  for (uint64_t offset : {uint64_t{0}, uint64_t{3}, uint64_t{0x1000}, uint64_t{0x3'FFFF'FFFF}, ~uint64_t{0}}) {
    EXPECT_EQ(table.Lookup(offset), kNone) << std::hex << offset;
  }
  DecodeTable indexed(/*indexed=*/true);
  EXPECT_EQ(indexed.Lookup(0), kNone);
  EXPECT_EQ(indexed.Lookup(0xC0000080), kNone);
}

// A register at offset 0 covers bytes 0..3 only.
TEST(DecodeTableTest, RegisterAtZero) {
  DecodeTable table;
  ExpectDecodes(table, {{0x0, 4, 0}});
  EXPECT_EQ(table.Lookup(4), kNone);
}

// Registers far apart, at a GPU engine base and just below 16 GiB, decode
// without filling what lies between (and far past them nothing decodes).
TEST(DecodeTableTest, HighOffsets) {
  DecodeTable table;
  ExpectDecodes(table, {{0x1D0000, 4, 1}, {0x3'FFFF'FFF0, 8, 2}, {0x3'FFFF'FFFC, 4, 3}});
  EXPECT_EQ(table.Lookup(0x2'0000'0000), kNone);
  EXPECT_EQ(table.Lookup(0x4'0000'0000), kNone);
  EXPECT_EQ(table.Lookup(0x1D0000 + (uint64_t{1} << 34)), kNone) << "no aliasing past the table";
  EXPECT_LT(table.memory_bytes(), size_t{64} << 10) << "sparse: only the used parts have tables";
}

// 8-bit registers share a granule through a per-byte slot; the byte no
// register claims stays kNone.
TEST(DecodeTableTest, NarrowNeighboursShareAGranule) {
  DecodeTable table;
  ExpectDecodes(table, {{0x8, 1, 10}, {0x9, 1, 11}, {0xB, 1, 12}, {0xC, 2, 13}, {0xE, 1, 14}});
  EXPECT_EQ(table.Lookup(0xA), kNone);
  EXPECT_EQ(table.Lookup(0xF), kNone);
}

// A 16-bit register alone in its granule, between two 32-bit registers,
// leaves the other half of the granule undecoded.
TEST(DecodeTableTest, HalfGranuleNextToWholeGranule) {
  DecodeTable table;
  ExpectDecodes(table, {{0x10, 4, 1}, {0x14, 2, 2}, {0x18, 4, 3}});
  EXPECT_EQ(table.Lookup(0x16), kNone);
}

// A 64-bit register spans two granules.
TEST(DecodeTableTest, SixtyFourBitRegisterSpansTwoGranules) {
  DecodeTable table;
  ExpectDecodes(table, {{0x20, 8, 7}});
  EXPECT_EQ(table.Lookup(0x24), 7u);
  EXPECT_EQ(table.Lookup(0x1F), kNone);
  EXPECT_EQ(table.Lookup(0x28), kNone);
}

// Registers that straddle a leaf (1024 granules) and a mid table (2^20
// granules) boundary decode on both sides.
TEST(DecodeTableTest, RegistersAcrossTableBoundaries) {
  DecodeTable table;
  ExpectDecodes(table, {{0xFFC, 8, 1}, {(uint64_t{1} << 22) - 4, 8, 2}});
}

// In indexed (MSR) mode an offset is an index, each index its own entry:
// index 0xC0000080 decodes, its neighbours do not, and index 2^32 - 1 works.
TEST(DecodeTableTest, IndexedMode) {
  DecodeTable table(/*indexed=*/true);
  ExpectDecodes(table, {{0x10, 1, 1}, {0x11, 1, 2}, {0xC0000080, 1, 3}, {0xFFFF'FFFF, 1, 4}});
  EXPECT_EQ(table.Lookup(0x12), kNone);
  EXPECT_EQ(table.Lookup(0x1'0000'0000), kNone);
}

// ----------------------------------------------------------- the Compile limit

std::string DeviceWithRegisterAt(const std::string& space, const std::string& offset, unsigned width) {
  return "device: big\n"
         "spaces:\n"
         "  - {name: mmio, kind: mmio, size: 0x8000000000}\n"
         "  - {name: msr, kind: msr, size: 0x200000000}\n"
         "registers:\n"
         "  - {name: R, space: " +
         space + ", offset: " + offset + ", width: " + std::to_string(width) + "}\n";
}

CompileResult CompileText(const std::string& yaml) {
  regdb::LoadedDatabase loaded = regdb::testing_support::CheckYaml(yaml);
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << regdb::testing_support::Rendered(loaded);
  return Compile(loaded.database);
}

// Registers in the last granule of the first 16 GiB, and at the last of the
// first 2^32 MSR indices, compile and decode (README: "Registers must lie in
// the first 16 GiB of a byte-addressed space (2^32 indices of an MSR space)").
TEST(DecodeTableLimitTest, LastGranuleAndLastIndexCompile) {
  for (auto [space, offset, width] : {std::tuple{"mmio", "0x3FFFFFFF0", 64u}, std::tuple{"mmio", "0x3FFFFFFFC", 32u},
                                      std::tuple{"msr", "0xFFFFFFFF", 64u}}) {
    SCOPED_TRACE(std::string(space) + " " + offset);
    CompileResult result = CompileText(DeviceWithRegisterAt(space, offset, width));
    EXPECT_THAT(result.errors, IsEmpty());
    ASSERT_NE(result.model, nullptr);
    uint64_t at = std::stoull(offset, nullptr, 16);
    EXPECT_EQ(result.model->Decode(*result.model->FindSpace(space), at), 0u);
  }
}

// One byte or index further is past what the tables cover: Compile says so.
TEST(DecodeTableLimitTest, PastTheLimitIsACompileError) {
  for (auto [space, offset, width] : {std::tuple{"mmio", "0x400000000", 32u}, std::tuple{"mmio", "0x400000000", 8u},
                                      std::tuple{"msr", "0x100000000", 64u}}) {
    SCOPED_TRACE(std::string(space) + " " + offset);
    CompileResult result = CompileText(DeviceWithRegisterAt(space, offset, width));
    EXPECT_EQ(result.model, nullptr);
    ASSERT_THAT(result.errors, SizeIs(1));
    EXPECT_THAT(result.errors[0], HasSubstr("'R'"));
  }
}

}  // namespace
}  // namespace regemu::emulator
