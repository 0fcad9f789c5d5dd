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
#include <vector>

namespace regemu::regdb {

struct BehaviourSpec;
struct Database;

// Bytes [first, last] of a space whose accesses a behaviour gates (a
// force-wake domain's range): an access has one gate.
struct GatedSpan {
  uint32_t space = 0;
  uint64_t first = 0;
  uint64_t last = 0;  // inclusive
};

struct BehaviourConfig {
  virtual ~BehaviourConfig() = default;

  // What a behaviour gives the device, of which the device has one each:
  // the checker's model rules (regdb/checks/model_rules.cpp) hold them
  // across behaviours, so that compiling a checked database cannot fail on
  // them. A kind that has none keeps the defaults.
  virtual std::vector<std::string> OutputLines() const { return {}; }    // named interrupt lines it drives
  virtual std::vector<std::string> OutputStreams() const { return {}; }  // output streams it emits
  virtual std::string InterruptParent() const { return {}; }             // the behaviour its output feeds
  virtual bool RoutesInterrupts() const { return false; }                // it delivers the device's interrupt
  virtual std::vector<GatedSpan> GatedSpans(const Database& /*database*/) const { return {}; }
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
