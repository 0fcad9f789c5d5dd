#include "tools/traces/access_sequence.hpp"

#include "regemu/emulator/script/script.hpp"
#include "regemu/regdb/numbers.hpp"
#include "tools/traces/capture_tokens.hpp"
#include "tools/traces/register_knowledge.hpp"

namespace regemu::traces {
namespace {

// Folds runs of reads of one place into one line as the accesses arrive.
class SequenceBuilder {
 public:
  explicit SequenceBuilder(AccessSequence& out) : out_(out) {}

  void Write(const std::string& op, unsigned bits, const std::string& where, uint64_t value, uint64_t line) {
    Flush();
    ++out_.accesses;
    std::string text = op + std::to_string(bits) + " " + where + " " + regdb::HexPadded(value, bits);
    out_.lines.push_back({text, text, line});
  }

  // `known`: the bits whose value counts (0: none, the value is not shown).
  void Read(unsigned bits, const std::string& where, uint64_t value, uint64_t known, uint64_t line) {
    ++out_.accesses;
    if (run_ && run_->bits == bits && run_->where == where) {
      ++run_->count;
      run_->value = value;
      run_->known = known;
      return;
    }
    Flush();
    run_ = Run{bits, where, value, known, 1, line, false};
  }

  // A script's poll: already one line.
  void Poll(unsigned bits, const std::string& where, uint64_t value, uint64_t known, uint64_t line) {
    Flush();
    ++out_.accesses;
    run_ = Run{bits, where, value, known, 2, line, true};
    Flush();
  }

  void Note(const std::string& text, uint64_t line) {
    Flush();
    out_.lines.push_back({text, text, line});
  }

  void Flush() {
    if (!run_) return;
    const Run& r = *run_;
    uint64_t all = WidthMask(r.bits);
    uint64_t known = r.known & all;
    // Compared: the known bits. Shown: the whole value, saying which of its
    // set bits were left out (volatile, hw), so a poll still shows where it ended.
    std::string key = "read" + std::to_string(r.bits) + " " + r.where + " until " +
                      regdb::HexPadded(r.value & known, r.bits) + (known == all ? "" : "/" + regdb::Hex(known));
    std::string value = regdb::HexPadded(r.value & all, r.bits);
    if (known == 0) {
      value += " (volatile: not compared)";
    } else if (uint64_t ignored = r.value & all & ~known) {
      value += " (volatile bits " + regdb::Hex(ignored) + " not compared)";
    }
    std::string text = r.count == 1 ? "read" + std::to_string(r.bits) + " " + r.where + " -> " + value
                                    : "poll" + std::to_string(r.bits) + " " + r.where + " until " + value;
    // A script's poll has no read count to show.
    if (r.count > 1 && !r.script_poll) text += "  (" + std::to_string(r.count) + " reads)";
    out_.lines.push_back({key, text, r.first_line});
    run_.reset();
  }

 private:
  struct Run {
    unsigned bits;
    std::string where;
    uint64_t value, known, count, first_line;
    bool script_poll;  // one `poll` line of a script, not reads folded together
  };
  AccessSequence& out_;
  std::optional<Run> run_;
};

// The name of what sits at `offset`: a register (+ byte offset into it), a
// register through an alias window, a reserved range, or the bare offset.
std::string NameAt(const emulator::Model& model, emulator::SpaceId space_id, uint64_t offset) {
  const emulator::SpaceModel& space = model.spaces()[space_id];
  auto reg_name = [&](emulator::SpaceId s, uint64_t at) -> std::optional<std::string> {
    emulator::RegisterId id = model.spaces()[s].decode.Lookup(at);
    if (id == emulator::DecodeTable::kNone) return std::nullopt;
    const emulator::RegisterModel& r = model.registers()[id];
    return at == r.offset ? r.name : r.name + "+" + std::to_string(at - r.offset);
  };
  if (auto name = reg_name(space_id, offset)) return *name;
  if (const emulator::RangeModel* range = space.RangeAt(offset)) {
    if (range->kind != regdb::RangeKind::kReserved) {
      if (auto name = reg_name(range->target_space, range->TargetOffset(offset))) return *name + " via " + range->name;
    }
    return range->name + "+" + regdb::Hex(offset - range->base);
  }
  return space.name + " " + regdb::Hex(offset);
}

// The bits of a read the model can know (not volatile, not hw).
uint64_t KnownBits(const emulator::Model& model, const RegisterKnowledge& knowledge, emulator::SpaceId space_id,
                   uint64_t offset, unsigned bytes) {
  const emulator::SpaceModel& space = model.spaces()[space_id];
  uint64_t known = WidthMask(8 * bytes);
  for (unsigned b = 0; b < bytes; ++b) {
    emulator::RegisterId id = space.decode.Lookup(offset + b);
    if (id == emulator::DecodeTable::kNone) continue;
    const emulator::RegisterModel& r = model.registers()[id];
    uint64_t unknowable = (knowledge[id].unknowable >> (8 * (offset + b - r.offset))) & 0xff;
    known &= ~(unknowable << (8 * b));
  }
  return known;
}

}  // namespace

bool LooksLikeScript(std::string_view first_line) {
  std::vector<std::string_view> t = SplitTokens(first_line, 1);
  if (t.empty()) return false;
  std::string_view word = t[0];
  for (std::string_view op : {"write", "read", "expect", "poll", "peek", "poke"}) {
    if (word.substr(0, op.size()) == op) {
      std::string_view bits = word.substr(op.size());
      if (bits == "8" || bits == "16" || bits == "32" || bits == "64") return true;
    }
  }
  return word == "step" || word == "reset" || word == "inject" || word == "snapshot" || word == "restore" ||
         word == "dump" || word == "poll-step" || word.substr(0, 7) == "expect-";
}

std::optional<AccessSequence> CaptureSequence(std::istream& in, const std::string& name, const SequenceContext& context,
                                              std::string& error) {
  AccessSequence sequence;
  sequence.name = name;
  std::optional<CaptureAddressMap> map;
  std::optional<RegisterKnowledge> knowledge;
  if (context.model) {
    map = CaptureAddressMap::Make(*context.db, *context.model, context.mappings, context.device, error);
    if (!map) return std::nullopt;
    knowledge.emplace(*context.db, *context.model);
  }
  CaptureReaderOptions options;
  options.format = context.format;
  CaptureReader reader(in, name, options);
  SequenceBuilder builder(sequence);
  CaptureRecord record;
  while (reader.Next(record)) {
    CaptureFormat format = *reader.format();
    if (map) map->Observe(record, format);
    if (record.kind == CaptureKind::kMark) {
      builder.Note("# " + record.text, record.line);
      continue;
    }
    if (!record.is_access()) continue;
    unsigned bits = 8 * record.width;
    std::string where = regdb::Hex(record.address);
    uint64_t known = WidthMask(bits);
    if (map) {
      if (auto placed = map->Place(record, format)) {
        where = NameAt(*context.model, placed->space, placed->offset);
        known = KnownBits(*context.model, *knowledge, placed->space, placed->offset, record.width);
      }
    }
    if (record.kind == CaptureKind::kWrite) {
      builder.Write("write", bits, where, record.value, record.line);
    } else {
      builder.Read(bits, where, record.value, known, record.line);
    }
  }
  builder.Flush();
  sequence.kind = reader.format() ? std::string(CaptureFormatName(*reader.format())) : "empty capture";
  sequence.problems = reader.problems();
  sequence.problem_count = reader.problem_count();
  return sequence;
}

std::optional<AccessSequence> ScriptSequence(std::string text, const std::string& name,
                                             const SequenceContext& context, std::string& error) {
  if (!context.model) {
    error = name + " is a regemu script: its register names need a database (--db DB)";
    return std::nullopt;
  }
  emulator::Script script = emulator::ParseScript(std::move(text), name, *context.model);
  if (!script.ok()) {
    error = script.FormatErrors();
    return std::nullopt;
  }
  const emulator::Model& model = *context.model;
  RegisterKnowledge knowledge(*context.db, model);
  AccessSequence sequence;
  sequence.name = name;
  sequence.kind = "script";
  SequenceBuilder builder(sequence);
  for (const emulator::ScriptCommand& c : script.commands) {
    const emulator::ScriptTarget& t = c.target;
    uint64_t line = c.loc.line;
    auto where = [&] {
      std::string place = NameAt(model, t.space, t.offset);
      if (t.is_field()) place += "." + model.registers()[t.reg].fields[t.field].name;
      return place;
    };
    auto known = [&] {
      uint64_t mask = t.is_field() ? WidthMask(c.width) : KnownBits(model, knowledge, t.space, t.offset, c.width / 8);
      return mask & c.mask;
    };
    switch (c.op) {
      case emulator::ScriptOp::kWrite: builder.Write("write", c.width, where(), c.value, line); break;
      case emulator::ScriptOp::kPoke: builder.Write("poke", c.width, where(), c.value, line); break;
      case emulator::ScriptOp::kRead: builder.Read(c.width, where(), 0, 0, line); break;
      case emulator::ScriptOp::kExpect: builder.Read(c.width, where(), c.value, known(), line); break;
      case emulator::ScriptOp::kPoll:
        builder.Poll(c.width, where(), c.value, known(), line);
        break;
      case emulator::ScriptOp::kInject: {
        std::string words = "inject " + c.verb;
        for (const std::string& arg : c.args) words += " " + arg;
        builder.Note(words, line);
        break;
      }
      case emulator::ScriptOp::kReset: builder.Note("reset", line); break;
      default: break;  // time, checks of outputs, dumps: not accesses
    }
  }
  builder.Flush();
  return sequence;
}

}  // namespace regemu::traces
