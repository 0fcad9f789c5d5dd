#include "emulator/behaviours/oa_report.hpp"

#include <cstring>

namespace regemu::emulator {
namespace {

using Kind = regdb::OaLayoutItem::Kind;

inline void Put32(uint8_t* at, uint64_t value) {
  uint32_t v = static_cast<uint32_t>(value);
  at[0] = static_cast<uint8_t>(v);
  at[1] = static_cast<uint8_t>(v >> 8);
  at[2] = static_cast<uint8_t>(v >> 16);
  at[3] = static_cast<uint8_t>(v >> 24);
}

}  // namespace

void ComposeOaReport(const regdb::OaFormat& format, const OaReportHeader& header, const OaSample& sample,
                     std::span<uint8_t> out) {
  uint8_t* at = out.data();
  for (const regdb::OaLayoutItem& item : format.layout) {
    switch (item.kind) {
      case Kind::kReportId: Put32(at, header.report_id); break;
      case Kind::kTimestamp: Put32(at, sample.timestamp); break;
      case Kind::kContextId: Put32(at, header.context_id); break;
      case Kind::kGpuTicks: Put32(at, sample.gpu_ticks); break;
      case Kind::kReserved: std::memset(at, 0, item.Bytes()); break;
      case Kind::kA:
        for (unsigned i = 0; i < item.count; ++i) Put32(at + 4 * i, sample.a[item.first + i]);
        break;
      case Kind::kB:
        for (unsigned i = 0; i < item.count; ++i) Put32(at + 4 * i, sample.b[item.first + i]);
        break;
      case Kind::kC:
        for (unsigned i = 0; i < item.count; ++i) Put32(at + 4 * i, sample.c[item.first + i]);
        break;
      case Kind::kAHigh:
        std::memset(at, 0, item.Bytes());
        for (unsigned i = 0; i < item.count; ++i) at[i] = static_cast<uint8_t>(sample.a[item.first + i] >> 32);
        break;
    }
    at += item.Bytes();
  }
}

}  // namespace regemu::emulator
