// r/NAME.html: one register as a driver author wants it on one screen: where
// it is (every space and window), what it is (doc, ref, markers), its bits as
// a picture and as a table, and what else in the database names it.
#include <algorithm>
#include <set>

#include "regemu/regdb/access.hpp"
#include "tools/docgen/bitfield_svg.hpp"
#include "tools/docgen/behaviour_pictures.hpp"
#include "tools/docgen/html.hpp"
#include "tools/docgen/pages.hpp"
#include "tools/docgen/policy_palette.hpp"
#include "tools/regemu/register_lookup.hpp"

namespace regemu::docgen {
namespace {

constexpr PageDepth kDepth = PageDepth::kSubfolder;

std::string Paragraphs(std::string_view doc) {
  std::string out;
  size_t start = 0;
  while (start < doc.size()) {
    size_t end = doc.find("\n\n", start);
    if (end == std::string_view::npos) end = doc.size();
    std::string_view para = doc.substr(start, end - start);
    if (!para.empty()) out += "<p>" + Escape(para) + "</p>\n";
    start = end + 2;
  }
  return out;
}

std::string Markers(const regdb::Register& reg) {
  std::string out;
  if (reg.is_volatile) out += "<span class=\"marker volatile\" title=\"hardware changes it: reads may differ\">volatile</span> ";
  if (reg.masked) {
    out += "<span class=\"marker masked\" title=\"bits 31:16 of a write select which of bits 15:0 change\">masked</span> ";
  }
  if (!reg.write_gate_text.IsNull()) {
    out += "<span class=\"marker gate\">" + Escape(tools::WriteGateText(reg.write_gate_text, reg.write_gate)) +
           "</span> ";
  }
  if (!reg.alias_of.empty()) out += "<span class=\"marker alias\">alias of " + RegisterLink(kDepth, reg.alias_of) + "</span> ";
  if (!reg.view_of.empty()) out += "<span class=\"marker alias\">view of " + RegisterLink(kDepth, reg.view_of) + "</span> ";
  if (reg.banked()) {
    // Split and banked registers: which accesses at the shared place reach this one.
    std::string what = reg.decode == regdb::DecodeDirection::kRead    ? "reads"
                       : reg.decode == regdb::DecodeDirection::kWrite ? "writes"
                                                                        : "reads and writes";
    if (!reg.decode_when.IsNull()) what += " while " + reg.decode_when.text;
    out += "<span class=\"marker banked\" title=\"shares its place with other registers\">decodes " + Escape(what) +
           "</span> ";
  }
  return out;
}

std::string PlacesTable(const Site& site, const regdb::Register& reg) {
  const regdb::Database& db = site.db();
  std::string out = "<table class=\"places\"><thead><tr><th>Space</th><th>Offset</th><th>Through</th></tr></thead><tbody>\n";
  out += "<tr><td><a href=\"" + Escape(SpaceHref(kDepth, reg.space_name)) + "\">" + Escape(reg.space_name) +
         "</a></td><td class=\"num\">" + Hex(reg.offset) + "</td><td>its own space</td></tr>\n";
  for (const WindowView& view : site.windows_of(db.IndexOf(reg))) {
    const regdb::Range& window = *view.window;
    std::string through = "window <b>" + Escape(window.name) + "</b> (" + Hex(window.base) + "\xE2\x80\x93" +
                          Hex(window.base + window.size - 1) + ", " +
                          (window.writes == regdb::AliasWrites::kForward ? "writes forwarded" : "read-only view") + ")";
    if (window.enabled_by) through += ", decoded while " + Escape(window.enabled_by->text) + " is set";
    out += "<tr><td><a href=\"" + Escape(SpaceHref(kDepth, window.space_name)) + "\">" + Escape(window.space_name) +
           "</a></td><td class=\"num\">" + Hex(view.offset) + "</td><td>" + through + "</td></tr>\n";
  }
  out += "</tbody></table>\n";
  return out;
}

std::string EnumValues(const regdb::Field& field) {
  if (field.values.empty()) return "";
  std::string out = "<ul class=\"enum\">";
  for (const regdb::EnumValue& value : field.values) {
    out += "<li><code>" + Hex(value.value) + "</code> " + Escape(value.name);
    if (!value.doc.empty()) out += " \xE2\x80\x94 " + Escape(tools::FirstLine(value.doc));
    out += "</li>";
  }
  return out + "</ul>";
}

// The coverage marks of the register's fields: the run's, or, for a
// register no test touched, every field uncovered.
FieldMarks FieldMarksOf(const regdb::Register& reg, const CoverageMarks& coverage, const RegisterMark* mark) {
  if (!coverage.enabled) return {};
  if (mark != nullptr) return mark->fields;
  FieldMarks marks;
  for (const regdb::Field& field : reg.fields) marks[field.name] = {"uncovered", "no test read or wrote the register"};
  return marks;
}

// With `marks` non-null, a coverage column.
std::string FieldTable(const regdb::Register& reg, const FieldMarks* marks) {
  std::string out = "<table class=\"fields\"><thead><tr><th>Bits</th><th>Field</th><th>Policy</th><th>Reset</th>"
                    "<th>Values</th><th>Description</th>";
  if (marks != nullptr) out += "<th>Coverage</th>";
  out += "</tr></thead><tbody>\n";
  for (const regdb::Field* field : tools::HighBitFirst(reg)) {
    const FieldMark* fm = nullptr;
    if (marks != nullptr) {
      auto found = marks->find(field->name);
      if (found != marks->end()) fm = &found->second;
    }
    out += "<tr class=\"field-row" + (fm != nullptr ? " " + fm->css_class : std::string()) + "\" id=\"field-" +
           Escape(field->name) + "\">";
    out += "<td class=\"num\">" + tools::BitsText(*field) + "</td>";
    out += "<td><a class=\"anchor\" href=\"#field-" + Escape(field->name) + "\">" + Escape(field->name) + "</a>";
    if (field->is_volatile) out += " <span class=\"marker volatile\">volatile</span>";
    if (!field->value_text.IsNull()) {
      out += " <span class=\"marker computed\" title=\"its value is this expression, kept up to date\">= " +
             Escape(tools::ComputedText(*field)) + "</span>";
    }
    if (!field->write_gate_text.IsNull()) {
      out += " <span class=\"marker gate\">" +
             Escape(tools::WriteGateText(field->write_gate_text, field->write_gate)) + "</span>";
    }
    out += "</td>";
    out += "<td><span class=\"swatch " + std::string(FamilyOf(field->access).css_class) + "\"></span>" +
           Escape(PolicyInWords(field->access)) + "</td>";
    out += "<td class=\"num\">" + Hex(tools::FieldValue(*field, reg.reset)) + "</td>";
    out += "<td>" + EnumValues(*field) + "</td>";
    out += "<td>" + Paragraphs(field->doc) + "</td>";
    if (marks != nullptr) out += "<td>" + Escape(fm != nullptr ? fm->hover : "") + "</td>";
    out += "</tr>\n";
  }
  if (uint64_t rest = tools::UnfieldedBits(reg); rest != 0) {
    out += "<tr class=\"gap-row\"><td class=\"num\">" + Hex(rest) + "</td><td><i>bits in no field</i></td><td>" +
           "<span class=\"swatch " + std::string(FamilyOf(reg.default_access).css_class) + "\"></span>" +
           Escape(PolicyInWords(reg.default_access)) + "</td><td class=\"num\">" + Hex(reg.reset & rest) +
           "</td><td></td><td></td>" + (marks != nullptr ? "<td></td>" : "") + "</tr>\n";
  }
  out += "</tbody></table>\n";
  return out;
}

std::string UsersList(const Site& site, const regdb::Register& reg) {
  const regdb::Database& db = site.db();
  const std::vector<NamedBy>& named_by = site.named_by(db.IndexOf(reg));
  std::vector<const regdb::Range*> enabled;
  for (const regdb::Range& range : db.ranges) {
    if (range.enabled_by && range.enabled_by->reg == db.IndexOf(reg)) enabled.push_back(&range);
  }
  if (named_by.empty() && enabled.empty()) return "";
  std::string out = "<h2>Named by</h2>\n<ul class=\"users\">\n";
  for (const NamedBy& use : named_by) {
    out += "<li>behaviour <a href=\"" + Escape(BehaviourHref(kDepth, use.behaviour->name)) + "\">" +
           Escape(use.behaviour->name) + "</a> (" + Escape(use.behaviour->kind) + ") as";
    for (const std::string& key : use.keys) out += " <code>" + Escape(key) + "</code>";
    out += "</li>\n";
  }
  for (const regdb::Range* range : enabled) {
    out += "<li>enables window <b>" + Escape(range->name) + "</b> of space <a href=\"" +
           Escape(SpaceHref(kDepth, range->space_name)) + "\">" + Escape(range->space_name) + "</a></li>\n";
  }
  return out + "</ul>\n";
}

std::vector<regdb::Access> PoliciesOf(const regdb::Register& reg) {
  std::vector<regdb::Access> present;
  for (const regdb::Field& field : reg.fields) present.push_back(field.access);
  if (tools::UnfieldedBits(reg) != 0) present.push_back(reg.default_access);
  return present;
}

}  // namespace

std::string RegisterPage(const Site& site, const regdb::Register& reg, const CoverageMarks& coverage) {
  PageFrame frame{reg.name + " \xE2\x80\x94 " + site.db().device, site.db().device, kDepth};
  const RegisterMark* mark = coverage.enabled ? coverage.Of(reg.name) : nullptr;
  std::string out = PageStart(frame);
  std::string markers = Markers(reg);
  out += "<h1 id=\"" + Escape(reg.name) + "\">" + Escape(reg.name) + (markers.empty() ? "" : " " + markers) + "</h1>\n";
  out += "<p class=\"where\">" + Escape(reg.space_name) + " " + Hex(reg.offset) + ", " + std::to_string(reg.width) +
         " bits, reset " + Hex(reg.reset);
  if (reg.array) {
    out += ", element " + std::to_string(reg.array->index) + " of " + std::to_string(reg.array->count) + " of array " +
           Escape(reg.array->name_template) + " (stride " + Hex(reg.array->stride) + ")";
  }
  if (reg.block) out += ", register " + Escape(reg.block->local_name) + " of block " + Escape(reg.block->block) + " instance " + Escape(reg.block->instance);
  out += "</p>\n";
  out += Paragraphs(reg.doc);
  if (!reg.ref.empty()) out += "<p class=\"ref\">Reference: " + Escape(reg.ref) + "</p>\n";
  if (std::string source = site.SourceOf(reg.loc); !source.empty()) {
    out += "<p class=\"source\">Defined at <code>" + Escape(source) + "</code></p>\n";
  }
  if (coverage.enabled) {
    out += "<p class=\"coverage " + std::string(mark != nullptr ? "covered" : "uncovered") + "\">Coverage: " +
           Escape(mark != nullptr ? mark->hover : "no test read or wrote it") + "</p>\n";
  }
  out += "<h2>Where</h2>\n" + PlacesTable(site, reg);
  FieldMarks field_marks = FieldMarksOf(reg, coverage, mark);
  out += "<h2>Bits</h2>\n<div class=\"picture\">" + BitfieldSvg(reg, field_marks) + "</div>\n";
  out += PolicyLegend(PoliciesOf(reg));
  out += FieldTable(reg, coverage.enabled ? &field_marks : nullptr);
  out += UsersList(site, reg);
  out += ReactionSentences(site, reg);
  out += PageEnd(frame);
  return out;
}

}  // namespace regemu::docgen
