// `memory` spaces are RAM wherever no register or range decodes (yaml/README.md
// "spaces"): graphics memory behind the GGTT, where an OA unit writes its
// reports and tests read them through the backdoor. Bytes never written
// read 0; pages are allocated on first write and shared with snapshots
// until written (emulator/memory_store.hpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/memory_store.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::SpaceNamed;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kDevice = R"(device: ram
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
  - {name: ggtt, kind: memory, size: 0x4000000, doc: "64 MiB of graphics memory"}
registers:
  - {name: MAILBOX, space: ggtt, offset: 0x100, reset: 0xAB}
ranges:
  - {name: HOLE, space: ggtt, base: 0x2000, size: 0x1000, kind: reserved}
)";

class MemorySpaceTest : public ::testing::Test {
 protected:
  MemorySpaceTest() : device_(MakeDevice(kDevice)) {
    mmio_ = SpaceNamed(device_->model(), "mmio");
    ggtt_ = SpaceNamed(device_->model(), "ggtt");
  }

  std::unique_ptr<Device> device_;
  SpaceId mmio_ = 0;
  SpaceId ggtt_ = 0;
};

TEST_F(MemorySpaceTest, FrontdoorWritesAreKeptLittleEndianAndReadBackAtAnyWidth) {
  device_->Write(ggtt_, 0x3FF0000, 64, 0x1122334455667788);
  EXPECT_EQ(device_->Read(ggtt_, 0x3FF0000, 64), 0x1122334455667788u);
  EXPECT_EQ(device_->Read(ggtt_, 0x3FF0004, 32), 0x11223344u);
  EXPECT_EQ(device_->Read(ggtt_, 0x3FF0002, 16), 0x5566u);
  EXPECT_EQ(device_->Read(ggtt_, 0x3FF0007, 8), 0x11u);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
  EXPECT_EQ(device_->Trace().back().outcome, TraceOutcome::kOk);
}

TEST_F(MemorySpaceTest, BytesNeverWrittenReadZeroAndCostNoMemory) {
  EXPECT_EQ(device_->Read(ggtt_, 0x1000, 32), 0u);
  EXPECT_EQ(device_->Peek(ggtt_, 0x3FFFFF8, 64), 0u);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
}

// Registers and ranges in a memory space decode first; RAM is what is left.
TEST_F(MemorySpaceTest, RegistersAndRangesDecodeBeforeRam) {
  EXPECT_EQ(device_->Read(ggtt_, 0x100, 32), 0xABu);
  device_->Write(ggtt_, 0x2010, 32, 0xFFFFFFFF);  // reserved: ignored
  EXPECT_EQ(device_->Read(ggtt_, 0x2010, 32), 0u);
  std::array<uint8_t, 4> bytes{};
  device_->ReadMemory(ggtt_, 0x2010, bytes);
  EXPECT_THAT(bytes, ElementsAre(0, 0, 0, 0));
  // A 64-bit write half on the register, half on RAM.
  device_->Write(ggtt_, 0x100, 64, 0x0000'00CC'0000'0012);
  EXPECT_EQ(device_->PeekRegister(*device_->model().FindRegister("MAILBOX")), 0x12u);
  EXPECT_EQ(device_->Peek(ggtt_, 0x104, 32), 0xCCu);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
}

TEST_F(MemorySpaceTest, BackdoorBulkAccessCrossesPages) {
  std::vector<uint8_t> report(256);
  std::iota(report.begin(), report.end(), uint8_t{1});
  uint64_t at = 5 * MemoryStore::kPageBytes - 100;  // spans a page boundary
  device_->WriteMemory(ggtt_, at, report);
  std::vector<uint8_t> back(256);
  device_->ReadMemory(ggtt_, at, back);
  EXPECT_EQ(back, report);
  EXPECT_EQ(device_->Read(ggtt_, at, 32), 0x04030201u);
  EXPECT_EQ(device_->Peek(ggtt_, at + 252, 32), 0x00FFFEFDu);  // bytes 253, 254, 255, 0
}

TEST_F(MemorySpaceTest, PokeAndPeekReachRam) {
  EXPECT_TRUE(device_->Poke(ggtt_, 0x3000, 32, 0xDEADBEEF));
  EXPECT_EQ(device_->Peek(ggtt_, 0x3000, 32), 0xDEADBEEFu);
  EXPECT_EQ(device_->Read(ggtt_, 0x3002, 16), 0xDEADu);
}

// Misuse of the bulk API is a documented error, never UB.
TEST_F(MemorySpaceTest, BulkAccessOutsideAMemorySpaceThrows) {
  std::array<uint8_t, 8> bytes{};
  EXPECT_THROW(device_->ReadMemory(mmio_, 0, bytes), std::invalid_argument);
  EXPECT_THROW(device_->ReadMemory(ggtt_, 0x3FFFFFC, bytes), std::out_of_range);
  EXPECT_THROW(device_->WriteMemory(ggtt_, ~uint64_t{0}, bytes), std::out_of_range);
}

// A frontdoor access past the end is `unclaimed`, as in any space.
TEST_F(MemorySpaceTest, FrontdoorAccessPastTheEndIsUnclaimed) {
  device_->Write(ggtt_, 0x4000000, 32, 1);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kUnclaimed));
}

// A snapshot keeps the bytes it saw; writes after it do not reach it, and
// restoring brings them back.
TEST_F(MemorySpaceTest, SnapshotsKeepMemoryCopyOnWrite) {
  device_->Write(ggtt_, 0x8000, 32, 0x11111111);
  DeviceSnapshot snapshot = device_->Snapshot();
  device_->Write(ggtt_, 0x8000, 32, 0x22222222);
  device_->Write(ggtt_, 0x9000, 32, 0x33333333);
  device_->Restore(snapshot);
  EXPECT_EQ(device_->Read(ggtt_, 0x8000, 32), 0x11111111u);
  EXPECT_EQ(device_->Read(ggtt_, 0x9000, 32), 0u);
  device_->Write(ggtt_, 0x8000, 32, 0x44444444);  // the restored page is shared with the snapshot
  device_->Restore(snapshot);
  EXPECT_EQ(device_->Read(ggtt_, 0x8000, 32), 0x11111111u);
}

TEST_F(MemorySpaceTest, ResetClearsMemory) {
  device_->Write(ggtt_, 0x8000, 32, 0x11111111);
  device_->Reset();
  EXPECT_EQ(device_->Read(ggtt_, 0x8000, 32), 0u);
  device_->Write(ggtt_, 0x8004, 32, 0x55555555);  // the page written last before the reset, anew
  EXPECT_EQ(device_->Read(ggtt_, 0x8000, 32), 0u);
  EXPECT_EQ(device_->Read(ggtt_, 0x8004, 32), 0x55555555u);
}

TEST(MemoryStoreTest, AllocatesAPageOnFirstWriteAndSharesItWithCopies) {
  MemoryStore store;
  EXPECT_EQ(store.Load(0x12345, 4), 0u);
  EXPECT_EQ(store.pages(), 0u);
  store.Store(MemoryStore::kPageBytes - 2, 4, 0xAABBCCDD);  // two pages
  EXPECT_EQ(store.pages(), 2u);
  MemoryStore copy = store;
  store.Store(0, 1, 0x1);
  EXPECT_EQ(copy.Load(0, 1), 0u);
  EXPECT_EQ(copy.Load(MemoryStore::kPageBytes - 2, 4), 0xAABBCCDDu);
  store.Clear();
  EXPECT_EQ(store.pages(), 0u);
  EXPECT_EQ(copy.pages(), 2u);
}

}  // namespace
}  // namespace regemu::emulator
