#pragma once
// `kind: oa-unit`: Intel's Observation Architecture performance-counter unit
// (Haswell, Gen8, Gen11) as i915-perf drives it: counters driven by a
// workload model on the virtual clock, timer-triggered reports into a ring
// buffer in a memory space, MI_REPORT_PERF_COUNT snapshots, context
// switches, the status bits and the PRM's buffer programming order. See
// yaml/README.md "oa-unit" for the YAML and the model.

#include <cstdint>
#include <string>
#include <vector>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/database.hpp"

namespace regemu::regdb {

// Which register layout the unit has (i915's split):
//   kHaswell: OACONTROL 0x2360 holds enable, format, timer and context
//             filter; OASTATUS1 holds the tail, buffer size and status;
//             OASTATUS2 the head; OABUFFER the base and overrun mode.
//   kGen8:    OACONTROL 0x2B00 (enable, format, context filter),
//             OACTXCONTROL (timer), OASTATUS, OAHEADPTR, OATAILPTR,
//             OABUFFER (base, size); RPT_ID context-valid bit 25.
//   kGen9:    as kGen8 with the context-valid bit at 16 (Gen9-Gen11).
enum class OaGeneration : uint8_t { kHaswell, kGen8, kGen9 };

// One piece of a report layout, in report order.
struct OaLayoutItem {
  enum class Kind : uint8_t {
    kReportId,   // RPT_ID: reason, context valid (or MI_RPC's report id)
    kTimestamp,  // low 32 bits of the timestamp counter
    kContextId,  // the running context's id (0xFFFFFFFF when none)
    kGpuTicks,   // GPU clock ticks, 32 bits
    kReserved,   // dwords written as 0
    kA,          // A counters first..first+count-1, low dwords
    kAHigh,      // bits 39:32 of A counters first.., one byte each, padded to whole dwords
    kB,
    kC,
  };
  Kind kind = Kind::kReserved;
  unsigned first = 0;
  unsigned count = 1;  // dwords, counters for kA/kB/kC/kAHigh
  unsigned Bytes() const { return kind == Kind::kAHigh ? (count + 3) / 4 * 4 : count * 4; }
};

struct OaFormat {
  std::string name;  // i915's, e.g. A32u40_A4u32_B8_C8
  unsigned code = 0;  // the Counter Select value
  unsigned size = 0;  // bytes: 64, 128 or 256
  std::vector<OaLayoutItem> layout;
};

enum class OaCounterBank : uint8_t { kA, kB, kC };

// What one counter counts in the workload model: `signal` events per GPU
// clock (a fraction for busy/active signals), times `scale`, times the EU
// count when the counter sums over all EUs.
struct OaCounterSource {
  OaCounterBank bank = OaCounterBank::kA;
  unsigned index = 0;
  unsigned signal = 0;          // index into OaUnitConfig::signals
  uint64_t scale_micros = 1'000'000;  // scale, in millionths
  bool per_eu = false;
};

struct OaSignal {
  std::string name;
  bool fraction = false;  // a share of cycles: 0..1
};

// The signal every unit has: one event per GPU clock.
inline constexpr const char* kOaClockSignal = "clock";

struct OaUnitConfig : BehaviourConfig {
  OaGeneration generation = OaGeneration::kGen9;
  SpaceIndex memory = 0;            // where the buffer and MI_RPC reports live (a `memory` space)
  uint64_t timestamp_hz = 12'000'000;
  uint64_t gpu_mhz = 1000;          // the GPU clock at reset
  unsigned slices = 1;
  unsigned subslices_per_slice = 1;
  unsigned eus_per_subslice = 8;
  uint32_t pci_device_id = 0;       // names the platform in i915-perf recordings
  uint64_t report_write_ns = 0;     // a trigger this soon after the previous report is lost

  unsigned a_count = 0;             // A counters
  unsigned a_width = 32;            // 32 (HSW) or 40 (Gen8+)
  unsigned b_count = 8;
  unsigned c_count = 8;
  std::vector<OaSignal> signals;    // signals[0] is `clock`
  std::vector<OaCounterSource> sources;
  std::vector<OaFormat> formats;

  // Register roles; kUnresolved where the generation has none or the
  // database leaves an optional one out.
  struct Registers {
    RegisterIndex control = kUnresolved;          // OACONTROL
    RegisterIndex context_control = kUnresolved;  // OACTXCONTROL (Gen8+)
    RegisterIndex context_id = kUnresolved;       // OACTXID (Gen8+)
    RegisterIndex debug = kUnresolved;            // OA_DEBUG (Gen9+, optional)
    RegisterIndex status = kUnresolved;           // OASTATUS (Gen8+) / OASTATUS1 (HSW)
    RegisterIndex head = kUnresolved;             // OAHEADPTR / OASTATUS2
    RegisterIndex tail = kUnresolved;             // OATAILPTR (Gen8+; HSW's tail is in OASTATUS1)
    RegisterIndex buffer = kUnresolved;           // OABUFFER
    RegisterIndex buffer_upper = kUnresolved;     // OABUFFER_UDW (Gen8+, optional)
    RegisterIndex interrupt_mask = kUnresolved;   // OA_IMR (Gen8+, optional)
  } registers;
  std::string interrupt_parent;  // the behaviour the half-full interrupt feeds; empty: the device

  unsigned eu_count() const { return slices * subslices_per_slice * eus_per_subslice; }
  const OaFormat* FormatWithCode(unsigned code) const {
    for (const OaFormat& format : formats) {
      if (format.code == code) return &format;
    }
    return nullptr;
  }

  std::string InterruptParent() const override { return interrupt_parent; }
};

}  // namespace regemu::regdb
