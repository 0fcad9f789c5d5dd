// Split and banked registers: their decode conditions compiled against the
// database, and the exhaustive proof that two registers at one place never
// answer the same access.
#include <algorithm>
#include <map>
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

void CompileDecodeConditions(Database& database, Diagnostics& diagnostics) {
  SchemaReader reader(diagnostics);
  RegisterScope scope(database);
  // An array's elements share one YAML line: compiled (and reported) once.
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::optional<Expression>> compiled;
  for (Register& reg : database.registers) {
    if (reg.decode_when.IsNull()) continue;
    SourceLoc loc = reg.decode_when.loc;
    auto [it, inserted] = compiled.try_emplace({loc.file, loc.line, loc.column});
    if (inserted) {
      it->second = ParseExpression(reg.decode_when, scope, reader, "decode_when of register '" + reg.name + "'");
      if (it->second && it->second->type() != ExpressionType::kNumber) {
        reader.Error(reg.decode_when, "decode_when of register '" + reg.name + "' is a time, not a condition");
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
      reader.Error(reg.decode_when, "decode_when of register '" + reg.name + "' reads '" + reg.name +
                                        "' itself: a register's decode must depend on other registers");
      continue;
    }
    reg.decode_condition = it->second;
  }
}

}  // namespace regemu::regdb
