#include "tools/regemu/oa_recording_records.hpp"

#include <algorithm>

namespace regemu::tools::oa_recording {
namespace {

void AppendLittleEndian(Bytes& out, uint64_t value, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

void AppendU16(Bytes& out, uint64_t value) { AppendLittleEndian(out, value, 2); }
void AppendU32(Bytes& out, uint64_t value) { AppendLittleEndian(out, value, 4); }
void AppendU64(Bytes& out, uint64_t value) { AppendLittleEndian(out, value, 8); }

// drm_i915_perf_record_header; `payload_bytes` excludes the header.
void AppendHeader(Bytes& out, RecordType type, size_t payload_bytes) {
  AppendU32(out, static_cast<uint32_t>(type));
  AppendU16(out, 0);
  AppendU16(out, kHeaderBytes + payload_bytes);
}

// A fixed-size char array: the text, then NULs.
void AppendCString(Bytes& out, const std::string& text, size_t size) {
  size_t kept = std::min(text.size(), size - 1);
  out.insert(out.end(), text.begin(), text.begin() + static_cast<std::ptrdiff_t>(kept));
  out.insert(out.end(), size - kept, 0);
}

// `bits` set bits, low bit first, in `bytes` bytes: every unit present.
void AppendMask(Bytes& out, unsigned bits, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) {
    unsigned in_byte = bits > 8 * i ? std::min(8u, bits - static_cast<unsigned>(8 * i)) : 0;
    out.push_back(static_cast<uint8_t>((1u << in_byte) - 1));
  }
}

size_t BytesForBits(unsigned bits) { return (bits + 7) / 8; }
size_t AlignTo8(size_t bytes) { return (bytes + 7) / 8 * 8; }

// drm_i915_query_topology_info: a 16-byte header, then the slice mask, one
// subslice mask per slice and one EU mask per subslice.
struct TopologyShape {
  size_t subslice_offset, subslice_stride, eu_offset, eu_stride, data_bytes;
};

TopologyShape ShapeOf(const Topology& t) {
  TopologyShape shape{};
  shape.subslice_offset = BytesForBits(t.slices);
  shape.subslice_stride = BytesForBits(t.subslices_per_slice);
  shape.eu_offset = shape.subslice_offset + t.slices * shape.subslice_stride;
  shape.eu_stride = BytesForBits(t.eus_per_subslice);
  shape.data_bytes = shape.eu_offset + size_t{t.slices} * t.subslices_per_slice * shape.eu_stride;
  return shape;
}

constexpr size_t kTopologyHeaderBytes = 16;

}  // namespace

void AppendVersion(Bytes& out) {
  AppendHeader(out, RecordType::kVersion, 8);
  AppendU32(out, kRecordingVersion);
  AppendU32(out, 0);
}

void AppendDeviceInfo(Bytes& out, const DeviceInfo& info) {
  AppendHeader(out, RecordType::kDeviceInfo, kDeviceInfoRecordBytes - kHeaderBytes);
  AppendU64(out, info.timestamp_hz);
  AppendU32(out, info.device_id);
  AppendU32(out, info.device_revision);
  AppendU32(out, info.gt_min_hz);
  AppendU32(out, info.gt_max_hz);
  AppendU32(out, info.engine_class);
  AppendU32(out, info.engine_instance);
  AppendU32(out, info.oa_format);
  AppendCString(out, info.metric_set_name, kMetricSetNameBytes);
  AppendCString(out, info.metric_set_uuid, kMetricSetUuidBytes);
  AppendU32(out, 0);  // pad: the struct is 8-byte aligned
}

size_t TopologyRecordBytes(const Topology& topology) {
  return kHeaderBytes + AlignTo8(kTopologyHeaderBytes + ShapeOf(topology).data_bytes);
}

void AppendTopology(Bytes& out, const Topology& t) {
  TopologyShape shape = ShapeOf(t);
  size_t payload = AlignTo8(kTopologyHeaderBytes + shape.data_bytes);
  AppendHeader(out, RecordType::kTopology, payload);
  AppendU16(out, 0);  // flags
  AppendU16(out, t.slices);
  AppendU16(out, t.subslices_per_slice);
  AppendU16(out, t.eus_per_subslice);
  AppendU16(out, shape.subslice_offset);
  AppendU16(out, shape.subslice_stride);
  AppendU16(out, shape.eu_offset);
  AppendU16(out, shape.eu_stride);
  AppendMask(out, t.slices, shape.subslice_offset);
  for (unsigned s = 0; s < t.slices; ++s) AppendMask(out, t.subslices_per_slice, shape.subslice_stride);
  for (size_t ss = 0; ss < size_t{t.slices} * t.subslices_per_slice; ++ss) {
    AppendMask(out, t.eus_per_subslice, shape.eu_stride);
  }
  out.insert(out.end(), payload - kTopologyHeaderBytes - shape.data_bytes, 0);
}

void AppendCorrelation(Bytes& out, uint64_t cpu_ns, uint64_t gpu_ticks) {
  AppendHeader(out, RecordType::kCorrelation, 16);
  AppendU64(out, cpu_ns);
  AppendU64(out, gpu_ticks);
}

void AppendSample(Bytes& out, std::span<const uint8_t> report) {
  AppendHeader(out, RecordType::kSample, report.size());
  out.insert(out.end(), report.begin(), report.end());
}

void AppendLost(Bytes& out, RecordType type) { AppendHeader(out, type, 0); }

}  // namespace regemu::tools::oa_recording
