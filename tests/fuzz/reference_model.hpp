#pragma once
// An independent, deliberately simple implementation of the access-policy
// table (regdb/access_policies.def), for access_fuzz's differential check:
// the device and this model must agree on every value. It knows nothing of
// emulator/access_masks.cpp: each register is a list of parts (its fields,
// and its default policy over the bits no field covers), and an access
// applies each part's ReadEffect / WriteEffect row to that part's bits.
//
// Only registers whose state nothing but the frontdoor and the backdoor
// changes are tracked: no behaviour hooks them, gates them or names them
// in its section (behaviours poke registers they name). Only whole-register
// accesses are predicted (the register's offset and width); the harness
// resyncs a tracked register from the device after any other access that
// may have reached it (sub-width lanes, offsets spanning registers, alias
// windows), since predicting lanes would make this model as complex as the
// device.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "regemu/emulator/model.hpp"
#include "regemu/regdb/access.hpp"
#include "regemu/regdb/database.hpp"

namespace regemu::fuzz {

class ReferenceModel {
 public:
  // `database` is the checked database `model` was compiled from (its
  // register indices are the model's RegisterIds).
  ReferenceModel(const regdb::Database& database, const emulator::Model& model);

  bool Tracks(emulator::RegisterId reg) const { return index_[reg] != kUntracked; }
  // The tracked registers' ids, ascending.
  const std::vector<emulator::RegisterId>& tracked() const { return tracked_ids_; }

  // Bits of `reg` (tracked or not) that no frontdoor write may change:
  // policies whose WriteEffect is kIgnore, kDiscard or kMustBeZero, and the
  // enable half (31:16) of a masked register, which is not storage.
  uint64_t WriteProofBits(emulator::RegisterId reg) const { return write_proof_[reg]; }
  // Bits a frontdoor read of `reg` shows (its parts that read their value).
  uint64_t ReadableBits(emulator::RegisterId reg) const;

  // The stored value of a tracked register, as the backdoor sees it.
  uint64_t Value(emulator::RegisterId reg) const { return state_.values[reg]; }
  // The first tracked register whose value in `device` (every register's
  // value by id, Device::PeekRegisters) is not the model's, or kNoRegister:
  // the whole state compared in one pass, cheap enough for every operation.
  emulator::RegisterId FirstDisagreement(std::span<const uint64_t> device) const;
  // A frontdoor whole-register read: the value it returns; applies the read effects.
  uint64_t Read(emulator::RegisterId reg);
  // A frontdoor whole-register write.
  void Write(emulator::RegisterId reg, uint64_t value);
  // A backdoor write: raw state, no effect.
  void Poke(emulator::RegisterId reg, uint64_t value);
  // Whether Write can predict a whole-register write (not after a resync
  // of a write the model did not see the lanes of, for a register with
  // write-once parts: which parts that write used up is unknown until reset).
  bool PredictsWrites(emulator::RegisterId reg) const { return state_.once_unknown[index_[reg]] == 0; }
  // Takes the device's value after an access the model does not predict;
  // `written`: the access was a write that may have reached the register.
  void Resync(emulator::RegisterId reg, uint64_t value, bool written);
  // Power-on: reset values, write-once state forgotten.
  void Reset();

  struct State {
    std::vector<uint64_t> values;     // per register, by id (untracked ones 0)
    std::vector<uint64_t> once_used;  // per tracked register: write-once parts written since reset (by part bit)
    std::vector<uint8_t> once_unknown;  // per tracked register: see PredictsWrites
  };
  const State& state() const { return state_; }
  void set_state(const State& state) { state_ = state; }

  // Test-only: from now on the model treats `reg`'s bits `bits` as having
  // `policy`, whatever the database says (to show the harness catching a
  // disagreement and the reproducer failing where it did).
  void OverridePolicyForTest(emulator::RegisterId reg, uint64_t bits, regdb::Access policy);

 private:
  static constexpr uint32_t kUntracked = ~uint32_t{0};

  struct Part {
    uint64_t bits = 0;  // in register position
    const regdb::AccessInfo* policy = nullptr;
  };
  struct Tracked {
    emulator::RegisterId id = 0;
    uint64_t width_mask = 0;
    uint64_t reset = 0;
    bool masked = false;
    bool has_once = false;  // a part is write-once (w1, wo1)
    std::vector<Part> parts;  // disjoint; masked registers: within 15:0
  };

  std::vector<uint32_t> index_;        // per register: its slot in tracked_, or kUntracked
  std::vector<uint64_t> write_proof_;  // per register
  std::vector<uint64_t> compared_;     // per register: a tracked one's width mask, else 0
  std::vector<Tracked> tracked_;
  std::vector<emulator::RegisterId> tracked_ids_;
  State state_;
};

}  // namespace regemu::fuzz
