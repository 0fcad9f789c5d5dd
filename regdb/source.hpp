#pragma once
// Source files of a database and positions inside them. Every model object
// carries a SourceLoc so that any later stage (checker, emulator, header
// generator) can point a diagnostic at the YAML that caused it.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace regemu::regdb {

// 1-based line and column; line 0 means "no position" (e.g. a command-line path).
struct SourceLoc {
  uint32_t file = 0;
  uint32_t line = 0;
  uint32_t column = 0;

  bool known() const { return line != 0; }
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
};

struct SourceFile {
  std::string path;  // as given or as resolved from an include, for messages
  std::string text;
  std::vector<uint32_t> line_starts;  // byte offset of each line's first byte
};

// Owns the text of every file loaded for one database. Index 0 is reserved
// for "no file" so that a default SourceLoc never names a real file.
class SourceSet {
 public:
  SourceSet();

  uint32_t Add(std::string path, std::string text);
  const SourceFile& file(uint32_t id) const { return files_.at(id); }
  size_t size() const { return files_.size(); }

  // The text of `loc`'s line without its newline, or "" when unknown.
  std::string_view LineText(SourceLoc loc) const;
  // Location of a byte offset inside a file.
  SourceLoc LocOfOffset(uint32_t file_id, size_t offset) const;

 private:
  std::vector<SourceFile> files_;
};

}  // namespace regemu::regdb
