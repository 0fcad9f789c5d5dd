// `regemu serve` for a kernel someone else starts, as a KUnit run or a
// user's own kernel tree does (docs/real-kernels.md, "KUnit and your own
// kernel"): the kernel is launched by hand with the documented arguments
// (virtio_uml.device=SOCKET:1234, time-travel=ext:SOCKET), binds its nvme
// driver to the served yaml/nvme, powers off, and `regemu serve` reports
// the disconnect with no violation. The shell waits for serve's first line
// through a FIFO, so the kernel starts only once the sockets listen.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/tools/cli_support.hpp"
#include "tests/uml/boot_fixture.hpp"

namespace regemu::uml {
namespace {

using testing_support::CliResult;
using testing_support::RunShell;
using testing_support::Slurp;
using ::testing::HasSubstr;

using ServeTest = KernelBootTest;

TEST_F(ServeTest, AKernelStartedElsewhereDrivesTheServedDevice) {
  std::string dir = scratch_.string();
  std::string cpio = Initramfs("nvme_bringup.init");
  CliResult run = RunShell(
      "d='" + dir + "'; mkfifo \"$d/ready\"; "
      "timeout 120 '" + std::string(REGEMU_BINARY) + "' serve --socket \"$d/dev.sock\" --time-travel \"$d/tt.sock\" "
      "yaml/nvme >\"$d/ready\" 2>\"$d/serve.err\" & serve=$!; "
      "exec 3<\"$d/ready\"; read -r listening <&3; echo \"$listening\" >\"$d/serve.out\"; "
      "timeout 120 '" + kernel_ + "' mem=128M initrd='" + cpio + "' con=null con0=null,fd:1 uml_dir=\"$d\" "
      "virtio_uml.device=\"$d/dev.sock\":1234 time-travel=ext:\"$d/tt.sock\" </dev/null >\"$d/console\" 2>&1; "
      "echo \"kernel exit $?\"; cat <&3 >>\"$d/serve.out\"; wait $serve; echo \"serve exit $?\"");
  EXPECT_THAT(run.out, HasSubstr("serve exit 0")) << run.out << run.err << Slurp(scratch_ / "serve.err");
  std::string console = Slurp(scratch_ / "console");
  EXPECT_THAT(console, HasSubstr("regemu-test: driver nvme")) << console;
  EXPECT_THAT(console, HasSubstr("regemu-test: nvme0 state live"));
  std::string served = Slurp(scratch_ / "serve.out");
  EXPECT_THAT(served, HasSubstr("regemu serve: yaml/nvme on " + dir + "/dev.sock, time travel on " + dir + "/tt.sock"));
  EXPECT_THAT(served, HasSubstr("regemu serve: the kernel disconnected; 0 violation(s)"));
}

}  // namespace
}  // namespace regemu::uml
