#include "tests/fuzz/inject_menu.hpp"

#include <array>
#include <cstdio>
#include <optional>
#include <string>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/inject_forms.hpp"

namespace regemu::fuzz {
namespace {

using Number = InjectTemplate::Number;
using Kind = emulator::InjectArgument::Kind;

// Choices of one argument tried, at most: an event catalog holds thousands.
constexpr size_t kMaxChoices = 64;

// `n` as an inject argument in `style` (a fraction's n in thousandths).
std::string NumberText(Number style, uint64_t n) {
  std::array<char, 32> text{};
  switch (style) {
    case Number::kNone: break;
    case Number::kDecimal: std::snprintf(text.data(), text.size(), "%llu", static_cast<unsigned long long>(n)); break;
    case Number::kHex: std::snprintf(text.data(), text.size(), "0x%llx", static_cast<unsigned long long>(n)); break;
    case Number::kFraction: return emulator::FractionText(n);
  }
  return text.data();
}

// Templates for one declared form (emulator/inject_forms.hpp): its required
// arguments at their smallest, one number chosen by the fuzzer, one
// template per choice of a named argument (an engine, an event, on|off),
// and one more per choice of an optional choice alone.
std::vector<InjectTemplate> Candidates(const emulator::InjectForm& form) {
  std::vector<InjectTemplate> out;
  InjectTemplate base{form.verb, {}, 0, Number::kNone, 0, 0};
  std::optional<size_t> choice;  // the argument whose choices make templates
  for (const emulator::InjectArgument& argument : form.arguments) {
    if (argument.optional) break;  // optional groups come last
    std::optional<std::string> smallest = emulator::SmallestArgument(argument);
    if (!smallest) return {};  // a name only a test knows
    if (argument.kind == Kind::kChoice && !choice) choice = base.args.size();
    base.args.push_back(std::move(*smallest));
  }
  // The number chosen: the first bounded one, else the first of any size
  // from its smallest up by 0xFFFF (a latency, a command).
  std::optional<size_t> number;
  for (int pass = 0; pass < 2 && !number; ++pass) {
    for (size_t i = 0; i < base.args.size() && !number; ++i) {
      const emulator::InjectArgument& argument = form.arguments[i];
      bool bounded = argument.max != ~uint64_t{0};
      if (argument.ranged() && argument.max > argument.min && (bounded || pass == 1)) number = i;
    }
  }
  if (number) {
    const emulator::InjectArgument& argument = form.arguments[*number];
    base.number_arg = *number;
    base.min = argument.min;
    base.max = argument.max != ~uint64_t{0} ? argument.max : argument.min + 0xFFFF;
    base.number = argument.kind == Kind::kFraction ? Number::kFraction
                  : base.max > 1024                ? Number::kHex
                                                   : Number::kDecimal;
  }
  std::vector<InjectTemplate> bases{base};
  if (choice) {
    const emulator::InjectArgument& named = form.arguments[*choice];
    bases.clear();
    for (size_t c = 0; c < named.choices.size() && c < kMaxChoices; ++c) {
      bases.push_back(base);
      bases.back().args[*choice] = named.choices[c];
    }
  }
  for (const InjectTemplate& made : bases) {
    out.push_back(made);
    for (size_t i = made.args.size(); i < form.arguments.size(); ++i) {
      const emulator::InjectArgument& optional = form.arguments[i];
      bool alone = i + 1 == form.arguments.size() || form.arguments[i + 1].optional;
      if (!optional.optional || optional.kind != Kind::kChoice || !alone) continue;
      for (size_t c = 0; c < optional.choices.size() && c < kMaxChoices; ++c) {
        out.push_back(made);
        out.back().args.push_back(optional.choices[c]);
      }
    }
  }
  return out;
}
}  // namespace

void FillInjectArgs(const InjectTemplate& choice, uint64_t number, std::vector<std::string>& args) {
  args.resize(choice.args.size());
  for (size_t i = 0; i < args.size(); ++i) args[i].assign(choice.args[i]);
  if (choice.number == Number::kNone) return;
  uint64_t span = choice.max - choice.min + 1;  // max < 2^64 - 1 for every template
  args[choice.number_arg] = NumberText(choice.number, choice.min + number % span);
}

std::vector<InjectTemplate> BuildInjectMenu(emulator::Device& device) {
  std::vector<InjectTemplate> menu;
  std::vector<std::string> args;
  for (const emulator::DeclaredInject& declared : emulator::DeclaredInjects(device.model())) {
    std::vector<InjectTemplate> candidates = Candidates(declared.form);
    for (InjectTemplate& candidate : candidates) {
      // Accepted at both ends of its range: then every number in it is.
      FillInjectArgs(candidate, 0, args);
      if (!device.Inject(candidate.verb, args).empty()) continue;
      FillInjectArgs(candidate, candidate.max - candidate.min, args);
      if (!device.Inject(candidate.verb, args).empty()) continue;
      // One template per shape (a verb's forms may repeat one).
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
