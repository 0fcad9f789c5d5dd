#include "regemu/emulator/coverage/coverage_recorder.hpp"

#include <array>
#include <stdexcept>
#include <string>

#include "regemu/emulator/behaviour.hpp"

namespace regemu::emulator {
namespace {

constexpr std::array<const char*, kCoverageEffectCount> kEffectNames = {
    "rc", "rs", "wc", "ws", "w1c", "w1s", "w1t", "w0c", "w0s", "w0t", "w1", "masked-write"};

// The bits of `m` where each effect can act, for the denominators.
std::array<uint64_t, kCoverageEffectCount> EffectBits(const AccessMasks& m) {
  return {m.read_clears, m.read_sets,   m.write_clears, m.write_sets,  m.one_clears,   m.one_sets,
          m.one_toggles, m.zero_clears, m.zero_sets,    m.zero_toggles, m.store_once, 0};
}

// FNV-1a: stable across builds and platforms, unlike std::hash.
class LayoutHash {
 public:
  void Add(uint64_t value) {
    for (int i = 0; i < 8; ++i) Byte(static_cast<uint8_t>(value >> (8 * i)));
  }
  void Add(const std::string& text) {
    Add(text.size());
    for (char c : text) Byte(static_cast<uint8_t>(c));
  }
  uint64_t value() const { return hash_; }

 private:
  void Byte(uint8_t byte) { hash_ = (hash_ ^ byte) * 0x100000001b3ull; }
  uint64_t hash_ = 0xcbf29ce484222325ull;
};

}  // namespace

const char* CoverageEffectName(CoverageEffect effect) { return kEffectNames[static_cast<size_t>(effect)]; }

ModelCoverage EmptyCoverageOf(const Model& model) {
  ModelCoverage result;
  result.device = model.device();
  result.registers = model.registers().size();
  LayoutHash layout;
  std::array<uint64_t, kCoverageEffectCount> effect_registers{};
  for (const RegisterModel& r : model.registers()) {
    layout.Add(r.name);
    layout.Add(r.space);
    layout.Add(r.offset);
    layout.Add(r.width);
    for (const FieldModel& field : r.fields) {
      layout.Add(field.name);
      layout.Add(field.mask);
    }
    result.fields += r.fields.size();
    std::array<uint64_t, kCoverageEffectCount> bits = EffectBits(model.masks(r));
    for (size_t e = 0; e < kCoverageEffectCount; ++e) {
      if (bits[e] != 0) ++effect_registers[e];
    }
    if (r.has(RegisterModel::kMasked)) ++effect_registers[static_cast<size_t>(CoverageEffect::kMaskedWrite)];
  }
  result.layout = layout.value();
  for (size_t e = 0; e < kCoverageEffectCount; ++e) {
    if (effect_registers[e] != 0) result.effect_registers[kEffectNames[e]] = effect_registers[e];
  }
  for (const auto& program : model.behaviours()) {
    BehaviourCoverage& behaviour = result.behaviours[program->name()];
    behaviour.kind = program->kind();
    for (CoveragePoint& point : program->CoveragePoints()) {
      behaviour.points.push_back({std::move(point.group), std::move(point.name), 0});
    }
  }
  return result;
}

CoverageRecorder::CoverageRecorder(const Model& model) : model_(model), slot_(model.registers().size(), kUntouched) {
  for (const auto& program : model.behaviours()) hits_.emplace_back(program->CoveragePoints().size(), 0);
}

CoverageRecorder::Counters& CoverageRecorder::Touch(RegisterId reg) {
  slot_[reg] = static_cast<uint32_t>(touched_.size());
  Counters& counters = touched_.emplace_back();
  counters.fields_changed.assign(model_.registers()[reg].fields.size(), 0);
  return counters;
}

void CoverageRecorder::Read(RegisterId reg, const AccessMasks& m, uint64_t before, uint64_t lanes) {
  Counters& counters = CountersOf(reg);
  ++counters.reads;
  // Only where the read changed something: a 1 cleared, a 0 set.
  if ((m.read_clears & lanes & before) != 0) ++counters.effects[static_cast<size_t>(CoverageEffect::kRc)];
  if ((m.read_sets & lanes & ~before) != 0) ++counters.effects[static_cast<size_t>(CoverageEffect::kRs)];
}

void CoverageRecorder::Write(RegisterId reg, uint64_t before, uint64_t after) {
  Counters& counters = CountersOf(reg);
  ++counters.writes;
  if (before != after) Changed(model_.registers()[reg], counters, before, after);
}

void CoverageRecorder::Write(RegisterId reg, const RegisterModel& r, const AccessMasks& m, const WriteFacts& f) {
  Counters& counters = CountersOf(reg);
  ++counters.writes;
  Changed(r, counters, f.before, f.after);
  // Each bit has one policy, so an effect's bits held `before` when it
  // acted; it counts only where it changed them (toggles always do).
  uint64_t ones = f.value & f.written;
  uint64_t zeros = ~f.value & f.written;
  auto count = [&](CoverageEffect effect, uint64_t acted) {
    if (acted != 0) ++counters.effects[static_cast<size_t>(effect)];
  };
  count(CoverageEffect::kW1c, m.one_clears & ones & f.before);
  count(CoverageEffect::kW1s, m.one_sets & ones & ~f.before);
  count(CoverageEffect::kW1t, m.one_toggles & ones);
  count(CoverageEffect::kW0c, m.zero_clears & zeros & f.before);
  count(CoverageEffect::kW0s, m.zero_sets & zeros & ~f.before);
  count(CoverageEffect::kW0t, m.zero_toggles & zeros);
  count(CoverageEffect::kWc, m.write_clears & f.written & f.before);
  count(CoverageEffect::kWs, m.write_sets & f.written & ~f.before);
  count(CoverageEffect::kW1, f.once_stored);
  if (r.has(RegisterModel::kMasked)) count(CoverageEffect::kMaskedWrite, f.written);
}

// A field changed when a write changed any of its bits.
void CoverageRecorder::Changed(const RegisterModel& r, Counters& counters, uint64_t before, uint64_t after) {
  uint64_t changed = before ^ after;
  if (changed == 0) return;
  const std::vector<FieldModel>& fields = r.fields;
  for (size_t i = 0; i < fields.size(); ++i) {
    if ((fields[i].mask & changed) != 0) ++counters.fields_changed[i];
  }
}

void CoverageRecorder::Violation(ViolationKind kind, RegisterId reg) { ++violations_[{kind, reg}]; }

void CoverageRecorder::Hit(uint32_t behaviour, uint32_t point) {
  std::vector<uint64_t>& hits = hits_.at(behaviour);
  if (point >= hits.size()) {
    throw std::out_of_range("behaviour '" + model_.behaviours()[behaviour]->name() + "' covered point " +
                            std::to_string(point) + " but declares " + std::to_string(hits.size()));
  }
  ++hits[point];
}

ModelCoverage CoverageRecorder::Result() const {
  ModelCoverage result = EmptyCoverageOf(model_);
  result.devices = 1;
  const auto& registers = model_.registers();
  for (RegisterId reg = 0; reg < slot_.size(); ++reg) {
    if (slot_[reg] == kUntouched) continue;
    const Counters& counters = touched_[slot_[reg]];
    const RegisterModel& r = registers[reg];
    RegisterCoverage& out = result.touched[r.name];
    out.reads = counters.reads;
    out.writes = counters.writes;
    for (size_t i = 0; i < r.fields.size(); ++i) {
      if (counters.fields_changed[i] != 0) out.fields_changed[r.fields[i].name] = counters.fields_changed[i];
    }
    for (size_t e = 0; e < kCoverageEffectCount; ++e) {
      if (counters.effects[e] != 0) out.effects[kEffectNames[e]] = counters.effects[e];
    }
  }
  const auto& programs = model_.behaviours();
  for (size_t b = 0; b < programs.size(); ++b) {
    std::vector<PointCoverage>& points = result.behaviours[programs[b]->name()].points;
    for (size_t p = 0; p < points.size() && p < hits_[b].size(); ++p) points[p].hits = hits_[b][p];
  }
  for (const auto& [where, count] : violations_) {
    std::string reg = where.second < registers.size() ? registers[where.second].name : std::string();
    result.violations[std::string(ViolationKindName(where.first))][reg] += count;
  }
  return result;
}

}  // namespace regemu::emulator
