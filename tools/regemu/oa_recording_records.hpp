#pragma once
// The records of an i915-perf recording, byte for byte as IGT 1.27's
// i915-perf-recorder writes them and i915-perf-reader reads them
// (lib/i915/perf_data.h, the kernel's drm_i915_perf_record_header;
// IGT 1.27's perf_data_reader.c reads them). Little-endian and packed; every record
// is a multiple of 8 bytes long, as the recorder keeps them.
//
// Each Append* adds one whole record (header and payload) to `out`. They do
// not check their inputs: OaRecordingWriter does, before it calls them.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace regemu::tools::oa_recording {

using Bytes = std::vector<uint8_t>;

// drm_i915_perf_record_type and IGT's intel_perf_record_type.
enum class RecordType : uint32_t {
  kSample = 1,           // DRM_I915_PERF_RECORD_SAMPLE: one OA report
  kReportLost = 2,       // DRM_I915_PERF_RECORD_OA_REPORT_LOST, no payload
  kBufferLost = 3,       // DRM_I915_PERF_RECORD_OA_BUFFER_LOST, no payload
  kVersion = 0x10000,    // INTEL_PERF_RECORD_TYPE_VERSION
  kDeviceInfo = 0x10001,
  kTopology = 0x10002,
  kCorrelation = 0x10003,  // INTEL_PERF_RECORD_TYPE_TIMESTAMP_CORRELATION
};

inline constexpr size_t kHeaderBytes = 8;            // u32 type, u16 pad, u16 size (header included)
inline constexpr size_t kMaxRecordBytes = 0xFFFF;    // the header's size is a u16
inline constexpr size_t kDeviceInfoRecordBytes = 344;  // the reader asserts exactly this
inline constexpr size_t kMetricSetNameBytes = 256;   // char[256], NUL included
inline constexpr size_t kMetricSetUuidBytes = 40;    // char[40], NUL included
inline constexpr uint32_t kRecordingVersion = 1;     // INTEL_PERF_RECORD_VERSION

// intel_perf_record_device_info.
struct DeviceInfo {
  uint64_t timestamp_hz = 0;  // the reader's GpuTime divisor
  uint32_t device_id = 0;     // PCI id: picks the platform and its metric sets
  uint32_t device_revision = 0;
  uint32_t gt_min_hz = 0;
  uint32_t gt_max_hz = 0;
  uint32_t engine_class = 0;  // 0: render
  uint32_t engine_instance = 0;
  uint32_t oa_format = 0;     // enum drm_i915_oa_format (the reader ignores it)
  std::string metric_set_name;  // at most 255 bytes
  std::string metric_set_uuid;  // at most 39 bytes
};

// All slices, subslices and EUs present (no fused-off parts).
struct Topology {
  unsigned slices = 1;
  unsigned subslices_per_slice = 1;
  unsigned eus_per_subslice = 1;
};

void AppendVersion(Bytes& out);
void AppendDeviceInfo(Bytes& out, const DeviceInfo& info);
void AppendTopology(Bytes& out, const Topology& topology);
// The bytes AppendTopology writes, header included (for range checks).
size_t TopologyRecordBytes(const Topology& topology);
void AppendCorrelation(Bytes& out, uint64_t cpu_ns, uint64_t gpu_ticks);
void AppendSample(Bytes& out, std::span<const uint8_t> report);
// kReportLost or kBufferLost: a bare header.
void AppendLost(Bytes& out, RecordType type);

}  // namespace regemu::tools::oa_recording
