// Computed fields (`value:`) and write gates (`write_gate:`) of registers
// and fields: their expressions, compiled once every name is known, in the
// register's block instance for a block register (`RIS.INT` is its own
// instance's), each mistake reported once per line of YAML however many
// instances or array elements share it.
#include <algorithm>
#include <array>
#include <map>
#include <string_view>
#include <tuple>

#include "regemu/regdb/checker.hpp"
#include "regemu/regdb/register_scope.hpp"

namespace regemu::regdb {
namespace {

constexpr std::array<std::string_view, 4> kGateKeys{"when", "violation", "kind", "ref"};

constexpr std::array kViolationKinds = {
#define REGEMU_VIOLATION(id, name, doc) std::string_view(name),
#include "regemu/emulator/violation_kinds.def"
#undef REGEMU_VIOLATION
};

std::string OperandText(const Database& db, uint64_t id) {
  const Register& reg = db.registers[OperandRegister(id)];
  return IsFieldOperand(id) ? reg.name + "." + reg.fields[OperandField(id)].name : reg.name;
}

// The bits of an operand that are write-only: a gate cannot read what the
// hardware does not let software read back (it would gate on a key).
uint64_t WriteOnlyBits(const Register& reg, uint64_t id) {
  uint64_t read = IsFieldOperand(id) ? reg.fields[OperandField(id)].mask() : reg.width_mask();
  uint64_t write_only = 0;
  uint64_t covered = 0;
  for (const Field& field : reg.fields) {
    covered |= field.mask();
    if (!Info(field.access).readable()) write_only |= field.mask();
  }
  if (!Info(reg.default_access).readable()) write_only |= reg.width_mask() & ~covered;
  return read & write_only;
}

class FieldExpressionCompiler {
 public:
  FieldExpressionCompiler(Database& database, SchemaReader& reader) : database_(database), reader_(reader) {}

  void Compile(Register& reg) {
    if (!reg.write_gate_text.IsNull()) reg.write_gate = Gate(reg.write_gate_text, "write_gate of register '" + reg.name + "'");
    for (Field& field : reg.fields) {
      std::string who = "field '" + reg.name + "." + field.name + "'";
      if (!field.write_gate_text.IsNull()) field.write_gate = Gate(field.write_gate_text, "write_gate of " + who);
      if (!field.value_text.IsNull()) field.value = Value(reg, field, who);
    }
  }

 private:
  // `write_gate: EXPR` or `{when: EXPR, violation: TEXT, kind:, ref:}`.
  std::optional<WriteGate> Gate(const YamlNode& node, const std::string& what) {
    WriteGate gate;
    const YamlNode* when = &node;
    if (node.IsMap()) {
      if (!reader_.ExpectMap(node, "a write gate", kGateKeys)) return std::nullopt;
      when = reader_.Required(node, "when", what);
      if (!when) return std::nullopt;
      if (const YamlNode* text = node.Find("violation")) gate.violation = reader_.Text(*text, "violation").value_or("");
      if (const YamlNode* kind = node.Find("kind")) {
        auto text = reader_.Text(*kind, "violation kind");
        if (!text) return std::nullopt;
        if (std::find(kViolationKinds.begin(), kViolationKinds.end(), std::string_view(*text)) == kViolationKinds.end()) {
          reader_.ReportBadChoice(*kind, "violation kind", *text, kViolationKinds);
          return std::nullopt;
        }
        gate.kind = *text;
      }
      if (const YamlNode* ref = node.Find("ref")) gate.ref = reader_.Text(*ref, "ref").value_or("");
      if ((node.Find("kind") || node.Find("ref")) && !node.Find("violation")) {
        reader_.Error(node, what + ": `kind:` and `ref:` go with `violation:`");
        return std::nullopt;
      }
    }
    auto expression = ParseTypedExpression(*when, RegisterScope(database_), reader_, what, ExpressionType::kNumber);
    if (!expression) return std::nullopt;
    for (uint64_t id : expression->operands()) {
      const Register& read = database_.registers[OperandRegister(id)];
      if (WriteOnlyBits(read, id) == 0) continue;
      reader_.Error(*when, what + " reads '" + OperandText(database_, id) + "', which is write-only: software cannot "
                                  "read it back, so no lock is kept in it (keep the lock in a readable field a "
                                  "reaction sets)");
      return std::nullopt;
    }
    gate.when = std::move(*expression);
    return gate;
  }

  // `value: EXPR` over other fields' stored state.
  std::optional<Expression> Value(const Register& reg, const Field& field, const std::string& who) {
    std::string what = "value of " + who;
    auto value = ParseTypedExpression(field.value_text, RegisterScope(database_), reader_, what,
                                      ExpressionType::kNumber);
    if (!value) return std::nullopt;
    for (uint64_t id : value->operands()) {
      const Register& read = database_.registers[OperandRegister(id)];
      uint64_t bits = IsFieldOperand(id) ? read.fields[OperandField(id)].mask() : read.width_mask();
      bool itself = &read == &reg && (bits & field.mask()) != 0;
      const Field* computed = nullptr;
      for (const Field& other : read.fields) {
        if ((other.mask() & bits) != 0 && !other.value_text.IsNull()) computed = &other;
      }
      if (itself || computed) {
        reader_.Error(field.value_text, what + " reads '" + OperandText(database_, id) + "', " +
                                            (itself ? "the field itself" : "a computed field") +
                                            ": a computed field is an expression of stored state");
        return std::nullopt;
      }
    }
    return value;
  }

  Database& database_;
  SchemaReader& reader_;
};

}  // namespace

void CompileFieldExpressions(Database& database, Diagnostics& diagnostics) {
  SchemaReader reader(diagnostics);
  // The YAML lines already compiled: a block's or an array's registers share
  // them, and their mistakes are reported at the first, quietly for the rest.
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, bool> seen;
  for (Register& reg : database.registers) {
    bool any = !reg.write_gate_text.IsNull();
    for (const Field& field : reg.fields) any = any || !field.value_text.IsNull() || !field.write_gate_text.IsNull();
    if (!any) continue;
    std::optional<InstanceName> instance;
    if (reg.block) instance = InstanceName{reg.block->block, reg.block->instance};
    InstanceScope scope(database, instance);
    if (seen.emplace(std::tuple{reg.loc.file, reg.loc.line, reg.loc.column}, true).second) {
      FieldExpressionCompiler(database, reader).Compile(reg);
      continue;
    }
    Diagnostics quiet;
    SchemaReader quiet_reader(quiet);
    FieldExpressionCompiler(database, quiet_reader).Compile(reg);
  }
}

}  // namespace regemu::regdb
