#pragma once
// A ROCm-style performance-counter collector for the MI200 (gfx90a) over
// CPU MMIO (an MmioBus on the register BAR), written against the header
// generated from yaml/mi200 (regemu/regs/mi200.hpp). It does what
// aqlprofile's PM4 packets do (ROCm/aqlprofile), in the same order:
//   Start: broadcast, perfmon clock on, DISABLE_AND_RESET, the SQ stage
//     enables, each counter's select (per instance where the block has
//     instances), COMPUTE_PERFCOUNT_ENABLE, START;
//   Read:  START | SAMPLE_ENABLE, then each counter's LO and HI per SE or
//     per instance;
//   Stop:  broadcast, STOP, perfmon clock off;
// and computes rocprofiler's metrics from the samples.

#include <cstdint>
#include <vector>

#include "examples/rocm_collector/bugs.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::rocm_collector {

// What one read returns: each counter summed as rocprofiler sums samples,
// TCC per instance for the metrics' reductions.
struct Samples {
  uint64_t grbm_count = 0;
  uint64_t grbm_gui_active = 0;
  uint64_t sq_waves = 0;       // summed over the SEs
  uint64_t spi_csn_wave = 0;   // summed over the SEs
  std::vector<uint64_t> tcc_hit;   // per instance
  std::vector<uint64_t> tcc_miss;  // per instance
};

struct Metrics {
  double gpu_busy = 0;     // 100 * GRBM_GUI_ACTIVE / GRBM_COUNT
  double wavefronts = 0;   // SQ_WAVES
  double l2_cache_hit = 0; // 100 * sum(TCC_HIT,16) / (sum(TCC_HIT,16) + sum(TCC_MISS,16))
};

class Mi200Collector {
 public:
  static constexpr uint32_t kShaderEngines = 8;
  static constexpr uint32_t kTccInstances = 32;

  explicit Mi200Collector(fakes::MmioBus& mmio, Bugs bugs = {}) : mmio_(mmio), bugs_(bugs) {}

  void Start();
  Samples Read();
  void Stop();
  static Metrics Compute(const Samples& samples);

 private:
  void SetIndex(uint32_t value);
  uint64_t ReadPair(uint64_t lo, uint64_t hi);

  fakes::MmioBus& mmio_;
  Bugs bugs_;
};

}  // namespace regemu::rocm_collector
