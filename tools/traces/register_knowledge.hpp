#pragma once
// What a replay may expect of each register's bits: which bits the model
// cannot know (volatile and hw), which hardware sets on its own (status),
// which are fixed (read-only) and which hold what was written. Computed once
// per database from its fields' policies.

#include <cstdint>
#include <vector>

#include "regemu/emulator/model.hpp"
#include "regemu/regdb/database.hpp"

namespace regemu::traces {

// The low `bits` bits: an access's lanes, a value's room.
inline uint64_t WidthMask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

struct RegisterBits {
  uint64_t unknowable = 0;  // volatile registers and fields, `hw` fields
  uint64_t status = 0;      // set by hardware events: w1c/w0c/... and read-clear bits
  uint64_t pokable = 0;     // status bits a hardware event leaves set until the driver acts (not rc), volatile ones too
  uint64_t one_clears = 0;  // w1c: the driver clears them with a 1
  uint64_t zero_clears = 0; // w0c: with a 0
  uint64_t fixed = 0;       // no write changes them: read-only, reset value
  uint64_t stored = 0;      // read back what was written
  uint64_t reads_zero = 0;  // reserved (rsvd, mbz) bits: always read 0
};

class RegisterKnowledge {
 public:
  RegisterKnowledge(const regdb::Database& db, const emulator::Model& model);
  const RegisterBits& operator[](emulator::RegisterId id) const { return bits_[id]; }

 private:
  std::vector<RegisterBits> bits_;
};

}  // namespace regemu::traces
