// The `gen11-interrupts` configuration checks, with an `interrupts` child
// (yaml/README.md "behaviours"): registers and REGISTER.FIELD halves exist
// (with a close match), bits fit and do not collide, engines are unique,
// the PRM's enable/mask sharing rules hold, and children name their parent.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/gen11_interrupts.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::CheckYaml;
using testing_support::ConfigAs;
using testing_support::ErrorAt;
using testing_support::Rendered;

// Sixteen lines of device; each test's behaviours start on line 17.
constexpr const char* kDevice = R"(device: irq
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: MSTR, space: mmio, offset: 0x10}
  - {name: DW0, space: mmio, offset: 0x18, access: w1c}
  - {name: DW1, space: mmio, offset: 0x1C, access: w1c}
  - {name: ID0, space: mmio, offset: 0x60}
  - {name: SEL0, space: mmio, offset: 0x70}
  - {name: EN, space: mmio, offset: 0x30, fields: [{name: A, bits: "31:16"}, {name: B, bits: "15:0"}]}
  - {name: MASK, space: mmio, offset: 0x90, fields: [{name: A, bits: "31:16"}, {name: B, bits: "15:8"}]}
  - {name: ISR, space: mmio, offset: 0x100, access: hw}
  - {name: IMR, space: mmio, offset: 0x104}
  - {name: IIR, space: mmio, offset: 0x108, access: w1c}
  - {name: IER, space: mmio, offset: 0x10C}
behaviours:
)";

// Line 17: the interrupts child; lines 18-23 the gen11 head; engines from line 24.
std::string Irq(const std::string& engines, const std::string& child = "",
                const std::string& banks = "      - {dw: DW0, selector: SEL0, identity: ID0, master_bit: 0}\n") {
  std::string c = child.empty() ? "  - {name: misc, kind: interrupts, sources: [{name: iir, status: IIR, enable: IER}], "
                                  "interrupt_parent: gt}\n"
                                : child;
  return std::string(kDevice) + c +
         "  - name: gt\n    kind: gen11-interrupts\n    master: MSTR\n    master_enable_bit: 31\n"
         "    children: [{behaviour: misc, master_bit: 29}]\n    banks:\n" +
         banks + "    engines:\n" + engines;
}

constexpr const char* kEngines =
    "      - {name: RCS0, class: 0, instance: 0, bank: 0, bit: 0, enable: EN.A, mask: MASK.A}\n"
    "      - {name: GUC, class: 4, instance: 0, bank: 0, bit: 25, enable: EN.B}\n";

TEST(InterruptsConfigTest, WellFormedConfigIsClean) {
  LoadedDatabase loaded = CheckYaml(Irq(kEngines));
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
}

TEST(InterruptsConfigTest, CleanGen11ConfigIsResolved) {
  LoadedDatabase loaded = CheckYaml(Irq(kEngines));
  ASSERT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const Database& db = loaded.database;
  const Gen11InterruptsConfig* config = ConfigAs<Gen11InterruptsConfig>(db.behaviours[1]);
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->master, db.FindRegister("MSTR"));
  EXPECT_EQ(config->master_enable_bit, 31u);
  ASSERT_EQ(config->banks.size(), 1u);
  EXPECT_EQ(config->banks[0].dw, db.FindRegister("DW0"));
  EXPECT_EQ(config->banks[0].selector, db.FindRegister("SEL0"));
  EXPECT_EQ(config->banks[0].identity, db.FindRegister("ID0"));
  EXPECT_EQ(config->banks[0].master_bit, 0u);
  ASSERT_EQ(config->children.size(), 1u);
  EXPECT_EQ(config->children[0].name, "misc");
  EXPECT_EQ(config->children[0].master_bit, 29u);
  ASSERT_EQ(config->engines.size(), 2u);
  const Gen11InterruptsConfig::Engine& rcs = config->engines[0];
  EXPECT_EQ(rcs.name, "RCS0");
  EXPECT_EQ(rcs.cls, 0u);
  EXPECT_EQ(rcs.instance, 0u);
  EXPECT_EQ(rcs.bank, 0u);
  EXPECT_EQ(rcs.bit, 0u);
  EXPECT_EQ(rcs.enable.reg, db.FindRegister("EN"));
  EXPECT_EQ(rcs.enable.shift, 16u);  // EN.A, bits 31:16
  ASSERT_TRUE(rcs.mask.has_value());
  EXPECT_EQ(rcs.mask->reg, db.FindRegister("MASK"));
  EXPECT_EQ(rcs.mask->shift, 16u);
  const Gen11InterruptsConfig::Engine& guc = config->engines[1];
  EXPECT_EQ(guc.name, "GUC");
  EXPECT_EQ(guc.cls, 4u);
  EXPECT_EQ(guc.bit, 25u);
  EXPECT_EQ(guc.enable.shift, 0u);     // EN.B, bits 15:0
  EXPECT_FALSE(guc.mask.has_value());  // never masked
}

TEST(InterruptsConfigTest, ChildUnknownRegisterAndParent) {
  LoadedDatabase loaded = CheckYaml(Irq(
      kEngines, "  - {name: misc, kind: interrupts, sources: [{name: iir, status: IIRX, enable: IER}], interrupt_parent: gtt}\n"));
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(17, 66, HasSubstr("unknown register 'IIRX' (did you mean 'IIR'?)"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(17, 105, HasSubstr("unknown interrupt parent 'gtt' (did you mean 'gt'?)"))))
      << Rendered(loaded);
}

// The parent may be a one-bit field, which holds the output's level; a
// wider field or an unknown one is an error at the name.
TEST(InterruptsConfigTest, ParentFieldIsOneKnownBit) {
  LoadedDatabase loaded = CheckYaml(Irq(
      kEngines, "  - {name: misc, kind: interrupts, sources: [{name: iir, status: IIR, enable: IER}], interrupt_parent: EN.A}\n"));
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(17, 104, HasSubstr("'EN.A' is a field of several bits"))))
      << Rendered(loaded);
  loaded = CheckYaml(Irq(
      kEngines, "  - {name: misc, kind: interrupts, sources: [{name: iir, status: IIR, enable: IER}], interrupt_parent: EN.C}\n"));
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(17, 104, HasSubstr("register 'EN' has no field 'C'"))))
      << Rendered(loaded);
}

TEST(InterruptsConfigTest, ChildUnknownKey) {
  LoadedDatabase loaded = CheckYaml(Irq(
      kEngines, "  - {name: misc, kind: interrupts, sources: [{name: iir, status: IIR, enable: IER}], interupt_parent: gt}\n"));
  EXPECT_TRUE(loaded.diagnostics.has_errors());
  EXPECT_THAT(Rendered(loaded), HasSubstr("test.yaml:17:86: error"));
  EXPECT_THAT(Rendered(loaded), HasSubstr("did you mean 'interrupt_parent'"));
}

TEST(InterruptsConfigTest, ChildMustNameItsParent) {
  LoadedDatabase loaded = CheckYaml(
      Irq(kEngines, "  - {name: misc, kind: interrupts, sources: [{name: iir, status: IIR, enable: IER}]}\n"));
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(22, 28, HasSubstr("must name it as its parent: `interrupt_parent: gt`"))))
      << Rendered(loaded);
  // The child is clean; the parent, with the error, has no config.
  EXPECT_NE(loaded.database.behaviours[0].config, nullptr);
  EXPECT_EQ(loaded.database.behaviours[1].config, nullptr);
}

TEST(InterruptsConfigTest, MasterBitsMustNotCollide) {
  LoadedDatabase loaded = CheckYaml(Irq(kEngines, "", "      - {dw: DW0, selector: SEL0, identity: ID0, master_bit: 29}\n"
                                                      "      - {dw: DW1, selector: SEL0, identity: ID0, master_bit: 31}\n"));
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(22, 46, HasSubstr("master bit 29 of gen11-interrupts behaviour 'gt' is used by both bank 0 and child 'misc'"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(25, 29, HasSubstr("'SEL0' is used twice")))) << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(25, 62, HasSubstr("master bit 31")))) << Rendered(loaded);
}

TEST(InterruptsConfigTest, UnknownBankRegisterHasDidYouMean) {
  LoadedDatabase loaded =
      CheckYaml(Irq(kEngines, "", "      - {dw: DW_0, selector: SEL0, identity: ID0, master_bit: 0}\n"));
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(24, 14, HasSubstr("unknown register 'DW_0' (did you mean 'DW0'?)"))))
      << Rendered(loaded);
}

TEST(InterruptsConfigTest, DuplicateEngineNameIdAndBit) {
  LoadedDatabase loaded = CheckYaml(Irq(
      std::string(kEngines) +
      "      - {name: RCS0, class: 0, instance: 0, bank: 0, bit: 25, enable: EN.A}\n"));
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(28, 16, HasSubstr("engine 'RCS0' is declared twice"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(28, 42, HasSubstr("has the class 0 and instance 0 of engine 'RCS0'"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(28, 59, HasSubstr("uses bit 25 of bank 0, already used by engine 'GUC'"))))
      << Rendered(loaded);
}

TEST(InterruptsConfigTest, BadBitsBankAndClass) {
  LoadedDatabase loaded = CheckYaml(Irq(
      "      - {name: RCS0, class: 6, instance: 64, bank: 1, bit: 32, enable: EN.A}\n"));
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(26, 29, HasSubstr("class 6 is reserved")))) << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(26, 42, HasSubstr("instance")))) << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(26, 52, HasSubstr("bank")))) << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(26, 60, HasSubstr("bit")))) << Rendered(loaded);
}

TEST(InterruptsConfigTest, HalvesMustBeSixteenBitFields) {
  LoadedDatabase loaded = CheckYaml(Irq(
      "      - {name: RCS0, class: 0, instance: 0, bank: 0, bit: 0, enable: EN, mask: MASK.B}\n"
      "      - {name: BCS0, class: 3, instance: 0, bank: 0, bit: 15, enable: ENX.A, mask: MASK.C}\n"));
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(26, 70, HasSubstr("must be REGISTER.FIELD")))) << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(26, 80, HasSubstr("is 8 bits wide")))) << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(27, 71, HasSubstr("unknown register 'ENX' (did you mean 'EN'?)"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(27, 84, HasSubstr("register 'MASK' has no field 'C'"))))
      << Rendered(loaded);
}

// ICL PRM Vol 13, "Enable and Mask Registers".
TEST(InterruptsConfigTest, SeedSharingRules) {
  LoadedDatabase loaded = CheckYaml(Irq(
      "      - {name: VCS0, class: 1, instance: 0, bank: 0, bit: 0, enable: EN.A, mask: MASK.A}\n"
      "      - {name: VCS1, class: 1, instance: 1, bank: 0, bit: 1, enable: EN.B, mask: MASK.A}\n"
      "      - {name: GUC, class: 4, instance: 0, bank: 0, bit: 25, enable: EN.B}\n"
      "      - {name: GTPM, class: 4, instance: 1, bank: 0, bit: 16, enable: EN.B}\n"));
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(27, 70, HasSubstr("instances of a class share one Enable register"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(27, 82, HasSubstr("every instance has its own Mask register"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(29, 71, HasSubstr("each instance in the Other class has its own Enable"))))
      << Rendered(loaded);
}

TEST(InterruptsConfigTest, ShippedIclIsClean) {
  LoadedDatabase loaded = LoadAndCheck(std::string(REGEMU_SOURCE_DIR) + "/yaml/icl");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

}  // namespace
}  // namespace regemu::regdb
