#include "examples/demo/collector_run.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "examples/rocm_collector/collector.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/fake_mmio_bus.hpp"

namespace regemu::demo {
namespace {

using rocm_collector::Bug;
using rocm_collector::Metrics;
using rocm_collector::Mi200Collector;
using rocm_collector::Samples;

void Workload(emulator::Device& device) {
  for (const std::vector<std::string>& event : std::vector<std::vector<std::string>>{
           {"GRBM_COUNT", "8000"}, {"GRBM_GUI_ACTIVE", "6000"}, {"SQ_WAVES", "256"}, {"SPI_CSN_WAVE", "256"},
           {"TCC_HIT", "3200"}, {"TCC_MISS", "800"}}) {
    device.Inject("event", event);
  }
  device.Advance(10'000);
}

double Oracle(emulator::Device& device, const char* metric) {
  std::string error;
  return device.Metric(metric, error).value_or(-1);
}

struct Run {
  Samples samples;
  Metrics metrics;
  double oracle_l2 = 0;
  size_t violations = 0;
};

Run Collect(const std::shared_ptr<const emulator::Model>& model, rocm_collector::Bugs bugs, bool lenient) {
  emulator::DeviceOptions options;
  if (lenient) options.policy = emulator::ViolationPolicy::Lenient();
  emulator::Device device(model, options);
  fakes::FakeMmioBus mmio(device, "mmio");
  Mi200Collector collector(mmio, bugs);
  collector.Start();
  Workload(device);
  Run run;
  run.samples = collector.Read();
  collector.Stop();
  run.metrics = Mi200Collector::Compute(run.samples);
  run.oracle_l2 = Oracle(device, "L2CacheHit");
  run.violations = device.violation_count();
  return run;
}

}  // namespace

bool RunRocmCollector(const std::filesystem::path& database, std::ostream& out) {
  std::shared_ptr<const emulator::Model> model = fakes::CompileDatabase(database);
  out << "\nA ROCm-style counter collector (examples/rocm_collector) on " << database.string() << ":\n";
  emulator::Device device(model);
  fakes::FakeMmioBus mmio(device, "mmio");
  Mi200Collector collector(mmio);
  collector.Start();
  Workload(device);
  Metrics metrics = Mi200Collector::Compute(collector.Read());
  collector.Stop();
  char line[160];
  out << "  8000 cycles (6000 busy), 256 waves, 3200 L2 hits and 800 misses injected over 32 TCCs:\n"
      << "    metric        collector     regemu's oracle\n";
  std::snprintf(line, sizeof line, "    GPUBusy      %9.3f     %9.3f\n    Wavefronts   %9.3f     %9.3f\n"
                                   "    L2CacheHit   %9.3f     %9.3f\n",
                metrics.gpu_busy, Oracle(device, "GPUBusy"), metrics.wavefronts, Oracle(device, "Wavefronts"),
                metrics.l2_cache_hit, Oracle(device, "L2CacheHit"));
  out << line << "  violations: " << device.violation_count() << "\n";
  bool clean = device.violation_count() == 0 && metrics.gpu_busy == Oracle(device, "GPUBusy") &&
               metrics.wavefronts == Oracle(device, "Wavefronts") &&
               metrics.l2_cache_hit == Oracle(device, "L2CacheHit");

  out << "The same collector with one bug at a time:\n";
  Run swapped = Collect(model, {Bug::kSpiHiLoSwapped}, true);
  out << "  bug spi-hi-lo-swapped: SPI_CSN_WAVE read as " << swapped.samples.spi_csn_wave
      << " (256 were injected: HI and LO swapped)\n";
  Run left = Collect(model, {Bug::kGfxIndexLeftOnInstance}, true);
  std::snprintf(line, sizeof line, "  bug gfx-index-left-on-instance: L2CacheHit %.3f, the oracle says %.3f\n",
                left.metrics.l2_cache_hit, left.oracle_l2);
  out << line;
  Run unsampled = Collect(model, {Bug::kReadWithoutSample}, true);
  out << "  bug read-without-sample: " << unsampled.violations
      << " protocol violation(s) (every LO/HI read shows no sample), GRBM_COUNT read as "
      << unsampled.samples.grbm_count << "\n";
  bool caught = swapped.samples.spi_csn_wave != 256 && left.metrics.l2_cache_hit != left.oracle_l2 &&
                unsampled.violations > 0;
  return clean && caught;
}

}  // namespace regemu::demo
