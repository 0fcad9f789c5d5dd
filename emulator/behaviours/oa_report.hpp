#pragma once
// OA reports: a format's layout (regdb OaFormat) compiled to one entry per
// dword, and the composer of a unit's stream of reports.
//
// Reports are little-endian dwords: A counters cut to their width (40-bit
// ones as a low dword plus a high byte), B, C and the GPU ticks to 32 bits,
// the timestamp to its low 32 bits.

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "regemu/emulator/behaviours/oa_workload.hpp"
#include "regemu/regdb/behaviour_configs/oa_unit.hpp"

namespace regemu::emulator {

struct OaReportHeader {
  uint32_t report_id = 0;   // dword 0: reason and context-valid bits, or MI_RPC's id
  uint32_t context_id = 0;  // for a `context-id` piece
};

// What each dword of one format holds.
class OaReportLayout {
 public:
  static constexpr unsigned kMaxDwords = 64;  // 256 bytes
  static constexpr uint16_t kNowhere = 0xFFFF;

  OaReportLayout(const regdb::OaUnitConfig& config, const regdb::OaFormat& format);

  unsigned size() const { return static_cast<unsigned>(dwords_.size()) * 4; }
  void Compose(const OaReportHeader& header, const OaSample& sample, std::span<uint32_t, kMaxDwords> out) const;
  // Puts a new header, timestamp and GPU ticks into a composed report.
  void SetHeader(const OaReportHeader& header, uint64_t timestamp, uint64_t gpu_ticks,
                 std::span<uint32_t, kMaxDwords> out) const;
  // Puts a new value of counter `slot` into a composed report.
  void SetCounter(unsigned slot, uint64_t value, std::span<uint32_t, kMaxDwords> out) const;

 private:
  enum class Op : uint8_t { kZero, kReportId, kTimestamp, kContextId, kGpuTicks, kLow, kHighBytes };
  struct Dword {
    Op op = Op::kZero;
    uint8_t count = 0;  // kHighBytes: counters packed, from `slot`
    uint16_t slot = 0;  // kLow, kHighBytes
  };
  std::vector<Dword> dwords_;
  // Per counter slot: the dword of its low 32 bits and the byte of its bits
  // 39:32, or kNowhere.
  std::vector<uint16_t> low_dword_, high_byte_;
  // The header's dwords, or kNowhere.
  uint16_t report_id_ = kNowhere, timestamp_ = kNowhere, context_id_ = kNowhere, gpu_ticks_ = kNowhere;
};

// A unit's stream of timer and context-switch reports. Between two changes
// of the workload (one OaWorkload generation) only the header and the
// moving counters change, so a report of the same format as the previous
// one is that report with those dwords rewritten; anything else is composed
// in full.
class OaReportStream {
 public:
  explicit OaReportStream(const regdb::OaUnitConfig& config);

  // The next report, valid until the next call. `wrapped`: a counter with
  // a source crossed its width since the previous report.
  struct Report {
    std::span<const uint8_t> bytes;
    bool wrapped = false;
  };
  Report Next(const OaWorkload& workload, const regdb::OaFormat& format, const OaReportHeader& header,
              uint64_t t_ns);
  // A report outside the stream (MI_REPORT_PERF_COUNT); the stream is untouched.
  void Snapshot(const OaWorkload& workload, const regdb::OaFormat& format, const OaReportHeader& header,
                uint64_t t_ns, std::span<uint8_t> out) const;
  // The next report has no predecessor.
  void Reset() { have_previous_ = false; }

 private:
  const OaReportLayout& LayoutOf(const regdb::OaFormat& format) const;
  unsigned WidthOf(unsigned slot) const { return slot < config_->a_count ? config_->a_width : 32; }
  std::span<const uint8_t> Bytes(unsigned size) const;

  const regdb::OaUnitConfig* config_;
  // What the config alone decides, made once and shared by copies of the
  // stream: a device snapshot or restore copies no layout.
  struct Compiled {
    std::vector<OaReportLayout> layouts;  // one per config format, in order
    std::vector<uint16_t> sourced;        // slots with a source: the only ones that move
  };
  std::shared_ptr<const Compiled> compiled_;
  // The previous report, its counters and what it was composed under.
  bool have_previous_ = false;
  const regdb::OaFormat* format_ = nullptr;
  uint64_t generation_ = 0;
  std::array<uint32_t, OaReportLayout::kMaxDwords> dwords_{};
  std::array<uint64_t, OaSample::kMaxCounters> values_{};
};

}  // namespace regemu::emulator
