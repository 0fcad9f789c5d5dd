#include "regemu/regdb/register_scope.hpp"

namespace regemu::regdb {

std::optional<ExpressionOperand> RegisterScope::Resolve(std::string_view name) const {
  size_t dot = name.find('.');
  auto index = database_.FindRegister(name.substr(0, dot));
  if (!index) {
    // A named expression (`let:`), once compiled.
    const LetDefinition* let = dot == std::string_view::npos ? database_.FindLet(name) : nullptr;
    if (let == nullptr || !let->expression) return std::nullopt;
    return ExpressionOperand{0, 64, let->expression->type(), &*let->expression};
  }
  const Register& reg = database_.registers[*index];
  if (dot == std::string_view::npos) return ExpressionOperand{*index, reg.width, ExpressionType::kNumber};
  std::string_view field_name = name.substr(dot + 1);
  // Field indices travel in 8 bits of the operand id.
  for (size_t f = 0; f < reg.fields.size() && f < 256; ++f) {
    if (reg.fields[f].name != field_name) continue;
    return ExpressionOperand{kFieldOperand | (uint64_t{*index} << 8) | f, reg.fields[f].bits.width(),
                             ExpressionType::kNumber};
  }
  return std::nullopt;
}

std::vector<std::string> RegisterScope::Candidates(std::string_view name) const {
  std::vector<std::string> names;
  size_t dot = name.find('.');
  if (dot != std::string_view::npos) {
    if (const Register* reg = database_.RegisterNamed(name.substr(0, dot))) {
      for (const Field& field : reg->fields) names.push_back(std::string(name.substr(0, dot)) + "." + field.name);
      return names;
    }
  }
  for (const LetDefinition& let : database_.lets) {
    if (database_.FindLet(let.name) == &let) names.push_back(let.name);
  }
  std::vector<std::string> registers = database_.VisibleRegisterNames();
  names.insert(names.end(), registers.begin(), registers.end());
  return names;
}

std::string RegisterScope::WhyUnresolved(std::string_view name) const {
  const auto& scope = database_.instance_scope();
  std::string_view reg = name.substr(0, name.find('.'));
  if (!scope || database_.FindRegister(reg) || !database_.DeviceRegisterNamed(reg)) return {};
  return "'" + std::string(reg) + "' is a register outside block '" + scope->block +
         "': a block's behaviours name only the registers of their own instance";
}

}  // namespace regemu::regdb
