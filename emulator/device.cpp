#include "emulator/device.hpp"

#include <mutex>
#include <stdexcept>

namespace regemu::emulator {

// One frontdoor access in flight: its trace entry and what it ran into.
struct Device::Access {
  Access(const TraceEntry& entry_in, bool violated_in) : entry(entry_in), violated(violated_in) {}

  TraceEntry entry;
  bool violated = false;
  // Its violations, recorded when it finishes: only then is the value a read
  // returns known (a violation carries it).
  std::vector<Violation> pending;
};

namespace {

bool IsAccessWidth(unsigned width) { return width == 8 || width == 16 || width == 32 || width == 64; }
uint64_t WidthMask(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

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

}  // namespace

Device::Device(std::shared_ptr<const Model> model, DeviceOptions options)
    : model_(std::move(model)), options_(std::move(options)), trace_(options_.trace_capacity) {
  const auto& regs = model_->registers();
  values_.resize(regs.size());
  for (size_t i = 0; i < regs.size(); ++i) values_[i] = regs[i].reset;
  written_once_.assign(model_->once_slots(), 0);
  behaviours_.reserve(model_->behaviours().size());
  for (const auto& program : model_->behaviours()) behaviours_.push_back(program->Instantiate());
  BehaviourContext context(*this);
  for (auto& behaviour : behaviours_) behaviour->OnReset(context);
}

Device::~Device() = default;

// ------------------------------------------------------------------ frontdoor

uint64_t Device::Read(SpaceId space, uint64_t offset, unsigned width) {
  std::lock_guard guard(lock_);
  const SpaceModel& s = model_->spaces().at(space);
  RegisterId id = s.decode.Lookup(offset);
  if (id != DecodeTable::kNone) {
    const RegisterModel& r = model_->registers()[id];
    // A whole register at its own offset: the checker guarantees it is
    // aligned and inside its space, so the shape checks and the byte-lane
    // walk of ReadLocked would come to ReadBits(id, all lanes).
    if (r.offset == offset && r.width == width && s.widths.Contains(width)) {
      if (r.has(RegisterModel::kPlain)) {
        // The fastest path: no side effect, the trace entry built in place.
        uint64_t value = values_[id];
        trace_.Push(TraceEntry{++sequence_, now_ns_, offset, value, id, space, static_cast<uint8_t>(width),
                               TraceOp::kRead, TraceOutcome::kOk, 0});
        if (options_.access_cost_ns != 0) AdvanceLocked(options_.access_cost_ns);
        return value;
      }
      Access access{TraceEntry{++sequence_, now_ns_, offset, 0, id, space, static_cast<uint8_t>(width),
                               TraceOp::kRead, TraceOutcome::kOk, 0},
                    false};
      uint64_t value = ReadBits(id, WidthMask(width), access);
      access.entry.value = value;
      Finish(access);
      return value;
    }
  }
  Access access{TraceEntry{++sequence_, now_ns_, offset, 0, kNoRegister, space, static_cast<uint8_t>(width),
                           TraceOp::kRead, TraceOutcome::kOk, 0},
                false};
  uint64_t value = ReadLocked(space, offset, width, access);
  access.entry.value = value;
  Finish(access);
  return value;
}

void Device::Write(SpaceId space, uint64_t offset, unsigned width, uint64_t value) {
  std::lock_guard guard(lock_);
  const SpaceModel& s = model_->spaces().at(space);
  if (IsAccessWidth(width)) value &= WidthMask(width);
  RegisterId id = s.decode.Lookup(offset);
  if (id != DecodeTable::kNone) {
    const RegisterModel& r = model_->registers()[id];
    // A whole register at its own offset, as in Read.
    if (r.offset == offset && r.width == width && s.widths.Contains(width)) {
      if (r.has(RegisterModel::kPlain)) {
        values_[id] = value;
        trace_.Push(TraceEntry{++sequence_, now_ns_, offset, value, id, space, static_cast<uint8_t>(width),
                               TraceOp::kWrite, TraceOutcome::kOk, 0});
        if (options_.access_cost_ns != 0) AdvanceLocked(options_.access_cost_ns);
        return;
      }
      Access access{TraceEntry{++sequence_, now_ns_, offset, value, id, space, static_cast<uint8_t>(width),
                               TraceOp::kWrite, TraceOutcome::kOk, 0},
                    false};
      WriteBits(id, WidthMask(width), value, access);
      Finish(access);
      return;
    }
  }
  Access access{TraceEntry{++sequence_, now_ns_, offset, value, kNoRegister, space, static_cast<uint8_t>(width),
                           TraceOp::kWrite, TraceOutcome::kOk, 0},
                false};
  WriteLocked(space, offset, width, value, access);
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
    RegisterId id = space.decode.Lookup(offset);
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
    for (unsigned b = 0; b < bytes;) {
      RegisterId id = space.decode.Lookup(offset + b);
      if (id == DecodeTable::kNone) {
        value |= ((unclaimed >> (8 * b)) & 0xFF) << (8 * b);
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
    if (claimed) return value;
  }

  if (const RangeModel* range = space.RangeAt(offset)) {
    if (range->kind == regdb::RangeKind::kReserved) {
      access.entry.outcome = TraceOutcome::kReserved;
      return 0;
    }
    if (WindowEnabled(*range)) {
      if (!CheckShape(space, offset, width, range->widths, access)) return unclaimed;
      access.entry.outcome = TraceOutcome::kAlias;
      TraceEntry outer = access.entry;
      uint64_t value = ReadLocked(range->target_space, range->target_offset + (offset - range->base), width, access);
      TraceEntry inner = access.entry;
      access.entry = outer;
      // A violation inside the target is this access's: keep its outcome and its kind.
      if (inner.outcome == TraceOutcome::kViolation) {
        access.entry.outcome = inner.outcome;
        access.entry.violation = inner.violation;
        access.entry.violation_kinds = inner.violation_kinds;
      }
      return value;
    }
  }
  // Traced as unclaimed even when the policy ignores the violation (which then leaves the outcome alone).
  access.entry.outcome = TraceOutcome::kUnclaimed;
  Violate(access, ViolationKind::kUnclaimed, kNoRegister, 0, "no register, range or window decodes here");
  return unclaimed;
}

void Device::WriteLocked(SpaceId space_id, uint64_t offset, unsigned width, uint64_t value, Access& access) {
  const SpaceModel& space = model_->spaces()[space_id];
  if (!CheckShape(space, offset, width, space.widths, access)) return;

  if (space.indexed) {
    RegisterId id = space.decode.Lookup(offset);
    if (id != DecodeTable::kNone) {
      access.entry.reg = id;
      WriteBits(id, WidthMask(width) & model_->registers()[id].width_mask, value, access);
      return;
    }
  } else {
    bool claimed = false;
    unsigned bytes = width / 8;
    for (unsigned b = 0; b < bytes;) {
      RegisterId id = space.decode.Lookup(offset + b);
      if (id == DecodeTable::kNone) {
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
    if (claimed) return;
  }

  if (const RangeModel* range = space.RangeAt(offset)) {
    if (range->kind == regdb::RangeKind::kReserved) {
      access.entry.outcome = TraceOutcome::kReserved;
      return;
    }
    if (WindowEnabled(*range)) {
      if (!CheckShape(space, offset, width, range->widths, access)) return;
      if (range->writes == regdb::AliasWrites::kIgnore) {
        Violate(access, ViolationKind::kAliasWrite, kNoRegister, 0,
                "window '" + range->name + "' is a read-only view of space '" +
                    model_->spaces()[range->target_space].name + "': writes have no effect");
        return;
      }
      access.entry.outcome = TraceOutcome::kAlias;
      TraceEntry outer = access.entry;
      WriteLocked(range->target_space, range->target_offset + (offset - range->base), width, value, access);
      TraceEntry inner = access.entry;
      access.entry = outer;
      // A violation inside the target is this access's: keep its outcome and its kind.
      if (inner.outcome == TraceOutcome::kViolation) {
        access.entry.outcome = inner.outcome;
        access.entry.violation = inner.violation;
        access.entry.violation_kinds = inner.violation_kinds;
      }
      return;
    }
  }
  // Traced as unclaimed even when the policy ignores the violation (which then leaves the outcome alone).
  access.entry.outcome = TraceOutcome::kUnclaimed;
  Violate(access, ViolationKind::kUnclaimed, kNoRegister, 0, "no register, range or window decodes here");
}

uint64_t Device::ReadBits(RegisterId id, uint64_t lanes, Access& access) {
  const RegisterModel& r = model_->registers()[id];
  if (r.has(RegisterModel::kHookRead)) {
    BehaviourContext context(*this);
    in_flight_ = &access;  // what the hooks report belongs to this access
    for (uint16_t i = 0; i < r.hooks_count; ++i) {
      behaviours_[model_->hooks()[r.hooks_begin + i]]->BeforeRead(context, id);
    }
    in_flight_ = nullptr;
  }
  const AccessMasks& m = model_->masks(r);
  if ((lanes & m.write_only) != 0 && (lanes & m.readable) == 0) {
    Violate(access, ViolationKind::kWriteOnly, id, lanes & m.write_only, "write-only bits read as 0");
  }
  uint64_t current = values_[id];
  values_[id] = (current & ~(m.read_clears & lanes)) | (m.read_sets & lanes);
  return current & m.readable & lanes;
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
  uint64_t before = values_[id];
  if (uint64_t changed_ro = (value ^ before) & m.read_only & written) {
    Violate(access, ViolationKind::kReadOnly, id, changed_ro,
            "the write would change read-only bits " + regdb::Hex(changed_ro) + " (write back the value read)");
  }
  if (uint64_t ones = value & m.must_be_zero & written) {
    Violate(access, ViolationKind::kMbz, id, ones, "must-be-zero bits " + regdb::Hex(ones) + " written as 1");
  }
  uint64_t after = (before & ~(m.store & written)) | (value & m.store & written);
  if (uint64_t once = m.store_once & written) {
    // Write-once is a field's policy: the write stores into once-fields not
    // written since reset, and uses up every once-field it touches (all of
    // the field, also lanes it did not cover), but no other.
    uint64_t& done = written_once_[r.once_slot];
    uint64_t fresh = once & ~done;
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
  after &= r.width_mask;
  values_[id] = after;
  if (r.has(RegisterModel::kHookWrite)) {
    BehaviourContext context(*this);
    in_flight_ = &access;  // what the hooks report belongs to this access
    for (uint16_t i = 0; i < r.hooks_count; ++i) {
      behaviours_[model_->hooks()[r.hooks_begin + i]]->AfterWrite(context, id, before, after);
    }
    in_flight_ = nullptr;
  }
}

void Device::Violate(Access& access, ViolationKind kind, RegisterId reg, uint64_t field_bits, std::string rule) {
  ViolationAction action = options_.policy.action(kind);
  if (action == ViolationAction::kIgnore) return;
  if (!access.violated) {
    access.violated = true;
    access.entry.outcome = TraceOutcome::kViolation;
    access.entry.violation = static_cast<uint8_t>(kind);
  }
  access.entry.violation_kinds = static_cast<uint16_t>(access.entry.violation_kinds | (1u << static_cast<unsigned>(kind)));
  ++violation_count_;
  if (action == ViolationAction::kFail) ++failing_count_;
  if (violations_.size() + access.pending.size() >= options_.max_violations && !options_.on_violation) return;

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
  access.pending.push_back(std::move(v));
}

void Device::Record(Access& access) {
  for (Violation& v : access.pending) {
    if (v.op == TraceOp::kRead) v.value = access.entry.value;  // the value the read returned
    if (options_.on_violation) options_.on_violation(v);
    if (violations_.size() < options_.max_violations) violations_.push_back(std::move(v));
  }
  access.pending.clear();
}

void Device::Finish(Access& access) {
  Record(access);
  trace_.Push(access.entry);
  if (options_.access_cost_ns != 0) AdvanceLocked(options_.access_cost_ns);
}

// ------------------------------------------------------------------- backdoor

uint64_t Device::PeekLocked(SpaceId space_id, uint64_t offset, unsigned width) const {
  const SpaceModel& space = model_->spaces().at(space_id);
  if (!IsAccessWidth(width)) return 0;
  if (space.indexed) {
    RegisterId id = space.decode.Lookup(offset);
    return id == DecodeTable::kNone ? space.unclaimed & WidthMask(width) : values_[id] & WidthMask(width);
  }
  uint64_t value = 0;
  for (unsigned b = 0; b < width / 8; ++b) {
    RegisterId id = space.decode.Lookup(offset + b);
    uint64_t byte = id == DecodeTable::kNone
                        ? (space.unclaimed >> (8 * b)) & 0xFF
                        : (values_[id] >> (8 * (offset + b - model_->registers()[id].offset))) & 0xFF;
    value |= byte << (8 * b);
  }
  return value;
}

uint64_t Device::Peek(SpaceId space, uint64_t offset, unsigned width) const {
  std::lock_guard guard(lock_);
  uint64_t value = PeekLocked(space, offset, width);
  TraceEntry entry{++sequence_, now_ns_, offset, value, kNoRegister, space, static_cast<uint8_t>(width), TraceOp::kPeek};
  entry.reg = IsAccessWidth(width) ? model_->spaces()[space].decode.Lookup(offset) : kNoRegister;
  trace_.Push(entry);
  return value;
}

bool Device::Poke(SpaceId space_id, uint64_t offset, unsigned width, uint64_t value) {
  std::lock_guard guard(lock_);
  bool stored = PokeLocked(space_id, offset, width, value);
  TraceEntry entry{++sequence_, now_ns_, offset, value, kNoRegister, space_id, static_cast<uint8_t>(width), TraceOp::kPoke};
  entry.reg = IsAccessWidth(width) ? model_->spaces()[space_id].decode.Lookup(offset) : kNoRegister;
  if (!stored) entry.outcome = TraceOutcome::kDropped;
  trace_.Push(entry);
  return stored;
}

bool Device::PokeLocked(SpaceId space_id, uint64_t offset, unsigned width, uint64_t value) {
  const SpaceModel& space = model_->spaces().at(space_id);
  if (!IsAccessWidth(width)) return false;
  if (space.indexed) {
    RegisterId id = space.decode.Lookup(offset);
    if (id == DecodeTable::kNone) return false;
    const RegisterModel& r = model_->registers()[id];
    values_[id] = ((values_[id] & ~WidthMask(width)) | (value & WidthMask(width))) & r.width_mask;
    return true;
  }
  bool any = false;
  for (unsigned b = 0; b < width / 8; ++b) {
    RegisterId id = space.decode.Lookup(offset + b);
    if (id == DecodeTable::kNone) continue;
    unsigned shift = static_cast<unsigned>(8 * (offset + b - model_->registers()[id].offset));
    values_[id] = (values_[id] & ~(uint64_t{0xFF} << shift)) | (((value >> (8 * b)) & 0xFF) << shift);
    any = true;
  }
  return any;
}

uint64_t Device::PeekRegister(RegisterId reg) const {
  std::lock_guard guard(lock_);
  return values_.at(reg);
}

void Device::PokeRegister(RegisterId reg, uint64_t value) {
  std::lock_guard guard(lock_);
  const RegisterModel& r = model_->registers().at(reg);
  values_[reg] = value & r.width_mask;
  TraceEntry entry{++sequence_, now_ns_, r.offset, values_[reg], reg, r.space, r.width, TraceOp::kPoke};
  trace_.Push(entry);
}

// ----------------------------------------------------------------------- time

void Device::Advance(uint64_t ns) {
  std::lock_guard guard(lock_);
  trace_.Push(TraceEntry{++sequence_, now_ns_, 0, ns, kNoRegister, 0, 0, TraceOp::kStep, TraceOutcome::kOk, 0});
  AdvanceLocked(ns);
}

void Device::AdvanceLocked(uint64_t ns) {
  uint64_t from = now_ns_;
  // Saturate: a wrapped clock would run behaviours backwards.
  now_ns_ = ns > ~uint64_t{0} - now_ns_ ? ~uint64_t{0} : now_ns_ + ns;
  BehaviourContext context(*this);
  for (auto& behaviour : behaviours_) behaviour->OnClock(context, from, now_ns_);
}

uint64_t Device::now_ns() const {
  std::lock_guard guard(lock_);
  return now_ns_;
}

// ---------------------------------------------------------------------- state

void Device::Reset() {
  std::lock_guard guard(lock_);
  trace_.Push(TraceEntry{++sequence_, now_ns_, 0, 0, kNoRegister, 0, 0, TraceOp::kReset, TraceOutcome::kOk, 0});
  const auto& regs = model_->registers();
  for (size_t i = 0; i < regs.size(); ++i) values_[i] = regs[i].reset;
  std::fill(written_once_.begin(), written_once_.end(), 0);
  SetInterruptLocked(false);
  BehaviourContext context(*this);
  for (auto& behaviour : behaviours_) behaviour->OnReset(context);
}

DeviceSnapshot Device::Snapshot() const {
  std::lock_guard guard(lock_);
  DeviceSnapshot snapshot;
  snapshot.model_ = model_;
  snapshot.values_ = values_;
  snapshot.written_once_ = written_once_;
  snapshot.behaviours_.reserve(behaviours_.size());
  for (const auto& behaviour : behaviours_) snapshot.behaviours_.push_back(behaviour->Clone());
  snapshot.now_ns_ = now_ns_;
  snapshot.irq_ = irq_;
  snapshot.irq_edges_ = irq_edges_;
  return snapshot;
}

void Device::Restore(const DeviceSnapshot& snapshot) {
  std::lock_guard guard(lock_);
  // Two models of the same size still differ in meaning (and in behaviour types): compare the model itself.
  if (snapshot.model_ != model_) {
    throw std::invalid_argument("Device::Restore: the snapshot was taken from a device of another model");
  }
  std::copy(snapshot.values_.begin(), snapshot.values_.end(), values_.begin());
  std::copy(snapshot.written_once_.begin(), snapshot.written_once_.end(), written_once_.begin());
  for (size_t i = 0; i < behaviours_.size(); ++i) behaviours_[i] = snapshot.behaviours_[i]->Clone();
  now_ns_ = snapshot.now_ns_;
  irq_ = snapshot.irq_;
  irq_edges_ = snapshot.irq_edges_;
}

// ----------------------------------------------------------------- behaviours

std::string Device::Inject(std::string_view verb, std::span<const std::string> args) {
  std::lock_guard guard(lock_);
  BehaviourContext context(*this);
  for (auto& behaviour : behaviours_) {
    std::string error;
    switch (behaviour->Inject(context, verb, args, error)) {
      case InjectResult::kDone: return "";
      case InjectResult::kBadArguments: return error;
      case InjectResult::kNotMine: break;
    }
  }
  return "no behaviour of device '" + model_->device() + "' handles 'inject " + std::string(verb) + "'";
}

void Device::SetInterruptLocked(bool asserted) {
  if (asserted && !irq_) ++irq_edges_;
  irq_ = asserted;
}

bool Device::interrupt_asserted() const {
  std::lock_guard guard(lock_);
  return irq_;
}

uint64_t Device::interrupt_edges() const {
  std::lock_guard guard(lock_);
  return irq_edges_;
}

// ----------------------------------------------------------------- violations

std::vector<Violation> Device::violations() const {
  std::lock_guard guard(lock_);
  return violations_;
}

size_t Device::violation_count() const {
  std::lock_guard guard(lock_);
  return violation_count_;
}

size_t Device::failing_violation_count() const {
  std::lock_guard guard(lock_);
  return failing_count_;
}

void Device::ClearViolations() {
  std::lock_guard guard(lock_);
  violations_.clear();
  violation_count_ = 0;
  failing_count_ = 0;
}

void Device::SetPolicy(const ViolationPolicy& policy) {
  std::lock_guard guard(lock_);
  options_.policy = policy;
}

std::vector<TraceEntry> Device::Trace(size_t last) const {
  std::lock_guard guard(lock_);
  return trace_.Last(last);
}

uint64_t Device::access_count() const {
  std::lock_guard guard(lock_);
  return sequence_;
}

// ------------------------------------------------------------ BehaviourContext

const Model& BehaviourContext::model() const { return *device_.model_; }
uint64_t BehaviourContext::now_ns() const { return device_.now_ns_; }
uint64_t BehaviourContext::Peek(RegisterId reg) const { return device_.values_.at(reg); }
void BehaviourContext::Poke(RegisterId reg, uint64_t value) {
  device_.values_.at(reg) = value & device_.model_->registers()[reg].width_mask;
}
void BehaviourContext::SetInterrupt(bool asserted) { device_.SetInterruptLocked(asserted); }
void BehaviourContext::ReportViolation(ViolationKind kind, RegisterId reg, std::string rule) {
  if (device_.in_flight_ != nullptr) {
    // From a hook of a frontdoor access: the access broke the rule, so the
    // violation is recorded with it, in order, and marks its trace entry.
    device_.Violate(*device_.in_flight_, kind, reg, 0, std::move(rule));
    return;
  }
  const RegisterModel& r = device_.model_->registers().at(reg);
  Device::Access access{TraceEntry{device_.sequence_, device_.now_ns_, r.offset, device_.values_[reg], reg, r.space,
                                   r.width, TraceOp::kWrite, TraceOutcome::kOk, 0},
                        false};
  device_.Violate(access, kind, reg, 0, std::move(rule));
  device_.Record(access);
}

}  // namespace regemu::emulator
