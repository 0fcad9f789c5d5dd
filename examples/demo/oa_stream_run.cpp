#include "examples/demo/oa_stream_run.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "examples/i915_mini/forcewake.hpp"
#include "examples/i915_mini/pci_regs.hpp"
#include "examples/i915_perf/device_ggtt_memory.hpp"
#include "examples/i915_perf/icl_oa_stream.hpp"
#include "examples/i915_perf/metric_set.hpp"
#include "examples/i915_perf/oa_record.hpp"
#include "regemu/fakes/fake_mmio_bus.hpp"
#include "regemu/fakes/protocol_rules.hpp"

namespace regemu::demo {
namespace {

namespace perf = i915_perf;

// A short period: 2^(9+1) ticks of the 12 MHz timestamp, 85.3 us.
constexpr unsigned kExponent = 9;
constexpr uint64_t kSamplingNs = 1'000'000;
constexpr size_t kRowsShown = 3;

// Everything the stream needs on one device: the buses, force-wake, the
// GGTT mapping, the virtual-time delay.
struct Rig {
  explicit Rig(const std::shared_ptr<const emulator::Model>& model, emulator::DeviceOptions options)
      : device(model, std::move(options)),
        config(device, "config"),
        mmio(device, "mmio"),
        ggtt(device),
        delay([this](uint64_t ns) { device.Advance(ns); }),
        forcewake(mmio, delay) {
    config.Write16(i915_mini::pci::kCommand, i915_mini::pci::kCommandMemory | i915_mini::pci::kCommandMaster);
  }
  perf::IclOaStream<fakes::MmioBus> Stream(perf::OaStreamOptions options) {
    return perf::IclOaStream<fakes::MmioBus>(mmio, forcewake, ggtt, delay, options);
  }

  emulator::Device device;
  fakes::FakeMmioBus config;
  fakes::FakeMmioBus mmio;
  perf::DeviceGgttMemory ggtt;
  i915_mini::Delay delay;
  i915_mini::Forcewake forcewake;
};

void Inject(emulator::Device& device, const char* verb, std::vector<std::string> args) {
  device.Inject(verb, args);
}

// One line per report after the first: what changed since the one before.
void PrintDeltas(const std::vector<std::vector<uint8_t>>& samples, std::ostream& out) {
  out << "     timestamp  reason  GPU clocks  A0 (busy)  A7 (EU active)\n";
  for (size_t i = 1; i < samples.size() && i <= kRowsShown; ++i) {
    const auto& a = samples[i - 1];
    const auto& b = samples[i];
    char row[128];
    std::snprintf(row, sizeof row, "     %9u  %-6s  %+10d  %+9lld  %+14lld\n", perf::ReportTimestamp(b),
                  perf::ReportReason(b) == perf::kReasonTimer ? "timer" : "other",
                  static_cast<int>(perf::Gen8GpuTicks(b) - perf::Gen8GpuTicks(a)),
                  static_cast<long long>(perf::Gen8A(b, 0) - perf::Gen8A(a, 0)),
                  static_cast<long long>(perf::Gen8A(b, 7) - perf::Gen8A(a, 7)));
    out << row;
  }
}

bool RunClean(const std::shared_ptr<const emulator::Model>& model, std::ostream& out) {
  fakes::ProtocolChecker checker(model);
  checker.Add(fakes::NoAccessWithoutForcewake("render"));
  checker.Add(fakes::NoAccessWithoutForcewake("gt"));
  emulator::DeviceOptions options;
  checker.Attach(options);
  Rig rig(model, options);

  Inject(rig.device, "gpu-freq", {"750"});
  Inject(rig.device, "oa-load", {"gpu-busy", "0.5", "eu-active", "0.25"});
  out << "   inject gpu-freq 750; inject oa-load gpu-busy 0.5 eu-active 0.25\n";

  perf::OaStreamOptions stream_options;
  stream_options.period_exponent = kExponent;
  stream_options.buffer_size = perf::kOaBufferSizeMin;
  auto stream = rig.Stream(stream_options);
  const uint64_t writes_before = rig.device.access_count();
  const bool opened = stream.Open(perf::IclRenderBasic());
  out << "   open: force-wake, RenderBasic (61 mux, 5 b-counter, 6 flex), 128 KiB buffer, OACONTROL 0x15 ("
      << rig.device.access_count() - writes_before << " accesses)\n";

  rig.device.Advance(kSamplingNs);
  std::vector<std::vector<uint8_t>> samples;
  for (const perf::OaRecord& record : stream.Read()) {
    if (record.type == perf::OaRecordType::kSample) samples.push_back(record.report);
  }
  out << "   after " << kSamplingNs / 1000 << " us, read() returned " << samples.size()
      << " reports (the newest stays until the next lands); the first deltas:\n";
  PrintDeltas(samples, out);
  const bool closed = stream.Close();

  const bool clean = opened && closed && samples.size() > 1 && rig.device.violation_count() == 0 &&
                     checker.breaches().empty();
  for (const emulator::Violation& violation : rig.device.violations()) out << violation.Describe(*model) << "\n";
  for (const fakes::RuleBreach& breach : checker.breaches()) out << breach.Describe(*model) << "\n";
  out << "   close: OA off, NOA off, force-wake put; " << rig.device.violation_count() << " violation(s)"
      << (clean ? "" : "  <-- FAILED") << "\n";
  return clean;
}

bool RunTailBeforeBuffer(const std::shared_ptr<const emulator::Model>& model, std::ostream& out) {
  const perf::Bug bug = perf::Bug::kTailBeforeBuffer;
  emulator::DeviceOptions options;
  options.policy = emulator::ViolationPolicy::Lenient();
  Rig rig(model, options);
  perf::OaStreamOptions stream_options;
  stream_options.bugs = {bug};
  out << "\n-- bug '" << perf::BugName(bug) << "': OATAILPTR programmed before OABUFFER (expect: protocol)\n";
  rig.Stream(stream_options).Open(perf::IclRenderBasic());

  std::vector<emulator::Violation> violations = rig.device.violations();
  bool only_protocol = !violations.empty();
  for (const emulator::Violation& violation : violations) {
    only_protocol = only_protocol && violation.kind == emulator::ViolationKind::kProtocol;
    std::string text = violation.Describe(*model);
    out << "   " << text.substr(0, text.find('\n')) << "\n";
  }
  out << "   => " << violations.size() << " violation(s), "
      << (only_protocol ? "all protocol, as expected" : "NOT what this bug should cause") << "\n";
  return only_protocol;
}

}  // namespace

bool RunOaStream(const std::shared_ptr<const emulator::Model>& model, std::ostream& out) {
  out << "\nAn OA stream (examples/i915_perf, i915-perf's gen8 paths) on the same database, a report every "
      << "2^" << kExponent + 1 << " timestamp ticks:\n";
  const bool clean = RunClean(model, out);
  const bool caught = RunTailBeforeBuffer(model, out);
  return clean && caught;
}

}  // namespace regemu::demo
