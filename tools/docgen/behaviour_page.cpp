// b/NAME.html: a behaviour: its kind, where it is defined, its picture where
// the kind has one (behaviour_pictures.hpp), the registers its YAML names,
// and, with coverage, which of its paths the tests ran.
#include "tools/docgen/behaviour_pictures.hpp"
#include "tools/docgen/html.hpp"
#include "tools/docgen/pages.hpp"

namespace regemu::docgen {
namespace {

constexpr PageDepth kDepth = PageDepth::kSubfolder;

std::string CoveragePoints(const CoverageMarks& coverage, const regdb::BehaviourSpec& spec) {
  if (!coverage.enabled) return "";
  auto found = coverage.behaviours.find(spec.name);
  if (found == coverage.behaviours.end() || found->second.empty()) {
    return "<h2>Coverage</h2>\n<p class=\"uncovered\">The coverage records no path of this behaviour.</p>\n";
  }
  std::string out = "<h2>Coverage</h2>\n<table class=\"points\"><thead><tr><th>Path</th><th>Point</th><th>Hits</th></tr>"
                    "</thead><tbody>\n";
  for (const PointMark& point : found->second) {
    out += "<tr class=\"" + std::string(point.hits != 0 ? "covered" : "uncovered") + "\"><td>" + Escape(point.group) +
           "</td><td>" + Escape(point.name) + "</td><td class=\"num\">" + std::to_string(point.hits) + "</td></tr>\n";
  }
  return out + "</tbody></table>\n";
}

}  // namespace

std::string BehaviourPage(const Site& site, const regdb::BehaviourSpec& spec, const CoverageMarks& coverage) {
  const regdb::Database& db = site.db();
  PageFrame frame{spec.name + " (" + spec.kind + ") \xE2\x80\x94 " + db.device, db.device, kDepth};
  std::string out = PageStart(frame);
  out += "<h1>" + Escape(spec.name) + " <span class=\"marker\">" + Escape(spec.kind) + "</span></h1>\n";
  if (std::string source = site.SourceOf(spec.loc); !source.empty()) {
    out += "<p class=\"source\">Defined at <code>" + Escape(source) + "</code>; yaml/README.md describes kind <code>" +
           Escape(spec.kind) + "</code>.</p>\n";
  }
  out += ForcewakeMap(site, spec);
  out += Gen11InterruptTree(site, spec);
  out += OaReportLayouts(site, spec);
  out += EventCatalog(site, spec);
  out += ReactionTable(site, spec);
  out += FifoTable(site, spec);
  out += I2cBusTable(site, spec);
  out += CoveragePoints(coverage, spec);
  size_t index = static_cast<size_t>(&spec - db.behaviours.data());
  const std::vector<const regdb::Register*>& named = site.registers_named_by(index);
  out += "<h2>Registers it names</h2>\n";
  if (named.empty()) {
    out += "<p>None by name.</p>\n";
  } else {
    out += "<ul class=\"columns\">\n";
    for (const regdb::Register* reg : named) {
      out += "<li>" + RegisterLink(kDepth, reg->name) + " <span class=\"at\">" + Escape(reg->space_name) + " " +
             Hex(reg->offset) + "</span></li>\n";
    }
    out += "</ul>\n";
  }
  out += PageEnd(frame);
  return out;
}

}  // namespace regemu::docgen
