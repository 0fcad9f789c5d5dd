#pragma once
// Periodic OA reports made up from a workload, laid out as i915-perf-reader
// decodes them (IGT 1.27 i915_perf_reader.c; the kernel's
// I915_OA_FORMAT_A32u40_A4u32_B8_C8 and A45_B8_C8), for
// tests of the recording writer that do not need the oa-unit runtime.
//
// Counters advance by whole events per period: GPU clocks floor(F·P/T),
// busy floor(busy·clocks), EU active floor(active·N·clocks), where P is the
// period in timestamp ticks, T the timestamp clock and N the EU count.

#include <array>
#include <cstdint>
#include <vector>

#include "regemu/emulator/unit_record.hpp"
#include "regemu/regdb/behaviour_configs/oa_unit.hpp"
#include "regemu/regdb/oa_timestamp.hpp"

namespace regemu::testing {

// What the GPU did during one report period.
struct OaLoad {
  uint64_t gpu_mhz = 1000;
  double busy = 0.75;       // share of clocks the GPU was busy
  double eu_active = 0.5;   // share of EU-clocks active
  double eu_stall = 0.25;
};

// The deltas a report pair carries, as the reader will compute them.
struct OaDeltas {
  uint64_t ticks = 0;
  uint64_t clocks = 0;
  uint64_t busy = 0;
  uint64_t eu_active = 0;
  uint64_t eu_stall = 0;
};

// An ICL oa-unit as yaml/icl describes it: 12 MHz, 1x8x8, 0x8a52.
inline regdb::OaUnitConfig IclOaUnit() {
  regdb::OaUnitConfig unit;
  unit.generation = regdb::OaGeneration::kGen9;
  unit.timestamp_hz = 12'000'000;
  unit.slices = 1;
  unit.subslices_per_slice = 8;
  unit.eus_per_subslice = 8;
  unit.pci_device_id = 0x8a52;
  unit.report_write_ns = 100;
  unit.a_width = 40;
  unit.formats = {{"A12", 0, 64, {}}, {"A12_B8_C8", 2, 128, {}}, {"A32u40_A4u32_B8_C8", 5, 256, {}},
                  {"C4_B8", 7, 64, {}}};
  return unit;
}

// An HSW GT2 oa-unit as yaml/hsw describes it: 12.5 MHz, 1x2x10, 0x0416.
inline regdb::OaUnitConfig HswOaUnit() {
  regdb::OaUnitConfig unit;
  unit.generation = regdb::OaGeneration::kHaswell;
  unit.timestamp_hz = 12'500'000;
  unit.slices = 1;
  unit.subslices_per_slice = 2;
  unit.eus_per_subslice = 10;
  unit.pci_device_id = 0x0416;
  unit.report_write_ns = 100;
  unit.a_width = 32;
  unit.formats = {{"A13", 0, 64, {}}, {"A29", 1, 128, {}}, {"A13_B8_C8", 2, 128, {}},
                  {"A45_B8_C8", 5, 256, {}}, {"B4_C8", 6, 64, {}}};
  return unit;
}

class SyntheticOaStream {
 public:
  // Reports every 2^(exponent+1) ticks, the first one period after `start_ticks`;
  // counters start at `counter_base` (near 2^32 to make them carry).
  SyntheticOaStream(const regdb::OaUnitConfig& unit, unsigned exponent, uint64_t start_ticks = 0,
                    uint64_t counter_base = 0)
      : unit_(unit), period_ticks_(uint64_t{2} << exponent), ticks_(start_ticks) {
    busy_ = active_ = stall_ = counter_base;
  }

  // The next periodic report after a period of `load`; `deltas` gets what it adds.
  std::vector<uint8_t> Next(const OaLoad& load, OaDeltas* deltas = nullptr) {
    OaDeltas d;
    d.ticks = period_ticks_;
    d.clocks = load.gpu_mhz * 1'000'000 * period_ticks_ / unit_.timestamp_hz;
    d.busy = static_cast<uint64_t>(load.busy * static_cast<double>(d.clocks));
    uint64_t eu_clocks = d.clocks * unit_.eu_count();
    d.eu_active = static_cast<uint64_t>(load.eu_active * static_cast<double>(eu_clocks));
    d.eu_stall = static_cast<uint64_t>(load.eu_stall * static_cast<double>(eu_clocks));
    ticks_ += d.ticks;
    clocks_ += d.clocks;
    busy_ += d.busy;
    active_ += d.eu_active;
    stall_ += d.eu_stall;
    if (deltas != nullptr) *deltas = d;
    return unit_.generation == regdb::OaGeneration::kHaswell ? HswReport() : IclReport();
  }

  // The virtual time of the last report: the first ns its timestamp reads.
  uint64_t time_ns() const { return regdb::NsAtTimestampTick(ticks_, unit_.timestamp_hz); }
  uint64_t ticks() const { return ticks_; }

  static emulator::UnitRecord Record(const std::vector<uint8_t>& report, uint64_t time_ns) {
    return {"oa", emulator::UnitRecordKind::kReport, time_ns, report};
  }

 private:
  static constexpr uint32_t kTimerReason = 1u << 19;

  static void Put32(std::vector<uint8_t>& report, unsigned dword, uint64_t value) {
    for (unsigned i = 0; i < 4; ++i) report[dword * 4 + i] = static_cast<uint8_t>(value >> (8 * i));
  }

  // A32u40_A4u32_B8_C8: dw1 timestamp, dw2 context (none), dw3 GPU clocks,
  // A_i low at dw(4+i), bits 39:32 at byte 160+i. A0 busy, A7/A8 EU active/stall.
  std::vector<uint8_t> IclReport() const {
    std::vector<uint8_t> report(256, 0);
    Put32(report, 0, kTimerReason);
    Put32(report, 1, ticks_);
    Put32(report, 2, 0xFFFFFFFF);
    Put32(report, 3, clocks_);
    const std::array<std::pair<unsigned, uint64_t>, 3> a = {{{0, busy_}, {7, active_}, {8, stall_}}};
    for (const auto& [index, value] : a) {
      Put32(report, 4 + index, value);
      report[160 + index] = static_cast<uint8_t>(value >> 32);
    }
    return report;
  }

  // A45_B8_C8: dw1 timestamp, A_i at dw(3+i), C2 (GPU clocks) at dw58.
  // A0/A1 EU active/stall, A41 busy.
  std::vector<uint8_t> HswReport() const {
    std::vector<uint8_t> report(256, 0);
    Put32(report, 0, kTimerReason);
    Put32(report, 1, ticks_);
    Put32(report, 3 + 0, active_);
    Put32(report, 3 + 1, stall_);
    Put32(report, 3 + 41, busy_);
    Put32(report, 58, clocks_);
    return report;
  }

  regdb::OaUnitConfig unit_;
  uint64_t period_ticks_;
  uint64_t ticks_;
  uint64_t clocks_ = 0;
  uint64_t busy_ = 0, active_ = 0, stall_ = 0;
};

}  // namespace regemu::testing
