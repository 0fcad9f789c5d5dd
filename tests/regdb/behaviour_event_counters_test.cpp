// The `event-counters` configuration check (yaml/README.md
// "event-counters"): slot templates expand with `{n}`, registers and
// FIELD / REGISTER.FIELD references resolve (with a close match), catalog
// selects resolve per slot into masks, offcore events take their select
// from the response entries, `same_as` makes roots, and every mistake is
// reported at its place.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/event_counters.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::CheckYaml;
using testing_support::ConfigAs;
using testing_support::ErrorAt;
using testing_support::Rendered;

// Ten lines of device; each test's behaviour starts on line 11.
constexpr const char* kDevice = R"(device: pmu
spaces:
  - {name: msr, kind: msr, size: 0x1000}
registers:
  - {name: "SEL{n}", space: msr, offset: 0x186, width: 64, array: {count: 2, stride: 1}, fields: [{name: EVENT, bits: "7:0"}, {name: UMASK, bits: "15:8"}, {name: USR, bits: 16}, {name: OS, bits: 17}, {name: INT, bits: 20}, {name: EN, bits: 22}, {name: CMASK, bits: "31:24"}]}
  - {name: "CTR{n}", space: msr, offset: 0xC1, width: 64, array: {count: 3, stride: 1}}
  - {name: GCTRL, space: msr, offset: 0x38F, width: 64, fields: [{name: EN0, bits: 0}, {name: EN1, bits: 1}, {name: ENF, bits: 32}]}
  - {name: GSTATUS, space: msr, offset: 0x38E, width: 64, fields: [{name: OVF0, bits: 0}, {name: OVF1, bits: 1}]}
  - {name: RSP, space: msr, offset: 0x1A6, width: 64}
behaviours:
)";

std::string Pmu(const std::string& behaviour) { return std::string(kDevice) + behaviour; }

constexpr const char* kGood = R"(  - name: pmu
    kind: event-counters
    cycles: CYCLES
    rates: {CYCLES: 1000}
    rules: [write-while-counting]
    responses: [{when: {UMASK: 0x01}, register: RSP}]
    slots:
      - {name: "GP{n}", count: 2, select: "SEL{n}", counter: "CTR{n}", width: 48, enable: EN, user: USR, kernel: OS, cmask: CMASK, interrupt: INT, global_enable: "GCTRL.EN{n}", status: "GSTATUS.OVF{n}"}
      - {name: FIX, event: CYCLES, counter: CTR2, global_enable: GCTRL.ENF}
    events:
      - {name: CYCLES, fixed: 0, unit: cycles}
      - {name: CYCLES_P, select: {EVENT: 0x3C}, same_as: CYCLES}
      - {name: LOADS.ALL, select: {EVENT: 0xD0, UMASK: 0x81}, unit: uops, doc: "Loads retired", ref: "test"}
      - {name: WIDE, select: {EVENT: 0x01, UMASK: 0x100}}
      - {name: OFFCORE.X, select: {EVENT: 0xB7, UMASK: 0x01}, response: 0x10001}
)";

TEST(EventCountersConfigTest, WellFormedConfigIsResolved) {
  LoadedDatabase loaded = CheckYaml(Pmu(kGood));
  ASSERT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const Database& db = loaded.database;
  const EventCountersConfig* config = ConfigAs<EventCountersConfig>(db.behaviours[0]);
  ASSERT_NE(config, nullptr);
  ASSERT_EQ(config->events.size(), 5u);
  EXPECT_TRUE(config->events[0].fixed);
  EXPECT_EQ(config->events[1].root, 0u);  // CYCLES_P counts CYCLES' occurrences
  EXPECT_EQ(config->events[2].root, 2u);
  EXPECT_EQ(config->events[2].doc, "Loads retired");
  ASSERT_EQ(config->slots.size(), 3u);
  const EventCountersConfig::Slot& gp1 = config->slots[1];
  EXPECT_EQ(gp1.name, "GP1");
  EXPECT_EQ(gp1.select, db.FindRegister("SEL1"));
  EXPECT_EQ(gp1.lo.reg, db.FindRegister("CTR1"));
  EXPECT_EQ(gp1.width, 48u);
  EXPECT_EQ(gp1.enable.reg, db.FindRegister("SEL1"));
  EXPECT_EQ(gp1.enable.bits.mask, uint64_t{1} << 22);
  EXPECT_EQ(gp1.global_enable.reg, db.FindRegister("GCTRL"));
  EXPECT_EQ(gp1.global_enable.bits.mask, 0x2u);
  EXPECT_EQ(gp1.status.bits.mask, 0x2u);
  EXPECT_FALSE(gp1.status_clear.present());
  // LOADS.ALL: EVENT 0xD0, UMASK 0x81 in SEL1's bits.
  ASSERT_EQ(gp1.matches[2].size(), 1u);
  EXPECT_EQ(gp1.matches[2][0].mask, 0xFFFFu);
  EXPECT_EQ(gp1.matches[2][0].value, 0x81D0u);
  // WIDE's UMASK does not fit the field: no slot can count it.
  EXPECT_THAT(gp1.matches[3], IsEmpty());
  // The offcore event: its UMASK comes from the response entry, which names RSP.
  ASSERT_EQ(gp1.matches[4].size(), 1u);
  EXPECT_EQ(gp1.matches[4][0].value, 0x01B7u);
  EXPECT_EQ(gp1.matches[4][0].response_register, db.FindRegister("RSP"));
  const EventCountersConfig::Slot& fix = config->slots[2];
  EXPECT_EQ(fix.select, EventCountersConfig::kNone);
  EXPECT_EQ(fix.fixed_event, 0u);
  EXPECT_EQ(fix.width, 64u);
  ASSERT_EQ(config->rates.size(), 1u);
  EXPECT_EQ(config->rates[0].second, 1'000'000u);  // milli-events per microsecond
  EXPECT_EQ(config->cycles_event, 0u);
  EXPECT_TRUE(config->rule_write_while_counting);
  EXPECT_FALSE(config->rule_enable_with_pending_overflow);
}

TEST(EventCountersConfigTest, UnknownNamesHaveCloseMatches) {
  std::string yaml = Pmu(R"(  - name: pmu
    kind: event-counters
    rates: {CYCLEZ: 1}
    slots:
      - {name: GP0, select: SEL0, counter: CTR0, enable: ENN, global_enable: GCTRL.EN9, status: GSTATU.OVF0}
      - {name: GP1, select: SEL1, counter: CTR9}
    events:
      - {name: CYCLES, fixed: 0}
)");
  LoadedDatabase loaded = CheckYaml(yaml);
  const auto& all = loaded.diagnostics.all();
  EXPECT_THAT(all, Contains(ErrorAt(13, 13, HasSubstr("unknown event 'CYCLEZ' (did you mean 'CYCLES'?)")))) << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(15, 58, HasSubstr("register 'SEL0' has no field 'ENN' (did you mean 'EN'?)"))))
      << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(15, 78, HasSubstr("register 'GCTRL' has no field 'EN9'")))) << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(15, 97, HasSubstr("unknown register 'GSTATU' (did you mean 'GSTATUS'?)"))))
      << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(16, 44, HasSubstr("unknown register 'CTR9'")))) << Rendered(loaded);
}

TEST(EventCountersConfigTest, SlotAndCatalogMistakes) {
  std::string yaml = Pmu(R"(  - name: pmu
    kind: event-counters
    slots:
      - {name: GP, count: 2, select: "SEL{n}", counter: "CTR{n}"}
      - {name: NOTHING, counter: CTR0}
      - {name: BOTH, select: SEL0, event: A, counter: CTR0}
      - {name: FIXSEL, event: B, counter: CTR1, enable: EN}
    events:
      - {name: A, fixed: 0}
      - {name: A, fixed: 1}
      - {name: B, select: {EVENT: 1}}
      - {name: C D, select: {EVENT: 2}}
      - {name: E, select: {EVENT: 3}, same_as: F}
      - {name: F, select: {EVENT: 4}, same_as: B}
)");
  LoadedDatabase loaded = CheckYaml(yaml);
  const auto& all = loaded.diagnostics.all();
  EXPECT_THAT(all, Contains(ErrorAt(14, 16, HasSubstr("a slot with `count` needs `{n}` in its name")))) << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(15, 9, HasSubstr("slot 'NOTHING' needs a `select` register or a fixed `event`"))))
      << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(16, 43, HasSubstr("slot 'BOTH' has both a `select` register and a fixed `event`"))))
      << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(17, 31, HasSubstr("event 'B' is not a fixed event")))) << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(17, 57, HasSubstr("names a field of the select register, and this slot has none"))))
      << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(20, 16, HasSubstr("event 'A' is listed twice")))) << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(22, 16, HasSubstr("event name 'C D' must be letters, digits")))) << Rendered(loaded);
  // E's target F is itself `same_as` B: one level only.
  EXPECT_THAT(all, Contains(ErrorAt(23, 48, HasSubstr("`same_as` must name another event that is not itself")))) << Rendered(loaded);
}

TEST(EventCountersConfigTest, CounterPairsAndRules) {
  std::string yaml = Pmu(R"(  - name: pmu
    kind: event-counters
    rules: [write-while-countin]
    slots:
      - {name: GP0, select: SEL0, counter: {lo: CTR0, hi: CTR1}, width: 72}
    events:
      - {name: A, select: {EVENT: 1}}
)");
  LoadedDatabase loaded = CheckYaml(yaml);
  const auto& all = loaded.diagnostics.all();
  EXPECT_THAT(all, Contains(ErrorAt(13, 13, HasSubstr("did you mean 'write-while-counting'")))) << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(15, 44, HasSubstr("a LO/HI counter pair is two 32-bit registers")))) << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(15, 73, HasSubstr("width 72 is out of range")))) << Rendered(loaded);
}

TEST(EventCountersConfigTest, InstancesSteeringAndControl) {
  std::string yaml = Pmu(R"(  - name: pmu
    kind: event-counters
    steering: {register: GCTRL, se: EN0, instance: EN1, se_broadcast: ENF, instance_broadcast: ENX}
    control: {register: GSTATUS, state: OVF0, sample: OVF1, start: 1}
    slots:
      - {name: A, block: TCC, instances: {instance: 16}, select: SEL0, counter: CTR0}
      - {name: B, block: TCC, instances: {instance: 8}, select: SEL1, counter: CTR1}
    events:
      - {name: HIT, block: TCC, select: {EVENT: 17}}
      - {name: MISS, block: TCQ, select: {EVENT: 19}}
)");
  LoadedDatabase loaded = CheckYaml(yaml);
  const auto& all = loaded.diagnostics.all();
  EXPECT_THAT(all, Contains(ErrorAt(13, 96, HasSubstr("register 'GCTRL' has no field 'ENX'")))) << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(11, 5, HasSubstr("slots 'A' and 'B' of block 'TCC' have different instances"))))
      << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(11, 5, HasSubstr("event 'MISS' is of block 'TCQ', which no slot has (did you mean 'TCC'?)"))))
      << Rendered(loaded);
}

TEST(EventCountersConfigTest, InstancesNeedSteering) {
  std::string yaml = Pmu(R"(  - name: pmu
    kind: event-counters
    slots:
      - {name: A, block: TCC, instances: {se: 2}, select: SEL0, counter: CTR0}
    events:
      - {name: HIT, block: TCC, select: {EVENT: 17}}
)");
  LoadedDatabase loaded = CheckYaml(yaml);
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(14, 42, HasSubstr("slot 'A' has instances but the behaviour has no `steering` register"))))
      << Rendered(loaded);
}

TEST(EventCountersConfigTest, ShippedAmdCatalogsHaveTheRocmCounters) {
  for (const char* chip : {"mi200", "mi300"}) {
    LoadedDatabase loaded = LoadAndCheck(std::string(REGEMU_SOURCE_DIR) + "/yaml/" + chip, LoadOptions{});
    ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
    const EventCountersConfig* config = ConfigAs<EventCountersConfig>(loaded.database.behaviours[0]);
    ASSERT_NE(config, nullptr);
    auto find = [&](const std::string& name) -> const EventCountersConfig::Event* {
      for (const auto& event : config->events) {
        if (event.name == name) return &event;
      }
      return nullptr;
    };
    for (const char* name : {"GRBM_COUNT", "GRBM_GUI_ACTIVE", "SQ_WAVES", "SQ_INSTS_VALU", "TA_TA_BUSY", "TCC_HIT",
                             "TCC_MISS", "TCA_BUSY"}) {
      const EventCountersConfig::Event* event = find(name);
      ASSERT_NE(event, nullptr) << chip << " " << name;
      EXPECT_THAT(event->ref, HasSubstr("ROCm counters")) << chip << " " << name;
      EXPECT_FALSE(event->doc.empty()) << chip << " " << name;
    }
    // Per-chip select values (rocprofiler gfx_metrics.xml): TA_TA_BUSY is 15 on gfx90a, 13 on gfx942.
    EXPECT_EQ(find("TA_TA_BUSY")->select[0].second, std::string(chip) == "mi200" ? 15u : 13u) << chip;
    EXPECT_EQ(find("TCC_HIT")->dims.instance, std::string(chip) == "mi200" ? 32u : 16u) << chip;
  }
}

TEST(EventCountersConfigTest, MetricMistakes) {
  std::string yaml = Pmu(R"yaml(  - name: pmu
    kind: event-counters
    slots:
      - {name: GP0, select: SEL0, counter: CTR0}
    events:
      - {name: HITS, select: {EVENT: 1}}
    constants: {CU_NUM: 4, HITS: 2}
    metrics:
      - {name: Rate, expr: "100*HITS/CU_NUM"}
      - {name: Bad, expr: "100*HITS/"}
      - {name: Unknown, expr: "MISSES+1"}
      - {name: Reduced, expr: "sum(HITZ,4)"}
      - {name: TooMany, expr: "sum(HITS,4)"}
      - {name: Rate, expr: "1"}
      - {name: Twice, expr: "2*Rate"}
      - {name: Typo, expr: "HITZ*sqrt(CU_NUM)"}
      - {name: Late, expr: "sum(HITS,1) + *2"}
)yaml");
  LoadedDatabase loaded = CheckYaml(yaml);
  const auto& all = loaded.diagnostics.all();
  EXPECT_THAT(all, Contains(ErrorAt(17, 28, HasSubstr("constant 'HITS' has an event's name")))) << Rendered(loaded);
  // At the column in the expression as written, sum(X,N) included.
  EXPECT_THAT(all, Contains(ErrorAt(20, 37, HasSubstr("metric 'Bad': Unexpected end of expression")))) << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(21, 32, HasSubstr("metric 'Unknown': unknown name 'MISSES'")))) << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(26, 29, HasSubstr("metric 'Typo': unknown name 'HITZ' (did you mean 'HITS'?)"))))
      << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(27, 43, HasSubstr("metric 'Late': Unexpected operator \"*\"")))) << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(22, 31, HasSubstr("reduces unknown event 'HITZ' (did you mean 'HITS'?)")))) << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(23, 31, HasSubstr("reduces HITS over 4 instances; its block has 1")))) << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(24, 16, HasSubstr("metric 'Rate' has the name of an event, a constant or an earlier metric"))))
      << Rendered(loaded);
  const EventCountersConfig* config = ConfigAs<EventCountersConfig>(loaded.database.behaviours[0]);
  EXPECT_EQ(config, nullptr);  // a section with mistakes keeps no config
}

// A metric is parsed on its first evaluation and not again; a copy (a
// device snapshot's) parses its own.
TEST(ParsedMetricTest, EvaluatesWithItsSlotsAndCopies) {
  ParsedMetric metric("100*HITS/CU_NUM", {"HITS", "CU_NUM"});
  std::string error;
  EXPECT_EQ(metric.Evaluate({50, 4}, error), 1250.0) << error;
  EXPECT_EQ(metric.Evaluate({8, 2}, error), 400.0) << error;
  ParsedMetric copy = metric;
  EXPECT_EQ(copy.Evaluate({1, 1}, error), 100.0) << error;
  EXPECT_EQ(metric.Evaluate({3, 1}, error), 300.0) << error;
  ParsedMetric broken("HITS/", {"HITS"});
  EXPECT_EQ(broken.Evaluate({1}, error), std::nullopt);
  EXPECT_THAT(error, HasSubstr("Unexpected end of expression"));
}

// A position in the rewritten text maps back to the expression as written.
TEST(ParsedMetricTest, RewrittenPositionsMapBackToTheUsersColumns) {
  RewrittenExpression rewritten = RewriteAggregates("sum(HITS,16) + max(HITS,2)*x");
  EXPECT_EQ(rewritten.text, "_sum_HITS_16 + _max_HITS_2*x");
  EXPECT_EQ(rewritten.OriginalPosition(0), 0u);    // inside the first reduction: its start
  EXPECT_EQ(rewritten.OriginalPosition(5), 0u);
  EXPECT_EQ(rewritten.OriginalPosition(13), 13u);  // '+': after a replacement of equal length
  EXPECT_EQ(rewritten.OriginalPosition(15), 15u);  // the second reduction's start
  EXPECT_EQ(rewritten.OriginalPosition(26), 26u);  // '*'
  EXPECT_EQ(rewritten.OriginalPosition(27), 27u);  // x
  RewrittenExpression shorter = RewriteAggregates("avr(TCC_HIT, 16)/2");
  EXPECT_EQ(shorter.text, "_avr_TCC_HIT_16/2");
  EXPECT_EQ(shorter.OriginalPosition(15), 16u);  // '/'
}

TEST(Pm4ConfigTest, MistakesAreReportedAtTheirKeys) {
  std::string yaml = Pmu(R"(  - name: cp
    kind: pm4
    registers: msrr
    xcc: 9
    sample: GCTRL.ENN
)");
  LoadedDatabase loaded = CheckYaml(yaml);
  const auto& all = loaded.diagnostics.all();
  EXPECT_THAT(all, Contains(ErrorAt(13, 16, HasSubstr("names unknown space 'msrr' (did you mean 'msr'?)")))) << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(14, 10, HasSubstr("xcc")))) << Rendered(loaded);
  EXPECT_THAT(all, Contains(ErrorAt(15, 13, HasSubstr("register 'GCTRL' has no field 'ENN'")))) << Rendered(loaded);
}

TEST(EventCountersConfigTest, AHugeReductionCountIsAnErrorNotACrash) {
  std::string yaml = Pmu(R"yaml(  - name: pmu
    kind: event-counters
    slots:
      - {name: GP0, select: SEL0, counter: CTR0}
    events:
      - {name: HITS, select: {EVENT: 1}}
    metrics:
      - {name: Huge, expr: "sum(HITS,99999999999999999999999)"}
)yaml");
  LoadedDatabase loaded = CheckYaml(yaml);
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(18, 28, HasSubstr("metric 'Huge' reduces HITS over"))))
      << Rendered(loaded);
}

TEST(EventCountersConfigTest, ShippedGoldmontCatalogIsLinuxs) {
  LoadOptions options;
  LoadedDatabase loaded = LoadAndCheck(std::string(REGEMU_SOURCE_DIR) + "/yaml/goldmont", options);
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const EventCountersConfig* config = ConfigAs<EventCountersConfig>(loaded.database.behaviours[0]);
  ASSERT_NE(config, nullptr);
  // Linux tools/perf/pmu-events/arch/x86/goldmont: 169 events (intel/perfmon GLM V13).
  EXPECT_EQ(config->events.size(), 169u);
  EXPECT_EQ(config->slots.size(), 7u);
  auto find = [&](const std::string& name) -> const EventCountersConfig::Event* {
    for (const auto& event : config->events) {
      if (event.name == name) return &event;
    }
    return nullptr;
  };
  // SDM Vol. 3B's four events, with the SDM's descriptions.
  for (const char* name : {"FETCH_STALL.ICACHE_FILL_PENDING_CYCLES", "UOPS_NOT_DELIVERED.ANY", "OFFCORE_RESPONSE",
                           "INST_RETIRED.ANY_P"}) {
    const EventCountersConfig::Event* event = find(name);
    ASSERT_NE(event, nullptr) << name;
    EXPECT_THAT(event->ref, HasSubstr("SDM Vol. 3B")) << name;
    EXPECT_FALSE(event->doc.empty()) << name;
  }
  EXPECT_THAT(find("UOPS_NOT_DELIVERED.ANY")->doc, HasSubstr("front-end inefficiencies"));
}

}  // namespace
}  // namespace regemu::regdb
