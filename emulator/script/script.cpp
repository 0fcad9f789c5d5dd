#include "regemu/emulator/script/script.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <charconv>
#include <map>
#include <optional>
#include <span>
#include <variant>

#include "regemu/emulator/stream_text.hpp"
#include "regemu/regdb/names.hpp"
#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::emulator {
namespace {

struct CommandSpec {
  std::string_view name;
  ScriptOp op;
  bool sized;  // the name takes a width: write8 ... write64
  std::string_view usage;
};

// The ONE list of commands: parsing, "did you mean" and usage messages use it.
constexpr std::array<CommandSpec, 24> kCommands{{
    {"write", ScriptOp::kWrite, true, "writeN REG VALUE"},
    {"read", ScriptOp::kRead, true, "readN REG"},
    {"expect", ScriptOp::kExpect, true, "expectN REG VALUE [mask M]"},
    {"poll", ScriptOp::kPoll, true, "pollN REG VALUE [mask M] timeout DURATION"},
    {"peek", ScriptOp::kPeek, true, "peekN REG"},
    {"poke", ScriptOp::kPoke, true, "pokeN REG VALUE"},
    {"step", ScriptOp::kStep, false, "step [DURATION]"},
    {"reset", ScriptOp::kReset, false, "reset"},
    {"inject", ScriptOp::kInject, false, "inject VERB ARGS..."},
    {"expect-irq", ScriptOp::kExpectIrq, false, "expect-irq [LINE] 0|1"},
    {"expect-msi", ScriptOp::kExpectMsi, false, "expect-msi ADDRESS|* DATA|*"},
    {"expect-no-msi", ScriptOp::kExpectNoMsi, false, "expect-no-msi"},
    {"read-irq", ScriptOp::kReadIrq, false, "read-irq [LINE]"},
    {"expect-edges", ScriptOp::kExpectEdges, false, "expect-edges [LINE] N"},
    {"mark-edges", ScriptOp::kMarkEdges, false, "mark-edges [LINE]"},
    {"expect-violation", ScriptOp::kExpectViolation, false, "expect-violation KIND"},
    {"snapshot", ScriptOp::kSnapshot, false, "snapshot"},
    {"restore", ScriptOp::kRestore, false, "restore"},
    {"expect-metric", ScriptOp::kExpectMetric, false, "expect-metric NAME VALUE [tolerance T]"},
    {"dump", ScriptOp::kDump, false, "dump [SPACE]"},
    {"poll-step", ScriptOp::kPollStep, false, "poll-step DURATION"},
    {"expect-output", ScriptOp::kExpectOutput, false, "expect-output STREAM ENTRIES... (numbers or \"text\")"},
    {"let", ScriptOp::kLet, false, "let NAME = EXPR | let NAME = readN REG | let NAME = peekN REG"},
    {"print", ScriptOp::kPrint, false, "print EXPR..."},
}};

constexpr std::array<unsigned, 4> kWidths{8, 16, 32, 64};

// Longer words cannot be a typo of a name: skip the quadratic edit distance.
constexpr size_t kMaxSuggestedWord = 128;

const CommandSpec& SpecOf(ScriptOp op) {
  for (const CommandSpec& spec : kCommands) {
    if (spec.op == op) return spec;
  }
  return kCommands.front();
}

uint64_t WidthMask(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

struct Token {
  std::string_view text;
  uint32_t column = 0;  // 1-based byte column
};

bool IsScriptByte(char c) {
  auto byte = static_cast<unsigned char>(c);
  return c == '\t' || (byte >= 0x20 && byte < 0x7f);
}

class Parser {
 public:
  Parser(Script& script, const Model& model, const ScriptLimits& limits)
      : script_(script), model_(model), limits_(limits), verbs_(model) {}

  void ParseText(std::string_view text) {
    uint32_t line = 0;
    for (size_t begin = 0; begin <= text.size();) {
      size_t end = text.find('\n', begin);
      if (end == std::string_view::npos) end = text.size();
      ++line;
      std::string_view content = text.substr(begin, end - begin);
      if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
      ParseLine(line, content);
      begin = end + 1;
    }
    for (const Pending& pending : pending_) {
      Error(pending.loc, "expect-violation must be followed by the command that records the violation");
    }
  }

 private:
  struct Pending {
    ViolationKind kind;
    regdb::SourceLoc loc;
  };

  void ParseLine(uint32_t line, std::string_view text) {
    line_ = line;
    if (!Tokenize(text)) {
      pending_.clear();
      return;
    }
    if (tokens_.empty()) return;

    ScriptCommand command;
    command.loc = Loc(tokens_[0].column);
    emits_ = true;
    if (!ParseCommand(command)) {
      if (command.op != ScriptOp::kExpectViolation) pending_.clear();
      return;
    }
    if (!emits_) return;  // a constant `let`: a name for the lines below, nothing to run
    if (command.op == ScriptOp::kExpectViolation) {
      for (const Pending& pending : pending_) {
        if (pending.kind == command.violation) {
          ErrorAt(tokens_[1].column, "violation kind '" + std::string(ViolationKindName(command.violation)) +
                                         "' is already announced for the next command");
          return;
        }
      }
      pending_.push_back(Pending{command.violation, command.loc});
    } else {
      pending_.clear();
    }
    script_.commands.push_back(std::move(command));
  }

  // Splits the line before its comment into words; false after reporting
  // commands too long or a byte that is not script text. Comments may be
  // any length and hold any bytes.
  bool Tokenize(std::string_view text) {
    tokens_.clear();
    std::string_view code = text.substr(0, std::min(text.find('#'), text.size()));
    if (code.size() > limits_.max_line_length) {
      ErrorAt(static_cast<uint32_t>(limits_.max_line_length + 1), "line is longer than " +
                                                                     std::to_string(limits_.max_line_length) +
                                                                     " characters before its comment");
      return false;
    }
    for (size_t i = 0; i < code.size(); ++i) {
      if (!IsScriptByte(code[i])) {
        ErrorAt(static_cast<uint32_t>(i + 1), "unexpected byte " + regdb::Hex(static_cast<unsigned char>(code[i])) +
                                                  ": commands are ASCII text (anything may follow '#')");
        return false;
      }
    }
    for (size_t i = 0; i < code.size();) {
      if (code[i] == ' ' || code[i] == '\t') {
        ++i;
        continue;
      }
      // An expression's spaces inside parentheses do not split it
      // (script_expression.hpp); an unclosed '(' runs to the line's end,
      // where the expression parser reports it.
      size_t start = i;
      int depth = 0;
      while (i < code.size() && (depth > 0 || (code[i] != ' ' && code[i] != '\t'))) {
        if (code[i] == '(') ++depth;
        if (code[i] == ')' && depth > 0) --depth;
        ++i;
      }
      tokens_.push_back(Token{code.substr(start, i - start), static_cast<uint32_t>(start + 1)});
    }
    if (!tokens_.empty()) {
      end_column_ = tokens_.back().column + static_cast<uint32_t>(tokens_.back().text.size());
    }
    return true;
  }

  bool ParseCommand(ScriptCommand& command) {
    if (!ParseCommandWord(tokens_[0], command)) return false;
    spec_ = &SpecOf(command.op);
    size_t next = 1;
    switch (command.op) {
      case ScriptOp::kWrite:
      case ScriptOp::kPoke:
        return ParseTarget(next, command) && ParseOperand(next, command, "VALUE", command.value) && NoMore(next);
      case ScriptOp::kRead:
      case ScriptOp::kPeek: return ParseTarget(next, command) && NoMore(next);
      case ScriptOp::kExpect:
      case ScriptOp::kPoll: {
        if (!ParseTarget(next, command)) return false;
        uint32_t value_column = next < tokens_.size() ? tokens_[next].column : end_column_;
        return ParseOperand(next, command, "VALUE", command.value) &&
               ParseCompareOptions(next, command, value_column);
      }
      case ScriptOp::kStep:
        if (next >= tokens_.size()) {
          command.to_next_event = true;
          return true;
        }
        return ParseDuration(next, "DURATION", command.value, &command) && NoMore(next);
      case ScriptOp::kPollStep: {
        uint32_t column = next < tokens_.size() ? tokens_[next].column : end_column_;
        if (!ParseDuration(next, "DURATION", command.value)) return false;
        if (command.value == 0) {
          ErrorAt(column, "the poll step must be at least 1ns");
          return false;
        }
        if (!NoMore(next)) return false;
        poll_step_ = PollStep{command.value, line_};
        return true;
      }
      case ScriptOp::kDump: return ParseDumpSpace(next, command) && NoMore(next);
      case ScriptOp::kReset:
      case ScriptOp::kSnapshot:
      case ScriptOp::kRestore: return NoMore(next);
      case ScriptOp::kInject: {
        const Token* verb = Need(next, "VERB");
        if (!verb) return false;
        command.verb = std::string(verb->text);
        command.verb_loc = Loc(verb->column);
        if (std::string problem = verbs_.Problem(command.verb); !problem.empty()) {
          Error(command.verb_loc, std::move(problem));
          return false;
        }
        for (size_t i = 2; i < tokens_.size(); ++i) command.args.emplace_back(tokens_[i].text);
        return true;
      }
      case ScriptOp::kExpectIrq: {
        // expect-irq [LINE] 0|1: a line name is an identifier, never 0 or 1.
        bool named = next + 1 < tokens_.size() && tokens_[next].text != "0" && tokens_[next].text != "1";
        if (named && !ParseLine(next, command)) return false;
        const Token* level = Need(next, "0|1");
        if (!level) return false;
        if (level->text != "0" && level->text != "1") {
          ErrorAt(level->column, "expect-irq takes 0 (deasserted) or 1 (asserted), not '" +
                                     std::string(level->text) + "'");
          return false;
        }
        command.value = level->text == "1" ? 1 : 0;
        ++next;
        return NoMore(next);
      }
      case ScriptOp::kReadIrq:
      case ScriptOp::kMarkEdges:
        if (next < tokens_.size() && !ParseLine(next, command)) return false;
        return NoMore(next);
      case ScriptOp::kExpectEdges:
        // expect-edges [LINE] N: two words name the line first.
        if (next + 1 < tokens_.size() && !ParseLine(next, command)) return false;
        return ParseValue(next, 64, "N (rising edges)", command.value, &command) && NoMore(next);
      case ScriptOp::kExpectMsi:
        return ParseMsiPart(next, command, "ADDRESS", command.address, command.any_address,
                            ScriptDeferredOperand::Into::kAddress) &&
               ParseMsiPart(next, command, "DATA", command.value, command.any_data,
                            ScriptDeferredOperand::Into::kValue) &&
               NoMore(next);
      case ScriptOp::kExpectNoMsi: return NoMore(next);
      case ScriptOp::kExpectOutput: {
        const Token* stream = Need(next, "STREAM");
        if (!stream) return false;
        if (!model_.FindStream(stream->text)) {
          std::vector<std::string_view> streams(model_.output_streams().begin(), model_.output_streams().end());
          ErrorAt(stream->column, "device '" + model_.device() + "' has no output stream '" +
                                      std::string(stream->text) + "'" +
                                      (streams.empty() ? " (it has none)" : regdb::DidYouMean(stream->text, streams)));
          return false;
        }
        command.verb = std::string(stream->text);
        std::vector<std::string> words;
        for (size_t i = next + 1; i < tokens_.size(); ++i) words.emplace_back(tokens_[i].text);
        std::string error;
        if (!ParseStreamEntries(words, 64, command.entries, error)) {
          ErrorAt(next + 1 < tokens_.size() ? tokens_[next + 1].column : end_column_, "expect-output: " + error);
          return false;
        }
        return true;
      }
      case ScriptOp::kExpectViolation: return ParseViolationKind(next, command) && NoMore(next);
      case ScriptOp::kExpectMetric: return ParseExpectMetric(next, command);
      case ScriptOp::kLet: return ParseLet(command);
      case ScriptOp::kPrint: return ParsePrint(next, command);
    }
    return false;
  }

  // let NAME = EXPR | let NAME = readN REG | let NAME = peekN REG
  bool ParseLet(ScriptCommand& command) {
    const Token* name = Need(1, "NAME");
    if (!name) return false;
    if (!IsScriptName(name->text)) {
      ErrorAt(name->column, "'" + std::string(name->text) +
                                "' is not a name (a letter or '_', then letters, digits or '_'; "
                                "write spaces around '=')");
      return false;
    }
    const Token* equals = Need(2, "'='");
    if (!equals) return false;
    if (equals->text != "=") {
      ErrorAt(equals->column, "expected '=' after the name, with spaces around it (usage: " +
                                  std::string(spec_->usage) + ")");
      return false;
    }
    const Token* value = Need(3, "EXPR");
    if (!value) return false;
    std::string bound(name->text);
    bool is_access = value->text.starts_with("read") || value->text.starts_with("peek");
    if (is_access && !value->text.starts_with("read-")) {
      // The read or peek command itself, parsed as if it began the line.
      tokens_.erase(tokens_.begin(), tokens_.begin() + 3);
      command = ScriptCommand{};
      command.loc = Loc(tokens_[0].column);
      if (!ParseCommand(command)) return false;
      if (command.op != ScriptOp::kRead && command.op != ScriptOp::kPeek) {
        ErrorAt(tokens_[0].column, "let takes an expression, or the value of a readN or peekN");
        return false;
      }
      command.binds = Bind(bound, ScriptValueType::kNumber);
      return true;
    }
    size_t next = 3;
    std::optional<ScriptExpression> expression = ParseExpression(next);
    if (!expression || !NoMore(next)) return false;
    if (expression->constant()) {
      std::optional<uint64_t> constant = Evaluate(*expression, value->column);
      if (!constant) return false;
      bindings_[bound] = ScriptBinding{expression->type, *constant, 0};
      emits_ = false;
      return true;
    }
    ScriptValueType type = expression->type;
    command.deferred.push_back(ScriptDeferredOperand{ScriptDeferredOperand::Into::kValue, std::move(*expression),
                                                     ~uint64_t{0}, "EXPR", Loc(value->column)});
    command.binds = Bind(bound, type);
    return true;
  }

  // print EXPR...
  bool ParsePrint(size_t& next, ScriptCommand& command) {
    if (!Need(next, "EXPR")) return false;
    while (next < tokens_.size()) {
      std::string text(tokens_[next].text);
      std::optional<ScriptExpression> expression = ParseExpression(next);
      if (!expression) return false;
      command.prints.push_back(ScriptPrintItem{std::move(text), std::move(*expression)});
    }
    return true;
  }

  // A new run-time slot named `name` from the next line on.
  uint32_t Bind(const std::string& name, ScriptValueType type) {
    uint32_t slot = script_.slots++;
    slot_names_.push_back(name);
    bindings_[name] = ScriptBinding{type, std::nullopt, slot};
    return slot;
  }

  // The expression at token `next`; reported and none when it is not one.
  // `what`, when given, prefixes the error: "bad VALUE: ...".
  std::optional<ScriptExpression> ParseExpression(size_t& next, std::string_view what = {}) {
    const Token& token = tokens_[next];
    std::vector<std::string_view> names;
    for (const auto& [name, binding] : bindings_) names.push_back(name);
    ScriptExpressionError error;
    auto lookup = [&](std::string_view name) -> std::optional<ScriptBinding> {
      auto found = bindings_.find(name);
      if (found == bindings_.end()) return std::nullopt;
      return found->second;
    };
    std::optional<ScriptExpression> expression =
        ParseScriptExpression(token.text, token.column, lookup, names, error);
    if (!expression) {
      ErrorAt(error.column, what.empty() ? error.message : "bad " + std::string(what) + ": " + error.message);
      return std::nullopt;
    }
    ++next;
    return expression;
  }

  // A constant expression's value, reported and none when it cannot be computed.
  // `what`, when given, prefixes the error: "bad VALUE: ...".
  std::optional<uint64_t> Evaluate(const ScriptExpression& expression, uint32_t column, std::string_view what = {}) {
    ScriptExpressionError error;
    std::optional<uint64_t> value = EvaluateScriptExpression(expression, {}, error);
    if (!value) {
      ErrorAt(error.column != 0 ? error.column : column,
              what.empty() ? error.message : "bad " + std::string(what) + ": " + error.message);
    }
    return value;
  }

  // The name bound at run time that a non-constant expression reads first.
  std::string RunTimeName(const ScriptExpression& expression) const {
    for (const ScriptExpression::Step& step : expression.steps) {
      if (step.op == ScriptExpression::Op::kVariable && step.operand < slot_names_.size()) {
        return slot_names_[step.operand];
      }
    }
    return "?";
  }

  // The operand at `next` as a constant of `type` (into `out`) or, when it
  // reads a run-time name and `defer_in` takes one, a deferred operand.
  // `what` names it in messages.
  bool ParseTyped(size_t& next, std::string_view what, ScriptValueType type, uint64_t limit, uint64_t& out,
                  ScriptCommand* defer_in = nullptr,
                  ScriptDeferredOperand::Into into = ScriptDeferredOperand::Into::kValue) {
    const Token* token = Need(next, what);
    if (!token) return false;
    bool duration = type == ScriptValueType::kDuration;
    std::optional<ScriptExpression> expression = ParseExpression(next, duration ? "duration" : what);
    if (!expression) return false;
    if (expression->type != type) {
      bool literal = expression->steps.size() == 1;
      ErrorAt(token->column,
              duration ? (literal ? "bad duration: expected a duration with a unit (ns, us, ms, s), got '" +
                                        std::string(token->text) + "'"
                                  : "bad duration: '" + std::string(token->text) +
                                        "' is a number; a duration has a unit (500ns, 2us, or N * 1ns)")
                       : "bad " + std::string(what) + ": '" + std::string(token->text) +
                             "' is a duration, not a number (divide by a unit to count: D / 1ns)");
      return false;
    }
    if (!expression->constant()) {
      if (defer_in == nullptr) {
        ErrorAt(token->column, std::string(what) + " must be known when the script is parsed: '" +
                                   RunTimeName(*expression) + "' is bound only when the script runs");
        return false;
      }
      defer_in->deferred.push_back(
          ScriptDeferredOperand{into, std::move(*expression), limit, std::string(what), Loc(token->column)});
      return true;
    }
    std::optional<uint64_t> value = Evaluate(*expression, token->column, duration ? "duration" : what);
    if (!value) return false;
    if ((*value & ~limit) != 0) {
      ErrorAt(token->column, std::string(what) + " " + regdb::Hex(*value) + " does not fit in " +
                                 std::to_string(std::popcount(limit)) + " bits");
      return false;
    }
    out = *value;
    return true;
  }

  // "write32" → kWrite at width 32; "step" → kStep.
  bool ParseCommandWord(const Token& word, ScriptCommand& command) {
    for (const CommandSpec& spec : kCommands) {
      if (!spec.sized && word.text == spec.name) {
        command.op = spec.op;
        return true;
      }
    }
    for (const CommandSpec& spec : kCommands) {
      if (!spec.sized || !word.text.starts_with(spec.name)) continue;
      std::string_view digits = word.text.substr(spec.name.size());
      if (digits.empty()) {
        ErrorAt(word.column, "'" + std::string(spec.name) + "' needs an access width: " + std::string(spec.name) +
                                 "8, " + std::string(spec.name) + "16, " + std::string(spec.name) + "32 or " +
                                 std::string(spec.name) + "64");
        return false;
      }
      if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
      for (unsigned width : kWidths) {
        if (digits == std::to_string(width)) {
          command.op = spec.op;
          command.width = width;
          return true;
        }
      }
      ErrorAt(word.column + static_cast<uint32_t>(spec.name.size()),
              "access width '" + std::string(digits) + "' is not 8, 16, 32 or 64");
      return false;
    }
    static const std::vector<std::string> kNames = [] {
      std::vector<std::string> names;
      for (const CommandSpec& spec : kCommands) {
        if (!spec.sized) names.emplace_back(spec.name);
        for (unsigned width : kWidths) {
          if (spec.sized) names.push_back(std::string(spec.name) + std::to_string(width));
        }
      }
      return names;
    }();
    std::vector<std::string_view> candidates(kNames.begin(), kNames.end());
    ErrorAt(word.column, "unknown command '" + std::string(word.text) + "'" + Suggest(word.text, candidates));
    return false;
  }

  // REG: `SPACE OFFSET` or a register name.
  bool ParseTarget(size_t& next, ScriptCommand& command) {
    const Token* name = Need(next, "REG (a register name or SPACE OFFSET)");
    if (!name) return false;
    ScriptTarget& target = command.target;
    if (auto space = model_.FindSpace(name->text)) {
      ++next;
      uint64_t offset = 0;
      if (!ParseValue(next, 64, "OFFSET", offset)) return false;
      target.space = *space;
      target.offset = offset;
      target.reg = model_.Decode(*space, offset);
      target.display = std::string(name->text) + " " + regdb::Hex(offset);
      if (target.reg != kNoRegister) target.display += " (" + model_.registers()[target.reg].name + ")";
      return CheckBackdoorTarget(*name, command);
    }
    // REGISTER or REGISTER.FIELD: names are identifiers, so the first dot splits.
    std::string_view reg_name = name->text;
    std::string_view field_name;
    auto reg = model_.FindRegister(reg_name);
    if (size_t dot = name->text.find('.'); !reg && dot != std::string_view::npos) {
      reg_name = name->text.substr(0, dot);
      field_name = name->text.substr(dot + 1);
      reg = model_.FindRegister(reg_name);
      if (!reg) {
        ErrorAt(name->column, "unknown register '" + std::string(reg_name) + "' in '" + std::string(name->text) +
                                  "'" + Suggest(reg_name, RegisterNames()));
        return false;
      }
    }
    if (!reg) {
      ErrorAt(name->column, "unknown register or space '" + std::string(name->text) + "'" +
                                Suggest(name->text, RegisterAndSpaceNames()));
      return false;
    }
    const RegisterModel& r = model_.registers()[*reg];
    if (command.width > r.width) {
      ErrorAt(name->column, "register '" + r.name + "' is " + std::to_string(r.width) + " bits wide: a " +
                                std::to_string(command.width) + "-bit access by name would reach past it (write '" +
                                model_.spaces()[r.space].name + " " + regdb::Hex(r.offset) + "' to mean that)");
      return false;
    }
    target.space = r.space;
    target.offset = r.offset;  // a narrower access takes the low bytes
    target.reg = *reg;
    target.display = r.name;
    if (reg_name.size() != name->text.size() &&
        !ParseField(r, field_name, name->column + static_cast<uint32_t>(reg_name.size()) + 1, command)) {
      return false;
    }
    ++next;
    return true;
  }

  // FIELD of `reg` at `column`: where its bits are, whether the command can
  // reach them, and for writes what the read-modify-write keeps.
  bool ParseField(const RegisterModel& reg, std::string_view name, uint32_t column, ScriptCommand& command) {
    const FieldModel* field = reg.FindField(name);
    if (field == nullptr) {
      ErrorAt(column, reg.fields.empty() ? "register '" + reg.name + "' has no fields: name the whole register"
                                         : "register '" + reg.name + "' has no field '" + std::string(name) + "'" +
                                               Suggest(name, regdb::NamesOf(reg.fields)));
      return false;
    }
    ScriptTarget& target = command.target;
    target.field = static_cast<uint32_t>(field - reg.fields.data());
    target.field_mask = field->mask;
    target.field_shift = field->shift();
    target.display = reg.name + "." + field->name;
    const std::string what = "field '" + field->name + "' of '" + reg.name + "' (bits " + BitsText(field->mask) + ")";
    uint64_t access = WidthMask(command.width);
    if ((field->mask & ~access) != 0) {
      ErrorAt(column, what + " lies outside a " + std::to_string(command.width) + "-bit access, which reaches bits " +
                          BitsText(access) + " (use a wider command)");
      return false;
    }
    const AccessMasks& masks = model_.masks(reg);
    bool reads = command.op == ScriptOp::kRead || command.op == ScriptOp::kExpect || command.op == ScriptOp::kPoll;
    if (reads && (masks.write_only & field->mask) == field->mask) {
      ErrorAt(column, what + " is write-only: a read returns 0 for it (peek" + std::to_string(command.width) +
                          " shows what was written)");
      return false;
    }
    uint64_t others = access & ~field->mask;
    if (command.op == ScriptOp::kPoke) {
      command.keep = others;  // the backdoor: every other bit as it is
    } else if (command.op == ScriptOp::kWrite && reg.has(RegisterModel::kMasked)) {
      // Bits 31:16 enable bits 15:0 (fields lie there): one write, no read.
      if (command.width != 32) {
        ErrorAt(column, "'" + reg.name + "' is a masked register: a field write sets its bits with their enables "
                                         "in bits 31:16, a 32-bit access (write32 " + target.display + " VALUE)");
        return false;
      }
      command.force = field->mask << 16;
    } else if (command.op == ScriptOp::kWrite) {
      if (uint64_t hidden = others & masks.write_only; hidden != 0) {
        ErrorAt(column, "register '" + reg.name + "' has write-only bits outside field '" + field->name + "' (" +
                            FieldsText(reg, hidden) +
                            "): a read-modify-write cannot read them back; write the whole register");
        return false;
      }
      // Carried over: what reads back, except status bits that act when written back as read.
      command.keep = others & masks.readable & ~masks.WriteToAct();
      command.force = others & masks.ZeroToAct();
    }
    return true;
  }

  // "7:4", or "3" for one bit.
  static std::string BitsText(uint64_t mask) {
    unsigned lsb = static_cast<unsigned>(std::countr_zero(mask));
    unsigned msb = 63 - static_cast<unsigned>(std::countl_zero(mask));
    return msb == lsb ? std::to_string(lsb) : std::to_string(msb) + ":" + std::to_string(lsb);
  }

  // The fields holding `bits` of `reg`, "A, B", or the bits where no field does.
  static std::string FieldsText(const RegisterModel& reg, uint64_t bits) {
    std::string text;
    for (const FieldModel& f : reg.fields) {
      if ((f.mask & bits) != 0) text += (text.empty() ? "" : ", ") + f.name;
      bits &= ~f.mask;
    }
    if (bits != 0) text += (text.empty() ? "" : ", ") + std::string("bits ") + regdb::Hex(bits);
    return text;
  }

  // LINE of the interrupt-line commands: `irq` (the interrupt output,
  // command.verb stays "") or one of the model's named lines.
  bool ParseLine(size_t& next, ScriptCommand& command) {
    const Token& name = tokens_[next];
    if (name.text == kInterruptOutputName) {
      ++next;
      return true;
    }
    if (!model_.FindLine(name.text)) {
      std::vector<std::string_view> lines(model_.interrupt_lines().begin(), model_.interrupt_lines().end());
      lines.push_back(kInterruptOutputName);
      ErrorAt(name.column, "device '" + model_.device() + "' has no interrupt line '" + std::string(name.text) +
                               "'" +
                               (lines.size() == 1 ? std::string(" (it has only its interrupt output, 'irq')")
                                                  : Suggest(name.text, lines)));
      return false;
    }
    command.verb = std::string(name.text);
    ++next;
    return true;
  }

  // ADDRESS or DATA of expect-msi: a 64-bit number, or `*` for any.
  bool ParseMsiPart(size_t& next, ScriptCommand& command, std::string_view what, uint64_t& out, bool& any,
                    ScriptDeferredOperand::Into into) {
    if (next < tokens_.size() && tokens_[next].text == "*") {
      any = true;
      ++next;
      return true;
    }
    return ParseValue(next, 64, what, out, &command, into);
  }

  // dump [SPACE]
  bool ParseDumpSpace(size_t& next, ScriptCommand& command) {
    if (next >= tokens_.size()) return true;
    const Token& name = tokens_[next];
    auto space = model_.FindSpace(name.text);
    if (!space) {
      std::vector<std::string_view> spaces = regdb::NamesOf(model_.spaces());
      ErrorAt(name.column, "unknown space '" + std::string(name.text) + "'" + Suggest(name.text, spaces) +
                               " (dump takes a space, or nothing for every space)");
      return false;
    }
    command.dump_space = *space;
    ++next;
    return true;
  }

  // A backdoor access must lie inside its space, and a poke must reach a register.
  bool CheckBackdoorTarget(const Token& name, const ScriptCommand& command) {
    if (command.op != ScriptOp::kPeek && command.op != ScriptOp::kPoke) return true;
    const SpaceModel& space = model_.spaces()[command.target.space];
    uint64_t offset = command.target.offset;
    uint64_t extent = space.indexed ? 1 : command.width / 8;
    if (offset >= space.size || extent > space.size - offset) {
      ErrorAt(name.column, "'" + command.target.display + "' lies outside space '" + space.name + "' (size " +
                               regdb::Hex(space.size) + ")");
      return false;
    }
    if (command.op == ScriptOp::kPeek) return true;
    for (uint64_t b = 0; b < extent; ++b) {
      if (model_.Decode(command.target.space, offset + b) != kNoRegister || space.IsRam(offset + b)) return true;
    }
    ErrorAt(name.column, "no register holds '" + command.target.display +
                             "': a poke sets register state (or memory-space bytes), and there is none there");
    return false;
  }

  // VALUE [mask M] for expect; VALUE [mask M] timeout DURATION for poll.
  bool ParseCompareOptions(size_t& next, ScriptCommand& command, uint32_t value_column) {
    command.mask = OperandMask(command);
    bool has_mask = false;
    bool has_timeout = false;
    while (next < tokens_.size()) {
      const Token& keyword = tokens_[next];
      bool is_mask = keyword.text == "mask";
      bool is_timeout = keyword.text == "timeout" && command.op == ScriptOp::kPoll;
      if (!is_mask && !is_timeout) return NoMore(next);
      if ((is_mask && has_mask) || (is_timeout && has_timeout)) {
        ErrorAt(keyword.column, "'" + std::string(keyword.text) + "' is given twice");
        return false;
      }
      ++next;
      if (is_mask) {
        has_mask = true;
        if (!ParseOperand(next, command, "mask", command.mask)) return false;
      } else {
        has_timeout = true;
        if (!ParseDuration(next, "timeout DURATION", command.timeout_ns)) return false;
      }
    }
    if (command.op == ScriptOp::kPoll && !has_timeout) {
      ErrorAt(end_column_, "missing 'timeout DURATION' (usage: " + std::string(spec_->usage) + ")");
      return false;
    }
    if (command.op == ScriptOp::kPoll && poll_step_.ns != 0) {
      command.poll_step_ns = poll_step_.ns;
      uint64_t reads = command.timeout_ns / poll_step_.ns + 1;
      if (reads > limits_.max_poll_reads) {
        ErrorAt(tokens_[0].column, "this poll may read " + std::to_string(reads) + " times (its timeout every " +
                                       std::to_string(poll_step_.ns) + "ns, the poll-step of line " +
                                       std::to_string(poll_step_.line) + "); at most " +
                                       std::to_string(limits_.max_poll_reads) +
                                       ": set a longer poll-step or a shorter timeout");
        return false;
      }
    }
    if (command.deferred.empty() && (command.value & ~command.mask) != 0) {
      ErrorAt(value_column, "VALUE " + regdb::Hex(command.value) + " has bits outside mask " +
                                regdb::Hex(command.mask) + ": they would never be compared");
      return false;
    }
    return true;
  }

  // The bits a command's VALUE and mask may have: N, or the field's.
  static uint64_t OperandMask(const ScriptCommand& command) {
    const ScriptTarget& target = command.target;
    return target.is_field() ? target.field_mask >> target.field_shift : WidthMask(command.width);
  }

  // VALUE or mask of an access command: a number that fits the access, or the field.
  bool ParseOperand(size_t& next, ScriptCommand& command, std::string_view what, uint64_t& out) {
    const ScriptTarget& target = command.target;
    auto into = &out == &command.mask ? ScriptDeferredOperand::Into::kMask : ScriptDeferredOperand::Into::kValue;
    if (!target.is_field()) return ParseValue(next, command.width, what, out, &command, into);
    uint32_t column = next < tokens_.size() ? tokens_[next].column : end_column_;
    size_t deferred_before = command.deferred.size();
    if (!ParseValue(next, 64, what, out, &command, into)) return false;
    uint64_t limit = OperandMask(command);
    if (command.deferred.size() != deferred_before) {
      command.deferred.back().limit = limit;  // checked when it runs
      return true;
    }
    if ((out & ~limit) != 0) {
      unsigned bits = static_cast<unsigned>(std::popcount(limit));
      ErrorAt(column, std::string(what) + " " + regdb::Hex(out) + " does not fit " + target.display + ", " +
                          std::to_string(bits) + (bits == 1 ? " bit" : " bits") + " wide (0 to " + regdb::Hex(limit) +
                          ")");
      return false;
    }
    return true;
  }

  bool ParseValue(size_t& next, unsigned width, std::string_view what, uint64_t& out,
                  ScriptCommand* defer_in = nullptr,
                  ScriptDeferredOperand::Into into = ScriptDeferredOperand::Into::kValue) {
    return ParseTyped(next, what, ScriptValueType::kNumber, WidthMask(width), out, defer_in, into);
  }

  // NAME VALUE [tolerance T]: the default tolerance absorbs rounding only.
  bool ParseExpectMetric(size_t& next, ScriptCommand& command) {
    const Token* name = Need(next, "NAME");
    if (!name) return false;
    command.metric = std::string(name->text);
    ++next;
    if (!ParseReal(next, "VALUE", command.expected)) return false;
    command.tolerance = 1e-9 * std::max(1.0, std::fabs(command.expected));
    if (next < tokens_.size() && tokens_[next].text == "tolerance") {
      ++next;
      if (!ParseReal(next, "T", command.tolerance)) return false;
      if (command.tolerance < 0) {
        ErrorAt(tokens_[next - 1].column, "tolerance must not be negative");
        return false;
      }
    }
    return NoMore(next);
  }

  bool ParseReal(size_t& next, std::string_view what, double& out) {
    const Token* token = Need(next, what);
    if (!token) return false;
    const char* begin = token->text.data();
    const char* end = begin + token->text.size();
    auto [stop, error] = std::from_chars(begin, end, out);
    if (error != std::errc{} || stop != end || !std::isfinite(out)) {
      ErrorAt(token->column, std::string(what) + " '" + std::string(token->text) + "' is not a number (e.g. 75, 0.5, -2e3)");
      return false;
    }
    ++next;
    return true;
  }

  bool ParseDuration(size_t& next, std::string_view what, uint64_t& out, ScriptCommand* defer_in = nullptr) {
    return ParseTyped(next, what, ScriptValueType::kDuration, ~uint64_t{0}, out, defer_in);
  }

  bool ParseViolationKind(size_t& next, ScriptCommand& command) {
    const Token* token = Need(next, "KIND");
    if (!token) return false;
    if (auto kind = ViolationKindFromName(token->text)) {
      command.violation = *kind;
      ++next;
      return true;
    }
    std::vector<std::string_view> kinds;
    for (size_t i = 0; i < kViolationKindCount; ++i) kinds.push_back(ViolationKindName(static_cast<ViolationKind>(i)));
    std::string hint = Suggest(token->text, kinds);
    if (hint.empty()) {
      hint = " (kinds:";
      for (std::string_view kind : kinds) hint += " " + std::string(kind);
      hint += ")";
    }
    ErrorAt(token->column, "unknown violation kind '" + std::string(token->text) + "'" + hint);
    return false;
  }

  // The token at `index`, or nullptr after reporting it missing.
  const Token* Need(size_t index, std::string_view what) {
    if (index < tokens_.size()) return &tokens_[index];
    ErrorAt(end_column_, "missing " + std::string(what) + " (usage: " + std::string(spec_->usage) + ")");
    return nullptr;
  }

  bool NoMore(size_t index) {
    if (index >= tokens_.size()) return true;
    ErrorAt(tokens_[index].column, "unexpected '" + std::string(tokens_[index].text) + "' (usage: " +
                                       std::string(spec_->usage) + ")");
    return false;
  }

  std::string Suggest(std::string_view word, std::span<const std::string_view> candidates) {
    // Past the error limit nobody sees the message: keep hostile input cheap.
    if (word.size() > kMaxSuggestedWord || script_.diagnostics.truncated()) return "";
    return regdb::DidYouMean(word, candidates);
  }

  std::span<const std::string_view> RegisterNames() {
    return std::span<const std::string_view>(RegisterAndSpaceNames()).subspan(model_.spaces().size());
  }

  std::span<const std::string_view> RegisterAndSpaceNames() {
    if (names_.empty()) {
      for (const SpaceModel& space : model_.spaces()) names_.push_back(space.name);
      for (const RegisterModel& reg : model_.registers()) names_.push_back(reg.name);
    }
    return names_;
  }

  regdb::SourceLoc Loc(uint32_t column) const { return regdb::SourceLoc{script_.file, line_, column}; }
  void ErrorAt(uint32_t column, std::string message) { Error(Loc(column), std::move(message)); }
  void Error(regdb::SourceLoc loc, std::string message) { script_.diagnostics.Error(loc, std::move(message)); }

  Script& script_;
  const Model& model_;
  const ScriptLimits& limits_;
  InjectVerbCheck verbs_;
  uint32_t line_ = 0;
  uint32_t end_column_ = 1;  // just past the last token: where a missing operand goes
  std::vector<Token> tokens_;
  const CommandSpec* spec_ = &kCommands.front();
  std::vector<Pending> pending_;         // expect-violation lines waiting for their command
  struct PollStep {
    uint64_t ns = 0;  // 0: none yet, the runner's default
    uint32_t line = 0;
  } poll_step_;
  std::vector<std::string_view> names_;  // registers and spaces, built on the first unknown name
  std::map<std::string, ScriptBinding, std::less<>> bindings_;  // `let` names, as of the line parsed
  std::vector<std::string> slot_names_;  // the name each run-time slot was bound to
  bool emits_ = true;  // the line parsed is a command (not a constant `let`)
};

}  // namespace

std::string ScriptCommandName(const ScriptCommand& command) {
  const CommandSpec& spec = SpecOf(command.op);
  return std::string(spec.name) + (spec.sized ? std::to_string(command.width) : "");
}

Script ParseScript(std::string text, std::string path, const Model& model, const ScriptLimits& limits) {
  Script script;
  script.diagnostics = regdb::Diagnostics(limits.error_limit);
  if (text.size() > limits.max_bytes) {
    script.file = script.sources.Add(std::move(path), "");
    script.diagnostics.Error(regdb::SourceLoc{script.file, 0, 0},
                             "the script is " + std::to_string(text.size()) + " bytes; the limit is " +
                                 std::to_string(limits.max_bytes));
    return script;
  }
  script.file = script.sources.Add(std::move(path), std::move(text));
  Parser parser(script, model, limits);
  parser.ParseText(script.sources.file(script.file).text);
  return script;
}

}  // namespace regemu::emulator
