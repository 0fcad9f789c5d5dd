// `regemu boot` with a real Linux kernel (User-Mode Linux built by
// tools/uml/build-kernel.sh, named by REGEMU_UML_KERNEL; tools/test.sh
// builds it and sets it): the in-tree nvme driver against yaml/nvme, two
// time-travel boots that must repeat byte for byte, a device the driver
// refuses, and each way a kernel can fail (exit status 3, with the reason).
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/tools/cli_support.hpp"
#include "tests/uml/boot_fixture.hpp"

namespace regemu::uml {
namespace {

namespace fs = std::filesystem;
using testing_support::CliResult;
using testing_support::RunRegemu;
using testing_support::RunShell;
using testing_support::Slurp;
using ::testing::HasSubstr;
using ::testing::Not;

using BootTest = KernelBootTest;

TEST_F(BootTest, TheNvmeDriverBindsToTheDatabaseAndShutsItDownWithNoViolation) {
  fs::path trace = scratch_ / "trace.script";
  CliResult run = Boot("nvme_bringup.init", "--timeout 120 --trace '" + trace.string() + "' yaml/nvme");
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("regemu-test: pci 0000:00:00.0 0x1b36:0x0010 class 0x010802"));
  EXPECT_THAT(run.out, HasSubstr("regemu-test: driver nvme"));
  EXPECT_THAT(run.out, HasSubstr("regemu-test: nvme0 state live"));
  EXPECT_THAT(run.out, HasSubstr("regemu-test: /dev/nvme0 is a character device"));
  EXPECT_THAT(run.out, HasSubstr("nvme0q0")) << "the admin queue's interrupt";
  std::string accesses = Slurp(trace);
  EXPECT_THAT(accesses, HasSubstr("write16 config 0x62 0x8010")) << "the driver enabled MSI-X (MXC.MXE)";
  EXPECT_THAT(accesses, HasSubstr("write32 bar0 0x2008")) << "and programmed vector 0's data";
  EXPECT_THAT(accesses, HasSubstr("write32 bar0 0x14 0x00464001")) << "poweroff: CC.SHN = 01b (normal shutdown)";
  EXPECT_THAT(accesses, HasSubstr("expect32 bar0 0x1c 0x00000009")) << "and the driver saw CSTS.SHST = 10b";
  EXPECT_THAT(run.err, HasSubstr("yaml/nvme: ")) << run.err;
  EXPECT_THAT(run.err, HasSubstr(" 0 violation(s)"));
  EXPECT_THAT(run.err, HasSubstr("regemu boot: the kernel powered off"));
}

// What a Linux user does with an NVMe disk (tests/uml/data/nvme_disk.init):
// the identity strings and the size come from the database
// (yaml/nvme/identify.yaml), data written with O_DIRECT in 64 KiB transfers
// (16 pages: PRP lists) reads back equal, and a filesystem keeps a file
// across a remount, all moved by the database's queues.yaml. (The guest's
// console ends its lines with \r\n.)
TEST_F(BootTest, TheNvmeDiskKeepsDataAndAFilesystemWithNoViolation) {
  fs::path trace = scratch_ / "disk.script";
  CliResult run = Boot("nvme_disk.init", "--timeout 300 --trace '" + trace.string() + "' yaml/nvme");
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("regemu-test: nvme0 model regemu NVMe controller\r"));
  EXPECT_THAT(run.out, HasSubstr("regemu-test: nvme0 serial REGEMU0001\r"));
  EXPECT_THAT(run.out, HasSubstr("regemu-test: nvme0 firmware_rev 1.0\r"));
  EXPECT_THAT(run.out, HasSubstr("regemu-test: nvme0n1 size 65536\r")) << "NSZE in 512-byte sectors";
  EXPECT_THAT(run.out, HasSubstr("regemu-test: nvme0n1 logical_block_size 512"));
  for (const char* lba : {"0", "128", "4096", "65408"}) {
    EXPECT_THAT(run.out, HasSubstr(std::string("regemu-test: lba ") + lba + " reads back equal"));
  }
  EXPECT_THAT(run.out, HasSubstr("regemu-test: mke2fs done"));
  EXPECT_THAT(run.out, HasSubstr("regemu-test: remounted"));
  EXPECT_THAT(run.out, HasSubstr("regemu-test: file says kept across a remount"));
  EXPECT_THAT(run.out, HasSubstr("nvme0q1")) << "I/O queue 1's own MSI-X vector";
  std::string accesses = Slurp(trace);
  EXPECT_THAT(accesses, HasSubstr("SQ1TDBL")) << "I/O went through the queue pair the driver created";
  EXPECT_THAT(accesses, HasSubstr("expect32 bar0 0x1c 0x00000009")) << "poweroff: CSTS.SHST = 10b";
  EXPECT_THAT(run.err, HasSubstr(" 0 violation(s)"));
}

TEST_F(BootTest, TwoTimeTravelBootsGiveIdenticalDeviceTraces) {
  auto [first, second] = TwoBootTraces("nvme_bringup.init", "--timeout 120 yaml/nvme");
  EXPECT_THAT(first, HasSubstr("CSTS")) << "the driver polled the controller's status";
  EXPECT_EQ(first, second);
}

TEST_F(BootTest, AControllerTheDriverRefusesShowsTheDriversOwnMessage) {
  CliResult run = Boot("nvme_bringup.init", "--timeout 120 tests/uml/data/nvme_page_too_large.yaml");
  EXPECT_EQ(run.exit_code, 0) << "the kernel powered off and the device saw no violation: " << run.err;
  EXPECT_THAT(run.out, HasSubstr("Minimum device page size 8192 too large for host (4096)"));
  EXPECT_THAT(run.out, Not(HasSubstr("regemu-test: driver nvme")));
}

TEST_F(BootTest, AKernelThatPanicsExitsThreeAndSaysSo) {
  CliResult run = Boot("exit.init", "--timeout 60 yaml/nvme");
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_THAT(run.err, HasSubstr("the kernel panicked: Kernel panic - not syncing"));
}

TEST_F(BootTest, AKernelThatHangsIsKilledAtTheTimeoutAndExitsThree) {
  CliResult run = Boot("hang.init", "--timeout 3 yaml/nvme");
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_THAT(run.err, HasSubstr("still running after 3 s (--timeout)"));
}

TEST_F(BootTest, AKernelThatCannotStartExitsThree) {
  CliResult run = RunRegemu("boot --kernel /nonexistent/linux --initrd /dev/null yaml/nvme");
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_THAT(run.err, HasSubstr("the kernel could not start: the kernel '/nonexistent/linux' is not an executable file"));
}

TEST(BootUsageTest, ADatabaseWithoutAPciFunctionIsAUsageError) {
  CliResult run = RunRegemu("boot --kernel /bin/true --initrd /dev/null yaml/hpet");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("no pci-config space"));
}

}  // namespace
}  // namespace regemu::uml
