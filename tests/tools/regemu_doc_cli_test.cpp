// `regemu doc` as a user runs it: the shipped databases render, the exit
// codes, and what it says it wrote.
#include <stdlib.h>

#include <filesystem>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/tools/cli_support.hpp"

namespace {

namespace fs = std::filesystem;
using regemu::testing_support::RunRegemu;
using ::testing::HasSubstr;

class RegemuDocCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/regemu_doc_cli_XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    root_ = pattern;
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(RegemuDocCliTest, RendersIceLakeWithAPagePerRegisterSpaceAndBehaviour) {
  auto result = RunRegemu("doc yaml/icl -o '" + (root_ / "icl").string() + "'");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("registers to"));
  EXPECT_THAT(result.out, HasSubstr("index.html"));
  for (const char* file : {"index.html", "r/PCICMD.html", "r/GEN11_GFX_MSTR_IRQ.html", "s/mmio.html", "s/config.html",
                           "b/forcewake.html", "b/irq.html"}) {
    EXPECT_TRUE(fs::exists(root_ / "icl" / file)) << file;
  }
  std::string irq = regemu::testing_support::Slurp(root_ / "icl" / "b" / "irq.html");
  EXPECT_THAT(irq, HasSubstr("<svg class=\"interrupt-tree\""));
  EXPECT_THAT(irq, HasSubstr("data-engine=\"RCS0\""));
  std::string forcewake = regemu::testing_support::Slurp(root_ / "icl" / "b" / "forcewake.html");
  EXPECT_THAT(forcewake, HasSubstr("data-domain=\"render\""));
}

TEST_F(RegemuDocCliTest, RendersHaswellsOaUnitWithItsReportLayouts) {
  auto result = RunRegemu("doc yaml/hsw -o '" + (root_ / "hsw").string() + "'");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  bool found = false;
  for (const auto& entry : fs::directory_iterator(root_ / "hsw" / "b")) {
    found = found || regemu::testing_support::Slurp(entry.path()).find("<svg class=\"oa-layout\"") != std::string::npos;
  }
  EXPECT_TRUE(found) << "no behaviour page of hsw draws an OA report layout";
}

TEST_F(RegemuDocCliTest, AMissingDatabaseExitsTwo) {
  auto result = RunRegemu("doc yaml/nosuch -o '" + (root_ / "x").string() + "'");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("no such file or folder"));
}

TEST_F(RegemuDocCliTest, AFolderHoldingOtherFilesIsRefusedWithExitOne) {
  fs::create_directories(root_ / "busy");
  regemu::testing_support::RunShell("touch '" + (root_ / "busy" / "mine.txt").string() + "'");
  auto result = RunRegemu("doc yaml/icl -o '" + (root_ / "busy").string() + "'");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, HasSubstr("not empty"));
}

}  // namespace
