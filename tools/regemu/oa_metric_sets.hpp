#pragma once
// The hw_config_guid of the metric sets an i915-perf recording most often
// names, per platform, as IGT 1.27.1's libi915_perf knows them. The reader
// compares the recording's uuid with its own and, on a mismatch, only warns
// ("Recording used a different HW configuration"); the metric set *name*
// is what must match (an unknown one crashes the reader).

#include <cstdint>
#include <optional>
#include <string_view>

namespace regemu::tools {

// The uuid of `metric_set` (its symbol name, e.g. "RenderBasic") on the
// platform of PCI device `device_id`; nullopt when this table does not know
// the pair. Known: RenderBasic, ComputeBasic and TestOa on Ice Lake,
// RenderBasic and ComputeBasic on Haswell (which has no TestOa).
std::optional<std::string_view> KnownMetricSetUuid(uint32_t device_id, std::string_view metric_set);

}  // namespace regemu::tools
