// `regemu coverage report`: one summary per model, computed once
// (Summarize) and printed as a table or as JSON, so that both always say
// the same.
#include "tools/regemu/coverage_report.hpp"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace regemu::tools {
namespace {

using emulator::CoverageData;
using emulator::ModelCoverage;
using emulator::PointCoverage;
using nlohmann::json;

struct GroupSummary {
  std::string group;
  uint64_t hit = 0;                          // points hit at least once
  std::vector<const PointCoverage*> points;  // in declaration order
  std::vector<std::string> missed;
};

struct BehaviourSummary {
  std::string name, kind;
  std::vector<GroupSummary> groups;  // in the order their first point is declared
};

struct EffectSummary {
  std::string effect;
  uint64_t registers = 0;  // registers where it acted
  uint64_t of = 0;         // registers where it can act
  uint64_t accesses = 0;   // accesses where it acted
};

struct ViolationSummary {
  std::string kind;
  uint64_t count = 0;
  std::vector<std::pair<std::string, uint64_t>> registers;  // most first
};

struct ModelSummary {
  std::string name;  // the key: "icl", or "icl (2)" for another layout
  const ModelCoverage* model = nullptr;
  uint64_t read = 0, written = 0, fields_changed = 0;
  std::vector<EffectSummary> effects;
  std::vector<BehaviourSummary> behaviours;
  std::vector<ViolationSummary> violations;
};

ModelSummary Summarize(const std::string& name, const ModelCoverage& model) {
  ModelSummary summary{name, &model, 0, 0, 0, {}, {}, {}};
  std::map<std::string, EffectSummary> effects;
  for (const auto& [effect, of] : model.effect_registers) effects[effect] = {effect, 0, of, 0};
  for (const auto& [reg, coverage] : model.touched) {
    if (coverage.reads != 0) ++summary.read;
    if (coverage.writes != 0) ++summary.written;
    summary.fields_changed += coverage.fields_changed.size();
    for (const auto& [effect, accesses] : coverage.effects) {
      EffectSummary& e = effects[effect];
      e.effect = effect;
      ++e.registers;
      e.accesses += accesses;
    }
  }
  for (auto& [effect, e] : effects) summary.effects.push_back(std::move(e));
  for (const auto& [behaviour_name, behaviour] : model.behaviours) {
    BehaviourSummary b{behaviour_name, behaviour.kind, {}};
    for (const PointCoverage& point : behaviour.points) {
      auto group = std::find_if(b.groups.begin(), b.groups.end(),
                                [&](const GroupSummary& g) { return g.group == point.group; });
      if (group == b.groups.end()) group = b.groups.insert(b.groups.end(), GroupSummary{point.group, 0, {}, {}});
      group->points.push_back(&point);
      if (point.hits != 0) {
        ++group->hit;
      } else {
        group->missed.push_back(point.name);
      }
    }
    summary.behaviours.push_back(std::move(b));
  }
  for (const auto& [kind, registers] : model.violations) {
    ViolationSummary v{kind, 0, {registers.begin(), registers.end()}};
    for (const auto& [reg, count] : registers) v.count += count;
    std::stable_sort(v.registers.begin(), v.registers.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    summary.violations.push_back(std::move(v));
  }
  return summary;
}

std::string Plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string OfTotal(uint64_t part, uint64_t total) {
  std::string text = std::to_string(part) + " of " + std::to_string(total);
  if (total != 0) text += " (" + std::to_string(part * 100 / total) + "%)";
  return text;
}

// At most a few names, then how many more: a line stays readable.
std::string NameList(const std::vector<std::string>& names, size_t most = 8) {
  std::string text;
  for (size_t i = 0; i < names.size() && i < most; ++i) text += (i == 0 ? "" : ", ") + names[i];
  if (names.size() > most) text += " and " + std::to_string(names.size() - most) + " more";
  return text;
}

std::string RegisterName(const std::string& name) { return name.empty() ? "(no register)" : name; }

void PrintModel(const ModelSummary& s, std::ostream& out) {
  const ModelCoverage& m = *s.model;
  out << s.name << ": " << Plural(m.processes, "test process", "test processes") << ", "
      << Plural(m.devices, "device", "devices") << "\n";
  auto row = [&](const char* label) -> std::ostream& { return out << "  " << std::left << std::setw(20) << label; };
  row("registers read") << OfTotal(s.read, m.registers) << "\n";
  row("registers written") << OfTotal(s.written, m.registers) << "\n";
  row("fields changed") << OfTotal(s.fields_changed, m.fields) << "\n";
  // "w1c 12 of 20 registers, rc 1 of 3, ...": the unit once, on the first.
  std::string effects;
  for (const EffectSummary& e : s.effects) {
    bool first = effects.empty();
    effects += (first ? "" : ", ") + e.effect + " " + std::to_string(e.registers) + " of " + std::to_string(e.of);
    if (first) effects += " registers";
  }
  row("policy effects") << (effects.empty() ? "none in this model" : effects) << "\n";
  for (const BehaviourSummary& b : s.behaviours) {
    out << "  " << b.name << " (" << b.kind << "):";
    if (b.groups.empty()) out << " no coverage points";
    for (size_t i = 0; i < b.groups.size(); ++i) {
      const GroupSummary& g = b.groups[i];
      out << (i == 0 ? " " : ", ") << g.group << " " << g.hit << " of " << g.points.size();
    }
    out << "\n";
    for (const GroupSummary& g : b.groups) {
      if (!g.missed.empty() && g.hit != 0) out << "      " << g.group << " missed: " << NameList(g.missed) << "\n";
    }
  }
  if (s.violations.empty()) {
    row("violations") << "none\n";
    return;
  }
  for (size_t i = 0; i < s.violations.size(); ++i) {
    const ViolationSummary& v = s.violations[i];
    std::vector<std::string> registers;
    for (const auto& [reg, count] : v.registers) registers.push_back(RegisterName(reg) + " " + std::to_string(count));
    row(i == 0 ? "violations" : "") << v.kind << " " << v.count << ": " << NameList(registers) << "\n";
  }
}

json ModelJson(const ModelSummary& s) {
  const ModelCoverage& m = *s.model;
  json effects = json::array();
  for (const EffectSummary& e : s.effects) {
    effects.push_back({{"effect", e.effect}, {"registers", e.registers}, {"of", e.of}, {"accesses", e.accesses}});
  }
  json behaviours = json::array();
  for (const BehaviourSummary& b : s.behaviours) {
    json groups = json::array();
    for (const GroupSummary& g : b.groups) {
      json points = json::array();
      for (const PointCoverage* p : g.points) points.push_back({{"name", p->name}, {"hits", p->hits}});
      groups.push_back({{"group", g.group}, {"hit", g.hit}, {"of", g.points.size()}, {"points", std::move(points)}});
    }
    behaviours.push_back({{"name", b.name}, {"kind", b.kind}, {"groups", std::move(groups)}});
  }
  json violations = json::array();
  for (const ViolationSummary& v : s.violations) {
    json registers = json::array();
    for (const auto& [reg, count] : v.registers) registers.push_back({{"register", reg}, {"count", count}});
    violations.push_back({{"kind", v.kind}, {"count", v.count}, {"registers", std::move(registers)}});
  }
  return {{"name", s.name},
          {"device", m.device},
          {"processes", m.processes},
          {"devices", m.devices},
          {"registers", {{"total", m.registers}, {"read", s.read}, {"written", s.written}}},
          {"fields", {{"total", m.fields}, {"changed", s.fields_changed}}},
          {"effects", std::move(effects)},
          {"behaviours", std::move(behaviours)},
          {"violations", std::move(violations)}};
}

}  // namespace

void PrintCoverageTable(const CoverageData& data, std::ostream& out) {
  if (data.models.empty()) {
    out << "no device counted coverage (" << Plural(data.processes, "process", "processes") << ")\n";
    return;
  }
  bool first = true;
  for (const auto& [name, model] : data.models) {
    if (!first) out << "\n";
    first = false;
    PrintModel(Summarize(name, model), out);
  }
}

void PrintCoverageJson(const CoverageData& data, std::ostream& out) {
  json models = json::array();
  for (const auto& [name, model] : data.models) models.push_back(ModelJson(Summarize(name, model)));
  out << json{{"processes", data.processes}, {"models", std::move(models)}}.dump(2) << "\n";
}

}  // namespace regemu::tools
