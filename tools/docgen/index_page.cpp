// index.html and registers.js: the way into a device's map. The register
// list is data (registers.js, a script: file:// pages cannot fetch) that the
// page's script filters as the user types and renders a bounded number of
// matches from, so a 10,000-register device stays quick to search.
#include <cstdio>
#include <map>

#include "tools/docgen/html.hpp"
#include "tools/docgen/pages.hpp"
#include "tools/regemu/register_lookup.hpp"

namespace regemu::docgen {
namespace {

constexpr PageDepth kDepth = PageDepth::kRoot;
// Rendered without the script too, so the page is useful before it runs.
constexpr size_t kStaticRows = 300;  // as many as the script draws

std::string JsString(std::string_view text) {
  std::string out = "\"";
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '<') {
      out += "\\u003c";  // never "</script>" inside the data
    } else if (c < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::string Diagnostics(const Site& site) {
  const regdb::Diagnostics& diagnostics = site.loaded().diagnostics;
  std::string out = "<section id=\"diagnostics\">\n<h2>Database diagnostics</h2>\n";
  if (diagnostics.all().empty()) return out + "<p class=\"clean\">regemu check found no problem.</p>\n</section>\n";
  out += "<ul>\n";
  for (const regdb::Diagnostic& d : diagnostics.all()) {
    std::string where = site.SourceOf(d.loc);
    out += "<li class=\"diagnostic " + std::string(regdb::SeverityName(d.severity)) + "\"><b>" +
           regdb::SeverityName(d.severity) + "</b> " + (where.empty() ? "" : "<code>" + Escape(where) + "</code> ") +
           Escape(d.message) + "</li>\n";
  }
  return out + "</ul>\n</section>\n";
}

std::string Spaces(const Site& site) {
  const regdb::Database& db = site.db();
  std::string out = "<h2>Spaces</h2>\n<ul id=\"spaces\">\n";
  for (size_t i = 0; i < db.spaces.size(); ++i) {
    const regdb::Space& space = db.spaces[i];
    out += "<li><a href=\"" + Escape(SpaceHref(kDepth, space.name)) + "\">" + Escape(space.name) + "</a> " +
           std::string(regdb::SpaceKindName(space.kind)) + ", " + Hex(space.size) + (space.indexed() ? " indices" : " bytes") +
           ", " + std::to_string(site.registers_in(static_cast<regdb::SpaceIndex>(i)).size()) + " registers";
    if (!space.doc.empty()) out += " \xE2\x80\x94 " + Escape(tools::FirstLine(space.doc));
    out += "</li>\n";
  }
  return out + "</ul>\n";
}

std::string BlocksAndArrays(const Site& site) {
  const regdb::Database& db = site.db();
  // Arrays by template, in database order, with their first element.
  std::map<std::string, const regdb::Register*> arrays;
  std::vector<std::string> array_order;
  for (const regdb::Register& reg : db.registers) {
    if (!reg.array || reg.block) continue;
    if (arrays.emplace(reg.array->name_template, &reg).second) array_order.push_back(reg.array->name_template);
  }
  if (db.blocks.empty() && arrays.empty()) return "";
  std::string out = "<h2>Blocks and arrays</h2>\n<ul id=\"groups\">\n";
  for (const regdb::Block& block : db.blocks) {
    out += "<li>block <b>" + Escape(block.name) + "</b> in " + Escape(block.space_name) + ": ";
    for (size_t i = 0; i < block.instances.size(); ++i) {
      out += (i == 0 ? "" : ", ") + Escape(block.instances[i].name) + " at " + Hex(block.instances[i].base);
    }
    if (!block.doc.empty()) out += " \xE2\x80\x94 " + Escape(tools::FirstLine(block.doc));
    out += "</li>\n";
  }
  for (const std::string& name : array_order) {
    const regdb::Register& first = *arrays[name];
    out += "<li>array <b>" + Escape(name) + "</b>: " + std::to_string(first.array->count) + " registers from " +
           RegisterLink(kDepth, first.name) + " at " + Escape(first.space_name) + " " + Hex(first.array->first_offset) +
           ", stride " + Hex(first.array->stride) + "</li>\n";
  }
  return out + "</ul>\n";
}

std::string Behaviours(const Site& site) {
  const regdb::Database& db = site.db();
  std::string out = "<h2>Behaviours</h2>\n<ul id=\"behaviours\">\n";
  for (const regdb::BehaviourSpec& spec : db.behaviours) {
    out += "<li><a href=\"" + Escape(BehaviourHref(kDepth, spec.name)) + "\">" + Escape(spec.name) + "</a> (" +
           Escape(spec.kind) + ")</li>\n";
  }
  return out + "</ul>\n";
}

std::string RegisterRow(const regdb::Register& reg, const CoverageMarks& coverage) {
  std::string klass;
  if (coverage.enabled) klass = coverage.Of(reg.name) != nullptr ? " class=\"covered\"" : " class=\"uncovered\"";
  return "<li data-name=\"" + Escape(reg.name) + "\"" + klass + "><a href=\"" + Escape(RegisterHref(kDepth, reg.name)) +
         "\">" + Escape(reg.name) + "</a> <span class=\"at\">" + Escape(reg.space_name) + " " + Hex(reg.offset) +
         "</span> <span class=\"summary\">" + Escape(tools::FirstLine(reg.doc)) + "</span></li>\n";
}

}  // namespace

std::string IndexPage(const Site& site, const CoverageMarks& coverage) {
  const regdb::Database& db = site.db();
  PageFrame frame{db.device + " register map", db.device, kDepth, /*search_data=*/true};
  std::string out = PageStart(frame);
  out += "<h1>" + Escape(db.device) + " register map</h1>\n";
  if (!db.doc.empty()) out += "<p>" + Escape(db.doc) + "</p>\n";
  if (!db.ref.empty()) out += "<p class=\"ref\">Reference: " + Escape(db.ref) + "</p>\n";
  out += "<p class=\"stats\">" + std::to_string(db.spaces.size()) + " spaces, " + std::to_string(db.registers.size()) +
         " registers, " + std::to_string(db.ranges.size()) + " ranges, " + std::to_string(db.behaviours.size()) +
         " behaviours</p>\n";
  // Two columns: the searchable register list beside the device's overview.
  out += "<div class=\"index-grid\">\n<aside class=\"finder\">\n<h2>Registers</h2>\n";
  out += "<input id=\"search\" type=\"search\" placeholder=\"Filter: name or 0x offset\" autocomplete=\"off\" "
         "aria-label=\"Filter registers\">\n";
  size_t shown = std::min(kStaticRows, db.registers.size());
  out += "<p id=\"match-count\">" + std::to_string(db.registers.size()) + " registers" +
         (shown < db.registers.size() ? ", first " + std::to_string(shown) + " shown" : "") + "</p>\n";
  out += "<ul id=\"register-list\">\n";
  for (size_t i = 0; i < shown; ++i) out += RegisterRow(db.registers[i], coverage);
  out += "</ul>\n</aside>\n<div class=\"overview\">\n";
  if (coverage.enabled) out += coverage.summary_html;
  out += Diagnostics(site);
  out += Spaces(site);
  out += Behaviours(site);
  out += BlocksAndArrays(site);
  out += "</div>\n</div>\n";
  out += PageEnd(frame);
  return out;
}

std::string RegisterListScript(const Site& site, const CoverageMarks& coverage) {
  // [name, space, offset, summary, coverage: 1 touched, 0 untouched, -1 no coverage]
  std::string out = "// Generated by regemu doc: the register list the index's search filters.\n"
                    "window.REGEMU_REGISTERS = [\n";
  for (const regdb::Register& reg : site.db().registers) {
    int covered = coverage.enabled ? (coverage.Of(reg.name) != nullptr ? 1 : 0) : -1;
    out += "[" + JsString(reg.name) + "," + JsString(reg.space_name) + "," + JsString(Hex(reg.offset)) + "," +
           JsString(tools::FirstLine(reg.doc)) + "," + std::to_string(covered) + "],\n";
  }
  out += "];\n";
  return out;
}

}  // namespace regemu::docgen
