#include "regemu/emulator/behaviours/oa_report.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace regemu::emulator {
namespace {

using Kind = regdb::OaLayoutItem::Kind;

// Reports are little-endian; composing native dwords and copying them out
// as bytes is only right on a little-endian host.
static_assert(std::endian::native == std::endian::little, "OA reports are composed as native dwords");

uint32_t HighByte(uint64_t value) { return static_cast<uint8_t>(value >> 32); }

}  // namespace

// ----------------------------------------------------------------- layout

OaReportLayout::OaReportLayout(const regdb::OaUnitConfig& config, const regdb::OaFormat& format)
    : low_dword_(OaSample::kMaxCounters, kNowhere), high_byte_(OaSample::kMaxCounters, kNowhere) {
  auto here = [&] { return static_cast<uint16_t>(dwords_.size()); };
  for (const regdb::OaLayoutItem& item : format.layout) {
    switch (item.kind) {
      case Kind::kReportId: report_id_ = here(); dwords_.push_back({Op::kReportId}); break;
      case Kind::kTimestamp: timestamp_ = here(); dwords_.push_back({Op::kTimestamp}); break;
      case Kind::kContextId: context_id_ = here(); dwords_.push_back({Op::kContextId}); break;
      case Kind::kGpuTicks: gpu_ticks_ = here(); dwords_.push_back({Op::kGpuTicks}); break;
      case Kind::kReserved:
        for (unsigned i = 0; i < item.count; ++i) dwords_.push_back({Op::kZero});
        break;
      case Kind::kA:
      case Kind::kB:
      case Kind::kC: {
        regdb::OaCounterBank bank = item.kind == Kind::kA   ? regdb::OaCounterBank::kA
                                    : item.kind == Kind::kB ? regdb::OaCounterBank::kB
                                                            : regdb::OaCounterBank::kC;
        for (unsigned i = 0; i < item.count; ++i) {
          auto slot = static_cast<uint16_t>(OaCounterSlot(config, bank, item.first + i));
          low_dword_[slot] = here();
          dwords_.push_back({Op::kLow, 0, slot});
        }
        break;
      }
      case Kind::kAHigh:
        // Byte i of the piece is bits 39:32 of A(first + i).
        for (unsigned i = 0; i < item.count; i += 4) {
          for (unsigned b = 0; b < 4 && i + b < item.count; ++b) high_byte_[item.first + i + b] = static_cast<uint16_t>(4 * here() + b);
          dwords_.push_back({Op::kHighBytes, static_cast<uint8_t>(std::min(4u, item.count - i)),
                             static_cast<uint16_t>(item.first + i)});
        }
        break;
    }
  }
  // The config check makes the layout fill the format's size.
  dwords_.resize(std::min<size_t>(format.size / 4, kMaxDwords));
}

void OaReportLayout::Compose(const OaReportHeader& header, const OaSample& sample,
                             std::span<uint32_t, kMaxDwords> out) const {
  for (size_t i = 0; i < dwords_.size(); ++i) {
    const Dword& d = dwords_[i];
    uint32_t value = 0;
    switch (d.op) {
      case Op::kZero: break;
      case Op::kReportId: value = header.report_id; break;
      case Op::kTimestamp: value = static_cast<uint32_t>(sample.timestamp); break;
      case Op::kContextId: value = header.context_id; break;
      case Op::kGpuTicks: value = static_cast<uint32_t>(sample.gpu_ticks); break;
      case Op::kLow: value = static_cast<uint32_t>(sample.counters[d.slot]); break;
      case Op::kHighBytes:
        for (unsigned b = 0; b < d.count; ++b) value |= HighByte(sample.counters[d.slot + b]) << (8 * b);
        break;
    }
    out[i] = value;
  }
}

void OaReportLayout::SetHeader(const OaReportHeader& header, uint64_t timestamp, uint64_t gpu_ticks,
                               std::span<uint32_t, kMaxDwords> out) const {
  if (report_id_ != kNowhere) out[report_id_] = header.report_id;
  if (timestamp_ != kNowhere) out[timestamp_] = static_cast<uint32_t>(timestamp);
  if (context_id_ != kNowhere) out[context_id_] = header.context_id;
  if (gpu_ticks_ != kNowhere) out[gpu_ticks_] = static_cast<uint32_t>(gpu_ticks);
}

void OaReportLayout::SetCounter(unsigned slot, uint64_t value, std::span<uint32_t, kMaxDwords> out) const {
  if (uint16_t at = low_dword_[slot]; at != kNowhere) out[at] = static_cast<uint32_t>(value);
  if (uint16_t at = high_byte_[slot]; at != kNowhere) {
    unsigned shift = 8 * (at % 4);
    uint32_t& dword = out[at / 4];
    dword = (dword & ~(0xFFu << shift)) | HighByte(value) << shift;
  }
}

// ----------------------------------------------------------------- stream

OaReportStream::OaReportStream(const regdb::OaUnitConfig& config) : config_(&config) {
  auto compiled = std::make_shared<Compiled>();
  compiled->layouts.reserve(config.formats.size());
  for (const regdb::OaFormat& format : config.formats) compiled->layouts.emplace_back(config, format);
  std::vector<uint16_t>& sourced = compiled->sourced;
  for (const regdb::OaCounterSource& source : config.sources) {
    auto slot = static_cast<uint16_t>(OaCounterSlot(config, source.bank, source.index));
    if (std::find(sourced.begin(), sourced.end(), slot) == sourced.end()) sourced.push_back(slot);
  }
  compiled_ = std::move(compiled);
}

const OaReportLayout& OaReportStream::LayoutOf(const regdb::OaFormat& format) const {
  return compiled_->layouts[static_cast<size_t>(&format - config_->formats.data())];
}

std::span<const uint8_t> OaReportStream::Bytes(unsigned size) const {
  return {reinterpret_cast<const uint8_t*>(dwords_.data()), size};
}

OaReportStream::Report OaReportStream::Next(const OaWorkload& workload, const regdb::OaFormat& format,
                                            const OaReportHeader& header, uint64_t t_ns) {
  const OaReportLayout& layout = LayoutOf(format);
  Report report;
  if (have_previous_ && format_ == &format && generation_ == workload.generation()) {
    // Same format, same segment: only the moving counters changed.
    uint64_t clocks = workload.SegmentClocksAt(t_ns);
    layout.SetHeader(header, workload.TimestampAt(t_ns), workload.GpuTicksAt(t_ns), dwords_);
    uint64_t wrapped = 0;
    for (const OaWorkload::Moving& moving : workload.moving()) {
      uint64_t value = workload.base(moving.slot) + OaWorkload::Events(moving.micros, clocks);
      wrapped |= (value ^ values_[moving.slot]) >> WidthOf(moving.slot);
      values_[moving.slot] = value;
      layout.SetCounter(moving.slot, value, dwords_);
    }
    report.wrapped = wrapped != 0;
  } else {
    OaSample sample;
    workload.SampleAt(t_ns, sample);
    layout.Compose(header, sample, dwords_);
    if (have_previous_) {
      uint64_t wrapped = 0;
      for (uint16_t slot : compiled_->sourced) wrapped |= (sample.counters[slot] ^ values_[slot]) >> WidthOf(slot);
      report.wrapped = wrapped != 0;
    }
    values_ = sample.counters;
    have_previous_ = true;
    format_ = &format;
    generation_ = workload.generation();
  }
  report.bytes = Bytes(layout.size());
  return report;
}

void OaReportStream::Snapshot(const OaWorkload& workload, const regdb::OaFormat& format,
                              const OaReportHeader& header, uint64_t t_ns, std::span<uint8_t> out) const {
  const OaReportLayout& layout = LayoutOf(format);
  OaSample sample;
  workload.SampleAt(t_ns, sample);
  std::array<uint32_t, OaReportLayout::kMaxDwords> dwords{};
  layout.Compose(header, sample, dwords);
  std::memcpy(out.data(), dwords.data(), std::min<size_t>(out.size(), layout.size()));
}

}  // namespace regemu::emulator
