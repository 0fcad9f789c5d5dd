#pragma once
// A converter's input file read whole, but only when it is no larger than
// the converter's limit: a larger or unreadable file is an error located
// at the file (added to `sources` with no text), and nothing is read.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/source.hpp"

namespace regemu::convert {

std::optional<std::string> ReadBoundedFile(const std::filesystem::path& path, size_t max_bytes,
                                           regdb::SourceSet& sources, regdb::Diagnostics& diagnostics);

// The error for a text of `size` bytes over `max_bytes`, at line 1 of file
// `file_id`.
void RefuseLargeFile(uint32_t file_id, uintmax_t size, size_t max_bytes, regdb::Diagnostics& diagnostics);

}  // namespace regemu::convert
