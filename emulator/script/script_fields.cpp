#include "regemu/emulator/script/script_fields.hpp"

#include <algorithm>
#include <bit>
#include <vector>

#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

std::string Number(uint64_t value) { return value < 10 ? std::to_string(value) : regdb::Hex(value); }

// The register's field indices, high bit first (fields are disjoint).
std::vector<uint32_t> HighFirst(const RegisterModel& reg) {
  std::vector<uint32_t> order(reg.fields.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return reg.fields[a].mask > reg.fields[b].mask; });
  return order;
}

}  // namespace

const regdb::Field* FieldValueNames::DatabaseField(RegisterId reg, uint32_t field) const {
  if (database_ == nullptr || reg >= database_->registers.size()) return nullptr;
  const RegisterModel& model_reg = model_.registers()[reg];
  const regdb::Register& db_reg = database_->registers[reg];
  if (db_reg.name != model_reg.name || field >= model_reg.fields.size()) return nullptr;
  return db_reg.FindField(model_reg.fields[field].name);
}

std::string FieldValueNames::Text(RegisterId reg, uint32_t field, uint64_t value) const {
  std::string text = Number(value);
  if (const regdb::Field* f = DatabaseField(reg, field)) {
    for (const regdb::EnumValue& e : f->values) {
      if (e.value == value) return text + "(" + e.name + ")";
    }
  }
  return text;
}

std::string FieldValueNames::Fields(RegisterId reg, uint64_t value) const {
  const RegisterModel& r = model_.registers()[reg];
  std::string text;
  for (uint32_t i : HighFirst(r)) {
    const FieldModel& f = r.fields[i];
    text += (text.empty() ? "" : " ") + f.name + "=" + Text(reg, i, (value & f.mask) >> f.shift());
  }
  return text;
}

std::string FieldValueNames::Differences(RegisterId reg, unsigned lane_shift, uint64_t actual, uint64_t expected,
                                         uint64_t mask) const {
  const RegisterModel& r = model_.registers()[reg];
  if (r.fields.empty()) return "";
  // In register position, only the bits the access compared.
  // (A wide access by offset may reach past the register: those bits are not its fields'.)
  uint64_t compared = lane_shift >= 64 ? 0 : (mask << lane_shift) & r.width_mask;
  uint64_t a = lane_shift >= 64 ? 0 : (actual << lane_shift) & compared;
  uint64_t e = lane_shift >= 64 ? 0 : (expected << lane_shift) & compared;
  uint64_t unnamed = (a ^ e);
  std::string text;
  for (uint32_t i : HighFirst(r)) {
    const FieldModel& f = r.fields[i];
    unnamed &= ~f.mask;
    if (((a ^ e) & f.mask) == 0) continue;
    unsigned shift = f.shift();
    text += (text.empty() ? "" : "; ") + f.name + "=" + Text(reg, i, (a & f.mask) >> shift) + ", expected " +
            Text(reg, i, (e & f.mask) >> shift);
  }
  if (unnamed != 0) {
    // Back in the access's position, as the values in the message are.
    text += (text.empty() ? "" : "; ") + std::string("bits ") + regdb::Hex(unnamed >> lane_shift) +
            " outside any field read " + regdb::Hex((a & unnamed) >> lane_shift) + ", expected " +
            regdb::Hex((e & unnamed) >> lane_shift);
  }
  return text;
}

}  // namespace regemu::emulator
