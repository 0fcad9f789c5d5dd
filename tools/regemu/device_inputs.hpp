#pragma once
// What the commands that drive a device (`regemu run`, `regemu snapshot`)
// read before it exists: the database, loaded, checked and compiled, and a
// script from a file or standard input. Problems are reported on `err`,
// prefixed with the command ("regemu run: ...").

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <istream>
#include <optional>
#include <utility>

#include "regemu/emulator/model.hpp"
#include "regemu/regdb/loader.hpp"

namespace regemu::tools {

inline constexpr const char* kStdinName = "<stdin>";  // the script's name in messages when it is `-`

struct CompiledDatabase {
  regdb::LoadedDatabase loaded;
  std::shared_ptr<const emulator::Model> model;  // null when the database has errors or does not compile
};

// Whether the database path exists; says `COMMAND: no such file or folder:
// PATH` on `err` when it does not (before anything else is read).
bool DatabaseExists(std::string_view command, const std::string& path, std::ostream& err);

// Loads, checks and compiles the database at `path`; on failure prints the
// diagnostics or the compiler's errors and leaves `model` null.
CompiledDatabase CompileDatabase(const std::string& path, std::ostream& err);

// Reads the script at `path` ("-": standard input; pipes work too, as in
// `<(generate-script)`) into `text`, or reports why it cannot (missing, a
// folder, unreadable, over `max_bytes`) and returns false.
bool ReadScript(std::string_view command, const std::string& path, size_t max_bytes, std::string& text,
                std::ostream& err);

// Opens a capture or script file (`-`: standard input) for streaming;
// none, with the reason on `err`, when it cannot be read.
class OpenedInput {
 public:
  std::istream& stream() const { return *stream_; }
  const std::string& name() const { return name_; }

  OpenedInput(std::shared_ptr<std::istream> stream, std::string name)
      : stream_(std::move(stream)), name_(std::move(name)) {}

 private:
  std::shared_ptr<std::istream> stream_;
  std::string name_;
};
std::optional<OpenedInput> OpenInput(const std::string& path, const std::string& command, std::ostream& err);

}  // namespace regemu::tools
