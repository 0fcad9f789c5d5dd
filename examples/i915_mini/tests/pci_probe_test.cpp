// The PCI side of the probe, against the shipped Ice Lake configuration
// space: BAR sizing, both capability lists, enabling, and MSI, each in the
// order Linux uses (tests/scripts/icl_pci_bar_sizing.script,
// icl_pci_capabilities.script, icl_msi_enable.script).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "examples/i915_mini/msi.hpp"
#include "examples/i915_mini/pci_probe.hpp"
#include "examples/i915_mini/pci_regs.hpp"
#include "examples/i915_mini/tests/i915_mini_test.hpp"
#include "regemu/fakes/matchers.hpp"
#include "regemu/fakes/mock_mmio_bus.hpp"

namespace regemu::i915_mini {
namespace {

using fakes::AccessesInOrder;
using fakes::FieldIs;
using fakes::ReadOf;
using fakes::WriteOf;
using ::testing::_;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Field;

constexpr uint64_t kMiB = 1 << 20;

auto BarIs(unsigned index, uint64_t size, bool io, bool is_64bit, bool prefetchable) {
  return AllOf(Field("index", &Bar::index, index), Field("size", &Bar::size, size), Field("io", &Bar::io, io),
               Field("is_64bit", &Bar::is_64bit, is_64bit), Field("prefetchable", &Bar::prefetchable, prefetchable));
}

class PciProbeTest : public I915MiniTest {};

TEST_F(PciProbeTest, SizesTheBarsLinuxWay) {
  FirmwareEnablesDecode();
  PciProbeResult result;
  SizeBars(config(), result);
  // GTTMMADR 16 MiB of registers + GGTT, GMADR the 256 MiB aperture
  // (MSAC at reset), the 64-byte I/O BAR; no expansion ROM.
  EXPECT_THAT(result.bars, ElementsAre(BarIs(0, 16 * kMiB, false, true, false), BarIs(2, 256 * kMiB, false, true, true),
                                       BarIs(4, 64, true, false, false)));
  EXPECT_EQ(result.rom_size, 0u);
  // Decoding off while BARs hold all-ones, then back as firmware left it.
  EXPECT_THAT(device(), AccessesInOrder({WriteOf("PCICMD", 0x0004), WriteOf("GTTMMADR", 0xFFFFFFFF),
                                         ReadOf("GTTMMADR", 0xFF000004), WriteOf("GTTMMADR", 0x00000004),
                                         WriteOf("GMADR", 0xFFFFFFFF), ReadOf("GMADR", 0xF000000C),
                                         WriteOf("IOBAR", 0xFFFFFFFF), ReadOf("IOBAR", 0x0000FFC1),
                                         WriteOf("ROMADR", 0xFFFFF800), WriteOf("PCICMD", 0x0006)}));
  EXPECT_THAT(device(), FieldIs("PCICMD", 0x0006));
  EXPECT_THAT(device(), FieldIs("GTTMMADR", 0x4));
}

// With decoding already off (power-on), there is nothing to turn off or
// restore: the command register is read, never written.
TEST_F(PciProbeTest, LeavesTheCommandRegisterAloneWhenDecodingIsOff) {
  ::testing::NiceMock<fakes::MockMmioBus> config_mock;
  config_mock.DelegateToFake(device(), "config");
  EXPECT_CALL(config_mock, Read).Times(::testing::AnyNumber());
  EXPECT_CALL(config_mock, Write).Times(::testing::AnyNumber());
  EXPECT_CALL(config_mock, Read(pci::kCommand, 16));
  EXPECT_CALL(config_mock, Write(pci::kCommand, _, _)).Times(0);
  PciProbeResult result;
  SizeBars(config_mock, result);
  EXPECT_EQ(result.bars.size(), 3u);
}

TEST_F(PciProbeTest, WalksBothCapabilityLists) {
  PciProbeResult result;
  WalkCapabilities(config(), result);
  auto cap = [](uint8_t id, uint8_t offset) {
    return AllOf(Field(&Capability::id, id), Field(&Capability::offset, offset));
  };
  auto ext = [](uint16_t id, uint16_t offset) {
    return AllOf(Field(&ExtCapability::id, id), Field(&ExtCapability::version, 1), Field(&ExtCapability::offset, offset));
  };
  EXPECT_THAT(result.capabilities, ElementsAre(cap(pci::kCapIdVndr, 0x40), cap(pci::kCapIdExp, 0x70),
                                               cap(pci::kCapIdMsi, 0xAC), cap(pci::kCapIdPm, 0xD0)));
  // PASID, ATS, PRI, SR-IOV.
  EXPECT_THAT(result.ext_capabilities, ElementsAre(ext(0x1B, 0x100), ext(0x0F, 0x200), ext(0x13, 0x300), ext(0x10, 0x320)));
  EXPECT_EQ(result.FindCapability(pci::kCapIdMsi), 0xAC);
  EXPECT_EQ(result.FindCapability(pci::kCapIdMsix), std::nullopt);
  EXPECT_THAT(device(), AccessesInOrder({ReadOf("PCISTS2"), ReadOf("CAPPOINT", 0x40), ReadOf("MSI_CAPID", 0xD005),
                                         ReadOf("PMCAPID", 0x0001), ReadOf("PASID_EXTCAP", 0x2001001B)}));
}

TEST_F(PciProbeTest, EnablesMemoryDecodeThenBusMastering) {
  EnableDevice(config());
  EXPECT_THAT(device(), AccessesInOrder({WriteOf("PCICMD", 0x0002), WriteOf("PCICMD", 0x0006)}));
  EXPECT_THAT(device(), FieldIs("PCICMD.MSE", 1));
  EXPECT_THAT(device(), FieldIs("PCICMD.BME", 1));
}

// Firmware left a Received Master Abort pending: enabling the device with
// 16-bit writes of COMMAND leaves it for the driver's error handling, and
// Linux's pci_status_get_and_clear_errors (read STATUS, write back only the
// error bits that are set, 16 bits wide) acks exactly it. Both are silent.
TEST_F(PciProbeTest, EnablingLeavesPendingErrorsToTheStatusClear) {
  device().PokeRegister(*device().model().FindRegister("PCISTS2"), 0x2010);  // RMAS + CAP_LIST
  EnableDevice(config());
  EXPECT_THAT(device(), FieldIs("PCISTS2.RMAS", 1));
  uint16_t errors = config().Read16(pci::kStatus) & 0xF900;
  config().Write16(pci::kStatus, errors);
  EXPECT_THAT(device(), FieldIs("PCISTS2.RMAS", 0));
  EXPECT_THAT(device(), FieldIs("PCISTS2.CAP_LIST", 1));
}

// The same enable as one dword read-modify-write of COMMAND + STATUS acks
// the pending error by accident: a `hazard` naming STATUS and the idiom.
TEST_F(PciProbeTest, DwordReadModifyWriteOfCommandAndStatusIsAHazard) {
  device().PokeRegister(*device().model().FindRegister("PCISTS2"), 0x2010);
  EnableDevice(config(), Bugs{Bug::kRmwCommandStatus});
  EXPECT_THAT(device(), FieldIs("PCICMD.BME", 1));
  EXPECT_THAT(device(), FieldIs("PCISTS2.RMAS", 0));  // the error is gone, unseen by the error handling
  EXPECT_THAT(TakeViolations(),
              ElementsAre(ViolationIs("hazard", "PCISTS2",
                                      "read-modify-write: the write changes PCICMD bits 0x6 and writes status bits "
                                      "0x2000 of PCISTS2 (RMAS) back as it read them, which clears them")));
}

TEST_F(PciProbeTest, EnablesMsiInLinuxOrderAndTheDeviceSendsTheMessage) {
  FirmwareEnablesDecode();
  EnableMsi(config(), 0xAC, MsiMessage{0xFEE00000, 0x4021});
  EXPECT_THAT(device(),
              AccessesInOrder({WriteOf("MC", 0x0100), ReadOf("MSI_MASK", 0), WriteOf("MSI_MASK", 1),
                               WriteOf("MA", 0xFEE00000), WriteOf("MD", 0x4021), ReadOf("MC", 0x0100),
                               WriteOf("PCICMD", 0x0406), WriteOf("MC", 0x0101), WriteOf("MSI_MASK", 0)}));
  EXPECT_THAT(device(), FieldIs("MC.MSIE", 1));

  ASSERT_EQ(device().Inject("pci-request", std::vector<std::string>{"1"}), "");
  ASSERT_EQ(device().messages().size(), 1u);
  EXPECT_EQ(device().messages()[0].address, 0xFEE00000u);
  EXPECT_EQ(device().messages()[0].data, 0x4021u);
  EXPECT_FALSE(device().interrupt_asserted());  // MSI, not INTx
}

}  // namespace
}  // namespace regemu::i915_mini
