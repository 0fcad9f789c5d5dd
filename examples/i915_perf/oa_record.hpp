#pragma once
// What a read of an OA stream returns, as i915's read() stream does: a
// sequence of records, each a sample (one raw report) or a status marker
// (DRM_I915_PERF_RECORD_*, uAPI i915_drm.h). And how a report's dwords
// and counters are found (i915_perf.c oa_formats; IGT/Mesa accumulate the same
// offsets).

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace regemu::i915_perf {

enum class OaRecordType : uint16_t {
  kSample = 1,      // DRM_I915_PERF_RECORD_SAMPLE: `report` holds one report
  kReportLost = 2,  // DRM_I915_PERF_RECORD_OA_REPORT_LOST
  kBufferLost = 3,  // DRM_I915_PERF_RECORD_OA_BUFFER_LOST
};

struct OaRecord {
  OaRecordType type = OaRecordType::kSample;
  std::vector<uint8_t> report;  // samples only
};

inline uint32_t ReportDword(std::span<const uint8_t> report, unsigned index) {
  uint32_t dword = 0;
  std::memcpy(&dword, report.data() + size_t{index} * 4, sizeof dword);
  return dword;
}

// Both formats begin with the report id (reason bits 24:19), the timestamp
// and, on Gen8+, the context id and the GPU tick count.
inline uint32_t ReportReason(std::span<const uint8_t> report) { return (ReportDword(report, 0) >> 19) & 0x3F; }
inline constexpr uint32_t kReasonTimer = 1u << 0;
inline constexpr uint32_t kReasonContextSwitch = 1u << 3;
inline uint32_t ReportTimestamp(std::span<const uint8_t> report) { return ReportDword(report, 1); }

// Gen8+ A32u40_A4u32_B8_C8: A0..A31 are 40 bits (low dwords from byte 16,
// high bytes from byte 160), A32..A35 32 bits, B at byte 192, C at 224.
inline uint32_t Gen8ContextId(std::span<const uint8_t> report) { return ReportDword(report, 2); }
inline uint32_t Gen8GpuTicks(std::span<const uint8_t> report) { return ReportDword(report, 3); }
inline uint64_t Gen8A(std::span<const uint8_t> report, unsigned index) {
  uint64_t low = ReportDword(report, 4 + index);
  return index < 32 ? low | uint64_t{report[160 + index]} << 32 : low;
}
inline uint32_t Gen8B(std::span<const uint8_t> report, unsigned index) { return ReportDword(report, 48 + index); }
inline uint32_t Gen8C(std::span<const uint8_t> report, unsigned index) { return ReportDword(report, 56 + index); }

// HSW A45_B8_C8: A0..A44 from dword 3, B from dword 48, C from dword 56
// (C2 counts GPU clocks).
inline uint32_t HswA(std::span<const uint8_t> report, unsigned index) { return ReportDword(report, 3 + index); }
inline uint32_t HswB(std::span<const uint8_t> report, unsigned index) { return ReportDword(report, 48 + index); }
inline uint32_t HswC(std::span<const uint8_t> report, unsigned index) { return ReportDword(report, 56 + index); }

}  // namespace regemu::i915_perf
