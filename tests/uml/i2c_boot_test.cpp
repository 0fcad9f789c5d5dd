// `regemu boot` with the unmodified Linux 6.1 i2c-designware-pci driver
// (drivers/i2c/busses/i2c-designware-pcidrv.c) against yaml/dw_i2c_pci:
// the DesignWare I2C controller of yaml/dw_i2c as Intel's Haswell-ULT
// Serial IO I2C function 8086:9C61. The driver binds, /dev/i2c-N appears,
// and busybox's i2ctransfer and i2cget read the AT24 EEPROM's first bytes
// from userspace, which must be the database's `contents`; alone and beside
// yaml/nvme, strict, with no violation. REGEMU_UML_KERNEL names the kernel
// (tools/uml/build-kernel.sh), as for boot_test.cpp.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

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
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

using I2cBootTest = KernelBootTest;

// The EEPROM's contents as the database gives them (the `contents:` of
// target `eeprom` in yaml/dw_i2c/behaviour.yaml), each byte spelled as
// i2ctransfer and i2cget print it ("0x44"), so that the tests follow the
// database rather than a copy of it.
std::vector<std::string> DatabaseEeprom() {
  std::string behaviour = Slurp(fs::path(REGEMU_SOURCE_DIR) / "yaml/dw_i2c/behaviour.yaml");
  std::smatch list;
  std::vector<std::string> bytes;
  if (!std::regex_search(behaviour, list, std::regex(R"(\n\s*contents:\s*\[([^\]]*)\])"))) return bytes;
  std::string items = list[1].str();
  const std::regex number(R"(0[xX][0-9A-Fa-f]+|\d+)");
  for (std::sregex_iterator it(items.begin(), items.end(), number), end; it != end; ++it) {
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned>(std::stoul(it->str(), nullptr, 0)));
    bytes.emplace_back(byte);
  }
  return bytes;
}

// The first `count` bytes, as one i2ctransfer line prints them.
std::string FirstBytes(size_t count) {
  std::vector<std::string> bytes = DatabaseEeprom();
  if (bytes.size() < count) return "(the database has only " + std::to_string(bytes.size()) + " bytes)";
  std::string line;
  for (size_t i = 0; i < count; ++i) line += (i == 0 ? "" : " ") + bytes[i];
  return line;
}

std::string ByteAt(size_t index) {
  std::vector<std::string> bytes = DatabaseEeprom();
  return index < bytes.size() ? bytes[index] : "(no byte " + std::to_string(index) + ")";
}

// The console's lines, without the tty's carriage returns, so that a line
// the init printed can be matched whole.
std::vector<std::string> ConsoleLines(const std::string& out) {
  std::vector<std::string> lines;
  std::string line;
  for (char c : out) {
    if (c == '\n') {
      lines.push_back(line);
      line.clear();
    } else if (c != '\r') {
      line += c;
    }
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

TEST(I2cEepromContentsTest, TheDatabaseGivesTheBoardIdTheInitReads) {
  // "DW-I2C", revision 1.2, serial 0x0000_1234: if the database's contents
  // change, the boot tests below follow; this pins the reading of them.
  EXPECT_EQ(FirstBytes(12), "0x44 0x57 0x2d 0x49 0x32 0x43 0x01 0x02 0x00 0x00 0x12 0x34");
}

TEST_F(I2cBootTest, TheDesignWarePciDriverBindsAndUserspaceReadsTheEepromWithNoViolation) {
  fs::path trace = scratch_ / "trace.script";
  CliResult run = Boot("i2c_eeprom.init", "--timeout 60 --trace '" + trace.string() + "' yaml/dw_i2c_pci");
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("regemu-test: pci 0000:00:00.0 0x8086:0x9c61 class 0x0c8000"));
  EXPECT_THAT(run.out, HasSubstr("regemu-test: driver 0000:00:00.0 i2c-designware-pci"))
      << "the driver's DRIVER_NAME, under /sys/bus/pci/devices/*/driver";
  EXPECT_THAT(run.out, HasSubstr("regemu-test: adapter i2c-0 Synopsys DesignWare I2C adapter"));
  EXPECT_THAT(run.out, HasSubstr("regemu-test: /dev/i2c-0 is a character device"));
  EXPECT_THAT(ConsoleLines(run.out), Contains("regemu-test: i2ctransfer " + FirstBytes(12)))
      << "a write of word address 0, a repeated START and 12 bytes read";
  EXPECT_THAT(ConsoleLines(run.out), Contains("regemu-test: i2cget 0x0b " + ByteAt(0x0b)))
      << "SMBus read byte data at word address 0x0b";
  EXPECT_THAT(run.out, HasSubstr("UM virtio PCIe MSI   0  0000:00:00.0")) << "the controller's interrupt, as MSI";
  EXPECT_THAT(run.out, Not(HasSubstr("controller timed out")));

  std::string accesses = Slurp(trace);
  EXPECT_THAT(accesses, HasSubstr("write16 config 0x92 0x0001")) << "the PCI core enabled MSI (MC.MSIE)";
  EXPECT_THAT(accesses, HasSubstr("expect32 regs 0xfc 0x44570140")) << "i2c_dw_init_regmap read IC_COMP_TYPE";
  // The Haswell entry's counts and SDA hold (hsw_config), the RX hold of 1
  // Linux adds (i2c_dw_set_sda_hold), the TX threshold of half of the
  // 16-entry FIFO IC_COMP_PARAM_1 gives, and fast mode (400 kHz).
  EXPECT_THAT(accesses, HasSubstr("write32 regs 0x14 0x000001b0  "));
  EXPECT_THAT(accesses, HasSubstr("write32 regs 0x18 0x000001fb  "));
  EXPECT_THAT(accesses, HasSubstr("write32 regs 0x1c 0x00000048  "));
  EXPECT_THAT(accesses, HasSubstr("write32 regs 0x20 0x000000a0  "));
  EXPECT_THAT(accesses, HasSubstr("write32 regs 0x7c 0x00010009  "));
  EXPECT_THAT(accesses, HasSubstr("write32 regs 0x3c 0x00000008  "));
  EXPECT_THAT(accesses, HasSubstr("write32 regs 0x0 0x00000065  "));
  EXPECT_THAT(accesses, HasSubstr("write32 regs 0x4 0x00000050  ")) << "IC_TAR: the EEPROM at 0x50";
  EXPECT_THAT(run.err, HasSubstr("yaml/dw_i2c_pci: ")) << run.err;
  EXPECT_THAT(run.err, HasSubstr(" 0 violation(s)"));
  EXPECT_THAT(run.err, HasSubstr("regemu boot: the kernel powered off"));
}

TEST_F(I2cBootTest, TwoTimeTravelBootsGiveIdenticalI2cTraces) {
  auto [first, second] = TwoBootTraces("i2c_eeprom.init", "--timeout 60 yaml/dw_i2c_pci");
  EXPECT_THAT(first, HasSubstr("IC_DATA_CMD")) << "the driver moved bytes through the FIFOs";
  EXPECT_EQ(first, second);
}

TEST_F(I2cBootTest, NvmeAndTheI2cControllerBindSideBySide) {
  fs::path trace = scratch_ / "trace.script";
  CliResult run =
      Boot("i2c_eeprom.init", "--timeout 120 --trace '" + trace.string() + "' yaml/nvme yaml/dw_i2c_pci");
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("regemu-test: pci 0000:00:00.0 0x1b36:0x0010 class 0x010802"));
  EXPECT_THAT(run.out, HasSubstr("regemu-test: driver 0000:00:00.0 nvme"));
  EXPECT_THAT(run.out, HasSubstr("regemu-test: pci 0000:00:01.0 0x8086:0x9c61 class 0x0c8000"));
  EXPECT_THAT(run.out, HasSubstr("regemu-test: driver 0000:00:01.0 i2c-designware-pci"));
  EXPECT_THAT(run.out, HasSubstr("regemu-test: nvme0 state live"));
  EXPECT_THAT(run.out, HasSubstr("regemu-test: /dev/i2c-0 is a character device"));
  EXPECT_THAT(ConsoleLines(run.out), Contains("regemu-test: i2ctransfer " + FirstBytes(12))) << run.out;
  EXPECT_THAT(ConsoleLines(run.out), Contains("regemu-test: i2cget 0x0b " + ByteAt(0x0b))) << run.out;
  EXPECT_THAT(run.out, HasSubstr("nvme0q0")) << "the admin queue's interrupt";
  EXPECT_THAT(run.out, HasSubstr("UM virtio PCIe MSI 16384  0000:00:01.0")) << "the I2C controller's interrupt";
  // One trace per device, in the order of the command line.
  EXPECT_THAT(Slurp(trace.string() + ".0"), HasSubstr("CSTS"));
  EXPECT_THAT(Slurp(trace.string() + ".1"), HasSubstr("IC_DATA_CMD"));
  EXPECT_THAT(run.err, HasSubstr("yaml/nvme: "));
  EXPECT_THAT(run.err, HasSubstr("yaml/dw_i2c_pci: "));
  EXPECT_THAT(run.err, Not(HasSubstr("error: violation")));
  EXPECT_THAT(run.err, HasSubstr("regemu boot: the kernel powered off"));
}

}  // namespace
}  // namespace regemu::uml
