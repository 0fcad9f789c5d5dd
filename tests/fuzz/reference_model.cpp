#include "tests/fuzz/reference_model.hpp"

#include <algorithm>
#include <string_view>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/yaml_tree.hpp"

#include <cctype>
#include <string>

namespace regemu::fuzz {
namespace {

using regdb::ReadEffect;
using regdb::WriteEffect;

// Every register a behaviour section names, as `REG` or `REG.FIELD`,
// anywhere in its YAML: a behaviour may poke any of them at any time (an
// ack after a latency, a status bit at an injected event), so the model
// cannot predict them. Naming is all it takes, whatever the key.
// Expressions (`CC.EN == 1`, `ASQ & ~0xFFF`) name registers among other
// words, and an array's template (`SQ{n}TDBL`) names every element: each
// identifier of a scalar counts.
void MarkNamedRegisters(const regdb::YamlNode& node, const emulator::Model& model, std::vector<bool>& named) {
  if (node.IsScalar()) {
    std::string_view text = node.text;
    auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '{' || c == '}'; };
    for (size_t i = 0; i < text.size();) {
      if (!word_char(text[i])) {
        ++i;
        continue;
      }
      size_t end = i;
      while (end < text.size() && word_char(text[end])) ++end;
      std::string word(text.substr(i, end - i));
      if (size_t at = word.find("{n}"); at != std::string::npos) {
        for (emulator::RegisterId id = 0; id < named.size(); ++id) {
          const std::string& name = model.registers()[id].name;
          size_t tail = word.size() - at - 3;
          if (name.size() > word.size() - 3 && name.compare(0, at, word, 0, at) == 0 &&
              name.compare(name.size() - tail, tail, word, at + 3, tail) == 0) {
            named[id] = true;
          }
        }
      } else if (auto reg = model.FindRegister(word)) {
        named[*reg] = true;
      }
      i = end;
    }
    return;
  }
  for (const regdb::YamlNode& child : node.children) MarkNamedRegisters(child, model, named);
}

bool WriteCannotChange(WriteEffect effect) {
  return effect == WriteEffect::kIgnore || effect == WriteEffect::kDiscard || effect == WriteEffect::kMustBeZero;
}

bool ReadShowsValue(ReadEffect effect) {
  return effect == ReadEffect::kValue || effect == ReadEffect::kValueThenClear || effect == ReadEffect::kValueThenSet;
}

}  // namespace

ReferenceModel::ReferenceModel(const regdb::Database& database, const emulator::Model& model) {
  size_t count = database.registers.size();
  index_.assign(count, kUntracked);
  write_proof_.assign(count, 0);
  compared_.assign(count, 0);
  std::vector<bool> named(count, false);
  for (const regdb::BehaviourSpec& behaviour : database.behaviours) MarkNamedRegisters(behaviour.yaml, model, named);
  // `alias_of` registers are a second name for an address, but the device
  // keeps each one's state apart and decodes the address to one of them:
  // the other's state is reachable only by PeekRegister. Neither is tracked
  // (a quirk of the device, not modelled here).
  std::vector<bool> aliased(count, false);
  for (emulator::RegisterId id = 0; id < count; ++id) {
    const regdb::Register& reg = database.registers[id];
    // Views: a write through one changes the others (not modelled here).
    if (!reg.view_of.empty()) {
      aliased[id] = true;
      if (auto target = model.FindRegister(reg.view_of)) aliased[*target] = true;
    }
    if (reg.alias_of.empty()) continue;
    aliased[id] = true;
    if (auto target = model.FindRegister(reg.alias_of)) aliased[*target] = true;
  }

  for (emulator::RegisterId id = 0; id < count; ++id) {
    const regdb::Register& reg = database.registers[id];
    Tracked t;
    t.id = id;
    t.width_mask = reg.width_mask();
    t.reset = reg.reset & t.width_mask;
    t.masked = reg.masked;
    uint64_t covered = 0;
    for (const regdb::Field& field : reg.fields) {
      uint64_t bits = field.mask() & t.width_mask;
      t.parts.push_back(Part{bits, &regdb::Info(field.access)});
      covered |= bits;
    }
    // A masked register stores bits 15:0 only: 31:16 of a write are enables.
    uint64_t storage = reg.masked ? 0xFFFF : t.width_mask;
    if (uint64_t rest = storage & ~covered) t.parts.push_back(Part{rest, &regdb::Info(reg.default_access)});

    uint64_t proof = t.width_mask & ~storage;
    for (const Part& part : t.parts) {
      if (WriteCannotChange(part.policy->write)) proof |= part.bits;
      if (part.policy->write == WriteEffect::kStoreOnce) t.has_once = true;
    }
    write_proof_[id] = proof;

    const emulator::RegisterModel& compiled = model.registers()[id];
    // Banked registers share a place with others chosen by state (a
    // `decode_when:`), which a whole-register access at the offset may not reach.
    // A write gate (`write_gate:`, yaml/cmsdk_apb's WDOGLOCK) makes a
    // write's effect depend on other registers' state.
    bool behaviour_owned = compiled.hooks_count != 0 || compiled.has(emulator::RegisterModel::kGated) || named[id] ||
                           aliased[id] || compiled.has(emulator::RegisterModel::kBanked) ||
                           compiled.has(emulator::RegisterModel::kWriteGate);
    if (behaviour_owned) continue;
    index_[id] = static_cast<uint32_t>(tracked_.size());
    compared_[id] = t.width_mask;
    tracked_ids_.push_back(id);
    tracked_.push_back(std::move(t));
  }
  Reset();
}

uint64_t ReferenceModel::ReadableBits(emulator::RegisterId reg) const {
  // Untracked registers have no parts kept: ask only about tracked ones.
  uint64_t bits = 0;
  for (const Part& part : tracked_[index_[reg]].parts) {
    if (ReadShowsValue(part.policy->read)) bits |= part.bits;
  }
  return bits;
}

uint64_t ReferenceModel::Read(emulator::RegisterId reg) {
  const Tracked& t = tracked_[index_[reg]];
  uint64_t& value = state_.values[reg];
  uint64_t result = 0;
  uint64_t after = value;
  for (const Part& part : t.parts) {
    switch (part.policy->read) {
      case ReadEffect::kValue: result |= value & part.bits; break;
      case ReadEffect::kValueThenClear:
        result |= value & part.bits;
        after &= ~part.bits;
        break;
      case ReadEffect::kValueThenSet:
        result |= value & part.bits;
        after |= part.bits;
        break;
      case ReadEffect::kWriteOnly:  // not readable: reads 0
      case ReadEffect::kZero: break;
    }
  }
  value = after;
  return result;
}

void ReferenceModel::Write(emulator::RegisterId reg, uint64_t value) {
  const Tracked& t = tracked_[index_[reg]];
  uint64_t& stored = state_.values[reg];
  uint64_t& once_used = state_.once_used[index_[reg]];
  value &= t.width_mask;
  // The bits this write acts on: all of them, or a masked register's enabled ones.
  uint64_t acts = t.masked ? (value >> 16) & 0xFFFF : t.width_mask;
  uint64_t after = stored;
  for (size_t p = 0; p < t.parts.size(); ++p) {
    const Part& part = t.parts[p];
    uint64_t bits = part.bits & acts;
    if (bits == 0) continue;
    uint64_t ones = value & bits;
    uint64_t zeros = ~value & bits;
    switch (part.policy->write) {
      case WriteEffect::kIgnore:
      case WriteEffect::kDiscard:
      case WriteEffect::kMustBeZero: break;
      case WriteEffect::kStore: after = (after & ~bits) | ones; break;
      case WriteEffect::kClearAll: after &= ~bits; break;
      case WriteEffect::kSetAll: after |= bits; break;
      case WriteEffect::kOneClears: after &= ~ones; break;
      case WriteEffect::kOneSets: after |= ones; break;
      case WriteEffect::kOneToggles: after ^= ones; break;
      case WriteEffect::kZeroClears: after &= ~zeros; break;
      case WriteEffect::kZeroSets: after |= zeros; break;
      case WriteEffect::kZeroToggles: after ^= zeros; break;
      case WriteEffect::kStoreOnce: {
        // The first write after reset that reaches the part stores; it
        // uses the whole part up, also bits it did not enable.
        uint64_t part_bit = uint64_t{1} << p;
        if ((once_used & part_bit) == 0) after = (after & ~bits) | ones;
        once_used |= part_bit;
        break;
      }
    }
  }
  stored = after;
}

void ReferenceModel::Poke(emulator::RegisterId reg, uint64_t value) {
  state_.values[reg] = value & tracked_[index_[reg]].width_mask;
}

void ReferenceModel::Resync(emulator::RegisterId reg, uint64_t value, bool written) {
  state_.values[reg] = value;
  if (written && tracked_[index_[reg]].has_once) state_.once_unknown[index_[reg]] = 1;
}

void ReferenceModel::Reset() {
  state_.values.assign(index_.size(), 0);
  state_.once_used.assign(tracked_.size(), 0);
  state_.once_unknown.assign(tracked_.size(), 0);
  for (const Tracked& t : tracked_) state_.values[t.id] = t.reset;
}

// One pass over every register per operation: not instrumented. Its
// comparisons tell the fuzzer nothing about the device and would cost a
// coverage callback each, and sanitizer checks per element would make it
// the harness's largest cost; its bounds are the two vectors' common size.
#if defined(__clang__)
__attribute__((no_sanitize("coverage", "address", "undefined")))
#endif
emulator::RegisterId ReferenceModel::FirstDisagreement(std::span<const uint64_t> device) const {
  // Raw pointers: span's and vector's operator[] are calls, instrumented, at -O1.
  const uint64_t* actual = device.data();
  const uint64_t* model = state_.values.data();
  const uint64_t* compared = compared_.data();
  size_t count = std::min(device.size(), state_.values.size());
  uint64_t differs = 0;
  for (size_t i = 0; i < count; ++i) differs |= (actual[i] ^ model[i]) & compared[i];
  if (differs == 0) return emulator::kNoRegister;
  for (size_t i = 0; i < count; ++i) {
    if (((actual[i] ^ model[i]) & compared[i]) != 0) return static_cast<emulator::RegisterId>(i);
  }
  return emulator::kNoRegister;
}

void ReferenceModel::OverridePolicyForTest(emulator::RegisterId reg, uint64_t bits, regdb::Access policy) {
  Tracked& t = tracked_[index_[reg]];
  std::vector<Part> parts;
  for (const Part& part : t.parts) {
    if (uint64_t keep = part.bits & ~bits) parts.push_back(Part{keep, part.policy});
  }
  parts.push_back(Part{bits & t.width_mask, &regdb::Info(policy)});
  t.parts = std::move(parts);
  t.has_once = false;
  for (const Part& part : t.parts) t.has_once |= part.policy->write == WriteEffect::kStoreOnce;
}

}  // namespace regemu::fuzz
