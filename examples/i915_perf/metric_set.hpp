#pragma once
// A metric set as i915 holds one (struct i915_oa_config): three register
// lists, programmed in this order when a stream opens (i915_perf.c):
// the NOA mux, then the boolean counters (triggers, CEC), then the flex EU
// counters (Gen8-11; on Linux <= 5.4 these go into the context image, here
// by MMIO like OACTXCONTROL).

#include <cstdint>
#include <span>
#include <string_view>

#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::i915_perf {

struct RegWrite {
  uint32_t address = 0;
  uint32_t value = 0;
};

struct MetricSet {
  std::string_view name;
  std::span<const RegWrite> mux;
  std::span<const RegWrite> b_counter;
  std::span<const RegWrite> flex;
};

// IGT's "RenderBasic" sets, read from the scripts that replay them
// (tests/scripts/{icl,hsw}_metric_set_render_basic.script) when CMake
// configures (metric_set_tables.cmake): ICL 61 mux, 5 b-counter, 6 flex;
// HSW 62 mux, 4 b-counter.
MetricSet IclRenderBasic();
MetricSet HswRenderBasic();

// config_oa_regs: each write of a list, in order.
template <fakes::MmioBusLike Io>
void WriteRegList(Io& io, std::span<const RegWrite> list) {
  for (const RegWrite& write : list) io.Write(write.address, 32, write.value);
}

}  // namespace regemu::i915_perf
