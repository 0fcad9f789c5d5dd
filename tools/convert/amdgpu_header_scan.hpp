#pragma once
// The subset of C that amdgpu's generated register headers are written in:
// comments, an include guard (#ifndef / #define / #endif) and
// `#define NAME NUMBER` lines. Anything else is a located error: these
// files are generated, so a line that is not one of those means the file
// is not such a header, or is damaged.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/source.hpp"
#include "tools/convert/amdgpu_model.hpp"

namespace regemu::convert {

struct HeaderDefine {
  std::string_view name;
  uint64_t value = 0;
  std::string_view address_block;  // the last `// addressBlock:` comment
  regdb::SourceLoc loc;            // the name
};

// Calls `on_define` for each `#define NAME NUMBER` of file `file_id` in
// `sources`, in order. Returns false (with errors) when a line is not part
// of the subset, a line is longer than limits.max_line_chars, or the file
// ends inside a comment or an #ifndef (a truncated file).
bool ScanAmdgpuHeader(const regdb::SourceSet& sources, uint32_t file_id, const AmdgpuLimits& limits,
                      regdb::Diagnostics& diagnostics, const std::function<void(const HeaderDefine&)>& on_define);

}  // namespace regemu::convert
