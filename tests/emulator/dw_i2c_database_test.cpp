// yaml/dw_i2c as a driver meets it (issue 29, "What it must show"): a
// write-then-read to the EEPROM at 0x50 returns its bytes at the bus's
// byte time; an address with no target aborts with ABRT_7B_ADDR_NOACK in
// IC_TX_ABRT_SOURCE and flushes the FIFOs; IC_ENABLE_STATUS lags
// IC_ENABLE; interrupt bits, masks and the read-to-clear registers; the
// databook's rule against reprogramming while enabled. Virtual time only.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::Kinds;
using testing_support::RegisterNamed;

// IC_DATA_CMD command bits and interrupt bits (i2c-designware-core.h).
constexpr uint64_t kRead = 0x100, kStop = 0x200, kRestart = 0x400;
constexpr uint64_t kRxFull = 0x4, kTxEmpty = 0x10, kTxAbrt = 0x40, kActivity = 0x100, kStopDet = 0x200,
                   kStartDet = 0x400;
// One command at 400 kHz (HCNT 105, LCNT 191 at 120 MHz): 9 x 300 cycles.
constexpr uint64_t kByteNs = 22'500;

class DwI2cTest : public ::testing::Test {
 protected:
  DwI2cTest() : device_(testing_support::CompileDatabaseAt(std::string(REGEMU_SOURCE_DIR) + "/yaml/dw_i2c")) {}

  void Write(const char* reg, uint64_t value) { device_.WriteRegister(RegisterNamed(device_.model(), reg), value); }
  uint64_t Read(const char* reg) { return device_.ReadRegister(RegisterNamed(device_.model(), reg)); }
  uint64_t Peek(const char* reg) { return device_.PeekRegister(RegisterNamed(device_.model(), reg)); }

  // __i2c_dw_disable: IC_ENABLE = 0, then poll IC_ENABLE_STATUS.IC_EN.
  void Disable() {
    Write("IC_ENABLE", 0);
    for (int polls = 0; polls < 100 && (Read("IC_ENABLE_STATUS") & 1) != 0; ++polls) device_.Advance(25'000);
  }
  // i2c_dw_init_master at 400 kHz, then i2c_dw_xfer_init for `target`.
  void InitAndStart(uint64_t target) {
    Disable();
    Write("IC_FS_SCL_HCNT", 105);
    Write("IC_FS_SCL_LCNT", 191);
    Write("IC_SDA_HOLD", 0x1001C);
    Write("IC_TX_TL", 8);
    Write("IC_RX_TL", 0);
    Write("IC_CON", 0x65);
    Disable();
    Write("IC_TAR", target);
    Write("IC_INTR_MASK", 0);
    Write("IC_ENABLE", 1);
    Read("IC_ENABLE_STATUS");
    Read("IC_CLR_INTR");
    Write("IC_INTR_MASK", 0x254);
  }
  void Commands(std::vector<uint64_t> commands) {
    for (uint64_t command : commands) Write("IC_DATA_CMD", command);
  }

  Device device_;
};

TEST_F(DwI2cTest, IdentifiesItselfAsLinuxExpects) {
  EXPECT_EQ(Read("IC_COMP_TYPE"), 0x44570140u);
  EXPECT_GE(Read("IC_COMP_VERSION"), 0x3131312Au);  // DW_IC_SDA_HOLD_MIN_VERS
  uint64_t param = Read("IC_COMP_PARAM_1");
  EXPECT_EQ(((param >> 8) & 0xFF) + 1, 16u);  // RX depth
  EXPECT_EQ(((param >> 16) & 0xFF) + 1, 16u);  // TX depth
  EXPECT_EQ(Read("IC_STATUS"), 0x06u);
  EXPECT_EQ(Read("IC_INTR_MASK"), 0x8FFu);
}

// "a write-then-read to 0x50 returns the EEPROM's bytes" (issue 29), with
// the word stream Linux writes (Linux i2c-designware-master.c i2c_dw_xfer_msg): a, 0x500, 0x100..., 0x300.
TEST_F(DwI2cTest, AWriteThenReadToTheEepromReturnsItsBytesAtTheByteTime) {
  InitAndStart(0x50);
  EXPECT_TRUE(device_.interrupt_requested());  // TX_EMPTY: the ISR fills the FIFO
  EXPECT_EQ(Read("IC_INTR_STAT"), kTxEmpty);
  Commands({0x00, kRestart | kRead, kRead, kRead, kRead, kStop | kRead});
  Write("IC_INTR_MASK", 0x244);
  EXPECT_EQ(Read("IC_TXFLR"), 5u);  // one on the wire, five queued
  device_.Advance(2 * kByteNs - 1);
  EXPECT_EQ(Read("IC_RXFLR"), 0u);
  device_.Advance(1);
  EXPECT_EQ(Read("IC_RXFLR"), 1u);  // the first byte, read with the second command
  EXPECT_EQ(Read("IC_STATUS") & 0x21, 0x21u);  // ACTIVITY, MST_ACTIVITY
  EXPECT_TRUE(device_.interrupt_requested());  // RX_FULL at RX_TL = 0
  device_.Advance(4 * kByteNs);
  EXPECT_EQ(Read("IC_INTR_STAT"), kRxFull | kStopDet);
  EXPECT_EQ(Read("IC_RAW_INTR_STAT") & (kActivity | kStartDet), kActivity | kStartDet);
  Read("IC_CLR_STOP_DET");
  std::vector<uint64_t> bytes;
  for (uint64_t n = Read("IC_RXFLR"); n > 0; --n) bytes.push_back(Read("IC_DATA_CMD") & 0xFF);
  EXPECT_THAT(bytes, ElementsAre(0x44u, 0x57u, 0x2Du, 0x49u, 0x32u));  // "DW-I2"
  EXPECT_FALSE(device_.interrupt_requested());
  EXPECT_EQ(Read("IC_STATUS") & 0x20, 0u);
  EXPECT_THAT(Kinds(device_), IsEmpty());
}

TEST_F(DwI2cTest, APageWriteStoresBytesTheNextReadReturns) {
  InitAndStart(0x50);
  Commands({0x20, 0xC0, 0xFF, kStop | 0xEE});
  device_.Advance(10 * kByteNs);
  Commands({0x20, kRestart | kRead, kRead, kStop | kRead});
  device_.Advance(10 * kByteNs);
  std::vector<uint64_t> bytes;
  while (Read("IC_RXFLR") != 0) bytes.push_back(Read("IC_DATA_CMD") & 0xFF);
  EXPECT_THAT(bytes, ElementsAre(0xC0u, 0xFFu, 0xEEu));
  EXPECT_THAT(Kinds(device_), IsEmpty());
}

// "an address with no target aborts with ABRT_7B_ADDR_NOACK in IC_TX_ABRT_SOURCE".
TEST_F(DwI2cTest, AnAbsentAddressAbortsWithAddrNoackAndFlushesTheFifos) {
  InitAndStart(0x51);
  Commands({0x00, kRestart | kStop | kRead});
  Write("IC_INTR_MASK", 0x244);
  device_.Advance(kByteNs);
  EXPECT_EQ(Read("IC_TX_ABRT_SOURCE"), 0x1u);  // ABRT_7B_ADDR_NOACK
  EXPECT_EQ(Read("IC_INTR_STAT") & kTxAbrt, kTxAbrt);
  EXPECT_TRUE(device_.interrupt_requested());
  EXPECT_EQ(Read("IC_TXFLR"), 0u);
  EXPECT_EQ(Read("IC_RXFLR"), 0u);
  // The source survives until the clear, which releases the TX FIFO.
  Read("IC_CLR_TX_ABRT");
  EXPECT_EQ(Read("IC_TX_ABRT_SOURCE"), 0u);
  EXPECT_EQ(Read("IC_RAW_INTR_STAT") & kTxAbrt, 0u);
  EXPECT_THAT(Kinds(device_), IsEmpty());
}

TEST_F(DwI2cTest, CommandsAfterAnAbortAreLostUntilClrTxAbrt) {
  InitAndStart(0x51);
  Commands({kStop | kRead});
  device_.Advance(kByteNs);
  Commands({kStop | kRead});  // the FIFO is held flushed
  EXPECT_EQ(Read("IC_TXFLR"), 0u);
  EXPECT_THAT(Kinds(device_), ElementsAre(ViolationKind::kProtocol));
  EXPECT_THAT(device_.violations().at(0).rule, HasSubstr("IC_CLR_TX_ABRT"));
}

TEST_F(DwI2cTest, ClrIntrClearsLatchedBitsButNotTheLevelOnes) {
  InitAndStart(0x51);
  Commands({kStop | kRead});
  device_.Advance(kByteNs);
  EXPECT_EQ(Read("IC_RAW_INTR_STAT") & (kTxAbrt | kStopDet | kStartDet), kTxAbrt | kStopDet | kStartDet);
  Read("IC_CLR_INTR");
  EXPECT_EQ(Read("IC_RAW_INTR_STAT"), kTxEmpty);  // TX_EMPTY follows the level; no read clears it
  EXPECT_EQ(Read("IC_TX_ABRT_SOURCE"), 0u);
}

// A10 21.5.3: IC_EN lags IC_ENABLE; a disable during a transfer waits for its STOP.
TEST_F(DwI2cTest, EnableStatusFollowsEnableAfterADelayAndAfterTheTransfer) {
  Write("IC_ENABLE", 1);
  EXPECT_EQ(Read("IC_ENABLE_STATUS"), 0u);
  device_.Advance(17);
  EXPECT_EQ(Read("IC_ENABLE_STATUS"), 1u);
  Write("IC_TAR", 0x51);  // while enabled: dropped and reported
  EXPECT_EQ(Read("IC_TAR"), 0x55u);
  EXPECT_THAT(Kinds(device_), ElementsAre(ViolationKind::kProtocol));
  Disable();
  Write("IC_TAR", 0x50);
  Write("IC_ENABLE", 1);
  device_.Advance(17);
  Commands({0x00, kRead, kStop | kRead});
  device_.Advance(kByteNs);
  Write("IC_ENABLE", 0);  // mid-transfer: the master lets the bus go with a STOP
  EXPECT_EQ(Read("IC_RAW_INTR_STAT") & kStopDet, kStopDet);
  EXPECT_EQ(Read("IC_ENABLE_STATUS"), 1u);
  device_.Advance(17);
  EXPECT_EQ(Read("IC_ENABLE_STATUS"), 0u);
  device_.Advance(10 * kByteNs);  // the byte that was on the wire is dropped
  EXPECT_EQ(Read("IC_TXFLR"), 0u);
  EXPECT_EQ(Read("IC_RXFLR"), 0u);
  EXPECT_EQ(Read("IC_STATUS") & 0x20, 0u);
}

TEST_F(DwI2cTest, DisablingDropsTheLevelInterrupts) {
  InitAndStart(0x50);
  EXPECT_EQ(Read("IC_RAW_INTR_STAT") & kTxEmpty, kTxEmpty);
  Disable();
  EXPECT_EQ(Read("IC_RAW_INTR_STAT") & (kTxEmpty | kRxFull), 0u);
  EXPECT_FALSE(device_.interrupt_requested());
}

}  // namespace
}  // namespace regemu::emulator
