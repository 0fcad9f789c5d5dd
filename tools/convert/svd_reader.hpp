#pragma once
// Reads a CMSIS-SVD file into an SvdDevice: every derivedFrom and dim
// resolved, register properties (size, access, resetValue, resetMask,
// modifiedWriteValues, readAction) inherited from device to peripheral to
// cluster to register to field, access mapped onto regemu's policies, and
// the file's own schema checked (register overlaps, fields past their
// register, broken derivations). Errors are located at the XML element;
// with any error there is no device.

#include <filesystem>
#include <optional>

#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/source.hpp"
#include "tools/convert/svd_limits.hpp"
#include "tools/convert/svd_model.hpp"

namespace regemu::convert {

struct SvdReadResult {
  regdb::SourceSet sources;
  regdb::Diagnostics diagnostics;
  std::optional<SvdDevice> device;
};

// `name` is how diagnostics name the file.
SvdReadResult ReadSvdText(std::string name, std::string text, const SvdLimits& limits = {});
// Refuses a file larger than limits.max_file_bytes before reading it.
SvdReadResult ReadSvdFile(const std::filesystem::path& path, const SvdLimits& limits = {});

}  // namespace regemu::convert
