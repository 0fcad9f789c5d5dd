// `regemu convert` as a user runs it: exit codes, what is written and what
// is not, the left-out list on stderr.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/tools/cli_support.hpp"

namespace regemu::testing_support {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

fs::path Scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("regemu_convert_cli_" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(ConvertCli, SvdIntoAFolderThatChecksClean) {
  fs::path out = Scratch("ok");
  CliResult r = RunRegemu("convert svd tests/fuzz/corpus/svd_fuzz/minimal.svd -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("device 'MINI', 2 peripheral(s), 7 register(s)"));
  CliResult check = RunRegemu("check " + out.string());
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
}

TEST(ConvertCli, BrokenSvdIsLocatedAndWritesNothing) {
  fs::path out = Scratch("broken");
  CliResult r = RunRegemu("convert svd tests/fuzz/corpus/svd_fuzz/derived_cycle.svd -o " + out.string() + "/db");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("derived_cycle.svd:"));
  EXPECT_THAT(r.err, HasSubstr("error: derivedFrom cycle"));
  EXPECT_FALSE(fs::exists(out / "db"));
}

TEST(ConvertCli, DatabaseToSvdListsWhatItLeavesOut) {
  fs::path out = Scratch("export") / "hpet.svd";
  CliResult r = RunRegemu("convert --to svd yaml/hpet -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("left out: space 'state' (state)"));
  EXPECT_THAT(r.err, HasSubstr("left out: behaviour"));
  EXPECT_THAT(Slurp(out), HasSubstr("<device schemaVersion=\"1.3\""));
}

TEST(ConvertCli, AmdgpuHeadersIntoAFolderThatChecksClean) {
  fs::path out = Scratch("amdgpu");
  CliResult r = RunRegemu(
      "convert amdgpu tests/convert/data/amdgpu/gc_9_4_3_offset.h "
      "tests/convert/data/amdgpu/gc_9_4_3_sh_mask.h --bases 0x2000,0xA000 -o " +
      out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("device 'gc_9_4_3', "));
  EXPECT_THAT(r.out, HasSubstr("every field rw"));
  EXPECT_THAT(Slurp(out / "device.yaml"), HasSubstr("every field is imported as `rw`"));
  CliResult check = RunRegemu("check " + out.string());
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
}

TEST(ConvertCli, BrokenAmdgpuHeaderIsLocatedAndWritesNothing) {
  fs::path out = Scratch("amdgpu_broken");
  CliResult r = RunRegemu(
      "convert amdgpu tests/fuzz/corpus/amdgpu_fuzz/truncated.h "
      "tests/fuzz/corpus/amdgpu_fuzz/truncated.h --bases 0x2000 -o " +
      out.string() + "/db");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("truncated.h:4:1: error: the file ends inside this #ifndef"));
  EXPECT_FALSE(fs::exists(out / "db"));
}

TEST(ConvertCli, UsageErrors) {
  EXPECT_EQ(RunRegemu("convert amdgpu tests/convert/data/amdgpu/gc_9_4_3_offset.h "
                      "tests/convert/data/amdgpu/gc_9_4_3_sh_mask.h -o out")
                .exit_code,
            2);  // no --bases
  EXPECT_EQ(RunRegemu("convert amdgpu tests/convert/data/amdgpu/gc_9_4_3_offset.h "
                      "tests/convert/data/amdgpu/gc_9_4_3_sh_mask.h --bases 0x2000,zz -o out")
                .exit_code,
            2);
  EXPECT_EQ(RunRegemu("convert xml foo.xml -o out").exit_code, 2);
  EXPECT_EQ(RunRegemu("convert --to svd a b -o out").exit_code, 2);
  EXPECT_EQ(RunRegemu("convert svd /no/such.svd -o out").exit_code, 2);
}

}  // namespace
}  // namespace regemu::testing_support
