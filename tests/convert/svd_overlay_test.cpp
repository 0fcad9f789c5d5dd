// An overlay over a converted SVD survives re-importing (yaml/README.md
// "Overlays"): a newer SVD with an unrelated change keeps it valid; one that
// renames or drops a register the overlay names makes the check say which
// overlay line names what.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/convert/svd_test_support.hpp"

namespace regemu::convert {
namespace {

using ::testing::HasSubstr;

std::string Register(const std::string& name, const std::string& offset, const std::string& fields) {
  return "        <register><name>" + name + "</name><addressOffset>" + offset +
         "</addressOffset><resetValue>0</resetValue><fields>" + fields + "</fields></register>\n";
}

std::string Field(const std::string& name, const std::string& range, const std::string& access = "read-write") {
  return "<field><name>" + name + "</name><bitRange>" + range + "</bitRange><access>" + access + "</access></field>";
}

// The vendor's SVD, version 1: a control and a status register.
std::string SvdVersion1() {
  return testing::OnePeripheral(Register("CTRL", "0x0", Field("EN", "[0:0]") + Field("MODE", "[3:1]")) +
                                Register("STAT", "0x4", Field("DONE", "[0:0]", "read-only")));
}

constexpr const char* kOverlay = R"(include: [import/device.yaml]
changes:
  - {field: P_STAT.DONE, access: hw}
  - {register: P_CTRL, add_fields: [{name: GO, bits: "8", access: w1s}]}
behaviours:
  - name: p
    kind: reactions
    reactions:
      - {name: go, on: {rise: P_CTRL.GO}, do: [{after: 10us, set: {P_STAT.DONE: 1}}]}
)";

regdb::LoadedDatabase CheckOverlayOver(const std::string& svd) {
  testing::Converted converted = testing::ConvertSvd(svd);
  EXPECT_TRUE(converted.read.device) << converted.errors;
  std::map<std::string, std::string> files{{"overlay.yaml", kOverlay}};
  for (const auto& [path, text] : converted.files) files["import/" + path] = text;
  regdb::LoadOptions options;
  options.read_file = regdb::InMemoryFileReader(files);
  return regdb::LoadAndCheck("overlay.yaml", options);
}

std::string Errors(const regdb::LoadedDatabase& loaded) {
  return regdb::FormatDiagnostics(loaded.sources, loaded.diagnostics);
}

TEST(SvdOverlayTest, AppliesToTheConvertedDatabase) {
  regdb::LoadedDatabase loaded = CheckOverlayOver(SvdVersion1());
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Errors(loaded);
  EXPECT_EQ(loaded.database.device, "TEST");
  const regdb::Register* ctrl = testing::FindRegister(loaded.database, "P_CTRL");
  ASSERT_NE(ctrl, nullptr);
  EXPECT_NE(ctrl->FindField("GO"), nullptr);
  EXPECT_EQ(testing::FindRegister(loaded.database, "P_STAT")->FindField("DONE")->access, regdb::Access::kHw);
}

TEST(SvdOverlayTest, StaysValidWhenTheSvdGainsAnUnrelatedRegister) {
  std::string version2 = testing::OnePeripheral(
      Register("CTRL", "0x0", Field("EN", "[0:0]") + Field("MODE", "[3:1]")) +
      Register("STAT", "0x4", Field("DONE", "[0:0]", "read-only")) +
      Register("VERSION", "0x8", Field("MINOR", "[7:0]", "read-only")));
  regdb::LoadedDatabase loaded = CheckOverlayOver(version2);
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Errors(loaded);
  EXPECT_EQ(loaded.diagnostics.warning_count(), 0u) << Errors(loaded);
  EXPECT_NE(testing::FindRegister(loaded.database, "P_VERSION"), nullptr);
}

TEST(SvdOverlayTest, ARenamedRegisterIsNamedAtTheOverlayLineThatNamesIt) {
  std::string version2 = testing::OnePeripheral(
      Register("CTRL", "0x0", Field("EN", "[0:0]") + Field("MODE", "[3:1]")) +
      Register("STATUS", "0x4", Field("DONE", "[0:0]", "read-only")));
  regdb::LoadedDatabase loaded = CheckOverlayOver(version2);
  std::string errors = Errors(loaded);
  EXPECT_THAT(errors, HasSubstr("overlay.yaml:3:13: error: the change names register 'P_STAT', which the database "
                                "does not have (did you mean 'P_STATUS'?)"));
  // The behaviour that names it is reported at its own line too.
  EXPECT_THAT(errors, HasSubstr("overlay.yaml:9:"));
}

TEST(SvdOverlayTest, ARemovedFieldIsNamedAtTheOverlayLineThatNamesIt) {
  std::string version2 = testing::OnePeripheral(
      Register("CTRL", "0x0", Field("EN", "[0:0]") + Field("MODE", "[3:1]")) +
      Register("STAT", "0x4", Field("BUSY", "[1:1]", "read-only")));
  regdb::LoadedDatabase loaded = CheckOverlayOver(version2);
  EXPECT_THAT(Errors(loaded), HasSubstr("overlay.yaml:3:13: error: the change names field 'DONE' of register "
                                        "'P_STAT', which has no such field"));
}

TEST(SvdOverlayTest, ABitTheVendorNowUsesConflictsWithTheAddedField) {
  std::string version2 = testing::OnePeripheral(
      Register("CTRL", "0x0", Field("EN", "[0:0]") + Field("MODE", "[3:1]") + Field("PRESCALE", "[11:8]")) +
      Register("STAT", "0x4", Field("DONE", "[0:0]", "read-only")));
  regdb::LoadedDatabase loaded = CheckOverlayOver(version2);
  EXPECT_THAT(Errors(loaded), HasSubstr("overlap"));
  EXPECT_THAT(Errors(loaded), HasSubstr("overlay.yaml:4:"));
}

}  // namespace
}  // namespace regemu::convert
