#pragma once
// Register values as scripts show them, field by field: what `dump` prints
// and what a failed expectation says differs. Fields are listed high bit
// first, as datasheets draw them; a value below 10 is decimal, larger ones
// hex, and an enumerated value carries its name: `HI=0x12 MODE=2(FAST) EN=1`.

#include <cstdint>
#include <string>

#include "regemu/emulator/model.hpp"
#include "regemu/regdb/database.hpp"

namespace regemu::emulator {

// Names the model's fields' enumerated values from the database it was
// compiled from (the model keeps names and masks only). Without a database,
// or for a register the database does not match, values go unnamed.
class FieldValueNames {
 public:
  FieldValueNames(const Model& model, const regdb::Database* database) : model_(model), database_(database) {}

  // `value` (in field units) of field `field` of `reg`: "1", "0x12", "2(FAST)".
  std::string Text(RegisterId reg, uint32_t field, uint64_t value) const;

  // Every field of `reg` in `value`: "HI=0x12 RSVD=0 EN=1" ("" without fields).
  std::string Fields(RegisterId reg, uint64_t value) const;

  // The fields whose compared bits differ between what an access read and
  // what it expected, the access starting `lane_shift` bits into `reg` and
  // comparing `mask`: "HI=0x12, expected 0x13; EN=1, expected 0", and the
  // differing bits no field holds. "" when the register has no fields.
  std::string Differences(RegisterId reg, unsigned lane_shift, uint64_t actual, uint64_t expected,
                          uint64_t mask) const;

 private:
  const regdb::Field* DatabaseField(RegisterId reg, uint32_t field) const;

  const Model& model_;
  const regdb::Database* database_;
};

}  // namespace regemu::emulator
