#include "tools/convert/bounded_file.hpp"

#include <fstream>
#include <sstream>

namespace regemu::convert {

void RefuseLargeFile(uint32_t file_id, uintmax_t size, size_t max_bytes, regdb::Diagnostics& diagnostics) {
  diagnostics.Error({file_id, 1, 1},
                    std::to_string(size) + " bytes, larger than " + std::to_string(max_bytes >> 20) + " MiB; refused");
}

std::optional<std::string> ReadBoundedFile(const std::filesystem::path& path, size_t max_bytes,
                                           regdb::SourceSet& sources, regdb::Diagnostics& diagnostics) {
  std::error_code ec;
  uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes) {
    RefuseLargeFile(sources.Add(path.string(), ""), size, max_bytes, diagnostics);
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (ec || !in) {
    diagnostics.Error({sources.Add(path.string(), ""), 0, 0}, "cannot read the file");
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return std::move(text).str();
}

}  // namespace regemu::convert
