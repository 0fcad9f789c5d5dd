// The `event-counters` behaviour (yaml/README.md "event-counters"): events
// injected now and at rates on the virtual clock, the enables and
// privilege filters, CMASK/INV/EDGE per cycle, LO/HI pairs and sign-
// extending views, overflow -> status -> interrupt -> clear, offcore
// response matching, `same_as`, the two protocol rules, inject errors,
// reset and snapshots; and the per-cycle filter arithmetic alone.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/behaviours/event_counting.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;
using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;

constexpr const char* kDatabase = R"(device: pmu
spaces:
  - {name: msr, kind: msr, size: 0x1000}
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: "SEL{n}", space: msr, offset: 0x186, width: 64, array: {count: 2, stride: 1}, fields: [{name: EVENT, bits: "7:0"}, {name: UMASK, bits: "15:8"}, {name: USR, bits: 16}, {name: OS, bits: 17}, {name: E, bits: 18}, {name: INT, bits: 20}, {name: EN, bits: 22}, {name: INV, bits: 23}, {name: CMASK, bits: "31:24"}]}
  - {name: "CTR{n}", space: msr, offset: 0xC1, width: 64, array: {count: 2, stride: 1}, volatile: true}
  - {name: "FULL{n}", space: msr, offset: 0x4C1, width: 64, array: {count: 2, stride: 1}, volatile: true}
  - {name: GCTRL, space: msr, offset: 0x38F, width: 64, fields: [{name: EN0, bits: 0}, {name: EN1, bits: 1}]}
  - {name: GSTATUS, space: msr, offset: 0x38E, width: 64, volatile: true, fields: [{name: OVF0, bits: 0, access: hw}, {name: OVF1, bits: 1, access: hw}, {name: OVF2, bits: 2, access: hw}]}
  - {name: GCLEAR, space: msr, offset: 0x390, width: 64, fields: [{name: CLR0, bits: 0}, {name: CLR1, bits: 1}, {name: CLR2, bits: 2}]}
  - {name: RSP, space: msr, offset: 0x1A6, width: 64}
  - {name: PAIR_SEL, space: mmio, offset: 0x0, fields: [{name: PERF_SEL, bits: "9:0"}]}
  - {name: PAIR_LO, space: mmio, offset: 0x10, volatile: true}
  - {name: PAIR_HI, space: mmio, offset: 0x14, volatile: true}
behaviours:
  - name: pmu
    kind: event-counters
    cycles: CYCLES
    rates: {CYCLES: 1000}
    rules: [write-while-counting, enable-with-pending-overflow]
    responses: [{when: {UMASK: 0x01}, register: RSP}]
    slots:
      - {name: "GP{n}", count: 2, select: "SEL{n}", counter: "CTR{n}", counter_write: sign-extend-32, views: ["FULL{n}"], width: 48, enable: EN, user: USR, kernel: OS, edge: E, invert: INV, cmask: CMASK, interrupt: INT, global_enable: "GCTRL.EN{n}", status: "GSTATUS.OVF{n}", status_clear: "GCLEAR.CLR{n}"}
      - {name: PAIR, select: PAIR_SEL, counter: {lo: PAIR_LO, hi: PAIR_HI}, status: GSTATUS.OVF2, status_clear: GCLEAR.CLR2}
    events:
      - {name: CYCLES, fixed: 0}
      - {name: CYCLES_P, select: {EVENT: 0x3C}, same_as: CYCLES}
      - {name: INSTS, select: {EVENT: 0xC0}}
      - {name: UOPS, select: {EVENT: 0x0E}}
      - {name: OFFCORE.X, select: {EVENT: 0xB7, UMASK: 0x01}, response: 0x10001}
      - {name: WAVES, select: {PERF_SEL: 4}}
)";

constexpr uint64_t kEn = uint64_t{1} << 22;
constexpr uint64_t kUsrOs = uint64_t{3} << 16;
constexpr uint64_t kInt = uint64_t{1} << 20;

struct Pmu {
  explicit Pmu(bool lenient = true) {
    DeviceOptions options;
    if (lenient) options.policy = ViolationPolicy::Lenient();
    options.coverage = true;
    device = MakeDevice(kDatabase, std::move(options));
  }
  RegisterId Reg(const char* name) const { return RegisterNamed(device->model(), name); }
  uint64_t Read(const char* name) { return device->ReadRegister(Reg(name)); }
  void Write(const char* name, uint64_t value) { device->WriteRegister(Reg(name), value); }
  std::string Inject(const std::string& verb, std::vector<std::string> args) { return device->Inject(verb, args); }
  // Select `event` on GP `n` (USR|OS|EN plus `extra`) and enable it globally.
  void Count(int n, uint64_t event, uint64_t extra = 0) {
    Write(n == 0 ? "SEL0" : "SEL1", event | kUsrOs | kEn | extra);
    Write("GCTRL", Read("GCTRL") | (uint64_t{1} << n));
  }

  std::unique_ptr<Device> device;
};

TEST(EventCountersTest, InjectedEventsCountOnTheSlotsSelectingThem) {
  Pmu pmu;
  pmu.Count(0, 0xC0);
  pmu.Count(1, 0x0E);
  EXPECT_EQ(pmu.Inject("event", {"INSTS", "250"}), "");
  EXPECT_EQ(pmu.Inject("event", {"UOPS", "7"}), "");
  EXPECT_EQ(pmu.Read("CTR0"), 250u);
  EXPECT_EQ(pmu.Read("FULL0"), 250u);
  EXPECT_EQ(pmu.Read("CTR1"), 7u);
  EXPECT_THAT(pmu.device->violations(), IsEmpty());
}

TEST(EventCountersTest, NothingCountsWithoutTheLocalOrTheGlobalEnable) {
  Pmu pmu;
  pmu.Write("SEL0", 0xC0 | kUsrOs | kEn);  // GCTRL.EN0 still 0
  pmu.Inject("event", {"INSTS", "5"});
  EXPECT_EQ(pmu.Read("CTR0"), 0u);
  pmu.Write("SEL0", 0xC0 | kUsrOs);  // EN 0
  pmu.Write("GCTRL", 1);
  pmu.Inject("event", {"INSTS", "5"});
  EXPECT_EQ(pmu.Read("CTR0"), 0u);
  pmu.Write("GCTRL", 0);
  pmu.Write("SEL0", 0xC0 | kUsrOs | kEn);
  pmu.Write("GCTRL", 1);
  pmu.Inject("event", {"INSTS", "5"});
  EXPECT_EQ(pmu.Read("CTR0"), 5u);
}

TEST(EventCountersTest, PrivilegeFiltersFollowTheCpuMode) {
  Pmu pmu;
  pmu.Write("SEL0", 0xC0 | (uint64_t{1} << 16) | kEn);  // USR only
  pmu.Write("SEL1", 0xC0 | (uint64_t{1} << 17) | kEn);  // OS only
  pmu.Write("GCTRL", 3);
  pmu.Inject("event", {"INSTS", "3"});  // kernel mode at reset
  EXPECT_EQ(pmu.Inject("cpu-mode", {"user"}), "");
  pmu.Inject("event", {"INSTS", "4"});
  EXPECT_EQ(pmu.Read("CTR0"), 4u);
  EXPECT_EQ(pmu.Read("CTR1"), 3u);
}

TEST(EventCountersTest, RatesCountOnTheClockWithExactCarries) {
  Pmu pmu;
  pmu.Count(0, 0xC0);
  EXPECT_EQ(pmu.Inject("event-rate", {"INSTS", "0.3"}), "");
  for (int i = 0; i < 10; ++i) pmu.device->Advance(1000);
  EXPECT_EQ(pmu.Read("CTR0"), 3u);  // 0.3 per microsecond for 10 microseconds
  pmu.device->Advance(333);  // 0.0999: not yet a whole one
  EXPECT_EQ(pmu.Read("CTR0"), 3u);
  EXPECT_EQ(pmu.Inject("event-rate", {"INSTS", "0"}), "");
  pmu.device->Advance(1'000'000);
  EXPECT_EQ(pmu.Read("CTR0"), 3u);
}

TEST(EventCountersTest, SameAsEventsShareOccurrences) {
  Pmu pmu;
  pmu.Count(0, 0x3C);  // CYCLES_P: the 1000 MHz clock
  pmu.device->Advance(2000);
  EXPECT_EQ(pmu.Read("CTR0"), 2000u);
  pmu.Inject("event", {"CYCLES_P", "5"});  // reaches the root, CYCLES
  EXPECT_EQ(pmu.Read("CTR0"), 2005u);
}

TEST(EventCountersTest, CmaskInvAndEdgeCountCycles) {
  Pmu pmu;
  // UOPS at 2.5 per cycle (2500/us at 1000 MHz): half the cycles have 3.
  pmu.Inject("event-rate", {"UOPS", "2500"});
  pmu.Count(0, 0x0E, uint64_t{3} << 24);                       // CMASK 3
  pmu.Count(1, 0x0E, (uint64_t{3} << 24) | (uint64_t{1} << 23));  // CMASK 3, INV
  pmu.device->Advance(1000);  // 1000 cycles
  EXPECT_EQ(pmu.Read("CTR0"), 500u);
  EXPECT_EQ(pmu.Read("CTR1"), 500u);
  // EDGE with CMASK 2: true in every cycle, so one edge, then none.
  pmu.Write("GCTRL", 0);
  pmu.Write("CTR0", 0);
  pmu.Write("SEL0", 0x0E | kUsrOs | kEn | (uint64_t{2} << 24) | (uint64_t{1} << 18));
  pmu.Write("GCTRL", 1);
  pmu.device->Advance(1000);
  pmu.device->Advance(1000);
  EXPECT_EQ(pmu.Read("CTR0"), 1u);
}

TEST(EventCountersTest, LegacyWritesSignExtendAndEveryViewShowsTheCount) {
  Pmu pmu;
  pmu.Write("CTR0", 0x80000000);
  EXPECT_EQ(pmu.Read("CTR0"), 0xFFFF80000000u);
  EXPECT_EQ(pmu.Read("FULL0"), 0xFFFF80000000u);
  pmu.Write("CTR0", 0x12345678);
  EXPECT_EQ(pmu.Read("FULL0"), 0x12345678u);
  pmu.Write("FULL0", 0xFFFFFFFE7960);  // full width: no extension
  EXPECT_EQ(pmu.Read("CTR0"), 0xFFFFFFFE7960u);
}

TEST(EventCountersTest, OverflowSetsStatusRaisesTheInterruptAndTheClearDropsIt) {
  Pmu pmu;
  pmu.Write("FULL0", 0xFFFFFFFFFFF0);
  pmu.Count(0, 0xC0, kInt);
  pmu.Inject("event", {"INSTS", "15"});
  EXPECT_EQ(pmu.Read("GSTATUS"), 0u);
  EXPECT_FALSE(pmu.device->interrupt_requested());
  pmu.Inject("event", {"INSTS", "3"});
  EXPECT_EQ(pmu.Read("CTR0"), 2u);  // wrapped at 48 bits
  EXPECT_EQ(pmu.Read("GSTATUS"), 1u);
  EXPECT_TRUE(pmu.device->interrupt_requested());
  pmu.Write("GCTRL", 0);
  pmu.Write("GCLEAR", 1);
  EXPECT_EQ(pmu.Read("GSTATUS"), 0u);
  EXPECT_EQ(pmu.Read("GCLEAR"), 0u);  // a command: reads 0 again
  EXPECT_FALSE(pmu.device->interrupt_requested());
  EXPECT_THAT(pmu.device->violations(), IsEmpty());
}

// Coverage: the slot that wrapped, the interrupt's rising edge and the
// acknowledgement that cleared a set status (not the one that found none).
TEST(EventCountersTest, CoversOverflowsTheInterruptAndTheAcknowledgement) {
  Pmu pmu;
  pmu.Write("FULL0", 0xFFFFFFFFFFF0);
  pmu.Count(0, 0xC0, kInt);
  pmu.Inject("event", {"INSTS", "18"});
  pmu.Write("GCTRL", 0);
  pmu.Write("GCLEAR", 1);
  pmu.Write("GCLEAR", 1);
  EXPECT_THAT(testing_support::PointHits(*pmu.device, "pmu"),
              UnorderedElementsAre(Pair("slots overflowed/GP0", 1), Pair("slots overflowed/GP1", 0),
                                   Pair("slots overflowed/PAIR", 0), Pair("overflow/interrupt asserted", 1),
                                   Pair("overflow/acknowledged", 1)));
}

TEST(EventCountersTest, OverflowWithoutTheInterruptBitOnlySetsStatus) {
  Pmu pmu;
  pmu.Write("FULL1", 0xFFFFFFFFFFFF);
  pmu.Count(1, 0xC0);
  pmu.Inject("event", {"INSTS", "1"});
  EXPECT_EQ(pmu.Read("GSTATUS"), 2u);
  EXPECT_FALSE(pmu.device->interrupt_requested());
}

TEST(EventCountersTest, LoHiPairsCountAcross32BitsAndTakeHalfWrites) {
  Pmu pmu;
  pmu.Write("PAIR_SEL", 4);
  pmu.Write("PAIR_HI", 0);
  pmu.Write("PAIR_LO", 0xFFFFFFFE);
  pmu.Inject("event", {"WAVES", "5"});
  EXPECT_EQ(pmu.Read("PAIR_LO"), 3u);
  EXPECT_EQ(pmu.Read("PAIR_HI"), 1u);
  EXPECT_EQ(pmu.Read("GSTATUS"), 0u);
  pmu.Write("PAIR_HI", 0xFFFFFFFF);
  pmu.Write("PAIR_LO", 0xFFFFFFFF);
  pmu.Inject("event", {"WAVES", "1"});
  EXPECT_EQ(pmu.Read("PAIR_LO"), 0u);
  EXPECT_EQ(pmu.Read("PAIR_HI"), 0u);
  EXPECT_EQ(pmu.Read("GSTATUS"), 4u);  // 64-bit wrap
}

TEST(EventCountersTest, OffcoreEventsCountOnlyWithTheirResponseValue) {
  Pmu pmu;
  pmu.Count(0, 0x01B7);
  pmu.Inject("event", {"OFFCORE.X", "2"});
  EXPECT_EQ(pmu.Read("CTR0"), 0u);  // RSP does not hold 0x10001
  pmu.Write("GCTRL", 0);
  pmu.Write("RSP", 0x10001);
  pmu.Write("GCTRL", 1);
  pmu.Inject("event", {"OFFCORE.X", "2"});
  EXPECT_EQ(pmu.Read("CTR0"), 2u);
}

TEST(EventCountersTest, WritingACountingCounterIsAProtocolViolation) {
  Pmu pmu;
  pmu.Count(0, 0xC0);
  pmu.Write("FULL0", 5);
  ASSERT_THAT(Kinds(*pmu.device), ElementsAre(ViolationKind::kProtocol));
  EXPECT_THAT(pmu.device->violations()[0].rule, HasSubstr("written while it counts"));
  // Globally disabled (Linux's set_period in the PMI): fine.
  pmu.device->ClearViolations();
  pmu.Write("GCTRL", 0);
  pmu.Write("FULL0", 6);
  EXPECT_THAT(pmu.device->violations(), IsEmpty());
}

TEST(EventCountersTest, ReenablingWithAnUnackedOverflowIsAProtocolViolation) {
  Pmu pmu;
  pmu.Write("FULL0", 0xFFFFFFFFFFFF);
  pmu.Count(0, 0xC0, kInt);
  pmu.Inject("event", {"INSTS", "1"});
  pmu.Write("GCTRL", 0);
  pmu.Write("GCTRL", 1);  // never acked
  ASSERT_THAT(Kinds(*pmu.device), ElementsAre(ViolationKind::kProtocol));
  EXPECT_THAT(pmu.device->violations()[0].rule, HasSubstr("overflow unacknowledged"));
  EXPECT_THAT(pmu.device->violations()[0].rule, HasSubstr("GCLEAR"));
}

TEST(EventCountersTest, BadInjectsAreExplained) {
  Pmu pmu;
  EXPECT_THAT(pmu.Inject("event", {"INSTZ", "1"}), HasSubstr("no event 'INSTZ' in the catalog (did you mean 'INSTS'?)"));
  EXPECT_THAT(pmu.Inject("event", {"INSTS"}), HasSubstr("usage: inject event NAME COUNT"));
  EXPECT_THAT(pmu.Inject("event", {"INSTS", "many"}), HasSubstr("bad count 'many'"));
  EXPECT_THAT(pmu.Inject("event-rate", {"INSTS", "1.2345"}), HasSubstr("bad rate '1.2345'"));
  EXPECT_THAT(pmu.Inject("event-rate", {"INSTS", "-1"}), HasSubstr("bad rate"));
  EXPECT_THAT(pmu.Inject("cpu-mode", {"ring3"}), HasSubstr("usage: inject cpu-mode user|kernel"));
}

TEST(EventCountersTest, ResetAndSnapshotsRestoreRatesAndMode) {
  Pmu pmu;
  pmu.Count(0, 0xC0);
  DeviceSnapshot before = pmu.device->Snapshot();
  pmu.Inject("event-rate", {"INSTS", "2"});
  pmu.Inject("cpu-mode", {"user"});
  pmu.device->Restore(before);
  pmu.device->Advance(1000);
  EXPECT_EQ(pmu.Read("CTR0"), 0u);  // the rate was not in the snapshot
  pmu.Inject("event-rate", {"INSTS", "2"});
  pmu.device->Reset();
  pmu.Count(0, 0xC0);
  pmu.device->Advance(1000);
  EXPECT_EQ(pmu.Read("CTR0"), 0u);  // reset stops injected rates
  pmu.Count(1, 0x3C);
  pmu.device->Advance(1000);
  EXPECT_EQ(pmu.Read("CTR1"), 1000u);  // ... and restarts the configured clock
}

// ------------------------------------------------ the filter arithmetic

TEST(CycleFilterTest, WithoutAThresholdEveryOccurrenceCounts) {
  CycleFilterState state;
  EXPECT_EQ(FilteredCount({0, false, false}, 12345, 1000, state), 12345u);
  EXPECT_EQ(FilteredCount({0, true, false}, 12345, 1000, state), 12345u);  // INV needs CMASK
  EXPECT_EQ(FilteredBurst({0, false, false}, 7, state), 7u);
}

TEST(CycleFilterTest, ThresholdsCountTheCyclesAtOrAboveIt) {
  CycleFilterState state;
  // 2.25 per cycle over 1000 cycles: 250 cycles of 3, 750 of 2.
  EXPECT_EQ(FilteredCount({2, false, false}, 2250, 1000, state), 1000u);
  EXPECT_EQ(FilteredCount({3, false, false}, 2250, 1000, state), 250u);
  EXPECT_EQ(FilteredCount({4, false, false}, 2250, 1000, state), 0u);
  EXPECT_EQ(FilteredCount({3, true, false}, 2250, 1000, state), 750u);
  EXPECT_EQ(FilteredBurst({3, false, false}, 3, state), 1u);
  EXPECT_EQ(FilteredBurst({3, false, false}, 2, state), 0u);
  EXPECT_EQ(FilteredBurst({3, true, false}, 2, state), 1u);
}

TEST(CycleFilterTest, EdgesCountRisingTransitions) {
  CycleFilterState state;
  CycleFilter edge{0, false, true};  // at least one occurrence
  EXPECT_EQ(FilteredCount(edge, 5000, 1000, state), 1u);  // true throughout: one rise
  EXPECT_EQ(FilteredCount(edge, 5000, 1000, state), 0u);  // still true
  EXPECT_EQ(FilteredCount(edge, 0, 1000, state), 0u);     // falls
  EXPECT_EQ(FilteredCount(edge, 100, 1000, state), 100u);  // 100 isolated cycles
  EXPECT_EQ(FilteredCount(edge, 900, 1000, state), 100u);  // 100 gaps between runs
  EXPECT_EQ(FilteredBurst(edge, 1, state), 0u);             // mostly true before: no rise
  EXPECT_EQ(FilteredCount(edge, 0, 1000, state), 0u);
  EXPECT_EQ(FilteredBurst(edge, 1, state), 1u);
  EXPECT_EQ(FilteredBurst(edge, 1, state), 0u);
}

}  // namespace
}  // namespace regemu::emulator
