// Device's thread-safety promise (device.hpp): every public member function
// may be called concurrently, each frontdoor access is atomic and gets one
// place in the trace's total order. Two "driver" threads and one "interrupt"
// thread hammer one device; every assertion is an invariant that holds under
// any interleaving, so the test is deterministic (no sleeps, no timing).
// Built as its own binary (thread_tests) so CI can run it under
// ThreadSanitizer (the `tsan` preset) without the rest of the suite.
#include <atomic>
#include <cstdint>
#include <latch>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/regdb/loader.hpp"

namespace regemu::emulator {
namespace {

// Each of the three threads owns one lane of every shared register: nibble
// k of MASKED (an Intel masked register), byte k of STATUS (w1c) and of
// TOGGLE (w1t). A lost update (a read-modify-write of one thread racing
// another's) shows as a wrong value in the owner's lane.
constexpr const char* kYaml = R"(device: threads
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: SCRATCH0, space: mmio, offset: 0x00}
  - {name: SCRATCH1, space: mmio, offset: 0x04}
  - {name: SCRATCH2, space: mmio, offset: 0x08}
  - name: MASKED
    space: mmio
    offset: 0x10
    masked: true
    fields:
      - {name: LANE0, bits: "3:0"}
      - {name: LANE1, bits: "7:4"}
      - {name: LANE2, bits: "11:8"}
  - name: STATUS
    space: mmio
    offset: 0x20
    fields:
      - {name: LANE0, bits: "7:0", access: w1c}
      - {name: LANE1, bits: "15:8", access: w1c}
      - {name: LANE2, bits: "23:16", access: w1c}
  - name: TOGGLE
    space: mmio
    offset: 0x30
    fields:
      - {name: LANE0, bits: "7:0", access: w1t}
      - {name: LANE1, bits: "15:8", access: w1t}
      - {name: LANE2, bits: "23:16", access: w1t}
  - {name: TIMER, space: mmio, offset: 0x40, access: hw}
  - {name: ID, space: mmio, offset: 0x50, access: ro, reset: 0x1234}
behaviours:
  - {kind: counter, register: TIMER, period: 10ns}
)";

constexpr uint64_t kScratch[] = {0x00, 0x04, 0x08};
constexpr uint64_t kMasked = 0x10;
constexpr uint64_t kStatus = 0x20;
// TOGGLE (0x30) is reached through the register-id entry points (toggle_id()).
constexpr uint64_t kTimer = 0x40;
constexpr uint64_t kId = 0x50;
constexpr uint64_t kStepNs = 10;  // one TIMER period
constexpr int kIterations = 20000;
constexpr unsigned kThreads = 3;  // drivers 0 and 1, interrupt thread 2

std::shared_ptr<const Model> CompileModel() {
  regdb::LoadOptions options;
  options.read_file = regdb::InMemoryFileReader({{"threads.yaml", kYaml}});
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck("threads.yaml", options);
  if (loaded.diagnostics.has_errors()) return nullptr;
  return Compile(loaded.database).model;
}

// What one thread did and saw. Failures are counted, not asserted in the
// thread, so one broken invariant does not print thousands of lines.
struct ThreadLog {
  uint64_t sequenced = 0;  // calls that take a trace sequence number (Read/Write/Advance/Peek/Poke)
  uint64_t advanced_ns = 0;
  uint64_t bad_writes = 0;
  uint64_t failures = 0;
  std::string first_failure;

  void Check(bool ok, const char* what, int iteration) {
    if (ok) return;
    if (failures++ == 0) first_failure = std::string(what) + " (iteration " + std::to_string(iteration) + ")";
  }
};

// The lanes protocol every thread runs: its scratch register, its lane of
// the masked, w1c and w1t registers, the timer, and now and then a write the
// device must report (ID is read-only).
class LaneWorker {
 public:
  LaneWorker(Device& device, unsigned lane, ThreadLog& log) : device_(device), lane_(lane), log_(log) {}

  void Step(int i) {
    const auto u = static_cast<uint64_t>(i);
    // A plain rw register only this thread writes reads back what it wrote.
    uint64_t value = (u << 8) | lane_;
    Write(kScratch[lane_], value);
    log_.Check(Read(kScratch[lane_]) == value, "own scratch register reads back", i);
    log_.Check(device_.Peek(0, kScratch[lane_], 32) == value, "own scratch register peeks back", i);
    ++log_.sequenced;

    // Masked: enable only this lane's nibble; the others must not change.
    uint64_t nibble = (u * 7 + lane_) & 0xF;
    Write(kMasked, (uint64_t{0xF} << (16 + 4 * lane_)) | (nibble << (4 * lane_)));
    log_.Check(((Read(kMasked) >> (4 * lane_)) & 0xF) == nibble, "own nibble of the masked register", i);

    // w1c: raise bits in this lane through the backdoor (one byte, so other
    // lanes are untouched), acknowledge some with a frontdoor write of 1s.
    uint64_t raised = (u * 37 + lane_ * 11 + 1) & 0xFF;
    uint64_t acked = (u * 13) & 0xFF;
    log_.Check(device_.Poke(0, kStatus + lane_, 8, raised), "poke own status byte", i);
    ++log_.sequenced;
    Write(kStatus, acked << (8 * lane_));
    log_.Check(((Read(kStatus) >> (8 * lane_)) & 0xFF) == (raised & ~acked), "own w1c byte after acknowledge", i);

    // w1t through the register-id entry points.
    uint64_t toggle = (u * 5 + 1) & 0xFF;
    toggled_ ^= toggle;
    device_.WriteRegister(toggle_id(), toggle << (8 * lane_));
    ++log_.sequenced;
    log_.Check(((device_.ReadRegister(toggle_id()) >> (8 * lane_)) & 0xFF) == toggled_, "own w1t byte", i);
    ++log_.sequenced;

    // Time only goes forward, and the counter follows it.
    uint64_t timer = Read(kTimer);
    log_.Check(timer >= last_timer_, "TIMER never goes back", i);
    last_timer_ = timer;
    uint64_t now = device_.now_ns();
    log_.Check(now >= last_now_, "now_ns never goes back", i);
    last_now_ = now;

    // A deliberate driver mistake: changing a read-only register.
    if (u % 64 == lane_) {
      Write(kId, 0xBAD0 + u);
      ++log_.bad_writes;
      log_.Check(Read(kId) == 0x1234, "ID keeps its value", i);
    }
  }

  void Advance(uint64_t ns) {
    device_.Advance(ns);
    ++log_.sequenced;
    log_.advanced_ns += ns;
  }

 private:
  RegisterId toggle_id() const { return *device_.model().FindRegister("TOGGLE"); }
  uint64_t Read(uint64_t offset) {
    ++log_.sequenced;
    return device_.Read(0, offset, 32);
  }
  void Write(uint64_t offset, uint64_t value) {
    ++log_.sequenced;
    device_.Write(0, offset, 32, value);
  }

  Device& device_;
  unsigned lane_;
  ThreadLog& log_;
  uint64_t toggled_ = 0;
  uint64_t last_timer_ = 0;
  uint64_t last_now_ = 0;
};

// The trace is a total order: strictly increasing sequence numbers, and as
// every sequence number is one trace event, without gaps.
void CheckTraceOrder(const std::vector<TraceEntry>& trace, ThreadLog& log, int i) {
  for (size_t e = 1; e < trace.size(); ++e) {
    log.Check(trace[e].sequence > trace[e - 1].sequence, "trace sequence strictly increases", i);
    log.Check(trace[e].sequence == trace[e - 1].sequence + 1, "trace sequence has no gaps", i);
  }
}

TEST(ThreadSafetyTest, DriversAndInterruptThreadKeepEveryInvariant) {
  std::shared_ptr<const Model> model = CompileModel();
  ASSERT_TRUE(model) << "the test database does not load or compile";

  std::atomic<uint64_t> reported{0};  // on_violation runs under the device lock
  DeviceOptions options;
  options.trace_capacity = 256;
  options.violation_context = 4;
  options.max_violations = kThreads * kIterations;  // keep every one, to check them all
  options.on_violation = [&reported](const Violation&) { reported.fetch_add(1, std::memory_order_relaxed); };
  Device device(model, options);
  Device scratch(model);  // the interrupt thread restores snapshots into it

  ThreadLog logs[kThreads];
  std::latch start(kThreads);

  auto driver = [&](unsigned lane) {
    LaneWorker worker(device, lane, logs[lane]);
    start.arrive_and_wait();
    for (int i = 0; i < kIterations; ++i) {
      worker.Step(i);
      if (i % 4 == 0) worker.Advance(kStepNs);
    }
  };

  auto interrupt = [&] {
    constexpr unsigned kLane = 2;
    ThreadLog& log = logs[kLane];
    LaneWorker worker(device, kLane, log);
    uint64_t last_count = 0;
    size_t last_violations = 0;
    start.arrive_and_wait();
    for (int i = 0; i < kIterations; ++i) {
      worker.Step(i);
      worker.Advance(kStepNs);

      uint64_t count = device.access_count();
      log.Check(count >= last_count, "access_count never goes back", i);
      last_count = count;
      log.Check(!device.interrupt_asserted() && device.interrupt_edges() == 0, "no behaviour drives the irq", i);

      if (i % 8 == 0) {
        std::vector<TraceEntry> trace = device.Trace();
        CheckTraceOrder(trace, log, i);
        log.Check(!trace.empty() && trace.back().sequence <= device.access_count(), "trace is not ahead", i);
      }
      if (i % 256 == 0) {
        std::vector<Violation> violations = device.violations();
        log.Check(violations.size() >= last_violations, "violations are only added", i);
        last_violations = violations.size();
        for (const Violation& v : violations) {
          log.Check(v.kind == ViolationKind::kReadOnly && v.register_name == "ID", "only the deliberate mistakes", i);
        }
        log.Check(device.failing_violation_count() <= device.violation_count(), "failing within recorded", i);
      }
      if (i % 64 == 0) {
        // A snapshot is one consistent state: the counter matches its clock.
        DeviceSnapshot snapshot = device.Snapshot();
        scratch.Restore(snapshot);
        log.Check(scratch.PeekRegister(*model->FindRegister("TIMER")) == scratch.now_ns() / kStepNs,
                  "snapshot: TIMER agrees with the clock", i);
        log.Check(scratch.PeekRegister(*model->FindRegister("ID")) == 0x1234, "snapshot: ID unchanged", i);
      }
    }
  };

  std::vector<std::thread> threads;
  threads.emplace_back(driver, 0u);
  threads.emplace_back(driver, 1u);
  threads.emplace_back(interrupt);
  for (std::thread& t : threads) t.join();

  uint64_t sequenced = 0;
  uint64_t advanced_ns = 0;
  uint64_t bad_writes = 0;
  for (unsigned k = 0; k < kThreads; ++k) {
    EXPECT_EQ(logs[k].failures, 0u) << "thread " << k << ", first: " << logs[k].first_failure;
    sequenced += logs[k].sequenced;
    advanced_ns += logs[k].advanced_ns;
    bad_writes += logs[k].bad_writes;
  }

  // No access lost or counted twice: one sequence number per call.
  EXPECT_EQ(device.access_count(), sequenced);
  std::vector<TraceEntry> trace = device.Trace();
  ASSERT_EQ(trace.size(), options.trace_capacity);
  EXPECT_EQ(trace.back().sequence, sequenced);
  ThreadLog final_log;
  CheckTraceOrder(trace, final_log, kIterations);
  EXPECT_EQ(final_log.failures, 0u) << final_log.first_failure;

  // Every deliberate mistake, and nothing else, was reported exactly once.
  EXPECT_EQ(device.violation_count(), bad_writes);
  EXPECT_EQ(device.failing_violation_count(), bad_writes);
  EXPECT_EQ(reported.load(), bad_writes);
  std::vector<Violation> violations = device.violations();
  ASSERT_EQ(violations.size(), bad_writes);
  std::set<uint64_t> sequences;
  for (const Violation& v : violations) {
    EXPECT_EQ(v.kind, ViolationKind::kReadOnly);
    EXPECT_EQ(v.register_name, "ID");
    sequences.insert(v.sequence);
  }
  EXPECT_EQ(sequences.size(), bad_writes) << "two violations share a sequence number";

  // The clock is the sum of every step, and the counter agrees with it.
  EXPECT_EQ(device.now_ns(), advanced_ns);
  EXPECT_EQ(device.Peek(0, kTimer, 32), advanced_ns / kStepNs);
  EXPECT_EQ(device.Peek(0, kId, 32), 0x1234u);
}

}  // namespace
}  // namespace regemu::emulator
