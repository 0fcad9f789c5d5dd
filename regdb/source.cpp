#include "regemu/regdb/source.hpp"

#include <algorithm>

namespace regemu::regdb {

SourceSet::SourceSet() { files_.push_back(SourceFile{"<none>", "", {0}}); }

uint32_t SourceSet::Add(std::string path, std::string text) {
  SourceFile file{std::move(path), std::move(text), {0}};
  for (size_t i = 0; i < file.text.size(); ++i) {
    if (file.text[i] == '\n') file.line_starts.push_back(static_cast<uint32_t>(i + 1));
  }
  files_.push_back(std::move(file));
  return static_cast<uint32_t>(files_.size() - 1);
}

std::string_view SourceSet::LineText(SourceLoc loc) const {
  if (!loc.known() || loc.file == 0 || loc.file >= files_.size()) return {};
  const SourceFile& f = files_[loc.file];
  if (loc.line > f.line_starts.size()) return {};
  size_t begin = f.line_starts[loc.line - 1];
  size_t end = f.text.find('\n', begin);
  if (end == std::string::npos) end = f.text.size();
  std::string_view line(f.text.data() + begin, end - begin);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

SourceLoc SourceSet::LocOfOffset(uint32_t file_id, size_t offset) const {
  const SourceFile& f = files_.at(file_id);
  auto it = std::upper_bound(f.line_starts.begin(), f.line_starts.end(), offset);
  auto line = static_cast<uint32_t>(it - f.line_starts.begin());
  auto column = static_cast<uint32_t>(offset - f.line_starts[line - 1] + 1);
  return SourceLoc{file_id, line, column};
}

}  // namespace regemu::regdb
