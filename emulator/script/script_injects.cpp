// InjectVerbCheck (script.hpp): an `inject` whose verb no behaviour
// declares (BehaviourProgram::InjectForms) is a script error found when the
// script is parsed, not when the run reaches it.

#include <string>
#include <string_view>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/inject_forms.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::emulator {

InjectVerbCheck::InjectVerbCheck(const Model& model) : model_(model) {}
InjectVerbCheck::~InjectVerbCheck() = default;

std::string InjectVerbCheck::Problem(const std::string& verb) {
  if (!declared_) declared_ = DeclaredInjects(model_);
  std::vector<std::string_view> verbs;
  for (const DeclaredInject& declared : *declared_) {
    if (declared.form.verb == verb) return "";
    verbs.push_back(declared.form.verb);
  }
  std::string message = "no behaviour of device '" + model_.device() + "' handles 'inject " + verb + "'";
  const auto& programs = model_.behaviours();
  for (const auto& program : programs) {
    if (program->name() == verb) {
      message += ": behaviour '" + verb + "' (" + program->kind() + ") takes no inject verb named after it";
    }
  }
  return message + regdb::DidYouMean(verb, verbs);
}

}  // namespace regemu::emulator
