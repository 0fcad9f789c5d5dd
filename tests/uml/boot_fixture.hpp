#pragma once
// The fixture of the tests that boot a real Linux kernel (User-Mode Linux
// built by tools/uml/build-kernel.sh, named by REGEMU_UML_KERNEL;
// tools/test.sh builds it and sets it): a scratch folder per test, an
// initramfs of busybox and tests/uml/data/INIT as /init, and `regemu boot`.
// Without REGEMU_UML_KERNEL the tests skip, saying how to get one.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "tests/tools/cli_support.hpp"

namespace regemu::uml {

class KernelBootTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* kernel = std::getenv("REGEMU_UML_KERNEL");
    if (kernel == nullptr || *kernel == '\0') {
      GTEST_SKIP() << "REGEMU_UML_KERNEL is not set: build the kernel with tools/uml/build-kernel.sh (its last "
                      "line is the path) and set it; tools/test.sh does both";
    }
    kernel_ = kernel;
    ASSERT_TRUE(std::filesystem::exists(kernel_)) << "REGEMU_UML_KERNEL names " << kernel_ << ", which does not exist";
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    scratch_ = std::filesystem::temp_directory_path() /
               ("regemu_boot_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
                std::to_string(::getpid()));
    std::filesystem::create_directories(scratch_);
  }
  void TearDown() override {
    std::error_code ignored;
    if (!scratch_.empty()) std::filesystem::remove_all(scratch_, ignored);
  }

  // An initramfs of busybox and tests/uml/data/INIT as /init.
  std::string Initramfs(const std::string& init) {
    std::filesystem::path cpio = scratch_ / (init + ".cpio");
    regemu::testing_support::CliResult made =
        regemu::testing_support::RunShell("tools/uml/make-initramfs.sh '" + cpio.string() + "' tests/uml/data/" + init);
    EXPECT_EQ(made.exit_code, 0) << made.err;
    return cpio.string();
  }
  regemu::testing_support::CliResult Boot(const std::string& init, const std::string& args) {
    return regemu::testing_support::RunRegemu("boot --kernel '" + kernel_ + "' --initrd '" + Initramfs(init) + "' " + args);
  }

  // Two boots with the same inputs (`args` are `regemu boot`'s, without
  // --trace); each must power off cleanly. Their traces, first and second.
  std::pair<std::string, std::string> TwoBootTraces(const std::string& init, const std::string& args) {
    std::filesystem::path first = scratch_ / "first.script";
    std::filesystem::path second = scratch_ / "second.script";
    regemu::testing_support::CliResult a = Boot(init, "--trace '" + first.string() + "' " + args);
    regemu::testing_support::CliResult b = Boot(init, "--trace '" + second.string() + "' " + args);
    EXPECT_EQ(a.exit_code, 0) << a.err;
    EXPECT_EQ(b.exit_code, 0) << b.err;
    return {regemu::testing_support::Slurp(first), regemu::testing_support::Slurp(second)};
  }

  std::string kernel_;
  std::filesystem::path scratch_;
};

}  // namespace regemu::uml
