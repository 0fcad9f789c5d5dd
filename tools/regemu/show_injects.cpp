#include "tools/regemu/show_injects.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/inject_forms.hpp"
#include "tools/regemu/device_inputs.hpp"

namespace regemu::tools {
namespace {

using nlohmann::json;

std::string_view KindName(emulator::InjectArgument::Kind kind) {
  using Kind = emulator::InjectArgument::Kind;
  switch (kind) {
    case Kind::kWord: return "word";
    case Kind::kNumber: return "number";
    case Kind::kFraction: return "fraction";
    case Kind::kDuration: return "duration";
    case Kind::kChoice: return "choice";
    case Kind::kBytes: return "bytes";
  }
  return "?";
}

json ArgumentJson(const emulator::InjectArgument& argument) {
  json out{{"kind", KindName(argument.kind)}, {"text", argument.text}, {"optional", argument.optional}};
  using Kind = emulator::InjectArgument::Kind;
  if (argument.ranged()) {
    out["min"] = argument.min;
    out["max"] = argument.max;
  }
  if (argument.kind == Kind::kChoice) out["choices"] = argument.choices;
  return out;
}

}  // namespace

int ShowInjects(const std::string& database, bool json_output, std::ostream& out, std::ostream& err) {
  if (!DatabaseExists("regemu show", database, err)) return 2;
  CompiledDatabase compiled = CompileDatabase(database, err);
  if (!compiled.model) return 1;
  const auto& programs = compiled.model->behaviours();
  std::vector<emulator::DeclaredInject> declared = emulator::DeclaredInjects(*compiled.model);
  if (json_output) {
    json forms = json::array();
    for (const emulator::DeclaredInject& inject : declared) {
      json arguments = json::array();
      for (const emulator::InjectArgument& argument : inject.form.arguments) arguments.push_back(ArgumentJson(argument));
      json form{{"verb", inject.form.verb},
                {"usage", "inject " + emulator::InjectUsage(inject.form)},
                {"behaviour", programs[inject.behaviour]->name()},
                {"kind", programs[inject.behaviour]->kind()},
                {"arguments", std::move(arguments)},
                {"doc", inject.form.doc}};
      if (inject.form.repeat_count != 0) {
        form["repeat"] = {{"from", inject.form.repeat_from}, {"count", inject.form.repeat_count}};
      }
      forms.push_back(std::move(form));
    }
    out << json{{"device", compiled.model->device()}, {"injects", std::move(forms)}}.dump(2) << "\n";
    return 0;
  }
  if (declared.empty()) {
    out << "device '" << compiled.model->device() << "' takes no inject verb\n";
    return 0;
  }
  std::vector<std::string> usages;
  size_t width = 0;
  for (const emulator::DeclaredInject& inject : declared) {
    usages.push_back("inject " + emulator::InjectUsage(inject.form));
    width = std::max(width, usages.back().size());
  }
  out << "device '" << compiled.model->device() << "': " << declared.size() << " inject form(s)\n";
  for (size_t i = 0; i < declared.size(); ++i) {
    const auto& program = *programs[declared[i].behaviour];
    out << "  " << usages[i] << std::string(width - usages[i].size() + 2, ' ') << program.name() << " ("
        << program.kind() << "): " << declared[i].form.doc << "\n";
  }
  return 0;
}

}  // namespace regemu::tools
