// The example HPET driver, bug-free, on the shipped yaml/hpet: what Linux's
// hpet.c sees (the period, the channels, its clockevent arithmetic) and
// what the device then does (the ticks, the one-shot events, the MSI
// messages), with no violation in strict mode.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "examples/hpet/tests/hpet_test.hpp"
#include "regemu/fakes/matchers.hpp"
#include "regemu/regs/hpet.hpp"

namespace regemu::hpet {
namespace {

using fakes::FieldIs;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Field;

constexpr uint64_t kSecondNs = 1'000'000'000;

// The generated header names a field that starts with a digit (the spec's
// Tn_32MODE_CNF) with a leading '_' where C++ needs one.
namespace regs = ::regemu::regs::hpet;
static_assert(regs::T0_CONF::_32MODE_CNF::kMask == 0x100);
static_assert(regs::T0_CONF::Get().set_32mode_cnf(1)._32mode_cnf() == 1);
static_assert(regs::T1_CONF::_32MODE_CNF::kAccess == "ro");
static_assert(regs::GCAP_ID::Get().counter_clk_period() == 69'841'279);

class DriverTest : public HpetTest {};

// hpet_enable: the period (69841279 fs, so 14318179 Hz), three channels
// with their boot configuration (timer 0 periodic- and 64-bit-capable, all
// FSB-capable), the counter counting, LegacyReplacement on.
TEST_F(DriverTest, EnableFindsTheTimerBlockAndStartsItAsLinuxDoes) {
  auto hpet = MakeDriver();
  ASSERT_EQ(hpet->Enable(), Status::kOk);
  EXPECT_EQ(hpet->period_fs(), 69'841'279u);
  EXPECT_EQ(hpet->clockevent().freq_hz, 14'318'179u);
  // clockevents_config_and_register(14318179 Hz, 192, 0x7FFFFFFF).
  EXPECT_EQ(hpet->clockevent().mult, 61'496'111u);
  EXPECT_EQ(hpet->clockevent().shift, 32u);
  EXPECT_EQ(hpet->clockevent().TicksFor(hpet->clockevent().min_delta_ns), 192u);
  EXPECT_THAT(hpet->channels(), ElementsAre(Field(&Channel::boot_cfg, 0x8030u), Field(&Channel::boot_cfg, 0x8000u),
                                            Field(&Channel::boot_cfg, 0x8000u)));
  EXPECT_THAT(device(), FieldIs("GEN_CONF.ENABLE_CNF", 1));
  EXPECT_THAT(device(), FieldIs("GEN_CONF.LEG_RT_CNF", 1));
  uint32_t before = hpet->ReadCounter();
  Run(1'000'000);
  EXPECT_EQ(hpet->ReadCounter() - before, 14'318u);
}

// The periodic tick (hpet_clkevt_set_state_periodic) at HZ = 1000, 250 and
// 100: exactly HZ edges on IRQ0 (and on the I/O APIC's IRQ2) in a virtual
// second, nothing on the other lines.
TEST_F(DriverTest, ThePeriodicTickRaisesExactlyHzInterruptsASecond) {
  auto hpet = MakeDriver();
  ASSERT_EQ(hpet->Enable(), Status::kOk);
  uint64_t edges = 0;
  for (uint32_t hz : {1000u, 250u, 100u}) {
    hpet->SetPeriodic(hpet->TickChannel(), hz);
    Run(kSecondNs);
    EXPECT_EQ(Edges("IRQ0") - edges, hz) << hz;
    edges = Edges("IRQ0");
  }
  EXPECT_EQ(Edges("IRQ2"), edges);
  EXPECT_EQ(Edges("IRQ8"), 0u);
  EXPECT_THAT(device(), FieldIs("T0_CONF.VAL_SET_CNF", 0));
  EXPECT_THAT(device(), FieldIs("T0_CONF.TYPE_CNF", 1));
}

// One-shot mode: each programmed event comes once, at its time (ns ->
// ticks with Linux's mult and shift), and not again.
TEST_F(DriverTest, OneShotEventsComeOnceAtTheirTime) {
  auto hpet = MakeDriver();
  ASSERT_EQ(hpet->Enable(), Status::kOk);
  hpet->SetOneShot(hpet->TickChannel());
  EXPECT_THAT(device(), FieldIs("T0_CONF.TYPE_CNF", 0));
  EXPECT_THAT(device(), FieldIs("T0_CONF.32MODE_CNF", 1));
  for (uint64_t ns : {1'000'000u, 250'000u, 20'000u}) {
    uint64_t edges = Edges("IRQ0");
    ASSERT_EQ(hpet->ProgramEvent(0, ns), Status::kOk);
    Run(ns - 200);  // (ticks * period) may round 70 ns under ns
    EXPECT_EQ(Edges("IRQ0"), edges) << ns;
    Run(200);
    EXPECT_EQ(Edges("IRQ0"), edges + 1) << ns;
    Run(10 * ns);
    EXPECT_EQ(Edges("IRQ0"), edges + 1) << ns;
  }
}

// hpet_clkevt_set_next_event's "too late" check: with an SMI of 20 us
// between the counter read and the comparator write, a 192-tick event is
// passed before the comparator holds it; the read after the write sees the
// counter ahead, Linux says -ETIME, and clockevents_program_min_delta's
// retry programs it again, in time.
TEST_F(DriverTest, TheTooLateCheckCatchesAnEventPassedDuringAnSmi) {
  auto hpet = MakeDriver();
  ASSERT_EQ(hpet->Enable(), Status::kOk);
  hpet->SetOneShot(0);
  Smi(0, 20'000);
  EXPECT_EQ(hpet->SetNextEvent(0, 192), Status::kTooLate);
  Run(kSecondNs);
  EXPECT_EQ(Edges("IRQ0"), 0u);  // passed: an equality match does not come
  Smi(0, 20'000);
  EXPECT_EQ(hpet->ProgramEvent(0, hpet->clockevent().min_delta_ns), Status::kOk);
  Run(1'000'000);
  EXPECT_EQ(Edges("IRQ0"), 1u);
}

// A per-CPU clockevent on FSB-capable channel 2 (hpet_select_clockevents):
// its events are MSI messages (hpet_msi_write's data and address), not
// lines.
TEST_F(DriverTest, AnMsiChannelDeliversMessages) {
  auto hpet = MakeDriver();
  ASSERT_EQ(hpet->Enable(), Status::kOk);
  ASSERT_TRUE(hpet->SetupMsi(2, 0xFEE0'0000, 0x4041));
  hpet->SetOneShot(2);
  ASSERT_EQ(hpet->ProgramEvent(2, 100'000), Status::kOk);
  Run(200'000);
  EXPECT_THAT(device().messages(), ElementsAre(AllOf(Field(&emulator::MessageWrite::address, 0xFEE0'0000u),
                                                     Field(&emulator::MessageWrite::data, 0x4041u))));
  EXPECT_EQ(Edges("IRQ11") + Edges("IRQ20") + Edges("IRQ0"), 0u);
}

// hpet_disable writes the boot configuration back: the counter halts, the
// channels are as the firmware left them.
TEST_F(DriverTest, DisableRestoresTheBootConfiguration) {
  auto hpet = MakeDriver();
  ASSERT_EQ(hpet->Enable(), Status::kOk);
  hpet->SetPeriodic(0, 1000);
  hpet->Disable();
  EXPECT_THAT(device(), FieldIs("GEN_CONF.ENABLE_CNF", 0));
  EXPECT_THAT(device(), FieldIs("GEN_CONF.LEG_RT_CNF", 0));
  EXPECT_THAT(device(), FieldIs("T0_CONF.INT_ENB_CNF", 0));
  uint32_t halted = hpet->ReadCounter();
  Run(1'000'000);
  EXPECT_EQ(hpet->ReadCounter(), halted);
}

}  // namespace
}  // namespace regemu::hpet
