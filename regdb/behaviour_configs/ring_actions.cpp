// `kind: ring`: reading the queue set, the data pointer and the commands'
// copy / create / delete / hold actions (ring_actions.hpp).
#include "regemu/regdb/behaviour_configs/ring_actions.hpp"

#include <array>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/names.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb::ring_detail {
namespace {

// NVMe's queue identifiers are 16 bits; a set that large is a table, not a ring.
constexpr uint64_t kMaxQueues = 65536;
constexpr std::string_view kIdMark = "{id}";

constexpr std::array<std::string_view, 5> kQueueStatusKeys{"invalid_id", "invalid_size", "invalid_completion",
                                                           "invalid_vector", "in_use"};
constexpr std::array<std::string_view, 5> kDataKeys{"first", "second", "page_size", "error_status", "doc"};
constexpr std::array<std::string_view, 4> kCopyKeys{"from", "to", "bytes", "doc"};
constexpr std::array<std::string_view, 2> kSpaceEndKeys{"space", "offset"};
constexpr std::array<std::string_view, 5> kCreateSqKeys{"id", "base", "size", "completion", "doc"};
constexpr std::array<std::string_view, 6> kCreateCqKeys{"id", "base", "size", "vector", "interrupts", "doc"};

}  // namespace

void ReadQueueSet(const YamlNode& ring, RingConfig& config, const Database& database, SchemaReader& reader,
                  const std::string& what, const ExpressionReader& queue_expression) {
  if (const YamlNode* queues = ring.Find("queues")) {
    config.queues = reader.Unsigned(*queues, "queues", 1, kMaxQueues).value_or(1);
  }
  if (const YamlNode* max = ring.Find("max_size")) {
    config.max_size = queue_expression(*max, "`max_size` of " + what, ExpressionType::kNumber);
  }
  if (const YamlNode* status = ring.Find("queue_status")) {
    if (reader.ExpectMap(*status, "the queue commands' statuses", kQueueStatusKeys)) {
      uint64_t* slots[5] = {&config.queue_status.invalid_id, &config.queue_status.invalid_size,
                            &config.queue_status.invalid_completion, &config.queue_status.invalid_vector,
                            &config.queue_status.in_use};
      for (size_t i = 0; i < kQueueStatusKeys.size(); ++i) {
        if (const YamlNode* value = status->Find(kQueueStatusKeys[i])) {
          *slots[i] = reader.Unsigned(*value, kQueueStatusKeys[i]).value_or(0);
        }
      }
    }
  }
  if (const YamlNode* vectors = ring.Find("vector_status")) {
    if (auto name = reader.Identifier(*vectors, "vector_status")) {
      if (const Register* reg = RegisterNamedAt(*vectors, *name, "`vector_status` of " + what, database, reader)) {
        config.vector_status = database.IndexOf(*reg);
      }
    }
  }
}

std::vector<RegisterBits> ReadDoorbells(const YamlNode& doorbell, uint64_t queues, const std::string& what,
                                        const Database& database, SchemaReader& reader) {
  std::vector<RegisterBits> out;
  auto text = reader.Text(doorbell, what);
  if (!text) return out;
  size_t mark = text->find(kIdMark);
  if (mark == std::string::npos) {
    if (queues > 1) {
      reader.Error(doorbell, what + ": the ring has " + std::to_string(queues) +
                                 " queues, so the doorbell names a register per queue id with {id} (SQ{id}TDBL.SQT)");
      return out;
    }
    if (auto bits = ResolveRegisterBitsNamed(doorbell, *text, what, database, reader)) out.push_back(std::move(*bits));
    return out;
  }
  for (uint64_t id = 0; id < queues; ++id) {
    std::string name = *text;
    name.replace(mark, kIdMark.size(), std::to_string(id));
    auto bits = ResolveRegisterBitsNamed(doorbell, name, what + " (queue " + std::to_string(id) + ")", database, reader);
    if (!bits) return {};  // one error is enough: the others are the same mistake
    out.push_back(std::move(*bits));
  }
  return out;
}

std::optional<RingDataPointer> ReadDataPointer(const YamlNode& node, SchemaReader& reader, const std::string& what,
                                               const ExpressionReader& command_expression) {
  if (!reader.ExpectMap(node, "the data pointer", kDataKeys)) return std::nullopt;
  std::string where = "`data` of " + what;
  const YamlNode* first = reader.Required(node, "first", where);
  const YamlNode* second = reader.Required(node, "second", where);
  const YamlNode* page = reader.Required(node, "page_size", where);
  if (!first || !second || !page) return std::nullopt;
  auto f = command_expression(*first, "`first` of " + where, ExpressionType::kNumber);
  auto s = command_expression(*second, "`second` of " + where, ExpressionType::kNumber);
  auto p = command_expression(*page, "`page_size` of " + where, ExpressionType::kNumber);
  if (!f || !s || !p) return std::nullopt;
  RingDataPointer data{std::move(*f), std::move(*s), std::move(*p), 0, node.loc};
  if (const YamlNode* status = node.Find("error_status")) {
    data.error_status = reader.Unsigned(*status, "error_status").value_or(0);
  }
  return data;
}

namespace {

std::optional<RingCopyEnd> ReadCopyEnd(const YamlNode& node, bool source, const RingConfig& config,
                                       const Database& database, SchemaReader& reader, const std::string& what,
                                       const ExpressionReader& command_expression) {
  RingCopyEnd end;
  if (node.IsScalar()) {
    if (node.text == "data") {
      if (!config.data) {
        reader.Error(node, what + ": `data` is the command's data pointer, and the ring has no `data:` saying where it is");
        return std::nullopt;
      }
      end.kind = RingCopyEnd::Kind::kData;
      return end;
    }
    if (node.text == "zeros" && source) {
      end.kind = RingCopyEnd::Kind::kZeros;
      return end;
    }
    reader.Error(node, what + ": expected " + std::string(source ? "`data`, `zeros`" : "`data`") +
                           " or {space: NAME, offset: EXPR}, got '" + node.text + "'");
    return std::nullopt;
  }
  if (!reader.ExpectMap(node, "a copy's end", kSpaceEndKeys)) return std::nullopt;
  const YamlNode* space = reader.Required(node, "space", what);
  const YamlNode* offset = reader.Required(node, "offset", what);
  if (!space || !offset) return std::nullopt;
  auto name = reader.Identifier(*space, "space");
  if (!name) return std::nullopt;
  auto index = database.FindSpace(*name);
  if (!index || database.spaces[*index].kind != SpaceKind::kMemory) {
    std::vector<std::string_view> memories;
    for (const Space& each : database.spaces) {
      if (each.kind == SpaceKind::kMemory) memories.push_back(each.name);
    }
    reader.Error(*space, what + ": '" + *name + "' is not a memory space" + DidYouMean(*name, memories));
    return std::nullopt;
  }
  auto e = command_expression(*offset, "offset of " + what, ExpressionType::kNumber);
  if (!e) return std::nullopt;
  end.kind = RingCopyEnd::Kind::kSpace;
  end.space = *index;
  end.offset = std::move(*e);
  return end;
}

bool ReadCopies(const YamlNode& node, RingCommand& out, const RingConfig& config, const Database& database,
                SchemaReader& reader, const std::string& what, const ExpressionReader& command_expression) {
  std::vector<const YamlNode*> items;
  if (node.IsSequence()) {
    for (const YamlNode& item : node.children) items.push_back(&item);
  } else {
    items.push_back(&node);
  }
  bool ok = true;
  for (const YamlNode* item : items) {
    std::string where = "copy of " + what;
    if (!reader.ExpectMap(*item, "a copy", kCopyKeys)) {
      ok = false;
      continue;
    }
    const YamlNode* from = reader.Required(*item, "from", where);
    const YamlNode* to = reader.Required(*item, "to", where);
    const YamlNode* bytes = reader.Required(*item, "bytes", where);
    if (!from || !to || !bytes) {
      ok = false;
      continue;
    }
    auto f = ReadCopyEnd(*from, true, config, database, reader, "`from` of " + where, command_expression);
    auto t = ReadCopyEnd(*to, false, config, database, reader, "`to` of " + where, command_expression);
    auto n = command_expression(*bytes, "`bytes` of " + where, ExpressionType::kNumber);
    if (!f || !t || !n) {
      ok = false;
      continue;
    }
    if (f->kind == RingCopyEnd::Kind::kData && t->kind == RingCopyEnd::Kind::kData) {
      reader.Error(*to, where + ": both ends are the data pointer: one end is a memory space or zeros");
      ok = false;
      continue;
    }
    out.copies.push_back(RingCopy{std::move(*f), std::move(*t), std::move(*n), item->loc});
  }
  return ok;
}

std::optional<RingCreateQueue> ReadCreate(const YamlNode& node, bool submission, SchemaReader& reader,
                                          const std::string& what, const ExpressionReader& command_expression) {
  if (!reader.ExpectMap(node, submission ? "a submission queue" : "a completion queue",
                        submission ? std::span<const std::string_view>(kCreateSqKeys)
                                   : std::span<const std::string_view>(kCreateCqKeys))) {
    return std::nullopt;
  }
  RingCreateQueue create;
  create.submission = submission;
  create.loc = node.loc;
  bool ok = true;
  auto required = [&](std::string_view key, Expression& slot) {
    const YamlNode* value = reader.Required(node, key, what);
    if (!value) {
      ok = false;
      return;
    }
    auto e = command_expression(*value, std::string(key) + " of " + what, ExpressionType::kNumber);
    if (e) slot = std::move(*e); else ok = false;
  };
  auto optional = [&](std::string_view key, std::optional<Expression>& slot) {
    if (const YamlNode* value = node.Find(key)) {
      slot = command_expression(*value, std::string(key) + " of " + what, ExpressionType::kNumber);
      if (!slot) ok = false;
    }
  };
  required("id", create.id);
  required("base", create.base);
  required("size", create.size);
  if (submission) {
    Expression completion;
    required("completion", completion);
    create.completion = std::move(completion);
  } else {
    optional("vector", create.vector);
    optional("interrupts", create.interrupts);
  }
  if (!ok) return std::nullopt;
  return create;
}

}  // namespace

bool ReadCommandActions(const YamlNode& command, RingCommand& out, const RingConfig& config, const Database& database,
                        SchemaReader& reader, const std::string& what, const ExpressionReader& command_expression) {
  bool ok = true;
  if (const YamlNode* copy = command.Find("copy")) {
    ok = ReadCopies(*copy, out, config, database, reader, what, command_expression) && ok;
  }
  struct QueueKey {
    std::string_view key;
    bool create;
    bool submission;
  };
  static constexpr std::array<QueueKey, 4> kQueueKeys{{{"create_submission_queue", true, true},
                                                       {"create_completion_queue", true, false},
                                                       {"delete_submission_queue", false, true},
                                                       {"delete_completion_queue", false, false}}};
  const YamlNode* first_queue_key = nullptr;
  for (const QueueKey& each : kQueueKeys) {
    const YamlNode* node = command.Find(each.key);
    if (!node) continue;
    std::string where = std::string(each.key) + " of " + what;
    if (first_queue_key != nullptr) {
      Diagnostic& error = reader.Error(*node, what + ": one queue action per command");
      error.notes.push_back(Note{first_queue_key->loc, "the first is here"});
      ok = false;
      continue;
    }
    first_queue_key = node;
    if (config.queues < 2) {
      reader.Error(*node, where + ": the ring has one queue pair (give `queues:` for queues that commands create)");
      ok = false;
      continue;
    }
    if (each.create) {
      out.create = ReadCreate(*node, each.submission, reader, where, command_expression);
      ok = out.create.has_value() && ok;
    } else if (auto id = command_expression(*node, where, ExpressionType::kNumber)) {
      out.remove = RingDeleteQueue{each.submission, std::move(*id), node->loc};
    } else {
      ok = false;
    }
  }
  if (const YamlNode* hold = command.Find("hold")) out.hold = reader.Bool(*hold, "hold").value_or(false);
  return ok;
}

}  // namespace regemu::regdb::ring_detail
