// Linux 6.1's sp805_wdt sequences (sp805_wdt.c) on the AN385's watchdog at
// 0x40008000: the probe, start (wdt_enable), ping, stop, get_timeleft and
// restart, each unlocking before its writes and locking after (ARM DDI
// 0270B §3.3.8), and the timeout's arithmetic against the device's
// counter: the interrupt after load_val ticks, the reset load_val + 1
// ticks after that.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <utility>

#include "examples/cmsdk/cmsdk_timer.h"
#include "examples/cmsdk/sp805_wdt.h"
#include "examples/cmsdk/tests/cmsdk_test.hpp"
// Last: Linux's generic macro names (LOCK, UNLOCK) stay out of the other headers.
#include "examples/cmsdk/sp805_wdt_regs.h"

namespace regemu::cmsdk {
namespace {

using fakes::FieldIs;

class Sp805WdtTest : public CmsdkTest {
 protected:
  int Probe(unsigned timeout) {
    return sp805_wdt_probe(&wdt_, reinterpret_cast<uint8_t*>(CMSDK_WATCHDOG_BASE), kRateHz, timeout);
  }
  // wdt_setload's count for `timeout` s: half the timeout's ticks, less 1.
  static uint64_t LoadFor(unsigned timeout) { return kRateHz / 2 * timeout - 1; }

  sp805_wdt wdt_{};
};

// A stopped watchdog: the probe only reads WDOGCONTROL and computes the
// load of the default timeout.
TEST_F(Sp805WdtTest, TheProbeOfAStoppedWatchdogWritesNothing) {
  ASSERT_EQ(Probe(0), 0);
  EXPECT_EQ(wdt_.timeout, 60u);
  EXPECT_EQ(wdt_.load_val, LoadFor(60));
  EXPECT_EQ(wdt_.hw_running, 0);
  EXPECT_EQ(Peek("WDOGCONTROL"), 0u);
  EXPECT_EQ(Peek("WDOGLOAD"), 0xFFFFFFFFu);
}

// wdt_enable: the load, the interrupt cleared, INT_ENABLE | RESET_ENABLE,
// locked again.
TEST_F(Sp805WdtTest, StartLoadsEnablesAndLocks) {
  ASSERT_EQ(Probe(1), 0);
  sp805_wdt_enable(&wdt_);
  EXPECT_EQ(Peek("WDOGLOAD"), LoadFor(1));
  EXPECT_EQ(Peek("WDOGCONTROL"), uint64_t{INT_ENABLE | RESET_ENABLE});
  EXPECT_THAT(device(), FieldIs("WDOGLOCK.LOCKED", 1));
  EXPECT_EQ(sp805_wdt_is_running(&wdt_), 1);
}

// Nobody pings: the interrupt after load_val ticks (half the timeout), the
// reset output load_val + 1 ticks later (the whole timeout).
TEST_F(Sp805WdtTest, UnpingedItInterruptsThenResetsAtTheTimeout) {
  ASSERT_EQ(Probe(1), 0);
  sp805_wdt_enable(&wdt_);
  const uint64_t load = LoadFor(1);
  ExpectRiseAt("WDOGINT", load * kTickNs);
  ExpectRiseAt("WDOGRES", (2 * load + 1) * kTickNs);
  EXPECT_EQ((2 * load + 1) * kTickNs, wdt_.timeout * kSecondNs - kTickNs);
}

// The watchdog daemon's pings (wdt_ping) every 0.4 s of a 1 s timeout: no
// interrupt, no reset, for 10 s.
TEST_F(Sp805WdtTest, PingsKeepItAlive) {
  ASSERT_EQ(Probe(1), 0);
  sp805_wdt_enable(&wdt_);
  for (int i = 0; i < 25; ++i) {
    Run(kSecondNs * 2 / 5);
    sp805_wdt_ping(&wdt_);
  }
  EXPECT_EQ(Edges("WDOGINT"), 0u);
  EXPECT_EQ(Edges("WDOGRES"), 0u);
}

// wdt_timeleft: the count, plus a load while the interrupt is not pending.
TEST_F(Sp805WdtTest, TimeLeftFollowsTheCounter) {
  ASSERT_EQ(Probe(10), 0);
  sp805_wdt_enable(&wdt_);
  RunUntil(3 * kSecondNs + 1);
  EXPECT_EQ(sp805_wdt_timeleft(&wdt_), 6u);  // (49999999 + 125000000) / 25 MHz
  RunUntil(6 * kSecondNs + 1);
  EXPECT_TRUE(Line("WDOGINT"));
  EXPECT_EQ(sp805_wdt_timeleft(&wdt_), 3u);  // 99999999 / 25 MHz
}

// wdt_disable: the counter stops; nothing comes.
TEST_F(Sp805WdtTest, StopStopsIt) {
  ASSERT_EQ(Probe(1), 0);
  sp805_wdt_enable(&wdt_);
  Run(kSecondNs / 4);
  sp805_wdt_disable(&wdt_);
  Run(10 * kSecondNs);
  EXPECT_EQ(Edges("WDOGINT"), 0u);
  EXPECT_EQ(Edges("WDOGRES"), 0u);
  EXPECT_THAT(device(), FieldIs("WDOGLOCK.LOCKED", 1));
}

// wdt_restart: a load of 0 with both enables: the reset within ticks.
TEST_F(Sp805WdtTest, RestartResetsAtOnce) {
  ASSERT_EQ(Probe(1), 0);
  sp805_wdt_restart(&wdt_);
  Run(3 * kTickNs + 1);
  EXPECT_TRUE(Line("WDOGRES"));
}

// A watchdog the boot firmware left running (INTEN and RESEN): the probe
// starts it over with Linux's load and tells the core it runs.
TEST_F(Sp805WdtTest, TheProbeTakesOverARunningWatchdog) {
  cmsdk_watchdog_init(1000, /*reset_enable=*/1);
  Run(500 * kTickNs);
  ASSERT_EQ(Probe(1), 0);
  EXPECT_EQ(wdt_.hw_running, 1);
  EXPECT_EQ(Peek("WDOGLOAD"), LoadFor(1));
  Run(5000 * kTickNs);
  EXPECT_EQ(Edges("WDOGINT"), 0u);
}

// sp805_wdt.c's offsets from the watchdog's base are the database's.
TEST_F(Sp805WdtTest, LinuxsOffsetsAreTheDatabases) {
  const std::pair<const char*, uint64_t> kLinux[] = {
      {"WDOGLOAD", WDTLOAD}, {"WDOGVALUE", WDTVALUE}, {"WDOGCONTROL", WDTCONTROL}, {"WDOGINTCLR", WDTINTCLR},
      {"WDOGRIS", WDTRIS},   {"WDOGMIS", WDTMIS},     {"WDOGLOCK", WDTLOCK},
  };
  for (const auto& [name, offset] : kLinux) {
    std::optional<emulator::RegisterId> reg = device().model().FindRegister(name);
    ASSERT_TRUE(reg.has_value()) << name;
    EXPECT_EQ(device().model().registers()[*reg].offset, CMSDK_WATCHDOG_BASE - CMSDK_APB_BASE + offset) << name;
  }
}

}  // namespace
}  // namespace regemu::cmsdk
