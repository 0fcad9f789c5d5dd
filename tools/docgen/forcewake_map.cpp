// The force-wake page: which domain powers which addresses, drawn to scale
// over the part of the space the domains cover, with the registers a driver
// writes to wake each one and polls for its ack.
#include <algorithm>

#include "regemu/regdb/behaviour_configs/forcewake.hpp"
#include "tools/docgen/behaviour_pictures.hpp"
#include "tools/docgen/power_domains.hpp"
#include "tools/docgen/html.hpp"

namespace regemu::docgen {
namespace {

constexpr PageDepth kDepth = PageDepth::kSubfolder;
constexpr int kWidth = 1000;
constexpr int kLane = 18;
constexpr int kLabel = 150;

}  // namespace

std::string ForcewakeMap(const Site& site, const regdb::BehaviourSpec& spec) {
  const auto* config = dynamic_cast<const regdb::ForcewakeConfig*>(spec.config.get());
  if (config == nullptr) return "";
  const regdb::Database& db = site.db();
  uint64_t end = 0;
  for (const auto& range : config->ranges) end = std::max(end, range.last + 1);
  if (end == 0) end = 1;
  auto x = [&](uint64_t offset) { return kLabel + static_cast<double>(offset) / static_cast<double>(end) * kWidth; };

  std::string out = "<h2>Power domains</h2>\n<p>" + std::to_string(config->domains.size()) + " domains over " +
                    Escape(db.spaces[config->space].name) + " " + Hex(0) + "\xE2\x80\x93" + Hex(end - 1) +
                    "; an ack follows a request after " + std::to_string(config->latency_ns) + " ns. A range needing "
                    "several domains needs all of them awake; an uncoloured stretch is always powered.</p>\n";
  int lanes = static_cast<int>(config->domains.size()) + 1;
  int height = lanes * kLane + 24;
  out += "<div class=\"picture\"><svg class=\"forcewake-map\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
         std::to_string(kLabel + kWidth + 10) + "\" height=\"" + std::to_string(height) + "\">\n";
  // Lane 0: the space's registers, as ticks.
  out += "<text class=\"lane-label\" x=\"0\" y=\"13\">registers</text>";
  out += "<rect class=\"lane-bg\" x=\"" + std::to_string(kLabel) + "\" y=\"2\" width=\"" + std::to_string(kWidth) +
         "\" height=\"" + std::to_string(kLane - 4) + "\"/>";
  int last_column = -1;
  for (const regdb::Register* reg : site.registers_in(config->space)) {
    if (reg->offset >= end) break;
    int column = static_cast<int>(x(reg->offset));
    if (column == last_column) continue;
    last_column = column;
    out += "<rect class=\"tick\" x=\"" + std::to_string(column) + "\" y=\"2\" width=\"1\" height=\"" +
           std::to_string(kLane - 4) + "\"/>";
  }
  for (size_t d = 0; d < config->domains.size(); ++d) {
    int y = static_cast<int>(d + 1) * kLane;
    out += "<g class=\"domain-lane\" data-domain=\"" + Escape(config->domains[d].name) + "\">";
    out += "<text class=\"lane-label\" x=\"0\" y=\"" + std::to_string(y + 13) + "\">" + Escape(config->domains[d].name) + "</text>";
    for (const regdb::ForcewakeConfig::Range* range : RangesPoweredBy(*config, d)) {
      out += "<rect class=\"domain\" fill=\"" + DomainColour(d) + "\" x=\"" + Coordinate(x(range->first)) + "\" y=\"" +
             std::to_string(y + 2) + "\" width=\"" + Coordinate(std::max(1.0, x(range->last + 1) - x(range->first))) +
             "\" height=\"" + std::to_string(kLane - 4) + "\"><title>" + Escape(config->domains[d].name) + ": " +
             Hex(range->first) + "\xE2\x80\x93" + Hex(range->last) +
             (range->domains.size() > 1 ? " (with " + std::to_string(range->domains.size() - 1) + " other domain(s))"
                                        : "") +
             "</title></rect>";
    }
    out += "</g>\n";
  }
  for (int q = 0; q <= 4; ++q) {
    uint64_t offset = end / 4 * static_cast<uint64_t>(q);
    out += "<text class=\"axis\" x=\"" + Coordinate(x(offset)) + "\" y=\"" + std::to_string(lanes * kLane + 16) +
           "\" text-anchor=\"" + (q == 0 ? "start" : q == 4 ? "end" : "middle") + "\">" + Hex(offset) + "</text>";
  }
  out += "</svg></div>\n";

  out += "<table class=\"domains\"><thead><tr><th></th><th>Domain</th><th>Request (masked)</th><th>Ack</th>"
         "<th>Ranges</th><th>Bytes powered</th></tr></thead><tbody>\n";
  for (size_t d = 0; d < config->domains.size(); ++d) {
    const auto& domain = config->domains[d];
    std::vector<const regdb::ForcewakeConfig::Range*> powered = RangesPoweredBy(*config, d);
    size_t ranges = powered.size();
    uint64_t bytes = 0;
    std::string list;
    for (size_t i = 0; i < powered.size(); ++i) {
      bytes += powered[i]->last - powered[i]->first + 1;
      if (i < 6) list += (i == 0 ? "" : ", ") + Hex(powered[i]->first) + "\xE2\x80\x93" + Hex(powered[i]->last);
    }
    if (ranges > 6) list += ", \xE2\x80\xA6";
    out += "<tr id=\"domain-" + Escape(domain.name) + "\"><td><span class=\"stripe\" style=\"background:" +
           DomainColour(d) + "\"></span></td><td>" + Escape(domain.name) + "</td><td>" +
           RegisterLink(kDepth, db.registers[domain.request].name) + "</td><td>" +
           RegisterLink(kDepth, db.registers[domain.ack].name) + "</td><td>" + std::to_string(ranges) + ": " + list +
           "</td><td class=\"num\">" + Hex(bytes) + "</td></tr>\n";
  }
  out += "</tbody></table>\n";
  if (!config->shadowed.empty()) {
    out += "<p>Shadowed (writable while their domain sleeps):";
    for (regdb::RegisterIndex reg : config->shadowed) out += " " + RegisterLink(kDepth, db.registers[reg].name);
    out += "</p>\n";
  }
  return out;
}

}  // namespace regemu::docgen
