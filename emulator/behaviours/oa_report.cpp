#include "emulator/behaviours/oa_report.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

namespace regemu::emulator {
namespace {

using Kind = regdb::OaLayoutItem::Kind;

// Reports are little-endian; composing native dwords and copying them out
// once is only right on a little-endian host.
static_assert(std::endian::native == std::endian::little, "OA reports are composed as native dwords");

}  // namespace

void ComposeOaReport(const regdb::OaFormat& format, const OaReportHeader& header, const OaSample& sample,
                     std::span<uint8_t> out) {
  // Composed in a local dword array: stores through `out` (bytes, which may
  // alias anything) would make the compiler reload the sample each time.
  std::array<uint32_t, 64> dwords;
  unsigned at = 0;
  for (const regdb::OaLayoutItem& item : format.layout) {
    const unsigned first = item.first, count = item.count;
    switch (item.kind) {
      case Kind::kReportId: dwords[at] = header.report_id; break;
      case Kind::kTimestamp: dwords[at] = static_cast<uint32_t>(sample.timestamp); break;
      case Kind::kContextId: dwords[at] = header.context_id; break;
      case Kind::kGpuTicks: dwords[at] = static_cast<uint32_t>(sample.gpu_ticks); break;
      case Kind::kReserved:
        for (unsigned i = 0; i < count; ++i) dwords[at + i] = 0;
        break;
      case Kind::kA:
        for (unsigned i = 0; i < count; ++i) dwords[at + i] = static_cast<uint32_t>(sample.a[first + i]);
        break;
      case Kind::kB:
        for (unsigned i = 0; i < count; ++i) dwords[at + i] = static_cast<uint32_t>(sample.b[first + i]);
        break;
      case Kind::kC:
        for (unsigned i = 0; i < count; ++i) dwords[at + i] = static_cast<uint32_t>(sample.c[first + i]);
        break;
      case Kind::kAHigh:
        // Byte i of the piece is bits 39:32 of A(first + i).
        for (unsigned d = 0; d < item.Bytes() / 4; ++d) {
          uint32_t packed = 0;
          for (unsigned b = 0; b < 4; ++b) {
            unsigned i = 4 * d + b;
            if (i < count) packed |= static_cast<uint32_t>(static_cast<uint8_t>(sample.a[first + i] >> 32)) << (8 * b);
          }
          dwords[at + d] = packed;
        }
        break;
    }
    at += item.Bytes() / 4;
  }
  std::memcpy(out.data(), dwords.data(), std::min<size_t>(out.size(), size_t{at} * 4));
}

}  // namespace regemu::emulator
