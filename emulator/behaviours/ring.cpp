// `kind: ring`: submission and completion queues in a memory space, driven
// by doorbells (yaml/README.md, "kind: ring").
//
// A frontdoor write of a tail doorbell announces entries up to the new
// tail; the device consumes them from its head, in order, wrapping at the
// queue's size: it reads the entry, runs the first command whose condition
// holds (its memory writes, copies, queue actions), and posts a completion
// entry at the tail of the submission queue's completion queue, with the
// phase tag, which inverts each time that tail wraps. A full completion
// queue ((tail + 1) % size == the host's head) stops consumption until the
// host's head doorbell frees a slot. With a latency, entries announced by
// a doorbell are consumed that much virtual time after it.
//
// Queue 0 is the pair `submission` and `completion` describe (bases and
// sizes evaluated at each use); with `queues:` the others are created and
// deleted by commands. The indices are the behaviour's own (snapshots copy
// them); queue 0's are mirrored into the optional state registers, and
// `vector_status` shows which interrupt vectors have entries waiting, with
// BehaviourContext::Store so reactions and roll-ups see them.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/behaviours/page_list.hpp"
#include "regemu/regdb/behaviour_configs/ring.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

using regdb::RegisterBits;
using regdb::RingCommand;
using regdb::RingConfig;
using regdb::RingCopy;
using regdb::RingCopyEnd;
using regdb::RingQueue;

// A copy larger than this is refused: a malformed length, not data (NVMe's
// MDTS keeps a real transfer far below it), and the bound keeps a hostile
// command from making the device allocate gigabytes.
constexpr uint64_t kMaxCopyBytes = uint64_t{16} << 20;

// Which queue a doorbell register rings.
struct Doorbell {
  RegisterId reg = 0;
  regdb::FieldBits bits;
  uint64_t id = 0;
  bool submission = true;
};

class RingProgram : public BehaviourProgram {
 public:
  RingProgram(std::string name, std::shared_ptr<const RingConfig> config)
      : BehaviourProgram("ring", std::move(name)), config_(std::move(config)) {
    auto hook = [&](RegisterId reg) {
      if (std::find(hooks_.begin(), hooks_.end(), reg) == hooks_.end()) hooks_.push_back(reg);
    };
    for (uint64_t id = 0; id < config_->tail_doorbells.size(); ++id) {
      const RegisterBits& bits = config_->tail_doorbells[id];
      doorbells_.push_back(Doorbell{bits.reg, bits.bits, id, true});
      hook(bits.reg);
    }
    for (uint64_t id = 0; id < config_->head_doorbells.size(); ++id) {
      const RegisterBits& bits = config_->head_doorbells[id];
      doorbells_.push_back(Doorbell{bits.reg, bits.bits, id, false});
      hook(bits.reg);
    }
    for (regdb::RegisterIndex reg : config_->reset_registers) hook(reg);
  }

  const RingConfig& config() const { return *config_; }
  const std::vector<Doorbell>& doorbells() const { return doorbells_; }
  bool ResetsOn(RegisterId reg) const {
    const auto& regs = config_->reset_registers;
    return config_->reset_when && std::find(regs.begin(), regs.end(), reg) != regs.end();
  }
  // Coverage points after the commands' (one each, in order).
  uint32_t point_default() const { return static_cast<uint32_t>(config_->commands.size()); }
  uint32_t point_full() const { return point_default() + 1; }
  uint32_t point_phase() const { return point_default() + 2; }
  uint32_t point_invalid() const { return point_default() + 3; }
  uint32_t point_created() const { return point_default() + 4; }
  uint32_t point_deleted() const { return point_default() + 5; }
  uint32_t point_refused() const { return point_default() + 6; }
  uint32_t point_held() const { return point_default() + 7; }
  uint32_t point_copied() const { return point_default() + 8; }
  uint32_t point_bad_data() const { return point_default() + 9; }

  std::vector<RegisterId> WriteHooks() const override { return hooks_; }
  std::vector<CoveragePoint> CoveragePoints() const override {
    std::vector<CoveragePoint> points;
    for (const RingCommand& command : config_->commands) points.push_back({"commands run", command.name});
    points.push_back({"ring", "default status"});
    points.push_back({"ring", "completion queue full"});
    points.push_back({"ring", "phase inverted"});
    points.push_back({"ring", "invalid doorbell"});
    points.push_back({"queues", "queue created"});
    points.push_back({"queues", "queue deleted"});
    points.push_back({"queues", "queue command refused"});
    points.push_back({"ring", "command held"});
    points.push_back({"data", "data copied"});
    points.push_back({"data", "data pointer refused"});
    return points;
  }
  std::unique_ptr<Behaviour> Instantiate() const override;

 private:
  std::shared_ptr<const RingConfig> config_;
  std::vector<Doorbell> doorbells_;
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
      case regdb::kRingSqId: return sq_id;
      case regdb::kRingCqId: return cq_id;
      case regdb::kRingPhase: return phase;
      case regdb::kRingCqTail: return cq_tail;
      default: return 0;
    }
  }

  std::span<const uint8_t> entry;
  uint64_t status = 0;
  uint64_t result = 0;
  uint64_t sq_head = 0;
  uint64_t sq_id = 0;
  uint64_t cq_id = 0;
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
      : program_(&program),
        sqs_(program.config().queues),
        cqs_(program.config().queues) {
    ResetState();
  }

  void OnReset(BehaviourContext& context) override { ResetQueues(context); }

  void AfterWrite(BehaviourContext& context, RegisterId reg, uint64_t, uint64_t after) override {
    CheckReset(context, reg);
    for (const Doorbell& doorbell : program_->doorbells()) {
      if (doorbell.reg != reg) continue;
      uint64_t value = doorbell.bits.Get(after);
      if (doorbell.submission) {
        TailDoorbell(context, doorbell.id, value);
      } else {
        HeadDoorbell(context, doorbell.id, value);
      }
    }
  }

  // Another behaviour changed a register reset_when names (a reaction
  // clearing an enable bit): the same check as after a frontdoor write.
  void OnStore(BehaviourContext& context, RegisterId reg, uint64_t, uint64_t) override { CheckReset(context, reg); }

  void OnTimer(BehaviourContext& context, uint64_t tag) override {
    auto it = std::find_if(pending_.begin(), pending_.end(), [&](const Pending& p) { return p.tag == tag; });
    if (it == pending_.end()) return;
    uint64_t id = it->sq;
    // This doorbell's tail covers every earlier doorbell's entries of its queue.
    sqs_[id].due = it->tail;
    for (auto earlier = pending_.begin(); earlier != it;) {
      if (earlier->sq == id) {
        context.Cancel(earlier->event);
        earlier = pending_.erase(earlier);
        --it;
      } else {
        ++earlier;
      }
    }
    pending_.erase(it);
    Process(context, id);
  }

 private:
  struct Pending {
    uint64_t tag = 0;    // ours, handed to Schedule
    uint64_t event = 0;  // the device's id, for Cancel
    uint64_t sq = 0;     // the submission queue
    uint64_t tail = 0;   // the tail the doorbell announced
  };
  struct SubmissionQueue {
    bool exists = false;
    uint64_t base = 0, size = 0, cq = 0;  // queue 0: from the expressions
    uint64_t head = 0;  // the device's: the next entry it consumes
    uint64_t due = 0;   // entries before this may be consumed (the tail, once the latency passed)
    bool stalled = false;  // consumption stopped at a full completion queue
  };
  struct CompletionQueue {
    bool exists = false;
    uint64_t base = 0, size = 0, vector = 0;
    bool interrupts = true;
    uint64_t tail = 0;  // the device's: the slot of its next completion
    uint64_t head = 0;  // the host's, from its head doorbell
    uint64_t phase = 1;
  };

  const RingConfig& config() const { return program_->config(); }

  std::string Named() const {
    std::string text = "[ring '" + program_->name() + "'";
    if (!config().ref.empty()) text += ", " + config().ref;
    return text + "]";
  }

  static std::string QueueName(std::string_view kind, uint64_t id) {
    return std::string(kind) + " queue " + std::to_string(id);
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

  void ResetState() {
    for (SubmissionQueue& sq : sqs_) sq = SubmissionQueue{};
    for (CompletionQueue& cq : cqs_) cq = CompletionQueue{};
    sqs_[0].exists = cqs_[0].exists = true;
    for (CompletionQueue& cq : cqs_) cq.phase = config().phase_start;
  }

  void ResetQueues(BehaviourContext& context) {
    for (const Pending& p : pending_) context.Cancel(p.event);
    pending_.clear();
    ResetState();
    MirrorQueueZero(context);
    UpdateVectors(context);
    Mirror(context, config().interrupt, 0);
  }

  static void Mirror(BehaviourContext& context, const std::optional<RegisterBits>& bits, uint64_t value) {
    if (!bits) return;
    uint64_t before = context.Peek(bits->reg);
    uint64_t after = (before & ~bits->bits.mask) | ((value << bits->bits.shift) & bits->bits.mask);
    if (after != before) context.Store(bits->reg, after);
  }

  void MirrorQueueZero(BehaviourContext& context) {
    Mirror(context, config().submission.index, sqs_[0].head);
    Mirror(context, config().completion.index, cqs_[0].tail);
    Mirror(context, config().phase, cqs_[0].phase);
  }

  // vector_status: bit v while a completion queue on vector v, with
  // interrupts enabled, holds entries the host has not released.
  void UpdateVectors(BehaviourContext& context) {
    if (!config().vector_status) return;
    uint64_t bits = 0;
    for (const CompletionQueue& cq : cqs_) {
      if (cq.exists && cq.interrupts && cq.tail != cq.head && cq.vector < 64) bits |= uint64_t{1} << cq.vector;
    }
    RegisterId reg = *config().vector_status;
    if (context.Peek(reg) != bits) context.Store(reg, bits);
  }

  // Queue 0's base and size come from the expressions each time; a
  // created queue's were fixed by its command.
  void Refresh(const BehaviourContext& context, uint64_t sq_id, uint64_t cq_id) {
    RingEnv env(config(), context);
    if (sq_id == 0) {
      sqs_[0].base = config().submission.base.Evaluate(env);
      sqs_[0].size = config().submission.size.Evaluate(env);
    }
    if (cq_id == 0) {
      cqs_[0].base = config().completion.base.Evaluate(env);
      cqs_[0].size = config().completion.size.Evaluate(env);
    }
  }

  RegisterId DoorbellRegister(uint64_t id, bool submission) const {
    return (submission ? config().tail_doorbells : config().head_doorbells)[id].reg;
  }

  void InvalidValue(BehaviourContext& context, RegisterId at, std::string what) const {
    context.Cover(program_->point_invalid());
    context.ReportViolation(ViolationKind::kProtocol, at, "invalid doorbell write value: " + what + "; ignored " + Named());
  }

  // The doorbell of a queue that is not in use (never created, or deleted).
  bool Exists(BehaviourContext& context, uint64_t id, bool submission) const {
    if (submission ? sqs_[id].exists : cqs_[id].exists) return true;
    context.Cover(program_->point_invalid());
    context.ReportViolation(ViolationKind::kProtocol, DoorbellRegister(id, submission),
                            "doorbell of " + QueueName(submission ? "submission" : "completion", id) +
                                ", which does not exist (never created, or deleted); ignored " + Named());
    return false;
  }

  // A queue 0 size no ring can have.
  bool SizeUsable(BehaviourContext& context, uint64_t size, const RingQueue& queue, std::string_view ring,
                  RegisterId at) const {
    if (size >= 2) return true;
    context.Cover(program_->point_invalid());
    context.ReportViolation(ViolationKind::kProtocol, at,
                            std::string(ring) + " queue size is " + std::to_string(size) + " (" + queue.size.text() +
                                "): a queue needs 2 entries or more; doorbell write ignored " + Named());
    return false;
  }

  // Drops submission queue `id`'s doorbells still waiting out the latency.
  void CancelPending(BehaviourContext& context, uint64_t id) {
    std::erase_if(pending_, [&](const Pending& p) {
      if (p.sq == id) context.Cancel(p.event);
      return p.sq == id;
    });
  }

  void TailDoorbell(BehaviourContext& context, uint64_t id, uint64_t tail) {
    if (!Enabled(context) || !Exists(context, id, true)) return;
    Refresh(context, id, sqs_[id].cq);
    SubmissionQueue& sq = sqs_[id];
    RegisterId at = DoorbellRegister(id, true);
    if (!SizeUsable(context, sq.size, config().submission, "submission", at)) return;
    if (tail >= sq.size) {
      InvalidValue(context, at, "tail " + std::to_string(tail) + " ≥ queue size " + std::to_string(sq.size) + " of " +
                                    QueueName("submission", id));
      return;
    }
    uint64_t latency = 0;
    if (config().latency) {
      RingEnv env(config(), context);
      latency = config().latency->Evaluate(env);
    }
    if (latency == 0) {
      CancelPending(context, id);  // covered by this tail
      sq.due = tail;
      Process(context, id);
      return;
    }
    uint64_t tag = next_tag_++;
    pending_.push_back(Pending{tag, context.Schedule(latency, tag), id, tail});
  }

  void HeadDoorbell(BehaviourContext& context, uint64_t id, uint64_t head) {
    if (!Enabled(context) || !Exists(context, id, false)) return;
    Refresh(context, ~uint64_t{0}, id);
    CompletionQueue& cq = cqs_[id];
    RegisterId at = DoorbellRegister(id, false);
    if (!SizeUsable(context, cq.size, config().completion, "completion", at)) return;
    if (head >= cq.size) {
      InvalidValue(context, at, "head " + std::to_string(head) + " ≥ queue size " + std::to_string(cq.size) + " of " +
                                    QueueName("completion", id));
      return;
    }
    // The host may release what the device posted, not more.
    auto ahead = [&](uint64_t from, uint64_t to) { return (to + cq.size - from) % cq.size; };
    if (cq.head < cq.size && cq.tail < cq.size && ahead(cq.head, head) > ahead(cq.head, cq.tail)) {
      InvalidValue(context, at, "head " + std::to_string(head) + " passes the completion tail " +
                                    std::to_string(cq.tail) + " (from head " + std::to_string(cq.head) + ") of " +
                                    QueueName("completion", id) + ": it releases entries the device never posted");
      return;
    }
    cq.head = head;
    if (cq.head == cq.tail) {
      if (id == 0) Mirror(context, config().interrupt, 0);
      UpdateVectors(context);
    }
    for (uint64_t sq = 0; sq < sqs_.size(); ++sq) {
      if (sqs_[sq].exists && sqs_[sq].cq == id) Process(context, sq);
    }
  }

  // Consumes announced entries of submission queue `id` while its
  // completion queue has room.
  void Process(BehaviourContext& context, uint64_t id) {
    if (!sqs_[id].exists || sqs_[id].head == sqs_[id].due || !Enabled(context)) return;
    uint64_t cq_id = sqs_[id].cq;
    Refresh(context, id, cq_id);
    SubmissionQueue& sq = sqs_[id];
    CompletionQueue& cq = cqs_[cq_id];
    if (sq.size < 2 || cq.size < 2) return;  // reported by the doorbell
    if (sq.head >= sq.size || sq.due >= sq.size || cq.tail >= cq.size || cq.head >= cq.size) {
      context.ReportViolation(ViolationKind::kProtocol, DoorbellRegister(id, true),
                              "queue sizes changed while entries were pending (submission " + std::to_string(sq.size) +
                                  " with head " + std::to_string(sq.head) + " and tail " + std::to_string(sq.due) +
                                  ", completion " + std::to_string(cq.size) + " with tail " + std::to_string(cq.tail) +
                                  " and head " + std::to_string(cq.head) + "); not processed " + Named());
      return;
    }
    for (uint64_t n = 0; sqs_[id].exists && sqs_[id].head != sqs_[id].due && n < sqs_[id].size; ++n) {
      const CompletionQueue& target = cqs_[sqs_[id].cq];
      if ((target.tail + 1) % target.size == target.head) {
        if (!sqs_[id].stalled) context.Cover(program_->point_full());
        sqs_[id].stalled = true;
        return;
      }
      sqs_[id].stalled = false;
      Consume(context, id);
    }
  }

  void Consume(BehaviourContext& context, uint64_t id) {
    const RingConfig& c = config();
    const SpaceModel& space = context.model().spaces()[c.memory];
    SubmissionQueue& sq = sqs_[id];
    uint64_t slot = sq.head;
    sq.head = (sq.head + 1) % sq.size;
    if (id == 0) Mirror(context, c.submission.index, sq.head);
    auto address = SlotAddress(sq.base, slot, c.submission.entry_size, space.size);
    if (!address) {
      context.ReportViolationAt(ViolationKind::kUnmodelled, static_cast<SpaceId>(c.memory), 0,
                                "submission entry " + std::to_string(slot) + " of " + QueueName("submission", id) +
                                    " at " + regdb::Hex(sq.base) + " + " + std::to_string(slot) + " × " +
                                    std::to_string(c.submission.entry_size) + " lies past the end of space '" +
                                    space.name + "' (size " + regdb::Hex(space.size) + "); skipped, no completion " +
                                    Named());
      return;
    }
    std::vector<uint8_t> entry(c.submission.entry_size);
    context.ReadMemory(static_cast<SpaceId>(c.memory), *address, entry);
    uint64_t cq_id = sq.cq;
    RingEnv env(c, context);
    env.entry = entry;
    env.sq_head = sq.head;
    env.sq_id = id == 0 ? c.sq_id : id;
    env.cq_id = cq_id;
    env.cq_tail = cqs_[cq_id].tail;
    env.phase = cqs_[cq_id].phase;
    const RingCommand* command = nullptr;
    for (uint32_t i = 0; i < c.commands.size() && command == nullptr; ++i) {
      if (c.commands[i].when && c.commands[i].when->Evaluate(env) == 0) continue;
      command = &c.commands[i];
      context.Cover(i);
    }
    if (command == nullptr) {
      context.Cover(program_->point_default());
      env.status = c.default_status;
      env.result = 0;
      Post(context, env, cq_id);
      return;
    }
    env.status = command->status.Evaluate(env);
    env.result = command->result.Evaluate(env);
    for (const regdb::RingMemoryWrite& write : command->writes) Write(context, *command, write, env);
    bool copied = true;
    for (const RingCopy& copy : command->copies) {
      if (!Copy(context, *command, copy, env)) {
        copied = false;
        break;
      }
    }
    if (copied && command->create) Create(context, *command->create, env);
    if (copied && command->remove) Delete(context, *command->remove, env);
    if (command->hold) {
      context.Cover(program_->point_held());
      return;
    }
    // A queue action may have deleted this queue's completion queue: it
    // was checked to have no submission queue, so cq_id still exists.
    Post(context, env, cq_id);
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

  // The memory ranges of the command's data pointer for `bytes` bytes, or
  // nothing after reporting a malformed list.
  std::optional<std::vector<MemorySegment>> DataSegments(BehaviourContext& context, const RingCommand& command,
                                                         const RingEnv& env, uint64_t bytes) {
    const regdb::RingDataPointer& data = *config().data;
    auto memory = static_cast<SpaceId>(config().memory);
    PageListWalk walk = WalkPageList(data.first.Evaluate(env), data.second.Evaluate(env),
                                     data.page_size.Evaluate(env), bytes,
                                     [&](uint64_t address, std::span<uint8_t> out) {
                                       context.ReadMemory(memory, address, out);
                                     });
    if (!walk.error.empty()) {
      context.Cover(program_->point_bad_data());
      context.ReportViolationAt(ViolationKind::kProtocol, memory, 0,
                                "command '" + command.name + "': its data pointer is malformed: " + walk.error +
                                    " (" + data.first.text() + ", " + data.second.text() + "); completed with status " +
                                    regdb::Hex(data.error_status) + " " + Named());
      return std::nullopt;
    }
    return walk.segments;
  }

  // One `copy:`; false (the command's status set to the error status)
  // when it cannot be done.
  bool Copy(BehaviourContext& context, const RingCommand& command, const RingCopy& copy, RingEnv& env) {
    const RingConfig& c = config();
    uint64_t error_status = c.data ? c.data->error_status : c.default_status;
    uint64_t bytes = copy.bytes.Evaluate(env);
    auto fail = [&](std::string why) {
      context.Cover(program_->point_bad_data());
      context.ReportViolationAt(ViolationKind::kUnmodelled, static_cast<SpaceId>(c.memory), 0,
                                "command '" + command.name + "' copies " + std::to_string(bytes) + " bytes (" +
                                    copy.bytes.text() + "): " + why + "; completed with status " +
                                    regdb::Hex(error_status) + " " + Named());
      env.status = error_status;
      return false;
    };
    if (bytes > kMaxCopyBytes) return fail("more than the " + std::to_string(kMaxCopyBytes) + " a copy may move");
    // An end in a memory space: its offset, checked against the space.
    auto space_offset = [&](const RingCopyEnd& end, uint64_t& offset) {
      const SpaceModel& space = context.model().spaces()[end.space];
      offset = end.offset.Evaluate(env);
      if (offset > space.size || bytes > space.size - offset) {
        return fail("offset " + regdb::Hex(offset) + " (" + end.offset.text() + ") runs past the end of space '" +
                    space.name + "' (size " + regdb::Hex(space.size) + ")");
      }
      return true;
    };
    std::vector<uint8_t> buffer(bytes, 0);
    std::optional<std::vector<MemorySegment>> segments;
    if (copy.from.kind == RingCopyEnd::Kind::kData || copy.to.kind == RingCopyEnd::Kind::kData) {
      segments = DataSegments(context, command, env, bytes);
      if (!segments) {
        env.status = error_status;
        return false;
      }
    }
    auto memory = static_cast<SpaceId>(c.memory);
    switch (copy.from.kind) {
      case RingCopyEnd::Kind::kZeros: break;
      case RingCopyEnd::Kind::kData: {
        uint64_t at = 0;
        for (const MemorySegment& s : *segments) {
          context.ReadMemory(memory, s.address, std::span<uint8_t>(buffer).subspan(at, s.bytes));
          at += s.bytes;
        }
        break;
      }
      case RingCopyEnd::Kind::kSpace: {
        uint64_t offset = 0;
        if (!space_offset(copy.from, offset)) return false;
        context.ReadMemory(static_cast<SpaceId>(copy.from.space), offset, buffer);
        break;
      }
    }
    if (copy.to.kind == RingCopyEnd::Kind::kData) {
      uint64_t at = 0;
      for (const MemorySegment& s : *segments) {
        context.WriteMemory(memory, s.address, std::span<const uint8_t>(buffer).subspan(at, s.bytes));
        at += s.bytes;
      }
    } else {
      uint64_t offset = 0;
      if (!space_offset(copy.to, offset)) return false;
      context.WriteMemory(static_cast<SpaceId>(copy.to.space), offset, buffer);
    }
    context.Cover(program_->point_copied());
    return true;
  }

  // A queue command that cannot be done completes with `status`.
  void Refuse(BehaviourContext& context, RingEnv& env, uint64_t status) {
    context.Cover(program_->point_refused());
    env.status = status;
  }

  void Create(BehaviourContext& context, const regdb::RingCreateQueue& create, RingEnv& env) {
    const RingConfig& c = config();
    uint64_t id = create.id.Evaluate(env);
    bool in_use = id < c.queues && (create.submission ? sqs_[id].exists : cqs_[id].exists);
    if (id == 0 || id >= c.queues || in_use) return Refuse(context, env, c.queue_status.invalid_id);
    uint64_t size = create.size.Evaluate(env);
    if (size < 2 || (c.max_size && size > c.max_size->Evaluate(env))) {
      return Refuse(context, env, c.queue_status.invalid_size);
    }
    uint64_t base = create.base.Evaluate(env);
    if (create.submission) {
      uint64_t cq = create.completion->Evaluate(env);
      if (cq >= c.queues || !cqs_[cq].exists) return Refuse(context, env, c.queue_status.invalid_completion);
      sqs_[id] = SubmissionQueue{true, base, size, cq, 0, 0, false};
    } else {
      uint64_t vector = create.vector ? create.vector->Evaluate(env) : 0;
      unsigned vector_bits =
          c.vector_status ? context.model().registers()[*c.vector_status].width : 64;
      if (vector >= vector_bits) return Refuse(context, env, c.queue_status.invalid_vector);
      bool interrupts = !create.interrupts || create.interrupts->Evaluate(env) != 0;
      cqs_[id] = CompletionQueue{true, base, size, vector, interrupts, 0, 0, c.phase_start};
    }
    context.Cover(program_->point_created());
  }

  void Delete(BehaviourContext& context, const regdb::RingDeleteQueue& remove, RingEnv& env) {
    const RingConfig& c = config();
    uint64_t id = remove.id.Evaluate(env);
    bool exists = id < c.queues && (remove.submission ? sqs_[id].exists : cqs_[id].exists);
    if (id == 0 || !exists) return Refuse(context, env, c.queue_status.invalid_id);
    if (remove.submission) {
      CancelPending(context, id);
      sqs_[id] = SubmissionQueue{};
    } else {
      for (const SubmissionQueue& sq : sqs_) {
        if (sq.exists && sq.cq == id) return Refuse(context, env, c.queue_status.in_use);
      }
      cqs_[id] = CompletionQueue{};
      cqs_[id].phase = c.phase_start;
      UpdateVectors(context);
    }
    context.Cover(program_->point_deleted());
  }

  void Post(BehaviourContext& context, RingEnv& env, uint64_t cq_id) {
    const RingConfig& c = config();
    const SpaceModel& space = context.model().spaces()[c.memory];
    CompletionQueue& cq = cqs_[cq_id];
    env.cq_tail = cq.tail;
    env.phase = cq.phase;
    auto address = SlotAddress(cq.base, cq.tail, c.completion.entry_size, space.size);
    if (!address) {
      context.ReportViolationAt(ViolationKind::kUnmodelled, static_cast<SpaceId>(c.memory), 0,
                                "completion entry " + std::to_string(cq.tail) + " of " +
                                    QueueName("completion", cq_id) + " at " + regdb::Hex(cq.base) + " + " +
                                    std::to_string(cq.tail) + " × " + std::to_string(c.completion.entry_size) +
                                    " lies past the end of space '" + space.name + "' (size " +
                                    regdb::Hex(space.size) + "); not posted " + Named());
      return;
    }
    std::vector<uint8_t> bytes(c.completion.entry_size, 0);
    for (const regdb::RingCompletionField& field : c.completion_entry) {
      PutLittleEndian(bytes, field.offset, field.width, field.value.Evaluate(env));
    }
    context.WriteMemory(static_cast<SpaceId>(c.memory), *address, bytes);
    cq.tail = (cq.tail + 1) % cq.size;
    if (cq.tail == 0) {
      cq.phase ^= 1;
      context.Cover(program_->point_phase());
    }
    if (cq_id == 0) {
      MirrorQueueZero(context);
      Mirror(context, c.interrupt, 1);
    }
    UpdateVectors(context);
  }

  const RingProgram* program_;
  std::vector<SubmissionQueue> sqs_;  // by id
  std::vector<CompletionQueue> cqs_;  // by id
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
