// Linux 6.1's timer-sp804 sequences (sp804.c) on the AN385's dual timer at
// 0x40002000: sp804_of_init's setup (timer 1 the clock event device, timer
// 2 the free-running clocksource), the periodic tick at HZ, one-shot
// events, and the interrupt handler's INTCLR, with the interrupt
// controller's part played by the test: it calls the handler while TIMINT1
// is up.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>

#include "examples/cmsdk/sp804.h"
#include "examples/cmsdk/tests/cmsdk_test.hpp"

namespace regemu::cmsdk {
namespace {

using fakes::FieldIs;

constexpr unsigned kHz = 100;
constexpr uint64_t kReload = kRateHz / kHz;  // DIV_ROUND_CLOSEST(rate, HZ): 250000

class Sp804Test : public CmsdkTest {
 protected:
  void SetUp() override {
    CmsdkTest::SetUp();
    if (HasFatalFailure()) return;
    sp_.event_handler = [](void* context) { ++*static_cast<int*>(context); };
    sp_.context = &events_;
    ASSERT_EQ(sp804_of_init(&sp_, reinterpret_cast<uint8_t*>(CMSDK_DUALTIMER_BASE), kRateHz, kHz, 0), 0);
  }
  // The interrupt controller: the handler runs while TIMINT1 is asserted.
  void Service() {
    if (Line("TIMINT1")) sp804_timer_interrupt(&sp_);
  }
  // The `n`th event (from 0) is due with the tick at `due_ns`; the handler
  // runs just after it.
  void ExpectEventAt(uint64_t due_ns, int n) {
    SCOPED_TRACE(n);
    ExpectRiseAt("TIMINT1", due_ns);
    Service();
    EXPECT_FALSE(Line("TIMINT1")) << "the handler's INTCLR";
    EXPECT_EQ(events_, n + 1);
  }

  sp804 sp_{};
  int events_ = 0;
};

// After the probe: timer 1 stopped with its tick's reload, timer 2 running
// free, 32-bit, periodic from 0xffffffff, with no interrupt.
TEST_F(Sp804Test, TheProbeStopsTheEventTimerAndStartsTheClocksource) {
  EXPECT_EQ(sp_.common_clkevt, &sp_.timers[0]);
  EXPECT_EQ(sp_.sched_clkevt, &sp_.timers[1]);
  EXPECT_EQ(sp_.common_clkevt->reload, kReload);
  EXPECT_THAT(device(), FieldIs("DUALTIMER1_CONTROL.ENABLE", 0));
  EXPECT_EQ(Peek("DUALTIMER2_CONTROL"), uint64_t{TIMER_CTRL_32BIT | TIMER_CTRL_ENABLE | TIMER_CTRL_PERIODIC});
  Run(1);  // off the tick's instant
  uint64_t start = sp804_read(&sp_);
  Run(1000 * kTickNs);
  EXPECT_EQ(sp804_read(&sp_) - start, 1000u);
  Run(kSecondNs);
  EXPECT_EQ(sp804_read(&sp_) - start, 1000u + kRateHz);
  EXPECT_EQ(Edges("TIMINT2"), 0u);
}

// set_state_periodic: an interrupt every 1/HZ s (the first after reload
// ticks, then every reload + 1: the tick after 0 reloads).
TEST_F(Sp804Test, ThePeriodicTickComesAtHz) {
  sp804_set_periodic(&sp_);
  for (int n = 0; n < 10; ++n) {
    ExpectEventAt((kReload + static_cast<uint64_t>(n) * (kReload + 1)) * kTickNs, n);
  }
  EXPECT_EQ(Edges("TIMINT2"), 0u);
}

// set_state_oneshot (sp804_shutdown) and set_next_event: each event once,
// `next` ticks after the LOAD write, reprogrammed from the handler;
// rewriting CONTROL with the same one-shot mode while it is enabled is no
// mode change.
TEST_F(Sp804Test, OneShotEventsComeOnceEach) {
  sp804_shutdown(&sp_);
  sp804_set_next_event(&sp_, 1000);
  ExpectEventAt(1000 * kTickNs, 0);
  uint64_t programmed = Now();  // just after the tick: the count starts from the write
  sp804_set_next_event(&sp_, 500);
  ExpectEventAt(programmed + 500 * kTickNs, 1);
  programmed = Now();
  sp804_set_next_event(&sp_, 0xf);  // min_delta_ticks
  ExpectEventAt(programmed + 0xf * kTickNs, 2);
  Run(kSecondNs);
  EXPECT_EQ(Edges("TIMINT1"), 3u);
}

// The framework's switch from the periodic tick to one-shot events goes
// through sp804_shutdown: no rule broken, and the old period gone.
TEST_F(Sp804Test, PeriodicToOneShotThroughShutdown) {
  sp804_set_periodic(&sp_);
  ExpectEventAt(kReload * kTickNs, 0);
  sp804_shutdown(&sp_);  // set_state_oneshot
  uint64_t programmed = Now();
  sp804_set_next_event(&sp_, 2000);
  ExpectEventAt(programmed + 2000 * kTickNs, 1);
  Run(kSecondNs);
  EXPECT_EQ(Edges("TIMINT1"), 2u);
}

// set_state_shutdown: no more events.
TEST_F(Sp804Test, ShutdownStopsTheTick) {
  sp804_set_periodic(&sp_);
  Run(kReload * kTickNs / 2);
  sp804_shutdown(&sp_);
  Run(kSecondNs);
  EXPECT_EQ(Edges("TIMINT1"), 0u);
}

}  // namespace
}  // namespace regemu::cmsdk
