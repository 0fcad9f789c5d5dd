#include "tools/docgen/coverage_marks.hpp"

#include "regemu/regdb/access.hpp"
#include "tools/docgen/html.hpp"

namespace regemu::docgen {
namespace {

std::string Times(uint64_t n, std::string_view what) {
  return std::string(what) + " " + std::to_string(n) + (n == 1 ? " time" : " times");
}

FieldMark FieldMarkOf(const regdb::Field& field, const emulator::RegisterCoverage* reg) {
  uint64_t changed = 0;
  if (reg != nullptr) {
    auto found = reg->fields_changed.find(field.name);
    if (found != reg->fields_changed.end()) changed = found->second;
  }
  if (changed != 0) return {"covered", "changed by " + std::to_string(changed) + (changed == 1 ? " write" : " writes")};
  if (!regdb::Info(field.access).writable()) {
    // No write can change it: reading its register is all a test can do.
    if (reg != nullptr && reg->reads != 0) return {"covered", Times(reg->reads, "read with its register")};
    return {"uncovered", "no write can change it, and no test read its register"};
  }
  if (reg != nullptr && reg->writes != 0) return {"uncovered", "its register was written, but never so that this field changed"};
  return {"uncovered", "no test changed it"};
}

std::string RegisterHover(const emulator::RegisterCoverage& reg) {
  std::string hover = Times(reg.reads, "read") + ", " + Times(reg.writes, "written");
  if (!reg.effects.empty()) {
    hover += "; effects:";
    for (const auto& [effect, count] : reg.effects) hover += " " + effect + " \xC3\x97" + std::to_string(count);
  }
  return hover;
}

std::string Meter(uint64_t part, uint64_t whole) {
  unsigned percent = whole == 0 ? 0 : static_cast<unsigned>(part * 100 / whole);
  return "<div class=\"meter\" title=\"" + std::to_string(percent) + "%\"><span style=\"width:" +
         std::to_string(percent) + "%\"></span></div>";
}

std::string SummaryRow(const std::string& what, uint64_t part, uint64_t whole, const std::string& detail = "") {
  return "<tr><td>" + Escape(what) + "</td><td class=\"num\">" + std::to_string(part) + " of " + std::to_string(whole) +
         "</td><td class=\"bar\">" + Meter(part, whole) + "</td><td>" + detail + "</td></tr>\n";
}

std::string SummaryHtml(const emulator::ModelCoverage& model, const CoverageMarks& marks, const regdb::Database& db) {
  uint64_t read = 0, written = 0, fields_changed = 0, fields = 0, fields_covered = 0;
  for (const auto& [name, reg] : model.touched) {
    if (reg.reads != 0) ++read;
    if (reg.writes != 0) ++written;
    for (const auto& [field, count] : reg.fields_changed) fields_changed += count != 0 ? 1u : 0u;
  }
  for (const regdb::Register& reg : db.registers) {
    fields += reg.fields.size();
    const RegisterMark* mark = marks.Of(reg.name);
    if (mark == nullptr) continue;
    for (const auto& [field, fm] : mark->fields) fields_covered += fm.css_class == "covered" ? 1u : 0u;
  }
  std::string out = "<section id=\"coverage\">\n<h2>Coverage</h2>\n<p class=\"note\">From " + Escape(marks.source) +
                    ": " + std::to_string(model.processes) + " test processes, " + std::to_string(model.devices) +
                    " devices. Green: touched by a test; red: not.</p>\n";
  out += "<table class=\"coverage-summary\"><tbody>\n";
  out += SummaryRow("registers read", read, db.registers.size());
  out += SummaryRow("registers written", written, db.registers.size());
  out += SummaryRow("fields changed by a write", fields_changed, fields);
  out += SummaryRow("fields covered (changed, or read where no write can change them)", fields_covered, fields);
  for (const auto& [effect, registers] : model.effect_registers) {
    uint64_t acted = 0;
    for (const auto& [name, reg] : model.touched) acted += reg.effects.contains(effect) ? 1u : 0u;
    out += SummaryRow("registers where " + effect + " acted", acted, registers);
  }
  for (const auto& [behaviour, points] : marks.behaviours) {
    std::map<std::string, std::pair<uint64_t, uint64_t>> groups;  // group → hit, all
    std::map<std::string, std::string> hit_names;
    for (const PointMark& point : points) {
      auto& [hit, all] = groups[point.group];
      ++all;
      if (point.hits != 0) {
        ++hit;
        hit_names[point.group] += (hit_names[point.group].empty() ? "" : ", ") + point.name;
      }
    }
    for (const auto& [group, counts] : groups) {
      out += SummaryRow(behaviour + ": " + group, counts.first, counts.second,
                        "<a href=\"" + Escape(BehaviourHref(PageDepth::kRoot, behaviour)) + "\">" +
                            Escape(hit_names[group].empty() ? "none" : hit_names[group]) + "</a>");
    }
  }
  out += "</tbody></table>\n";
  if (!model.violations.empty()) {
    out += "<p>Violations raised:";
    for (const auto& [kind, by_register] : model.violations) {
      uint64_t total = 0;
      for (const auto& [reg, count] : by_register) total += count;
      out += " <b>" + Escape(kind) + "</b> " + std::to_string(total);
    }
    out += "</p>\n";
  } else {
    out += "<p>No violation was raised.</p>\n";
  }
  return out + "</section>\n";
}

}  // namespace

CoverageMarks MarksFrom(const emulator::ModelCoverage& model, const regdb::Database& db, std::string source) {
  CoverageMarks marks;
  marks.enabled = true;
  marks.source = std::move(source);
  for (const regdb::Register& reg : db.registers) {
    auto found = model.touched.find(reg.name);
    if (found == model.touched.end()) continue;
    const emulator::RegisterCoverage& cov = found->second;
    RegisterMark& mark = marks.registers[reg.name];
    mark.hover = RegisterHover(cov);
    for (const regdb::Field& field : reg.fields) mark.fields[field.name] = FieldMarkOf(field, &cov);
  }
  for (const auto& [name, behaviour] : model.behaviours) {
    std::vector<PointMark>& points = marks.behaviours[name];
    for (const emulator::PointCoverage& point : behaviour.points) points.push_back({point.group, point.name, point.hits});
  }
  marks.summary_html = SummaryHtml(model, marks, db);
  return marks;
}

const emulator::ModelCoverage* ModelFor(const emulator::CoverageData& data, const regdb::Database& db,
                                        std::string& error) {
  const emulator::ModelCoverage* named = nullptr;
  for (const auto& [key, model] : data.models) {
    if (model.device != db.device) continue;
    if (model.registers == db.registers.size()) return &model;
    if (named == nullptr) named = &model;
  }
  if (named != nullptr) return named;
  error = "the coverage has no device '" + db.device + "' (it has:";
  for (const auto& [key, model] : data.models) error += " " + key;
  error += data.models.empty() ? " none)" : ")";
  return nullptr;
}

}  // namespace regemu::docgen
