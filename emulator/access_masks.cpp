#include "regemu/emulator/access_masks.hpp"

namespace regemu::emulator {
namespace {

void AddPolicy(AccessMasks& m, regdb::Access access, uint64_t bits) {
  const regdb::AccessInfo& info = regdb::Info(access);
  switch (info.read) {
    case regdb::ReadEffect::kValue: m.readable |= bits; break;
    case regdb::ReadEffect::kValueThenClear: m.readable |= bits; m.read_clears |= bits; break;
    case regdb::ReadEffect::kValueThenSet: m.readable |= bits; m.read_sets |= bits; break;
    case regdb::ReadEffect::kWriteOnly: m.write_only |= bits; break;
    case regdb::ReadEffect::kZero: break;
  }
  switch (info.write) {
    case regdb::WriteEffect::kIgnore: m.read_only |= bits; break;
    case regdb::WriteEffect::kDiscard: break;
    case regdb::WriteEffect::kStore: m.store |= bits; break;
    case regdb::WriteEffect::kClearAll: m.write_clears |= bits; break;
    case regdb::WriteEffect::kSetAll: m.write_sets |= bits; break;
    case regdb::WriteEffect::kOneClears: m.one_clears |= bits; break;
    case regdb::WriteEffect::kOneSets: m.one_sets |= bits; break;
    case regdb::WriteEffect::kOneToggles: m.one_toggles |= bits; break;
    case regdb::WriteEffect::kZeroClears: m.zero_clears |= bits; break;
    case regdb::WriteEffect::kZeroSets: m.zero_sets |= bits; break;
    case regdb::WriteEffect::kZeroToggles: m.zero_toggles |= bits; break;
    case regdb::WriteEffect::kStoreOnce: m.store_once |= bits; break;
    case regdb::WriteEffect::kMustBeZero: m.must_be_zero |= bits; break;
  }
}

}  // namespace

bool AccessMasks::IsPlain(uint64_t width_mask) const {
  AccessMasks plain;
  plain.readable = width_mask;
  plain.store = width_mask;
  return *this == plain;
}

AccessMasks ComputeAccessMasks(const regdb::Register& reg) {
  AccessMasks masks;
  uint64_t covered = 0;
  uint64_t strict = 0;  // fields with `on_write: violation`
  for (const regdb::Field& field : reg.fields) {
    uint64_t bits = field.mask() & reg.width_mask();
    AddPolicy(masks, field.access, bits);
    covered |= bits;
    if (field.write_is_violation) strict |= bits;
  }
  // Masked registers: bits 31:16 are the write-enable mask, not storage.
  uint64_t storage = reg.masked ? 0xFFFF : reg.width_mask();
  AddPolicy(masks, reg.default_access, storage & ~covered);
  // As hardware does: writes to read-only bits of a register with writable
  // bits are ignored (a driver writes constants, or 0xFFFFFFFF to a mask
  // register with reserved bits); writing a register that has none is a mistake.
  if (masks.Writable() != 0) masks.read_only &= strict;
  return masks;
}

}  // namespace regemu::emulator
