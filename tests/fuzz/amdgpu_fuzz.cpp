// amdgpu_fuzz: an amdgpu offset header and shift/mask header ->
// `regemu convert amdgpu` (the header scanner, the register and field
// resolution, the checks of each __SHIFT/_MASK pair), and the database
// YAML it writes loaded and checked. Finds crashes, hangs and unbounded
// memory in the converter.
//
//   input:      the offset header, a line `// sh_mask.h`, the shift/mask
//               header (without that line, all of it is the offset header)
//   seeds:      corpus/amdgpu_fuzz
//   dictionary: tests/fuzz/amdgpu_fuzz.dict
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/regdb/loader.hpp"
#include "tools/convert/amdgpu_reader.hpp"
#include "tools/convert/amdgpu_yaml_writer.hpp"

using namespace regemu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  constexpr std::string_view kSeparator = "\n// sh_mask.h\n";
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t split = input.find(kSeparator);
  std::string offsets(input.substr(0, split));
  std::string masks(split == std::string_view::npos ? std::string_view() : input.substr(split + kSeparator.size()));
  // Bounds for an untrusted file, tighter than the defaults so that every
  // input stays fast.
  convert::AmdgpuLimits limits;
  limits.max_file_bytes = size_t{4} << 20;
  limits.max_registers = 4096;
  limits.max_fields = 16384;
  const std::vector<uint64_t> bases = {0x2000, 0xA000, 0x02402C00};
  convert::AmdgpuReadResult read = convert::ReadAmdgpuHeaders({"fuzz_offset.h", std::move(offsets)},
                                                              {"fuzz_sh_mask.h", std::move(masks)}, bases, limits);
  if (!read.map) return 0;
  regdb::LoadOptions options;
  options.max_registers = 16384;
  options.read_file = regdb::InMemoryFileReader(
      convert::WriteAmdgpuDatabaseYaml(*read.map, {"fuzz", "fuzz_offset.h", "fuzz_sh_mask.h", bases}));
  regdb::LoadAndCheck("device.yaml", options);
  return 0;
}
