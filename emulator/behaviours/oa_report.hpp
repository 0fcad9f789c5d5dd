#pragma once
// Lays out one OA report from a sample, following its format's layout
// (regdb OaFormat): little-endian dwords, A counters cut to their width
// (40-bit ones as a low dword plus a high byte), B, C and the GPU ticks to
// 32 bits, the timestamp to its low 32 bits.

#include <cstdint>
#include <span>

#include "emulator/behaviours/oa_workload.hpp"
#include "regdb/behaviour_configs/oa_unit.hpp"

namespace regemu::emulator {

struct OaReportHeader {
  uint32_t report_id = 0;   // dword 0: reason and context-valid bits, or MI_RPC's id
  uint32_t context_id = 0;  // for a `context-id` piece
};

// `out` holds format.size bytes.
void ComposeOaReport(const regdb::OaFormat& format, const OaReportHeader& header, const OaSample& sample,
                     std::span<uint8_t> out);

}  // namespace regemu::emulator
