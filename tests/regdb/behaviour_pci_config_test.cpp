// The `pci-config` kind's configuration check (yaml/README.md "behaviours"):
// register names, spaces and PCI widths, memory spaces, the MSI and aperture
// maps, and the capability chains walked through the register resets the way
// Linux's pci_find_capability / pci_find_ext_capability walk them.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/pci_config.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using testing_support::CheckYaml;
using testing_support::ConfigAs;
using testing_support::ErrorAt;
using testing_support::Rendered;

// A PCIe function: header, MSI at 0x40 -> PM at 0x60 -> end, extended
// capability at 0x100. `chain` replaces the capability pointer and headers
// (lines 9-12). The behaviour's keys start on line 27.
constexpr const char* kChain =
    "  - {name: CAPPTR, space: config, offset: 0x34, width: 8, access: ro, reset: 0x40}\n"
    "  - {name: MSICAP, space: config, offset: 0x40, width: 16, access: ro, reset: 0x6005}\n"
    "  - {name: PMCAPID, space: config, offset: 0x60, width: 16, access: ro, reset: 0x0001}\n"
    "  - {name: EXTCAP, space: config, offset: 0x100, width: 32, access: ro, reset: 0x0001001B}\n";

std::string Device(const std::string& behaviour, const std::string& chain = kChain) {
  return std::string(R"(device: p
spaces:
  - {name: config, kind: pci-config, size: 0x1000}
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: PCICMD, space: config, offset: 0x04, width: 16}
  - {name: PCISTS, space: config, offset: 0x06, width: 16, access: ro, reset: 0x10}
  - {name: BAR0, space: config, offset: 0x10, width: 64}
)") + chain + R"(  - {name: MC, space: config, offset: 0x42, width: 16}
  - {name: MA, space: config, offset: 0x44, width: 32}
  - {name: MD, space: config, offset: 0x48, width: 16}
  - {name: MASK, space: config, offset: 0x4C, width: 32}
  - {name: PEND, space: config, offset: 0x50, width: 32, access: ro}
  - {name: PMCS, space: config, offset: 0x64, width: 16}
  - name: MSAC
    space: config
    offset: 0x70
    width: 8
    fields: [{name: APSZ, bits: "4:0", reset: 1}]
  - {name: CTRL, space: mmio, offset: 0x0}
behaviours:
  - kind: pci-config
)" + behaviour;
}

constexpr const char* kFull =
    "    command: PCICMD\n"
    "    status: PCISTS\n"
    "    power: PMCS\n"
    "    memory_spaces: [mmio]\n"
    "    msi: {control: MC, address: MA, data: MD, mask: MASK, pending: PEND}\n"
    "    aperture: {bar: BAR0, size: MSAC, size_field: APSZ}\n";

TEST(PciConfigConfigTest, WellFormedConfigIsClean) {
  auto loaded = CheckYaml(Device(kFull));
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(PciConfigConfigTest, CleanConfigIsResolved) {
  auto loaded = CheckYaml(Device(kFull));
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const Database& db = loaded.database;
  const PciConfigConfig* config = ConfigAs<PciConfigConfig>(db.behaviours[0]);
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->command, db.FindRegister("PCICMD"));
  EXPECT_EQ(config->status, db.FindRegister("PCISTS"));
  EXPECT_EQ(config->power, db.FindRegister("PMCS"));
  EXPECT_THAT(config->memory_spaces, ElementsAre(*db.FindSpace("mmio")));
  EXPECT_TRUE(config->has_msi);
  EXPECT_EQ(config->msi_control, db.FindRegister("MC"));
  EXPECT_EQ(config->msi_address, db.FindRegister("MA"));
  EXPECT_EQ(config->msi_data, db.FindRegister("MD"));
  EXPECT_EQ(config->msi_mask, db.FindRegister("MASK"));
  EXPECT_EQ(config->msi_pending, db.FindRegister("PEND"));
  EXPECT_EQ(config->aperture, db.FindRegister("BAR0"));
  EXPECT_EQ(config->aperture_size, db.FindRegister("MSAC"));
  EXPECT_EQ(config->aperture_size_bits.mask, 0x1Fu);  // APSZ, bits 4:0
  EXPECT_EQ(config->aperture_size_bits.shift, 0u);
}

TEST(PciConfigConfigTest, OnlyTheCommandRegisterIsRequired) {
  auto loaded = CheckYaml(Device("    command: PCICMD\n"));
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  // What is left out stays absent.
  const PciConfigConfig* config = ConfigAs<PciConfigConfig>(loaded.database.behaviours[0]);
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->command, loaded.database.FindRegister("PCICMD"));
  EXPECT_EQ(config->status, PciConfigConfig::kNone);
  EXPECT_EQ(config->power, PciConfigConfig::kNone);
  EXPECT_THAT(config->memory_spaces, IsEmpty());
  EXPECT_FALSE(config->has_msi);
  EXPECT_EQ(config->msi_mask, PciConfigConfig::kNone);
  EXPECT_EQ(config->aperture, PciConfigConfig::kNone);
  auto missing = CheckYaml(Device("    status: PCISTS\n"));
  EXPECT_THAT(Rendered(missing), HasSubstr("'command'"));
  EXPECT_EQ(missing.database.behaviours[0].config, nullptr);  // a section with an error has none
}

TEST(PciConfigConfigTest, UnknownRegisterIsNamedWithASuggestion) {
  auto loaded = CheckYaml(Device("    command: PCICMDD\n"));
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(27, 14, HasSubstr("unknown register 'PCICMDD' (did you mean 'PCICMD'?)"))))
      << Rendered(loaded);
}

TEST(PciConfigConfigTest, RegistersMustHaveTheirPciWidth) {
  auto loaded = CheckYaml(Device("    command: PCICMD\n    msi: {control: MC, address: MD, data: MD}\n"));
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(28, 33, HasSubstr("'address' register 'MD' is 16 bits wide; the PCI spec makes it 32"))))
      << Rendered(loaded);
}

TEST(PciConfigConfigTest, RegistersMustBeInAPciConfigSpace) {
  auto loaded = CheckYaml(Device("    command: CTRL\n"));
  EXPECT_THAT(Rendered(loaded),
              HasSubstr("'command' register 'CTRL' is in space 'mmio', which is not a pci-config space"));
}

TEST(PciConfigConfigTest, MemorySpacesMustExistBeMemoryAndBeListedOnce) {
  auto loaded = CheckYaml(Device("    command: PCICMD\n    memory_spaces: [mmo, config, mmio, mmio]\n"));
  std::string text = Rendered(loaded);
  EXPECT_THAT(text, HasSubstr("unknown space 'mmo' (did you mean 'mmio'?)"));
  EXPECT_THAT(text, HasSubstr("space 'config' is a pci-config space: configuration space stays accessible"));
  EXPECT_THAT(text, HasSubstr("space 'mmio' is listed twice"));
}

TEST(PciConfigConfigTest, MsiNeedsItsThreeRegistersAndMaskWithPending) {
  auto loaded = CheckYaml(Device("    command: PCICMD\n    msi: {control: MC, mask: MASK, adress: MA}\n"));
  std::string text = Rendered(loaded);
  EXPECT_THAT(text, HasSubstr("unknown key 'adress'"));
  EXPECT_THAT(text, HasSubstr("'address'"));
  EXPECT_THAT(text, HasSubstr("per-vector masking needs both 'mask' and 'pending'"));
}

TEST(PciConfigConfigTest, ApertureNeedsAKnownSizeField) {
  auto loaded = CheckYaml(Device("    command: PCICMD\n    aperture: {bar: BAR0, size: MSAC, size_field: APSIZE}\n"));
  EXPECT_THAT(Rendered(loaded), HasSubstr("register 'MSAC' has no field 'APSIZE' (did you mean 'APSZ'?)"));
}

TEST(PciConfigConfigTest, UnknownKeyIsReported) {
  auto loaded = CheckYaml(Device("    command: PCICMD\n    io_spaces: [mmio]\n"));
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(28, 5, HasSubstr("unknown key 'io_spaces'"))))
      << Rendered(loaded);
}

// --- the capability chains, through the register resets

TEST(PciConfigConfigTest, CapabilityChainThatLoopsIsAnError) {
  auto loaded = CheckYaml(Device(
      "    command: PCICMD\n",
      "  - {name: CAPPTR, space: config, offset: 0x34, width: 8, access: ro, reset: 0x40}\n"
      "  - {name: MSICAP, space: config, offset: 0x40, width: 16, access: ro, reset: 0x6005}\n"
      "  - {name: PMCAPID, space: config, offset: 0x60, width: 16, access: ro, reset: 0x4001}\n"
      "  - {name: EXTCAP, space: config, offset: 0x100, width: 32, access: ro, reset: 0x0001001B}\n"));
  EXPECT_THAT(Rendered(loaded), HasSubstr("the capability chain loops back to 0x40"));
}

TEST(PciConfigConfigTest, CapabilityPointerIntoTheHeaderOrToNothingIsAnError) {
  auto into_header = CheckYaml(Device(
      "    command: PCICMD\n",
      "  - {name: CAPPTR, space: config, offset: 0x34, width: 8, access: ro, reset: 0x40}\n"
      "  - {name: MSICAP, space: config, offset: 0x40, width: 16, access: ro, reset: 0x6005}\n"
      "  - {name: PMCAPID, space: config, offset: 0x60, width: 16, access: ro, reset: 0x1001}\n"
      "  - {name: EXTCAP, space: config, offset: 0x100, width: 32, access: ro, reset: 0x0001001B}\n"));
  EXPECT_THAT(Rendered(into_header), HasSubstr("capability pointer 0x10 is not a dword offset in 0x40.."));
  auto to_nothing = CheckYaml(Device(
      "    command: PCICMD\n",
      "  - {name: CAPPTR, space: config, offset: 0x34, width: 8, access: ro, reset: 0x40}\n"
      "  - {name: MSICAP, space: config, offset: 0x40, width: 16, access: ro, reset: 0x8005}\n"
      "  - {name: PMCAPID, space: config, offset: 0x60, width: 16, access: ro, reset: 0x0001}\n"
      "  - {name: EXTCAP, space: config, offset: 0x100, width: 32, access: ro, reset: 0x0001001B}\n"));
  EXPECT_THAT(Rendered(to_nothing), HasSubstr("no register holds the capability header at 0x80"));
}

TEST(PciConfigConfigTest, ExtendedChainThatLoopsOrLeavesTheSpaceIsAnError) {
  auto loops = CheckYaml(Device(
      "    command: PCICMD\n",
      "  - {name: CAPPTR, space: config, offset: 0x34, width: 8, access: ro, reset: 0x40}\n"
      "  - {name: MSICAP, space: config, offset: 0x40, width: 16, access: ro, reset: 0x6005}\n"
      "  - {name: PMCAPID, space: config, offset: 0x60, width: 16, access: ro, reset: 0x0001}\n"
      "  - {name: EXTCAP, space: config, offset: 0x100, width: 32, access: ro, reset: 0x1001001B}\n"));
  EXPECT_THAT(Rendered(loops), HasSubstr("the extended capability chain loops back to 0x100"));
  auto below = CheckYaml(Device(
      "    command: PCICMD\n",
      "  - {name: CAPPTR, space: config, offset: 0x34, width: 8, access: ro, reset: 0x40}\n"
      "  - {name: MSICAP, space: config, offset: 0x40, width: 16, access: ro, reset: 0x6005}\n"
      "  - {name: PMCAPID, space: config, offset: 0x60, width: 16, access: ro, reset: 0x0001}\n"
      "  - {name: EXTCAP, space: config, offset: 0x100, width: 32, access: ro, reset: 0x0801001B}\n"));
  EXPECT_THAT(Rendered(below), HasSubstr("extended capability pointer 0x80 is outside 0x100.."));
}

TEST(PciConfigConfigTest, TheShippedIceLakeChainsAreClean) {
  LoadedDatabase loaded = LoadAndCheck(std::string(REGEMU_SOURCE_DIR) + "/yaml/icl");
  EXPECT_THAT(Rendered(loaded), Not(HasSubstr("capability")));
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

}  // namespace
}  // namespace regemu::regdb
