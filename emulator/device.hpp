#pragma once
// A fake device: the register state of one instance of a Model, accessed
// through the frontdoor (Read/Write: access semantics, side effects,
// violations, trace, time) or the backdoor (Peek/Poke: raw state, never a
// side effect), with a virtual clock, behaviours and snapshots.
//
// Threads: every public member function is safe to call concurrently from
// several threads (a driver's interrupt thread and its main thread). Each
// frontdoor access is atomic with respect to the others and gets one place in
// the trace's total order. Determinism holds for a given order of accesses.
// DeviceOptions::thread_safe = false drops the lock for single-threaded use.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/coverage/coverage.hpp"
#include "regemu/emulator/memory_store.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/emulator/spin_lock.hpp"
#include "regemu/emulator/trace.hpp"
#include "regemu/emulator/unit_record.hpp"
#include "regemu/emulator/violation.hpp"

namespace regemu::emulator {

class CoverageRecorder;

// A memory write the device issued (an MSI message).
struct MessageWrite {
  uint64_t sequence = 0;  // the trace sequence number of the access or event that sent it
  uint64_t time_ns = 0;
  uint64_t address = 0;
  uint64_t data = 0;
};

struct DeviceOptions {
  ViolationPolicy policy = ViolationPolicy::Strict();
  // false: the device takes no lock, for single-threaded users (fuzzers,
  // one-thread tests) that want every nanosecond; calling it from two
  // threads at once is then undefined behaviour.
  bool thread_safe = true;
  size_t trace_capacity = 1024;      // entries kept in the trace ring (0: no trace)
  size_t violation_context = 8;      // accesses before a violation it carries
  size_t max_violations = 1000;      // kept; later ones are only counted
  size_t max_messages = 4096;        // device memory writes (MSI) kept; later ones are only counted
  size_t max_stream_entries = 1 << 20;  // per output stream; later ones are dropped
  uint64_t access_cost_ns = 0;       // virtual time each frontdoor access takes
  // Called for every recorded violation, under the device lock: it must not
  // call back into the device (gtest's ADD_FAILURE is fine).
  std::function<void(const Violation&)> on_violation;
  // Called for every trace event (access, peek, poke, step, reset) as it
  // happens, under the device lock, whatever trace_capacity is: protocol
  // checkers watch a whole test this way (fakes/protocol_rules.hpp). Like
  // on_violation, it must not call back into the device.
  TraceObserver on_trace;
  // Called for every memory write the device issues (an MSI or MSI-X
  // message), under the device lock like on_violation: a transport that
  // carries messages to a real host (a kernel over vhost-user) forwards
  // them from here, after the access returns.
  std::function<void(const MessageWrite&)> on_message;
  // Called for every record a behaviour emits (unit_record.hpp: the reports
  // an OA unit writes into its buffer, lost-report markers), under the
  // device lock like on_trace.
  UnitRecordObserver on_record;
  // The VMM of a SW-virtualized guest: supplies frontdoor reads of reserved
  // ranges (`range` is the range's name, `offset` relative to its base).
  // nullopt, or no hook, reads 0 as on bare metal. Called under the device
  // lock, like on_violation. Writes stay ignored.
  std::function<std::optional<uint64_t>(std::string_view range, uint64_t offset, unsigned width)> reserved_read;
  // Count what the frontdoor exercises (coverage.hpp): registers read and
  // written, fields changed, access-policy effects, behaviour paths,
  // violations. The device hands its counts to the process when it is
  // destroyed. Off, it costs one predictable branch per access.
  bool coverage = false;
};

// An entry a device sent out on a named output stream (a byte on a serial
// line), stamped with the virtual time it left.
struct StreamEntry {
  uint64_t time_ns = 0;
  uint64_t value = 0;
};

// An event on a device's queue (BehaviourContext::Schedule): due at
// `due_ns`, for behaviour `behaviour`, which gets `tag` back. `id` is unique
// per device and grows, so (due_ns, id) orders events due at one instant by
// when they were scheduled.
struct PendingEvent {
  uint64_t due_ns = 0;
  uint64_t id = 0;
  uint64_t tag = 0;
  uint32_t behaviour = 0;
  PollWait poll = PollWait::kEndsAtEvent;
};

// The whole mutable state of a device, for Restore().
class DeviceSnapshot {
 public:
  DeviceSnapshot() = default;
  DeviceSnapshot(DeviceSnapshot&&) = default;
  DeviceSnapshot& operator=(DeviceSnapshot&&) = default;

 private:
  friend class Device;
  std::shared_ptr<const Model> model_;  // a snapshot fits only devices of this model
  std::vector<uint64_t> values_;
  std::vector<uint64_t> written_once_;
  std::vector<uint64_t> armed_;
  std::vector<MemoryStore> memory_;
  std::vector<std::unique_ptr<Behaviour>> behaviours_;
  std::vector<PendingEvent> events_;
  uint64_t next_event_id_ = 1;
  uint64_t now_ns_ = 0;
  bool irq_ = false;
  uint64_t irq_edges_ = 0;
  std::vector<uint8_t> irq_outputs_;
  bool irq_request_ = false;
  std::vector<uint8_t> line_levels_;
  std::vector<uint64_t> line_edges_;
  std::vector<SpaceAccess> space_access_;
  std::vector<std::string> space_access_why_;
};

class Device {
 public:
  explicit Device(std::shared_ptr<const Model> model, DeviceOptions options = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const Model& model() const { return *model_; }

  // Frontdoor: `width` is 8, 16, 32 or 64; anything else is a `width` violation.
  uint64_t Read(SpaceId space, uint64_t offset, unsigned width);
  void Write(SpaceId space, uint64_t offset, unsigned width, uint64_t value);
  uint64_t ReadRegister(RegisterId reg);
  void WriteRegister(RegisterId reg, uint64_t value);

  // Backdoor: raw state, no side effects, no violations, no time. Poke
  // returns false where no register holds the bytes. Peek, Poke and
  // PokeRegister are traced (a trace must replay); PeekRegister, the test's
  // inspection helper, is not.
  uint64_t Peek(SpaceId space, uint64_t offset, unsigned width) const;
  bool Poke(SpaceId space, uint64_t offset, unsigned width, uint64_t value);
  uint64_t PeekRegister(RegisterId reg) const;
  // Every register's value at once, indexed by RegisterId: one copy instead
  // of a call per register, for checkers comparing whole states (fuzz
  // harnesses). `out` must hold model().registers().size() values, else
  // std::invalid_argument.
  void PeekRegisters(std::span<uint64_t> out) const;
  void PokeRegister(RegisterId reg, uint64_t value);
  // Backdoor bulk access to the bytes of a `memory` space (graphics memory
  // where the device writes reports): no side effect, not traced. Bytes
  // never written read 0. Throws std::invalid_argument for a space that is
  // not a memory space and std::out_of_range past its end.
  void ReadMemory(SpaceId space, uint64_t offset, std::span<uint8_t> out) const;
  void WriteMemory(SpaceId space, uint64_t offset, std::span<const uint8_t> bytes);
  // Backs memory space `space` by bytes outside the device (memory_store.hpp:
  // a kernel's RAM that the device reaches by DMA), or by the device's own
  // pages again when `external` is null. A behaviour's access outside every
  // region is an `unclaimed` violation naming the address; it reads
  // all-ones and writes nothing. Reset, Snapshot and Restore leave the
  // owner's bytes alone. Throws std::invalid_argument for a space that is
  // not a memory space, std::out_of_range for a region past its end.
  void AttachExternalMemory(SpaceId space, std::shared_ptr<const ExternalMemory> external);

  // Virtual time. It saturates at 2^64-1 ns rather than wrap.
  void Advance(uint64_t ns);
  uint64_t now_ns() const;
  // When the earliest pending event of the queue is due (a delayed action, a
  // counter match, a force-wake ack), or nothing when the queue is empty:
  // `step` with no duration goes there.
  std::optional<uint64_t> next_event_ns() const;
  // When the earliest event a script's poll reads at is due (PollWait::
  // kEndsAtEvent): a poll's wait between reads stops there.
  std::optional<uint64_t> next_poll_stop_ns() const;
  size_t pending_events() const;

  // Power-on values, write-once bits cleared, behaviours reset. Time goes on.
  void Reset();
  DeviceSnapshot Snapshot() const;
  // The same into `into`, reusing its storage: no allocation when it
  // already holds a snapshot of this device (a fuzzer's snapshot per input).
  void Snapshot(DeviceSnapshot& into) const;
  // Restores in place; allocates nothing unless memory pages were written.
  void Restore(const DeviceSnapshot& snapshot);

  // A hardware-side event for the behaviours (`inject VERB ARGS...`).
  // Returns "" when handled, else why not.
  std::string Inject(std::string_view verb, std::span<const std::string> args);
  // A derived metric a behaviour defines (event-counters `metrics:`), from
  // the events counted in its window: the value, or nothing with `error`
  // set (no behaviour defines NAME; a division by zero gives inf or nan).
  std::optional<double> Metric(std::string_view name, std::string& error);

  // The interrupt output, driven by behaviours: the INTx line's level and
  // its rising edges. With an interrupt router (PCI MSI) the request may go
  // out as messages instead.
  bool interrupt_asserted() const;
  uint64_t interrupt_edges() const;
  // The OR of the behaviours' top-level interrupt outputs, before routing.
  bool interrupt_requested() const;
  // A named interrupt line (Model::interrupt_lines: a timer's IRQ0, IRQ8): its
  // level and its rising edges. std::out_of_range for a name the device
  // does not have.
  bool line_asserted(std::string_view line) const;
  uint64_t line_edges(std::string_view line) const;
  // Memory writes the device issued (MSI messages), oldest first: the first
  // max_messages of them; message_count() counts all.
  std::vector<MessageWrite> messages() const;
  size_t message_count() const;
  // What the device sent on output stream `stream` (Model::output_streams),
  // oldest first: the first max_stream_entries of them. Kept across reset
  // and restore, as messages are: a record of what left the device.
  // std::out_of_range for a name the device does not have.
  std::vector<StreamEntry> output(std::string_view stream) const;

  std::vector<Violation> violations() const;
  size_t violation_count() const;          // all recorded, including those past max_violations
  size_t failing_violation_count() const;  // recorded with the kFail action
  void ClearViolations();

  std::vector<TraceEntry> Trace(size_t last = ~size_t{0}) const;
  uint64_t access_count() const;  // sequence number of the last trace event

  // The device's options can be changed between accesses (e.g. announced violations).
  void SetPolicy(const ViolationPolicy& policy);
  // Virtual time each frontdoor access takes (DeviceOptions::access_cost_ns),
  // changed between accesses: a trapped mapping gives a device that has none
  // one, so that a driver's polling loop sees time pass.
  uint64_t access_cost_ns() const;
  void SetAccessCost(uint64_t ns);

  // What it counted so far (DeviceOptions::coverage), as one device of its
  // model; nothing when coverage is off. Reset, Snapshot and Restore leave
  // the counts alone: they describe the test, not the device's state.
  std::optional<ModelCoverage> Coverage() const;

 private:
  friend class BehaviourContext;
  friend struct ContextFastPath;
  struct Access;

  // Holds the device lock for a scope, unless the device is single-threaded.
  class Guard {
   public:
    explicit Guard(const Device& device) : lock_(device.options_.thread_safe ? &device.lock_ : nullptr) {
      if (lock_ != nullptr) lock_->lock();
    }
    ~Guard() {
      if (lock_ != nullptr) lock_->unlock();
    }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    SpinLock* lock_;
  };

  // The register a read (or write) at `offset` reaches: the decode table's,
  // or of banked registers the one selected now. DecodeTable::kNone if none.
  RegisterId DecodeAt(const SpaceModel& space, uint64_t offset, bool write) const {
    return SelectBank(space.decode.Lookup(offset), write);
  }
  // `looked_up`, the decode table's entry, or the register of its bank that answers now.
  RegisterId SelectBank(RegisterId looked_up, bool write) const {
    if (looked_up == DecodeTable::kNone || (model_->fast(looked_up).flags & RegisterModel::kBanked) == 0) [[likely]] {
      return looked_up;
    }
    return model_->SelectBank(looked_up, write, values_);
  }

  // Read and Write without taking the lock: for accesses a behaviour makes
  // (BehaviourContext::Read/Write) under the lock its hook already holds.
  inline uint64_t ReadUnguarded(SpaceId space, uint64_t offset, unsigned width);
  inline void WriteUnguarded(SpaceId space, uint64_t offset, unsigned width, uint64_t value);
  // What the inline plain path of ReadUnguarded / WriteUnguarded leaves:
  // `looked_up` is the decode table's entry at `offset` (kNone if none, or
  // if the space does not decode).
  uint64_t ReadOther(SpaceId space, uint64_t offset, unsigned width, RegisterId looked_up);
  void WriteOther(SpaceId space, uint64_t offset, unsigned width, uint64_t value, RegisterId looked_up);
  // A whole-register write of a register outside kFullWritePath that is
  // not plain (behaviours watch it, or it has read-only or must-be-zero
  // bits): WriteWhole in an access of its own, lighter than WriteOther's.
  void WriteWholeAccess(SpaceId space, uint64_t offset, unsigned width, uint64_t value, RegisterId reg);
  uint64_t ReadLocked(SpaceId space, uint64_t offset, unsigned width, Access& access);
  void WriteLocked(SpaceId space, uint64_t offset, unsigned width, uint64_t value, Access& access);
  uint64_t ReadBits(RegisterId reg, uint64_t lanes, Access& access);
  // Tells the behaviours hooked on `reg`, and on the registers over its
  // storage when it is a view, that its value went from `before` to
  // `after` other than by a frontdoor write (OnStore); `except` is the
  // behaviour that stored it itself, or kNoBehaviour.
  static constexpr uint32_t kNoBehaviour = UINT32_MAX;
  void NotifyStore(RegisterId reg, uint64_t before, uint64_t after, uint32_t except);
  void WriteBits(RegisterId reg, uint64_t lanes, uint64_t value, Access& access);
  inline void RunWriteHooks(RegisterId reg, uint64_t before, uint64_t after, Access& access);
  inline void WriteWhole(RegisterId reg, uint64_t value, Access& access);
  uint64_t ApplyWriteEffects(const RegisterModel& r, const AccessMasks& m, uint64_t written, uint64_t value,
                             uint64_t after, uint64_t& once_stored);
  bool Admit(const SpaceModel& space, uint64_t offset, unsigned width, Access& access);
  bool CheckShape(const SpaceModel& space, uint64_t offset, unsigned width, regdb::WidthSet widths, Access& access);
  bool WindowEnabled(const RangeModel& range) const;
  // After a write: the access changed stored bits and carried back status
  // bits as it read them (Access::carried_*), a read-modify-write hazard.
  void ReportCarriedStatus(Access& access);
  void CheckMaskedEnables(RegisterId id, uint64_t lanes, uint64_t value, Access& access);
  [[gnu::cold]] void ReportStaticWriteRules(RegisterId id, uint64_t before, uint64_t changed_ro, uint64_t ones,
                                            Access& access);
  [[gnu::cold]] void ReportWriteOnlyRead(RegisterId id, uint64_t lanes, Access& access);
  void Violate(Access& access, ViolationKind kind, RegisterId reg, uint64_t field_bits, std::string rule);
  uint64_t ClosedWriteGates(RegisterId id, uint64_t written, Access& access);
  // The pending violations of access `sequence`: to on_violation and
  // violations(); a read's carry `read_value`.
  void Record(uint64_t sequence, uint64_t read_value);
  // An access's entry is built in the trace's open slot; Finish commits it.
  inline Access OpenAccess(const TraceEntry& entry);
  inline void Finish(Access& access);  // defined where the access path is
  void AdvanceLocked(uint64_t ns);
  // Moves the clock to `to` (>= now), running every behaviour's OnClock.
  void ClockTo(uint64_t to);
  // Defined in device_internal.hpp: inline where a built-in kind schedules.
  inline uint64_t ScheduleLocked(uint32_t behaviour, uint64_t delay_ns, uint64_t tag, PollWait poll);
  inline bool CancelLocked(uint32_t behaviour, uint64_t id);
  // Checks a bulk memory access (ReadMemory, WriteMemory, BehaviourContext).
  MemoryStore& MemoryAt(SpaceId space, uint64_t offset, size_t size);
  const MemoryStore& MemoryAt(SpaceId space, uint64_t offset, size_t size) const;
  uint64_t PeekLocked(SpaceId space, uint64_t offset, unsigned width) const;
  bool PokeLocked(SpaceId space, uint64_t offset, unsigned width, uint64_t value);
  // Behaviour `from` drives its interrupt output (BehaviourContext::SetInterrupt).
  void SetInterruptLocked(uint32_t from, bool asserted);
  void RouteInterruptLocked();
  void RefuseSpace(SpaceId space, Access& access);
  // Every space answers, but `state` spaces, which no bus access reaches.
  void ResetSpaceAccess();
  void FillContents();
  // Copies register `id`'s value to the other registers over its storage.
  void SyncViews(RegisterId id) {
    const auto& regs = model_->registers();
    for (RegisterId v = regs[id].view_next; v != id; v = regs[v].view_next) values_[v] = values_[id];
  }
  // Built once per behaviour by the constructor (a context holds nothing
  // that changes): a hook's call does not rebuild it.
  BehaviourContext& ContextFor(uint32_t behaviour) { return contexts_[behaviour]; }

  std::shared_ptr<const Model> model_;
  DeviceOptions options_;
  mutable SpinLock lock_;
  std::vector<uint64_t> values_;  // sized once, by the constructor: contexts_ hold a span of it
  std::vector<uint64_t> written_once_;  // per once_slot: the write-once bits used up since reset
  // Per space: the bytes of a `memory` space (empty for the other kinds).
  std::vector<MemoryStore> memory_;
  // Per rmw_slot (registers with write-1/0-to-act bits): the bits the
  // driver read, since the register's last frontdoor write, in the state in
  // which writing them back unchanged acts (a w1c bit read as 1, a w0s bit
  // read as 0). One word serves both kinds: a bit has one policy.
  std::vector<uint64_t> armed_;
  std::vector<std::unique_ptr<Behaviour>> behaviours_;
  std::vector<BehaviourContext> contexts_;  // per behaviour, see ContextFor
  // The optional roles of each behaviour (behaviour.hpp), looked up once:
  // null where it takes none. Behaviours stay in place for the device's
  // life (Restore assigns into them), so the pointers do too.
  struct Roles {
    AccessGate* gate = nullptr;
    ChildInterrupts* parent = nullptr;
    MetricSource* metrics = nullptr;
  };
  std::vector<Roles> roles_;
  InterruptRouter* router_ = nullptr;
  void FindRoles();
  // The event queue: a min-heap on (due_ns, id), see PendingEvent.
  std::vector<PendingEvent> events_;
  uint64_t next_event_id_ = 1;
  // The trace records peeks too, which are const: it is an observation log.
  mutable TraceRing trace_;
  mutable uint64_t sequence_ = 0;
  uint64_t now_ns_ = 0;
  bool irq_ = false;          // the INTx line
  uint64_t irq_edges_ = 0;
  std::vector<uint8_t> irq_outputs_;  // per behaviour: its interrupt output
  bool irq_request_ = false;  // the OR of the top-level outputs
  std::vector<uint8_t> line_levels_;   // per named line (Model::interrupt_lines)
  std::vector<uint64_t> line_edges_;
  std::vector<MessageWrite> messages_;
  size_t message_count_ = 0;
  std::vector<std::vector<StreamEntry>> outputs_;  // per output stream (Model::output_streams)
  // Per space: whether it answers frontdoor accesses, and why not.
  std::vector<SpaceAccess> space_access_;
  std::vector<std::string> space_access_why_;
  std::vector<Violation> violations_;
  // The current access's violations, recorded when it finishes: only then is
  // the value a read returns known (a violation carries it). A member rather
  // than part of the access, so an access without any costs nothing.
  std::vector<Violation> pending_violations_;
  size_t violation_count_ = 0;
  size_t failing_count_ = 0;
  Access* in_flight_ = nullptr;  // the access whose behaviour hooks are running
  std::unique_ptr<CoverageRecorder> coverage_;  // null unless DeviceOptions::coverage
};

}  // namespace regemu::emulator
