// `include:` (yaml/README.md "Top level"): paths relative to the including
// file, a file reached twice is loaded once, a cycle is an error at the
// include that closes it, and a folder means its device.yaml.
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;
using testing_support::CheckFiles;
using testing_support::ErrorAt;
using testing_support::NoteAt;
using testing_support::Rendered;

template <typename... Matchers>
auto WithNotes(Matchers... notes) {
  return Field(&Diagnostic::notes, ElementsAre(notes...));
}

std::vector<std::string> RegisterNames(const LoadedDatabase& loaded) {
  std::vector<std::string> names;
  for (const Register& reg : loaded.database.registers) names.push_back(reg.name);
  return names;
}

// The paths of the files that were read, in load order.
std::vector<std::string> LoadedPaths(const LoadedDatabase& loaded) {
  std::vector<std::string> paths;
  for (uint32_t id = 1; id < loaded.sources.size(); ++id) paths.push_back(loaded.sources.file(id).path);
  return paths;
}

std::string PathOf(const LoadedDatabase& loaded, SourceLoc loc) { return loaded.sources.file(loc.file).path; }

TEST(IncludeTest, DeviceSpreadOverThreeFilesLoadsEveryRegister) {
  LoadedDatabase loaded = CheckFiles({{"device.yaml", R"(device: hsw
include:
  - spaces.yaml
  - oa.yaml
registers:
  - {name: GFX_MODE, space: mmio, offset: 0x229C}
)"},
                                      {"spaces.yaml", R"(spaces:
  - {name: mmio, kind: mmio, size: 0x200000}
)"},
                                      {"oa.yaml", R"(registers:
  - {name: OACONTROL, space: mmio, offset: 0x2360}
  - {name: OASTATUS1, space: mmio, offset: 0x2364}
)"}},
                                     "device.yaml");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_THAT(RegisterNames(loaded), UnorderedElementsAre("GFX_MODE", "OACONTROL", "OASTATUS1"));
  EXPECT_THAT(LoadedPaths(loaded), ElementsAre("device.yaml", "spaces.yaml", "oa.yaml"));
  // Every register remembers the file it came from.
  const Register* oastatus = loaded.database.RegisterNamed("OASTATUS1");
  ASSERT_NE(oastatus, nullptr);
  EXPECT_EQ(PathOf(loaded, oastatus->loc), "oa.yaml");
  EXPECT_EQ(oastatus->loc.line, 3u);
}

TEST(IncludeTest, PathsAreRelativeToTheIncludingFile) {
  // hsw/oa/counters.yaml includes "../common/spaces.yaml" and "more.yaml":
  // hsw/common/spaces.yaml and hsw/oa/more.yaml, not paths from the root's folder.
  LoadedDatabase loaded = CheckFiles({{"hsw/device.yaml", R"(device: hsw
include: [oa/counters.yaml]
)"},
                                      {"hsw/oa/counters.yaml", R"(include:
  - ../common/spaces.yaml
  - more.yaml
registers:
  - {name: OAPERF_A0, space: mmio, offset: 0x2800}
)"},
                                      {"hsw/oa/more.yaml", R"(registers:
  - {name: OAPERF_B0, space: mmio, offset: 0x2900}
)"},
                                      {"hsw/common/spaces.yaml", R"(spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
)"}},
                                     "hsw/device.yaml");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_THAT(RegisterNames(loaded), UnorderedElementsAre("OAPERF_A0", "OAPERF_B0"));
  EXPECT_THAT(LoadedPaths(loaded),
              ElementsAre("hsw/device.yaml", "hsw/oa/counters.yaml", "hsw/common/spaces.yaml", "hsw/oa/more.yaml"));
}

TEST(IncludeTest, CycleIsAnErrorAtTheIncludeThatClosesIt) {
  LoadedDatabase loaded = CheckFiles({{"a.yaml", R"(device: d
include: [b.yaml]
)"},
                                      {"b.yaml", R"(include:
  - a.yaml
)"}},
                                     "a.yaml");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(AllOf(ErrorAt(2, 5, HasSubstr("include cycle: a.yaml -> b.yaml -> a.yaml")),
                                WithNotes(NoteAt(2, 11, HasSubstr("'b.yaml' is included here"))))))
      << Rendered(loaded);
  const Diagnostic& cycle = loaded.diagnostics.all()[0];
  EXPECT_EQ(PathOf(loaded, cycle.loc), "b.yaml");
  EXPECT_EQ(PathOf(loaded, cycle.notes[0].loc), "a.yaml");
}

TEST(IncludeTest, LongerCycleHasANoteForEveryLinkOfTheChain) {
  LoadedDatabase loaded = CheckFiles({{"a.yaml", "device: d\ninclude: [b.yaml]\n"},
                                      {"b.yaml", "include: [c.yaml]\n"},
                                      {"c.yaml", "doc: closes the loop\ninclude: [b.yaml]\n"}},
                                     "a.yaml");
  // The cycle is b -> c -> b; a only leads into it.
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(AllOf(ErrorAt(2, 11, HasSubstr("include cycle: b.yaml -> c.yaml -> b.yaml")),
                                WithNotes(NoteAt(1, 11, HasSubstr("'c.yaml' is included here"))))))
      << Rendered(loaded);
  const Diagnostic& cycle = loaded.diagnostics.all()[0];
  EXPECT_EQ(PathOf(loaded, cycle.loc), "c.yaml");
  EXPECT_EQ(PathOf(loaded, cycle.notes[0].loc), "b.yaml");
}

TEST(IncludeTest, FileIncludingItselfIsACycle) {
  LoadedDatabase loaded = CheckFiles({{"a.yaml", R"(device: d
include: [./a.yaml]
)"}},
                                     "a.yaml");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(AllOf(ErrorAt(2, 11, HasSubstr("include cycle: a.yaml -> a.yaml")), WithNotes())))
      << Rendered(loaded);
}

TEST(IncludeTest, DiamondLoadsTheSharedFileOnce) {
  // device includes left and right; both include common: common's register is defined once, not twice.
  LoadedDatabase loaded = CheckFiles({{"device.yaml", R"(device: d
include: [left.yaml, right.yaml]
)"},
                                      {"left.yaml", "include: [common.yaml]\n"},
                                      {"right.yaml", "include: [sub/../common.yaml]\n"},
                                      {"common.yaml", R"(spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: SHARED, space: mmio, offset: 0}
)"}},
                                     "device.yaml");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_THAT(RegisterNames(loaded), ElementsAre("SHARED"));
  EXPECT_THAT(LoadedPaths(loaded), ElementsAre("device.yaml", "left.yaml", "common.yaml", "right.yaml"));
}

TEST(IncludeTest, MissingIncludedFileIsAnErrorAtTheIncludeLine) {
  LoadedDatabase loaded = CheckFiles({{"device.yaml", R"(device: d
include:
  - spaces.yaml
  - registrs.yaml
)"},
                                      {"spaces.yaml", "spaces: [{name: mmio, kind: mmio, size: 0x1000}]\n"}},
                                     "device.yaml");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(4, 5, HasSubstr("cannot read 'registrs.yaml': no such file"))))
      << Rendered(loaded);
  EXPECT_EQ(PathOf(loaded, loaded.diagnostics.all()[0].loc), "device.yaml");
  EXPECT_EQ(loaded.database.spaces.size(), 1u);  // the other include still loads
}

TEST(IncludeTest, MissingRootFileIsAnErrorWithoutAPosition) {
  LoadedDatabase loaded = CheckFiles({{"device.yaml", "device: d\n"}}, "devcie.yaml");
  ASSERT_THAT(loaded.diagnostics.all(), ElementsAre(Field(&Diagnostic::message,
                                                          HasSubstr("cannot read 'devcie.yaml': no such file"))))
      << Rendered(loaded);
  EXPECT_FALSE(loaded.diagnostics.all()[0].loc.known());
  EXPECT_EQ(Rendered(loaded), "error: cannot read 'devcie.yaml': no such file\n");
}

TEST(IncludeTest, IncludeMustBeAListOfPaths) {
  LoadedDatabase loaded = CheckFiles({{"device.yaml", R"(device: d
include: spaces.yaml
)"}},
                                     "device.yaml");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(2, 10, HasSubstr("expected include as a sequence, got a scalar"))))
      << Rendered(loaded);
  LoadedDatabase other = CheckFiles({{"other.yaml", R"(device: e
include:
  - {path: spaces.yaml}
)"}},
                                    "other.yaml");
  EXPECT_THAT(other.diagnostics.all(),
              ElementsAre(ErrorAt(3, 5, HasSubstr("expected include path as a scalar, got a mapping"))))
      << Rendered(other);
}

TEST(IncludeTest, ErrorsInIncludedFilesPointIntoThoseFiles) {
  LoadedDatabase loaded = CheckFiles({{"device.yaml", R"(device: d
include: [regs.yaml]
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
)"},
                                      {"regs.yaml", R"(registers:
  - {name: A, space: mmio, offset: 0, width: 24}
)"}},
                                     "device.yaml");
  ASSERT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(2, 46, HasSubstr("width must be 8, 16, 32 or 64"))))
      << Rendered(loaded);
  EXPECT_EQ(PathOf(loaded, loaded.diagnostics.all()[0].loc), "regs.yaml");
  EXPECT_THAT(Rendered(loaded), HasSubstr("regs.yaml:2:46: error: width must be"));
}

TEST(IncludeTest, EmptyIncludedFileAddsNothingAndIsNotAnError) {
  LoadedDatabase loaded = CheckFiles({{"device.yaml", "device: d\ninclude: [empty.yaml, comment.yaml]\n"},
                                      {"empty.yaml", ""},
                                      {"comment.yaml", "# nothing here yet\n"}},
                                     "device.yaml");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_EQ(loaded.database.device, "d");
}

// --- On disk: a device folder -----------------------------------------------

class IncludeOnDiskTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device random;
    dir_ = fs::temp_directory_path() / ("regemu-include-test-" + std::to_string(random()));
    fs::create_directories(dir_ / "oa");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  void Write(const std::string& relative, const std::string& text) {
    std::ofstream out(dir_ / relative, std::ios::binary);
    out << text;
  }

  fs::path dir_;
};

TEST_F(IncludeOnDiskTest, FolderPathLoadsItsDeviceYaml) {
  Write("device.yaml", R"(device: hsw
include: [oa/regs.yaml]
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
)");
  Write("oa/regs.yaml", R"(registers:
  - {name: OACONTROL, space: mmio, offset: 0x2360}
)");
  LoadedDatabase loaded = LoadAndCheck(dir_);
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_EQ(loaded.database.device, "hsw");
  EXPECT_NE(loaded.database.RegisterNamed("OACONTROL"), nullptr);
  EXPECT_THAT(LoadedPaths(loaded), ElementsAre((dir_ / "device.yaml").lexically_normal().generic_string(),
                                               (dir_ / "oa/regs.yaml").lexically_normal().generic_string()));
}

TEST_F(IncludeOnDiskTest, FolderWithoutDeviceYamlIsAnError) {
  Write("oa/regs.yaml", "registers: []\n");
  LoadedDatabase loaded = LoadAndCheck(dir_);
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(Field(&Diagnostic::message, AllOf(HasSubstr("cannot read '"), HasSubstr("device.yaml'")))))
      << Rendered(loaded);
}

TEST_F(IncludeOnDiskTest, IncludingAFolderIsAnErrorNotItsDeviceYaml) {
  // Only the root may be a folder; an include names a file.
  Write("device.yaml", "device: hsw\ninclude: [oa]\n");
  Write("oa/device.yaml", "registers: []\n");
  LoadedDatabase loaded = LoadAndCheck(dir_);
  ASSERT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(2, 11, HasSubstr("is a folder, not a file"))))
      << Rendered(loaded);
}

}  // namespace
}  // namespace regemu::regdb
