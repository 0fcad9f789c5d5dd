#pragma once
// `kind: event-counters`: a block of event-counter slots (a CPU PMU, a GPU
// block's perf counters) with an event catalog; yaml/README.md
// "event-counters" has the schema and what is and is not modelled.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/database.hpp"
#include "regemu/regdb/metric_expression.hpp"

namespace regemu::regdb {

struct EventCountersConfig : BehaviourConfig {
  static constexpr RegisterIndex kNone = ~RegisterIndex{0};

  // A field of some register (`FIELD` of the slot's select register, or
  // `REGISTER.FIELD`); absent when reg is kNone.
  struct FieldOf {
    RegisterIndex reg = kNone;
    FieldBits bits;
    bool present() const { return reg != kNone; }
  };

  // How many copies of a block's counters there are, one per shader engine
  // and instance (AMD GPU blocks: TCC has 16 instances, TA 16 per SE);
  // steering (GRBM_GFX_INDEX) picks the ones an access reaches.
  struct Dims {
    uint32_t se = 1;
    uint32_t instance = 1;
    uint32_t count() const { return se * instance; }
    bool operator==(const Dims&) const = default;
  };

  struct Event {
    std::string name;
    std::string block;  // the block whose slots count it (empty: any slot without a block)
    Dims dims;          // its block's instances (occurrences are per instance)
    std::string unit;
    std::string doc;
    std::string ref;
    // Select-register field values by field name, as the catalog gives them;
    // each slot resolves them against its own select register.
    std::vector<std::pair<std::string, uint64_t>> select;
    std::optional<uint64_t> response;  // an offcore-response event: the response register's value
    bool fixed = false;                // counted only by a fixed slot naming it
    uint32_t fixed_counter = 0;        // `fixed: N`: the fixed counter it is wired to
    // `same_as`: the event whose occurrences this one counts (itself when
    // none), e.g. CPU_CLK_UNHALTED.CORE_P on a GP counter and .CORE on the
    // fixed one: one injection reaches both.
    uint32_t root = 0;
  };

  // One way a slot's select picks an event: (select & mask) == value and,
  // for an offcore event, the response register the select picks holds the
  // event's response value.
  struct Match {
    uint64_t mask = 0;
    uint64_t value = 0;
    RegisterIndex response_register = kNone;
  };

  struct View {
    RegisterIndex reg = kNone;
    bool sign_extend_32 = false;  // a write's low 32 bits, sign-extended (IA32_PMCx legacy writes)
  };

  struct Slot {
    std::string name;
    std::string block;
    Dims dims;
    RegisterIndex select = kNone;  // none: a fixed slot
    uint32_t fixed_event = 0;      // a fixed slot's event (index into events)
    // The count: one register, or a LO/HI pair (hi != kNone). Writes to
    // any view set the count; every view shows it.
    View lo;
    RegisterIndex hi = kNone;
    std::vector<View> views;  // more registers showing the same count (IA32_A_PMCx)
    unsigned width = 64;
    FieldOf enable, user, kernel, edge, invert, cmask, interrupt, global_enable, status, status_clear;
    std::vector<std::vector<Match>> matches;  // per event; empty: this slot cannot count it
  };

  // `responses`: the register an offcore event's response value is read
  // from, picked by the slot's select (e.g. UMASK 1 -> MSR_OFFCORE_RSP_0).
  struct Response {
    std::vector<std::pair<std::string, uint64_t>> when;
    RegisterIndex reg = kNone;
  };

  // `steering`: the register whose fields pick the SE and instance a write
  // of a banked register (selects, counters) reaches and a read shows, with
  // broadcast bits (AMD GRBM_GFX_INDEX).
  struct Steering {
    RegisterIndex reg = kNone;
    FieldBits se, instance, se_broadcast, instance_broadcast;
    bool present() const { return reg != kNone; }
  };
  // `control`: a global perfmon state register (AMD CP_PERFMON_CNTL): its
  // state field starts, stops or resets every slot; writing its sample bit
  // latches the counts the counter registers then show.
  struct Control {
    RegisterIndex reg = kNone;
    FieldBits state, sample;
    uint64_t reset_value = 0;  // DISABLE_AND_RESET
    uint64_t start_value = 1;  // START_COUNTING
    uint64_t stop_value = 2;   // STOP_COUNTING
    bool present() const { return reg != kNone; }
  };

  // A derived metric (`metrics:`): an expression over the events' counts
  // in the counting window, earlier metrics and the constants.
  struct Metric {
    std::string name;
    std::string expression;  // as written
    std::string text;        // the reductions rewritten into variables (metric_expression.hpp)
    std::vector<MetricAggregate> aggregates;
    std::vector<uint32_t> aggregate_events;  // per aggregate: its event
    std::vector<uint32_t> events;            // events named plainly (their sum over instances)
    std::vector<uint32_t> metrics;           // earlier metrics named
    std::vector<uint32_t> constants;         // constants named
    std::string unit;
    std::string doc;
    std::string ref;
  };

  std::vector<Event> events;
  std::vector<Metric> metrics;
  std::vector<std::pair<std::string, uint64_t>> constants;  // CU_NUM, SE_NUM, ... (device values)
  Steering steering;
  Control control;
  std::vector<Slot> slots;
  std::vector<Response> responses;
  // Events that occur at a rate from reset (clocks), in milli-events per µs.
  std::vector<std::pair<uint32_t, uint64_t>> rates;
  std::optional<uint32_t> cycles_event;  // the event whose rate is the core clock (cmask, edge)
  bool starts_in_user_mode = false;      // `cpu_mode` at reset
  // Protocol rules (yaml/README.md): a counter written while it counts; a
  // counter starting to count while its overflow is unacknowledged.
  bool rule_write_while_counting = false;
  bool rule_enable_with_pending_overflow = false;
  // A latched counter read before any sample since counting started.
  bool rule_read_without_sample = false;
};

}  // namespace regemu::regdb
