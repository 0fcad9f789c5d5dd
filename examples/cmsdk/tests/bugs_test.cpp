// Each deliberate driver bug (bugs.hpp) and exactly what regemu reports for
// it: the violation's kind, register and rule, and the driver's source
// line and function, from its debug information, where the trapped access
// was made; then what the bug does to the device. The same sequences
// without the bug run clean (the fixture fails on any violation left).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "examples/cmsdk/bugs.hpp"
#include "examples/cmsdk/sp804.h"
#include "examples/cmsdk/sp805_wdt.h"
#include "examples/cmsdk/tests/cmsdk_test.hpp"

namespace regemu::cmsdk {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::StrEq;

constexpr char kLocked[] = "write to a locked watchdog: hardware ignores it";
constexpr char kModeChanged[] = "the timer's mode (ONESHOT, SIZE, PRESCALE, MODE) changed while it runs";

// A driver source line, as a trapped access's site names it.
auto SiteIs(std::string file, unsigned line, std::string function) {
  return AllOf(Field("file", &emulator::trap::CodeLocation::file, ::testing::ResultOf([](const char* f) {
                       return std::string(f);
                     }, EndsWith(file))),
               Field("line", &emulator::trap::CodeLocation::line, line),
               Field("function", &emulator::trap::CodeLocation::function, StrEq(function)));
}

class BugsTest : public CmsdkTest {
 protected:
  int ProbeWatchdog(Bugs bugs) {
    wdt_.bugs = CBugs(bugs);
    return sp805_wdt_probe(&wdt_, reinterpret_cast<uint8_t*>(CMSDK_WATCHDOG_BASE), kRateHz, 1);
  }
  int ProbeTimer(Bugs bugs) {
    sp_.bugs = CBugs(bugs);
    return sp804_of_init(&sp_, reinterpret_cast<uint8_t*>(CMSDK_DUALTIMER_BASE), kRateHz, 100, 0);
  }

  sp805_wdt wdt_{};
  sp804 sp_{};
};

TEST(BugSetTest, TheCBitsAreTheEnumsBits) {
  EXPECT_EQ(CBugs({}), 0u);
  EXPECT_EQ(CBugs({Bug::kPingWhileLocked}), 1u << CMSDK_BUG_PING_WHILE_LOCKED);
  EXPECT_EQ(CBugs({Bug::kModeWhileEnabled}), 1u << CMSDK_BUG_MODE_WHILE_ENABLED);
  EXPECT_EQ(CBugs({Bug::kPingWhileLocked, Bug::kModeWhileEnabled}), 3u);
  EXPECT_EQ(BugName(Bug::kPingWhileLocked), "ping-while-locked");
}

// wdt_ping without UNLOCK: both of wdt_config's writes hit the WDOGLOCK
// gate, at their lines; the hardware ignores them, so the watchdog resets
// the system at the timeout the first load set, as if never pinged.
TEST_F(BugsTest, PingWhileLockedIsReportedAtBothWritesAndTheResetComes) {
  ASSERT_EQ(ProbeWatchdog({Bug::kPingWhileLocked}), 0);
  sp805_wdt_enable(&wdt_);  // the start unlocks: no mistake yet
  EXPECT_THAT(TakeViolations(), ::testing::IsEmpty());
  Run(kSecondNs * 2 / 5);
  sp805_wdt_ping(&wdt_);
  std::vector<emulator::Violation> violations = TakeViolations();
  ASSERT_THAT(violations, ElementsAre(ProtocolViolation("WDOGLOAD", kLocked), ProtocolViolation("WDOGINTCLR", kLocked)));
  EXPECT_EQ(violations[0].offset, 0x8000u);
  EXPECT_EQ(violations[1].offset, 0x800Cu);
  EXPECT_THAT(SiteOf(violations[0]),
              SiteIs("examples/cmsdk/sp805_wdt.c",
                     SourceLine("sp805_wdt.c", "writel_relaxed(wdt->load_val, wdt->base + WDTLOAD);"),
                     "sp805_wdt_config"));
  EXPECT_THAT(SiteOf(violations[1]),
              SiteIs("examples/cmsdk/sp805_wdt.c",
                     SourceLine("sp805_wdt.c", "writel_relaxed(INT_MASK, wdt->base + WDTINTCLR);"),
                     "sp805_wdt_config"));
  const uint64_t load = wdt_.load_val;
  ExpectRiseAt("WDOGRES", (2 * load + 1) * kTickNs);
}

// The same ping, bug-free: unlocked first, it lands: the count starts
// over, its interrupt comes a load after the ping, and no reset comes when
// the unpinged watchdog's would have.
TEST_F(BugsTest, TheCleanPingUnlocksFirst) {
  ASSERT_EQ(ProbeWatchdog({}), 0);
  sp805_wdt_enable(&wdt_);
  Run(kSecondNs * 2 / 5);
  sp805_wdt_ping(&wdt_);
  const uint64_t load = wdt_.load_val;
  ExpectRiseAt("WDOGINT", kSecondNs * 2 / 5 + load * kTickNs);
  RunUntil((2 * load + 1) * kTickNs + 1);
  EXPECT_EQ(Edges("WDOGRES"), 0u);
}

// sp804_set_periodic without evt_timer_shutdown, while a one-shot event is
// pending: CONTROL goes from one-shot to periodic with ENABLE set, the
// rule mode_while_enabled, at sp804_set_periodic's CONTROL write.
TEST_F(BugsTest, ModeWhileEnabledIsReportedAtTheControlWrite) {
  ASSERT_EQ(ProbeTimer({Bug::kModeWhileEnabled}), 0);
  sp804_set_next_event(&sp_, 1000);
  Run(100 * kTickNs);
  sp804_set_periodic(&sp_);
  std::vector<emulator::Violation> violations = TakeViolations();
  ASSERT_THAT(violations, ElementsAre(AllOf(ProtocolViolation("DUALTIMER1_CONTROL", kModeChanged),
                                            Field("rule", &emulator::Violation::rule, HasSubstr("mode_while_enabled")))));
  EXPECT_EQ(violations[0].offset, 0x2008u);
  EXPECT_EQ(violations[0].value, uint64_t{TIMER_CTRL_32BIT | TIMER_CTRL_IE | TIMER_CTRL_PERIODIC | TIMER_CTRL_ENABLE});
  // The first `writel((uint32_t)ctrl, ...)` of sp804.c is sp804_set_periodic's.
  EXPECT_THAT(SiteOf(violations[0]),
              SiteIs("examples/cmsdk/sp804.c", SourceLine("sp804.c", "writel((uint32_t)ctrl, sp->common_clkevt->ctrl);"),
                     "sp804_set_periodic"));
}

// The same switch, bug-free: sp804_set_periodic stops the timer first.
TEST_F(BugsTest, TheCleanSetPeriodicStopsTheTimerFirst) {
  ASSERT_EQ(ProbeTimer({}), 0);
  sp804_set_next_event(&sp_, 1000);
  Run(100 * kTickNs);
  sp804_set_periodic(&sp_);
  EXPECT_EQ(Peek("DUALTIMER1_CONTROL"),
            uint64_t{TIMER_CTRL_32BIT | TIMER_CTRL_IE | TIMER_CTRL_PERIODIC | TIMER_CTRL_ENABLE});
}

}  // namespace
}  // namespace regemu::cmsdk
