// The rules that hold across behaviours, which the device has one of: one
// behaviour delivers the device's interrupt, a named line has one driver,
// an output stream one emitter, interrupt parents form a tree, an access
// has one gate. Each is reported at the YAML that breaks it, so that
// `regemu check` finds everything compiling the model would refuse.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/checker.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::regdb {
namespace {

// The name scripts and the C shim give the device's interrupt output
// (emulator/script/script.hpp kInterruptOutputName): no line may take it.
constexpr std::string_view kInterruptOutputName = "irq";

// Where `spec`'s YAML names `name` under one of `keys`: a block's
// behaviour writes its instance's names without the instance's prefix.
// The behaviour's own line when the name is not found as written.
SourceLoc Locate(const BehaviourSpec& spec, std::initializer_list<std::string_view> keys, const std::string& name) {
  std::string local = name;
  if (spec.instance && name.starts_with(spec.instance->instance + "_")) {
    local = name.substr(spec.instance->instance.size() + 1);
  }
  SourceLoc found;
  auto walk = [&](auto&& self, const YamlNode& node, std::string_view key) -> void {
    if (found.known()) return;
    if (node.IsScalar()) {
      bool keyed = std::find(keys.begin(), keys.end(), key) != keys.end();
      if (keyed && (node.text == name || node.text == local)) found = node.loc;
      return;
    }
    if (node.IsSequence()) {
      for (const YamlNode& item : node.children) self(self, item, key);
      return;
    }
    if (node.IsMap()) {
      for (size_t i = 0; i < node.MapSize(); ++i) self(self, node.MapValue(i), node.MapKey(i).text);
    }
  };
  walk(walk, spec.yaml, "");
  return found.known() ? found : spec.loc;
}

class ModelRules {
 public:
  ModelRules(const Database& database, Diagnostics& diagnostics) : database_(database), diagnostics_(diagnostics) {
    for (const BehaviourSpec& spec : database.behaviours) {
      if (spec.config) checked_.push_back(&spec);
    }
  }

  void CheckAll() {
    OneRouter();
    OneDriverPerLine();
    OneEmitterPerStream();
    ParentsFormATree();
    OneGatePerAccess();
  }

 private:
  void OneRouter() {
    const BehaviourSpec* router = nullptr;
    for (const BehaviourSpec* spec : checked_) {
      if (!spec->config->RoutesInterrupts()) continue;
      if (router != nullptr) {
        diagnostics_.Error(spec->kind_loc, "behaviours '" + router->name + "' and '" + spec->name +
                                               "' both route the device's interrupt: a device has one")
            .notes.push_back({router->kind_loc, "'" + router->name + "' routes it here"});
      }
      router = spec;
    }
  }

  void OneDriverPerLine() {
    std::map<std::string, const BehaviourSpec*> drivers;
    for (const BehaviourSpec* spec : checked_) {
      for (const std::string& line : spec->config->OutputLines()) {
        SourceLoc at = Locate(*spec, {"line", "lines"}, line);
        if (line == kInterruptOutputName) {
          diagnostics_.Error(at, "behaviour '" + spec->name +
                                     "': interrupt line 'irq' is the name scripts and the C shim give the device's "
                                     "interrupt output; name the line otherwise");
          continue;
        }
        auto [it, first] = drivers.emplace(line, spec);
        if (first) continue;
        diagnostics_.Error(at, "behaviour '" + spec->name + "': interrupt line '" + line +
                                   "' is driven by another behaviour too ('" + it->second->name +
                                   "'): a line has one driver; combine the sources in one `interrupts` output")
            .notes.push_back({Locate(*it->second, {"line", "lines"}, line), "'" + it->second->name + "' drives it"});
      }
    }
  }

  void OneEmitterPerStream() {
    std::map<std::string, const BehaviourSpec*> emitters;
    for (const BehaviourSpec* spec : checked_) {
      for (const std::string& stream : spec->config->OutputStreams()) {
        auto [it, first] = emitters.emplace(stream, spec);
        if (first) continue;
        diagnostics_.Error(Locate(*spec, {"stream"}, stream),
                           "behaviour '" + spec->name + "': output stream '" + stream +
                               "' is emitted by another behaviour too ('" + it->second->name + "')")
            .notes.push_back({Locate(*it->second, {"stream"}, stream), "'" + it->second->name + "' emits it"});
      }
    }
  }

  // Each parent is another behaviour (the kinds' checks say so); a chain
  // that comes back to where it started would recurse forever when an
  // output changes. Reported once per cycle, at its first member's parent.
  void ParentsFormATree() {
    std::map<std::string, const BehaviourSpec*> by_name;
    for (const BehaviourSpec* spec : checked_) by_name.emplace(spec->name, spec);
    std::map<std::string, bool> reported;
    for (const BehaviourSpec* start : checked_) {
      std::vector<const BehaviourSpec*> chain{start};
      for (const BehaviourSpec* at = start;;) {
        auto next = by_name.find(at->config->InterruptParent());
        if (next == by_name.end()) break;
        at = next->second;
        if (at == start) {
          bool seen = std::any_of(chain.begin(), chain.end(), [&](const BehaviourSpec* s) { return reported[s->name]; });
          if (!seen) Cycle(chain);
          for (const BehaviourSpec* member : chain) reported[member->name] = true;
          break;
        }
        if (std::find(chain.begin(), chain.end(), at) != chain.end()) break;  // a cycle not through start
        chain.push_back(at);
      }
    }
  }

  void Cycle(const std::vector<const BehaviourSpec*>& chain) {
    std::string path;
    for (const BehaviourSpec* member : chain) path += member->name + " -> ";
    path += chain.front()->name;
    const BehaviourSpec& first = *chain.front();
    diagnostics_.Error(Locate(first, {"interrupt_parent", "parent"}, first.config->InterruptParent()),
                       "behaviour '" + first.name + "': its interrupt parents form a cycle (" + path + ")");
  }

  void OneGatePerAccess() {
    struct Owned {
      GatedSpan span;
      const BehaviourSpec* spec;
    };
    std::vector<Owned> spans;
    for (const BehaviourSpec* spec : checked_) {
      for (const GatedSpan& span : spec->config->GatedSpans(database_)) spans.push_back({span, spec});
    }
    std::sort(spans.begin(), spans.end(), [](const Owned& a, const Owned& b) {
      return a.span.space != b.span.space ? a.span.space < b.span.space : a.span.first < b.span.first;
    });
    for (size_t i = 1; i < spans.size(); ++i) {
      const Owned& before = spans[i - 1];
      const Owned& here = spans[i];
      if (here.span.space != before.span.space || here.span.first > before.span.last) continue;
      if (here.spec == before.spec) continue;  // one behaviour's ranges are disjoint (its own check)
      const std::string& space =
          here.span.space < database_.spaces.size() ? database_.spaces[here.span.space].name : std::string("?");
      diagnostics_.Error(here.spec->kind_loc, "gated ranges of behaviours '" + before.spec->name + "' and '" +
                                                  here.spec->name + "' overlap at " + Hex(here.span.first) +
                                                  " in space '" + space + "': an access has one gate")
          .notes.push_back({before.spec->kind_loc, "'" + before.spec->name + "' gates " + Hex(before.span.first) +
                                                       "-" + Hex(before.span.last)});
    }
  }

  const Database& database_;
  Diagnostics& diagnostics_;
  std::vector<const BehaviourSpec*> checked_;  // the behaviours whose sections checked clean
};

}  // namespace

void CheckModelRules(const Database& database, Diagnostics& diagnostics) {
  ModelRules(database, diagnostics).CheckAll();
}

}  // namespace regemu::regdb
