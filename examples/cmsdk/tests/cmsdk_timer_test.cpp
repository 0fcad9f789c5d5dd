// The CMSIS-style driver (cmsdk_timer.c) on yaml/cmsdk_apb through the
// structs at their fixed addresses: the APB timers count down at 25 MHz
// and interrupt at 0, the dual timer's periodic, one-shot and free-running
// modes and its combined line, the watchdog's interrupt then reset when
// nobody pings it, pings keeping it alive, and its lock. Each expectation
// is a virtual time computed from the load: a count of N reaches 0 after N
// ticks of 40 ns, and the tick after 0 reloads (a period of N + 1 ticks;
// yaml/cmsdk_apb/README.md).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>

#include "examples/cmsdk/cmsdk_timer.h"
#include "examples/cmsdk/tests/cmsdk_test.hpp"

namespace regemu::cmsdk {
namespace {

using ::testing::ElementsAre;

class CmsdkTimerTest : public CmsdkTest {};

// DDI 0479C §4.4: "the counter decrements at each PCLK; when it reaches 0
// the interrupt is asserted (with IRQEN) and it reloads from RELOAD".
TEST_F(CmsdkTimerTest, ApbTimerInterruptsWhenTheCountReachesZero) {
  cmsdk_timer_init(CMSDK_TIMER0, 1000, /*irq_enable=*/1);
  cmsdk_timer_start(CMSDK_TIMER0);
  Run(500 * kTickNs + 1);
  EXPECT_EQ(cmsdk_timer_value(CMSDK_TIMER0), 500u);
  ExpectRiseAt("TIMER0_TIMERINT", 1000 * kTickNs);
  EXPECT_EQ(cmsdk_timer_irq_status(CMSDK_TIMER0), 1u);
  EXPECT_FALSE(Line("TIMER1_TIMERINT"));
  cmsdk_timer_clear_irq(CMSDK_TIMER0);
  EXPECT_FALSE(Line("TIMER0_TIMERINT"));
  // Reloaded at the next tick; the next 0 a period of 1001 ticks later.
  RunUntil(1001 * kTickNs + 1);
  EXPECT_EQ(cmsdk_timer_value(CMSDK_TIMER0), 1000u);
  ExpectRiseAt("TIMER0_TIMERINT", 2001 * kTickNs);
  EXPECT_EQ(Edges("TIMER0_TIMERINT"), 2u);
}

// Without IRQEN the count still runs and reloads, and the line stays low;
// a stopped timer keeps its count.
TEST_F(CmsdkTimerTest, ApbTimerWithoutIrqEnCountsQuietlyAndStopsWhereItIs) {
  cmsdk_timer_init(CMSDK_TIMER1, 100, /*irq_enable=*/0);
  cmsdk_timer_start(CMSDK_TIMER1);
  Run(250 * kTickNs + 1);  // 0 at tick 100, 100 at 101, 0 at 201, 100 at 202, 52 at 250
  EXPECT_EQ(cmsdk_timer_value(CMSDK_TIMER1), 52u);
  EXPECT_EQ(Edges("TIMER1_TIMERINT"), 0u);
  EXPECT_EQ(cmsdk_timer_irq_status(CMSDK_TIMER1), 0u);
  cmsdk_timer_stop(CMSDK_TIMER1);
  Run(kSecondNs);
  EXPECT_EQ(cmsdk_timer_value(CMSDK_TIMER1), 52u);
}

// The two APB timers are independent: each its own count and line.
TEST_F(CmsdkTimerTest, TheTwoApbTimersRunApart) {
  cmsdk_timer_init(CMSDK_TIMER0, 300, 1);
  cmsdk_timer_init(CMSDK_TIMER1, 200, 1);
  cmsdk_timer_start(CMSDK_TIMER0);
  cmsdk_timer_start(CMSDK_TIMER1);
  ExpectRiseAt("TIMER1_TIMERINT", 200 * kTickNs);
  EXPECT_FALSE(Line("TIMER0_TIMERINT"));
  ExpectRiseAt("TIMER0_TIMERINT", 300 * kTickNs);
}

// SP804 (DDI 0271D §2.3.2) periodic mode: LOAD counted down, the
// interrupt at 0, LOAD again at the next tick; TIMINT1 and the combined
// TIMINTC follow timer 1's MIS.
TEST_F(CmsdkTimerTest, DualTimerPeriodicInterruptsEveryPeriod) {
  cmsdk_dualtimer_periodic(CMSDK_DUALTIMER1, 100, CMSDK_DUALTIMER_DIV1, 1);
  for (uint64_t n = 0; n < 5; ++n) {
    SCOPED_TRACE(n);
    ExpectRiseAt("TIMINT1", (100 + 101 * n) * kTickNs);
    EXPECT_TRUE(Line("TIMINTC"));
    EXPECT_FALSE(Line("TIMINT2"));
    EXPECT_EQ(cmsdk_dualtimer_irq_status(CMSDK_DUALTIMER1), 1u);
    cmsdk_dualtimer_clear_irq(CMSDK_DUALTIMER1);
    EXPECT_FALSE(Line("TIMINTC"));
  }
  EXPECT_EQ(Edges("TIMINT1"), 5u);
  EXPECT_EQ(Edges("TIMINTC"), 5u);
}

// One-shot mode: the count halts at 0 after one interrupt (DDI 0271D
// §2.3.2); with PRESCALE /16 a tick is 640 ns.
TEST_F(CmsdkTimerTest, DualTimerOneShotInterruptsOnceAndHalts) {
  cmsdk_dualtimer_oneshot(CMSDK_DUALTIMER2, 50, CMSDK_DUALTIMER_DIV16, 1);
  ExpectRiseAt("TIMINT2", 50 * 16 * kTickNs);
  EXPECT_TRUE(Line("TIMINTC"));
  EXPECT_FALSE(Line("TIMINT1"));
  cmsdk_dualtimer_clear_irq(CMSDK_DUALTIMER2);
  Run(kSecondNs);
  EXPECT_EQ(cmsdk_dualtimer_value(CMSDK_DUALTIMER2), 0u);
  EXPECT_EQ(Edges("TIMINT2"), 1u);
  EXPECT_FALSE(Line("TIMINTC"));
}

// TIMINTC is the OR of both timers' interrupts: it stays up until both are
// cleared.
TEST_F(CmsdkTimerTest, TimIntCIsEitherTimersInterrupt) {
  cmsdk_dualtimer_oneshot(CMSDK_DUALTIMER1, 10, CMSDK_DUALTIMER_DIV1, 1);
  cmsdk_dualtimer_oneshot(CMSDK_DUALTIMER2, 20, CMSDK_DUALTIMER_DIV1, 1);
  ExpectRiseAt("TIMINT1", 10 * kTickNs);
  EXPECT_FALSE(Line("TIMINT2"));
  EXPECT_TRUE(Line("TIMINTC"));
  ExpectRiseAt("TIMINT2", 20 * kTickNs);
  cmsdk_dualtimer_clear_irq(CMSDK_DUALTIMER1);
  EXPECT_FALSE(Line("TIMINT1"));
  EXPECT_TRUE(Line("TIMINTC"));
  cmsdk_dualtimer_clear_irq(CMSDK_DUALTIMER2);
  EXPECT_FALSE(Line("TIMINTC"));
  EXPECT_EQ(Edges("TIMINTC"), 1u);
}

// Free-running mode wraps to the maximum of its 32 bits instead of
// reloading LOAD; with PRESCALE /256 a tick is 10.24 us. Without INTEN,
// RIS rises and the lines stay low (MIS = RIS AND INTEN).
TEST_F(CmsdkTimerTest, DualTimerFreeRunningWrapsToTheMaximum) {
  cmsdk_dualtimer_freerunning(CMSDK_DUALTIMER1, 3, CMSDK_DUALTIMER_DIV256, 0);
  Run(4 * 256 * kTickNs + 1);
  EXPECT_EQ(cmsdk_dualtimer_value(CMSDK_DUALTIMER1), 0xFFFFFFFFu);
  Run(256 * kTickNs);
  EXPECT_EQ(cmsdk_dualtimer_value(CMSDK_DUALTIMER1), 0xFFFFFFFEu);
  EXPECT_EQ(CMSDK_DUALTIMER1->TimerRIS, 1u);
  EXPECT_EQ(cmsdk_dualtimer_irq_status(CMSDK_DUALTIMER1), 0u);
  EXPECT_EQ(Edges("TIMINT1"), 0u);
  EXPECT_EQ(Edges("TIMINTC"), 0u);
}

// BGLOAD changes the next period without touching the count (DDI 0271D
// §3.2.7): the running period ends as loaded, the following one is new.
TEST_F(CmsdkTimerTest, BgLoadTakesEffectAtTheNextReload) {
  cmsdk_dualtimer_periodic(CMSDK_DUALTIMER1, 100, CMSDK_DUALTIMER_DIV1, 1);
  Run(50 * kTickNs + 1);
  cmsdk_dualtimer_set_next_period(CMSDK_DUALTIMER1, 10);
  EXPECT_EQ(cmsdk_dualtimer_value(CMSDK_DUALTIMER1), 50u);
  ExpectRiseAt("TIMINT1", 100 * kTickNs);
  cmsdk_dualtimer_clear_irq(CMSDK_DUALTIMER1);
  ExpectRiseAt("TIMINT1", (100 + 11) * kTickNs);
}

// SP805 (DDI 0270B §2.2): the count of LOAD runs out: the interrupt; it
// reloads and runs out again with the interrupt still pending: the reset
// output (with RESEN).
TEST_F(CmsdkTimerTest, AnUnpingedWatchdogInterruptsThenResets) {
  cmsdk_watchdog_init(1000, /*reset_enable=*/1);
  ExpectRiseAt("WDOGINT", 1000 * kTickNs);
  EXPECT_EQ(cmsdk_watchdog_irq_status(), 1u);
  EXPECT_FALSE(Line("WDOGRES"));
  ExpectRiseAt("WDOGRES", 2001 * kTickNs);
}

// Without RESEN the second expiry asserts nothing more.
TEST_F(CmsdkTimerTest, WithoutResEnTheWatchdogOnlyInterrupts) {
  cmsdk_watchdog_init(1000, /*reset_enable=*/0);
  Run(kSecondNs);
  EXPECT_TRUE(Line("WDOGINT"));
  EXPECT_EQ(Edges("WDOGRES"), 0u);
}

// A ping (INTCLR) reloads the count: pinged every 600 ticks, a count of
// 1000 never runs out.
TEST_F(CmsdkTimerTest, PingingKeepsTheWatchdogQuiet) {
  cmsdk_watchdog_init(1000, 1);
  for (int i = 0; i < 100; ++i) {
    Run(600 * kTickNs);
    cmsdk_watchdog_ping();
  }
  EXPECT_EQ(Edges("WDOGINT"), 0u);
  EXPECT_EQ(Edges("WDOGRES"), 0u);
  EXPECT_EQ(cmsdk_watchdog_value(), 1000u);
  // A ping after the interrupt clears it, before the reset.
  ExpectRiseAt("WDOGINT", Now() + 1000 * kTickNs);
  cmsdk_watchdog_ping();
  EXPECT_FALSE(Line("WDOGINT"));
  Run(1500 * kTickNs);
  EXPECT_EQ(Edges("WDOGRES"), 0u);
  cmsdk_watchdog_disable();
  Run(10 * kSecondNs);
  EXPECT_EQ(Edges("WDOGINT"), 2u);
  EXPECT_EQ(Edges("WDOGRES"), 0u);
}

// Each driver call leaves the watchdog locked (LOCK reads 1); a write
// while locked is ignored (DDI 0270B §3.3.8) and regemu reports it.
TEST_F(CmsdkTimerTest, TheLockBlocksWrites) {
  EXPECT_EQ(cmsdk_watchdog_is_locked(), 0u);
  cmsdk_watchdog_init(1000, 1);
  EXPECT_EQ(cmsdk_watchdog_is_locked(), 1u);
  CMSDK_WATCHDOG->LOAD = 5;
  CMSDK_WATCHDOG->CTRL = 0;
  EXPECT_THAT(TakeViolations(), ElementsAre(ProtocolViolation("WDOGLOAD", "write to a locked watchdog"),
                                            ProtocolViolation("WDOGCONTROL", "write to a locked watchdog")));
  EXPECT_EQ(CMSDK_WATCHDOG->LOAD, 1000u);
  EXPECT_EQ(CMSDK_WATCHDOG->CTRL, 3u);
  cmsdk_watchdog_unlock();
  CMSDK_WATCHDOG->LOAD = 5;
  cmsdk_watchdog_lock();
  EXPECT_EQ(CMSDK_WATCHDOG->LOAD, 5u);
}

}  // namespace
}  // namespace regemu::cmsdk
