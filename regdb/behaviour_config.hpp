#pragma once
// A behaviour's typed, resolved configuration. The kind's check
// (regdb/behaviour_configs/<kind>.cpp) is the only reader of its YAML
// section: it reports every mistake at its file:line:col and, when there is
// none, returns the configuration as plain data (registers resolved to
// database indices, fields to masks, durations in ns, ranges as numbers).
// The checker keeps it with the behaviour's spec (BehaviourSpec::config);
// the emulator builds the runtime from it and never sees YAML.
//
// Register indices are the database's, which Compile keeps as the Model's
// RegisterIds (it refuses a database whose registers do not all compile).

#include <cstdint>
#include <memory>
#include <string>

namespace regemu::regdb {

struct BehaviourSpec;

struct BehaviourConfig {
  virtual ~BehaviourConfig() = default;
};

// A field of a register as a behaviour uses it: its bits in register
// position and the shift that brings them to bit 0.
struct FieldBits {
  uint64_t mask = 0;
  unsigned shift = 0;

  uint64_t Get(uint64_t value) const { return (value & mask) >> shift; }
  static FieldBits Of(uint64_t mask);
};

// `REGISTER` or `REGISTER.FIELD` as a behaviour names it: the register's
// database index and the bits meant (the field's, or all of them).
struct RegisterBits {
  uint32_t reg = 0;
  FieldBits bits;
  std::string text;  // as written: "CSTS.RDY", for messages and docs
};

inline FieldBits FieldBits::Of(uint64_t mask) {
  FieldBits bits{mask, 0};
  while (mask != 0 && ((mask >> bits.shift) & 1) == 0) ++bits.shift;
  return bits;
}

}  // namespace regemu::regdb
