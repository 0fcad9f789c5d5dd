// Overlays (yaml/README.md "Overlays"): a file of the user's own that
// includes an imported database and changes it by name, without copying it.
// Each change kind on a small import, each mistake located at the change
// that makes it, and conflicts left to the ordinary checks.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using testing_support::CheckFiles;
using testing_support::ErrorAt;
using testing_support::Rendered;

// What an importer writes: a device, a space, registers with fields.
constexpr const char* kImport = R"(device: chip
doc: "imported"
spaces:
  - {name: bus, kind: mmio, size: 0x1000}
registers:
  - name: CTRL
    space: bus
    offset: 0x0
    fields:
      - {name: EN, bits: "0", access: rw}
      - {name: MODE, bits: "3:1", access: rw, reset: 2}
  - {name: STATUS, space: bus, offset: 0x4, access: ro}
  - {name: SPARE, space: bus, offset: 0x8}
)";

LoadedDatabase CheckOverlay(const std::string& overlay) {
  return CheckFiles({{"import/device.yaml", kImport}, {"overlay.yaml", overlay}}, "overlay.yaml");
}

const Register& Reg(const LoadedDatabase& loaded, std::string_view name) {
  const Register* reg = loaded.database.RegisterNamed(name);
  EXPECT_NE(reg, nullptr) << name;
  static const Register kNone;
  return reg ? *reg : kNone;
}

TEST(OverlayTest, TakesTheImportedDeviceAndAddsNothingWithoutChanges) {
  LoadedDatabase loaded = CheckOverlay("include: [import/device.yaml]\nchanges: []\n");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  EXPECT_EQ(loaded.database.device, "chip");
  EXPECT_EQ(loaded.database.doc, "imported");
  EXPECT_EQ(loaded.database.registers.size(), 3u);
}

TEST(OverlayTest, SetsARegistersPolicyResetDocAndVolatile) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - {register: STATUS, access: hw, doc: "live status"}
  - {register: SPARE, reset: 0x55, volatile: true, ref: "datasheet 4.2"}
)");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  EXPECT_EQ(Reg(loaded, "STATUS").default_access, Access::kHw);
  EXPECT_TRUE(Reg(loaded, "STATUS").is_volatile);  // hw bits change behind software's back
  EXPECT_EQ(Reg(loaded, "STATUS").doc, "live status");
  EXPECT_EQ(Reg(loaded, "SPARE").reset, 0x55u);
  EXPECT_TRUE(Reg(loaded, "SPARE").is_volatile);
  EXPECT_EQ(Reg(loaded, "SPARE").ref, "datasheet 4.2");
  EXPECT_EQ(Reg(loaded, "SPARE").reset_loc.line, 4u);  // a wrong reset is blamed on the overlay's line
}

TEST(OverlayTest, SetsAFieldsPolicyResetDocAndVolatileAndTheRegisterResetFollows) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - {field: CTRL.EN, access: w1c, volatile: true, doc: "write 1 to stop"}
  - {field: CTRL.MODE, reset: 5}
)");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const Register& ctrl = Reg(loaded, "CTRL");
  EXPECT_EQ(ctrl.FindField("EN")->access, Access::kW1c);
  EXPECT_TRUE(ctrl.FindField("EN")->is_volatile);
  EXPECT_EQ(ctrl.FindField("EN")->doc, "write 1 to stop");
  EXPECT_EQ(ctrl.FindField("MODE")->reset, 5u);
  EXPECT_EQ(ctrl.reset, 5u << 1);
}

// What `regemu header --changed-only` keeps: the registers a change names,
// by a register change or by a change of one of its fields.
TEST(OverlayTest, MarksTheRegistersItsChangesName) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - {field: CTRL.EN, doc: "enable"}
  - {register: STATUS, volatile: true}
)");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  EXPECT_TRUE(Reg(loaded, "CTRL").changed_by_overlay);
  EXPECT_TRUE(Reg(loaded, "STATUS").changed_by_overlay);
  EXPECT_FALSE(Reg(loaded, "SPARE").changed_by_overlay);
  // A change that names nothing the database has marks nothing.
  LoadedDatabase wrong = CheckOverlay("include: [import/device.yaml]\nchanges:\n  - {field: CTRL.NOPE, doc: x}\n");
  EXPECT_TRUE(wrong.diagnostics.has_errors());
  EXPECT_FALSE(Reg(wrong, "CTRL").changed_by_overlay);
}

TEST(OverlayTest, ARegisterResetGivesItsFieldsTheirResets) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - {register: CTRL, reset: 0xE}
)");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  EXPECT_EQ(Reg(loaded, "CTRL").FindField("MODE")->reset, 7u);
}

TEST(OverlayTest, AddsFieldsAndReservesTheBitsTheyLeaveInAFieldlessRegister) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - register: SPARE
    add_fields:
      - {name: LO, bits: "7:0", access: rw, reset: 0x12}
      - {name: HI, bits: "15:8", access: ro}
  - register: CTRL
    add_fields:
      - {name: GO, bits: "4", access: w1s}
)");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const Register& spare = Reg(loaded, "SPARE");
  ASSERT_EQ(spare.fields.size(), 2u);
  EXPECT_EQ(spare.reset, 0x12u);
  EXPECT_EQ(spare.default_access, Access::kRsvd);
  EXPECT_EQ(Reg(loaded, "CTRL").fields.size(), 3u);
  EXPECT_EQ(Reg(loaded, "CTRL").FindField("GO")->access, Access::kW1s);
}

TEST(OverlayTest, RemovesRegistersAndFields) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - {register: SPARE, remove: true}
  - {field: CTRL.MODE, remove: true}
)");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  EXPECT_EQ(loaded.database.RegisterNamed("SPARE"), nullptr);
  EXPECT_EQ(loaded.database.registers.size(), 2u);
  ASSERT_EQ(Reg(loaded, "CTRL").fields.size(), 1u);
  EXPECT_EQ(Reg(loaded, "CTRL").reset, 0u);  // MODE's reset went with it
}

TEST(OverlayTest, MakesARegisterAViewOfAnother) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - {register: SPARE, view_of: STATUS}
)");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  EXPECT_EQ(Reg(loaded, "SPARE").view_of, "STATUS");
}

// An overlay can itself be included by another: a file's changes apply
// after those of the files it includes, so the outer one has the last word.
TEST(OverlayTest, OverlaysStack) {
  LoadedDatabase loaded = CheckFiles({{"import/device.yaml", kImport},
                                      {"first.yaml", "include: [import/device.yaml]\nchanges:\n"
                                                     "  - {register: SPARE, doc: inner}\n"
                                                     "  - {register: STATUS, doc: inner}\n"},
                                      {"outer.yaml", "include: [first.yaml]\nchanges:\n"
                                                     "  - {register: SPARE, doc: outer}\n"}},
                                     "outer.yaml");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  EXPECT_EQ(Reg(loaded, "SPARE").doc, "outer");
  EXPECT_EQ(Reg(loaded, "STATUS").doc, "inner");
}

TEST(OverlayTest, BehavioursAndRulesOfTheOverlayNameImportedRegisters) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - {register: STATUS, add_fields: [{name: DONE, bits: "0", access: hw}]}
behaviours:
  - name: chip
    kind: reactions
    reactions:
      - {name: go, on: {rise: CTRL.EN}, do: [{after: 1us, set: {STATUS.DONE: 1}}]}
    rules:
      - name: mode_while_enabled
        on: {write: CTRL}
        when: "CTRL.EN == 1 && CTRL.MODE == 7"
        violation: "MODE 7 is reserved"
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  ASSERT_EQ(loaded.database.behaviours.size(), 1u);
  EXPECT_NE(loaded.database.behaviours[0].config, nullptr);
}

TEST(OverlayTest, AnOverlayThatNamesTheDeviceRenamesIt) {
  LoadedDatabase loaded = CheckOverlay(R"(device: my_chip
doc: "mine"
include: [import/device.yaml]
changes: []
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  EXPECT_EQ(loaded.database.device, "my_chip");
  EXPECT_EQ(loaded.database.doc, "mine");
}

TEST(OverlayTest, AFileWithoutChangesStillRefusesAnIncludedDevice) {
  LoadedDatabase loaded = CheckFiles(
      {{"import/device.yaml", kImport}, {"root.yaml", "device: mine\ninclude: [import/device.yaml]\n"}}, "root.yaml");
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(1, 9, HasSubstr("'device' belongs in the root file only"))));
}

// An import's register BAR is as large as its registers reach; the device's
// is as large as the PCI BAR, and is that BAR.
TEST(OverlayTest, SetsASpacesSizeBarAndDoc) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - {space: bus, size: 0x100000, pci_bar: 5, doc: "register BAR"}
)");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  auto index = loaded.database.FindSpace("bus");
  ASSERT_TRUE(index.has_value());
  const Space* bus = &loaded.database.spaces[*index];
  EXPECT_EQ(bus->size, 0x100000u);
  EXPECT_EQ(bus->pci_bar, 5u);
  EXPECT_EQ(bus->doc, "register BAR");
  EXPECT_EQ(bus->size_loc.line, 3u);  // a register past the end is blamed on the overlay's size
}

TEST(OverlayTest, ASpaceTooSmallForItsRegistersIsReportedByTheChecksAtTheChange) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - {space: bus, size: 0x8}
)");
  EXPECT_TRUE(loaded.diagnostics.has_errors());
  EXPECT_THAT(Rendered(loaded), HasSubstr("SPARE"));
}

// ---------------------------------------------------------------- mistakes

TEST(OverlayTest, AMissingRegisterIsAnErrorAtTheChangeWithTheNearestName) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - {register: STATSU, access: hw}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 16, AllOf(HasSubstr("register 'STATSU'"), HasSubstr("does not have"),
                                               HasSubstr("did you mean 'STATUS'?")))));
  EXPECT_THAT(Rendered(loaded), HasSubstr("overlay.yaml:3:16: error:"));
}

TEST(OverlayTest, AMissingFieldIsAnErrorAtTheChangeWithTheNearestName) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - {field: CTRL.MOD, reset: 1}
  - {field: CTLR.EN, reset: 1}
  - {field: CTRL, reset: 1}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 13, AllOf(HasSubstr("field 'MOD' of register 'CTRL'"),
                                               HasSubstr("did you mean 'MODE'?"))),
                          ErrorAt(4, 13, AllOf(HasSubstr("register 'CTLR'"), HasSubstr("did you mean 'CTRL'?"))),
                          ErrorAt(5, 13, HasSubstr("must be REGISTER.FIELD"))));
}

TEST(OverlayTest, AMissingSpaceOrAWrongSpaceKeyIsAnErrorAtTheChange) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - {space: bsu, size: 0x2000}
  - {space: bus, kind: memory}
  - {space: bus, pci_bar: 6}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 13, AllOf(HasSubstr("space 'bsu'"), HasSubstr("does not have"),
                                               HasSubstr("did you mean 'bus'?"))),
                          ErrorAt(4, 18, HasSubstr("kind")), ErrorAt(5, 27, HasSubstr("pci_bar"))));
}

TEST(OverlayTest, ARegisterRemovedEarlierCannotBeChangedLater) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - {register: SPARE, remove: true}
  - {register: SPARE, doc: "x"}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(4, 16, HasSubstr("an earlier change removed it"))));
}

TEST(OverlayTest, MalformedChangesAreLocatedErrors) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - {register: CTRL, field: CTRL.EN}
  - {register: CTRL, acess: rw}
  - {field: CTRL.EN, remove: true, doc: "x"}
  - {register: CTRL, add_fields: [{name: EN, bits: "5"}]}
  - {register: CTRL, access: rwx}
  - just text
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 5, HasSubstr("exactly one of 'register: NAME', 'field: REGISTER.FIELD' and 'space: NAME'")),
                          ErrorAt(4, 22, HasSubstr("did you mean 'access'?")),
                          ErrorAt(5, 30, HasSubstr("'remove: true' has no other keys")),
                          ErrorAt(6, 35, HasSubstr("already has a field 'EN'")),
                          ErrorAt(7, 30, HasSubstr("rwx")), ErrorAt(8, 5, HasSubstr("expected a change"))));
}

TEST(OverlayTest, AnOverlayWithoutADeviceAnywhereIsAnError) {
  LoadedDatabase loaded = CheckFiles({{"overlay.yaml", "changes: []\n"}}, "overlay.yaml");
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(1, 10, HasSubstr("names no device"))));
}

// Conflicts a change makes are the ordinary checks' to report, at the change.
TEST(OverlayTest, AFieldOverlapAndAResetOutsideTheFieldAreReportedByTheChecks) {
  LoadedDatabase loaded = CheckOverlay(R"(include: [import/device.yaml]
changes:
  - {register: CTRL, add_fields: [{name: WIDE, bits: "2:1"}]}
  - {field: CTRL.EN, reset: 2}
)");
  std::string rendered = Rendered(loaded);
  EXPECT_THAT(rendered, HasSubstr("overlay.yaml:3:54: error: field 'WIDE' bits 2:1 overlap field 'MODE'"));
  EXPECT_THAT(rendered, HasSubstr("overlay.yaml:4:29: error: reset 0x2 of field 'EN'"));
  EXPECT_THAT(loaded.diagnostics.all(), Not(IsEmpty()));
}

}  // namespace
}  // namespace regemu::regdb
