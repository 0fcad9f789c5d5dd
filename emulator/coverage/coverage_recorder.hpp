#pragma once
// What one device with DeviceOptions::coverage counts as it runs (the
// device calls it from its access path, under its lock), and the
// ModelCoverage it hands over. Counters live in flat arrays indexed by
// register, so an access costs a few increments; names are looked up only
// when the result is built. Not part of the public API.

#include <array>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "regemu/emulator/access_masks.hpp"
#include "regemu/emulator/coverage/coverage.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/emulator/violation.hpp"

namespace regemu::emulator {

// The effects an access policy can have, each named (CoverageEffectName)
// after the policy that has it alone; see RegisterCoverage::effects.
enum class CoverageEffect : uint8_t { kRc, kRs, kWc, kWs, kW1c, kW1s, kW1t, kW0c, kW0s, kW0t, kW1, kMaskedWrite };
inline constexpr size_t kCoverageEffectCount = 12;
const char* CoverageEffectName(CoverageEffect effect);

// What the write path knows about one register's share of a write.
struct WriteFacts {
  uint64_t before = 0;   // the stored value before the write
  uint64_t after = 0;    // after the access policies (before behaviour hooks)
  uint64_t value = 0;    // as written (with a masked register's enables)
  uint64_t written = 0;  // the bits the write covers (a masked register's enabled bits)
  uint64_t once_stored = 0;  // write-once bits it stored (fresh since reset)
};

class CoverageRecorder {
 public:
  explicit CoverageRecorder(const Model& model);

  // A read that reached `reg` without side effects (the read fast path).
  void Read(RegisterId reg) { ++CountersOf(reg).reads; }
  // A read through the policies: `before` is the value it read, `lanes` its bits.
  void Read(RegisterId reg, const AccessMasks& m, uint64_t before, uint64_t lanes);
  // A plain store (the write fast path).
  void Write(RegisterId reg, uint64_t before, uint64_t after);
  // A write through the policies; `r` and `m` are the register's, which the write path holds already.
  void Write(RegisterId reg, const RegisterModel& r, const AccessMasks& m, const WriteFacts& facts);
  void Violation(ViolationKind kind, RegisterId reg);  // kNoRegister: none decodes there
  // Point `point` of behaviour `behaviour` ran; std::out_of_range when the
  // behaviour declares no such point (a bug in the behaviour).
  void Hit(uint32_t behaviour, uint32_t point);

  // Everything so far, as one device of its model.
  ModelCoverage Result() const;

 private:
  struct Counters {
    uint64_t reads = 0, writes = 0;
    std::array<uint64_t, kCoverageEffectCount> effects{};
    std::vector<uint64_t> fields_changed;  // per field of the register, in model order
  };
  static constexpr uint32_t kUntouched = ~uint32_t{0};

  Counters& CountersOf(RegisterId reg) {
    uint32_t& slot = slot_[reg];
    if (slot == kUntouched) [[unlikely]] return Touch(reg);
    return touched_[slot];
  }
  Counters& Touch(RegisterId reg);
  static void Changed(const RegisterModel& r, Counters& counters, uint64_t before, uint64_t after);

  const Model& model_;
  // Per register: its counters' index in touched_, made on first access, so
  // a device of a large model pays for the registers its test reaches.
  std::vector<uint32_t> slot_;
  std::vector<Counters> touched_;
  std::vector<std::vector<uint64_t>> hits_;  // per behaviour, per point
  std::map<std::pair<ViolationKind, RegisterId>, uint64_t> violations_;
};

// The model's side of its coverage: device name, layout hash, denominators
// and every behaviour's points, with no count.
ModelCoverage EmptyCoverageOf(const Model& model);

}  // namespace regemu::emulator
