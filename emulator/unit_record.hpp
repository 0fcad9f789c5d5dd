#pragma once
// Records a hardware unit emits besides register and memory state: each OA
// report the unit produced into its buffer, and the markers of reports it
// lost. Tools that export a unit's stream in another program's format (an
// i915-perf recording, regemu run --oa-recording) watch them through
// DeviceOptions::on_record; a driver test reads the buffer instead.

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

namespace regemu::emulator {

enum class UnitRecordKind : uint8_t {
  kReport,      // a report the unit wrote into its buffer; `bytes` is the report
  kReportLost,  // a report trigger the unit dropped (status REPORT_LOST)
  kBufferLost,  // the buffer overflowed: reports were dropped until software made room
};

struct UnitRecord {
  std::string_view behaviour;  // the emitting behaviour's name
  UnitRecordKind kind = UnitRecordKind::kReport;
  uint64_t time_ns = 0;        // virtual time of the event
  std::span<const uint8_t> bytes;
};

// Called under the device lock: it must not call back into the device.
using UnitRecordObserver = std::function<void(const UnitRecord&)>;

}  // namespace regemu::emulator
