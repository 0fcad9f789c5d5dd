#include "regemu/regdb/register_scope.hpp"

namespace regemu::regdb {

std::optional<ExpressionOperand> RegisterScope::Resolve(std::string_view name) const {
  size_t dot = name.find('.');
  auto index = database_.FindRegister(name.substr(0, dot));
  if (!index) return std::nullopt;
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
      for (const Field& field : reg->fields) names.push_back(reg->name + "." + field.name);
      return names;
    }
  }
  for (const Register& reg : database_.registers) names.push_back(reg.name);
  return names;
}

}  // namespace regemu::regdb
