#include "regemu/emulator/model.hpp"

#include <algorithm>
#include <bit>
#include <map>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/behaviours/computed_fields.hpp"
#include "regemu/regdb/register_scope.hpp"

namespace regemu::emulator {

Model::~Model() = default;

std::string_view RegisterModel::FieldAt(uint64_t bits) const {
  if (bits == 0) return {};
  uint64_t lowest = bits & (~bits + 1);
  for (const FieldModel& field : fields) {
    if ((field.mask & lowest) != 0) return field.name;
  }
  return {};
}

const FieldModel* RegisterModel::FindField(std::string_view field_name) const {
  for (const FieldModel& field : fields) {
    if (field.name == field_name) return &field;
  }
  return nullptr;
}

const RangeModel* SpaceModel::RangeAt(uint64_t offset) const {
  auto it = std::upper_bound(ranges.begin(), ranges.end(), offset,
                             [](uint64_t value, const RangeModel& range) { return value < range.base; });
  if (it == ranges.begin()) return nullptr;
  --it;
  return it->Contains(offset) ? &*it : nullptr;
}

const GateModel* SpaceModel::GateAt(uint64_t offset) const {
  auto it = std::upper_bound(gates.begin(), gates.end(), offset,
                             [](uint64_t value, const GateModel& gate) { return value < gate.first; });
  if (it == gates.begin()) return nullptr;
  --it;
  return offset <= it->last ? &*it : nullptr;
}

std::optional<SpaceId> Model::FindSpace(std::string_view name) const {
  for (size_t i = 0; i < spaces_.size(); ++i) {
    if (spaces_[i].name == name) return static_cast<SpaceId>(i);
  }
  return std::nullopt;
}

std::optional<uint32_t> Model::FindLine(std::string_view name) const {
  for (uint32_t i = 0; i < interrupt_lines_.size(); ++i) {
    if (interrupt_lines_[i] == name) return i;
  }
  return std::nullopt;
}

std::optional<uint32_t> Model::FindStream(std::string_view name) const {
  for (uint32_t i = 0; i < output_streams_.size(); ++i) {
    if (output_streams_[i] == name) return i;
  }
  return std::nullopt;
}

std::optional<RegisterId> Model::FindRegister(std::string_view name) const {
  auto it = std::lower_bound(by_name_.begin(), by_name_.end(), name,
                             [&](RegisterId id, std::string_view key) { return registers_[id].name < key; });
  if (it == by_name_.end() || registers_[*it].name != name) return std::nullopt;
  return *it;
}

namespace {

// The write gates of a register and its fields, as the frontdoor checks them.
void AddWriteGates(const regdb::Register& reg, RegisterModel& r) {
  auto add = [&](const regdb::WriteGate& gate, uint64_t mask, const std::string& target) {
    std::string rule;
    if (!gate.violation.empty()) {
      rule = gate.violation + (gate.ref.empty() ? "" : " (" + gate.ref + ")") + " [write gate of " + target +
             ": writable while " + gate.when.text() + "]";
    }
    r.write_gates.push_back({mask, gate.when, std::move(rule),
                             ViolationKindFromName(gate.kind).value_or(ViolationKind::kProtocol)});
  };
  if (reg.write_gate) add(*reg.write_gate, r.width_mask, reg.name);
  for (const regdb::Field& field : reg.fields) {
    if (field.write_gate) add(*field.write_gate, field.mask() & r.width_mask, reg.name + "." + field.name);
  }
  if (!r.write_gates.empty()) {
    r.flags |= RegisterModel::kWriteGate;
    r.flags &= static_cast<uint16_t>(~RegisterModel::kPlain);
  }
}

// A bank condition's operands: registers and fields, as the device holds them now.
class BankEnv : public regdb::ExpressionEnv {
 public:
  BankEnv(const std::vector<RegisterModel>& registers, const std::vector<uint64_t>& values)
      : registers_(registers), values_(values) {}
  uint64_t Load(uint64_t id) const override {
    RegisterId reg = regdb::OperandRegister(id);
    return registers_[reg].OperandValue(id, values_[reg]);
  }

 private:
  const std::vector<RegisterModel>& registers_;
  const std::vector<uint64_t>& values_;
};

}  // namespace

RegisterId Model::SelectBank(RegisterId reg, bool write, const std::vector<uint64_t>& values) const {
  const DecodeBank& bank = banks_[registers_[reg].bank];
  BankEnv env(registers_, values);
  regdb::DecodeDirection wrong = write ? regdb::DecodeDirection::kRead : regdb::DecodeDirection::kWrite;
  RegisterId fallback = DecodeTable::kNone;
  for (const DecodeBank::Member& member : bank.members) {
    if (member.when && member.when->Evaluate(env) == 0) continue;
    if (member.decode != wrong) return member.reg;
    if (fallback == DecodeTable::kNone) fallback = member.reg;
  }
  return fallback;
}

size_t Model::memory_bytes() const {
  size_t bytes = sizeof(Model) + spaces_.capacity() * sizeof(SpaceModel) +
                 registers_.capacity() * sizeof(RegisterModel) + masks_.capacity() * sizeof(AccessMasks) +
                 by_name_.capacity() * sizeof(RegisterId) + hooks_.capacity() * sizeof(uint32_t) +
                 fast_.capacity() * sizeof(FastRegister) + interrupt_parents_.capacity() * sizeof(uint32_t);
  for (const SpaceModel& space : spaces_) {
    bytes += space.decode.memory_bytes() + space.ranges.capacity() * sizeof(RangeModel) +
             space.gates.capacity() * sizeof(GateModel);
  }
  for (const RegisterModel& reg : registers_) {
    if (reg.name.capacity() > 15) bytes += reg.name.capacity() + 1;
    bytes += reg.fields.capacity() * sizeof(FieldModel);
    for (const FieldModel& field : reg.fields) {
      if (field.name.capacity() > 15) bytes += field.name.capacity() + 1;
    }
  }
  return bytes;
}

bool Model::feeds_request(uint32_t i) const {
  return interrupt_parents_[i] == kNoBehaviour && interrupt_fields_[i].mask == 0;
}

// Builds a Model step by step; a friend so Model stays immutable to everyone else.
struct ModelBuilder {
  // Interrupt parents by name, and the one router.
  static void ResolveInterruptTree(Model& model, std::vector<std::string>& errors) {
    const auto& programs = model.behaviours_;
    model.interrupt_parents_.assign(programs.size(), kNoBehaviour);
    model.interrupt_fields_.assign(programs.size(), Model::OutputField{});
    for (uint32_t i = 0; i < programs.size(); ++i) {
      if (programs[i]->RoutesInterrupts()) {
        if (model.interrupt_router_ != kNoBehaviour) {
          errors.push_back("behaviours '" + programs[model.interrupt_router_]->name() + "' and '" +
                           programs[i]->name() + "' both route the device's interrupt");
        }
        model.interrupt_router_ = i;
      }
      std::string parent = programs[i]->InterruptParent();
      if (parent.empty()) continue;
      if (size_t dot = parent.find('.'); dot != std::string::npos) {
        std::string_view text = parent;
        std::optional<RegisterId> reg = model.FindRegister(text.substr(0, dot));
        const FieldModel* field = reg ? model.registers_[*reg].FindField(text.substr(dot + 1)) : nullptr;
        if (field == nullptr || std::popcount(field->mask) != 1) {
          errors.push_back("behaviour '" + programs[i]->name() + "': interrupt parent '" + parent +
                           "' is not a one-bit field of the device");
          continue;
        }
        model.interrupt_fields_[i] = Model::OutputField{*reg, field->mask};
        continue;
      }
      auto found = std::find_if(programs.begin(), programs.end(), [&](const auto& p) { return p->name() == parent; });
      if (found == programs.end() || found->get() == programs[i].get()) {
        errors.push_back("behaviour '" + programs[i]->name() + "': interrupt parent '" + parent +
                         "' is not another behaviour of the device");
        continue;
      }
      model.interrupt_parents_[i] = static_cast<uint32_t>(found - programs.begin());
    }
    for (const auto& program : programs) {
      model.first_lines_.push_back(static_cast<uint32_t>(model.interrupt_lines_.size()));
      for (std::string& line : program->OutputLines()) {
        if (line == "irq") {  // script::kInterruptOutputName: the core does not include script/
          errors.push_back("behaviour '" + program->name() +
                           "': interrupt line 'irq' is the name scripts and the C shim give the device's "
                           "interrupt output; name the line otherwise");
        }
        if (std::find(model.interrupt_lines_.begin(), model.interrupt_lines_.end(), line) !=
            model.interrupt_lines_.end()) {
          errors.push_back("behaviour '" + program->name() + "': interrupt line '" + line +
                           "' is driven by another behaviour too");
        }
        model.interrupt_lines_.push_back(std::move(line));
      }
    }
    for (const auto& program : programs) {
      model.first_streams_.push_back(static_cast<uint32_t>(model.output_streams_.size()));
      for (std::string& stream : program->OutputStreams()) {
        if (model.FindStream(stream)) {
          errors.push_back("behaviour '" + program->name() + "': output stream '" + stream +
                           "' is emitted by another behaviour too");
        }
        model.output_streams_.push_back(std::move(stream));
      }
    }
    // A cycle would recurse forever when an output changes.
    for (uint32_t i = 0; i < programs.size(); ++i) {
      uint32_t at = i;
      for (size_t steps = 0; at != kNoBehaviour; ++steps) {
        if (steps > programs.size()) {
          errors.push_back("behaviour '" + programs[i]->name() + "': its interrupt parents form a cycle");
          break;
        }
        at = model.interrupt_parents_[at];
      }
    }
  }

  // Sorts each space's gates, refuses overlaps (an access has one gate), and
  // flags the registers under a gate so that they leave the plain fast path.
  static void AddGates(Model& model, std::vector<std::string>& errors) {
    for (SpaceModel& space : model.spaces_) {
      std::sort(space.gates.begin(), space.gates.end(),
                [](const GateModel& a, const GateModel& b) { return a.first < b.first; });
      for (size_t i = 1; i < space.gates.size(); ++i) {
        if (space.gates[i].first <= space.gates[i - 1].last) {
          errors.push_back("gated ranges of behaviours '" + model.behaviours_[space.gates[i - 1].behaviour]->name() +
                           "' and '" + model.behaviours_[space.gates[i].behaviour]->name() + "' overlap at " +
                           regdb::Hex(space.gates[i].first) + " in space '" + space.name + "'");
        }
      }
    }
    for (RegisterModel& r : model.registers_) {
      const std::vector<GateModel>& gates = model.spaces_[r.space].gates;
      uint64_t last = r.offset + r.extent - 1;
      // The first gate ending at or after the register's start; it gates the register if it starts before its end.
      auto it = std::lower_bound(gates.begin(), gates.end(), r.offset,
                                 [](const GateModel& gate, uint64_t value) { return gate.last < value; });
      if (it != gates.end() && it->first <= last) r.flags |= RegisterModel::kGated;
    }
  }

  // Rings the registers sharing one storage (view_of) together; they leave
  // the plain write path, since a write must reach every one of them.
  static void LinkViews(Model& model, const regdb::Database& db) {
    std::map<RegisterId, std::vector<RegisterId>> groups;  // storage → views
    for (RegisterId id = 0; id < db.registers.size(); ++id) {
      const regdb::Register& reg = db.registers[id];
      if (reg.view_of.empty()) continue;
      if (auto storage = db.FindRegister(reg.view_of)) groups[*storage].push_back(id);
    }
    for (auto& [storage, views] : groups) {
      views.insert(views.begin(), storage);
      for (size_t i = 0; i < views.size(); ++i) {
        RegisterModel& r = model.registers_[views[i]];
        r.flags |= RegisterModel::kView;
        r.flags &= static_cast<uint16_t>(~RegisterModel::kPlain);
        r.view_next = views[(i + 1) % views.size()];
        r.reset = model.registers_[storage].reset;  // one storage, one power-on value
      }
    }
  }

  static CompileResult Build(const regdb::Database& db) {
    CompileResult result;
    std::shared_ptr<Model> model(new Model());
    model->device_ = db.device;

    for (const regdb::Space& space : db.spaces) {
      SpaceModel s;
      s.name = space.name;
      s.kind = space.kind;
      s.size = space.size;
      s.widths = space.widths;
      s.pci_bar = space.pci_bar;
      s.contents = space.contents;
      s.dma = space.dma;
      s.natural_alignment = space.natural_alignment;
      s.indexed = space.indexed();
      s.unclaimed = space.unclaimed;
      s.decode = DecodeTable(s.indexed);
      model->spaces_.push_back(std::move(s));
    }
    if (model->spaces_.size() > 0xFFFF) result.errors.push_back("more than 65535 spaces");

    std::map<std::vector<uint64_t>, uint32_t> interned;
    std::map<std::pair<regdb::SpaceIndex, uint64_t>, uint32_t> banks;  // place → bank index
    for (const regdb::Register& reg : db.registers) {
      if (reg.space == regdb::kUnresolved) {
        result.errors.push_back("register '" + reg.name + "' has no resolved space: check the database first");
        continue;
      }
      SpaceModel& space = model->spaces_[reg.space];
      RegisterModel r;
      r.name = reg.name;
      r.space = static_cast<SpaceId>(reg.space);
      r.offset = reg.offset;
      r.width = static_cast<uint8_t>(reg.width);
      r.width_mask = reg.width_mask();
      r.reset = reg.reset & r.width_mask;
      r.extent = static_cast<uint8_t>(space.indexed ? 1 : reg.size_bytes());
      // The register's last granule (its last byte's, or its one index) must be in the table;
      // (offset + extent - 1) >> 2, written so that it cannot overflow.
      uint64_t last_granule =
          space.indexed ? reg.offset : (reg.offset >> 2) + (((reg.offset & 3) + r.extent - 1) >> 2);
      if (last_granule >= DecodeTable::kMaxGranules) {
        result.errors.push_back("register '" + reg.name + "' at " + regdb::Hex(reg.offset) +
                                " lies beyond what the decode tables cover (16 GiB, or 2^32 MSR indices)");
        continue;
      }
      AccessMasks masks = ComputeAccessMasks(reg);
      if (reg.masked) r.flags |= RegisterModel::kMasked;
      if (reg.is_volatile) r.flags |= RegisterModel::kVolatile;
      if (space.widths.Contains(reg.width)) r.flags |= RegisterModel::kWidthAllowed;
      // Plain registers take the fast path, which assumes the width is allowed.
      if (!reg.masked && masks.IsPlain(r.width_mask) && space.widths.Contains(reg.width)) {
        r.flags |= RegisterModel::kPlain;
      }
      if (masks.HasStatusBits()) {
        // Its reads are remembered, so they leave the read fast path.
        r.flags |= RegisterModel::kRmwTracked;
        r.rmw_slot = model->rmw_slots_++;
      } else if (masks.IsPlainRead(r.width_mask) && space.widths.Contains(reg.width)) {
        r.flags |= RegisterModel::kPlainRead;
      }
      if (masks.HasWriteEffects()) r.flags |= RegisterModel::kWriteEffects;
      if (masks.store_once != 0) r.once_slot = model->once_slots_++;
      std::vector<uint64_t> key{masks.readable,    masks.write_only,  masks.read_clears,  masks.read_sets,
                                masks.store,       masks.store_once,  masks.one_clears,   masks.one_sets,
                                masks.one_toggles, masks.zero_clears, masks.zero_sets,    masks.zero_toggles,
                                masks.write_clears, masks.write_sets, masks.read_only,    masks.must_be_zero};
      auto [it, inserted] = interned.emplace(std::move(key), static_cast<uint32_t>(model->masks_.size()));
      if (inserted) model->masks_.push_back(masks);
      r.masks = it->second;
      for (const regdb::Field& field : reg.fields) r.fields.push_back({field.name, field.mask() & r.width_mask});
      AddWriteGates(reg, r);
      RegisterId id = static_cast<RegisterId>(model->registers_.size());
      if (reg.banked()) {
        // The decode table holds the place's first register; the bank lists them all.
        auto [bank, first] = banks.try_emplace({reg.space, reg.offset}, static_cast<uint32_t>(model->banks_.size()));
        if (first) {
          model->banks_.emplace_back();
          space.decode.Add(reg.offset, r.extent, id);
        }
        r.flags |= RegisterModel::kBanked;
        r.bank = bank->second;
        model->banks_[bank->second].members.push_back({id, reg.decode, reg.decode_condition});
      } else {
        space.decode.Add(reg.offset, r.extent, id);
      }
      model->registers_.push_back(std::move(r));
    }

    model->by_name_.resize(model->registers_.size());
    for (RegisterId i = 0; i < model->by_name_.size(); ++i) model->by_name_[i] = i;
    std::sort(model->by_name_.begin(), model->by_name_.end(),
              [&](RegisterId a, RegisterId b) { return model->registers_[a].name < model->registers_[b].name; });
    if (result.errors.empty()) LinkViews(*model, db);

    for (const regdb::Range& range : db.ranges) {
      if (range.space == regdb::kUnresolved) continue;
      RangeModel r;
      r.kind = range.kind;
      r.writes = range.writes;
      r.widths = range.widths.empty() ? db.spaces[range.space].widths : range.widths;
      r.base = range.base;
      r.size = range.size;
      r.name = range.name;
      if (range.kind == regdb::RangeKind::kAlias) {
        r.target_space = static_cast<SpaceId>(range.target_space);
        r.target_offset = range.target_offset;
        if (range.enabled_by && range.enabled_by->reg != regdb::kUnresolved) {
          auto id = model->FindRegister(range.enabled_by->register_name);
          const regdb::Register& reg = db.registers[range.enabled_by->reg];
          if (id) {
            r.enable_register = *id;
            r.enable_mask = reg.fields[range.enabled_by->field].mask();
          }
        }
      }
      model->spaces_[range.space].ranges.push_back(std::move(r));
    }
    for (SpaceModel& space : model->spaces_) {
      std::sort(space.ranges.begin(), space.ranges.end(),
                [](const RangeModel& a, const RangeModel& b) { return a.base < b.base; });
    }

    // Behaviours last. Their configs name registers by database index, which
    // is the RegisterId only while every register compiled: a register that
    // failed is missing from the model and shifts those after it.
    if (!result.errors.empty()) return result;
    std::vector<std::vector<uint32_t>> hooks(model->registers_.size());
    auto add = [&](std::unique_ptr<BehaviourProgram> program) {
      auto index = static_cast<uint32_t>(model->behaviours_.size());
      for (RegisterId id : program->ReadHooks()) {
        model->registers_[id].flags |= RegisterModel::kHookRead;
        if (std::find(hooks[id].begin(), hooks[id].end(), index) == hooks[id].end()) hooks[id].push_back(index);
      }
      for (RegisterId id : program->WriteHooks()) {
        model->registers_[id].flags |= RegisterModel::kHookWrite;
        if (std::find(hooks[id].begin(), hooks[id].end(), index) == hooks[id].end()) hooks[id].push_back(index);
      }
      for (const GatedRange& range : program->GatedRanges()) {
        model->spaces_.at(range.space).gates.push_back({range.first, range.last, index, range.tag});
      }
      model->behaviours_.push_back(std::move(program));
    };
    for (const regdb::BehaviourSpec& spec : db.behaviours) {
      std::string error;
      std::unique_ptr<BehaviourProgram> program = CompileBehaviour(spec, *model, error);
      if (!program) {
        result.errors.push_back("behaviour '" + spec.name + "': " + error);
        continue;
      }
      add(std::move(program));
    }
    // Last, so its Stores reach every behaviour watching a computed field.
    if (auto computed = CompileComputedFields(db)) add(std::move(computed));
    AddGates(*model, result.errors);
    ResolveInterruptTree(*model, result.errors);
    for (RegisterId id = 0; id < hooks.size(); ++id) {
      RegisterModel& r = model->registers_[id];
      if (!hooks[id].empty() || r.has(RegisterModel::kGated)) r.flags &= static_cast<uint16_t>(~RegisterModel::kPlain);
      if (r.has(RegisterModel::kHookRead) || r.has(RegisterModel::kGated)) {
        r.flags &= static_cast<uint16_t>(~RegisterModel::kPlainRead);
      }
      r.hooks_begin = static_cast<uint32_t>(model->hooks_.size());
      r.hooks_count = static_cast<uint16_t>(hooks[id].size());
      model->hooks_.insert(model->hooks_.end(), hooks[id].begin(), hooks[id].end());
    }

    model->fast_.reserve(model->registers_.size());
    for (const RegisterModel& r : model->registers_) model->fast_.push_back({r.offset, r.width, r.flags});
    if (result.errors.empty()) result.model = std::move(model);
    return result;
  }
};

CompileResult Compile(const regdb::Database& database) { return ModelBuilder::Build(database); }

}  // namespace regemu::emulator
