// `kind: ring`: the check of a doorbell-driven submission/completion queue
// pair, the only reader of its YAML (yaml/README.md, "kind: ring").
#include "regemu/regdb/behaviour_configs/ring.hpp"
#include "regemu/regdb/behaviour_configs/ring_actions.hpp"
#include "regemu/regdb/register_scope.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <set>
#include <variant>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/names.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

constexpr std::array<std::string_view, 19> kKeys{
    "kind",   "name",     "memory",   "enabled",      "reset_when",    "submission", "completion",
    "sq_id",  "fields",   "commands", "default_status", "latency",     "queues",     "max_size",
    "queue_status", "vector_status", "data", "doc", "ref"};
constexpr std::array<std::string_view, 6> kSubmissionKeys{"base", "size", "entry_size", "tail_doorbell", "head", "doc"};
constexpr std::array<std::string_view, 10> kCompletionKeys{"base",  "size",        "entry_size", "head_doorbell", "tail",
                                                           "phase", "phase_start", "interrupt",  "entry",         "doc"};
constexpr std::array<std::string_view, 4> kFieldKeys{"offset", "width", "bits", "doc"};
constexpr std::array<std::string_view, 4> kEntryKeys{"offset", "width", "value", "doc"};
constexpr std::array<std::string_view, 12> kCommandKeys{
    "name", "when", "status", "result", "writes", "copy", "create_submission_queue", "create_completion_queue",
    "delete_submission_queue", "delete_completion_queue", "hold", "doc"};
constexpr std::array<std::string_view, 4> kWriteKeys{"address", "width", "value", "doc"};
// An entry larger than this is not a queue entry (storage queues' are 64 and 16 bytes).
constexpr uint64_t kMaxEntrySize = 4096;

// Which of the ring's own names an expression may use.
enum class RingNames : uint8_t {
  kQueue,       // base, size, enabled, reset_when, latency: registers and fields only
  kCommand,     // a command's when, status, result, writes: + entry.NAME, sq_head, sq_id, phase, cq_tail
  kCompletion,  // the completion entry: + status, result
};

struct RingName {
  std::string_view name;
  uint64_t id;
  unsigned width;
  RingNames from;  // the first scope that has it
};
constexpr std::array<RingName, 7> kRingNames{{
    {"sq_head", kRingSqHead, 64, RingNames::kCommand},
    {"sq_id", kRingSqId, 64, RingNames::kCommand},
    {"cq_id", kRingCqId, 64, RingNames::kCommand},
    {"phase", kRingPhase, 1, RingNames::kCommand},
    {"cq_tail", kRingCqTail, 64, RingNames::kCommand},
    {"status", kRingStatus, 64, RingNames::kCompletion},
    {"result", kRingResult, 64, RingNames::kCompletion},
}};

// What a ring's expression may name: every register and field of the
// database (their values when the expression runs, read through the
// backdoor), and, by scope, the submission entry's fields and the ring's
// own names. Registers and fields are collected into RingConfig::operands.
class RingScope : public ExpressionScope {
 public:
  RingScope(const Database& database, RingConfig& config, const std::set<std::string>& field_names, RingNames names)
      : database_(database), config_(config), field_names_(field_names), names_(names) {}

  std::optional<ExpressionOperand> Resolve(std::string_view name) const override {
    if (names_ != RingNames::kQueue) {
      if (name.starts_with("entry.")) {
        std::string_view field = name.substr(6);
        for (size_t i = 0; i < config_.fields.size(); ++i) {
          if (config_.fields[i].name == field) {
            return ExpressionOperand{kRingEntryOperand | i, Width(config_.fields[i].bits), ExpressionType::kNumber};
          }
        }
        // Declared but refused (its own error says why): no second error here.
        if (field_names_.contains(std::string(field))) return ExpressionOperand{kRingEntryOperand, 64, ExpressionType::kNumber};
        return std::nullopt;
      }
      for (const RingName& own : kRingNames) {
        if (own.name == name && names_ >= own.from) return ExpressionOperand{own.id, own.width, ExpressionType::kNumber};
      }
    }
    size_t dot = name.find('.');
    auto index = database_.FindRegister(name.substr(0, dot));
    if (!index) return dot == std::string_view::npos ? ResolveLet(name) : std::nullopt;
    const Register& reg = database_.registers[*index];
    RegisterBits bits{*index, FieldBits::Of(reg.width_mask()), std::string(name)};
    if (dot != std::string_view::npos) {
      const Field* field = reg.FindField(name.substr(dot + 1));
      if (field == nullptr) return std::nullopt;
      bits.bits = FieldBits::Of(field->mask());
    }
    return ExpressionOperand{kRingBitsOperand | Intern(bits), Width(bits.bits), ExpressionType::kNumber};
  }

  // A named expression (`let:`), compiled again in this scope: its program
  // is spliced into the ring's, whose operands are the ring's own (the
  // checker compiled it once already, so a let that reaches here is sound).
  std::optional<ExpressionOperand> ResolveLet(std::string_view name) const {
    const LetDefinition* let = database_.FindLet(name);
    if (let == nullptr || !let->expression) return std::nullopt;
    auto cached = lets_.find(name);
    if (cached == lets_.end()) {
      auto compiled = ParseExpressionText(let->text.text, *this);
      if (!std::holds_alternative<Expression>(compiled)) return std::nullopt;
      cached = lets_.emplace(std::string(name), std::make_unique<Expression>(std::get<Expression>(std::move(compiled))))
                   .first;
    }
    const Expression& expression = *cached->second;
    return ExpressionOperand{0, 64, expression.type(), &expression};
  }

  std::vector<std::string> Candidates(std::string_view name) const override {
    std::vector<std::string> names;
    if (names_ != RingNames::kQueue && name.starts_with("entry.")) {
      for (const std::string& field : field_names_) names.push_back("entry." + field);
      return names;
    }
    names = RegisterScope(database_).Candidates(name);
    size_t dot = name.find('.');
    if (dot != std::string_view::npos && database_.RegisterNamed(name.substr(0, dot))) return names;  // its fields
    for (const RingName& own : kRingNames) {
      if (names_ != RingNames::kQueue && names_ >= own.from) names.emplace_back(own.name);
    }
    return names;
  }

 private:
  static unsigned Width(const FieldBits& bits) {
    unsigned width = 0;
    for (uint64_t m = bits.mask >> bits.shift; m != 0; m >>= 1) ++width;
    return width;
  }

  uint64_t Intern(const RegisterBits& bits) const {
    auto& operands = config_.operands;
    for (size_t i = 0; i < operands.size(); ++i) {
      if (operands[i].reg == bits.reg && operands[i].bits.mask == bits.bits.mask) return i;
    }
    operands.push_back(bits);
    return operands.size() - 1;
  }

  const Database& database_;
  RingConfig& config_;
  const std::set<std::string>& field_names_;
  RingNames names_;
  mutable std::map<std::string, std::unique_ptr<Expression>, std::less<>> lets_;  // ResolveLet's compiled lets
};

class RingChecker {
 public:
  RingChecker(const BehaviourSpec& spec, const Database& database, SchemaReader& reader)
      : spec_(spec), database_(database), reader_(reader), what_("ring behaviour '" + spec.name + "'") {}

  std::unique_ptr<BehaviourConfig> Check() {
    if (!reader_.ExpectMap(spec_.yaml, "a ring behaviour", kKeys)) return nullptr;
    auto config = std::make_unique<RingConfig>();
    config_ = config.get();
    if (const YamlNode* ref = spec_.yaml.Find("ref")) config->ref = reader_.Text(*ref, "ref").value_or("");
    ReadMemory();
    RingScope set_scope(database_, *config_, field_names_, RingNames::kQueue);
    ring_detail::ReadQueueSet(spec_.yaml, *config, database_, reader_, what_, Reader(set_scope));
    const YamlNode* submission = reader_.Required(spec_.yaml, "submission", what_);
    const YamlNode* completion = reader_.Required(spec_.yaml, "completion", what_);
    // The submission entry's size first: the fields are checked against it.
    if (submission != nullptr && reader_.ExpectMap(*submission, "submission", kSubmissionKeys)) {
      ReadQueue(*submission, "submission", "tail_doorbell", "head", config->submission);
    }
    if (const YamlNode* fields = spec_.yaml.Find("fields")) ReadFields(*fields);
    if (completion != nullptr && reader_.ExpectMap(*completion, "completion", kCompletionKeys)) {
      ReadQueue(*completion, "completion", "head_doorbell", "tail", config->completion);
      ReadCompletion(*completion);
    }
    CheckDoorbells();
    RingScope command_scope(database_, *config_, field_names_, RingNames::kCommand);
    if (const YamlNode* data = spec_.yaml.Find("data")) {
      config->data = ring_detail::ReadDataPointer(*data, reader_, what_, Reader(command_scope));
    }
    RingScope queue_scope(database_, *config_, field_names_, RingNames::kQueue);
    if (const YamlNode* enabled = spec_.yaml.Find("enabled")) {
      config->enabled = ReadExpression(*enabled, queue_scope, "`enabled` of " + what_, ExpressionType::kNumber);
    }
    if (const YamlNode* reset = spec_.yaml.Find("reset_when")) {
      config->reset_when = ReadExpression(*reset, queue_scope, "`reset_when` of " + what_, ExpressionType::kNumber);
      if (config->reset_when) {
        for (uint64_t id : config->reset_when->operands()) {
          RegisterIndex reg = config->operands[id & ~kRingBitsOperand].reg;
          auto& list = config->reset_registers;
          if (std::find(list.begin(), list.end(), reg) == list.end()) list.push_back(reg);
        }
        if (config->reset_registers.empty()) {
          reader_.Error(*reset, "`reset_when` of " + what_ + " names no register: nothing would ever check it");
        }
      }
    }
    if (const YamlNode* latency = spec_.yaml.Find("latency")) {
      config->latency = ReadExpression(*latency, queue_scope, "`latency` of " + what_, ExpressionType::kTime);
    }
    if (const YamlNode* sq_id = spec_.yaml.Find("sq_id")) config->sq_id = reader_.Unsigned(*sq_id, "sq_id").value_or(0);
    if (const YamlNode* status = spec_.yaml.Find("default_status")) {
      config->default_status = reader_.Unsigned(*status, "default_status").value_or(0);
    }
    if (const YamlNode* commands = spec_.yaml.Find("commands")) ReadCommands(*commands);
    return config;
  }

 private:
  void ReadMemory() {
    const YamlNode* memory = reader_.Required(spec_.yaml, "memory", what_);
    if (memory == nullptr) return;
    auto name = reader_.Identifier(*memory, "memory");
    if (!name) return;
    auto index = database_.FindSpace(*name);
    if (!index || database_.spaces[*index].kind != SpaceKind::kMemory) {
      std::vector<std::string_view> memories;
      for (const Space& space : database_.spaces) {
        if (space.kind == SpaceKind::kMemory) memories.push_back(space.name);
      }
      reader_.Error(*memory, what_ + ": '" + *name + "' is not a memory space (the queues live in one)" +
                                 DidYouMean(*name, memories));
      return;
    }
    config_->memory = *index;
  }

  ring_detail::ExpressionReader Reader(const ExpressionScope& scope) {
    return [this, &scope](const YamlNode& node, const std::string& what, ExpressionType type) {
      return ReadExpression(node, scope, what, type);
    };
  }

  std::optional<Expression> ReadExpression(const YamlNode& node, const ExpressionScope& scope, const std::string& what,
                                           ExpressionType type) {
    return ParseTypedExpression(node, scope, reader_, what, type, "0ns, 2us, CAP.TO * 500ms");
  }

  void ReadQueue(const YamlNode& node, std::string_view ring, std::string_view doorbell_key, std::string_view index_key,
                 RingQueue& queue) {
    std::string what = std::string(ring) + " ring of " + what_;
    const YamlNode* base = reader_.Required(node, "base", what);
    const YamlNode* size = reader_.Required(node, "size", what);
    const YamlNode* entry_size = reader_.Required(node, "entry_size", what);
    const YamlNode* doorbell = reader_.Required(node, doorbell_key, what);
    RingScope scope(database_, *config_, field_names_, RingNames::kQueue);
    if (base != nullptr) {
      if (auto e = ReadExpression(*base, scope, "base of " + what, ExpressionType::kNumber)) queue.base = std::move(*e);
    }
    if (size != nullptr) {
      if (auto e = ReadExpression(*size, scope, "size of " + what, ExpressionType::kNumber)) {
        if (e->max_value() < 2) {
          reader_.Error(*size, "size of " + what + " is at most " + std::to_string(e->max_value()) +
                                   ": a ring needs 2 entries or more (one slot always stays empty)");
        }
        queue.size = std::move(*e);
      }
    }
    if (entry_size != nullptr) {
      queue.entry_size = reader_.Unsigned(*entry_size, "entry_size", 1, kMaxEntrySize).value_or(0);
    }
    if (doorbell != nullptr) {
      auto all = ring_detail::ReadDoorbells(*doorbell, config_->queues, std::string(doorbell_key) + " of " + what,
                                            database_, reader_);
      if (!all.empty()) {
        queue.doorbell = all.front();
        (&queue == &config_->submission ? config_->tail_doorbells : config_->head_doorbells) = std::move(all);
        doorbells_.push_back(doorbell);
      }
    }
    if (const YamlNode* index = node.Find(index_key)) {
      queue.index = ResolveRegisterBits(*index, std::string(index_key) + " of " + what, database_, reader_);
    }
  }

  void CheckDoorbells() {
    if (doorbells_.size() != 2) return;
    const RegisterBits& sq = config_->submission.doorbell;
    const RegisterBits& cq = config_->completion.doorbell;
    if (sq.reg == cq.reg) {
      Diagnostic& error = reader_.Error(*doorbells_[1], what_ + ": head_doorbell " + cq.text + " is in register '" +
                                                            database_.registers[cq.reg].name +
                                                            "', as tail_doorbell is: each doorbell needs its own register");
      error.notes.push_back(Note{doorbells_[0]->loc, "tail_doorbell is here"});
    }
  }

  // `fields:` a mapping NAME: {offset, width, bits}: parts of a submission entry.
  void ReadFields(const YamlNode& node) {
    if (!node.IsMap()) {
      reader_.Error(node, "fields of " + what_ + ": expected a mapping of NAME: {offset:, width:, bits:}, got " +
                              DescribeKind(node.kind));
      return;
    }
    uint64_t entry_size = config_->submission.entry_size;
    for (size_t i = 0; i < node.MapSize(); ++i) {
      const YamlNode& key = node.MapKey(i);
      const YamlNode& value = node.MapValue(i);
      auto name = reader_.Identifier(key, "entry field name");
      if (!name) continue;
      if (!field_names_.insert(*name).second) {
        reader_.Error(key, what_ + " has two entry fields named '" + *name + "'");
        continue;
      }
      std::string what = "entry field '" + *name + "' of " + what_;
      if (!reader_.ExpectMap(value, "an entry field", kFieldKeys)) continue;
      const YamlNode* offset = reader_.Required(value, "offset", what);
      const YamlNode* width = reader_.Required(value, "width", what);
      if (!offset || !width) continue;
      auto o = reader_.Unsigned(*offset, "offset", 0, kMaxEntrySize);
      auto w = reader_.Width(*width, "width of " + what);
      if (!o || !w) continue;
      RingEntryField field{*name, static_cast<uint32_t>(*o), *w, FieldBits::Of(WidthMask(*w)), key.loc};
      if (entry_size != 0 && *o + *w / 8 > entry_size) {
        reader_.Error(*offset, what + ": " + std::to_string(*w / 8) + " bytes at offset " + std::to_string(*o) +
                                   " run past the " + std::to_string(entry_size) + "-byte submission entry");
        continue;
      }
      if (const YamlNode* bits = value.Find("bits")) {
        auto range = reader_.Bits(*bits, "bits of " + what);
        if (!range) continue;
        if (range->msb >= *w) {
          reader_.Error(*bits, what + ": bits " + std::to_string(range->msb) + ":" + std::to_string(range->lsb) +
                                   " do not fit its " + std::to_string(*w) + "-bit width");
          continue;
        }
        field.bits = FieldBits::Of(WidthMask(range->width()) << range->lsb);
      }
      config_->fields.push_back(std::move(field));
    }
  }

  static uint64_t WidthMask(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

  void ReadCompletion(const YamlNode& node) {
    std::string what = "completion ring of " + what_;
    if (const YamlNode* phase = node.Find("phase")) {
      config_->phase = ResolveRegisterBits(*phase, "phase of " + what, database_, reader_);
    }
    if (const YamlNode* start = node.Find("phase_start")) {
      config_->phase_start = reader_.Unsigned(*start, "phase_start", 0, 1).value_or(1);
    }
    if (const YamlNode* interrupt = node.Find("interrupt")) {
      config_->interrupt = ResolveRegisterBits(*interrupt, "interrupt of " + what, database_, reader_);
    }
    const YamlNode* entry = reader_.Required(node, "entry", what + " (the completion entry's layout)");
    if (entry == nullptr || !reader_.ExpectSequence(*entry, "entry")) return;
    if (entry->children.empty()) {
      reader_.Error(*entry, "entry of " + what + " lists no field: a completion would carry nothing");
      return;
    }
    uint64_t entry_size = config_->completion.entry_size;
    RingScope scope(database_, *config_, field_names_, RingNames::kCompletion);
    std::vector<std::pair<const YamlNode*, RingCompletionField>> placed;
    for (const YamlNode& item : entry->children) {
      if (!reader_.ExpectMap(item, "a completion entry field", kEntryKeys)) continue;
      const YamlNode* offset = reader_.Required(item, "offset", "completion entry field");
      const YamlNode* width = reader_.Required(item, "width", "completion entry field");
      const YamlNode* value = reader_.Required(item, "value", "completion entry field");
      if (!offset || !width || !value) continue;
      auto o = reader_.Unsigned(*offset, "offset", 0, kMaxEntrySize);
      auto w = reader_.Width(*width, "width of a completion entry field");
      auto v = ReadExpression(*value, scope, "value of the completion entry field at offset " + offset->text,
                              ExpressionType::kNumber);
      if (!o || !w || !v) continue;
      if (entry_size != 0 && *o + *w / 8 > entry_size) {
        reader_.Error(*offset, what + ": " + std::to_string(*w / 8) + " bytes at offset " + std::to_string(*o) +
                                   " run past the " + std::to_string(entry_size) + "-byte completion entry");
        continue;
      }
      if (v->min_value() > WidthMask(*w)) {
        reader_.Error(*value, what + ": the value is at least " + std::to_string(v->min_value()) +
                                  ", which never fits " + std::to_string(*w) + " bits");
        continue;
      }
      bool overlaps = false;
      for (const auto& [other_node, other] : placed) {
        if (*o < other.offset + other.width / 8 && other.offset < *o + *w / 8) {
          Diagnostic& error = reader_.Error(*offset, what + ": bytes " + std::to_string(*o) + ".." +
                                                         std::to_string(*o + *w / 8 - 1) +
                                                         " overlap the field at offset " +
                                                         std::to_string(other.offset));
          error.notes.push_back(Note{other_node->loc, "that field is here"});
          overlaps = true;
          break;
        }
      }
      if (overlaps) continue;
      placed.emplace_back(offset, RingCompletionField{static_cast<uint32_t>(*o), *w, std::move(*v), item.loc});
    }
    for (auto& each : placed) config_->completion_entry.push_back(std::move(each.second));
  }

  void ReadCommands(const YamlNode& node) {
    if (!reader_.ExpectSequence(node, "commands")) return;
    RingScope scope(database_, *config_, field_names_, RingNames::kCommand);
    std::map<std::string, const YamlNode*> names;
    std::optional<std::string> catch_all;  // the first command without `when:`
    for (const YamlNode& item : node.children) {
      if (!reader_.ExpectMap(item, "a command", kCommandKeys)) continue;
      const YamlNode* name = reader_.Required(item, "name", "command");
      if (name == nullptr) continue;
      auto id = reader_.Identifier(*name, "command name");
      if (!id) continue;
      if (!names.emplace(*id, name).second) {
        Diagnostic& error = reader_.Error(*name, what_ + " has two commands named '" + *id + "'");
        error.notes.push_back(Note{names[*id]->loc, "the first is here"});
        continue;
      }
      std::string what = "command '" + *id + "' of " + what_;
      RingCommand command;
      command.name = *id;
      command.loc = name->loc;
      bool ok = true;
      if (const YamlNode* when = item.Find("when")) {
        command.when = ReadExpression(*when, scope, "condition of " + what, ExpressionType::kNumber);
        ok = command.when.has_value();
      }
      for (auto [key, slot] : {std::pair{"status", &command.status}, std::pair{"result", &command.result}}) {
        if (const YamlNode* value = item.Find(key)) {
          auto e = ReadExpression(*value, scope, std::string(key) + " of " + what, ExpressionType::kNumber);
          if (e) *slot = std::move(*e); else ok = false;
        }
      }
      if (const YamlNode* writes = item.Find("writes")) ok = ReadWrites(*writes, scope, what, command.writes) && ok;
      ok = ring_detail::ReadCommandActions(item, command, *config_, database_, reader_, what, Reader(scope)) && ok;
      if (!ok) continue;
      if (catch_all) {
        reader_.diagnostics().Warning(WarningCode::kRingCommandUnreachable, name->loc,
                                      what + " never runs: command '" + *catch_all +
                                          "' before it has no `when:` and takes every entry");
      }
      if (!command.when && !catch_all) catch_all = command.name;
      config_->commands.push_back(std::move(command));
    }
  }

  bool ReadWrites(const YamlNode& node, const ExpressionScope& scope, const std::string& what,
                  std::vector<RingMemoryWrite>& out) {
    if (!reader_.ExpectSequence(node, "writes")) return false;
    bool ok = true;
    for (const YamlNode& item : node.children) {
      if (!reader_.ExpectMap(item, "a memory write", kWriteKeys)) {
        ok = false;
        continue;
      }
      const YamlNode* address = reader_.Required(item, "address", "memory write of " + what);
      const YamlNode* value = reader_.Required(item, "value", "memory write of " + what);
      if (!address || !value) {
        ok = false;
        continue;
      }
      RingMemoryWrite write;
      write.loc = item.loc;
      if (const YamlNode* width = item.Find("width")) {
        auto w = reader_.Width(*width, "width of a memory write of " + what);
        if (!w) {
          ok = false;
          continue;
        }
        write.width = *w;
      }
      auto a = ReadExpression(*address, scope, "address of a memory write of " + what, ExpressionType::kNumber);
      auto v = ReadExpression(*value, scope, "value of a memory write of " + what, ExpressionType::kNumber);
      if (!a || !v) {
        ok = false;
        continue;
      }
      write.address = std::move(*a);
      write.value = std::move(*v);
      out.push_back(std::move(write));
    }
    return ok;
  }

  const BehaviourSpec& spec_;
  const Database& database_;
  SchemaReader& reader_;
  std::string what_;
  RingConfig* config_ = nullptr;
  std::set<std::string> field_names_;      // declared entry fields, refused ones too
  std::vector<const YamlNode*> doorbells_;  // tail_doorbell, head_doorbell as resolved
};

}  // namespace

std::unique_ptr<BehaviourConfig> CheckRingConfig(const BehaviourSpec& spec, const Database& database,
                                                 SchemaReader& reader) {
  return RingChecker(spec, database, reader).Check();
}

}  // namespace regemu::regdb
