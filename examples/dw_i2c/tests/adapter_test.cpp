// The example DesignWare I2C driver against yaml/dw_i2c in a strict device:
// the probe accepts IC_COMP_TYPE and finds 16-entry FIFOs, a write-then-read
// of the EEPROM at 0x50 returns its bytes by interrupts, an absent target
// gives -EREMOTEIO with ABRT_7B_ADDR_NOACK, every access passes the
// databook's rules; and each bug is what regemu reports (or, where no rule
// can see it, what the driver then returns).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "examples/dw_i2c/adapter.hpp"
#include "regemu/fakes/device_test.hpp"

namespace regemu::dw_i2c {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr uint8_t kWordAddress[] = {0x00};

class AdapterTest : public fakes::DeviceTest {
 protected:
  void SetUp() override { LoadDevice(fakes::ShippedDatabase("dw_i2c")); }

  Adapter MakeAdapter(Bugs bugs = {}) {
    return Adapter(bus("regs"), [this](uint64_t ns) { device().Advance(ns); }, bugs);
  }
  // The kernel's side of the interrupt line: the ISR runs while it is
  // asserted; otherwise time passes to the device's next event.
  void Serve(Adapter& adapter, uint64_t budget_ns = 10'000'000) {
    uint64_t end = device().now_ns() + budget_ns;
    while (!adapter.done() && device().now_ns() < end) {
      if (device().interrupt_asserted()) {
        adapter.HandleIrq();
      } else if (auto next = device().next_event_ns()) {
        device().Advance(*next - device().now_ns());
      } else {
        break;
      }
    }
  }
  int Transfer(Adapter& adapter, uint16_t address, size_t read_count) {
    adapter.StartTransfer(address, kWordAddress, read_count);
    Serve(adapter);
    return adapter.FinishTransfer();
  }
};

TEST_F(AdapterTest, ProbeAcceptsTheComponentTypeAndPassesEveryRule) {
  Adapter adapter = MakeAdapter();
  EXPECT_EQ(adapter.Probe(), 0);
  EXPECT_EQ(device().PeekRegister(*device().model().FindRegister("IC_CON")), 0x65u);
  EXPECT_EQ(device().PeekRegister(*device().model().FindRegister("IC_TX_TL")), 8u);  // depth / 2
}

// "a write-then-read to 0x50 returns the EEPROM's bytes" (issue 29).
TEST_F(AdapterTest, AWriteThenReadOfTheEepromReturnsItsBytes) {
  Adapter adapter = MakeAdapter();
  ASSERT_EQ(adapter.Probe(), 0);
  EXPECT_EQ(Transfer(adapter, 0x50, 12), 2);
  EXPECT_THAT(adapter.read_data(),
              ElementsAre(0x44, 0x57, 0x2D, 0x49, 0x32, 0x43, 0x01, 0x02, 0x00, 0x00, 0x12, 0x34));
  // Twenty bytes: more read commands than the RX FIFO holds, refilled on TX_EMPTY.
  EXPECT_EQ(Transfer(adapter, 0x50, 20), 2);
  EXPECT_EQ(adapter.read_data().size(), 20u);
}

TEST_F(AdapterTest, AnAbsentTargetIsNotAcknowledged) {
  Adapter adapter = MakeAdapter();
  ASSERT_EQ(adapter.Probe(), 0);
  EXPECT_EQ(Transfer(adapter, 0x51, 1), kEremoteio);
  EXPECT_EQ(adapter.abort_source(), 0x1u);  // ABRT_7B_ADDR_NOACK
  // The bus is fine afterwards.
  EXPECT_EQ(Transfer(adapter, 0x50, 2), 2);
  EXPECT_THAT(adapter.read_data(), ElementsAre(0x44, 0x57));
}

TEST_F(AdapterTest, BugRetargetWhileEnabledIsTheConfiguredWhileEnabledRule) {
  Adapter adapter = MakeAdapter({Bug::kRetargetWhileEnabled});
  ASSERT_EQ(adapter.Probe(), 0);
  Transfer(adapter, 0x50, 1);
  EXPECT_TRUE(TakeViolations().empty());  // the first transfer starts from a disabled controller
  Transfer(adapter, 0x51, 1);
  std::vector<emulator::Violation> violations = TakeViolations();
  ASSERT_FALSE(violations.empty());
  EXPECT_THAT(violations[0].rule, HasSubstr("may be written only while the controller is disabled"));
}

TEST_F(AdapterTest, BugNoEnableStatusPollIsTheConfiguredWhileEnabledRule) {
  Adapter adapter = MakeAdapter({Bug::kNoEnableStatusPoll});
  ASSERT_EQ(adapter.Probe(), 0);  // disabled since reset: nothing to wait for
  EXPECT_TRUE(TakeViolations().empty());
  // A reinitialisation while enabled (runtime resume, recovery after a timeout).
  bus("regs").Write32(0x6C, 1);
  device().Advance(1'000);
  adapter.InitMaster();
  std::vector<emulator::Violation> violations = TakeViolations();
  ASSERT_FALSE(violations.empty());
  EXPECT_THAT(violations[0].rule, HasSubstr("poll IC_ENABLE_STATUS until IC_EN reads 0"));
}

TEST_F(AdapterTest, BugClearAbortBeforeSourceLosesTheReason) {
  Adapter adapter = MakeAdapter({Bug::kClearAbortBeforeSource});
  ASSERT_EQ(adapter.Probe(), 0);
  EXPECT_EQ(Transfer(adapter, 0x51, 1), kEio);  // -EREMOTEIO with the source read first
  EXPECT_EQ(adapter.abort_source(), 0u);
}

}  // namespace
}  // namespace regemu::dw_i2c
