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

// `vectors:`: bit n of a register is vector n's request. A function of
// three vectors whose request register software writes (a behaviour's
// stores work the same: the NVMe queues' IS, tests/scripts/nvme_io_queues.script).
constexpr const char* kThreeVectors = R"(device: f
spaces:
  - {name: config, kind: pci-config, size: 0x100}
  - {name: bar0, kind: mmio, size: 0x1000, pci_bar: 0}
registers:
  - {name: CMD, space: config, offset: 0x04, width: 16}
  - {name: MXC, space: config, offset: 0x42, width: 16, reset: 0x0002}
  - {name: MTAB, space: config, offset: 0x44, width: 32, access: ro, reset: 0x0}
  - {name: MPBA, space: config, offset: 0x48, width: 32, access: ro, reset: 0x800}
  - {name: "ADDR{n}", space: bar0, offset: 0x0, array: {count: 3, stride: 16}}
  - {name: "UADDR{n}", space: bar0, offset: 0x4, array: {count: 3, stride: 16}}
  - {name: "DATA{n}", space: bar0, offset: 0x8, array: {count: 3, stride: 16}}
  - {name: "VCTRL{n}", space: bar0, offset: 0xC, array: {count: 3, stride: 16}, reset: 1}
  - {name: PBA, space: bar0, offset: 0x800, width: 64, access: hw}
  - {name: REQ, space: bar0, offset: 0x900, width: 32}
behaviours:
  - {kind: pci-config, command: CMD, memory_spaces: [bar0], msix: {control: MXC, table: MTAB, pba: MPBA, vectors: REQ}}
)";

TEST(PciMsixVectorsTest, EachBitOfTheRequestRegisterSendsItsOwnVectorsMessage) {
  auto device = testing_support::MakeDevice(kThreeVectors);
  SpaceId config = SpaceNamed(device->model(), "config");
  SpaceId bar0 = SpaceNamed(device->model(), "bar0");
  device->Write(config, kCommand, 16, kMemory | kMaster);
  device->Write(config, 0x42, 16, kEnable);
  for (uint64_t n = 0; n < 3; ++n) {
    device->Write(bar0, 16 * n + 0x0, 32, 0xFEE00000);
    device->Write(bar0, 16 * n + 0x8, 32, 0x50 + n);
    device->Write(bar0, 16 * n + 0xC, 32, n == 2 ? 1 : 0);  // vector 2 stays masked
  }
  device->Write(bar0, 0x900, 32, 0b010);
  device->Write(bar0, 0x900, 32, 0b011);
  device->Write(bar0, 0x900, 32, 0b111);
  std::vector<uint64_t> data;
  for (const MessageWrite& m : device->messages()) data.push_back(m.data);
  EXPECT_THAT(data, ElementsAre(0x51, 0x50)) << "a bit that stays up sends nothing more; vector 2 is masked";
  EXPECT_EQ(device->Read(bar0, 0x800, 64), 0b100u) << "vector 2's pending bit (PCI Local Bus 3.0 §6.8.2.10)";
  device->Write(bar0, 0x2C, 32, 0);  // unmask vector 2
  EXPECT_EQ(device->messages().back().data, 0x52u);
  EXPECT_EQ(device->Read(bar0, 0x800, 64), 0u);
  device->Write(bar0, 0x900, 32, 0b001);
  device->Write(bar0, 0x900, 32, 0b011);
  EXPECT_EQ(device->messages().back().data, 0x51u) << "vector 1 fell and rose again";
  EXPECT_EQ(device->messages().size(), 4u);
  EXPECT_THAT(device->violations(), IsEmpty());
}

TEST(PciMsixVectorsTest, TheCheckWantsEveryVectorsEntryAndABitPerVector) {
  std::string yaml = kThreeVectors;
  yaml.replace(yaml.find("count: 3, stride: 16}}\n  - {name: \"UADDR"), 8, "count: 2");
  EXPECT_THAT(regdb::testing_support::Rendered(regdb::testing_support::CheckYaml(yaml)),
              HasSubstr("vector 2's Message Address in the MSI-X table"));
  std::string narrow = kThreeVectors;
  narrow.replace(narrow.find("offset: 0x900, width: 32"), 24, "offset: 0x900, width: 8 ");
  narrow.replace(narrow.find("reset: 0x0002"), 13, "reset: 0x0009");
  EXPECT_THAT(regdb::testing_support::Rendered(regdb::testing_support::CheckYaml(narrow)),
              HasSubstr("the MSI-X table has 10 vectors"));
}

}  // namespace
}  // namespace regemu::emulator
