// A regemu device as virt-pci's PCI function (uml/device_function.hpp):
// configuration and MMIO requests reach the database's spaces through the
// frontdoor, split into naturally aligned accesses; what lies past a space
// reads all-ones; the memory no BAR decodes is the kernel's shared memory.
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/uml/device_function.hpp"
#include "regemu/uml/vhost/guest_memory.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::uml {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kDevice = R"(device: fn
spaces:
  - {name: config, kind: pci-config, size: 0x100}
  - {name: bar0, kind: mmio, size: 0x1000, pci_bar: 0, widths: [32, 64]}
  - {name: host, kind: memory, size: 0x100000000, dma: true}
registers:
  - {name: VID, space: config, offset: 0x0, width: 16, reset: 0x1b36, access: ro}
  - {name: DID, space: config, offset: 0x2, width: 16, reset: 0x0010, access: ro}
  - {name: CMD, space: config, offset: 0x4, width: 16}
  - {name: CAP, space: bar0, offset: 0x0, width: 64, reset: 0x1122334455667788, access: ro}
  - {name: DOORBELL, space: bar0, offset: 0x8, width: 32}
)";

class DeviceFunctionTest : public ::testing::Test {
 protected:
  DeviceFunctionTest() : device_(emulator::testing_support::MakeDevice(kDevice)), function_(*device_) {}

  uint64_t Load(std::span<const uint8_t> bytes) {
    uint64_t value = 0;
    for (size_t i = 0; i < bytes.size(); ++i) value |= uint64_t{bytes[i]} << (8 * i);
    return value;
  }

  std::unique_ptr<emulator::Device> device_;
  DeviceFunction function_;
};

TEST_F(DeviceFunctionTest, ConfigurationReadsAndWritesReachThePciConfigSpace) {
  std::array<uint8_t, 4> id{};
  function_.ConfigRead(0x0, id);
  EXPECT_EQ(Load(id), 0x00101b36u);
  std::array<uint8_t, 2> command{0x06, 0x00};
  function_.ConfigWrite(0x4, command);
  EXPECT_EQ(device_->Read(0, 0x4, 16), 0x6u);
}

TEST_F(DeviceFunctionTest, ReadsPastTheConfigurationSpaceAreAllOnesWithoutAnAccess) {
  uint64_t before = device_->access_count();
  std::array<uint8_t, 4> ext{};
  function_.ConfigRead(0x100, ext);
  EXPECT_EQ(Load(ext), 0xFFFFFFFFu);
  EXPECT_EQ(device_->access_count(), before);
}

TEST_F(DeviceFunctionTest, MmioGoesToTheSpaceOfItsBarSplitIntoAlignedAccesses) {
  std::array<uint8_t, 8> cap{};
  function_.MmioRead(0, 0x0, cap);
  EXPECT_EQ(Load(cap), 0x1122334455667788u);
  std::array<uint8_t, 12> both{};  // memcpy_fromio of 12 bytes: one 64-bit and one 32-bit access
  function_.MmioRead(0, 0x0, both);
  auto trace = device_->Trace(2);
  ASSERT_EQ(trace.size(), 2u);
  EXPECT_EQ(trace[0].width, 64);
  EXPECT_EQ(trace[1].width, 32);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

TEST_F(DeviceFunctionTest, AnAccessTheDatabaseForbidsIsItsViolation) {
  std::array<uint8_t, 1> byte{0x1};
  function_.MmioWrite(0, 0x8, byte);  // bar0 takes 32- and 64-bit accesses only
  ASSERT_EQ(device_->violations().size(), 1u);
  EXPECT_EQ(device_->violations()[0].kind, emulator::ViolationKind::kWidth);
}

TEST_F(DeviceFunctionTest, ABarTheDatabaseDoesNotHaveIsAProtocolErrorAndReadsAllOnes) {
  std::array<uint8_t, 4> out{};
  function_.MmioRead(2, 0x0, out);
  EXPECT_EQ(Load(out), 0xFFFFFFFFu);
  function_.MmioRead(0, 0xFFE, out);
  EXPECT_THAT(function_.protocol_errors(),
              ElementsAre(HasSubstr("BAR 2, which the database does not have"), HasSubstr("runs past the end of BAR 0")));
}

TEST_F(DeviceFunctionTest, TheSharedMemoryBacksTheSpaceNoBarDecodes) {
  int fd = ::memfd_create("guest", MFD_CLOEXEC);
  ASSERT_EQ(::ftruncate(fd, 0x10000), 0);
  GuestMemory memory;
  MemoryRegionDesc region{0x20000000, 0x10000, 0x20000000, 0};
  std::vector<int> fds{fd};
  ASSERT_EQ(memory.Set(std::span<const MemoryRegionDesc>(&region, 1), fds), "");
  function_.MemoryChanged(memory);
  std::array<uint8_t, 4> bytes{1, 2, 3, 4};
  device_->WriteMemory(2, 0x20000010, bytes);
  EXPECT_EQ(memory.Translate(0x20000010, 4)[3], 4);
}

TEST(DeviceFunctionModelTest, ADatabaseWithoutAPciConfigSpaceIsRefused) {
  auto device = emulator::testing_support::MakeDevice(R"(device: plain
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: R, space: mmio, offset: 0}
)");
  EXPECT_THROW(DeviceFunction function(*device), std::invalid_argument);
}

}  // namespace
}  // namespace regemu::uml
