#include "examples/rocm_collector/collector.hpp"

#include "regemu/regs/mi200.hpp"

namespace regemu::rocm_collector {
namespace {

namespace gc = regs::mi200;

// GRBM_GFX_INDEX values aqlprofile uses (ROCm/aqlprofile).
constexpr uint32_t kBroadcast = 0xE0000000;
constexpr uint32_t Instance(uint32_t i) { return 0xA0000000 | i; }
constexpr uint32_t ShaderEngine(uint32_t se) { return 0x60000000 | se << 16; }

// Event selects on gfx90a (rocprofiler gfx_metrics.xml; yaml/mi200's catalog).
constexpr uint32_t kGrbmCount = 0;
constexpr uint32_t kGrbmGuiActive = 2;
constexpr uint32_t kSqWaves = 0x0F0FF004;  // PERF_SEL 4 with SQC bank, client and SIMD masks
constexpr uint32_t kSpiCsnWave = 52;
constexpr uint32_t kTccHit = 17;
constexpr uint32_t kTccMiss = 19;

// CP_PERFMON_CNTL states.
constexpr uint32_t kDisableAndReset = 0;
constexpr uint32_t kStart = 1;
constexpr uint32_t kStop = 2;
constexpr uint32_t kSampleEnable = 1u << 10;

}  // namespace

void Mi200Collector::SetIndex(uint32_t value) { mmio_.Write32(gc::GRBM_GFX_INDEX::kOffset, value); }

void Mi200Collector::Start() {
  SetIndex(kBroadcast);
  mmio_.Write32(gc::RLC_PERFMON_CLK_CNTL::kOffset, 1);
  mmio_.Write32(gc::CP_PERFMON_CNTL::kOffset, kDisableAndReset);
  mmio_.Write32(gc::SQ_PERFCOUNTER_CTRL::kOffset, 0xFFFF007F);
  // One select per counter; per instance where the block has instances.
  SetIndex(kBroadcast);
  mmio_.Write32(gc::GRBM_PERFCOUNTER0_SELECT::kOffset, kGrbmCount);
  SetIndex(kBroadcast);
  mmio_.Write32(gc::GRBM_PERFCOUNTER1_SELECT::kOffset, kGrbmGuiActive);
  SetIndex(kBroadcast);
  mmio_.Write32(gc::SQ_PERFCOUNTER0_SELECT::kOffset, kSqWaves);
  mmio_.Write32(gc::SQ_PERFCOUNTER_MASK::kOffset, 0xFFFFFFFF);
  mmio_.Write32(gc::SQ_PERFCOUNTER_CTRL::kOffset, 0xFFFF0057);
  SetIndex(kBroadcast);
  mmio_.Write32(gc::SPI_PERFCOUNTER0_SELECT::kOffset, kSpiCsnWave);
  for (uint32_t i = 0; i < kTccInstances; ++i) {
    SetIndex(Instance(i));
    mmio_.Write32(gc::TCC_PERFCOUNTER0_SELECT::kOffset, kTccHit);
  }
  // TCC_MISS on TCC counter 1 of every instance, as one broadcast write.
  if (!bugs_.Has(Bug::kGfxIndexLeftOnInstance)) SetIndex(kBroadcast);
  mmio_.Write32(gc::TCC_PERFCOUNTER1_SELECT::kOffset, kTccMiss);
  SetIndex(kBroadcast);
  mmio_.Write32(gc::COMPUTE_PERFCOUNT_ENABLE::kOffset, 1);
  mmio_.Write32(gc::CP_PERFMON_CNTL::kOffset, kDisableAndReset);
  mmio_.Write32(gc::CP_PERFMON_CNTL::kOffset, kStart);
}

uint64_t Mi200Collector::ReadPair(uint64_t lo, uint64_t hi) {
  uint64_t low = mmio_.Read32(lo);
  uint64_t high = mmio_.Read32(hi);
  return high << 32 | low;
}

Samples Mi200Collector::Read() {
  mmio_.Write32(gc::CP_PERFMON_CNTL::kOffset, bugs_.Has(Bug::kReadWithoutSample) ? kStart : kStart | kSampleEnable);
  Samples samples;
  SetIndex(kBroadcast);
  samples.grbm_count = ReadPair(gc::GRBM_PERFCOUNTER0_LO::kOffset, gc::GRBM_PERFCOUNTER0_HI::kOffset);
  samples.grbm_gui_active = ReadPair(gc::GRBM_PERFCOUNTER1_LO::kOffset, gc::GRBM_PERFCOUNTER1_HI::kOffset);
  for (uint32_t se = 0; se < kShaderEngines; ++se) {
    SetIndex(ShaderEngine(se));
    samples.sq_waves += ReadPair(gc::SQ_PERFCOUNTER0_LO::kOffset, gc::SQ_PERFCOUNTER0_HI::kOffset);
    // SPI: HI sits below LO; the mistake takes the lower address for LO.
    samples.spi_csn_wave += bugs_.Has(Bug::kSpiHiLoSwapped)
                                ? ReadPair(gc::SPI_PERFCOUNTER0_HI::kOffset, gc::SPI_PERFCOUNTER0_LO::kOffset)
                                : ReadPair(gc::SPI_PERFCOUNTER0_LO::kOffset, gc::SPI_PERFCOUNTER0_HI::kOffset);
  }
  for (uint32_t i = 0; i < kTccInstances; ++i) {
    SetIndex(Instance(i));
    samples.tcc_hit.push_back(ReadPair(gc::TCC_PERFCOUNTER0_LO::kOffset, gc::TCC_PERFCOUNTER0_HI::kOffset));
    samples.tcc_miss.push_back(ReadPair(gc::TCC_PERFCOUNTER1_LO::kOffset, gc::TCC_PERFCOUNTER1_HI::kOffset));
  }
  SetIndex(kBroadcast);
  return samples;
}

void Mi200Collector::Stop() {
  SetIndex(kBroadcast);
  mmio_.Write32(gc::CP_PERFMON_CNTL::kOffset, kStop);
  mmio_.Write32(gc::RLC_PERFMON_CLK_CNTL::kOffset, 0);
}

// rocprofiler's gfx90a expressions (yaml/mi200 `metrics`).
Metrics Mi200Collector::Compute(const Samples& samples) {
  Metrics metrics;
  metrics.gpu_busy = 100.0 * static_cast<double>(samples.grbm_gui_active) / static_cast<double>(samples.grbm_count);
  metrics.wavefronts = static_cast<double>(samples.sq_waves);
  double hits = 0;
  double misses = 0;
  for (size_t i = 0; i < 16 && i < samples.tcc_hit.size(); ++i) {
    hits += static_cast<double>(samples.tcc_hit[i]);
    misses += static_cast<double>(samples.tcc_miss[i]);
  }
  metrics.l2_cache_hit = 100.0 * hits / (hits + misses);
  return metrics;
}

}  // namespace regemu::rocm_collector
