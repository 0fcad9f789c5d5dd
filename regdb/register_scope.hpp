#pragma once
// What an expression over a device's registers may name: `REG` (the whole
// register) and `REG.FIELD`, resolved against the database. Reactions build
// on it (adding `value`, `now`, event arguments); register decode
// conditions (`decode_when: LCR.DLAB == 0`) use it as it is.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/regdb/database.hpp"
#include "regemu/regdb/expression.hpp"

namespace regemu::regdb {

// Operand ids: a register is its index; a field is
// kFieldOperand | register index << 8 | field index.
inline constexpr uint64_t kFieldOperand = uint64_t{1} << 62;

inline bool IsFieldOperand(uint64_t id) { return (id & kFieldOperand) != 0; }
inline RegisterIndex OperandRegister(uint64_t id) {
  return static_cast<RegisterIndex>(IsFieldOperand(id) ? (id & ~kFieldOperand) >> 8 : id);
}
inline uint32_t OperandField(uint64_t id) { return static_cast<uint32_t>(id & 0xFF); }

class RegisterScope : public ExpressionScope {
 public:
  explicit RegisterScope(const Database& database) : database_(database) {}

  std::optional<ExpressionOperand> Resolve(std::string_view name) const override;
  std::vector<std::string> Candidates(std::string_view name) const override;
  std::string WhyUnresolved(std::string_view name) const override;

 protected:
  const Database& database_;
};

}  // namespace regemu::regdb
