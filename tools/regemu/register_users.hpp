#pragma once
// What names a register or one of its fields elsewhere in the database, for
// `regemu show`: the behaviours whose YAML names it (and under which keys)
// and the alias windows it enables. A cheap reading of the YAML, not of each
// kind's semantics: it tells the reader which behaviour to look up.

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "regemu/regdb/database.hpp"

namespace regemu::tools {

struct RegisterUsers {
  struct Behaviour {
    const regdb::BehaviourSpec* spec = nullptr;
    std::set<std::string> keys;  // the YAML keys whose value names it: "master", "enable"
  };
  std::vector<Behaviour> behaviours;
  std::vector<const regdb::Range*> enabled_ranges;  // windows decoded while it (the field) is set
};

// Calls `visit` with every scalar under a behaviour's YAML `node` and the
// key it sits under (a sequence's items count as their sequence's key; a
// map's keys are scalars too, under their parent's key): how both UsersOf
// and `regemu doc`'s index of names read a behaviour.
void ForEachScalar(const regdb::YamlNode& node,
                   const std::function<void(const std::string& text, const std::string& key)>& visit);

// Users of `reg`, or with `field` (one of reg's fields) of that field only.
RegisterUsers UsersOf(const regdb::Database& db, const regdb::Register& reg, const regdb::Field* field = nullptr);

}  // namespace regemu::tools
