#include "examples/i915_perf/oa_buffer.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "examples/i915_perf/oa_regs.hpp"

namespace regemu::i915_perf {

OaBuffer::OaBuffer(GgttMemory& memory, uint32_t gtt_offset, uint32_t size, uint32_t report_size,
                   OaReportRules rules)
    : memory_(memory), gtt_offset_(gtt_offset), size_(size), report_size_(report_size), rules_(rules) {}

void OaBuffer::Reset() {
  head_ = 0;
  tail_ = 0;
  ZeroWrapped(0, size_);
}

bool OaBuffer::CheckTail(uint32_t hw_tail, bool walk_back) {
  hw_tail -= gtt_offset_;
  // The tail moves in 64-byte steps, not in reports: drop a report that has
  // only partly been claimed.
  uint32_t partial = Taken(hw_tail, tail_) % report_size_;
  hw_tail = Taken(hw_tail, partial);

  uint32_t tail = hw_tail;
  while (walk_back && Taken(tail, tail_) >= report_size_) {
    if (Landed(tail)) break;
    tail = (tail - report_size_) & (size_ - 1);
  }
  tail_ = tail;
  return Taken(tail_, head_) >= report_size_;
}

bool OaBuffer::AppendReports(std::vector<OaRecord>& records) {
  bool sent = false;
  for (; Taken(tail_, head_) != 0; head_ = (head_ + report_size_) & (size_ - 1)) {
    OaRecord sample{OaRecordType::kSample, std::vector<uint8_t>(report_size_)};
    ReadWrapped(head_, sample.report);
    const uint32_t report_id = ReportDword(sample.report, 0);
    if (rules_ == OaReportRules::kGen7 && report_id == 0) continue;  // spurious: never expected to be zero
    if (rules_ == OaReportRules::kGen8 && (report_id & gen8::kReportCtxValid) == 0) {
      // i915 squashes the id in the buffer and then copies; only the copy
      // is ever looked at again, so squashing the copy is the same.
      const uint32_t invalid = gen8::kInvalidCtxId;
      std::memcpy(sample.report.data() + 8, &invalid, sizeof invalid);
    }
    records.push_back(std::move(sample));
    sent = true;
    // Zero what the landed-report check looks at; a report size that does
    // not divide the buffer lands at other offsets after a wrap, so then
    // the whole report.
    ZeroWrapped(head_, std::has_single_bit(report_size_) ? 8 : report_size_);
  }
  return sent;
}

bool OaBuffer::Landed(uint32_t offset) {
  std::array<uint8_t, 8> id_and_timestamp{};
  ReadWrapped(offset, id_and_timestamp);
  return ReportDword(id_and_timestamp, 0) != 0 || ReportDword(id_and_timestamp, 1) != 0;
}

void OaBuffer::ReadWrapped(uint32_t offset, std::span<uint8_t> out) {
  const size_t first = std::min<size_t>(out.size(), size_ - offset);
  memory_.Read(gtt_offset_ + offset, out.first(first));
  if (first < out.size()) memory_.Read(gtt_offset_, out.subspan(first));
}

void OaBuffer::ZeroWrapped(uint32_t offset, uint32_t length) {
  static constexpr std::array<uint8_t, 64 * 1024> kZeros{};
  while (length > 0) {
    const uint32_t chunk = std::min({length, size_ - offset, static_cast<uint32_t>(kZeros.size())});
    memory_.Write(gtt_offset_ + offset, std::span(kZeros).first(chunk));
    offset = (offset + chunk) & (size_ - 1);
    length -= chunk;
  }
}

}  // namespace regemu::i915_perf
