#pragma once
// Loading a database: a root file (or a device folder's device.yaml) and the
// files it includes, with bounded cost, into a Database plus diagnostics.
// Loading never throws and never stops at the first error.

#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "regemu/regdb/database.hpp"
#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/source.hpp"
#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::regdb {

// Reads a file's text, refusing files larger than `max_bytes`. Swappable so
// tests can load several inline files without touching the disk.
struct FileReadResult {
  bool ok = false;
  std::string text_or_error;
};
using FileReader = std::function<FileReadResult(const std::filesystem::path& path, size_t max_bytes)>;

FileReader DiskFileReader();
// Serves `files` (path → text); any other path is "no such file".
FileReader InMemoryFileReader(std::map<std::string, std::string> files);

struct LoadOptions {
  InputLimits limits;
  size_t error_limit = Diagnostics::kDefaultErrorLimit;
  size_t max_registers = 1'000'000;
  FileReader read_file = DiskFileReader();
};

struct LoadedDatabase {
  SourceSet sources;
  Database database;
  Diagnostics diagnostics;
};

// `path` is a YAML file or a device folder holding device.yaml.
LoadedDatabase LoadDatabase(const std::filesystem::path& path, const LoadOptions& options = {});

// Load, then run every check (link names, layout, fields, ranges, behaviours).
LoadedDatabase LoadAndCheck(const std::filesystem::path& path, const LoadOptions& options = {});

}  // namespace regemu::regdb
