#pragma once
// `regemu run --json`: a run as one JSON document, for tools and CI. Its
// shape is docs/run-json.schema.json (described in docs/scripts.md, "JSON
// output"): each command with its virtual times, what it read and whether
// its check held; each violation with its kind, access, register, field and
// rule; the summary; and the error that kept the script from running or
// stopped it.

#include <string>

#include <nlohmann/json.hpp>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"

namespace regemu::tools {

inline constexpr int kRunJsonVersion = 1;

struct RunJsonHeader {
  std::string database;
  std::string script;
  bool lenient = false;
};

// A run that happened (also one a script error stopped: `exit_status` 2).
// The result must come from RunOptions::record_commands.
nlohmann::ordered_json RunReportJson(const RunJsonHeader& header, const emulator::Script& script,
                             const emulator::Device& device, const emulator::RunResult& result, int exit_status);

// A run that never began: a usage or database error (`message`, the text
// regemu prints for it), or a script with errors (`script`'s diagnostics).
nlohmann::ordered_json RunErrorJson(const RunJsonHeader& header, const std::string& message,
                            const emulator::Script* script = nullptr);

}  // namespace regemu::tools
