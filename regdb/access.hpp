#pragma once
// Access policies: an enum generated from access_policies.def plus the
// facets every consumer asks for (OpenTitan reggen style): never a switch on
// policy names outside this table.

#include <optional>
#include <span>
#include <string_view>

namespace regemu::regdb {

enum class Access : unsigned char {
#define REGDB_ACCESS(id, name, read, write, summary) id,
#include "regemu/regdb/access_policies.def"
#undef REGDB_ACCESS
};

enum class ReadEffect : unsigned char { kValue, kValueThenClear, kValueThenSet, kWriteOnly, kZero };

enum class WriteEffect : unsigned char {
  kIgnore,
  kDiscard,
  kStore,
  kClearAll,
  kSetAll,
  kOneClears,
  kOneSets,
  kOneToggles,
  kZeroClears,
  kZeroSets,
  kZeroToggles,
  kStoreOnce,
  kMustBeZero,
};

struct AccessInfo {
  Access access;
  std::string_view name;
  ReadEffect read;
  WriteEffect write;
  std::string_view summary;

  bool readable() const { return read != ReadEffect::kWriteOnly; }
  // Software can change the bits by writing.
  bool writable() const {
    return write != WriteEffect::kIgnore && write != WriteEffect::kDiscard && write != WriteEffect::kMustBeZero;
  }
  // Reading changes the value: a "precious" field that a driver must not read casually.
  bool read_has_side_effect() const { return read == ReadEffect::kValueThenClear || read == ReadEffect::kValueThenSet; }
  bool reads_as_zero() const { return read == ReadEffect::kZero || read == ReadEffect::kWriteOnly; }
};

const AccessInfo& Info(Access access);
std::span<const AccessInfo> AllAccessPolicies();
std::optional<Access> AccessFromName(std::string_view name);
std::string_view AccessName(Access access);

}  // namespace regemu::regdb
