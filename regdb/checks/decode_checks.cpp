// Split and banked registers: their decode conditions compiled against the
// database, and the exhaustive proof that two registers at one place never
// answer the same access.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "regemu/regdb/checker.hpp"
#include "regemu/regdb/checks/decode_exclusion.hpp"
#include "regemu/regdb/register_scope.hpp"
#include "regemu/regdb/schema_reader.hpp"

namespace regemu::regdb {
namespace {

unsigned OperandWidth(const Database& db, uint64_t id) {
  const Register& reg = db.registers[OperandRegister(id)];
  return IsFieldOperand(id) ? reg.fields[OperandField(id)].bits.width() : reg.width;
}

std::string OperandName(const Database& db, uint64_t id) {
  const Register& reg = db.registers[OperandRegister(id)];
  return IsFieldOperand(id) ? reg.name + "." + reg.fields[OperandField(id)].name : reg.name;
}

// Values for the operands both conditions read, one combination at a time.
class TrialEnv : public ExpressionEnv {
 public:
  TrialEnv(const std::vector<uint64_t>& ids, const std::vector<uint64_t>& values) : ids_(ids), values_(values) {}
  uint64_t Load(uint64_t id) const override {
    for (size_t i = 0; i < ids_.size(); ++i) {
      if (ids_[i] == id) return values_[i];
    }
    return 0;
  }

 private:
  const std::vector<uint64_t>& ids_;
  const std::vector<uint64_t>& values_;
};

bool Decodes(const Register& reg, const ExpressionEnv& env) {
  return !reg.decode_condition || reg.decode_condition->Evaluate(env) != 0;
}

}  // namespace

std::optional<DecodeClash> BothDecode(const Database& db, const Register& a, const Register& b) {
  bool reads = a.decode != DecodeDirection::kWrite && b.decode != DecodeDirection::kWrite;
  bool writes = a.decode != DecodeDirection::kRead && b.decode != DecodeDirection::kRead;
  if (!reads && !writes) return std::nullopt;
  DecodeClash clash{reads ? "a read" : "a write", "", false};
  // A condition that did not compile was reported already: no second error.
  if ((!a.decode_when.IsNull() && !a.decode_condition) || (!b.decode_when.IsNull() && !b.decode_condition)) {
    return std::nullopt;
  }

  std::vector<uint64_t> ids;
  unsigned bits = 0;
  for (const Register* reg : {&a, &b}) {
    if (!reg->decode_condition) continue;
    for (uint64_t id : reg->decode_condition->operands()) {
      if (std::find(ids.begin(), ids.end(), id) != ids.end()) continue;
      ids.push_back(id);
      bits += OperandWidth(db, id);
    }
  }
  if (bits > kMaxDecodeProofBits) {
    clash.unproven = true;
    clash.witness = "their conditions read " + std::to_string(bits) + " bits, more than the " +
                    std::to_string(kMaxDecodeProofBits) + " the checker tries exhaustively";
    return clash;
  }
  // Every combination of the operands' values, as one counter of `bits` bits.
  std::vector<uint64_t> values(ids.size());
  TrialEnv env(ids, values);
  for (uint64_t combination = 0; combination < (uint64_t{1} << bits); ++combination) {
    uint64_t rest = combination;
    for (size_t i = 0; i < ids.size(); ++i) {
      unsigned width = OperandWidth(db, ids[i]);
      values[i] = rest & ((uint64_t{1} << width) - 1);
      rest >>= width;
    }
    if (!Decodes(a, env) || !Decodes(b, env)) continue;
    if (ids.empty()) {
      clash.witness = "always";
    } else {
      clash.witness = "while ";
      for (size_t i = 0; i < ids.size(); ++i) {
        clash.witness += (i == 0 ? "" : ", ") + OperandName(db, ids[i]) + " = " + std::to_string(values[i]);
      }
    }
    return clash;
  }
  return std::nullopt;
}

namespace {

// The first instance of the block `origin` belongs to, by register order.
std::string FirstInstanceOf(const Database& database, const BlockOrigin& origin) {
  for (const Register& reg : database.registers) {
    if (reg.block && reg.block->block == origin.block) return reg.block->instance;
  }
  return origin.instance;
}

// A block register's names: its own instance's registers by their block
// names first (as the block's behaviours name them), then the device's
// registers by their full names.
class InstanceThenDeviceScope : public ExpressionScope {
 public:
  InstanceThenDeviceScope(const Database& database, InstanceName instance)
      : database_(database), instance_(std::move(instance)) {}

  std::optional<ExpressionOperand> Resolve(std::string_view name) const override {
    {
      InstanceScope scope(database_, instance_);
      if (auto operand = RegisterScope(database_).Resolve(name)) return operand;
    }
    return RegisterScope(database_).Resolve(name);
  }

  std::vector<std::string> Candidates(std::string_view name) const override {
    std::vector<std::string> names;
    {
      InstanceScope scope(database_, instance_);
      names = RegisterScope(database_).Candidates(name);
    }
    std::vector<std::string> device = RegisterScope(database_).Candidates(name);
    names.insert(names.end(), device.begin(), device.end());
    return names;
  }

 private:
  const Database& database_;
  InstanceName instance_;
};

// The decode_when of `reg`; mistakes are reported through `reader`.
std::optional<Expression> CompileDecodeWhen(const Database& database, const Register& reg, SchemaReader& reader) {
  std::string what = "decode_when of register '" + reg.name + "'";
  if (reg.block) {
    InstanceThenDeviceScope scope(database, InstanceName{reg.block->block, reg.block->instance});
    return ParseExpression(reg.decode_when, scope, reader, what);
  }
  return ParseExpression(reg.decode_when, RegisterScope(database), reader, what);
}

}  // namespace

void CompileDecodeConditions(Database& database, Diagnostics& diagnostics) {
  SchemaReader reader(diagnostics);
  Diagnostics quiet;
  SchemaReader quiet_reader(quiet);
  // An array's elements share one YAML line, and a block's instances one
  // text: compiled per instance, each mistake reported once per text.
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, std::string>, std::optional<Expression>> compiled;
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> reported;
  for (Register& reg : database.registers) {
    if (reg.decode_when.IsNull()) continue;
    SourceLoc loc = reg.decode_when.loc;
    std::string instance = reg.block ? reg.block->instance : std::string();
    auto [it, inserted] = compiled.try_emplace({loc.file, loc.line, loc.column, instance});
    if (inserted) {
      bool first = reported.insert({loc.file, loc.line, loc.column}).second;
      SchemaReader& out = first ? reader : quiet_reader;
      it->second = CompileDecodeWhen(database, reg, out);
      if (it->second && it->second->type() != ExpressionType::kNumber) {
        out.Error(reg.decode_when, "decode_when of register '" + reg.name + "' is a time, not a condition");
        it->second.reset();
      }
    }
    if (!it->second) continue;
    // A register selected by its own value could never be written into
    // view: the condition must read other registers.
    bool reads_itself = false;
    for (uint64_t id : it->second->operands()) {
      if (&database.registers[OperandRegister(id)] == &reg) reads_itself = true;
    }
    if (reads_itself) {
      bool first_instance = !reg.block || reg.block->instance == FirstInstanceOf(database, *reg.block);
      (first_instance ? reader : quiet_reader).Error(reg.decode_when, "decode_when of register '" + reg.name + "' reads '" + reg.name +
                                        "' itself: a register's decode must depend on other registers");
      continue;
    }
    reg.decode_condition = it->second;
  }
}

}  // namespace regemu::regdb
