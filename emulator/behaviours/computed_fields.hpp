#pragma once
// The device's computed fields (regdb Field::value) as one internal
// behaviour, "computed_fields", that keeps them up to date.

#include <memory>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/database.hpp"

namespace regemu::emulator {

// Null when the database has no computed field.
std::unique_ptr<BehaviourProgram> CompileComputedFields(const regdb::Database& database);

}  // namespace regemu::emulator
