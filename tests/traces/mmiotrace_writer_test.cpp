// The mmiotrace writer: each record exactly as kernel/trace/trace_mmiotrace.c
// prints it (Linux kernel/trace/trace_mmiotrace.c), and which device trace entries become records.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "tools/traces/mmiotrace_writer.hpp"

namespace regemu::traces {
namespace {

using emulator::TraceEntry;
using emulator::TraceOp;
using emulator::TraceOutcome;
using ::testing::Optional;

class MmiotraceWriterTest : public ::testing::Test {
 protected:
  std::ostringstream out_;
  MmiotraceWriter writer_{out_};
};

TEST_F(MmiotraceWriterTest, VersionIsTheFormatOf2007) {
  writer_.Version();
  EXPECT_EQ(out_.str(), "VERSION 20070824\n");
}

// "PCIDEV %02x%02x %04x%04x %x", 7 x " %llx" start|flags, 7 x " %llx" size,
// then " %s\n" with the driver.
TEST_F(MmiotraceWriterTest, PciDevPadsOnlyBusDevfnVendorAndDevice) {
  MmiotracePciDevice device;
  device.bus = 0;
  device.devfn = 0x10;
  device.vendor = 0x8086;
  device.device = 0x8A52;
  device.irq = 0x8b;
  device.bar_start_flags = {0xa0000004, 0, 0xb000000c, 0, 0x3001, 0, 0};
  device.bar_size = {0x1000000, 0, 0x10000000, 0, 0x40, 0, 0};
  device.driver = "i915";
  writer_.PciDev(device);
  EXPECT_EQ(out_.str(), "PCIDEV 0010 80868a52 8b a0000004 0 b000000c 0 3001 0 0 1000000 0 10000000 0 40 0 0 i915\n");
}

// With no driver bound the kernel prints " \n": the line ends in a blank.
TEST_F(MmiotraceWriterTest, PciDevWithoutDriverEndsInABlank) {
  MmiotracePciDevice device;
  device.bus = 0x3;
  device.devfn = 0x1;
  device.vendor = 0x1002;
  device.device = 0x740c;
  writer_.PciDev(device);
  EXPECT_EQ(out_.str(), "PCIDEV 0301 1002740c 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \n");
}

TEST_F(MmiotraceWriterTest, MapAndUnmap) {
  writer_.Map(2'000'000'000, {.map_id = 1, .phys = 0xa0000000, .virt = 0xffffc90002000000, .len = 0x200000});
  writer_.Unmap(3'500'001'000, 1);
  EXPECT_EQ(out_.str(),
            "MAP 2.000000 1 0xa0000000 0xffffc90002000000 0x200000 0x0 0\n"
            "UNMAP 3.500001 1 0x0 0\n");
}

TEST_F(MmiotraceWriterTest, ReadAndWriteRecordsInHexWithoutLeadingZeros) {
  writer_.Access({.direction = MmiotraceDirection::kRead, .width_bytes = 4, .time_ns = 1'500'000, .map_id = 1,
                  .phys = 0xa0190010, .value = 0x00000003, .pc = 0});
  writer_.Access({.direction = MmiotraceDirection::kWrite, .width_bytes = 1, .time_ns = 12'000'000'000, .map_id = 2,
                  .phys = 0xa000a278, .value = 0, .pc = 0xffffffffc0a1b2c3});
  writer_.Access({.direction = MmiotraceDirection::kWrite, .width_bytes = 8, .time_ns = 7, .map_id = 3,
                  .phys = 0x000000f000000008, .value = 0x00000000deadbeef, .pc = 0});
  EXPECT_EQ(out_.str(),
            "R 4 0.001500 1 0xa0190010 0x3 0x0 0\n"
            "W 1 12.000000 2 0xa000a278 0x0 0xffffffffc0a1b2c3 0\n"
            "W 8 0.000000 3 0xf000000008 0xdeadbeef 0x0 0\n");
}

TEST_F(MmiotraceWriterTest, AnAccessOfNoCpuWidthIsRefused) {
  MmiotraceAccess access;
  access.width_bytes = 3;
  EXPECT_THROW(writer_.Access(access), std::invalid_argument);
  access.width_bytes = 0;
  EXPECT_THROW(writer_.Access(access), std::invalid_argument);
  EXPECT_EQ(out_.str(), "");
}

TEST_F(MmiotraceWriterTest, MarkRunsToTheEndOfTheLine) {
  writer_.Mark(1'000, "irq: gen11_irq_handler");
  EXPECT_EQ(out_.str(), "MARK 0.000001 irq: gen11_irq_handler\n");
}

TEST_F(MmiotraceWriterTest, AMarkWithANewlineIsRefused) {
  EXPECT_THROW(writer_.Mark(0, "two\nrecords"), std::invalid_argument);
  EXPECT_EQ(out_.str(), "");
}

// ns2usecs(): (ns + 500) / 1000, then "%u.%06lu".
TEST(MmiotraceTimestamp, RoundsToTheNearestMicrosecondWithSixDigits) {
  EXPECT_EQ(MmiotraceTimestamp(0), "0.000000");
  EXPECT_EQ(MmiotraceTimestamp(499), "0.000000");
  EXPECT_EQ(MmiotraceTimestamp(500), "0.000001");
  EXPECT_EQ(MmiotraceTimestamp(1'234'567'890), "1.234568");
  EXPECT_EQ(MmiotraceTimestamp(999'999'500), "1.000000");  // the rounding carries into the seconds
  EXPECT_EQ(MmiotraceTimestamp(42'000'010'000), "42.000010");
  EXPECT_EQ(MmiotraceTimestamp(UINT64_MAX), "18446744073.709552");  // no wrap at the top
}

// ------------------------------------------------------- from device entries

constexpr emulator::SpaceId kMmio = 1;
constexpr emulator::SpaceId kConfig = 0;
const MmiotraceMapping kBar0{.map_id = 1, .phys = 0xa0000000, .virt = 0xffffc90002000000, .len = 0x200000};

TraceEntry Entry(TraceOp op, emulator::SpaceId space, uint64_t offset, uint8_t width, uint64_t value) {
  TraceEntry entry;
  entry.sequence = 7;
  entry.time_ns = 2'500;
  entry.op = op;
  entry.space = space;
  entry.offset = offset;
  entry.width = width;
  entry.value = value;
  return entry;
}

TEST(ToMmiotraceAccess, AFrontdoorReadIsAnRAtTheBarPlusItsOffsetWidthInBytes) {
  std::optional<MmiotraceAccess> access =
      ToMmiotraceAccess(Entry(TraceOp::kRead, kMmio, 0x190010, 32, 3), kMmio, kBar0);
  ASSERT_TRUE(access.has_value());
  EXPECT_EQ(access->direction, MmiotraceDirection::kRead);
  EXPECT_EQ(access->width_bytes, 4u);
  EXPECT_EQ(access->time_ns, 2'500u);
  EXPECT_EQ(access->map_id, 1u);
  EXPECT_EQ(access->phys, 0xa0190010u);
  EXPECT_EQ(access->value, 3u);
  EXPECT_EQ(access->pc, 0u);
}

TEST(ToMmiotraceAccess, AFrontdoorWriteIsAW) {
  std::optional<MmiotraceAccess> access =
      ToMmiotraceAccess(Entry(TraceOp::kWrite, kMmio, 0xa278, 16, 0x1), kMmio, kBar0);
  ASSERT_TRUE(access.has_value());
  EXPECT_EQ(access->direction, MmiotraceDirection::kWrite);
  EXPECT_EQ(access->width_bytes, 2u);
  EXPECT_EQ(access->phys, 0xa000a278u);
}

// The bus saw the access even when the device refused it.
TEST(ToMmiotraceAccess, ARefusedAccessIsStillOnTheBus) {
  TraceEntry entry = Entry(TraceOp::kWrite, kMmio, 0x2038, 32, 0x100000);
  entry.outcome = TraceOutcome::kDropped;
  EXPECT_THAT(ToMmiotraceAccess(entry, kMmio, kBar0), Optional(::testing::Field(&MmiotraceAccess::phys, 0xa0002038u)));
}

TEST(ToMmiotraceAccess, BackdoorClockAndResetEntriesAreNotAccesses) {
  for (TraceOp op : {TraceOp::kPeek, TraceOp::kPoke, TraceOp::kStep, TraceOp::kReset}) {
    EXPECT_EQ(ToMmiotraceAccess(Entry(op, kMmio, 0x190010, 32, 0), kMmio, kBar0), std::nullopt)
        << static_cast<int>(op);
  }
}

TEST(ToMmiotraceAccess, OtherSpacesAreNotInTheMapping) {
  EXPECT_EQ(ToMmiotraceAccess(Entry(TraceOp::kRead, kConfig, 0x0, 32, 0x8a528086), kMmio, kBar0), std::nullopt);
}

TEST(ToMmiotraceAccess, AWidthNoCpuHasIsLeftOut) {
  EXPECT_EQ(ToMmiotraceAccess(Entry(TraceOp::kRead, kMmio, 0x0, 12, 0), kMmio, kBar0), std::nullopt);
  EXPECT_EQ(ToMmiotraceAccess(Entry(TraceOp::kRead, kMmio, 0x0, 0, 0), kMmio, kBar0), std::nullopt);
}

}  // namespace
}  // namespace regemu::traces
