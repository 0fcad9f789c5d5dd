#pragma once
// Per-register access semantics as masks, precomputed from the fields'
// policies (regdb's access table), so an access is a few mask operations.
// Each bit of a register belongs to exactly one policy, so the masks of one
// group (read effects, write effects) are disjoint.

#include <cstdint>

#include "regemu/regdb/database.hpp"

namespace regemu::emulator {

struct AccessMasks {
  // Reads.
  uint64_t readable = 0;      // bits that read back their value (others read 0)
  uint64_t write_only = 0;    // bits a read cannot see: reading only such bits is a violation
  uint64_t read_clears = 0;   // cleared after being read
  uint64_t read_sets = 0;     // set after being read
  // Writes.
  uint64_t store = 0;         // take the written value
  uint64_t store_once = 0;    // take the written value on the first write after reset
  uint64_t one_clears = 0, one_sets = 0, one_toggles = 0;
  uint64_t zero_clears = 0, zero_sets = 0, zero_toggles = 0;
  uint64_t write_clears = 0, write_sets = 0;  // any write clears / sets them
  // Bits of read-only policies (ro, rc, rs, hw) whose change by a write is a
  // `read-only` violation: all of them in a register that no write can
  // change (an ID register), else only the fields marked `on_write:
  // violation`. Hardware ignores what is written to the others.
  uint64_t read_only = 0;
  uint64_t must_be_zero = 0;  // a write of 1 is an mbz violation

  // Bits a write can change (stores and every write effect).
  uint64_t Writable() const { return store | WriteEffectBits(); }
  // Status bits that act on a written 1 or 0 (w1c, w0s, w1t, ...): a
  // read-modify-write carries them back as read, and may act on them.
  uint64_t WriteToAct() const { return OneToAct() | ZeroToAct(); }
  uint64_t OneToAct() const { return one_clears | one_sets | one_toggles; }
  uint64_t ZeroToAct() const { return zero_clears | zero_sets | zero_toggles; }
  // A register with such status bits: the device remembers what the driver
  // read of it to spot a read-modify-write that acks status by accident (a
  // `hazard`: with stored bits of the same register, or of a neighbour one
  // access also writes, like PCI COMMAND next to STATUS).
  bool HasStatusBits() const { return WriteToAct() != 0; }

  friend bool operator==(const AccessMasks&, const AccessMasks&) = default;

  // A plain read/write register: every bit stores and reads back, nothing else.
  bool IsPlain(uint64_t width_mask) const;
  // A write does more than store the written bits (see WriteBits).
  bool HasWriteEffects() const { return WriteEffectBits() != 0; }
  uint64_t WriteEffectBits() const { return store_once | WriteToAct() | write_clears | write_sets; }
  // Reads return the stored value, with no side effect (ro/hw status registers too).
  bool IsPlainRead(uint64_t width_mask) const {
    return readable == width_mask && write_only == 0 && read_clears == 0 && read_sets == 0;
  }
};

// The masks of `reg`: its fields' policies, and its default policy for bits
// no field covers.
AccessMasks ComputeAccessMasks(const regdb::Register& reg);

}  // namespace regemu::emulator
