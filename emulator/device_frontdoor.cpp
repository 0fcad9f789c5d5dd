// The frontdoor access path: decode, shape checks, byte lanes, access
// policies, ranges and windows, violations. See emulator/README.md.
#include <algorithm>
#include <string>

#include "regemu/emulator/coverage/coverage_recorder.hpp"
#include "regemu/emulator/device_internal.hpp"

namespace regemu::emulator {
namespace {

// The write-once bits of every field holding one of `bits`; the write-once
// bits no field covers (the register's default policy) count as one field.
uint64_t OnceFieldBits(const RegisterModel& r, uint64_t store_once, uint64_t bits) {
  uint64_t result = 0;
  uint64_t covered = 0;
  for (const FieldModel& field : r.fields) {
    covered |= field.mask;
    if ((field.mask & bits) != 0) result |= field.mask & store_once;
  }
  if ((store_once & ~covered & bits) != 0) result |= store_once & ~covered;
  return result;
}

// After an access through an alias window reached the target space, the
// trace entry describes the window access again (`outer`: replaying it goes
// through the window) but names the register it reached; a violation inside
// the target is still this access's, so its outcome and kinds stay.
void KeepWindowEntry(TraceEntry& entry, const TraceEntry& outer) {
  TraceEntry inner = entry;
  entry = outer;
  entry.reg = inner.reg;
  if (inner.outcome == TraceOutcome::kViolation) {
    entry.outcome = inner.outcome;
    entry.violation = inner.violation;
    entry.violation_kinds = inner.violation_kinds;
  }
}

}  // namespace

// ------------------------------------------------------------------ frontdoor

// Every access ends here; inline (declared so in device.hpp), as it is on
// every non-plain path.
inline void Device::Finish(Access& access) {
  uint64_t sequence = access.entry.sequence;
  uint64_t value = access.entry.value;
  trace_.Commit();  // the entry is done; recording may run user code (on_violation)
  if (access.violated) Record(sequence, value);
  if (options_.access_cost_ns != 0) AdvanceLocked(options_.access_cost_ns);
}

// Without the lock (a single-threaded device) nothing follows the access,
// so the call into ReadOther / WriteOther is a tail call: the plain path
// needs no stack frame.
uint64_t Device::Read(SpaceId space, uint64_t offset, unsigned width) {
  if (!options_.thread_safe) return ReadUnguarded(space, offset, width);
  Guard guard(*this);
  return ReadUnguarded(space, offset, width);
}

void Device::Write(SpaceId space, uint64_t offset, unsigned width, uint64_t value) {
  if (!options_.thread_safe) return WriteUnguarded(space, offset, width, value);
  Guard guard(*this);
  WriteUnguarded(space, offset, width, value);
}

// Accesses by the device's own hardware (a command processor executing
// register packets), from a behaviour's hook, under the lock it holds:
// everything a CPU access goes through.
uint64_t BehaviourContext::Read(SpaceId space, uint64_t offset, unsigned width) {
  return device_.ReadUnguarded(space, offset, width);
}
void BehaviourContext::Write(SpaceId space, uint64_t offset, unsigned width, uint64_t value) {
  device_.WriteUnguarded(space, offset, width, value);
}

// The frontdoor in two parts: inline, the plain whole-register access
// (most accesses of most devices), with a frame as small as it can be;
// out of line, everything else (ReadOther, WriteOther).
inline uint64_t Device::ReadUnguarded(SpaceId space, uint64_t offset, unsigned width) {
  const SpaceModel& s = model_->spaces().at(space);
  RegisterId id = DecodeTable::kNone;
  if (space_access_[space] == SpaceAccess::kDecoded) [[likely]] {
    id = s.decode.Lookup(offset);
    if (id != DecodeTable::kNone) {
      const FastRegister& r = model_->fast(id);
      // A register whose reads have no side effect (kPlainRead: its width
      // is allowed), read whole at its own offset (the checker guarantees
      // it is aligned and inside its space), not one of a banked place's.
      if ((r.flags & (RegisterModel::kPlainRead | RegisterModel::kBanked)) == RegisterModel::kPlainRead &&
          r.offset == offset && r.width == width) {
        uint64_t value = values_[id];
        if (coverage_ != nullptr) [[unlikely]] coverage_->Read(id);
        trace_.Push(TraceEntry{++sequence_, now_ns_, offset, value, id, space, static_cast<uint8_t>(width),
                               TraceOp::kRead, TraceOutcome::kOk, 0});
        if (options_.access_cost_ns != 0) AdvanceLocked(options_.access_cost_ns);
        return value;
      }
    }
  }
  return ReadOther(space, offset, width, id);
}

// `looked_up`: what the decode table holds at `offset` (kNone when the
// space does not decode); a banked place's register is chosen here.
uint64_t Device::ReadOther(SpaceId space, uint64_t offset, unsigned width, RegisterId looked_up) {
  const SpaceModel& s = model_->spaces()[space];
  if (space_access_[space] != SpaceAccess::kDecoded) [[unlikely]] {
    Access access = OpenAccess(TraceEntry{++sequence_, now_ns_, offset, 0, kNoRegister, space,
                                          static_cast<uint8_t>(width), TraceOp::kRead, TraceOutcome::kOk, 0});
    RefuseSpace(space, access);
    // Nothing answers: a master abort reads all-ones.
    uint64_t value = IsAccessWidth(width) ? WidthMask(width) : ~uint64_t{0};
    access.entry.value = value;
    Finish(access);
    return value;
  }
  RegisterId id = SelectBank(looked_up, false);
  if (id != DecodeTable::kNone) {
    const FastRegister& r = model_->fast(id);
    // A whole register at its own offset: the checker guarantees it is
    // aligned and inside its space, so the shape checks and the byte-lane
    // walk of ReadLocked would come to ReadBits(id, all lanes).
    if (r.offset == offset && r.width == width && (r.flags & RegisterModel::kWidthAllowed) != 0) {
      Access access = OpenAccess(TraceEntry{++sequence_, now_ns_, offset, 0, id, space, static_cast<uint8_t>(width),
                                            TraceOp::kRead, TraceOutcome::kOk, 0});
      bool admitted = (r.flags & RegisterModel::kGated) == 0 || Admit(s, offset, width, access);
      uint64_t value = admitted ? ReadBits(id, WidthMask(width), access) : access.refused_reads_as;
      access.entry.value = value;
      Finish(access);
      return value;
    }
  }
  Access access = OpenAccess(TraceEntry{++sequence_, now_ns_, offset, 0, kNoRegister, space,
                                        static_cast<uint8_t>(width), TraceOp::kRead, TraceOutcome::kOk, 0});
  uint64_t value = s.gates.empty() || Admit(s, offset, width, access) ? ReadLocked(space, offset, width, access)
                                                                     : access.refused_reads_as;
  access.entry.value = value;
  Finish(access);
  return value;
}

// Inline: every write of a register a behaviour watches comes through here.
inline void Device::RunWriteHooks(RegisterId id, uint64_t before, uint64_t after, Access& access) {
  const RegisterModel& r = model_->registers()[id];
  in_flight_ = &access;  // what the hooks report belongs to this access
  for (uint16_t i = 0; i < r.hooks_count; ++i) {
    uint32_t behaviour = model_->hooks()[r.hooks_begin + i];
    BehaviourContext& context = ContextFor(behaviour);
    behaviours_[behaviour]->AfterWrite(context, id, before, after);
  }
  in_flight_ = nullptr;
}

// A whole-register write of a register outside RegisterModel::kFullWritePath
// (a control register behaviours watch, the common non-plain case): what
// WriteBits does for it, without the steps such a register cannot need.
// Nothing here may set Access::carried_reg: only kRmwTracked registers do.
inline void Device::WriteWhole(RegisterId id, uint64_t value, Access& access) {
  const RegisterModel& r = model_->registers()[id];
  const AccessMasks& m = model_->masks(r);
  uint64_t before = values_[id];
  uint64_t changed_ro = (value ^ before) & m.read_only;
  uint64_t ones = value & m.must_be_zero;
  if ((changed_ro | ones) != 0) [[unlikely]] ReportStaticWriteRules(id, before, changed_ro, ones, access);
  uint64_t after = (before & ~m.store) | (value & m.store);
  values_[id] = after;
  if (coverage_ != nullptr) [[unlikely]] coverage_->Write(id, r, m, WriteFacts{before, after, value, r.width_mask, 0});
  if (r.has(RegisterModel::kHookWrite)) RunWriteHooks(id, before, after, access);
}

void Device::WriteWholeAccess(SpaceId space, uint64_t offset, unsigned width, uint64_t value, RegisterId reg) {
  Access access = OpenAccess(TraceEntry{++sequence_, now_ns_, offset, value, reg, space, static_cast<uint8_t>(width),
                                        TraceOp::kWrite, TraceOutcome::kOk, 0});
  WriteWhole(reg, value, access);
  Finish(access);
}

inline void Device::WriteUnguarded(SpaceId space, uint64_t offset, unsigned width, uint64_t value) {
  const SpaceModel& s = model_->spaces().at(space);
  if (IsAccessWidth(width)) value &= WidthMask(width);
  RegisterId id = DecodeTable::kNone;
  if (space_access_[space] == SpaceAccess::kDecoded) [[likely]] {
    id = s.decode.Lookup(offset);
    if (id != DecodeTable::kNone) {
      const FastRegister& r = model_->fast(id);
      // A register written whole at its own offset, not one of a banked
      // place's: a plain one (kPlain: its width is allowed) as in Read, one
      // outside kFullWritePath (see WriteWhole) in a frame of its own.
      if (r.offset == offset && r.width == width) {
        if ((r.flags & (RegisterModel::kPlain | RegisterModel::kBanked)) == RegisterModel::kPlain) {
          if (coverage_ != nullptr) [[unlikely]] coverage_->Write(id, values_[id], value);
          values_[id] = value;
          trace_.Push(TraceEntry{++sequence_, now_ns_, offset, value, id, space, static_cast<uint8_t>(width),
                                 TraceOp::kWrite, TraceOutcome::kOk, 0});
          if (options_.access_cost_ns != 0) AdvanceLocked(options_.access_cost_ns);
          return;
        }
        constexpr uint16_t kWholeShape =
            RegisterModel::kBanked | RegisterModel::kWidthAllowed | RegisterModel::kFullWritePath;
        if ((r.flags & kWholeShape) == RegisterModel::kWidthAllowed) return WriteWholeAccess(space, offset, width, value, id);
      }
    }
  }
  WriteOther(space, offset, width, value, id);
}

void Device::WriteOther(SpaceId space, uint64_t offset, unsigned width, uint64_t value, RegisterId looked_up) {
  const SpaceModel& s = model_->spaces()[space];
  if (space_access_[space] != SpaceAccess::kDecoded) [[unlikely]] {
    Access access = OpenAccess(TraceEntry{++sequence_, now_ns_, offset, value, kNoRegister, space,
                                          static_cast<uint8_t>(width), TraceOp::kWrite, TraceOutcome::kOk, 0});
    RefuseSpace(space, access);
    Finish(access);
    return;
  }
  RegisterId id = SelectBank(looked_up, true);
  if (id != DecodeTable::kNone) {
    const FastRegister& r = model_->fast(id);
    // A whole register at its own offset, as in ReadOther.
    if (r.offset == offset && r.width == width && (r.flags & RegisterModel::kWidthAllowed) != 0) {
      Access access = OpenAccess(TraceEntry{++sequence_, now_ns_, offset, value, id, space, static_cast<uint8_t>(width),
                                            TraceOp::kWrite, TraceOutcome::kOk, 0});
      if ((r.flags & RegisterModel::kFullWritePath) == 0) {
        WriteWhole(id, value, access);
      } else {
        if ((r.flags & RegisterModel::kGated) == 0 || Admit(s, offset, width, access)) {
          WriteBits(id, WidthMask(width), value, access);
        }
        if (access.carried_reg != kNoRegister) ReportCarriedStatus(access);
      }
      Finish(access);
      return;
    }
  }
  Access access = OpenAccess(TraceEntry{++sequence_, now_ns_, offset, value, kNoRegister, space,
                                        static_cast<uint8_t>(width), TraceOp::kWrite, TraceOutcome::kOk, 0});
  if (s.gates.empty() || Admit(s, offset, width, access)) WriteLocked(space, offset, width, value, access);
  if (access.carried_reg != kNoRegister) ReportCarriedStatus(access);
  Finish(access);
}

uint64_t Device::ReadRegister(RegisterId reg) {
  const RegisterModel& r = model_->registers().at(reg);
  return Read(r.space, r.offset, r.width);
}

void Device::WriteRegister(RegisterId reg, uint64_t value) {
  const RegisterModel& r = model_->registers().at(reg);
  Write(r.space, r.offset, r.width, value);
}

// The gate: the behaviour owning a gated range holding `offset` may refuse
// the access before anything else (no decode, no side effect). A refused
// access is a violation of the behaviour's kind, reads what the refusal
// says (cut to the access's width) and writes nothing;
// it stays refused even when the policy ignores that kind.
bool Device::Admit(const SpaceModel& space, uint64_t offset, unsigned width, Access& access) {
  const GateModel* gate = space.GateAt(offset);
  if (gate == nullptr) return true;
  BehaviourContext& context = ContextFor(gate->behaviour);
  in_flight_ = &access;
  std::optional<AccessRefusal> refusal =
      roles_[gate->behaviour].gate->CheckAccess(context, gate->tag, offset, width, access.entry.op == TraceOp::kWrite);
  in_flight_ = nullptr;
  if (!refusal) return true;
  if (access.entry.reg == kNoRegister) access.entry.reg = DecodeAt(space, offset, access.entry.op == TraceOp::kWrite);  // names it, if any
  if (access.entry.op == TraceOp::kWrite) access.entry.outcome = TraceOutcome::kDropped;
  access.refused_reads_as = refusal->reads_as & (IsAccessWidth(width) ? WidthMask(width) : ~uint64_t{0});
  Violate(access, refusal->kind, kNoRegister, 0, std::move(refusal->rule));
  return false;
}

// A space that does not answer (decode off, powered down): the access is a
// violation naming the register there, if any; it has no other effect.
void Device::RefuseSpace(SpaceId space, Access& access) {
  const SpaceModel& s = model_->spaces()[space];
  if (access.entry.offset < s.size) access.entry.reg = DecodeAt(s, access.entry.offset, access.entry.op == TraceOp::kWrite);
  access.entry.outcome = access.entry.op == TraceOp::kWrite ? TraceOutcome::kDropped : TraceOutcome::kUnclaimed;
  ViolationKind kind =
      space_access_[space] == SpaceAccess::kPoweredDown ? ViolationKind::kPower : ViolationKind::kUnclaimed;
  Violate(access, kind, kNoRegister, 0, space_access_why_[space]);
}

bool Device::CheckShape(const SpaceModel& space, uint64_t offset, unsigned width, regdb::WidthSet widths,
                        Access& access) {
  if (!IsAccessWidth(width) || !widths.Contains(width)) {
    Violate(access, ViolationKind::kWidth, kNoRegister, 0,
            std::to_string(width) + "-bit accesses are not allowed here (allowed: " + widths.ToString() + ")");
    return false;
  }
  if (!space.indexed && space.natural_alignment && offset % (width / 8) != 0) {
    Violate(access, ViolationKind::kAlignment, kNoRegister, 0,
            "a " + std::to_string(width) + "-bit access must start at a multiple of " + std::to_string(width / 8));
    return false;
  }
  uint64_t extent = space.indexed ? 1 : width / 8;
  if (offset >= space.size || extent > space.size - offset) {
    access.entry.outcome = TraceOutcome::kUnclaimed;
    Violate(access, ViolationKind::kUnclaimed, kNoRegister, 0,
            "the access lies outside space '" + space.name + "' (size " + regdb::Hex(space.size) + ")");
    return false;
  }
  return true;
}

bool Device::WindowEnabled(const RangeModel& range) const {
  if (range.enable_register == DecodeTable::kNone) return true;
  return (values_[range.enable_register] & range.enable_mask) != 0;
}

uint64_t Device::ReadLocked(SpaceId space_id, uint64_t offset, unsigned width, Access& access) {
  const SpaceModel& space = model_->spaces()[space_id];
  uint64_t unclaimed = space.unclaimed & WidthMask(width);
  if (!CheckShape(space, offset, width, space.widths, access)) return unclaimed;

  if (space.indexed) {
    RegisterId id = DecodeAt(space, offset, false);
    if (id != DecodeTable::kNone) {
      access.entry.reg = id;
      return ReadBits(id, WidthMask(width) & model_->registers()[id].width_mask, access);
    }
  } else {
    // Compose the access from the registers under its bytes (a dword read of
    // two 16-bit PCI registers), byte lane by byte lane.
    uint64_t value = 0;
    bool claimed = false;
    unsigned bytes = width / 8;
    uint64_t gaps = 0;  // byte lanes no register holds
    for (unsigned b = 0; b < bytes;) {
      RegisterId id = DecodeAt(space, offset + b, false);
      if (id == DecodeTable::kNone) {
        gaps |= uint64_t{1} << b;
        ++b;
        continue;
      }
      const RegisterModel& r = model_->registers()[id];
      uint64_t first = offset + b - r.offset;  // byte within the register
      unsigned count = static_cast<unsigned>(std::min<uint64_t>(r.extent - first, bytes - b));
      uint64_t lanes = WidthMask(8 * count) << (8 * first);
      uint64_t bits = ReadBits(id, lanes, access);
      value |= ((bits >> (8 * first)) & WidthMask(8 * count)) << (8 * b);
      if (!claimed) access.entry.reg = id;
      claimed = true;
      b += count;
    }
    if (claimed) {
      // Beside a register: a memory space's bytes are RAM, others read as unclaimed.
      for (unsigned b = 0; b < bytes; ++b) {
        if (((gaps >> b) & 1) == 0) continue;
        uint64_t byte = space.IsRam(offset + b) ? memory_[space_id].Load(offset + b, 1) : (unclaimed >> (8 * b)) & 0xFF;
        value |= byte << (8 * b);
      }
      return value;
    }
  }

  if (const RangeModel* range = space.RangeAt(offset)) {
    if (range->kind == regdb::RangeKind::kReserved) {
      access.entry.outcome = TraceOutcome::kReserved;
      if (!options_.reserved_read) return 0;
      // A SW-virtualized guest: its VMM answers for the range.
      std::optional<uint64_t> answer = options_.reserved_read(range->name, offset - range->base, width);
      return answer ? *answer & WidthMask(width) : 0;
    }
    if (WindowEnabled(*range)) {
      if (!CheckShape(space, offset, width, range->widths, access)) return unclaimed;
      access.entry.outcome = TraceOutcome::kAlias;
      TraceEntry outer = access.entry;
      uint64_t value = ReadLocked(range->target_space, range->TargetOffset(offset), width, access);
      KeepWindowEntry(access.entry, outer);
      return value;
    }
  }
  // A memory space is RAM where nothing else decodes (CheckShape kept the access inside it).
  if (space.kind == regdb::SpaceKind::kMemory) return memory_[space_id].Load(offset, width / 8);
  // Traced as unclaimed even when the policy ignores the violation (which then leaves the outcome alone).
  access.entry.outcome = TraceOutcome::kUnclaimed;
  Violate(access, ViolationKind::kUnclaimed, kNoRegister, 0, "no register, range or window decodes here");
  return unclaimed;
}

void Device::WriteLocked(SpaceId space_id, uint64_t offset, unsigned width, uint64_t value, Access& access) {
  const SpaceModel& space = model_->spaces()[space_id];
  if (!CheckShape(space, offset, width, space.widths, access)) return;

  if (space.indexed) {
    RegisterId id = DecodeAt(space, offset, true);
    if (id != DecodeTable::kNone) {
      access.entry.reg = id;
      WriteBits(id, WidthMask(width) & model_->registers()[id].width_mask, value, access);
      return;
    }
  } else {
    bool claimed = false;
    unsigned bytes = width / 8;
    uint64_t gaps = 0;  // byte lanes no register holds
    for (unsigned b = 0; b < bytes;) {
      RegisterId id = DecodeAt(space, offset + b, true);
      if (id == DecodeTable::kNone) {
        gaps |= uint64_t{1} << b;
        ++b;
        continue;
      }
      const RegisterModel& r = model_->registers()[id];
      uint64_t first = offset + b - r.offset;
      unsigned count = static_cast<unsigned>(std::min<uint64_t>(r.extent - first, bytes - b));
      uint64_t lanes = WidthMask(8 * count) << (8 * first);
      uint64_t bits = ((value >> (8 * b)) & WidthMask(8 * count)) << (8 * first);
      if (!claimed) access.entry.reg = id;
      claimed = true;
      WriteBits(id, lanes, bits, access);
      b += count;
    }
    if (claimed) {
      // Beside a register, a memory space's bytes are RAM; elsewhere they are dropped.
      for (unsigned b = 0; b < bytes; ++b) {
        if (((gaps >> b) & 1) != 0 && space.IsRam(offset + b)) memory_[space_id].Store(offset + b, 1, value >> (8 * b));
      }
      return;
    }
  }

  if (const RangeModel* range = space.RangeAt(offset)) {
    if (range->kind == regdb::RangeKind::kReserved) {
      access.entry.outcome = TraceOutcome::kReserved;
      return;
    }
    if (WindowEnabled(*range)) {
      if (!CheckShape(space, offset, width, range->widths, access)) return;
      if (range->writes == regdb::AliasWrites::kIgnore) {
        // Named after the register the write meant to reach, if any.
        const SpaceModel& target = model_->spaces()[range->target_space];
        uint64_t target_offset = range->TargetOffset(offset);
        access.entry.reg = DecodeAt(target, target_offset, true);
        std::string reached = access.entry.reg == kNoRegister
                                  ? ""
                                  : " (" + model_->registers()[access.entry.reg].name + " at " +
                                        regdb::Hex(target_offset) + ")";
        Violate(access, ViolationKind::kAliasWrite, kNoRegister, 0,
                "window '" + range->name + "' is a read-only view of space '" + target.name + "'" + reached +
                    ": writes have no effect");
        return;
      }
      access.entry.outcome = TraceOutcome::kAlias;
      TraceEntry outer = access.entry;
      WriteLocked(range->target_space, range->TargetOffset(offset), width, value, access);
      KeepWindowEntry(access.entry, outer);
      return;
    }
  }
  if (space.kind == regdb::SpaceKind::kMemory) {
    memory_[space_id].Store(offset, width / 8, value);
    return;
  }
  // Traced as unclaimed even when the policy ignores the violation (which then leaves the outcome alone).
  access.entry.outcome = TraceOutcome::kUnclaimed;
  Violate(access, ViolationKind::kUnclaimed, kNoRegister, 0, "no register, range or window decodes here");
}

uint64_t Device::ReadBits(RegisterId id, uint64_t lanes, Access& access) {
  const RegisterModel& r = model_->registers()[id];
  if (r.has(RegisterModel::kHookRead)) {
    in_flight_ = &access;  // what the hooks report belongs to this access
    for (uint16_t i = 0; i < r.hooks_count; ++i) {
      uint32_t behaviour = model_->hooks()[r.hooks_begin + i];
      BehaviourContext& context = ContextFor(behaviour);
      behaviours_[behaviour]->BeforeRead(context, id);
    }
    in_flight_ = nullptr;
  }
  const AccessMasks& m = model_->masks(r);
  if ((lanes & m.write_only) != 0 && (lanes & m.readable) == 0) [[unlikely]] ReportWriteOnlyRead(id, lanes, access);
  uint64_t current = values_[id];
  if (coverage_ != nullptr) [[unlikely]] coverage_->Read(id, m, current, lanes);
  values_[id] = (current & ~(m.read_clears & lanes)) | (m.read_sets & lanes);
  if (values_[id] != current) {
    if (r.has(RegisterModel::kView)) SyncViews(id);
    if (r.hooks_count != 0 || r.has(RegisterModel::kView)) {
      // A read-clear or read-set is a change the behaviours must hear of,
      // so a reaction's `change` trigger and the interrupt roll-up see
      // LSR's error bits clear when LSR is read.
      in_flight_ = &access;
      NotifyStore(id, current, values_[id], kNoBehaviour);
      in_flight_ = nullptr;
    }
  }
  uint64_t result = current & m.readable & lanes;
  if (r.has(RegisterModel::kHookRead)) {
    in_flight_ = &access;
    for (uint16_t i = 0; i < r.hooks_count; ++i) {
      uint32_t behaviour = model_->hooks()[r.hooks_begin + i];
      BehaviourContext& context = ContextFor(behaviour);
      result = behaviours_[behaviour]->AfterRead(context, id, result) & lanes;
    }
    in_flight_ = nullptr;
  }
  if (r.has(RegisterModel::kRmwTracked)) {
    // What was read, in the state in which writing it back acts.
    uint64_t& armed = armed_[r.rmw_slot];
    armed = (armed & ~lanes) | (lanes & ((result & m.OneToAct()) | (~result & m.ZeroToAct())));
  }
  return result;
}

void Device::ReportWriteOnlyRead(RegisterId id, uint64_t lanes, Access& access) {
  const AccessMasks& m = model_->masks(model_->registers()[id]);
  Violate(access, ViolationKind::kWriteOnly, id, lanes & m.write_only, "write-only bits read as 0");
}

void Device::NotifyStore(RegisterId reg, uint64_t before, uint64_t after, uint32_t except) {
  RegisterId at = reg;
  do {
    const RegisterModel& r = model_->registers()[at];
    for (uint16_t i = 0; i < r.hooks_count; ++i) {
      uint32_t behaviour = model_->hooks()[r.hooks_begin + i];
      if (behaviour == except) continue;
      BehaviourContext& context = ContextFor(behaviour);
      behaviours_[behaviour]->OnStore(context, at, before, after);
    }
    at = r.has(RegisterModel::kView) ? r.view_next : reg;
  } while (at != reg);
}

// What a write does beyond storing the written bits, on `after` (the
// stored result so far). `once_stored`: the write-once bits it stored.
uint64_t Device::ApplyWriteEffects(const RegisterModel& r, const AccessMasks& m, uint64_t written, uint64_t value,
                                   uint64_t after, uint64_t& once_stored) {
  if (uint64_t once = m.store_once & written) {
    // Write-once is a field's policy: the write stores into once-fields not
    // written since reset, and uses up every once-field it touches (all of
    // the field, also lanes it did not cover), but no other.
    uint64_t& done = written_once_[r.once_slot];
    uint64_t fresh = once & ~done;
    once_stored = fresh;
    after = (after & ~fresh) | (value & fresh);
    done |= OnceFieldBits(r, m.store_once, once);
  }
  after &= ~(value & m.one_clears & written);
  after |= value & m.one_sets & written;
  after ^= value & m.one_toggles & written;
  after &= ~(~value & m.zero_clears & written);
  after |= ~value & m.zero_sets & written;
  after ^= ~value & m.zero_toggles & written;
  after &= ~(m.write_clears & written);
  after |= m.write_sets & written;
  return after & r.width_mask;
}

void Device::WriteBits(RegisterId id, uint64_t lanes, uint64_t value, Access& access) {
  const RegisterModel& r = model_->registers()[id];
  const AccessMasks& m = model_->masks(r);
  uint64_t written = lanes;
  if (r.has(RegisterModel::kMasked)) {
    // Bits 31:16 of the write choose which of bits 15:0 it changes; an enable
    // not written (another byte lane) enables nothing.
    written = ((value & lanes) >> 16) & lanes & 0xFFFF;
  }
  if (r.has(RegisterModel::kWriteGate)) {
    // A gate that does not hold keeps its bits as they are; one over every
    // bit written drops the write: no store, no hook, as on hardware.
    uint64_t closed = ClosedWriteGates(id, written, access);
    if (closed != 0 && (written & ~closed) == 0) return;
    written &= ~closed;
  }
  uint64_t before = values_[id];
  uint64_t changed_ro = (value ^ before) & m.read_only & written;
  uint64_t ones = value & m.must_be_zero & written;
  if ((changed_ro | ones) != 0) [[unlikely]] ReportStaticWriteRules(id, before, changed_ro, ones, access);
  if (r.has(RegisterModel::kMasked) && written == 0) CheckMaskedEnables(id, lanes, value, access);
  if (uint64_t changed = (value ^ before) & m.store & written; changed != 0 && access.changed_reg == kNoRegister) {
    access.changed_reg = id;
    access.changed_bits = changed;
  }
  if (r.has(RegisterModel::kRmwTracked)) {
    // A read-modify-write carries status bits back as the driver read them.
    // Where that acts (a w1c bit read as 1 and written as 1 clears it; a
    // w0s bit read as 0 and written as 0 sets it), note them: with stored
    // bits changed by the same access, that is a hazard (ReportCarriedStatus).
    uint64_t& armed = armed_[r.rmw_slot];
    uint64_t acts_on_one = (m.one_clears & before) | (m.one_sets & ~before) | m.one_toggles;
    uint64_t acts_on_zero = (m.zero_clears & before) | (m.zero_sets & ~before) | m.zero_toggles;
    uint64_t carried = armed & written & ((value & acts_on_one) | (~value & acts_on_zero));
    armed &= ~lanes;  // the write used up what was read
    if (carried != 0 && access.carried_reg == kNoRegister) {
      access.carried_reg = id;
      access.carried_bits = carried;
    }
  }
  uint64_t after = (before & ~(m.store & written)) | (value & m.store & written);
  uint64_t once_stored = 0;  // for coverage
  if (r.has(RegisterModel::kWriteEffects)) after = ApplyWriteEffects(r, m, written, value, after, once_stored);
  values_[id] = after;
  if (r.has(RegisterModel::kView)) SyncViews(id);
  if (coverage_ != nullptr) [[unlikely]] coverage_->Write(id, r, m, WriteFacts{before, after, value, written, once_stored});
  if (r.has(RegisterModel::kHookWrite)) RunWriteHooks(id, before, after, access);
  if (r.has(RegisterModel::kView)) {
    // A write through a view is a write of its storage and of every view:
    // behaviours hooked on any of them hear of it, under its own name.
    const auto& regs = model_->registers();
    for (RegisterId v = r.view_next; v != id; v = regs[v].view_next) {
      if (regs[v].has(RegisterModel::kHookWrite)) RunWriteHooks(v, before, after, access);
    }
  }
}

namespace {

// What a write gate's condition reads: the device's registers now.
class GateEnv : public regdb::ExpressionEnv {
 public:
  GateEnv(const Model& model, std::span<const uint64_t> values) : model_(model), values_(values) {}
  uint64_t Load(uint64_t id) const override {
    RegisterId reg = regdb::OperandRegister(id);
    return model_.registers()[reg].OperandValue(id, values_[reg]);
  }

 private:
  const Model& model_;
  std::span<const uint64_t> values_;
};

}  // namespace

// The bits of `written` whose write gate does not hold now, each blocked
// gate with a rule reporting its violation.
uint64_t Device::ClosedWriteGates(RegisterId id, uint64_t written, Access& access) {
  const RegisterModel& r = model_->registers()[id];
  GateEnv env(*model_, values_);
  uint64_t closed = 0;
  for (const WriteGateModel& gate : r.write_gates) {
    uint64_t bits = gate.mask & written;
    if (bits == 0 || gate.when.Evaluate(env) != 0) continue;
    closed |= gate.mask;
    if (!gate.rule.empty()) Violate(access, gate.kind, id, bits, gate.rule);
  }
  return closed;
}

// Read-only bits changed and must-be-zero bits written as 1: out of line
// (cold), as building the messages would cost WriteBits a large stack frame.
void Device::ReportStaticWriteRules(RegisterId id, uint64_t before, uint64_t changed_ro, uint64_t ones,
                                    Access& access) {
  const RegisterModel& r = model_->registers()[id];
  const AccessMasks& m = model_->masks(r);
  if (changed_ro != 0) {
    // m.read_only holds every read-only bit only in a register no write can
    // change; elsewhere only fields marked `on_write: violation`.
    Violate(access, ViolationKind::kReadOnly, id, changed_ro,
            m.Writable() == 0
                ? "no bit of " + r.name + " can be changed by a write (every bit is read-only, hardware-owned or "
                  "reserved): the write would change bits " + regdb::Hex(changed_ro) +
                  " and has no effect on hardware; do not write this register"
                : "the write would change read-only bits " + regdb::Hex(changed_ro) +
                  ", which the database marks `on_write: violation`; hardware ignores them: write them as they "
                  "read (" + regdb::Hex(before & changed_ro) + ")");
  }
  if (ones != 0) {
    Violate(access, ViolationKind::kMbz, id, ones,
            "must-be-zero bits " + regdb::Hex(ones) + " written as 1 (write them as 0)");
  }
}

// An Intel masked register written with value bits but no enable: bits
// 31:16 choose which of bits 15:0 change, so the write changes nothing. The
// driver almost certainly meant _MASKED_BIT_ENABLE.
void Device::CheckMaskedEnables(RegisterId id, uint64_t lanes, uint64_t value, Access& access) {
  uint64_t bits = value & lanes & 0xFFFF;
  if (bits == 0) return;
  const RegisterModel& r = model_->registers()[id];
  Violate(access, ViolationKind::kHazard, id, bits,
          r.name + " is a masked register: bits 31:16 of a write select which of bits 15:0 change, and this write "
          "enables none, so value bits " + regdb::Hex(bits) + " change nothing. To set them write " +
              regdb::HexPadded((bits << 16) | bits, 32) + " (_MASKED_BIT_ENABLE), to clear them " + regdb::HexPadded(bits << 16, 32) +
              " (_MASKED_BIT_DISABLE)");
}

void Device::ReportCarriedStatus(Access& access) {
  if (access.changed_reg == kNoRegister) return;  // an ack alone (status written back, control unchanged) is the idiom
  const RegisterModel& status = model_->registers()[access.carried_reg];
  const RegisterModel& control = model_->registers()[access.changed_reg];
  const AccessMasks& m = model_->masks(status);
  uint64_t bits = access.carried_bits;
  std::string effect;
  for (auto [mask, verb] : {std::pair{m.one_clears | m.zero_clears, "clears"}, std::pair{m.one_sets | m.zero_sets, "sets"},
                            std::pair{m.one_toggles | m.zero_toggles, "toggles"}}) {
    if ((bits & mask) != 0) effect += (effect.empty() ? "" : " or ") + std::string(verb);
  }
  effect += " them";
  bool same = access.changed_reg == access.carried_reg;
  std::string inert = (bits & m.OneToAct()) != 0 ? "0" : "1";
  std::string control_bits = same ? "control bits " + regdb::Hex(access.changed_bits) + " of " + control.name
                                  : control.name + " bits " + regdb::Hex(access.changed_bits);
  std::string idiom = same ? "write the new control value with those status bits as " + inert
                           : "write " + control.name + " on its own (a " + std::to_string(control.width) +
                                 "-bit access at " + regdb::Hex(control.offset) + ")";
  std::string status_name = std::string(status.FieldAt(bits));
  Violate(access, ViolationKind::kHazard, access.carried_reg, bits,
          "read-modify-write: the write changes " + control_bits + " and writes status bits " + regdb::Hex(bits) +
              " of " + status.name + (status_name.empty() ? "" : " (" + status_name + ")") +
              " back as it read them, which " + effect + ": pending status acked by accident. Write only what you " +
              "mean: " + idiom + ", and ack a status with a separate write of exactly the bits being acked");
}

void Device::Violate(Access& access, ViolationKind kind, RegisterId reg, uint64_t field_bits, std::string rule) {
  ViolationAction action = options_.policy.action(kind);
  if (action == ViolationAction::kIgnore) return;
  // Counted whether or not it is kept (max_violations): coverage counts them all.
  if (coverage_ != nullptr) [[unlikely]] coverage_->Violation(kind, reg != kNoRegister ? reg : access.entry.reg);
  if (!access.violated) {
    access.violated = true;
    access.entry.outcome = TraceOutcome::kViolation;
    access.entry.violation = static_cast<uint8_t>(kind);
  }
  access.entry.violation_kinds =
      static_cast<uint16_t>(access.entry.violation_kinds | (1u << static_cast<unsigned>(kind)));
  ++violation_count_;
  if (action == ViolationAction::kFail) ++failing_count_;
  if (violations_.size() + pending_violations_.size() >= options_.max_violations && !options_.on_violation) return;

  Violation v;
  v.kind = kind;
  v.op = access.entry.op;
  v.sequence = access.entry.sequence;
  v.time_ns = access.entry.time_ns;
  v.space = model_->spaces()[access.entry.space].name;
  v.offset = access.entry.offset;
  v.width = access.entry.width;
  v.value = access.entry.value;
  if (reg != kNoRegister) {
    const RegisterModel& r = model_->registers()[reg];
    v.register_name = r.name;
    v.field_name = std::string(r.FieldAt(field_bits));
  } else if (access.entry.reg != kNoRegister) {
    v.register_name = model_->registers()[access.entry.reg].name;
  }
  v.rule = std::move(rule);
  v.recent = trace_.Last(options_.violation_context);
  v.fails = action == ViolationAction::kFail;
  pending_violations_.push_back(std::move(v));
}

void Device::Record(uint64_t sequence, uint64_t read_value) {
  // Taken out first: on_violation may throw (a test's fatal failure), and an
  // access abandoned by an exception must not leave its violations to the next.
  std::vector<Violation> pending;
  pending.swap(pending_violations_);
  for (Violation& v : pending) {
    if (v.sequence != sequence) continue;  // left by an access an exception abandoned
    if (v.op == TraceOp::kRead) v.value = read_value;  // the value the read returned
    if (options_.on_violation) options_.on_violation(v);
    if (violations_.size() < options_.max_violations) violations_.push_back(std::move(v));
  }
}

}  // namespace regemu::emulator
