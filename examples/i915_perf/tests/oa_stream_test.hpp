#pragma once
// The fixtures of the OA stream tests: a strict device from a shipped
// database (fakes::DeviceTest fails a test on every violation it does not
// take), its register bus and GGTT memory, a virtual-time delay, the
// workload injections, and a watch on the reports the OA unit writes
// (DeviceOptions::on_record) so a test can stop the clock right after one.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "examples/i915_mini/delay.hpp"
#include "examples/i915_mini/forcewake.hpp"
#include "examples/i915_mini/pci_regs.hpp"
#include "examples/i915_perf/device_ggtt_memory.hpp"
#include "examples/i915_perf/hsw_oa_stream.hpp"
#include "examples/i915_perf/icl_oa_stream.hpp"
#include "examples/i915_perf/oa_record.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/protocol_rules.hpp"

namespace regemu::i915_perf {

// The OA timestamp clocks (oa_spec: HSW 12.5 MHz, ICL 12 MHz) and the
// periodic interval of exponent 13, 2^14 ticks, in ns.
inline constexpr unsigned kExponent = 13;
inline constexpr uint32_t kPeriodTicks = 1u << (kExponent + 1);
static_assert(OaStreamOptions{}.period_exponent == kExponent, "the tests' streams use the default exponent");
inline constexpr uint64_t kHswPeriodNs = 1'310'720;  // 16384 / 12.5 MHz, exactly
inline constexpr uint64_t kIclPeriodNs = 1'365'334;  // 16384 / 12 MHz = 1365333.3, rounded up
// How long after its trigger a report's dwords 0 and 1 land (oa_spec:
// report_write_ns in the shipped databases).
inline constexpr uint64_t kReportLandingNs = 100;

// The default stream, with one bug.
inline OaStreamOptions WithBug(Bug bug) {
  OaStreamOptions options;
  options.bugs = {bug};
  return options;
}

// The reports of the sample records, in order (copies: `records` is
// often a temporary).
inline std::vector<std::vector<uint8_t>> Samples(const std::vector<OaRecord>& records) {
  std::vector<std::vector<uint8_t>> samples;
  for (const OaRecord& record : records) {
    if (record.type == OaRecordType::kSample) samples.push_back(record.report);
  }
  return samples;
}

// Each sample after the first is a timer report one period after the one
// before.
inline void ExpectTimerReportsOnePeriodApart(const std::vector<std::vector<uint8_t>>& samples) {
  for (size_t i = 1; i < samples.size(); ++i) {
    EXPECT_EQ(ReportReason(samples[i]), kReasonTimer) << "sample " << i;
    EXPECT_EQ(ReportTimestamp(samples[i]) - ReportTimestamp(samples[i - 1]), kPeriodTicks) << "sample " << i;
  }
}

// The record types, in order.
inline std::vector<OaRecordType> Types(const std::vector<OaRecord>& records) {
  std::vector<OaRecordType> types;
  for (const OaRecord& record : records) types.push_back(record.type);
  return types;
}

class OaStreamTest : public fakes::DeviceTest {
 protected:
  void LoadHsw() { Load("hsw", 12'500'000); }
  // With memory decode on, as the PCI core leaves it before i915 maps BAR0,
  // and the force-wake rules watching every OA access.
  void LoadIcl() {
    Load("icl", 12'000'000);
    bus("config").Write16(i915_mini::pci::kCommand, i915_mini::pci::kCommandMemory | i915_mini::pci::kCommandMaster);
    EnableRule(fakes::NoAccessWithoutForcewake("render"));
    EnableRule(fakes::NoAccessWithoutForcewake("gt"));
  }

  fakes::MmioBus& mmio() { return bus("mmio"); }
  GgttMemory& ggtt() { return *ggtt_; }
  // The driver's udelay: moves the device's virtual clock.
  i915_mini::Delay VirtualDelay() {
    return [this](uint64_t ns) { device().Advance(ns); };
  }

  // A hardware-side event (`inject VERB ARGS...`), which must be accepted.
  void Inject(std::string_view verb, std::vector<std::string> args) {
    ASSERT_EQ(device().Inject(verb, args), "") << verb;
  }
  // The workload the tests run: the GPU at `mhz`, busy half the time, a
  // quarter of the EU cycles active.
  void RunWorkload(unsigned mhz) {
    Inject("gpu-freq", {std::to_string(mhz)});
    Inject("oa-load", {"gpu-busy", "0.5", "eu-active", "0.25"});
  }

  // Reports the OA unit has written into its buffer so far, and the
  // timestamp (dword 1) of the last one.
  uint64_t reports_written() const { return watch_->reports; }
  uint32_t last_report_timestamp() const { return watch_->last_timestamp; }

  // Advances the clock to just after the next periodic report's trigger
  // (the last one's timestamp plus a period): inside the window in which
  // its dwords 0 and 1 have not landed. The trigger time comes from the
  // timestamp, not from UnitRecord::time_ns, which is the end of the
  // Advance that produced the report.
  void AdvanceToJustAfterNextReport() {
    const uint64_t reports = reports_written();
    const uint64_t next_ticks = uint64_t{last_report_timestamp()} + kPeriodTicks;
    const uint64_t target = next_ticks * 1'000'000'000 / timestamp_hz_ - 2 * kReportLandingNs;
    ASSERT_LT(device().now_ns(), target);
    device().Advance(target - device().now_ns());
    for (int step = 0; step < 100 && reports_written() == reports; ++step) device().Advance(5);
    ASSERT_EQ(reports_written(), reports + 1) << "no report near timestamp " << next_ticks;
  }

  // A read after a while of sampling: samples only, one for every report
  // the unit wrote but the newest (which waits for the next to land).
  template <typename Stream>
  std::vector<std::vector<uint8_t>> ReadAllButNewest(Stream& stream) {
    std::vector<OaRecord> records = stream.Read();
    EXPECT_THAT(Types(records), ::testing::Each(OaRecordType::kSample));
    std::vector<std::vector<uint8_t>> samples = Samples(records);
    EXPECT_EQ(samples.size() + 1, reports_written());
    return samples;
  }

  // The raw value of register `name`, by the backdoor.
  uint64_t Peek(std::string_view name) { return device().PeekRegister(*device().model().FindRegister(name)); }

 private:
  // What the OA unit emitted, as DeviceOptions::on_record sees it.
  struct ReportWatch {
    uint64_t reports = 0;
    uint32_t last_timestamp = 0;
  };

  void Load(std::string_view database, uint64_t timestamp_hz) {
    timestamp_hz_ = timestamp_hz;
    *watch_ = {};
    emulator::DeviceOptions options;
    options.on_record = [watch = watch_](const emulator::UnitRecord& record) {
      if (record.kind != emulator::UnitRecordKind::kReport) return;
      ++watch->reports;
      watch->last_timestamp = ReportTimestamp(record.bytes);
    };
    LoadDevice(fakes::ShippedDatabase(database), std::move(options));
    ggtt_ = std::make_unique<DeviceGgttMemory>(device());
  }

  uint64_t timestamp_hz_ = 0;
  std::shared_ptr<ReportWatch> watch_ = std::make_shared<ReportWatch>();
  std::unique_ptr<DeviceGgttMemory> ggtt_;
};

inline constexpr uint32_t kGtt = 0x01000000;  // where the tests pin the buffer (OaStreamOptions' default)

class IclOaStreamTest : public OaStreamTest {
 protected:
  void SetUp() override {
    LoadIcl();
    forcewake_ = std::make_unique<i915_mini::Forcewake>(mmio(), VirtualDelay());
  }

  IclOaStream<fakes::MmioBus> MakeStream(OaStreamOptions options = {}) {
    return IclOaStream<fakes::MmioBus>(mmio(), *forcewake_, ggtt(), VirtualDelay(), options);
  }
  i915_mini::Forcewake& forcewake() { return *forcewake_; }
  // The hardware's tail, as an offset into the buffer (backdoor).
  uint64_t HardwareTail() { return (Peek("OATAILPTR") & kOaPointerMask) - kGtt; }

 private:
  std::unique_ptr<i915_mini::Forcewake> forcewake_;
};

class HswOaStreamTest : public OaStreamTest {
 protected:
  void SetUp() override { LoadHsw(); }

  HswOaStream<fakes::MmioBus> MakeStream(OaStreamOptions options = {}) {
    return HswOaStream<fakes::MmioBus>(mmio(), ggtt(), VirtualDelay(), options);
  }
};

}  // namespace regemu::i915_perf
