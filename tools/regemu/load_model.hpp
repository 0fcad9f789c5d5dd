#pragma once
// A database loaded, checked and compiled for the commands that build a
// device from it (run, import, replay, diff): one place that says why not.

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "regemu/emulator/model.hpp"
#include "regemu/regdb/loader.hpp"

namespace regemu::tools {

struct LoadedModel {
  regdb::LoadedDatabase loaded;
  std::shared_ptr<const emulator::Model> model;
};

// Writes `regemu COMMAND: ...` or the database's diagnostics to `err` and
// returns none when the path is missing, the database has errors or does
// not compile.
std::optional<LoadedModel> LoadModel(const std::string& path, const std::string& command, std::ostream& err);

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
