#include "tools/traces/register_knowledge.hpp"

#include "regemu/emulator/access_masks.hpp"

namespace regemu::traces {

RegisterKnowledge::RegisterKnowledge(const regdb::Database& db, const emulator::Model& model)
    : bits_(model.registers().size()) {
  for (const regdb::Register& reg : db.registers) {
    auto id = model.FindRegister(reg.name);
    if (!id) continue;
    const emulator::RegisterModel& r = model.registers()[*id];
    const emulator::AccessMasks& masks = model.masks(r);
    RegisterBits& bits = bits_[*id];
    if (reg.is_volatile) bits.unknowable = r.width_mask;
    for (const regdb::Field& field : reg.fields) {
      if (field.is_volatile || field.access == regdb::Access::kHw) bits.unknowable |= field.mask();
    }
    // Bits no field covers take the register's default policy.
    if (reg.default_access == regdb::Access::kHw) {
      uint64_t covered = 0;
      for (const regdb::Field& field : reg.fields) covered |= field.mask();
      bits.unknowable |= r.width_mask & ~covered;
    }
    bits.unknowable &= r.width_mask;
    // Volatile status bits too: the value is not compared, but the model
    // takes the event so that its behaviours (an interrupt selector's
    // protocol rule, the master's level bits) see what the driver saw.
    bits.pokable = masks.WriteToAct();
    bits.status = (masks.WriteToAct() | masks.read_clears) & ~bits.unknowable;
    bits.one_clears = masks.one_clears & ~bits.unknowable;
    bits.zero_clears = masks.zero_clears & ~bits.unknowable;
    bits.fixed = masks.readable & ~masks.Writable() & ~bits.status & ~bits.unknowable & ~masks.read_sets;
    bits.stored = masks.readable & masks.store & ~bits.status & ~bits.unknowable;
    // Write-only bits read 0 here too, but hardware may return anything for them.
    bits.reads_zero = r.width_mask & ~masks.readable & ~masks.write_only & ~bits.unknowable;
  }
}

}  // namespace regemu::traces
