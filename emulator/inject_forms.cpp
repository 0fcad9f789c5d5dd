#include "regemu/emulator/inject_forms.hpp"

#include <cstdio>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/model.hpp"

namespace regemu::emulator {
namespace {

std::string ArgumentText(const InjectArgument& argument) {
  if (argument.kind != InjectArgument::Kind::kChoice || !argument.text.empty()) return argument.text;
  std::string text;
  for (const std::string& choice : argument.choices) text += (text.empty() ? "" : "|") + choice;
  return text;
}

// `arguments` as usage shows them: an optional argument opens a bracket
// that holds it and the required ones after it ("[se S]").
std::string Sequence(const std::vector<InjectArgument>& arguments, size_t from, size_t to) {
  std::string text;
  bool open = false;
  for (size_t i = from; i < to; ++i) {
    if (arguments[i].optional && open) text += "]";
    if (!text.empty()) text += " ";
    if (arguments[i].optional) {
      text += "[";
      open = true;
    }
    text += ArgumentText(arguments[i]);
  }
  if (open) text += "]";
  return text;
}

}  // namespace

std::string InjectUsage(const InjectForm& form) {
  const std::vector<InjectArgument>& arguments = form.arguments;
  size_t from = form.repeat_count == 0 ? arguments.size() : form.repeat_from;
  size_t to = form.repeat_count == 0 ? arguments.size() : form.repeat_from + form.repeat_count;
  std::string usage = form.verb;
  auto add = [&](const std::string& text) {
    if (!text.empty()) usage += " " + text;
  };
  add(Sequence(arguments, 0, from));
  if (form.repeat_count == 1) {
    add(Sequence(arguments, from, to) + "...");
  } else if (form.repeat_count > 1) {
    std::string repeated = Sequence(arguments, from, to);
    add(repeated + " [" + repeated + " ...]");
  }
  add(Sequence(arguments, to, arguments.size()));
  return usage;
}

std::string FractionText(uint64_t thousandths) {
  char text[32];
  std::snprintf(text, sizeof text, "%llu.%03llu", static_cast<unsigned long long>(thousandths / 1000),
                static_cast<unsigned long long>(thousandths % 1000));
  return text;
}

std::optional<std::string> SmallestArgument(const InjectArgument& argument) {
  using Kind = InjectArgument::Kind;
  switch (argument.kind) {
    case Kind::kWord: return argument.text;
    case Kind::kChoice:
      if (argument.choices.empty()) return std::nullopt;
      return argument.choices.front();
    case Kind::kDuration: return "1us";
    case Kind::kFraction: return FractionText(argument.min);
    case Kind::kNumber:
    case Kind::kBytes: return std::to_string(argument.min);
  }
  return std::nullopt;
}

std::optional<std::vector<std::string>> SmallestArguments(const InjectForm& form) {
  std::vector<std::string> args;
  for (const InjectArgument& argument : form.arguments) {
    if (argument.optional) break;  // optional groups come last
    std::optional<std::string> smallest = SmallestArgument(argument);
    if (!smallest) return std::nullopt;
    args.push_back(std::move(*smallest));
  }
  return args;
}

std::vector<DeclaredInject> DeclaredInjects(const Model& model) {
  std::vector<DeclaredInject> declared;
  const auto& programs = model.behaviours();
  for (uint32_t i = 0; i < programs.size(); ++i) {
    for (InjectForm& form : programs[i]->InjectForms()) declared.push_back({std::move(form), i});
  }
  return declared;
}

}  // namespace regemu::emulator
