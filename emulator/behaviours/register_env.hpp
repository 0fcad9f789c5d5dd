#pragma once
// What an expression over a device's registers reads at run time (the
// names regdb::RegisterScope resolves: `REG` and `REG.FIELD`), as the
// device holds them now, through the backdoor: for behaviours whose
// configuration has such expressions (a comparator's `width:`, an
// interrupt source's `when:`, an output's `route:`).

#include <cstdint>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/expression.hpp"
#include "regemu/regdb/register_scope.hpp"

namespace regemu::emulator {

// The value of one such operand now; kinds whose expressions add operands
// of their own (a FIFO's `level`, a reaction's `value`) fall back on it.
inline uint64_t PeekOperand(const BehaviourContext& context, uint64_t id) {
  RegisterId reg = regdb::OperandRegister(id);
  return context.model().registers()[reg].OperandValue(id, context.Peek(reg));
}

class RegisterEnv : public regdb::ExpressionEnv {
 public:
  explicit RegisterEnv(const BehaviourContext& context) : context_(context) {}

  uint64_t Load(uint64_t id) const override { return PeekOperand(context_, id); }

 private:
  const BehaviourContext& context_;
};

// Adds the registers `expression` reads to `regs` (each once): the write
// hooks of a behaviour that must hear when its value may change.
inline void AddOperandRegisters(const regdb::Expression& expression, std::vector<RegisterId>& regs) {
  for (uint64_t id : expression.operands()) {
    RegisterId reg = regdb::OperandRegister(id);
    bool known = false;
    for (RegisterId each : regs) known = known || each == reg;
    if (!known) regs.push_back(reg);
  }
}

}  // namespace regemu::emulator
