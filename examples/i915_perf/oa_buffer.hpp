#pragma once
// The OA buffer as i915-perf keeps it (stream->oa_buffer): where it lives,
// the software head and tail (offsets into the buffer), and the parts of
// the read path that only touch memory (i915_perf.c gen8_oa_read). The register
// halves (tail read, head write-back, status) belong to
// each generation's stream; this class never touches a register.

#include <cstdint>
#include <vector>

#include "examples/i915_perf/ggtt_memory.hpp"
#include "examples/i915_perf/oa_record.hpp"

namespace regemu::i915_perf {

// How a generation's append loop treats a report (gen7 vs gen8).
enum class OaReportRules : uint8_t {
  // gen7_append_oa_reports: a report whose dword 0 is zero is spurious,
  // skipped and left as it is.
  kGen7,
  // gen8_append_oa_reports: every report goes out; one whose context-valid
  // bit is clear has its context id squashed to 0xFFFFFFFF.
  kGen8,
};

class OaBuffer {
 public:
  // `size` a power of two; `report_size` what the read loop steps by.
  OaBuffer(GgttMemory& memory, uint32_t gtt_offset, uint32_t size, uint32_t report_size, OaReportRules rules);

  uint32_t gtt_offset() const { return gtt_offset_; }
  uint32_t size() const { return size_; }
  uint32_t report_size() const { return report_size_; }
  uint32_t head() const { return head_; }
  uint32_t tail() const { return tail_; }

  // OA_TAKEN(tail, head): bytes from head to tail, around the ring.
  uint32_t Taken(uint32_t tail, uint32_t head) const { return (tail - head) & (size_ - 1); }

  // The software half of gen7/gen8_init_oa_buffer: head and tail back to
  // the start, then the buffer zeroed (the read loop's landed-report check
  // assumes reports land in zeroed memory).
  void Reset();

  // oa_buffer_check_unlocked, given the hardware tail (a GGTT address as
  // the tail register holds it). Drops a partially landed report, then
  // walks back from the hardware tail, one report at a time starting with
  // the slot AT that tail, while a report's dwords 0 and 1 are both zero:
  // i915 cannot tell a report has fully landed until the report id and
  // timestamp of the one after it have, so the newest report stays behind
  // until the next one lands. `walk_back` false is the tail-race bug.
  // True when at least one report can be read (pollin).
  bool CheckTail(uint32_t hw_tail, bool walk_back = true);

  // The loop of gen7/gen8_append_oa_reports: every report from head to
  // tail appended to `records` as a sample, its dwords 0 and 1 zeroed in
  // the buffer (the whole report when the size is not a power of two).
  // Returns true when a sample went out: the caller then writes the head
  // register back (head() + gtt_offset()).
  bool AppendReports(std::vector<OaRecord>& records);

 private:
  void ReadWrapped(uint32_t offset, std::span<uint8_t> out);
  void ZeroWrapped(uint32_t offset, uint32_t length);
  bool Landed(uint32_t offset);

  GgttMemory& memory_;
  uint32_t gtt_offset_;
  uint32_t size_;
  uint32_t report_size_;
  OaReportRules rules_;
  uint32_t head_ = 0;
  uint32_t tail_ = 0;
};

}  // namespace regemu::i915_perf
