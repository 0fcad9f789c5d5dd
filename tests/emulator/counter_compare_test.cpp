// `kind: counter` comparators (yaml/README.md "kind: counter"): "a match
// happens when the count reaches the comparator's value, modulo the
// counter's width", at the exact ns, on the device's event queue; HPET's
// timers are the example (IA-PC HPET Specification 1.0a).
#include <cstdint>
#include <memory>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/emulator/hpet_test_device.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;
using testing_support::HpetNsFor;
using testing_support::kGenConf;
using testing_support::kGintrSta;
using testing_support::kMainCnt;
using testing_support::kT0Cmp;
using testing_support::kT0Conf;
using testing_support::kT0Period;
using testing_support::kT1Cmp;

uint64_t Status(Device& device) {
  return device.PeekRegister(testing_support::RegisterNamed(device.model(), "GINTR_STA"));
}

// T0 at 3 ticks matches at the first ns whose count is 3: ceil(3 * 69841279
// fs) = 210ns (209.523837 rounded up), not a ns earlier.
TEST(CounterCompareTest, MatchesAtTheExactNanosecond) {
  auto hpet = testing_support::Hpet();
  hpet->Write(0, kT0Cmp, 64, 3);
  hpet->Write(0, kGenConf, 64, 1);
  EXPECT_EQ(hpet->next_event_ns(), HpetNsFor(3));
  ASSERT_EQ(HpetNsFor(3), 210u);
  hpet->Advance(209);
  EXPECT_EQ(hpet->Read(0, kMainCnt, 64), 2u);
  EXPECT_EQ(Status(*hpet), 0u);
  hpet->Advance(1);
  EXPECT_EQ(hpet->Read(0, kMainCnt, 64), 3u);
  EXPECT_EQ(Status(*hpet), 1u);  // T0_INT_STS, stored at 210ns
}

// The match instant is exact wherever counting started: after 1000 ticks,
// enabled at t=12345, T0 at count 1007 matches 7 ticks of counting time
// later, from the fraction of a tick already counted.
TEST(CounterCompareTest, MatchInstantKeepsThePhase) {
  auto hpet = testing_support::Hpet();
  hpet->Advance(12'345);  // halted: no counting time
  hpet->Write(0, kGenConf, 64, 1);
  hpet->Advance(HpetNsFor(1000) + 5);  // 1000 ticks and a part of the next
  ASSERT_EQ(hpet->Read(0, kMainCnt, 64), 1000u);
  hpet->Write(0, kT0Cmp, 64, 1007);
  EXPECT_EQ(hpet->next_event_ns(), 12'345 + HpetNsFor(1007));
  hpet->Advance(12'345 + HpetNsFor(1007) - hpet->now_ns() - 1);
  EXPECT_EQ(Status(*hpet), 0u);
  hpet->Advance(1);
  EXPECT_EQ(Status(*hpet), 1u);
  EXPECT_EQ(hpet->Read(0, kMainCnt, 64), 1007u);
}

// Periodic mode: each match adds T0_PERIOD to T0_CMP (HPET periodic mode), so
// the matches come at counts 10, 20, 30 with no drift.
TEST(CounterCompareTest, PeriodicModeReloadsTheComparator) {
  auto hpet = testing_support::Hpet();
  hpet->Write(0, kT0Conf, 64, 1 << 3);  // TYPE_CNF: periodic
  hpet->Write(0, kT0Period, 64, 10);
  hpet->Write(0, kT0Cmp, 64, 10);
  hpet->Write(0, kGenConf, 64, 1);
  for (uint64_t match = 10; match <= 30; match += 10) {
    EXPECT_EQ(hpet->next_event_ns(), HpetNsFor(match)) << match;
    hpet->Advance(*hpet->next_event_ns() - hpet->now_ns() - 1);
    EXPECT_EQ(Status(*hpet), 0u) << match;
    hpet->Advance(1);
    EXPECT_EQ(Status(*hpet), 1u) << match;
    EXPECT_EQ(hpet->Read(0, kT0Cmp, 64), match + 10);
    hpet->Write(0, kGintrSta, 64, 1);  // the driver acks: w1c
  }
}

// A one-shot comparator (TYPE_CNF = 0) keeps its value: the next match is a
// whole lap of the counter later, which on a 32-bit counter is 2^32 ticks
// (five minutes of virtual time, one step).
TEST(CounterCompareTest, OneShotMatchesOncePerLap) {
  auto hpet = testing_support::Hpet(32);
  hpet->Write(0, kT0Cmp, 64, 10);
  hpet->Write(0, kGenConf, 64, 1);
  hpet->Advance(HpetNsFor(10));
  EXPECT_EQ(Status(*hpet), 1u);
  EXPECT_EQ(hpet->Read(0, kT0Cmp, 64), 10u);
  hpet->Write(0, kGintrSta, 64, 1);
  hpet->Advance(HpetNsFor((uint64_t{1} << 32) + 10) - hpet->now_ns() - 1);
  EXPECT_EQ(Status(*hpet) & 1, 0u);
  hpet->Advance(1);
  EXPECT_EQ(Status(*hpet) & 1, 1u);
  EXPECT_EQ(hpet->Read(0, kMainCnt, 32), 10u);
}

// A 32-bit counter wraps, and a comparator past the wrap (written 5 while
// the count is 0xfffffff0) matches 21 ticks later; the wrap is covered.
TEST(CounterCompareTest, ComparatorPastThe32BitWrap) {
  DeviceOptions options;
  options.coverage = true;
  auto hpet = testing_support::Hpet(32, "", "", options);
  hpet->Write(0, kMainCnt, 32, 0xFFFF'FFF0);  // halted: sets the count
  hpet->Write(0, kT0Cmp, 64, 1000);           // out of the way (its reset value, all-ones, is 15 ticks off)
  hpet->Write(0, kT1Cmp, 64, 5);
  hpet->Write(0, kGenConf, 64, 1);
  uint64_t start = hpet->now_ns();
  EXPECT_EQ(hpet->next_event_ns(), start + HpetNsFor(21));
  hpet->Advance(HpetNsFor(21) - 1);
  EXPECT_EQ(hpet->Read(0, kMainCnt, 32), 4u);
  EXPECT_EQ(Status(*hpet), 0u);
  hpet->Advance(1);
  EXPECT_EQ(hpet->Read(0, kMainCnt, 32), 5u);
  EXPECT_EQ(Status(*hpet), 2u);  // T1_INT_STS
  EXPECT_THAT(testing_support::PointHits(*hpet, "hpet"),
              ElementsAre(Pair("counter/wrapped", 1), Pair("match/T0", 0), Pair("match/T1", 1)));
}

// A comparator wider than the counter compares modulo the counter's width:
// 0x1_0000_0005 against a 32-bit count matches at 5.
TEST(CounterCompareTest, ComparesModuloTheCounterWidth) {
  auto hpet = testing_support::Hpet(32);
  hpet->Write(0, kT0Cmp, 64, 0x1'0000'0005);
  hpet->Write(0, kGenConf, 64, 1);
  hpet->Advance(HpetNsFor(5));
  EXPECT_EQ(Status(*hpet), 1u);
}

// Halting the counter cancels the pending match and starting it again
// re-plans it from the count and the fraction of a tick where it stopped.
TEST(CounterCompareTest, HaltingPostponesTheMatch) {
  auto hpet = testing_support::Hpet();
  hpet->Write(0, kT0Cmp, 64, 100);
  hpet->Write(0, kGenConf, 64, 1);
  hpet->Advance(1000);
  hpet->Write(0, kGenConf, 64, 0);
  // Only T1's (all-ones) and T0's plans existed; halted, nothing is pending.
  EXPECT_EQ(hpet->pending_events(), 0u);
  hpet->Advance(1'000'000);
  EXPECT_EQ(Status(*hpet), 0u);
  hpet->Write(0, kGenConf, 64, 1);
  uint64_t restart = hpet->now_ns();
  EXPECT_EQ(hpet->next_event_ns(), restart + HpetNsFor(100) - 1000);
  hpet->Advance(HpetNsFor(100) - 1000);
  EXPECT_EQ(Status(*hpet), 1u);
}

// Writing the comparator re-plans: the earlier instant does not match.
TEST(CounterCompareTest, WritingTheComparatorReplans) {
  auto hpet = testing_support::Hpet();
  hpet->Write(0, kT0Cmp, 64, 10);
  hpet->Write(0, kGenConf, 64, 1);
  hpet->Write(0, kT0Cmp, 64, 20);
  hpet->Advance(HpetNsFor(10));
  EXPECT_EQ(Status(*hpet), 0u);
  hpet->Advance(HpetNsFor(20) - HpetNsFor(10));
  EXPECT_EQ(Status(*hpet), 1u);
}

// A comparator equal to the count does not match now ("becomes equal"): a
// counter halted at 7 with T0 at 7 matches a lap later, not at the start.
TEST(CounterCompareTest, EqualNowIsNotAMatch) {
  auto hpet = testing_support::Hpet(32);
  hpet->Write(0, kMainCnt, 32, 7);
  hpet->Write(0, kT0Cmp, 64, 7);
  hpet->Write(0, kT1Cmp, 64, 7);
  hpet->Write(0, kGenConf, 64, 1);
  hpet->Advance(1'000'000);
  EXPECT_EQ(Status(*hpet), 0u);
  EXPECT_EQ(hpet->next_event_ns(), HpetNsFor(uint64_t{1} << 32));
}

// Nothing compares, nothing is scheduled: a plain counter costs what it did.
TEST(CounterCompareTest, NoEventsWithoutComparators) {
  auto device = testing_support::MakeDevice(R"(device: plain
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: TS, space: mmio, offset: 0, width: 64, access: hw}
behaviours:
  - {kind: counter, register: TS, frequency: 19.2MHz}
)");
  device->Advance(1'000'000);
  EXPECT_EQ(device->pending_events(), 0u);
  EXPECT_EQ(device->PeekRegister(0), 19'200u);
}

// A match signals "<behaviour>.<comparator>", which reactions take as an
// `event:` trigger; `signal: false` keeps a comparator quiet.
TEST(CounterCompareTest, AMatchSignalsReactions) {
  auto hpet = testing_support::MakeDevice(testing_support::HpetYaml(64, "", R"(  - name: irq
    kind: reactions
    reactions:
      - {name: t0, on: {event: hpet.T0}, do: [{set: {SCRATCH: "SCRATCH + 1"}}]}
      - {name: t1, on: {event: hpet.T1}, do: [{set: {SCRATCH: "SCRATCH + 0x100"}}]}
)"));
  hpet->Write(0, kT0Cmp, 64, 2);
  hpet->Write(0, kT1Cmp, 64, 3);
  hpet->Write(0, kGenConf, 64, 1);
  hpet->Advance(HpetNsFor(3));
  EXPECT_EQ(hpet->Read(0, 0x200, 64), 0x101u);

  std::string yaml = testing_support::HpetYaml(64, "", R"(  - name: irq
    kind: reactions
    reactions:
      - {name: t0, on: {event: hpet.T0}, do: [{set: {SCRATCH: 1}}]}
)");
  yaml.replace(yaml.find("set: GINTR_STA.T0_INT_STS,"), 0, "signal: false, ");
  auto quiet = testing_support::MakeDevice(yaml);
  quiet->Write(0, kT0Cmp, 64, 2);
  quiet->Write(0, kGenConf, 64, 1);
  quiet->Advance(HpetNsFor(2));
  EXPECT_EQ(Status(*quiet), 1u);                // still sets its status bit
  EXPECT_EQ(quiet->Read(0, 0x200, 64), 0u);     // but signals nothing
}

// Another behaviour storing into the enable (a reaction halting the
// counter) stops it at that instant, exactly.
TEST(CounterCompareTest, AStoreIntoTheEnableHaltsAtThatInstant) {
  auto hpet = testing_support::MakeDevice(testing_support::HpetYaml(64, "", R"(  - name: ctl
    kind: reactions
    reactions:
      - {name: halt, on: {event: halt}, do: [{set: {GEN_CONF.ENABLE_CNF: 0}}]}
      - {name: go, on: {event: go}, do: [{set: {GEN_CONF.ENABLE_CNF: 1}}]}
)"));
  hpet->Write(0, kT0Cmp, 64, 100);
  hpet->Write(0, kGenConf, 64, 1);
  hpet->Advance(HpetNsFor(50));
  ASSERT_EQ(hpet->Inject("halt", {}), "");
  EXPECT_EQ(hpet->pending_events(), 0u);
  hpet->Advance(5'000'000);
  EXPECT_EQ(hpet->Read(0, kMainCnt, 64), 50u);
  ASSERT_EQ(hpet->Inject("go", {}), "");
  // 50 ticks and the fraction beyond HpetNsFor(50) are counted; 50 remain.
  uint64_t counted = HpetNsFor(50);
  hpet->Advance(HpetNsFor(100) - counted - 1);
  EXPECT_EQ(Status(*hpet), 0u);
  hpet->Advance(1);
  EXPECT_EQ(Status(*hpet), 1u);
}

// Reset empties the queue and re-plans from the reset values: a halted
// counter (ENABLE_CNF resets to 0) has nothing pending.
TEST(CounterCompareTest, ResetReplansFromResetValues) {
  auto hpet = testing_support::Hpet();
  hpet->Write(0, kT0Cmp, 64, 10);
  hpet->Write(0, kGenConf, 64, 1);
  hpet->Advance(100);
  hpet->Reset();
  EXPECT_EQ(hpet->pending_events(), 0u);
  EXPECT_EQ(hpet->Read(0, kMainCnt, 64), 0u);
  hpet->Write(0, kT0Cmp, 64, 10);
  hpet->Write(0, kGenConf, 64, 1);
  uint64_t start = hpet->now_ns();
  hpet->Advance(HpetNsFor(10));
  EXPECT_EQ(Status(*hpet), 1u);
  EXPECT_EQ(hpet->now_ns() - start, HpetNsFor(10));
}

// A snapshot keeps the pending match: after Restore the same event fires at
// the same instant, and the plan's event id is still the queue's, so a
// write of the comparator cancels it rather than leaving it to fire.
TEST(CounterCompareTest, SnapshotRestoreKeepsThePendingMatch) {
  auto hpet = testing_support::Hpet();
  hpet->Write(0, kT0Cmp, 64, 10);
  hpet->Write(0, kGenConf, 64, 1);
  hpet->Advance(100);
  DeviceSnapshot snapshot = hpet->Snapshot();
  hpet->Advance(HpetNsFor(10));
  EXPECT_EQ(Status(*hpet), 1u);

  hpet->Restore(snapshot);
  EXPECT_EQ(Status(*hpet), 0u);
  EXPECT_EQ(hpet->next_event_ns(), HpetNsFor(10));
  hpet->Advance(HpetNsFor(10) - 100);
  EXPECT_EQ(Status(*hpet), 1u);

  hpet->Restore(snapshot);
  size_t pending = hpet->pending_events();
  hpet->Write(0, kT0Cmp, 64, 20);
  EXPECT_EQ(hpet->pending_events(), pending);  // the old one cancelled, a new one planned
  hpet->Advance(HpetNsFor(20) - 100 - 1);
  EXPECT_EQ(Status(*hpet), 0u);
  hpet->Advance(1);
  EXPECT_EQ(Status(*hpet), 1u);
}

// A backdoor poke of a comparator tells no hook; the next advance re-plans.
TEST(CounterCompareTest, APokedComparatorIsReplannedAtTheNextAdvance) {
  auto hpet = testing_support::Hpet();
  hpet->Write(0, kT0Cmp, 64, 10);
  hpet->Write(0, kGenConf, 64, 1);
  hpet->PokeRegister(testing_support::RegisterNamed(hpet->model(), "T0_CMP"), 30);
  hpet->Advance(1);
  EXPECT_EQ(hpet->next_event_ns(), HpetNsFor(30));
  hpet->Advance(HpetNsFor(10));
  EXPECT_EQ(Status(*hpet), 0u);
  hpet->Advance(HpetNsFor(30) - HpetNsFor(10) - 1);
  EXPECT_EQ(Status(*hpet), 1u);
}

// A counter faster than the clock's 1ns resolution (3 GHz: 3 ticks a ns)
// matches at the first ns at which the count reaches or passes the value.
TEST(CounterCompareTest, AFastCounterMatchesAtTheFirstNanosecondPastIt) {
  auto device = testing_support::MakeDevice(R"(device: tsc
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: TSC, space: mmio, offset: 0, width: 64, access: hw}
  - {name: DEADLINE, space: mmio, offset: 8, width: 64, access: rw, reset: 0xffffffffffffffff}
  - name: STATUS
    space: mmio
    offset: 0x10
    fields:
      - {name: FIRED, bits: 0, access: w1c}
behaviours:
  - kind: counter
    register: TSC
    frequency: 3GHz
    compare:
      - {name: deadline, register: DEADLINE, set: STATUS.FIRED}
)");
  device->Write(0, 8, 64, 7);
  EXPECT_EQ(device->next_event_ns(), 3u);  // counts 3, 6, 9: 7 is passed at 3ns
  device->Advance(2);
  EXPECT_EQ(device->Read(0, 0x10, 32), 0u);
  device->Advance(1);
  EXPECT_EQ(device->Read(0, 0x10, 32), 1u);
  EXPECT_EQ(device->Read(0, 0, 64), 9u);
}

// An increment above 1 passes over values: a match is the count reaching
// or passing the comparator (4, 8, 12: 10 is passed at the third tick).
TEST(CounterCompareTest, AnIncrementPassingTheValueMatches) {
  auto hpet = testing_support::Hpet(64, "    increment: 4\n");
  hpet->Write(0, kT0Cmp, 64, 10);
  hpet->Write(0, kGenConf, 64, 1);
  EXPECT_EQ(hpet->next_event_ns(), HpetNsFor(3));
}

// A saturating counter stops at all-ones: a comparator below the count is
// never reached again, one above it is matched when the count gets there.
TEST(CounterCompareTest, ASaturatingCounterNeverComesBack) {
  auto hpet = testing_support::Hpet(32, "    saturate: true\n");
  hpet->Write(0, kMainCnt, 32, 100);
  hpet->Write(0, kT0Cmp, 64, 50);
  hpet->Write(0, kT1Cmp, 64, 0xFFFF'FFFF);
  hpet->Write(0, kGenConf, 64, 1);
  EXPECT_EQ(hpet->pending_events(), 1u);  // T1's only
  EXPECT_EQ(hpet->next_event_ns(), hpet->now_ns() + HpetNsFor(0xFFFF'FFFFull - 100));
}


// `width:` compares the count's low bits only (IA-PC HPET 1.0a §1.3: a
// 32-bit timer's comparator is 32 bits wide, the main counter may be 64).
// T_WIDE: the bits compared, from MODE.M32 (the 64-bit timer's
// Tn_32MODE_CNF); T_NARROW: always 32.
std::unique_ptr<Device> WidthDevice() {
  return testing_support::MakeDevice(R"(device: widths
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: EN, space: mmio, offset: 0x0, width: 64, fields: [{name: ON, bits: 0}]}
  - {name: CNT, space: mmio, offset: 0x8, width: 64}
  - {name: MODE, space: mmio, offset: 0x10, width: 64, fields: [{name: M32, bits: 8}, {name: PER, bits: 3}]}
  - {name: WIDE, space: mmio, offset: 0x18, width: 64, reset: 0xffffffffffffffff}
  - {name: NARROW, space: mmio, offset: 0x20, width: 64, reset: 0xffffffffffffffff}
  - {name: PERIOD, space: mmio, offset: 0x28, width: 64}
  - {name: STS, space: mmio, offset: 0x30, width: 64, fields: [{name: WIDE, bits: 0, access: w1c}, {name: NARROW, bits: 1, access: w1c}]}
behaviours:
  - name: c
    kind: counter
    register: CNT
    period: 69841279fs
    enable: EN.ON
    compare:
      - {name: T_WIDE, register: WIDE, set: STS.WIDE, width: "MODE.M32 ? 32 : 64", periodic: MODE.PER, period_register: PERIOD}
      - {name: T_NARROW, register: NARROW, set: STS.NARROW, width: 32}
)");
}

constexpr uint64_t kEn = 0x0, kCnt = 0x8, kMode = 0x10, kWide = 0x18, kNarrow = 0x20, kPeriod = 0x28, kSts = 0x30;

// A 32-bit comparator against a 64-bit count matches whenever the low 32
// bits reach it, in every lap: 5 from 0x1_FFFF_FFF0 is 21 ticks away, not
// a lap of 2^64.
TEST(CounterCompareTest, ANarrowComparatorMatchesTheLowBitsEveryLap) {
  auto device = WidthDevice();
  device->Write(0, kCnt, 64, 0x1'FFFF'FFF0);
  device->Write(0, kWide, 64, 0x1'0000'0000);  // out of the way in 64-bit compare
  device->Write(0, kNarrow, 64, 5);
  device->Write(0, kEn, 64, 1);
  EXPECT_EQ(device->next_event_ns(), device->now_ns() + HpetNsFor(21));
  device->Advance(HpetNsFor(21));
  EXPECT_EQ(device->Read(0, kCnt, 64), 0x2'0000'0005u);
  EXPECT_EQ(device->Read(0, kSts, 64), 2u);
  // The next lap of the low bits: 2^32 ticks on.
  EXPECT_EQ(device->next_event_ns(), HpetNsFor(21 + (uint64_t{1} << 32)));
}

// The width is an expression: setting the mode bit narrows the compare at
// once (a re-plan), clearing it widens it again.
TEST(CounterCompareTest, AWidthExpressionReplansWhenItsInputChanges) {
  auto device = WidthDevice();
  device->Write(0, kCnt, 64, 0x1'0000'0000);
  device->Write(0, kWide, 64, 5);  // 64 bits: passed, a lap of 2^64 away
  device->Write(0, kEn, 64, 1);
  // NARROW (reset all-ones) is the nearer: 2^32 - 1 ticks.
  EXPECT_EQ(device->next_event_ns(), HpetNsFor(0xFFFF'FFFF));
  device->Write(0, kMode, 64, 1 << 8);  // M32: the low 32 bits, 5 ticks away
  EXPECT_EQ(device->next_event_ns(), HpetNsFor(5));
  device->Write(0, kMode, 64, 0);
  EXPECT_EQ(device->next_event_ns(), HpetNsFor(0xFFFF'FFFF));
  device->Write(0, kMode, 64, 1 << 8);
  device->Advance(HpetNsFor(5));
  EXPECT_EQ(device->Read(0, kSts, 64), 1u);
}

// A periodic reload wraps at the width: FFFFFFF0h + 20h is 10h in 32 bits
// ("the value will wrap around through 0", HPET 1.0a §2.3.9.1), and the
// bits above stay as they were.
TEST(CounterCompareTest, APeriodicReloadWrapsAtTheWidth) {
  auto device = WidthDevice();
  device->Write(0, kMode, 64, (1 << 8) | (1 << 3));
  device->Write(0, kPeriod, 64, 0x20);
  device->Write(0, kWide, 64, 0xFFFF'FFF0);
  device->Write(0, kCnt, 64, 0xFFFF'FF00);
  device->Write(0, kEn, 64, 1);
  device->Advance(HpetNsFor(0xF0));
  EXPECT_EQ(device->Read(0, kSts, 64) & 1, 1u);
  EXPECT_EQ(device->Read(0, kWide, 64), 0x10u);
  device->Write(0, kSts, 64, 1);
  device->Advance(HpetNsFor(0xF0 + 0x20) - device->now_ns());
  EXPECT_EQ(device->Read(0, kCnt, 64), 0x1'0000'0010u);
  EXPECT_EQ(device->Read(0, kSts, 64) & 1, 1u);
  EXPECT_EQ(device->Read(0, kWide, 64), 0x30u);
}

}  // namespace
}  // namespace regemu::emulator
