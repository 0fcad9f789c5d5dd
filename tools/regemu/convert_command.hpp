#pragma once
// `regemu convert svd FILE -o DIR`: a CMSIS-SVD file into a database folder.
// `regemu convert amdgpu OFFSET_H SH_MASK_H --bases B0,B1,.. -o DIR`: amdgpu's
// register headers into a database folder.
// `regemu convert --to svd DB -o FILE`: a database out as CMSIS-SVD.

#include <iosfwd>
#include <string>
#include <vector>

namespace regemu::tools {

struct ConvertOptions {
  std::vector<std::string> inputs;  // "svd FILE", "amdgpu OFFSET_H SH_MASK_H", or DB with --to
  std::string to;                   // "" (into a database) or "svd"
  std::string output;
  std::string bases;   // amdgpu: segment bases in dwords, "0x2000,0xA000"
  std::string device;  // amdgpu: the device name ("" = from the offset header's name)
};

// Exit status: 0 written, 1 the input has errors (nothing written), 2 usage or I/O error.
int RunConvert(const ConvertOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
