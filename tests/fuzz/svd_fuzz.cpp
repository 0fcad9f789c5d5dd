// svd_fuzz: SVD text -> `regemu convert svd` (the reader: XML, derivedFrom,
// dim, inheritance, policies, layout checks), the database YAML it writes
// loaded and checked, and a clean result written back as SVD and read
// again (`regemu convert --to svd`). Finds crashes, hangs and unbounded
// memory in the converters.
//
//   seeds:      tests/convert/data/rp2040 (svd_fuzz.seeds) and corpus/svd_fuzz
//   dictionary: tests/fuzz/svd_fuzz.dict (SVD's elements and words)
#include <cstddef>
#include <cstdint>
#include <string>

#include "regemu/regdb/loader.hpp"
#include "tools/convert/svd_reader.hpp"
#include "tools/convert/svd_writer.hpp"
#include "tools/convert/svd_yaml_writer.hpp"

using namespace regemu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Bounds for an untrusted file, tighter than the defaults so that every
  // input stays fast: a dim of 4096 inside a dim of 4096 is 16M registers
  // at the defaults, which is a refusal, not a finding.
  convert::SvdLimits limits;
  limits.max_file_bytes = size_t{4} << 20;
  limits.max_dim = 256;
  limits.max_registers = 4096;
  limits.max_fields = 16384;
  limits.max_enum_values = 16384;
  convert::SvdReadResult read =
      convert::ReadSvdText("fuzz.svd", std::string(reinterpret_cast<const char*>(data), size), limits);
  if (!read.device) return 0;
  regdb::LoadOptions options;
  options.max_registers = 16384;
  options.read_file = regdb::InMemoryFileReader(convert::WriteDatabaseYaml(*read.device, "fuzz.svd"));
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck("device.yaml", options);
  if (loaded.diagnostics.has_errors()) return 0;
  convert::SvdExport exported = convert::WriteSvd(loaded.database);
  convert::ReadSvdText("exported.svd", exported.text, limits);
  return 0;
}
