#include "tools/regemu/oa_metric_sets.hpp"

#include <algorithm>
#include <array>

namespace regemu::tools {
namespace {

enum class Platform : uint8_t { kHaswell, kIceLake };

struct PlatformId {
  uint32_t device_id;
  Platform platform;
};

// Only ids whose platform the installed reader was seen to name (its first
// line, "Recorded on device=0x8a52(icelake)"); the shipped databases use
// 0x8a52 (yaml/icl) and 0x0416 (yaml/hsw).
constexpr std::array kPlatformIds = {
    PlatformId{0x0402, Platform::kHaswell}, PlatformId{0x0416, Platform::kHaswell},
    PlatformId{0x0a26, Platform::kHaswell}, PlatformId{0x0d26, Platform::kHaswell},
    PlatformId{0x8a50, Platform::kIceLake}, PlatformId{0x8a51, Platform::kIceLake},
    PlatformId{0x8a52, Platform::kIceLake}, PlatformId{0x8a53, Platform::kIceLake},
    PlatformId{0x8a5a, Platform::kIceLake}, PlatformId{0x8a5c, Platform::kIceLake},
};

struct MetricSetUuid {
  Platform platform;
  std::string_view symbol_name;
  std::string_view uuid;
};

// As i915-perf-reader 1.27.1 prints them ("Metric used : RenderBasic (...)
// uuid=..."). Older IGT and Mesa copies of oa-icl.xml carry another ICL
// RenderBasic uuid; this is the one the installed reader compares against.
constexpr std::array kUuids = {
    MetricSetUuid{Platform::kHaswell, "RenderBasic", "a490e9d2-55b3-4db0-8dab-53011032c5f3"},
    MetricSetUuid{Platform::kHaswell, "ComputeBasic", "b344c8cb-a291-4cbf-aa9c-b40213bfc96f"},
    MetricSetUuid{Platform::kIceLake, "RenderBasic", "e3cd52cf-c6b0-4019-b369-3bc9c75a0cbc"},
    MetricSetUuid{Platform::kIceLake, "ComputeBasic", "04546170-d541-4804-96f8-007a454a3f2c"},
    MetricSetUuid{Platform::kIceLake, "TestOa", "e617cfd5-6cc5-4143-8994-cd36cebb921f"},
};

}  // namespace

std::optional<std::string_view> KnownMetricSetUuid(uint32_t device_id, std::string_view metric_set) {
  auto id = std::find_if(kPlatformIds.begin(), kPlatformIds.end(),
                         [&](const PlatformId& p) { return p.device_id == device_id; });
  if (id == kPlatformIds.end()) return std::nullopt;
  auto row = std::find_if(kUuids.begin(), kUuids.end(), [&](const MetricSetUuid& m) {
    return m.platform == id->platform && m.symbol_name == metric_set;
  });
  if (row == kUuids.end()) return std::nullopt;
  return row->uuid;
}

}  // namespace regemu::tools
