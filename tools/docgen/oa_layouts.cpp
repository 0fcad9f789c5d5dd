// The OA unit's page: each report format as the bytes of one report (what
// i915-perf readers decode), and what each counter counts in the workload model.
#include <algorithm>
#include <cstdio>

#include "regemu/regdb/behaviour_configs/oa_unit.hpp"
#include "tools/docgen/behaviour_pictures.hpp"
#include "tools/docgen/html.hpp"

namespace regemu::docgen {
namespace {

constexpr int kDwordW = 56;
constexpr int kDwordsPerRow = 16;
constexpr int kRowH = 34;

using Kind = regdb::OaLayoutItem::Kind;

const char* KindClass(Kind kind) {
  switch (kind) {
    case Kind::kReportId: return "oa-id";
    case Kind::kTimestamp: return "oa-time";
    case Kind::kContextId: return "oa-ctx";
    case Kind::kGpuTicks: return "oa-ticks";
    case Kind::kReserved: return "oa-rsvd";
    case Kind::kA: return "oa-a";
    case Kind::kAHigh: return "oa-ahigh";
    case Kind::kB: return "oa-b";
    case Kind::kC: return "oa-c";
  }
  return "oa-rsvd";
}

std::string KindLabel(const regdb::OaLayoutItem& item) {
  auto range = [&](const char* bank) {
    return std::string(bank) + std::to_string(item.first) +
           (item.count > 1 ? "\xE2\x80\x93" + std::string(bank) + std::to_string(item.first + item.count - 1) : "");
  };
  switch (item.kind) {
    case Kind::kReportId: return "RPT_ID";
    case Kind::kTimestamp: return "TIME";  // TIMESTAMP does not fit one dword's box
    case Kind::kContextId: return "CTX_ID";
    case Kind::kGpuTicks: return "TICKS";
    case Kind::kReserved: return "reserved";
    case Kind::kA: return range("A");
    case Kind::kAHigh: return range("A") + " [39:32]";
    case Kind::kB: return range("B");
    case Kind::kC: return range("C");
  }
  return "";
}

std::string FormatPicture(const regdb::OaFormat& format) {
  unsigned dwords = format.size / 4;
  int rows = static_cast<int>((dwords + kDwordsPerRow - 1) / kDwordsPerRow);
  std::string out = "<svg class=\"oa-layout\" data-format=\"" + Escape(format.name) +
                    "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(kDwordsPerRow * kDwordW + 60) +
                    "\" height=\"" + std::to_string(rows * kRowH + 4) + "\">\n";
  for (int r = 0; r < rows; ++r) {
    out += "<text class=\"axis\" x=\"0\" y=\"" + std::to_string(r * kRowH + 20) + "\">" + Hex(static_cast<uint64_t>(r) * kDwordsPerRow * 4) + "</text>";
  }
  unsigned dword = 0;
  for (const regdb::OaLayoutItem& item : format.layout) {
    unsigned count = item.Bytes() / 4;
    std::string label = KindLabel(item);
    // An item may wrap rows: one rect per row piece, the label on the first.
    out += "<g class=\"oa-item\"><title>" + Escape(label == "TIME" ? "TIMESTAMP" : label == "TICKS" ? "GPU_TICKS" : label) + ": bytes " + std::to_string(dword * 4) + "\xE2\x80\x93" +
           std::to_string((dword + count) * 4 - 1) + "</title>";
    bool labelled = false;
    for (unsigned d = dword; d < dword + count;) {
      unsigned row = d / kDwordsPerRow;
      unsigned in_row = std::min(dword + count, (row + 1) * kDwordsPerRow) - d;
      int x = 60 + static_cast<int>(d % kDwordsPerRow) * kDwordW;
      int y = static_cast<int>(row) * kRowH + 2;
      int w = static_cast<int>(in_row) * kDwordW;
      out += "<rect class=\"" + std::string(KindClass(item.kind)) + "\" x=\"" + std::to_string(x) + "\" y=\"" +
             std::to_string(y) + "\" width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(kRowH - 6) + "\"/>";
      if (!labelled && static_cast<double>(label.size()) * 6.2 < w) {
        out += "<text class=\"fieldname\" x=\"" + std::to_string(x + w / 2) + "\" y=\"" + std::to_string(y + 18) + "\">" +
               Escape(label) + "</text>";
        labelled = true;
      }
      d += in_row;
    }
    out += "</g>\n";
    dword += count;
  }
  return out + "</svg>\n";
}

const char* BankName(regdb::OaCounterBank bank) {
  return bank == regdb::OaCounterBank::kA ? "A" : bank == regdb::OaCounterBank::kB ? "B" : "C";
}

}  // namespace

std::string OaReportLayouts(const Site&, const regdb::BehaviourSpec& spec) {
  const auto* config = dynamic_cast<const regdb::OaUnitConfig*>(spec.config.get());
  if (config == nullptr) return "";
  std::string out = "<h2>Report formats</h2>\n<p>" + std::to_string(config->formats.size()) +
                    " formats; each picture is one report, 16 dwords a row, as the unit writes it into the OA buffer. "
                    "A counters are " + std::to_string(config->a_width) + " bits wide (" + std::to_string(config->a_count) +
                    " of them), B " + std::to_string(config->b_count) + ", C " + std::to_string(config->c_count) + ".</p>\n";
  for (const regdb::OaFormat& format : config->formats) {
    out += "<h3 id=\"format-" + Escape(format.name) + "\">" + Escape(format.name) + " <span class=\"marker\">select " +
           std::to_string(format.code) + ", " + std::to_string(format.size) + " bytes</span></h3>\n";
    out += "<div class=\"picture\">" + FormatPicture(format) + "</div>\n";
  }
  out += "<h2>Counters</h2>\n<p>What each counter counts in the workload model, per GPU clock.</p>\n";
  out += "<table class=\"counters\"><thead><tr><th>Counter</th><th>Signal</th><th>Scale</th><th>Per EU</th></tr></thead><tbody>\n";
  for (const regdb::OaCounterSource& source : config->sources) {
    const regdb::OaSignal& signal = config->signals.at(source.signal);
    char scale[32];
    std::snprintf(scale, sizeof scale, "%g", static_cast<double>(source.scale_micros) / 1e6);
    out += "<tr><td>" + std::string(BankName(source.bank)) + std::to_string(source.index) + "</td><td>" +
           Escape(signal.name) + (signal.fraction ? " (share of cycles)" : "") + "</td><td class=\"num\">" + scale +
           "</td><td>" + (source.per_eu ? "\xC3\x97 " + std::to_string(config->eu_count()) + " EUs" : "") + "</td></tr>\n";
  }
  return out + "</tbody></table>\n";
}

}  // namespace regemu::docgen
