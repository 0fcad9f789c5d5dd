#include "tests/fuzz/inject_menu.hpp"

#include <array>
#include <cstdio>

#include "regemu/emulator/behaviour.hpp"

namespace regemu::fuzz {
namespace {

using Number = InjectTemplate::Number;

// The verbs and argument shapes of emulator/behaviours/*.cpp (Inject), by kind.
std::vector<InjectTemplate> Candidates(const emulator::BehaviourProgram& program) {
  std::vector<InjectTemplate> out;
  const std::string& name = program.name();
  const std::string& kind = program.kind();
  if (kind == "classic-iir") {
    // The IIR's width is not known here: the largest accepted bit wins.
    for (uint64_t max_bit : {uint64_t{63}, uint64_t{31}, uint64_t{15}, uint64_t{7}}) {
      out.push_back({name, {"0"}, 0, Number::kDecimal, 0, max_bit});
      out.push_back({name, {"0", "on"}, 0, Number::kDecimal, 0, max_bit});
      out.push_back({name, {"0", "off"}, 0, Number::kDecimal, 0, max_bit});
    }
  } else if (kind == "gen11-interrupts") {
    // By class and instance: the engine table's names are the config's.
    for (int cls = 0; cls < 8; ++cls) {
      for (int instance = 0; instance < 64; ++instance) {
        out.push_back({name, {"message", std::to_string(cls), std::to_string(instance), "0", "0"}, 4, Number::kHex, 0,
                       0xFFFF});
      }
    }
  } else if (kind == "oa-unit") {
    for (const char* signal : {"gpu-busy", "eu-active", "eu-stall", "threads", "pixels", "samplers", "gpu-clocks"}) {
      out.push_back({"oa-load", {signal, "0"}, 1, Number::kFraction, 0, 1000});
    }
    out.push_back({"gpu-freq", {"1"}, 0, Number::kDecimal, 1, 10'000});
    out.push_back({"mi-rpc", {"0x100000", "0"}, 1, Number::kHex, 0, 0xFFFFFFFF});
    out.push_back({"ctx-switch", {"0"}, 0, Number::kHex, 0, 0xFF});
    out.push_back({"ctx-switch", {"idle"}});
  } else if (kind == "pci-config") {
    out.push_back({"pci-request", {"0"}});
    out.push_back({"pci-request", {"1"}});
  } else if (kind == "forcewake") {
    out.push_back({"forcewake-latency", {"0"}, 0, Number::kDecimal, 0, 100'000});
  }
  return out;
}

}  // namespace

void FillInjectArgs(const InjectTemplate& choice, uint64_t number, std::vector<std::string>& args) {
  args.resize(choice.args.size());
  for (size_t i = 0; i < args.size(); ++i) args[i].assign(choice.args[i]);
  if (choice.number == Number::kNone) return;
  uint64_t span = choice.max - choice.min + 1;  // max < 2^64 - 1 for every template
  uint64_t n = choice.min + number % span;
  std::array<char, 32> text{};
  switch (choice.number) {
    case Number::kNone: break;
    case Number::kDecimal: std::snprintf(text.data(), text.size(), "%llu", static_cast<unsigned long long>(n)); break;
    case Number::kHex: std::snprintf(text.data(), text.size(), "0x%llx", static_cast<unsigned long long>(n)); break;
    case Number::kFraction:
      std::snprintf(text.data(), text.size(), "%llu.%03llu", static_cast<unsigned long long>(n / 1000),
                    static_cast<unsigned long long>(n % 1000));
      break;
  }
  args[choice.number_arg].assign(text.data());
}

std::vector<InjectTemplate> BuildInjectMenu(emulator::Device& device) {
  std::vector<InjectTemplate> menu;
  std::vector<std::string> args;
  for (const auto& program : device.model().behaviours()) {
    std::vector<InjectTemplate> candidates = Candidates(*program);
    for (InjectTemplate& candidate : candidates) {
      // Accepted at both ends of its range: then every number in it is.
      FillInjectArgs(candidate, 0, args);
      if (!device.Inject(candidate.verb, args).empty()) continue;
      FillInjectArgs(candidate, candidate.max - candidate.min, args);
      if (!device.Inject(candidate.verb, args).empty()) continue;
      // One template per shape: of classic-iir's bit ranges, the widest accepted (tried first).
      auto shape = [](const InjectTemplate& t) {
        std::string key = t.verb;
        for (size_t i = 0; i < t.args.size(); ++i) key += " " + (i == t.number_arg && t.number != Number::kNone ? "#" : t.args[i]);
        return key;
      };
      bool fresh = true;
      for (const InjectTemplate& kept : menu) fresh &= shape(kept) != shape(candidate);
      if (fresh) menu.push_back(std::move(candidate));
    }
  }
  return menu;
}

}  // namespace regemu::fuzz
