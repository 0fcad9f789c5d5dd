// The shipped HPET (yaml/hpet, IA-PC HPET 1.0a) in data alone, driven the
// way Linux's arch/x86/kernel/hpet.c drives it (32-bit readl/writel): the
// proofs issue 29 asks for. A periodic tick at 1 kHz raises exactly 1000
// interrupts in one virtual second; the main counter at 69841279 fs counts
// 14318180 +- 1 ticks in a second; hpet_clkevt_set_next_event's "too late"
// check sees the counter past the comparator exactly when it is, and then
// no interrupt comes (the match is on equality).
#include <cstdint>
#include <memory>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using testing_support::CompileDatabaseAt;
using testing_support::RegisterNamed;

constexpr uint64_t kSecondNs = 1'000'000'000;
// HPET_* offsets of Linux's asm/hpet.h.
constexpr uint64_t kId = 0x000;
constexpr uint64_t kPeriod = 0x004;
constexpr uint64_t kCfg = 0x010;
constexpr uint64_t kStatus = 0x020;
constexpr uint64_t kCounter = 0x0F0;
constexpr uint64_t kT0Cfg = 0x100;
constexpr uint64_t kT0Cmp = 0x108;
constexpr uint32_t kCfgEnable = 0x1;
constexpr uint32_t kCfgLegacy = 0x2;
constexpr uint32_t kTnEnable = 0x4;
constexpr uint32_t kTnPeriodic = 0x8;
constexpr uint32_t kTnSetVal = 0x40;
constexpr uint32_t kTn32Bit = 0x100;
constexpr int32_t kMinCycles = 128;  // HPET_MIN_CYCLES
// clockevents_config_and_register(hpet_freq = 14318179 Hz): mult 61496111,
// shift 32; a jiffy at HZ = 1000 is (10^6 * mult) >> 32 ticks.
constexpr uint64_t kMult = 61'496'111;
constexpr uint32_t kJiffy1kHz = static_cast<uint32_t>((uint64_t{1'000'000} * kMult) >> 32);
static_assert(kJiffy1kHz == 14318);

class HpetTest : public ::testing::Test {
 protected:
  uint32_t readl(uint64_t offset) { return static_cast<uint32_t>(hpet_->Read(mmio_, offset, 32)); }
  void writel(uint32_t value, uint64_t offset) { hpet_->Write(mmio_, offset, 32, value); }

  // hpet_enable's sanitizing and hpet_counting's restart (stop, the two
  // halves of the counter to 0, start), then LegacyReplacement on.
  void Enable() {
    ASSERT_NE(readl(kCfg), 0xFFFFFFFFu);
    ASSERT_EQ(readl(kPeriod), 69'841'279u);
    uint32_t channels = ((readl(kId) & 0x1F00) >> 8) + 1;
    ASSERT_EQ(channels, 3u);
    writel(readl(kCfg) & ~(kCfgEnable | kCfgLegacy), kCfg);
    for (uint32_t i = 0; i < channels; ++i) {
      uint32_t cfg = readl(0x100 + 0x20 * i);
      writel(cfg & ~(kTnEnable | 0x2u | 0x4000u), 0x100 + 0x20 * i);
    }
    writel(readl(kCfg) & ~kCfgEnable, kCfg);
    writel(0, kCounter);
    writel(0, kCounter + 4);
    writel(readl(kCfg) | kCfgEnable, kCfg);
    writel(readl(kCfg) | kCfgLegacy, kCfg);
  }

  // hpet_clkevt_set_state_periodic (6.1) on channel 0.
  void SetPeriodic(uint32_t delta) {
    writel(readl(kCfg) & ~kCfgEnable, kCfg);
    uint32_t cmp = readl(kCounter) + delta;
    writel(readl(kT0Cfg) | kTnEnable | kTnPeriodic | kTnSetVal | kTn32Bit, kT0Cfg);
    writel(cmp, kT0Cmp);
    writel(delta, kT0Cmp);
    writel(readl(kCfg) | kCfgEnable, kCfg);
  }

  // hpet_clkevt_set_state_oneshot on channel 0.
  void SetOneShot() { writel((readl(kT0Cfg) & ~kTnPeriodic) | kTnEnable | kTn32Bit, kT0Cfg); }

  // hpet_clkevt_set_next_event, with `between` ns passing between the
  // counter read and the comparator write (an NMI or SMI): Linux's result
  // (s32)(cnt - counter after the write), which it calls -ETIME when below
  // HPET_MIN_CYCLES.
  int32_t SetNextEvent(uint32_t delta, uint64_t between = 0) {
    uint32_t cnt = readl(kCounter) + delta;
    hpet_->Advance(between);
    writel(cnt, kT0Cmp);
    return static_cast<int32_t>(cnt - readl(kCounter));
  }

  std::unique_ptr<Device> hpet_ =
      std::make_unique<Device>(CompileDatabaseAt(std::string(REGEMU_SOURCE_DIR) + "/yaml/hpet"));
  SpaceId mmio_ = testing_support::SpaceNamed(hpet_->model(), "mmio");
};

// Linux's periodic tick at HZ = 1000 from a counter just reset: events at
// 14318 * k ticks, k = 1..1000 inside the 14318179 ticks of one second
// (1001 * 14318 is past it). Each is one edge on IRQ0 and IRQ2 (timer 0
// in LegacyReplacement mode), none other; nothing is left pending.
TEST_F(HpetTest, APeriodicTimerAt1kHzRaisesExactly1000InterruptsInOneVirtualSecond) {
  Enable();
  SetPeriodic(kJiffy1kHz);
  uint64_t start = hpet_->now_ns();
  hpet_->Advance(kSecondNs);
  EXPECT_EQ(hpet_->line_edges("IRQ0"), 1000u);
  EXPECT_EQ(hpet_->line_edges("IRQ2"), 1000u);
  EXPECT_EQ(hpet_->line_edges("IRQ8"), 0u);
  EXPECT_FALSE(hpet_->line_asserted("IRQ0"));  // edges: pulses
  EXPECT_EQ(readl(kStatus), 0u);               // edge mode leaves GINTR_STA alone
  // The comparator holds the next tick; a second second brings 1000 more.
  EXPECT_EQ(readl(kT0Cmp), 1001u * kJiffy1kHz);
  hpet_->Advance(start + 2 * kSecondNs - hpet_->now_ns());
  EXPECT_EQ(hpet_->line_edges("IRQ0"), 2000u);
  EXPECT_EQ(hpet_->violation_count(), 0u);
}

// The same tick without LegacyReplacement, routed to I/O APIC input 20 and
// level-triggered, acknowledged by its handler each time (read GINTR_STA,
// write the bit back, HPET 1.0a §2.4.6): 1000 rising edges, one per tick.
TEST_F(HpetTest, ALevelTickAcknowledgedByItsHandlerRises1000TimesASecond) {
  Enable();
  writel(readl(kCfg) & ~kCfgLegacy, kCfg);
  writel(readl(kT0Cfg) | (20u << 9) | 0x2u, kT0Cfg);
  SetPeriodic(kJiffy1kHz);
  uint64_t end = hpet_->now_ns() + kSecondNs;
  while (hpet_->next_event_ns() && *hpet_->next_event_ns() <= end) {
    hpet_->Advance(*hpet_->next_event_ns() - hpet_->now_ns());
    ASSERT_TRUE(hpet_->line_asserted("IRQ20"));
    writel(readl(kStatus), kStatus);  // the handler's ack
    ASSERT_FALSE(hpet_->line_asserted("IRQ20"));
  }
  EXPECT_EQ(hpet_->line_edges("IRQ20"), 1000u);
  EXPECT_EQ(hpet_->line_edges("IRQ0"), 0u);
  EXPECT_EQ(hpet_->violation_count(), 0u);
}

// COUNTER_CLK_PERIOD is 69841279 fs: 10^15 / 69841279 = 14318179.94 ticks a
// second, so the counter reads 14318180 +- 1 (exactly floor: 14318179) as
// Linux reads it, 32 bits wide, whether the second passes at once or in
// 1000 steps of 1 ms.
TEST_F(HpetTest, TheMainCounterCounts14318180TicksInOneVirtualSecond) {
  Enable();
  uint32_t before = readl(kCounter);
  hpet_->Advance(kSecondNs);
  uint32_t ticks = readl(kCounter) - before;
  EXPECT_NEAR(ticks, 14'318'180, 1);
  EXPECT_EQ(ticks, 14'318'179u);
  for (int i = 0; i < 1000; ++i) hpet_->Advance(1'000'000);
  EXPECT_EQ(readl(kCounter) - before, 2 * 14'318'179u + 1);  // 28636359.88 after two seconds
  EXPECT_EQ(readl(kCounter + 4), 0u);
}

// hpet_clkevt_set_next_event: the counter read, the comparator write, the
// counter read again. In time: (s32)(cnt - now) = delta, and the event
// comes. Too close (an SMI of 5 us, 71 ticks, in a 192-tick delta): 121 <
// HPET_MIN_CYCLES, so Linux says -ETIME though the counter has not passed
// cnt, and the event still comes. Too late (20 us, 286 ticks): the counter
// is past cnt when the comparator is written, the check sees it negative,
// and no event comes (equality match: not before the low 32 bits come
// round again, 5 minutes on).
TEST_F(HpetTest, TheOneShotTooLateCheckSeesTheCounterPastTheComparator) {
  Enable();
  SetOneShot();

  int32_t in_time = SetNextEvent(kJiffy1kHz);
  EXPECT_EQ(in_time, static_cast<int32_t>(kJiffy1kHz));
  EXPECT_GE(in_time, kMinCycles);
  hpet_->Advance(2'000'000);
  EXPECT_EQ(hpet_->line_edges("IRQ0"), 1u);

  int32_t too_close = SetNextEvent(192, 5'000);
  EXPECT_EQ(too_close, 192 - 71);
  EXPECT_LT(too_close, kMinCycles);
  EXPECT_GT(too_close, 0);
  hpet_->Advance(1'000'000);
  EXPECT_EQ(hpet_->line_edges("IRQ0"), 2u);  // the event came anyway

  int32_t too_late = SetNextEvent(192, 20'000);
  EXPECT_LT(too_late, 0);
  EXPECT_EQ(too_late, 192 - 286);
  uint32_t missed = readl(kT0Cmp);
  hpet_->Advance(10 * kSecondNs);
  EXPECT_EQ(hpet_->line_edges("IRQ0"), 2u);  // missed
  EXPECT_EQ(readl(kT0Cmp), missed);          // one-shot: the comparator stays
  EXPECT_GT(readl(kCounter) - missed, 10u * 14'318'179);

  // clockevents_program_min_delta's retry, in time, brings it.
  EXPECT_GE(SetNextEvent(192), kMinCycles);
  hpet_->Advance(1'000'000);
  EXPECT_EQ(hpet_->line_edges("IRQ0"), 3u);
  EXPECT_EQ(hpet_->violation_count(), 0u);
}

// In 32-bit mode a one-shot timer also interrupts when the counter's low 32
// bits wrap (HPET 1.0a §2.3.9.2.1): a missed comparator is followed by the
// wrap's interrupt, 2^32 ticks after the counter started (about 300 s).
TEST_F(HpetTest, AOneShot32BitTimerAlsoInterruptsAtTheWrap) {
  Enable();
  SetOneShot();
  hpet_->Advance(1'000);
  writel(readl(kCounter) - 1, kT0Cmp);  // just passed: a lap away
  uint64_t wrap_ns = ((uint64_t{1} << 32) * 69'841'279 + 999'999) / 1'000'000;
  hpet_->Advance(wrap_ns - hpet_->now_ns() - 1);
  EXPECT_EQ(hpet_->line_edges("IRQ0"), 0u);
  hpet_->Advance(1);
  EXPECT_EQ(hpet_->line_edges("IRQ0"), 1u);
  EXPECT_EQ(hpet_->violation_count(), 0u);
}

// Timer 0's period is the value last written (HPET 1.0a §2.3.9.2.3): kept
// where software cannot read it, in the state space.
TEST_F(HpetTest, ThePeriodIsTheValueLastWritten) {
  Enable();
  SetPeriodic(kJiffy1kHz);
  EXPECT_EQ(hpet_->PeekRegister(RegisterNamed(hpet_->model(), "T0_PERIOD")), kJiffy1kHz);
  EXPECT_EQ(readl(kT0Cfg) & kTnSetVal, 0u);  // self-clearing
}

}  // namespace
}  // namespace regemu::emulator
