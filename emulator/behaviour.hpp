#pragma once
// Behaviours: the side-effect machinery behind groups of registers that
// masks alone cannot express (counters, interrupts, force-wake, ...).
//
// A kind has two halves: a BehaviourProgram, compiled once into the Model
// from its typed config (checked and resolved by regdb, see
// regdb/behaviour_config.hpp; this side never reads YAML), and a Behaviour,
// the per-device runtime state it instantiates. The core calls a Behaviour at these hook points, in this
// order within one access: the space's access state (SetSpaceAccess),
// AccessGate::CheckAccess (the gate: may refuse a frontdoor
// access to an address in one of the program's GatedRanges, before any
// decode), BeforeRead (refresh a value before a frontdoor read of a hooked
// register), the access itself, AfterRead (may change the value returned),
// AfterWrite (react to a frontdoor write of a
// hooked register), and OnClock after any advance of
// the virtual clock (explicit steps and per-access cost); an advance that
// crosses events of the queue (Schedule) is cut at each, OnClock up to the
// event's instant, then its OnTimer. OnReset runs after
// the registers are back at their reset values. Hooks run under the device's
// lock and use BehaviourContext, never the frontdoor.
//
// Adding a kind: one row in regdb/behaviour_kinds.def; one config in
// regdb/behaviour_configs/ (`struct <Runtime>Config` and its check
// `Check<Runtime>Config`); one runtime, `Compile<Runtime>` in
// emulator/behaviours/, building from that config (ConfigOf); one test file.
// The recipe in full is in behaviour_kinds.def.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "regemu/emulator/inject_forms.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/emulator/unit_record.hpp"
#include "regemu/emulator/violation.hpp"
#include "regemu/regdb/database.hpp"

namespace regemu::emulator {

class Device;

// Whether a space answers frontdoor accesses (BehaviourContext::SetSpaceAccess):
// a PCI function with memory decode off, or powered down to D3hot, does not.
// A refused read returns all-ones; a refused write is dropped.
enum class SpaceAccess : uint8_t {
  kDecoded,      // normal
  kNotDecoded,   // an `unclaimed` violation
  kPoweredDown,  // a `power` violation
};

inline constexpr uint32_t kNoBehaviour = ~uint32_t{0};

// How a script's `poll` treats an event on the queue (BehaviourContext::
// Schedule). A bare `step` and Device::next_event_ns reach every event.
enum class PollWait : uint8_t {
  // The wait between two reads ends at the event's instant, so the read
  // after it sees what the event did: an instant the database states (a
  // delayed action's `after:`, a counter's match).
  kEndsAtEvent,
  // The poll keeps its own interval: the event stands for a hardware
  // latency no source gives (a force-wake ack), which a script's timing
  // must not hinge on.
  kKeepsInterval,
};

// What a behaviour may do to its device: backdoor access, time, the
// interrupt output, and reporting rule breaches. Only the device makes
// contexts, one per behaviour, and hands each to its behaviour's hooks: a
// context is valid for the call it is passed to (keep no pointer to it),
// and everything it returns by reference (model(), a register's model) lives
// as long as the device's Model.
class BehaviourContext {
 public:
  const Model& model() const { return model_; }
  uint64_t now_ns() const;
  uint64_t Peek(RegisterId reg) const { return values_[Checked(reg)]; }
  // The value is cut to the register's width; the register's views (and
  // storage) show it too.
  void Poke(RegisterId reg, uint64_t value) {
    const RegisterModel& r = model_.registers()[Checked(reg)];
    values_[reg] = value & r.width_mask;
    if (r.has(RegisterModel::kView)) SyncViews(reg);
  }
  // The bytes of a `memory` space (where an OA unit writes reports); the
  // device's own, without side effects. Throws as Device::ReadMemory does.
  // Bytes an external store does not hold (Device::AttachExternalMemory: a
  // DMA address outside the host's shared memory) read all-ones, are not
  // written, and are an `unclaimed` violation naming the address.
  void ReadMemory(SpaceId space, uint64_t offset, std::span<uint8_t> out) const;
  void WriteMemory(SpaceId space, uint64_t offset, std::span<const uint8_t> bytes);
  // This behaviour's interrupt output. With an interrupt parent
  // (BehaviourProgram::InterruptParent) it reaches the parent's
  // ChildInterrupts::OnChildInterrupt; otherwise it is ORed into the device's interrupt
  // request, which the router (if any) turns into the INTx line or messages.
  void SetInterrupt(bool asserted);
  // A new interrupt event while this behaviour's output stays asserted (a
  // status bit became pending beside others): a level-triggered line shows
  // nothing, the router (BehaviourProgram::RoutesInterrupts) hears it in
  // OnInterruptEvent, and a message-signalled function sends one more
  // message, as an MSI or MSI-X device does for each event. Only for a
  // top-level output (no interrupt parent) whose request is asserted.
  void InterruptEvent();
  // What the frontdoor write in flight wrote, in `reg`'s bit positions and
  // before its access policies (a key written to a register that keeps
  // none of it); nothing outside a write's hooks.
  std::optional<uint64_t> WrittenValue(RegisterId reg) const;
  // The device's interrupt request (the OR of the top-level outputs).
  bool interrupt_requested() const;
  // Drives output line `line` (an index into the program's OutputLines()):
  // a named interrupt pin of the device (a timer's IRQ0 and IRQ8, an SoC
  // block's lines), which tests and scripts ask for by name.
  void SetLine(uint32_t line, bool asserted);
  // A write by the device itself (a reaction setting a status bit): like
  // Poke, and then every other behaviour hooked on `reg` hears of it
  // (Behaviour::OnStore), so that an interrupt roll-up sees a status bit
  // another behaviour raised.
  void Store(RegisterId reg, uint64_t value);
  // A named hardware event inside the device (a counter's comparator
  // matched): offered to every other behaviour's Inject, as a test's
  // `inject VERB ARGS...` would be, so reactions with `on: {event: VERB}`
  // run. Returns whether one took it.
  bool Signal(std::string_view verb, std::span<const std::string> args = {});
  // Re-routes the current request: for the router, after its configuration
  // changed (MSI enabled or unmasked).
  void RefreshInterrupt();
  // A memory write the device issues (an MSI message), recorded in order.
  void SendMessage(uint64_t address, uint64_t data);
  // An entry leaving the device on output stream `stream` (an index into
  // the program's OutputStreams()), recorded with the current time.
  void Emit(uint32_t stream, uint64_t value);
  // Whether `space` answers frontdoor accesses; `why` goes into the violation.
  void SetSpaceAccess(SpaceId space, SpaceAccess access, std::string why);
  // Hands a record (unit_record.hpp) to DeviceOptions::on_record, if set,
  // stamped `time_ns` (an event inside a clock step happened before now).
  void EmitRecord(UnitRecordKind kind, uint64_t time_ns, std::span<const uint8_t> bytes = {});
  bool records_wanted() const;
  // Records a violation at `reg` (e.g. a `protocol` rule the driver broke).
  void ReportViolation(ViolationKind kind, RegisterId reg, std::string rule);
  // Records a violation at a place no register holds (a command packet in
  // memory). From a hook of a frontdoor access it is that access's (the
  // doorbell write that made a ring read the packet), as ReportViolation's.
  void ReportViolationAt(ViolationKind kind, SpaceId space, uint64_t offset, std::string rule);
  // An access by the device's own hardware (a command processor executing
  // register packets): through the frontdoor, with its access policies,
  // every behaviour's hooks, violations and trace entries, as a CPU access.
  // Only from Inject (not from a hook of an access in flight).
  uint64_t Read(SpaceId space, uint64_t offset, unsigned width);
  void Write(SpaceId space, uint64_t offset, unsigned width, uint64_t value);
  // Path `point` (an index into the program's CoveragePoints()) ran. A
  // no-op unless the device counts coverage (DeviceOptions::coverage).
  void Cover(uint32_t point);

  // The device's event queue, on the virtual clock: `tag` comes back to this
  // behaviour's OnTimer when the clock reaches now + delay_ns, whichever way
  // it gets there (a step, an access's cost, a poll). Events due at one
  // instant fire in the order they were scheduled; a delay of 0 fires at the
  // next advance of the clock. Returns the event's id, for Cancel. The queue
  // is part of snapshots and emptied by reset. `poll` says whether a
  // script's poll waiting across it reads at its instant (PollWait).
  uint64_t Schedule(uint64_t delay_ns, uint64_t tag, PollWait poll = PollWait::kEndsAtEvent);
  // Removes a pending event of this behaviour; false when it already fired,
  // was cancelled, or is another behaviour's.
  bool Cancel(uint64_t id);

 private:
  friend class Device;
  friend struct ContextFastPath;  // the built-in kinds' inline Schedule, Cancel and Cover (device_internal.hpp)
  // The device's own, on every hooked access: `values` are its register
  // values, which Peek and Poke reach inline.
  BehaviourContext(Device& device, const Model& model, uint32_t self, std::span<uint64_t> values)
      : device_(device), model_(model), self_(self), values_(values) {}

  // A behaviour naming a register its model does not have is a bug in the
  // behaviour: std::out_of_range, as from a vector's at().
  RegisterId Checked(RegisterId reg) const {
    if (reg >= values_.size()) ThrowBadRegister(reg);
    return reg;
  }
  [[noreturn]] static void ThrowBadRegister(RegisterId reg);
  void SyncViews(RegisterId reg);
  // A DMA access an external store could not hold: the `unclaimed` violation.
  void ReportUnbacked(SpaceId space, uint64_t offset, size_t size, const char* what) const;

  Device& device_;
  const Model& model_;
  uint32_t self_;
  std::span<uint64_t> values_;
};

enum class InjectResult { kNotMine, kDone, kBadArguments };

// An address range whose frontdoor accesses a behaviour gates (force-wake
// domains: the register file behind it may be powered down). `tag` is the
// program's own, handed back to AccessGate::CheckAccess so it need not search again.
struct GatedRange {
  SpaceId space = 0;
  uint64_t first = 0;
  uint64_t last = 0;  // inclusive
  uint32_t tag = 0;
};

// A power domain a behaviour models (Intel force-wake), described for tools
// that reason about a driver's protocol rather than enforce it: the
// fakes' protocol rules, annotated traces.
struct PowerDomainInfo {
  std::string name;
  RegisterId request = 0;  // the driver's request register
  RegisterId ack = 0;      // the ack register the driver polls
  SpaceId space = 0;
  // The ranges (inclusive) this domain powers, as declared; a range powered
  // by several domains needs all of them.
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  // Registers inside those ranges that take writes while the domain sleeps
  // (shadowed), as [first, last] offsets.
  std::vector<std::pair<uint64_t, uint64_t>> shadowed;
};

// A path of a behaviour that a driver's tests should exercise (a domain
// woken, an engine's interrupt serviced, a report format written), for
// coverage reports: `group` gathers points of one sort ("domains woken"),
// `name` is the one ("render").
struct CoveragePoint {
  std::string group;
  std::string name;
};

// Why the gate refused an access: recorded as a violation of `kind`; the
// read returns `reads_as` (cut to its width) and the write is dropped.
struct AccessRefusal {
  ViolationKind kind = ViolationKind::kProtocol;
  std::string rule;
  uint64_t reads_as = 0;
};

class Behaviour {
 public:
  virtual ~Behaviour() = default;
  // A copy of this runtime state, for device snapshots.
  virtual std::unique_ptr<Behaviour> Clone() const = 0;
  // Takes `other`'s state, in place: a restore that allocates nothing.
  // `other` is of this behaviour's type (the same program's instance).
  virtual void AssignFrom(const Behaviour& other) = 0;

  virtual void OnReset(BehaviourContext&) {}
  virtual void OnClock(BehaviourContext&, uint64_t /*from_ns*/, uint64_t /*to_ns*/) {}
  // An event this behaviour scheduled (BehaviourContext::Schedule) is due:
  // the clock stands at its instant, and every behaviour's OnClock has run
  // up to it.
  virtual void OnTimer(BehaviourContext&, uint64_t /*tag*/) {}
  virtual void BeforeRead(BehaviourContext&, RegisterId) {}
  // After a frontdoor read of a hooked register: the value the read returns
  // (slice steering may answer 0 for a register it does not reach).
  virtual uint64_t AfterRead(BehaviourContext&, RegisterId, uint64_t value) { return value; }
  virtual void AfterWrite(BehaviourContext&, RegisterId, uint64_t /*before*/, uint64_t /*after*/) {}
  // Another behaviour stored into `reg`, a register this one hooks
  // (BehaviourContext::Store), or a frontdoor read's side effect (a
  // read-clear) changed it, from `before` to `after`.
  virtual void OnStore(BehaviourContext&, RegisterId, uint64_t /*before*/, uint64_t /*after*/) {}
  // A hardware-side event (`inject VERB ARGS...`), VERB one its program
  // declares (BehaviourProgram::InjectForms); `error` explains kBadArguments.
  virtual InjectResult Inject(BehaviourContext&, std::string_view /*verb*/, std::span<const std::string> /*args*/,
                              std::string& /*error*/) {
    return InjectResult::kNotMine;
  }
};

// Roles only some kinds take, as interfaces a behaviour derives from
// beside Behaviour. The device looks each up once, when it is made; a
// program that takes a role (GatedRanges, RoutesInterrupts, a child naming
// it as InterruptParent) whose behaviour lacks the interface is a bug in
// the kind, and the device refuses to be made (std::logic_error naming it).

// The gate of the program's GatedRanges (force-wake's power domains).
class AccessGate {
 public:
  virtual ~AccessGate() = default;
  // For an access starting in one of the program's GatedRanges (`tag`
  // says which), before decode, whether or not a register is there: why it
  // is refused, or nothing to let it through.
  virtual std::optional<AccessRefusal> CheckAccess(BehaviourContext&, uint32_t tag, uint64_t offset, unsigned width,
                                                   bool is_write) = 0;
};

// The model's interrupt router (BehaviourProgram::RoutesInterrupts): a PCI
// function's INTx, MSI and MSI-X.
class InterruptRouter {
 public:
  virtual ~InterruptRouter() = default;
  // The device's interrupt request changed (or RefreshInterrupt was
  // called): the INTx line level. Messages go out through SendMessage.
  virtual bool RouteInterrupt(BehaviourContext&, bool requested) = 0;
  // A new interrupt event while the request stays asserted
  // (BehaviourContext::InterruptEvent).
  virtual void OnInterruptEvent(BehaviourContext&) {}
};

// A behaviour other behaviours name as their interrupt parent
// (BehaviourProgram::InterruptParent).
class ChildInterrupts {
 public:
  virtual ~ChildInterrupts() = default;
  // A child's interrupt output changed; `child` is its program's name,
  // valid for this call.
  virtual void OnChildInterrupt(BehaviourContext&, std::string_view child, bool asserted) = 0;
};

// Derived metrics by name (Device::Metric).
class MetricSource {
 public:
  virtual ~MetricSource() = default;
  // NAME's value, or nothing with `error` set when it cannot say; nothing
  // and no error when NAME is not one of its metrics.
  virtual std::optional<double> Metric(BehaviourContext&, std::string_view name, std::string& error) = 0;
};

// Clone and AssignFrom for a behaviour whose whole state is its members:
// copy construction and copy assignment.
template <class Derived>
class CopyableBehaviour : public Behaviour {
 public:
  std::unique_ptr<Behaviour> Clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
  void AssignFrom(const Behaviour& other) override {
    static_cast<Derived&>(*this) = static_cast<const Derived&>(other);
  }
};

class BehaviourProgram {
 public:
  BehaviourProgram(std::string kind, std::string name) : kind_(std::move(kind)), name_(std::move(name)) {}
  virtual ~BehaviourProgram() = default;

  const std::string& kind() const { return kind_; }
  const std::string& name() const { return name_; }

  virtual std::vector<RegisterId> ReadHooks() const { return {}; }
  virtual std::vector<RegisterId> WriteHooks() const { return {}; }
  // Ranges whose accesses go through the behaviour's AccessGate first. Ranges of
  // one space must not overlap, also across behaviours (Compile refuses).
  virtual std::vector<GatedRange> GatedRanges() const { return {}; }
  // The power domains this behaviour models, if any.
  virtual std::vector<PowerDomainInfo> PowerDomains() const { return {}; }
  // The behaviour (by name) whose ChildInterrupts takes this one's
  // interrupt output; empty: the device's interrupt request.
  virtual std::string InterruptParent() const { return {}; }
  // The named interrupt lines this behaviour drives (BehaviourContext::
  // SetLine), unique in the device (Compile refuses a name used twice).
  virtual std::vector<std::string> OutputLines() const { return {}; }
  // The named output streams it emits to (a serial line's transmitted
  // bytes): BehaviourContext::Emit numbers them in this order; the device
  // records what is emitted (Device::output). Names are unique in a device.
  virtual std::vector<std::string> OutputStreams() const { return {}; }
  // Whether this behaviour turns the device's interrupt request into the
  // INTx line or messages, as an InterruptRouter (at most one per model;
  // Compile refuses two).
  virtual bool RoutesInterrupts() const { return false; }
  // Every path its behaviour reports with BehaviourContext::Cover, hit or
  // not, so a report can say "5 of 14"; the same list on every call.
  virtual std::vector<CoveragePoint> CoveragePoints() const { return {}; }
  // The `inject` verbs its behaviour's Inject takes, with their arguments'
  // shapes (inject_forms.hpp): a script line whose verb no behaviour
  // declares is refused when it is parsed. Inject must take no other verb.
  virtual std::vector<InjectForm> InjectForms() const { return {}; }
  virtual std::unique_ptr<Behaviour> Instantiate() const = 0;

 private:
  std::string kind_;
  std::string name_;
};

// Compiles a behaviour from its checked, typed config (spec.config) against
// a model whose registers are built. Returns null and sets `error` for what
// the config check cannot know, or for a spec the checker never accepted.
std::unique_ptr<BehaviourProgram> CompileBehaviour(const regdb::BehaviourSpec& spec, const Model& model,
                                                   std::string& error);

// The typed config of `spec` as its kind's check built it, or null with
// `error` set when it holds another kind's.
template <typename Config>
const Config* ConfigOf(const regdb::BehaviourSpec& spec, std::string& error) {
  const auto* config = dynamic_cast<const Config*>(spec.config.get());
  if (config == nullptr) error = "its configuration is not one of kind '" + spec.kind + "'";
  return config;
}

}  // namespace regemu::emulator
