#pragma once
// Bounds on what one SVD file may cost to convert. A real file is far
// inside them (RP2040: 2.6 MB, 1015 registers, 5249 fields); a hostile or
// broken one meets a located error instead of exhausting memory or time.

#include <cstddef>
#include <cstdint>

namespace regemu::convert {

struct SvdLimits {
  size_t max_file_bytes = size_t{64} << 20;   // the largest vendor SVDs are ~40 MB
  size_t max_elements = 4'000'000;            // XML elements in the file
  uint32_t max_derivation_depth = 16;         // derivedFrom chain length
  uint32_t max_cluster_depth = 16;            // clusters inside clusters
  uint64_t max_dim = 4096;                    // elements of one dim array
  size_t max_registers = 1'000'000;           // registers after dim expansion
  size_t max_fields = 4'000'000;              // fields after dim expansion
  size_t max_enum_values = 1'000'000;         // enumerated values in all
};

}  // namespace regemu::convert
