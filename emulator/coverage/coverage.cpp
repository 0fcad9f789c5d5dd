// Merging coverage: what `regemu coverage merge`, the report and the
// process's own collection all use.
#include "regemu/emulator/coverage/coverage.hpp"

#include <algorithm>
#include <string>

namespace regemu::emulator {
namespace {

// A count read from a hostile file may be anything: sums saturate rather than wrap.
uint64_t Sum(uint64_t a, uint64_t b) { return a > ~b ? ~uint64_t{0} : a + b; }

template <typename Map>
void SumCounts(Map& into, const Map& from) {
  for (const auto& [key, count] : from) {
    auto it = into.find(key);
    if (it == into.end()) {
      into.emplace(key, count);
    } else {
      it->second = Sum(it->second, count);
    }
  }
}

void MergeRegister(RegisterCoverage& into, const RegisterCoverage& from) {
  into.reads = Sum(into.reads, from.reads);
  into.writes = Sum(into.writes, from.writes);
  SumCounts(into.fields_changed, from.fields_changed);
  SumCounts(into.effects, from.effects);
}

// Points are matched by group and name: a behaviour whose list grew
// between two runs still merges, and keeps every point either declared.
void MergeBehaviour(BehaviourCoverage& into, const BehaviourCoverage& from) {
  if (into.kind.empty()) into.kind = from.kind;
  for (const PointCoverage& point : from.points) {
    auto it = std::find_if(into.points.begin(), into.points.end(), [&](const PointCoverage& p) {
      return p.group == point.group && p.name == point.name;
    });
    if (it == into.points.end()) {
      into.points.push_back(point);
    } else {
      it->hits = Sum(it->hits, point.hits);
    }
  }
}

// Two of the same layout: the denominators are the same.
void MergeModel(ModelCoverage& into, const ModelCoverage& from) {
  into.processes = Sum(into.processes, from.processes);
  into.devices = Sum(into.devices, from.devices);
  for (const auto& [name, reg] : from.touched) MergeRegister(into.touched[name], reg);
  for (const auto& [name, behaviour] : from.behaviours) MergeBehaviour(into.behaviours[name], behaviour);
  for (const auto& [kind, registers] : from.violations) SumCounts(into.violations[kind], registers);
}

}  // namespace

void MergeInto(CoverageData& into, const ModelCoverage& model) {
  for (uint64_t n = 1;; ++n) {
    std::string key = n == 1 ? model.device : model.device + " (" + std::to_string(n) + ")";
    auto it = into.models.find(key);
    if (it == into.models.end()) {
      into.models.emplace(std::move(key), model);
      return;
    }
    if (it->second.device == model.device && it->second.layout == model.layout) {
      MergeModel(it->second, model);
      return;
    }
  }
}

void MergeInto(CoverageData& into, const CoverageData& from) {
  into.processes = Sum(into.processes, from.processes);
  for (const auto& [key, model] : from.models) MergeInto(into, model);
}

CoverageData Merge(std::span<const CoverageData> all) {
  CoverageData merged;
  for (const CoverageData& data : all) MergeInto(merged, data);
  return merged;
}

}  // namespace regemu::emulator
