#pragma once
// What names a register or one of its fields elsewhere in the database, for
// `regemu show`: the behaviours whose YAML names it (and under which keys)
// and the alias windows it enables. A cheap reading of the YAML, not of each
// kind's semantics: it tells the reader which behaviour to look up.

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

// Users of `reg`, or with `field` (one of reg's fields) of that field only.
RegisterUsers UsersOf(const regdb::Database& db, const regdb::Register& reg, const regdb::Field* field = nullptr);

}  // namespace regemu::tools
