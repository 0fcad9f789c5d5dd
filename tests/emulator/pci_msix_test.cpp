// MSI-X in the `pci-config` behaviour (PCI Local Bus 3.0 §6.8.2), on the
// NVMe database (yaml/nvme: capability at 60h, table at BAR0 + 2000h, PBA
// at BAR0 + 3000h), programmed in the order Linux's msix_capability_init
// (drivers/pci/msi/msi.c) uses: MSI-X Enable with Function Mask set, the
// table entry written, the vector unmasked, then Function Mask cleared.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using testing_support::Kinds;
using testing_support::SpaceNamed;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr uint64_t kCommand = 0x04;
constexpr uint64_t kMsixControl = 0x62;
constexpr uint16_t kMemory = 0x2, kMaster = 0x4;
constexpr uint16_t kEnable = 0x8000, kFunctionMask = 0x4000;
constexpr uint64_t kTable = 0x2000, kPba = 0x3000;

class PciMsixTest : public ::testing::Test {
 protected:
  PciMsixTest()
      : device_(testing_support::CompileDatabaseAt(std::string(REGEMU_SOURCE_DIR) + "/yaml/nvme")),
        config_(SpaceNamed(device_.model(), "config")),
        bar0_(SpaceNamed(device_.model(), "bar0")) {
    device_.Write(config_, kCommand, 16, kMemory | kMaster);
  }

  // msix_capability_init: enable masked, program entry 0, unmask it, unmask the function.
  void EnableVector0(uint32_t data) {
    device_.Write(config_, kMsixControl, 16, kEnable | kFunctionMask);
    device_.Write(bar0_, kTable + 0x0, 32, 0xFEE00000);
    device_.Write(bar0_, kTable + 0x4, 32, 0);
    device_.Write(bar0_, kTable + 0x8, 32, data);
    device_.Write(bar0_, kTable + 0xC, 32, 0);
    device_.Write(config_, kMsixControl, 16, kEnable);
  }
  void Request(const char* level) {
    std::vector<std::string> args{level};
    ASSERT_EQ(device_.Inject("pci-request", args), "");
  }
  std::vector<uint64_t> Data() {
    std::vector<uint64_t> data;
    for (const MessageWrite& m : device_.messages()) data.push_back(m.data);
    return data;
  }

  Device device_;
  SpaceId config_;
  SpaceId bar0_;
};

TEST_F(PciMsixTest, EachRisingEdgeOfTheRequestSendsVector0sMessage) {
  EnableVector0(0x41);
  Request("1");
  Request("0");
  Request("1");
  ASSERT_EQ(device_.messages().size(), 2u);
  EXPECT_EQ(device_.messages()[0].address, 0xFEE00000u);
  EXPECT_THAT(Data(), ElementsAre(0x41, 0x41));
  EXPECT_FALSE(device_.interrupt_asserted()) << "MSI-X replaces the INTx line";
  EXPECT_THAT(Kinds(device_), IsEmpty());
}

TEST_F(PciMsixTest, AMaskedVectorHoldsItsMessageInThePbaUntilUnmasked) {
  EnableVector0(0x42);
  device_.Write(bar0_, kTable + 0xC, 32, 1);  // Mask Bit
  Request("1");
  EXPECT_THAT(Data(), IsEmpty());
  EXPECT_EQ(device_.Read(bar0_, kPba, 64) & 1, 1u) << "§6.8.2.10: the pending bit is set while masked";
  device_.Write(bar0_, kTable + 0xC, 32, 0);
  EXPECT_THAT(Data(), ElementsAre(0x42));
  EXPECT_EQ(device_.Read(bar0_, kPba, 64) & 1, 0u);
}

TEST_F(PciMsixTest, TheFunctionMaskHoldsEveryVector) {
  EnableVector0(0x43);
  device_.Write(config_, kMsixControl, 16, kEnable | kFunctionMask);
  Request("1");
  EXPECT_THAT(Data(), IsEmpty());
  device_.Write(config_, kMsixControl, 16, kEnable);
  EXPECT_THAT(Data(), ElementsAre(0x43));
}

TEST_F(PciMsixTest, EnablingWhileTheRequestIsUpSendsIt) {
  Request("1");
  EXPECT_TRUE(device_.interrupt_asserted()) << "INTx until MSI-X is enabled";
  EnableVector0(0x44);
  EXPECT_THAT(Data(), ElementsAre(0x44));
  EXPECT_FALSE(device_.interrupt_asserted());
}

TEST_F(PciMsixTest, WithoutBusMasteringTheMessageIsDroppedAsAViolation) {
  EnableVector0(0x45);
  device_.Write(config_, kCommand, 16, kMemory);
  Request("1");
  EXPECT_THAT(Data(), IsEmpty());
  ASSERT_THAT(Kinds(device_), ElementsAre(ViolationKind::kProtocol));
  EXPECT_THAT(device_.violations()[0].rule, HasSubstr("Bus Master Enable"));
}

}  // namespace
}  // namespace regemu::emulator
