// The arithmetic of expressions and the stack machine that runs them
// (expression.hpp). Every operator is total: wrap-around, and 0 with a trap
// flag for a division by zero or a shift by 64 or more, so a value a device
// computes from guest-written registers can never be undefined behaviour.
#include <array>

#include "regemu/regdb/expression.hpp"

namespace regemu::regdb {

const char* ExpressionTypeName(ExpressionType type) {
  return type == ExpressionType::kTime ? "time" : "number";
}

uint64_t Expression::ApplyUnary(Op op, uint64_t x) {
  switch (op) {
    case Op::kNegate: return uint64_t{0} - x;
    case Op::kComplement: return ~x;
    case Op::kNot: return x == 0 ? 1 : 0;
    default: return 0;
  }
}

uint64_t Expression::ApplyBinary(Op op, uint64_t a, uint64_t b, bool& trapped) {
  switch (op) {
    case Op::kMultiply: return a * b;
    case Op::kDivide:
      if (b == 0) {
        trapped = true;
        return 0;
      }
      return a / b;
    case Op::kModulo:
      if (b == 0) {
        trapped = true;
        return 0;
      }
      return a % b;
    case Op::kAdd: return a + b;
    case Op::kSubtract: return a - b;
    case Op::kShiftLeft:
    case Op::kShiftRight:
      if (b >= 64) {
        trapped = true;
        return 0;
      }
      return op == Op::kShiftLeft ? a << b : a >> b;
    case Op::kLess: return a < b ? 1 : 0;
    case Op::kLessEqual: return a <= b ? 1 : 0;
    case Op::kGreater: return a > b ? 1 : 0;
    case Op::kGreaterEqual: return a >= b ? 1 : 0;
    case Op::kEqual: return a == b ? 1 : 0;
    case Op::kNotEqual: return a != b ? 1 : 0;
    case Op::kBitAnd: return a & b;
    case Op::kBitXor: return a ^ b;
    case Op::kBitOr: return a | b;
    default: return 0;
  }
}

uint64_t Expression::Run(const ExpressionEnv& env, bool* trapped) const {
  // The compiler proved the program needs at most kStackSize slots and that
  // every jump lands inside it, so the loop does no checks of its own.
  std::array<uint64_t, kStackSize> stack;
  size_t top = 0;  // the number of values on the stack
  bool trap = false;
  size_t pc = 0;
  while (pc < code_.size()) {
    const Instruction& in = code_[pc++];
    switch (in.op) {
      case Op::kPush: stack[top++] = in.arg; break;
      case Op::kLoad: stack[top++] = env.Load(in.arg); break;
      case Op::kNegate:
      case Op::kComplement:
      case Op::kNot: stack[top - 1] = ApplyUnary(in.op, stack[top - 1]); break;
      case Op::kToBool: stack[top - 1] = stack[top - 1] != 0 ? 1 : 0; break;
      case Op::kAndJump:
        if (stack[top - 1] == 0) {
          pc = in.arg;  // the 0 stays as the result
        } else {
          --top;
        }
        break;
      case Op::kOrJump:
        if (stack[top - 1] != 0) {
          stack[top - 1] = 1;
          pc = in.arg;
        } else {
          --top;
        }
        break;
      case Op::kJumpIfZero:
        if (stack[--top] == 0) pc = in.arg;
        break;
      case Op::kJump: pc = in.arg; break;
      default:
        --top;
        stack[top - 1] = ApplyBinary(in.op, stack[top - 1], stack[top], trap);
        break;
    }
  }
  if (trap && trapped != nullptr) *trapped = true;
  return top == 0 ? 0 : stack[0];
}

}  // namespace regemu::regdb
