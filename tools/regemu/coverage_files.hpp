#pragma once
// Coverage files as the command line takes them (`regemu coverage merge`,
// `regemu coverage report`, `regemu doc --coverage`): files, or folders
// meaning every *.json file directly in them, read and merged.

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/emulator/coverage/coverage.hpp"

namespace regemu::tools {

// Every file merged, or nothing when any is bad: a merge that skipped a
// file would under-report. Every bad file is named on `err` after
// `command` ("regemu coverage merge"), not only the first. `status` is
// then 2 when a path does not exist, else 1; `count` is the files read.
std::optional<emulator::CoverageData> LoadCoverageFiles(const std::vector<std::string>& arguments,
                                                        std::string_view command, std::ostream& err, int& status,
                                                        size_t& count);

}  // namespace regemu::tools
