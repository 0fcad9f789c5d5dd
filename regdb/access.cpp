#include "regemu/regdb/access.hpp"

#include <array>

namespace regemu::regdb {
namespace {

constexpr std::array kPolicies = {
#define REGDB_ACCESS(id, name, read, write, summary) \
  AccessInfo{Access::id, name, ReadEffect::read, WriteEffect::write, summary},
#include "regemu/regdb/access_policies.def"
#undef REGDB_ACCESS
};

}  // namespace

const AccessInfo& Info(Access access) { return kPolicies[static_cast<size_t>(access)]; }

std::span<const AccessInfo> AllAccessPolicies() { return kPolicies; }

std::optional<Access> AccessFromName(std::string_view name) {
  for (const AccessInfo& info : kPolicies) {
    if (info.name == name) return info.access;
  }
  return std::nullopt;
}

std::string_view AccessName(Access access) { return Info(access).name; }

}  // namespace regemu::regdb
