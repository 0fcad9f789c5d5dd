#include "regemu/emulator/device.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "regemu/emulator/coverage/coverage_recorder.hpp"
#include "regemu/emulator/device_internal.hpp"

namespace regemu::emulator {

Device::Device(std::shared_ptr<const Model> model, DeviceOptions options)
    : model_(std::move(model)), options_(std::move(options)), trace_(options_.trace_capacity, options_.on_trace) {
  const auto& regs = model_->registers();
  values_.resize(regs.size());
  for (size_t i = 0; i < regs.size(); ++i) values_[i] = regs[i].reset;
  written_once_.assign(model_->once_slots(), 0);
  armed_.assign(model_->rmw_slots(), 0);
  memory_.resize(model_->spaces().size());
  behaviours_.reserve(model_->behaviours().size());
  for (const auto& program : model_->behaviours()) behaviours_.push_back(program->Instantiate());
  contexts_.reserve(behaviours_.size());
  for (uint32_t i = 0; i < behaviours_.size(); ++i) contexts_.push_back(BehaviourContext(*this, *model_, i, values_));
  FindRoles();
  irq_outputs_.assign(behaviours_.size(), 0);
  line_levels_.assign(model_->interrupt_lines().size(), 0);
  outputs_.resize(model_->output_streams().size());
  line_edges_.assign(model_->interrupt_lines().size(), 0);
  space_access_.resize(model_->spaces().size());
  space_access_why_.resize(model_->spaces().size());
  ResetSpaceAccess();
  FillContents();
  if (options_.coverage) coverage_ = std::make_unique<CoverageRecorder>(*model_);
  for (uint32_t i = 0; i < behaviours_.size(); ++i) {
    BehaviourContext& context = ContextFor(i);
    behaviours_[i]->OnReset(context);
  }
}

// Each behaviour's optional interfaces, and a refusal for a program that
// takes a role its behaviour does not play (a bug in the kind, found before
// the first access rather than at it).
void Device::FindRoles() {
  roles_.resize(behaviours_.size());
  for (size_t i = 0; i < behaviours_.size(); ++i) {
    Behaviour* behaviour = behaviours_[i].get();
    roles_[i] = Roles{dynamic_cast<AccessGate*>(behaviour), dynamic_cast<ChildInterrupts*>(behaviour),
                      dynamic_cast<MetricSource*>(behaviour)};
  }
  auto refuse = [&](uint32_t i, const char* role, const char* interface) {
    const BehaviourProgram& program = *model_->behaviours()[i];
    throw std::logic_error("behaviour '" + program.name() + "' (kind " + program.kind() + ") " + role +
                           ", but its Behaviour does not derive from " + interface + " (emulator/behaviour.hpp)");
  };
  for (const SpaceModel& space : model_->spaces()) {
    for (const GateModel& gate : space.gates) {
      if (roles_[gate.behaviour].gate == nullptr) refuse(gate.behaviour, "gates address ranges", "AccessGate");
    }
  }
  for (uint32_t parent : model_->interrupt_parents()) {
    if (parent != kNoBehaviour && roles_[parent].parent == nullptr) {
      refuse(parent, "is another behaviour's interrupt parent", "ChildInterrupts");
    }
  }
  if (uint32_t router = model_->interrupt_router(); router != kNoBehaviour) {
    router_ = dynamic_cast<InterruptRouter*>(behaviours_[router].get());
    if (router_ == nullptr) refuse(router, "routes the device's interrupts", "InterruptRouter");
  }
}

// A memory space's `contents:` (a structure the device hands out by DMA):
// the store's own pages; an external store's bytes are its owner's.
void Device::FillContents() {
  for (size_t i = 0; i < memory_.size(); ++i) {
    if (memory_[i].external() != nullptr) continue;
    for (const regdb::SpaceContent& content : model_->spaces()[i].contents) {
      memory_[i].Write(content.offset, content.bytes);
    }
  }
}

Device::~Device() {
  if (!coverage_) return;
  try {
    CollectCoverage(coverage_->Result());
  } catch (...) {
    // Out of memory: losing this device's coverage beats terminating the test.
  }
}

// ------------------------------------------------------------------- backdoor

uint64_t Device::PeekLocked(SpaceId space_id, uint64_t offset, unsigned width) const {
  const SpaceModel& space = model_->spaces().at(space_id);
  if (!IsAccessWidth(width)) return 0;
  if (space.indexed) {
    RegisterId id = DecodeAt(space, offset, false);
    return id == DecodeTable::kNone ? space.unclaimed & WidthMask(width) : values_[id] & WidthMask(width);
  }
  uint64_t value = 0;
  for (unsigned b = 0; b < width / 8; ++b) {
    RegisterId id = DecodeAt(space, offset + b, false);
    uint64_t byte = 0;
    if (id != DecodeTable::kNone) {
      byte = (values_[id] >> (8 * (offset + b - model_->registers()[id].offset))) & 0xFF;
    } else if (space.IsRam(offset + b)) {
      byte = memory_[space_id].Load(offset + b, 1);
    } else {
      byte = (space.unclaimed >> (8 * b)) & 0xFF;
    }
    value |= byte << (8 * b);
  }
  return value;
}

uint64_t Device::Peek(SpaceId space, uint64_t offset, unsigned width) const {
  Guard guard(*this);
  uint64_t value = PeekLocked(space, offset, width);
  TraceEntry entry{++sequence_, now_ns_, offset, value, kNoRegister, space, static_cast<uint8_t>(width), TraceOp::kPeek};
  entry.reg = IsAccessWidth(width) ? DecodeAt(model_->spaces()[space], offset, false) : kNoRegister;
  trace_.Push(entry);
  return value;
}

bool Device::Poke(SpaceId space_id, uint64_t offset, unsigned width, uint64_t value) {
  Guard guard(*this);
  bool stored = PokeLocked(space_id, offset, width, value);
  TraceEntry entry{++sequence_, now_ns_, offset, value, kNoRegister, space_id, static_cast<uint8_t>(width), TraceOp::kPoke};
  entry.reg = IsAccessWidth(width) ? DecodeAt(model_->spaces()[space_id], offset, true) : kNoRegister;
  if (!stored) entry.outcome = TraceOutcome::kDropped;
  trace_.Push(entry);
  return stored;
}

bool Device::PokeLocked(SpaceId space_id, uint64_t offset, unsigned width, uint64_t value) {
  const SpaceModel& space = model_->spaces().at(space_id);
  if (!IsAccessWidth(width)) return false;
  if (space.indexed) {
    RegisterId id = DecodeAt(space, offset, true);
    if (id == DecodeTable::kNone) return false;
    const RegisterModel& r = model_->registers()[id];
    values_[id] = ((values_[id] & ~WidthMask(width)) | (value & WidthMask(width))) & r.width_mask;
    if (r.has(RegisterModel::kView)) SyncViews(id);
    return true;
  }
  bool any = false;
  for (unsigned b = 0; b < width / 8; ++b) {
    RegisterId id = DecodeAt(space, offset + b, true);
    if (id == DecodeTable::kNone) {
      if (space.IsRam(offset + b)) {
        memory_[space_id].Store(offset + b, 1, value >> (8 * b));
        any = true;
      }
      continue;
    }
    unsigned shift = static_cast<unsigned>(8 * (offset + b - model_->registers()[id].offset));
    values_[id] = (values_[id] & ~(uint64_t{0xFF} << shift)) | (((value >> (8 * b)) & 0xFF) << shift);
    if (model_->registers()[id].has(RegisterModel::kView)) SyncViews(id);
    any = true;
  }
  return any;
}

uint64_t Device::PeekRegister(RegisterId reg) const {
  Guard guard(*this);
  return values_.at(reg);
}

void Device::PeekRegisters(std::span<uint64_t> out) const {
  Guard guard(*this);
  if (out.size() != values_.size()) {
    throw std::invalid_argument("Device::PeekRegisters: room for " + std::to_string(out.size()) + " values, the device has " +
                                std::to_string(values_.size()) + " registers");
  }
  std::copy(values_.begin(), values_.end(), out.begin());
}

void Device::PokeRegister(RegisterId reg, uint64_t value) {
  Guard guard(*this);
  const RegisterModel& r = model_->registers().at(reg);
  values_[reg] = value & r.width_mask;
  if (r.has(RegisterModel::kView)) SyncViews(reg);
  TraceEntry entry{++sequence_, now_ns_, r.offset, values_[reg], reg, r.space, r.width, TraceOp::kPoke};
  trace_.Push(entry);
}

MemoryStore& Device::MemoryAt(SpaceId space_id, uint64_t offset, size_t size) {
  const auto& self = *this;
  return const_cast<MemoryStore&>(self.MemoryAt(space_id, offset, size));
}

const MemoryStore& Device::MemoryAt(SpaceId space_id, uint64_t offset, size_t size) const {
  const SpaceModel& space = model_->spaces().at(space_id);
  if (space.kind != regdb::SpaceKind::kMemory) {
    throw std::invalid_argument("space '" + space.name + "' is not a memory space");
  }
  if (offset > space.size || size > space.size - offset) {
    throw std::out_of_range(std::to_string(size) + " bytes at " + regdb::Hex(offset) + " run past the end of space '" +
                            space.name + "' (size " + regdb::Hex(space.size) + ")");
  }
  return memory_[space_id];
}

void Device::ReadMemory(SpaceId space, uint64_t offset, std::span<uint8_t> out) const {
  Guard guard(*this);
  MemoryAt(space, offset, out.size()).Read(offset, out);
}

void Device::WriteMemory(SpaceId space, uint64_t offset, std::span<const uint8_t> bytes) {
  Guard guard(*this);
  MemoryAt(space, offset, bytes.size()).Write(offset, bytes);
}

void Device::AttachExternalMemory(SpaceId space_id, std::shared_ptr<const ExternalMemory> external) {
  Guard guard(*this);
  const SpaceModel& space = model_->spaces().at(space_id);
  if (space.kind != regdb::SpaceKind::kMemory) {
    throw std::invalid_argument("space '" + space.name + "' is not a memory space");
  }
  if (external) {
    for (const ExternalRegion& region : external->regions()) {
      if (region.offset > space.size || region.bytes.size() > space.size - region.offset) {
        throw std::out_of_range("external region of " + std::to_string(region.bytes.size()) + " bytes at " +
                                regdb::Hex(region.offset) + " runs past the end of space '" + space.name +
                                "' (size " + regdb::Hex(space.size) + ")");
      }
    }
  }
  memory_[space_id].Attach(std::move(external));
}

// ----------------------------------------------------------------------- time

void Device::Advance(uint64_t ns) {
  Guard guard(*this);
  trace_.Push(TraceEntry{++sequence_, now_ns_, 0, ns, kNoRegister, 0, 0, TraceOp::kStep, TraceOutcome::kOk, 0});
  AdvanceLocked(ns);
}

void Device::AdvanceLocked(uint64_t ns) {
  // Saturate: a wrapped clock would run behaviours backwards.
  uint64_t target = ns > ~uint64_t{0} - now_ns_ ? ~uint64_t{0} : now_ns_ + ns;
  // Cut at each due event: the behaviours' clocks reach its instant, then it
  // fires (and may schedule more, also inside this advance).
  while (!events_.empty() && events_.front().due_ns <= target) {
    std::pop_heap(events_.begin(), events_.end(), kLater);
    PendingEvent event = events_.back();
    events_.pop_back();
    if (event.due_ns > now_ns_) ClockTo(event.due_ns);
    BehaviourContext& context = ContextFor(event.behaviour);
    behaviours_[event.behaviour]->OnTimer(context, event.tag);
  }
  ClockTo(target);
}

void Device::ClockTo(uint64_t to) {
  uint64_t from = now_ns_;
  now_ns_ = to;
  for (uint32_t i = 0; i < behaviours_.size(); ++i) {
    BehaviourContext& context = ContextFor(i);
    behaviours_[i]->OnClock(context, from, now_ns_);
  }
}

std::optional<uint64_t> Device::next_event_ns() const {
  Guard guard(*this);
  if (events_.empty()) return std::nullopt;
  return events_.front().due_ns;
}

std::optional<uint64_t> Device::next_poll_stop_ns() const {
  Guard guard(*this);
  // A scan, not the heap's top: the queue holds a handful of events, and
  // only a poll's wait asks.
  std::optional<uint64_t> due;
  for (const PendingEvent& event : events_) {
    if (event.poll == PollWait::kEndsAtEvent && (!due || event.due_ns < *due)) due = event.due_ns;
  }
  return due;
}

size_t Device::pending_events() const {
  Guard guard(*this);
  return events_.size();
}

uint64_t Device::now_ns() const {
  Guard guard(*this);
  return now_ns_;
}

// ---------------------------------------------------------------------- state

void Device::Reset() {
  Guard guard(*this);
  trace_.Push(TraceEntry{++sequence_, now_ns_, 0, 0, kNoRegister, 0, 0, TraceOp::kReset, TraceOutcome::kOk, 0});
  const auto& regs = model_->registers();
  for (size_t i = 0; i < regs.size(); ++i) values_[i] = regs[i].reset;
  std::fill(written_once_.begin(), written_once_.end(), 0);
  std::fill(armed_.begin(), armed_.end(), 0);
  for (MemoryStore& memory : memory_) memory.Clear();
  FillContents();
  events_.clear();
  // Outputs and space states start over; the behaviours' resets set them again.
  std::fill(irq_outputs_.begin(), irq_outputs_.end(), 0);
  std::fill(line_levels_.begin(), line_levels_.end(), 0);
  irq_request_ = false;
  RouteInterruptLocked();
  ResetSpaceAccess();
  for (uint32_t i = 0; i < behaviours_.size(); ++i) {
    BehaviourContext& context = ContextFor(i);
    behaviours_[i]->OnReset(context);
  }
}

DeviceSnapshot Device::Snapshot() const {
  DeviceSnapshot snapshot;
  Snapshot(snapshot);
  return snapshot;
}

void Device::Snapshot(DeviceSnapshot& into) const {
  Guard guard(*this);
  bool reuse = into.model_ == model_ && into.behaviours_.size() == behaviours_.size();
  into.model_ = model_;
  into.values_ = values_;
  into.written_once_ = written_once_;
  into.armed_ = armed_;
  into.memory_ = memory_;  // pages are shared, copied on the next write
  if (reuse) {
    for (size_t i = 0; i < behaviours_.size(); ++i) into.behaviours_[i]->AssignFrom(*behaviours_[i]);
  } else {
    into.behaviours_.clear();
    into.behaviours_.reserve(behaviours_.size());
    for (const auto& behaviour : behaviours_) into.behaviours_.push_back(behaviour->Clone());
  }
  into.events_ = events_;
  into.next_event_id_ = next_event_id_;
  into.now_ns_ = now_ns_;
  into.irq_ = irq_;
  into.irq_edges_ = irq_edges_;
  into.irq_outputs_ = irq_outputs_;
  into.irq_request_ = irq_request_;
  into.line_levels_ = line_levels_;
  into.line_edges_ = line_edges_;
  into.space_access_ = space_access_;
  into.space_access_why_ = space_access_why_;
}

void Device::Restore(const DeviceSnapshot& snapshot) {
  Guard guard(*this);
  // Two models of the same size still differ in meaning (and in behaviour types): compare the model itself.
  if (snapshot.model_ != model_) {
    throw std::invalid_argument("Device::Restore: the snapshot was taken from a device of another model");
  }
  std::copy(snapshot.values_.begin(), snapshot.values_.end(), values_.begin());
  std::copy(snapshot.written_once_.begin(), snapshot.written_once_.end(), written_once_.begin());
  std::copy(snapshot.armed_.begin(), snapshot.armed_.end(), armed_.begin());
  memory_ = snapshot.memory_;
  // The same model: each behaviour is its program's instance, of one type.
  for (size_t i = 0; i < behaviours_.size(); ++i) behaviours_[i]->AssignFrom(*snapshot.behaviours_[i]);
  events_ = snapshot.events_;
  next_event_id_ = snapshot.next_event_id_;
  now_ns_ = snapshot.now_ns_;
  irq_ = snapshot.irq_;
  irq_edges_ = snapshot.irq_edges_;
  irq_outputs_ = snapshot.irq_outputs_;
  irq_request_ = snapshot.irq_request_;
  line_levels_ = snapshot.line_levels_;
  line_edges_ = snapshot.line_edges_;
  space_access_ = snapshot.space_access_;
  space_access_why_ = snapshot.space_access_why_;
}

void Device::ResetSpaceAccess() {
  const auto& spaces = model_->spaces();
  for (size_t i = 0; i < spaces.size(); ++i) {
    bool state = spaces[i].kind == regdb::SpaceKind::kState;
    space_access_[i] = state ? SpaceAccess::kNotDecoded : SpaceAccess::kDecoded;
    space_access_why_[i] = state ? "space '" + spaces[i].name +
                                       "' is the device's internal state: no bus access reaches it (a test reads "
                                       "it with peek and sets it with poke)"
                                 : std::string();
  }
}

// ----------------------------------------------------------------- behaviours

std::string Device::Inject(std::string_view verb, std::span<const std::string> args) {
  Guard guard(*this);
  for (uint32_t i = 0; i < behaviours_.size(); ++i) {
    BehaviourContext& context = ContextFor(i);
    std::string error;
    switch (behaviours_[i]->Inject(context, verb, args, error)) {
      case InjectResult::kDone: return "";
      case InjectResult::kBadArguments: return error;
      case InjectResult::kNotMine: break;
    }
  }
  return "no behaviour of device '" + model_->device() + "' handles 'inject " + std::string(verb) + "'";
}

std::optional<double> Device::Metric(std::string_view name, std::string& error) {
  Guard guard(*this);
  for (uint32_t i = 0; i < behaviours_.size(); ++i) {
    if (roles_[i].metrics == nullptr) continue;
    error.clear();
    std::optional<double> value = roles_[i].metrics->Metric(ContextFor(i), name, error);
    if (value || !error.empty()) return value;
  }
  error = "no behaviour of device '" + model_->device() + "' defines a metric '" + std::string(name) + "'";
  return std::nullopt;
}

void Device::SetInterruptLocked(uint32_t from, bool asserted) {
  if (from >= irq_outputs_.size()) return;
  if ((irq_outputs_[from] != 0) == asserted) return;
  irq_outputs_[from] = asserted ? 1 : 0;
  uint32_t parent = model_->interrupt_parents()[from];
  if (parent != kNoBehaviour) {
    BehaviourContext& context = ContextFor(parent);
    roles_[parent].parent->OnChildInterrupt(context, model_->behaviours()[from]->name(), asserted);
    return;
  }
  if (const Model::OutputField& field = model_->interrupt_fields()[from]; field.mask != 0) {
    // The level as a status bit: stored by the behaviour itself, so the
    // roll-ups and reactions watching the field hear of it (OnStore).
    BehaviourContext& context = ContextFor(from);
    uint64_t value = context.Peek(field.reg);
    context.Store(field.reg, asserted ? value | field.mask : value & ~field.mask);
    return;
  }
  bool request = false;
  for (uint32_t i = 0; i < irq_outputs_.size(); ++i) {
    if (irq_outputs_[i] != 0 && model_->feeds_request(i)) request = true;
  }
  if (request == irq_request_) return;
  irq_request_ = request;
  RouteInterruptLocked();
}

void Device::RouteInterruptLocked() {
  bool line = irq_request_;
  if (uint32_t router = model_->interrupt_router(); router != kNoBehaviour) {
    BehaviourContext& context = ContextFor(router);
    line = router_->RouteInterrupt(context, irq_request_);
  }
  if (line && !irq_) ++irq_edges_;
  irq_ = line;
}

namespace {

uint32_t LineNamed(const Model& model, std::string_view line) {
  auto index = model.FindLine(line);
  if (!index) {
    std::string known;
    for (const std::string& name : model.interrupt_lines()) known += (known.empty() ? "" : ", ") + name;
    throw std::out_of_range("device '" + model.device() + "' has no interrupt line '" + std::string(line) + "'" +
                            (known.empty() ? " (it has none)" : " (it has " + known + ")"));
  }
  return *index;
}

}  // namespace

bool Device::line_asserted(std::string_view line) const {
  Guard guard(*this);
  return line_levels_[LineNamed(*model_, line)] != 0;
}

uint64_t Device::line_edges(std::string_view line) const {
  Guard guard(*this);
  return line_edges_[LineNamed(*model_, line)];
}

bool Device::interrupt_requested() const {
  Guard guard(*this);
  return irq_request_;
}

std::vector<StreamEntry> Device::output(std::string_view stream) const {
  Guard guard(*this);
  std::optional<uint32_t> index = model_->FindStream(stream);
  if (!index) {
    std::string known;
    for (const std::string& name : model_->output_streams()) known += (known.empty() ? "" : ", ") + name;
    throw std::out_of_range("device '" + model_->device() + "' has no output stream '" + std::string(stream) + "'" +
                            (known.empty() ? " (it has none)" : " (it has " + known + ")"));
  }
  return outputs_[*index];
}

std::vector<MessageWrite> Device::messages() const {
  Guard guard(*this);
  return messages_;
}

size_t Device::message_count() const {
  Guard guard(*this);
  return message_count_;
}

bool Device::interrupt_asserted() const {
  Guard guard(*this);
  return irq_;
}

uint64_t Device::interrupt_edges() const {
  Guard guard(*this);
  return irq_edges_;
}

// ----------------------------------------------------------------- violations

std::vector<Violation> Device::violations() const {
  Guard guard(*this);
  return violations_;
}

size_t Device::violation_count() const {
  Guard guard(*this);
  return violation_count_;
}

size_t Device::failing_violation_count() const {
  Guard guard(*this);
  return failing_count_;
}

void Device::ClearViolations() {
  Guard guard(*this);
  violations_.clear();
  violation_count_ = 0;
  failing_count_ = 0;
}

void Device::SetPolicy(const ViolationPolicy& policy) {
  Guard guard(*this);
  options_.policy = policy;
}

uint64_t Device::access_cost_ns() const {
  Guard guard(*this);
  return options_.access_cost_ns;
}

void Device::SetAccessCost(uint64_t ns) {
  Guard guard(*this);
  options_.access_cost_ns = ns;
}

std::optional<ModelCoverage> Device::Coverage() const {
  Guard guard(*this);
  if (!coverage_) return std::nullopt;
  return coverage_->Result();
}

std::vector<TraceEntry> Device::Trace(size_t last) const {
  Guard guard(*this);
  return trace_.Last(last);
}

uint64_t Device::access_count() const {
  Guard guard(*this);
  return sequence_;
}

// ------------------------------------------------------------ BehaviourContext

uint64_t BehaviourContext::now_ns() const { return device_.now_ns_; }
void BehaviourContext::SyncViews(RegisterId reg) { device_.SyncViews(reg); }
void BehaviourContext::ThrowBadRegister(RegisterId reg) {
  throw std::out_of_range("BehaviourContext: no register " + std::to_string(reg));
}
void BehaviourContext::SetInterrupt(bool asserted) { device_.SetInterruptLocked(self_, asserted); }
void BehaviourContext::SetLine(uint32_t line, bool asserted) {
  uint32_t index = model_.first_lines().at(self_) + line;
  if (index >= device_.line_levels_.size()) {
    throw std::out_of_range("BehaviourContext::SetLine: behaviour '" + model_.behaviours()[self_]->name() +
                            "' has no output line " + std::to_string(line));
  }
  if (asserted && device_.line_levels_[index] == 0) ++device_.line_edges_[index];
  device_.line_levels_[index] = asserted ? 1 : 0;
}
void BehaviourContext::Store(RegisterId reg, uint64_t value) {
  uint64_t before = Peek(reg);
  Poke(reg, value);
  uint64_t after = Peek(reg);
  if (after != before) device_.NotifyStore(reg, before, after, self_);
}
bool BehaviourContext::Signal(std::string_view verb, std::span<const std::string> args) {
  bool taken = false;
  for (uint32_t i = 0; i < device_.behaviours_.size(); ++i) {
    if (i == self_) continue;
    BehaviourContext& context = device_.ContextFor(i);
    std::string error;
    if (device_.behaviours_[i]->Inject(context, verb, args, error) == InjectResult::kDone) taken = true;
  }
  return taken;
}
uint64_t BehaviourContext::Schedule(uint64_t delay_ns, uint64_t tag, PollWait poll) {
  return ContextFastPath::Schedule(*this, delay_ns, tag, poll);
}
bool BehaviourContext::Cancel(uint64_t id) { return ContextFastPath::Cancel(*this, id); }
void BehaviourContext::ReadMemory(SpaceId space, uint64_t offset, std::span<uint8_t> out) const {
  if (!device_.MemoryAt(space, offset, out.size()).Read(offset, out)) ReportUnbacked(space, offset, out.size(), "read");
}
void BehaviourContext::WriteMemory(SpaceId space, uint64_t offset, std::span<const uint8_t> bytes) {
  if (!device_.MemoryAt(space, offset, bytes.size()).Write(offset, bytes)) {
    ReportUnbacked(space, offset, bytes.size(), "write");
  }
}
void BehaviourContext::ReportUnbacked(SpaceId space, uint64_t offset, size_t size, const char* what) const {
  // Only an external store can leave bytes unbacked: a DMA address the host never shared.
  const std::string& name = model_.spaces()[space].name;
  device_.ContextFor(self_).ReportViolationAt(
      ViolationKind::kUnclaimed, space, offset,
      std::string("DMA ") + what + " of " + std::to_string(size) + " byte(s) at " + regdb::Hex(offset) + " in '" +
          name + "': no region of the memory the host shares holds it (all-ones read, nothing written)");
}
void BehaviourContext::EmitRecord(UnitRecordKind kind, uint64_t time_ns, std::span<const uint8_t> bytes) {
  if (!device_.options_.on_record) return;
  device_.options_.on_record(UnitRecord{model_.behaviours()[self_]->name(), kind, time_ns, bytes});
}
void BehaviourContext::Cover(uint32_t point) { ContextFastPath::Cover(*this, point); }
bool BehaviourContext::records_wanted() const { return static_cast<bool>(device_.options_.on_record); }
bool BehaviourContext::interrupt_requested() const { return device_.irq_request_; }
void BehaviourContext::RefreshInterrupt() { device_.RouteInterruptLocked(); }

void BehaviourContext::InterruptEvent() {
  if (!device_.model_->feeds_request(self_) || !device_.irq_request_) return;
  if (uint32_t router = device_.model_->interrupt_router(); router != kNoBehaviour) {
    device_.router_->OnInterruptEvent(device_.ContextFor(router));
  }
}
void BehaviourContext::SendMessage(uint64_t address, uint64_t data) {
  ++device_.message_count_;
  MessageWrite message{device_.sequence_, device_.now_ns_, address, data};
  if (device_.messages_.size() < device_.options_.max_messages) device_.messages_.push_back(message);
  if (device_.options_.on_message) device_.options_.on_message(message);
}
void BehaviourContext::Emit(uint32_t stream, uint64_t value) {
  std::vector<StreamEntry>& out = device_.outputs_.at(model_.first_streams().at(self_) + stream);
  if (out.size() < device_.options_.max_stream_entries) out.push_back(StreamEntry{device_.now_ns_, value});
}
std::optional<uint64_t> BehaviourContext::WrittenValue(RegisterId reg) const {
  const Device::Access* access = device_.in_flight_;
  if (access == nullptr || access->entry.op != TraceOp::kWrite) return std::nullopt;
  const RegisterModel& r = device_.model_->registers().at(reg);
  const TraceEntry& entry = access->entry;
  // A byte space: the access's bytes land where its offset says; an indexed
  // one has one index a register.
  uint64_t value = entry.value;
  if (entry.offset > r.offset) {
    uint64_t shift = 8 * (entry.offset - r.offset);
    value = shift >= 64 ? 0 : value << shift;
  } else if (entry.offset < r.offset) {
    uint64_t shift = 8 * (r.offset - entry.offset);
    value = shift >= 64 ? 0 : value >> shift;
  }
  return value & r.width_mask;
}

void BehaviourContext::SetSpaceAccess(SpaceId space, SpaceAccess access, std::string why) {
  device_.space_access_.at(space) = access;
  device_.space_access_why_.at(space) = std::move(why);
}
void BehaviourContext::ReportViolationAt(ViolationKind kind, SpaceId space, uint64_t offset, std::string rule) {
  if (device_.in_flight_ != nullptr) {
    // From a hook of a frontdoor access (a doorbell write that made a ring
    // read a malformed command): that access is the driver's line to blame.
    device_.Violate(*device_.in_flight_, kind, kNoRegister, 0, std::move(rule));
    return;
  }
  TraceEntry entry{device_.sequence_, device_.now_ns_, offset, 0, kNoRegister, space, 32, TraceOp::kRead,
                   TraceOutcome::kOk, 0};
  Device::Access access(entry);
  device_.Violate(access, kind, kNoRegister, 0, std::move(rule));
  device_.Record(access.entry.sequence, 0);
}

void BehaviourContext::ReportViolation(ViolationKind kind, RegisterId reg, std::string rule) {
  if (device_.in_flight_ != nullptr) {
    // From a hook of a frontdoor access: the access broke the rule, so the
    // violation is recorded with it, in order, and marks its trace entry.
    device_.Violate(*device_.in_flight_, kind, reg, 0, std::move(rule));
    return;
  }
  const RegisterModel& r = device_.model_->registers().at(reg);
  // Not an access: its entry stays out of the trace.
  TraceEntry entry{device_.sequence_, device_.now_ns_, r.offset, device_.values_[reg], reg, r.space,
                   r.width,           TraceOp::kWrite, TraceOutcome::kOk, 0};
  Device::Access access(entry);
  device_.Violate(access, kind, reg, 0, std::move(rule));
  device_.Record(entry.sequence, entry.value);
}

}  // namespace regemu::emulator
