// A memory space backed by bytes outside the device (Device::AttachExternalMemory,
// emulator/memory_store.hpp): the memory a kernel shares over vhost-user,
// which the device reaches by DMA. The owner's bytes are what the device
// reads and writes; an address outside every region is an `unclaimed`
// violation naming it, reads all-ones and writes nothing; reset and
// snapshots leave the owner's bytes alone.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <memory>
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
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// A doorbell whose write makes the device store a word at an address the driver chose.
constexpr const char* kDevice = R"(device: dma
spaces:
  - {name: bar0, kind: mmio, size: 0x1000}
  - {name: host, kind: memory, size: 0x100000000}
registers:
  - {name: DMA_ADDR, space: bar0, offset: 0x0}
  - {name: DOORBELL, space: bar0, offset: 0x4}
behaviours:
  - name: dma
    kind: reactions
    reactions:
      - name: store
        on: {write: DOORBELL}
        do:
          - {write_memory: {space: host, address: "DMA_ADDR", width: 32, value: "value"}}
)";

class ExternalMemoryTest : public ::testing::Test {
 protected:
  ExternalMemoryTest() : device_(MakeDevice(kDevice)) {
    bar0_ = SpaceNamed(device_->model(), "bar0");
    host_ = SpaceNamed(device_->model(), "host");
    low_.fill(0);
    high_.fill(0);
    device_->AttachExternalMemory(
        host_, std::make_shared<const ExternalMemory>(std::vector<ExternalRegion>{
                   {0x10000, std::span<uint8_t>(high_)}, {0x1000, std::span<uint8_t>(low_)}}));
  }

  void Dma(uint64_t address, uint32_t value) {
    device_->Write(bar0_, 0x0, 32, address);
    device_->Write(bar0_, 0x4, 32, value);
  }

  std::unique_ptr<Device> device_;
  SpaceId bar0_ = 0;
  SpaceId host_ = 0;
  std::array<uint8_t, 0x1000> low_{};   // the owner's bytes at 0x1000
  std::array<uint8_t, 0x100> high_{};   // and at 0x10000
};

TEST_F(ExternalMemoryTest, TheDevicesDmaLandsInTheOwnersBytes) {
  Dma(0x1010, 0xC0DEF00D);
  EXPECT_EQ(low_[0x10], 0x0D);
  EXPECT_EQ(low_[0x13], 0xC0);
  Dma(0x100FC, 0x11223344);  // the last word of the second region
  EXPECT_EQ(high_[0xFC], 0x44);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
}

TEST_F(ExternalMemoryTest, TheBackdoorSeesTheOwnersBytes) {
  low_[0x20] = 0x5A;
  std::array<uint8_t, 1> out{};
  device_->ReadMemory(host_, 0x1020, out);
  EXPECT_EQ(out[0], 0x5A);
  std::array<uint8_t, 2> in{0xAA, 0xBB};
  device_->WriteMemory(host_, 0x10000, in);
  EXPECT_EQ(high_[0], 0xAA);
  EXPECT_EQ(high_[1], 0xBB);
}

TEST_F(ExternalMemoryTest, DmaOutsideEveryRegionIsAViolationNamingTheAddressAndWritesNothing) {
  Dma(0x3000, 0xFFFFFFFF);
  ASSERT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kUnclaimed));
  EXPECT_THAT(device_->violations()[0].rule, HasSubstr("DMA write of 4 byte(s) at 0x3000"));
  EXPECT_THAT(device_->violations()[0].rule, HasSubstr("no region of the memory the host shares holds it"));
  for (uint8_t byte : low_) ASSERT_EQ(byte, 0);
}

TEST_F(ExternalMemoryTest, ADmaStraddlingARegionsEndWritesTheCoveredBytesAndReportsTheRest) {
  Dma(0x1FFE, 0x44332211);
  EXPECT_EQ(low_[0xFFE], 0x11);
  EXPECT_EQ(low_[0xFFF], 0x22);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kUnclaimed));
}

TEST_F(ExternalMemoryTest, BytesOutsideEveryRegionReadAllOnes) {
  std::array<uint8_t, 4> out{};
  device_->ReadMemory(host_, 0x0FFE, out);  // two bytes before the region, two inside
  EXPECT_THAT(out, ElementsAre(0xFF, 0xFF, 0x00, 0x00));
}

TEST_F(ExternalMemoryTest, ResetAndRestoreLeaveTheOwnersBytesAlone) {
  DeviceSnapshot before = device_->Snapshot();
  Dma(0x1000, 0x12345678);
  device_->Reset();
  EXPECT_EQ(low_[0], 0x78);
  device_->Restore(before);
  EXPECT_EQ(low_[0], 0x78);
  Dma(0x1004, 0x1);  // still attached after the restore
  EXPECT_EQ(low_[4], 0x01);
}

TEST_F(ExternalMemoryTest, DetachingGivesTheDeviceItsOwnPagesAgain) {
  device_->AttachExternalMemory(host_, nullptr);
  Dma(0x3000, 0xABCD);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
  std::array<uint8_t, 2> out{};
  device_->ReadMemory(host_, 0x3000, out);
  EXPECT_THAT(out, ElementsAre(0xCD, 0xAB));
}

TEST(ExternalMemoryAttachTest, RefusesAnythingButAMemorySpaceAndRegionsPastItsEnd) {
  auto device = MakeDevice(kDevice);
  std::array<uint8_t, 16> bytes{};
  auto region = std::make_shared<const ExternalMemory>(
      std::vector<ExternalRegion>{{0xFFFFFFF8, std::span<uint8_t>(bytes)}});
  EXPECT_THROW(device->AttachExternalMemory(SpaceNamed(device->model(), "bar0"), region), std::invalid_argument);
  EXPECT_THROW(device->AttachExternalMemory(SpaceNamed(device->model(), "host"), region), std::out_of_range);
}

TEST(ExternalMemoryAttachTest, OverlappingRegionsAreRefused) {
  std::array<uint8_t, 16> a{};
  std::array<uint8_t, 16> b{};
  EXPECT_THROW(ExternalMemory(std::vector<ExternalRegion>{{0, std::span<uint8_t>(a)}, {8, std::span<uint8_t>(b)}}),
               std::invalid_argument);
}

}  // namespace
}  // namespace regemu::emulator
