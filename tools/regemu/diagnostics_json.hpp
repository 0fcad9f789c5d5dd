#pragma once
// Machine-readable diagnostics for `regemu check --json`.

#include <nlohmann/json.hpp>

#include "regemu/regdb/loader.hpp"

namespace regemu::tools {

// {"path", "device", "ok", "errors", "warnings", "truncated", counts, "diagnostics": [...]}
nlohmann::json DatabaseReportJson(const std::string& path, const regdb::LoadedDatabase& loaded);

}  // namespace regemu::tools
