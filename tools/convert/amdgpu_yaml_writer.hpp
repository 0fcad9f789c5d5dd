#pragma once
// An AmdgpuRegisterMap as a regemu database: device.yaml (the device, the
// register BAR as one space, what was not converted) and one file per
// `// addressBlock:` of the offset header under registers/. The headers
// carry no access policies or resets: every field is `rw`, every reset 0,
// and the files say so.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tools/convert/amdgpu_model.hpp"

namespace regemu::convert {

struct AmdgpuSource {
  std::string device;        // the database's device name
  std::string offsets_name;  // the headers' file names, for the comments
  std::string masks_name;
  std::vector<uint64_t> bases;  // dwords, by base index
};

// File path (relative to the output folder) → text.
std::map<std::string, std::string> WriteAmdgpuDatabaseYaml(const AmdgpuRegisterMap& map, const AmdgpuSource& source);

}  // namespace regemu::convert
