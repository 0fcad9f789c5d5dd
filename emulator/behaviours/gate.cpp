// `kind: gate`: conditions over registers that let frontdoor accesses to
// address ranges through (yaml/README.md, "kind: gate"). The device asks
// the gate of a range before decode (AccessGate); a range needs every gate
// it names open, and the first closed one that guards the access refuses
// it: a violation of the gate's kind, a read answering `reads_as`, a write
// dropped. A closed gate lets writes to its `writes_pass` registers through.
// Stateless: the conditions read the device's registers at each access.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/behaviours/register_env.hpp"
#include "regemu/regdb/behaviour_configs/gate.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

using regdb::GateConfig;

// A piece of the space where one set of gates applies: the declared ranges
// cut where they overlap, so that each access finds its gates at once.
struct Piece {
  uint64_t first = 0;
  uint64_t last = 0;            // inclusive
  std::vector<uint32_t> gates;  // every gate of every range covering it, in declaration order
  std::string name;             // those ranges' names, for messages
};

// The config and what Compile derives from it against the model.
struct CompiledGate {
  GateConfig config;
  std::vector<Piece> pieces;
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> writes_pass;  // per gate: [first, last] offsets
};

// Coverage: each gate letting a guarded access through and refusing one.
// Points, in order: each gate opened, then each gate closed.
uint32_t OpenPoint(uint32_t gate) { return 2 * gate; }
uint32_t ClosedPoint(uint32_t gate) { return 2 * gate + 1; }

bool Guards(GateConfig::Refuses refuses, bool is_write) {
  switch (refuses) {
    case GateConfig::Refuses::kAccesses: return true;
    case GateConfig::Refuses::kReads: return !is_write;
    case GateConfig::Refuses::kWrites: return is_write;
  }
  return true;
}

class GateBehaviour : public CopyableBehaviour<GateBehaviour>, public AccessGate {
 public:
  GateBehaviour(const CompiledGate& compiled, const std::string& name) : compiled_(&compiled), name_(&name) {}

  std::optional<AccessRefusal> CheckAccess(BehaviourContext& context, uint32_t tag, uint64_t offset, unsigned,
                                           bool is_write) override {
    const GateConfig& config = compiled_->config;
    const Piece& piece = compiled_->pieces[tag];
    for (uint32_t g : piece.gates) {
      const GateConfig::Gate& gate = config.gates[g];
      if (!Guards(gate.refuses, is_write)) continue;
      if (is_write && Passes(g, offset)) continue;
      if (gate.when.Evaluate(RegisterEnv(context)) != 0) {
        context.Cover(OpenPoint(g));
        continue;
      }
      context.Cover(ClosedPoint(g));
      return AccessRefusal{ViolationKindFromName(gate.kind).value_or(ViolationKind::kProtocol),
                           Rule(context, gate, piece, offset), gate.reads_as};
    }
    return std::nullopt;
  }

 private:
  bool Passes(uint32_t gate, uint64_t offset) const {
    const auto& spans = compiled_->writes_pass[gate];
    return std::any_of(spans.begin(), spans.end(),
                       [&](const auto& span) { return offset >= span.first && offset <= span.second; });
  }

  // "RULE (REF) at OFFSET in RANGE [gate 'G' of 'B' closed: WHEN, with A = 0x2, B = 0x0]": the
  // datasheet's words, where, and the values that closed it.
  std::string Rule(const BehaviourContext& context, const GateConfig::Gate& gate, const Piece& piece,
                   uint64_t offset) const {
    std::string rule = gate.violation;
    if (!gate.ref.empty()) rule += " (" + gate.ref + ")";
    rule += " at " + regdb::Hex(offset);
    if (!piece.name.empty()) rule += " in " + piece.name;
    rule += " [gate '" + gate.name + "' of '" + *name_ + "' closed: " + gate.when.text();
    const auto& operands = gate.when.operands();
    for (size_t i = 0; i < operands.size() && i < gate.operand_names.size(); ++i) {
      rule += (i == 0 ? ", with " : ", ") + gate.operand_names[i] + " = " + regdb::Hex(PeekOperand(context, operands[i]));
    }
    return rule + "]";
  }

  const CompiledGate* compiled_;  // owned by the program, which outlives every device of its model
  const std::string* name_;       // the program's name, as long
};

class GateProgram : public BehaviourProgram {
 public:
  GateProgram(std::string name, CompiledGate compiled)
      : BehaviourProgram("gate", std::move(name)), compiled_(std::move(compiled)) {}

  std::vector<GatedRange> GatedRanges() const override {
    std::vector<GatedRange> ranges;
    auto space = static_cast<SpaceId>(compiled_.config.space);
    for (uint32_t i = 0; i < compiled_.pieces.size(); ++i) {
      ranges.push_back({space, compiled_.pieces[i].first, compiled_.pieces[i].last, i});
    }
    return ranges;
  }

  std::vector<CoveragePoint> CoveragePoints() const override {
    std::vector<CoveragePoint> points;
    for (const GateConfig::Gate& gate : compiled_.config.gates) {
      points.push_back({"gates open", gate.name});
      points.push_back({"gates closed", gate.name});
    }
    return points;
  }

  std::unique_ptr<Behaviour> Instantiate() const override { return std::make_unique<GateBehaviour>(compiled_, name()); }

 private:
  CompiledGate compiled_;
};

// Cuts the declared ranges where they start and end, keeping the pieces
// some gate guards: sorted, disjoint, each with the gates of all the ranges
// covering it.
std::vector<Piece> CutIntoPieces(const GateConfig& config) {
  std::vector<uint64_t> starts;  // where a piece may begin: each range's first and the byte after its last
  for (const GateConfig::Range& range : config.ranges) {
    if (range.gates.empty()) continue;
    starts.push_back(range.first);
    if (range.last != ~uint64_t{0}) starts.push_back(range.last + 1);
  }
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  std::vector<Piece> pieces;
  for (size_t i = 0; i + 1 < starts.size(); ++i) {
    Piece piece{starts[i], starts[i + 1] - 1, {}, {}};
    for (const GateConfig::Range& range : config.ranges) {
      if (range.gates.empty() || range.first > piece.first || range.last < piece.last) continue;
      for (uint32_t g : range.gates) {
        if (std::find(piece.gates.begin(), piece.gates.end(), g) == piece.gates.end()) piece.gates.push_back(g);
      }
      if (!range.name.empty()) piece.name += (piece.name.empty() ? "" : ", ") + range.name;
    }
    if (piece.gates.empty()) continue;  // between ranges
    // Neighbours alike stay one piece (a range cut only by another's end).
    if (!pieces.empty() && pieces.back().last + 1 == piece.first && pieces.back().gates == piece.gates &&
        pieces.back().name == piece.name) {
      pieces.back().last = piece.last;
    } else {
      pieces.push_back(std::move(piece));
    }
  }
  return pieces;
}

}  // namespace

std::unique_ptr<BehaviourProgram> CompileGate(const regdb::BehaviourSpec& spec, const Model& model,
                                              std::string& error) {
  const GateConfig* config = ConfigOf<GateConfig>(spec, error);
  if (!config) return nullptr;
  CompiledGate compiled{*config, CutIntoPieces(*config), {}};
  for (const GateConfig::Gate& gate : config->gates) {
    auto& spans = compiled.writes_pass.emplace_back();
    for (regdb::RegisterIndex id : gate.writes_pass) {
      const RegisterModel& r = model.registers()[id];
      spans.emplace_back(r.offset, r.offset + r.extent - 1);
    }
  }
  return std::make_unique<GateProgram>(spec.name, std::move(compiled));
}

}  // namespace regemu::emulator
