// `kind: ring`: a submission queue and a completion queue in a memory
// space, driven by doorbells (yaml/README.md, "kind: ring").
//
// A frontdoor write of the tail doorbell announces entries up to the new
// tail; the device consumes them from its head, in order, wrapping at the
// ring's size: it reads the entry, runs the first command whose condition
// holds (its memory writes), and posts a completion entry at the CQ tail
// with the phase tag, which inverts each time the CQ tail wraps. A full CQ
// ((tail + 1) % size == the host's head) stops consumption until the host's
// head doorbell frees a slot. With a latency, entries announced by a
// doorbell are consumed that much virtual time after it (the event queue).
//
// The indices are the behaviour's own (snapshots copy them) and mirrored
// into the optional state registers on each change (BehaviourContext::Store,
// so reactions and interrupt roll-ups see them); nothing reads them back.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/behaviour_configs/ring.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

using regdb::RegisterBits;
using regdb::RingCommand;
using regdb::RingConfig;
using regdb::RingQueue;

class RingProgram : public BehaviourProgram {
 public:
  RingProgram(std::string name, std::shared_ptr<const RingConfig> config)
      : BehaviourProgram("ring", std::move(name)), config_(std::move(config)) {
    auto hook = [&](RegisterId reg) {
      if (std::find(hooks_.begin(), hooks_.end(), reg) == hooks_.end()) hooks_.push_back(reg);
    };
    hook(config_->submission.doorbell.reg);
    hook(config_->completion.doorbell.reg);
    for (regdb::RegisterIndex reg : config_->reset_registers) hook(reg);
  }

  const RingConfig& config() const { return *config_; }
  bool ResetsOn(RegisterId reg) const {
    const auto& regs = config_->reset_registers;
    return config_->reset_when && std::find(regs.begin(), regs.end(), reg) != regs.end();
  }
  // Coverage points after the commands' (one each, in order).
  uint32_t point_default() const { return static_cast<uint32_t>(config_->commands.size()); }
  uint32_t point_full() const { return point_default() + 1; }
  uint32_t point_phase() const { return point_default() + 2; }
  uint32_t point_invalid() const { return point_default() + 3; }

  std::vector<RegisterId> WriteHooks() const override { return hooks_; }
  std::vector<CoveragePoint> CoveragePoints() const override {
    std::vector<CoveragePoint> points;
    for (const RingCommand& command : config_->commands) points.push_back({"commands run", command.name});
    points.push_back({"ring", "default status"});
    points.push_back({"ring", "completion queue full"});
    points.push_back({"ring", "phase inverted"});
    points.push_back({"ring", "invalid doorbell"});
    return points;
  }
  std::unique_ptr<Behaviour> Instantiate() const override;

 private:
  std::shared_ptr<const RingConfig> config_;
  std::vector<RegisterId> hooks_;
};

// What a ring's expressions read: registers and fields (backdoor), the
// submission entry being completed, and the ring's own names.
class RingEnv : public regdb::ExpressionEnv {
 public:
  RingEnv(const RingConfig& config, const BehaviourContext& context) : config_(config), context_(context) {}

  uint64_t Load(uint64_t id) const override {
    if ((id & regdb::kRingBitsOperand) != 0) {
      const RegisterBits& bits = config_.operands[id & ~regdb::kRingBitsOperand];
      return bits.bits.Get(context_.Peek(bits.reg));
    }
    if ((id & regdb::kRingEntryOperand) != 0) {
      const regdb::RingEntryField& field = config_.fields[id & ~regdb::kRingEntryOperand];
      uint64_t raw = 0;
      for (unsigned b = 0; b < field.width / 8; ++b) {
        size_t at = size_t{field.offset} + b;
        if (at < entry.size()) raw |= uint64_t{entry[at]} << (8 * b);
      }
      return field.bits.Get(raw);
    }
    switch (id) {
      case regdb::kRingStatus: return status;
      case regdb::kRingResult: return result;
      case regdb::kRingSqHead: return sq_head;
      case regdb::kRingSqId: return config_.sq_id;
      case regdb::kRingPhase: return phase;
      case regdb::kRingCqTail: return cq_tail;
      default: return 0;
    }
  }

  std::span<const uint8_t> entry;
  uint64_t status = 0;
  uint64_t result = 0;
  uint64_t sq_head = 0;
  uint64_t phase = 0;
  uint64_t cq_tail = 0;

 private:
  const RingConfig& config_;
  const BehaviourContext& context_;
};

// Where slot `index` of a ring at `base` starts, or nothing when its
// `entry_size` bytes do not lie inside a space of `space_size` bytes.
std::optional<uint64_t> SlotAddress(uint64_t base, uint64_t index, uint64_t entry_size, uint64_t space_size) {
  if (entry_size > space_size || base > space_size - entry_size) return std::nullopt;
  if (index > (space_size - entry_size - base) / entry_size) return std::nullopt;
  return base + index * entry_size;
}

void PutLittleEndian(std::span<uint8_t> bytes, uint64_t offset, unsigned width, uint64_t value) {
  for (unsigned b = 0; b < width / 8; ++b) bytes[offset + b] = static_cast<uint8_t>(value >> (8 * b));
}

class RingBehaviour : public CopyableBehaviour<RingBehaviour> {
 public:
  explicit RingBehaviour(const RingProgram& program)
      : program_(&program), phase_(program.config().phase_start) {}

  void OnReset(BehaviourContext& context) override { ResetQueues(context); }

  void AfterWrite(BehaviourContext& context, RegisterId reg, uint64_t, uint64_t after) override {
    const RingConfig& config = program_->config();
    CheckReset(context, reg);
    if (reg == config.submission.doorbell.reg) TailDoorbell(context, config.submission.doorbell.bits.Get(after));
    if (reg == config.completion.doorbell.reg) HeadDoorbell(context, config.completion.doorbell.bits.Get(after));
  }

  // Another behaviour changed a register reset_when names (a reaction
  // clearing an enable bit): the same check as after a frontdoor write.
  void OnStore(BehaviourContext& context, RegisterId reg, uint64_t, uint64_t) override { CheckReset(context, reg); }

  void OnTimer(BehaviourContext& context, uint64_t tag) override {
    auto it = std::find_if(pending_.begin(), pending_.end(), [&](const Pending& p) { return p.tag == tag; });
    if (it == pending_.end()) return;
    // This doorbell's tail covers every earlier doorbell's entries too.
    sq_due_ = it->tail;
    for (auto earlier = pending_.begin(); earlier != it; ++earlier) context.Cancel(earlier->event);
    pending_.erase(pending_.begin(), it + 1);
    Process(context);
  }

 private:
  struct Pending {
    uint64_t tag = 0;    // ours, handed to Schedule
    uint64_t event = 0;  // the device's id, for Cancel
    uint64_t tail = 0;   // the tail the doorbell announced
  };

  const RingConfig& config() const { return program_->config(); }

  std::string Named() const {
    std::string text = "[ring '" + program_->name() + "'";
    if (!config().ref.empty()) text += ", " + config().ref;
    return text + "]";
  }

  bool Enabled(const BehaviourContext& context) const {
    if (!config().enabled) return true;
    RingEnv env(config(), context);
    return config().enabled->Evaluate(env) != 0;
  }

  void CheckReset(BehaviourContext& context, RegisterId reg) {
    if (!program_->ResetsOn(reg)) return;
    RingEnv env(config(), context);
    if (config().reset_when->Evaluate(env) != 0) ResetQueues(context);
  }

  void ResetQueues(BehaviourContext& context) {
    for (const Pending& p : pending_) context.Cancel(p.event);
    pending_.clear();
    sq_head_ = sq_due_ = cq_tail_ = cq_head_ = 0;
    phase_ = config().phase_start;
    stalled_ = false;
    Mirror(context, config().submission.index, sq_head_);
    Mirror(context, config().completion.index, cq_tail_);
    Mirror(context, config().phase, phase_);
    Mirror(context, config().interrupt, 0);
  }

  static void Mirror(BehaviourContext& context, const std::optional<RegisterBits>& bits, uint64_t value) {
    if (!bits) return;
    uint64_t before = context.Peek(bits->reg);
    uint64_t after = (before & ~bits->bits.mask) | ((value << bits->bits.shift) & bits->bits.mask);
    if (after != before) context.Store(bits->reg, after);
  }

  // The ring's size now, or nothing after reporting a size no ring can have.
  std::optional<uint64_t> Size(BehaviourContext& context, const RingQueue& queue, std::string_view ring) const {
    RingEnv env(config(), context);
    uint64_t size = queue.size.Evaluate(env);
    if (size >= 2) return size;
    context.Cover(program_->point_invalid());
    context.ReportViolation(ViolationKind::kProtocol, queue.doorbell.reg,
                            std::string(ring) + " queue size is " + std::to_string(size) + " (" + queue.size.text() +
                                "): a queue needs 2 entries or more; doorbell write ignored " + Named());
    return std::nullopt;
  }

  void InvalidValue(BehaviourContext& context, const RingQueue& queue, std::string what) const {
    context.Cover(program_->point_invalid());
    context.ReportViolation(ViolationKind::kProtocol, queue.doorbell.reg,
                            "invalid doorbell write value: " + what + "; ignored " + Named());
  }

  void TailDoorbell(BehaviourContext& context, uint64_t tail) {
    if (!Enabled(context)) return;
    const RingQueue& sq = config().submission;
    auto size = Size(context, sq, "submission");
    if (!size) return;
    if (tail >= *size) {
      InvalidValue(context, sq, "tail " + std::to_string(tail) + " ≥ queue size " + std::to_string(*size));
      return;
    }
    uint64_t latency = 0;
    if (config().latency) {
      RingEnv env(config(), context);
      latency = config().latency->Evaluate(env);
    }
    if (latency == 0) {
      for (const Pending& p : pending_) context.Cancel(p.event);  // covered by this tail
      pending_.clear();
      sq_due_ = tail;
      Process(context);
      return;
    }
    uint64_t tag = next_tag_++;
    pending_.push_back(Pending{tag, context.Schedule(latency, tag), tail});
  }

  void HeadDoorbell(BehaviourContext& context, uint64_t head) {
    if (!Enabled(context)) return;
    const RingQueue& cq = config().completion;
    auto size = Size(context, cq, "completion");
    if (!size) return;
    if (head >= *size) {
      InvalidValue(context, cq, "head " + std::to_string(head) + " ≥ queue size " + std::to_string(*size));
      return;
    }
    // The host may release what the device posted, not more.
    auto ahead = [&](uint64_t from, uint64_t to) { return (to + *size - from) % *size; };
    if (cq_head_ < *size && cq_tail_ < *size && ahead(cq_head_, head) > ahead(cq_head_, cq_tail_)) {
      InvalidValue(context, cq, "head " + std::to_string(head) + " passes the completion tail " +
                                     std::to_string(cq_tail_) + " (from head " + std::to_string(cq_head_) +
                                     "): it releases entries the device never posted");
      return;
    }
    cq_head_ = head;
    if (cq_head_ == cq_tail_) Mirror(context, config().interrupt, 0);
    Process(context);
  }

  // Consumes announced entries while the completion ring has room.
  void Process(BehaviourContext& context) {
    if (sq_head_ == sq_due_ || !Enabled(context)) return;
    const RingConfig& c = config();
    RingEnv env(c, context);
    uint64_t sq_size = c.submission.size.Evaluate(env);
    uint64_t cq_size = c.completion.size.Evaluate(env);
    if (sq_size < 2 || cq_size < 2) return;  // reported by the doorbell
    if (sq_head_ >= sq_size || sq_due_ >= sq_size || cq_tail_ >= cq_size || cq_head_ >= cq_size) {
      context.ReportViolation(ViolationKind::kProtocol, c.submission.doorbell.reg,
                              "queue sizes changed while entries were pending (submission " + std::to_string(sq_size) +
                                  " with head " + std::to_string(sq_head_) + " and tail " + std::to_string(sq_due_) +
                                  ", completion " + std::to_string(cq_size) + " with tail " +
                                  std::to_string(cq_tail_) + " and head " + std::to_string(cq_head_) +
                                  "); not processed " + Named());
      return;
    }
    uint64_t sq_base = c.submission.base.Evaluate(env);
    uint64_t cq_base = c.completion.base.Evaluate(env);
    for (uint64_t n = 0; sq_head_ != sq_due_ && n < sq_size; ++n) {
      if ((cq_tail_ + 1) % cq_size == cq_head_) {
        if (!stalled_) context.Cover(program_->point_full());
        stalled_ = true;
        return;
      }
      stalled_ = false;
      Consume(context, sq_base, sq_size, cq_base, cq_size);
    }
  }

  void Consume(BehaviourContext& context, uint64_t sq_base, uint64_t sq_size, uint64_t cq_base, uint64_t cq_size) {
    const RingConfig& c = config();
    const SpaceModel& space = context.model().spaces()[c.memory];
    uint64_t slot = sq_head_;
    sq_head_ = (sq_head_ + 1) % sq_size;
    Mirror(context, c.submission.index, sq_head_);
    auto address = SlotAddress(sq_base, slot, c.submission.entry_size, space.size);
    if (!address) {
      context.ReportViolationAt(ViolationKind::kUnmodelled, static_cast<SpaceId>(c.memory), 0,
                                "submission entry " + std::to_string(slot) + " at " + regdb::Hex(sq_base) + " + " +
                                    std::to_string(slot) + " × " + std::to_string(c.submission.entry_size) +
                                    " lies past the end of space '" + space.name + "' (size " +
                                    regdb::Hex(space.size) + "); skipped, no completion " + Named());
      return;
    }
    std::vector<uint8_t> entry(c.submission.entry_size);
    context.ReadMemory(static_cast<SpaceId>(c.memory), *address, entry);
    RingEnv env(c, context);
    env.entry = entry;
    env.sq_head = sq_head_;
    env.cq_tail = cq_tail_;
    env.phase = phase_;
    const RingCommand* command = nullptr;
    for (uint32_t i = 0; i < c.commands.size() && command == nullptr; ++i) {
      if (c.commands[i].when && c.commands[i].when->Evaluate(env) == 0) continue;
      command = &c.commands[i];
      context.Cover(i);
    }
    if (command != nullptr) {
      env.status = command->status.Evaluate(env);
      env.result = command->result.Evaluate(env);
      for (const regdb::RingMemoryWrite& write : command->writes) Write(context, *command, write, env);
    } else {
      context.Cover(program_->point_default());
      env.status = c.default_status;
      env.result = 0;
    }
    Post(context, env, cq_base, cq_size);
  }

  void Write(BehaviourContext& context, const RingCommand& command, const regdb::RingMemoryWrite& write,
             const RingEnv& env) {
    const RingConfig& c = config();
    const SpaceModel& space = context.model().spaces()[c.memory];
    uint64_t address = write.address.Evaluate(env);
    uint64_t value = write.value.Evaluate(env);
    unsigned bytes = write.width / 8;
    if (address > space.size || bytes > space.size - address) {
      context.ReportViolationAt(ViolationKind::kUnmodelled, static_cast<SpaceId>(c.memory), 0,
                                "command '" + command.name + "' writes memory at " + regdb::Hex(address) +
                                    ", past the end of space '" + space.name + "' " + Named());
      return;
    }
    uint8_t data[8] = {};
    PutLittleEndian(data, 0, write.width, value);
    context.WriteMemory(static_cast<SpaceId>(c.memory), address, std::span<const uint8_t>(data, bytes));
  }

  void Post(BehaviourContext& context, const RingEnv& env, uint64_t cq_base, uint64_t cq_size) {
    const RingConfig& c = config();
    const SpaceModel& space = context.model().spaces()[c.memory];
    auto address = SlotAddress(cq_base, cq_tail_, c.completion.entry_size, space.size);
    if (!address) {
      context.ReportViolationAt(ViolationKind::kUnmodelled, static_cast<SpaceId>(c.memory), 0,
                                "completion entry " + std::to_string(cq_tail_) + " at " + regdb::Hex(cq_base) + " + " +
                                    std::to_string(cq_tail_) + " × " + std::to_string(c.completion.entry_size) +
                                    " lies past the end of space '" + space.name + "' (size " +
                                    regdb::Hex(space.size) + "); not posted " + Named());
      return;
    }
    std::vector<uint8_t> bytes(c.completion.entry_size, 0);
    for (const regdb::RingCompletionField& field : c.completion_entry) {
      PutLittleEndian(bytes, field.offset, field.width, field.value.Evaluate(env));
    }
    context.WriteMemory(static_cast<SpaceId>(c.memory), *address, bytes);
    cq_tail_ = (cq_tail_ + 1) % cq_size;
    if (cq_tail_ == 0) {
      phase_ ^= 1;
      context.Cover(program_->point_phase());
    }
    Mirror(context, c.completion.index, cq_tail_);
    Mirror(context, c.phase, phase_);
    Mirror(context, c.interrupt, 1);
  }

  const RingProgram* program_;
  uint64_t sq_head_ = 0;  // the device's: the next entry it consumes
  uint64_t sq_due_ = 0;   // entries before this may be consumed (the tail, once the latency passed)
  uint64_t cq_tail_ = 0;  // the device's: the slot of its next completion
  uint64_t cq_head_ = 0;  // the host's, from its head doorbell
  uint64_t phase_ = 1;
  bool stalled_ = false;  // consumption stopped at a full completion ring
  std::vector<Pending> pending_;
  uint64_t next_tag_ = 0;
};

std::unique_ptr<Behaviour> RingProgram::Instantiate() const { return std::make_unique<RingBehaviour>(*this); }

}  // namespace

std::unique_ptr<BehaviourProgram> CompileRing(const regdb::BehaviourSpec& spec, const Model&, std::string& error) {
  if (!ConfigOf<RingConfig>(spec, error)) return nullptr;
  return std::make_unique<RingProgram>(spec.name, std::static_pointer_cast<const RingConfig>(spec.config));
}

}  // namespace regemu::emulator
