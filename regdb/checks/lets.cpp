// `let:`: named expressions, compiled before every other expression so
// that each can use them. A let may use lets defined anywhere (in any
// order); one that leads back to itself is a cycle, reported at the let
// that closes it with the chain. A block's lets are compiled per instance
// (its registers are its own), each mistake reported once.
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "regemu/regdb/checker.hpp"
#include "regemu/regdb/register_scope.hpp"

namespace regemu::regdb {
namespace {

enum class LetState : uint8_t { kPending, kCompiling, kDone };

class LetCompiler {
 public:
  LetCompiler(Database& database, Diagnostics& diagnostics)
      : database_(database), diagnostics_(diagnostics), states_(database.lets.size(), LetState::kPending) {}

  void CompileAll() {
    for (size_t i = 0; i < database_.lets.size(); ++i) Compile(i);
  }

  // Compiles let `i` if it is pending; false when it is being compiled
  // (a cycle: `chain_` holds the path).
  bool Compile(size_t i) {
    if (states_[i] == LetState::kDone) return true;
    if (states_[i] == LetState::kCompiling) return false;
    states_[i] = LetState::kCompiling;
    chain_.push_back(i);
    LetDefinition& let = database_.lets[i];
    InstanceScope scope(database_, let.instance);
    std::tuple<uint32_t, uint32_t, uint32_t> at{let.loc.file, let.loc.line, let.loc.column};
    bool first = reported_.insert(at).second;
    // Its own mistakes only: one that only says a let it uses was refused
    // (a cycle, reported where it closes) is not repeated here.
    Diagnostics own;
    SchemaReader reader(own);
    CheckName(let, reader);
    Scope names(database_, *this);
    let.expression = ParseExpression(let.text, names, reader, "let '" + let.name + "'");
    if (first && !names.used_refused()) {
      for (const Diagnostic& d : own.all()) diagnostics_.Error(d.loc, d.message).notes = d.notes;
    }
    chain_.pop_back();
    states_[i] = LetState::kDone;
    return true;
  }

  // The lets being compiled, outermost first, as "a -> b -> a".
  std::string Cycle(size_t closing) const {
    std::string text;
    bool in = false;
    for (size_t i : chain_) {
      in = in || i == closing;
      if (in) text += database_.lets[i].name + " -> ";
    }
    return text + database_.lets[closing].name;
  }

 private:
  // Registers and fields first; a let names neither.
  void CheckName(const LetDefinition& let, SchemaReader& reader) {
    if (database_.FindRegister(let.name)) {
      reader.diagnostics().Error(let.loc, "let '" + let.name + "' has the name of a register: name it otherwise");
    }
    for (const LetDefinition& other : database_.lets) {
      if (&other == &let) break;
      bool same_scope = other.instance.has_value() == let.instance.has_value() &&
                        (!other.instance || (other.instance->block == let.instance->block &&
                                             other.instance->instance == let.instance->instance));
      if (same_scope && other.name == let.name) {
        reader.diagnostics().Error(let.loc, "let '" + let.name + "' is defined twice").notes.push_back({other.loc, "first defined here"});
        return;
      }
    }
  }

  // Resolves a let not yet compiled by compiling it first.
  class Scope : public RegisterScope {
   public:
    Scope(const Database& database, LetCompiler& compiler) : RegisterScope(database), compiler_(compiler) {}
    std::optional<ExpressionOperand> Resolve(std::string_view name) const override {
      if (const LetDefinition* let = database_.FindLet(name); let && !database_.FindRegister(name)) {
        size_t index = static_cast<size_t>(let - database_.lets.data());
        if (!compiler_.Compile(index)) {
          cycle_ = compiler_.Cycle(index);
          return std::nullopt;
        }
        if (!let->expression) used_refused_ = true;
      }
      return RegisterScope::Resolve(name);
    }
    bool used_refused() const { return used_refused_; }
    std::string WhyUnresolved(std::string_view name) const override {
      if (!cycle_.empty()) {
        std::string why = "lets refer to each other in a cycle: " + cycle_;
        cycle_.clear();
        return why;
      }
      return RegisterScope::WhyUnresolved(name);
    }

   private:
    LetCompiler& compiler_;
    mutable std::string cycle_;
    mutable bool used_refused_ = false;  // a let it uses has a mistake of its own
  };

  Database& database_;
  Diagnostics& diagnostics_;
  std::vector<LetState> states_;
  std::vector<size_t> chain_;
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> reported_;  // lets' locations already reported on
};

}  // namespace

void CompileLets(Database& database, Diagnostics& diagnostics) { LetCompiler(database, diagnostics).CompileAll(); }

}  // namespace regemu::regdb
