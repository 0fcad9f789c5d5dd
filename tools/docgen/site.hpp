#pragma once
// What every page of a register map reads: the checked database, and facts
// derived from it once for the whole site (where each register is visible
// through alias windows, which registers each space holds in address order).

#include <map>
#include <set>
#include <string>
#include <vector>

#include "regemu/regdb/loader.hpp"

namespace regemu::docgen {

// One more place a register can be reached: through an alias window of another space.
struct WindowView {
  const regdb::Range* window = nullptr;
  uint64_t offset = 0;  // in the window's space
};

// A behaviour whose YAML names a register (or one of its fields, or its
// array's template), and under which keys: what `regemu show` lists too.
struct NamedBy {
  const regdb::BehaviourSpec* behaviour = nullptr;
  std::set<std::string> keys;
};

class Site {
 public:
  explicit Site(const regdb::LoadedDatabase& loaded);

  const regdb::Database& db() const { return loaded_.database; }
  const regdb::LoadedDatabase& loaded() const { return loaded_; }
  // Where register `index` is visible besides its own space and offset.
  const std::vector<WindowView>& windows_of(regdb::RegisterIndex index) const { return windows_[index]; }
  // The registers of space `space`, by offset.
  const std::vector<const regdb::Register*>& registers_in(regdb::SpaceIndex space) const { return by_space_[space]; }
  // The behaviours naming register `index`, in database order.
  const std::vector<NamedBy>& named_by(regdb::RegisterIndex index) const { return named_by_[index]; }
  // The registers behaviour `behaviour` names, in database order.
  const std::vector<const regdb::Register*>& registers_named_by(size_t behaviour) const { return named_[behaviour]; }
  // "file:line" of a database object, or "".
  std::string SourceOf(regdb::SourceLoc loc) const;

 private:
  const regdb::LoadedDatabase& loaded_;
  std::vector<std::vector<WindowView>> windows_;
  std::vector<std::vector<const regdb::Register*>> by_space_;
  std::vector<std::vector<NamedBy>> named_by_;
  std::vector<std::vector<const regdb::Register*>> named_;
};

}  // namespace regemu::docgen
