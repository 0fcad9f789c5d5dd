// Computed fields (yaml/README.md "fields", `value:`): a field whose value
// is an expression of other registers' stored state (MIS.INT = RIS.INT &
// CONTROL.INTEN). The device keeps each one up to date as what it reads
// changes, by a frontdoor write, another behaviour's Store, a reset, or a
// backdoor poke or a counter's count seen at the next clock advance, and
// stores a change through Store, so roll-ups and reactions watching the
// field hear of it. A read of the field is then a plain read.
#include "regemu/emulator/behaviours/computed_fields.hpp"

#include <string>
#include <vector>

#include "regemu/emulator/behaviours/register_env.hpp"

namespace regemu::emulator {
namespace {

struct ComputedField {
  RegisterId reg = 0;
  uint64_t mask = 0;
  unsigned shift = 0;
  regdb::Expression value;
};

struct ComputedShape {
  std::vector<ComputedField> fields;
  std::vector<RegisterId> inputs;  // every register a value reads, once
};

class ComputedFields : public CopyableBehaviour<ComputedFields> {
 public:
  explicit ComputedFields(const ComputedShape& shape) : shape_(&shape), seen_(shape.inputs.size()) {}

  void OnReset(BehaviourContext& context) override { Recompute(context); }
  void AfterWrite(BehaviourContext& context, RegisterId, uint64_t, uint64_t) override { Recompute(context); }
  void OnStore(BehaviourContext& context, RegisterId, uint64_t, uint64_t) override { Recompute(context); }
  void OnClock(BehaviourContext& context, uint64_t, uint64_t) override {
    for (size_t i = 0; i < seen_.size(); ++i) {
      if (context.Peek(shape_->inputs[i]) != seen_[i]) return Recompute(context);
    }
  }

 private:
  void Recompute(BehaviourContext& context) {
    for (size_t i = 0; i < seen_.size(); ++i) seen_[i] = context.Peek(shape_->inputs[i]);
    RegisterEnv env(context);
    for (const ComputedField& field : shape_->fields) {
      uint64_t bits = (field.value.Evaluate(env) << field.shift) & field.mask;
      uint64_t now = context.Peek(field.reg);
      if ((now & field.mask) != bits) context.Store(field.reg, (now & ~field.mask) | bits);
    }
  }

  const ComputedShape* shape_;
  std::vector<uint64_t> seen_;  // the inputs' values the fields were computed from
};

class ComputedFieldsProgram : public BehaviourProgram {
 public:
  explicit ComputedFieldsProgram(ComputedShape shape)
      : BehaviourProgram("computed-fields", "computed_fields"), shape_(std::move(shape)) {}

  std::vector<RegisterId> WriteHooks() const override { return shape_.inputs; }
  std::unique_ptr<Behaviour> Instantiate() const override { return std::make_unique<ComputedFields>(shape_); }

 private:
  ComputedShape shape_;
};

}  // namespace

std::unique_ptr<BehaviourProgram> CompileComputedFields(const regdb::Database& database) {
  ComputedShape shape;
  for (size_t i = 0; i < database.registers.size(); ++i) {
    for (const regdb::Field& field : database.registers[i].fields) {
      if (!field.value) continue;
      uint64_t mask = field.mask();
      shape.fields.push_back({static_cast<RegisterId>(i), mask, field.bits.lsb, *field.value});
      AddOperandRegisters(*field.value, shape.inputs);
    }
  }
  if (shape.fields.empty()) return nullptr;
  return std::make_unique<ComputedFieldsProgram>(std::move(shape));
}

}  // namespace regemu::emulator
