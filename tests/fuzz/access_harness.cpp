#include "tests/fuzz/access_harness.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::fuzz {
namespace {

using emulator::RegisterId;
using emulator::SpaceId;

enum class OpKind : uint8_t {
  kReadRegister,
  kWriteRegister,
  kRead,  // a raw offset near a register, or anywhere in a space, at any width
  kWrite,
  kPeek,
  kPoke,
  kStep,
  kInject,
  kReset,
  kSnapshot,
  kRestore,
};

// One byte picks the kind: whole-register accesses, which the model
// predicts, are the most frequent.
constexpr std::array<OpKind, 16> kKindByNibble{
    OpKind::kReadRegister, OpKind::kReadRegister, OpKind::kReadRegister, OpKind::kWriteRegister,
    OpKind::kWriteRegister, OpKind::kWriteRegister, OpKind::kWriteRegister, OpKind::kRead,
    OpKind::kWrite,         OpKind::kPeek,          OpKind::kPoke,          OpKind::kStep,
    OpKind::kInject,        OpKind::kReset,         OpKind::kSnapshot,      OpKind::kRestore,
};

constexpr std::array<unsigned, 4> kWidths{8, 16, 32, 64};

// Violation kinds with which the device refuses an access outright: it
// reads all-ones or 0 and changes nothing (space off, gate, bad shape).
constexpr uint16_t kRefusalKinds = (1u << static_cast<unsigned>(emulator::ViolationKind::kWidth)) |
                                   (1u << static_cast<unsigned>(emulator::ViolationKind::kAlignment)) |
                                   (1u << static_cast<unsigned>(emulator::ViolationKind::kUnclaimed)) |
                                   (1u << static_cast<unsigned>(emulator::ViolationKind::kForcewake)) |
                                   (1u << static_cast<unsigned>(emulator::ViolationKind::kPower));

uint64_t WidthMask(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

struct Op {
  OpKind kind = OpKind::kReset;
  SpaceId space = 0;
  uint64_t offset = 0;
  unsigned width = 0;
  uint64_t value = 0;
  RegisterId reg = emulator::kNoRegister;  // by-register operations
  uint32_t inject = 0;
};

// At most this many registers per access: 8 bytes, plus as many through
// an alias window, each byte with the registers banked at its place.
constexpr size_t kMaxTouched = 64;
struct Touched {
  std::array<RegisterId, kMaxTouched> regs{};
  size_t count = 0;
  void Add(RegisterId reg) {
    if (reg == emulator::kNoRegister) return;
    for (size_t i = 0; i < count; ++i) {
      if (regs[i] == reg) return;
    }
    if (count < kMaxTouched) regs[count++] = reg;
  }
};

[[noreturn]] void SetupFailed(const std::string& name, const std::string& why) {
  std::fprintf(stderr, "access_fuzz: %s: %s\n", name.c_str(), why.c_str());
  std::abort();
}

}  // namespace

// One input's run: the operations decoded one at a time, each executed and checked.
class AccessHarness::Execution {
 public:
  Execution(AccessHarness& harness, const uint8_t* data, size_t size, ScriptWriter* script)
      : h_(harness), model_(*harness.setup_.model), device_(*harness.device_), reference_(harness.reference_),
        input_(data, size), script_(script) {}

  std::optional<InvariantFailure> Run() {
    device_.Restore(h_.pristine_);
    device_.ClearViolations();
    reference_.set_state(h_.pristine_reference_);
    h_.sequence_went_back_ = false;
    if (script_) WriteHeader();
    size_t limit = h_.operations_per_input_ != 0 ? h_.operations_per_input_ : kMaxOps;
    bool fixed = h_.operations_per_input_ != 0;
    for (index_ = 0; index_ < limit && (fixed || input_.remaining_bytes() > 0); ++index_) {
      if (!Decode()) continue;
      // A read's line is written when it ran: an `expect` when the model predicts it.
      bool read = op_.kind == OpKind::kReadRegister || op_.kind == OpKind::kRead;
      if (script_ && !read) Line(OpLine());
      Execute();
      if (!failure_ && h_.sequence_went_back_) Fail("the trace's sequence numbers went back");
      if (!failure_ && device_.access_count() != h_.last_sequence_) {
        Fail("access_count() is " + std::to_string(device_.access_count()) + " but the trace's last sequence is " +
             std::to_string(h_.last_sequence_));
      }
      if (!failure_ && (index_ + 1) % h_.full_check_period_ == 0) CheckAllTracked("the full check after it");
      if (failure_) return failure_;
    }
    if (index_ > 0) --index_;  // the end-of-input check belongs to the last operation
    CheckAllTracked("the end-of-input full check");
    return failure_;
  }

 private:
  // ------------------------------------------------------------ decoding

  // False for an operation that does nothing here (restore without a snapshot, step 0).
  bool Decode() {
    op_ = Op{};
    op_.kind = kKindByNibble[input_.ConsumeIntegral<uint8_t>() & 15];
    switch (op_.kind) {
      case OpKind::kReadRegister:
      case OpKind::kWriteRegister:
      case OpKind::kPeek:
      case OpKind::kPoke: {
        op_.reg = PickRegister();
        const emulator::RegisterModel& r = model_.registers()[op_.reg];
        op_.space = r.space;
        op_.offset = r.offset;
        op_.width = r.width;
        if (op_.kind == OpKind::kWriteRegister || op_.kind == OpKind::kPoke) {
          op_.value = input_.ConsumeIntegral<uint64_t>() & WidthMask(op_.width);
        }
        return true;
      }
      case OpKind::kRead:
      case OpKind::kWrite: {
        uint8_t shape = input_.ConsumeIntegral<uint8_t>();
        op_.width = kWidths[shape & 3];
        if ((shape & 4) != 0) {  // anywhere in a space
          op_.space = static_cast<SpaceId>(input_.ConsumeIntegral<uint8_t>() % model_.spaces().size());
          op_.offset = input_.ConsumeIntegral<uint32_t>() % model_.spaces()[op_.space].size;
        } else {  // near a register: lanes, neighbours, spans
          const emulator::RegisterModel& r = model_.registers()[PickRegister()];
          op_.space = r.space;
          // r.offset - 16 ... r.offset + 15
          uint64_t shift = input_.ConsumeIntegral<uint8_t>() % 32;
          op_.offset = r.offset + shift < 16 ? 0 : r.offset + shift - 16;
        }
        if (op_.kind == OpKind::kWrite) op_.value = input_.ConsumeIntegral<uint64_t>() & WidthMask(op_.width);
        return true;
      }
      case OpKind::kStep: {
        uint64_t ns = input_.ConsumeIntegralInRange<uint64_t>(1, kMaxStepNs);
        op_.value = std::min(ns, kMaxInputNs - time_used_);
        time_used_ += op_.value;
        return op_.value != 0;
      }
      case OpKind::kInject:
        if (h_.injects_.empty()) return false;
        op_.inject = input_.ConsumeIntegral<uint8_t>() % static_cast<uint32_t>(h_.injects_.size());
        op_.value = input_.ConsumeIntegral<uint32_t>();
        FillInjectArgs(h_.injects_[op_.inject], op_.value, h_.inject_args_);
        return true;
      case OpKind::kReset:
      case OpKind::kSnapshot: return true;
      case OpKind::kRestore: return has_snapshot_;
    }
    return false;
  }

  RegisterId PickRegister() {
    return h_.registers_[input_.ConsumeIntegral<uint16_t>() % h_.registers_.size()];
  }

  // ----------------------------------------------------------- execution

  void Execute() {
    switch (op_.kind) {
      case OpKind::kReadRegister:
      case OpKind::kRead: ExecuteRead(); return;
      case OpKind::kWriteRegister:
      case OpKind::kWrite: ExecuteWrite(); return;
      case OpKind::kPeek: {
        uint64_t value = device_.Peek(op_.space, op_.offset, op_.width);
        if (reference_.Tracks(op_.reg) && value != reference_.Value(op_.reg)) {
          Fail("peek returned " + Hex(value) + ", the model holds " + Hex(reference_.Value(op_.reg)));
        }
        return;
      }
      case OpKind::kPoke:
        device_.Poke(op_.space, op_.offset, op_.width, op_.value);
        if (reference_.Tracks(op_.reg)) reference_.Poke(op_.reg, op_.value);
        CheckTracked(op_.reg);
        return;
      case OpKind::kStep: device_.Advance(op_.value); return;
      case OpKind::kInject: {
        std::string why = device_.Inject(h_.injects_[op_.inject].verb, h_.inject_args_);
        if (!why.empty()) Fail("the device refused an inject its menu accepted: " + why);
        return;
      }
      case OpKind::kReset:
        device_.Reset();
        reference_.Reset();
        return;
      case OpKind::kSnapshot:
        device_.Snapshot(h_.snapshot_);
        device_.PeekRegisters(h_.snapshot_values_);
        h_.snapshot_reference_ = reference_.state();
        has_snapshot_ = true;
        return;
      case OpKind::kRestore: {
        device_.Restore(h_.snapshot_);
        reference_.set_state(h_.snapshot_reference_);
        device_.PeekRegisters(h_.device_values_);
        auto [now, then] = std::mismatch(h_.device_values_.begin(), h_.device_values_.end(), h_.snapshot_values_.begin());
        if (now != h_.device_values_.end()) {
          RegisterId id = static_cast<RegisterId>(now - h_.device_values_.begin());
          Fail("after restore, " + model_.registers()[id].name + " is " + Hex(*now) + " but was " + Hex(*then) +
               " when the snapshot was taken");
        }
        return;
      }
    }
  }

  // The register the model predicts this access of, or kNoRegister: a
  // whole-register access of a tracked register at a width its space allows.
  RegisterId Predicted() const {
    RegisterId reg = model_.Decode(op_.space, op_.offset);
    if (reg == emulator::kNoRegister || !reference_.Tracks(reg)) return emulator::kNoRegister;
    const emulator::RegisterModel& r = model_.registers()[reg];
    if (r.offset != op_.offset || r.width != op_.width || !model_.spaces()[op_.space].widths.Contains(op_.width)) {
      return emulator::kNoRegister;
    }
    return reg;
  }

  // Every register the access may reach: those at each of its bytes, and
  // through an alias window, those at the bytes it maps to.
  Touched TouchedRegisters() const {
    Touched touched;
    const emulator::SpaceModel& space = model_.spaces()[op_.space];
    uint64_t extent = space.indexed ? 1 : op_.width / 8;
    const emulator::RangeModel* window = nullptr;
    if (const emulator::RangeModel* range = space.RangeAt(op_.offset);
        range != nullptr && range->kind == regdb::RangeKind::kAlias) {
      window = range;
    }
    for (uint64_t b = 0; b < extent; ++b) {
      AddAt(touched, model_.Decode(op_.space, op_.offset + b));
      if (window != nullptr && window->Contains(op_.offset + b)) {
        AddAt(touched, model_.Decode(window->target_space, window->TargetOffset(op_.offset + b)));
      }
    }
    return touched;
  }

  // The register at a place and, when registers are banked there (split
  // RBR/THR, DLAB's DLL), every one of them: which one an access reaches
  // depends on the state.
  void AddAt(Touched& touched, RegisterId reg) const {
    touched.Add(reg);
    if (reg == emulator::kNoRegister || !model_.registers()[reg].has(emulator::RegisterModel::kBanked)) return;
    for (const emulator::DecodeBank::Member& member : model_.banks()[model_.registers()[reg].bank].members) {
      touched.Add(member.reg);
    }
  }

  bool Refused() const {
    return (h_.last_entry_.outcome == emulator::TraceOutcome::kViolation ||
            h_.last_entry_.outcome == emulator::TraceOutcome::kDropped) &&
           (h_.last_entry_.violation_kinds & kRefusalKinds) != 0;
  }

  void ExecuteRead() {
    RegisterId predicted_reg = Predicted();
    Touched touched = TouchedRegisters();
    uint64_t value = device_.Read(op_.space, op_.offset, op_.width);
    if (predicted_reg != emulator::kNoRegister && !Refused()) {
      uint64_t predicted = reference_.Read(predicted_reg);
      if (script_) Line(ReadLine(predicted));
      if (value != predicted) {
        Fail("the read returned " + Hex(value) + ", the model predicts " + Hex(predicted), script_line_);
        return;
      }
    } else {
      if (script_) Line(ReadLine(std::nullopt));
      // A lane, a span or a window: the model does not predict it, so it
      // takes what the read left (read-clear bits) from the device.
      if (!Refused()) Resync(touched, false);
    }
    for (size_t i = 0; i < touched.count && !failure_; ++i) CheckTracked(touched.regs[i]);
  }

  void ExecuteWrite() {
    RegisterId predicted_reg = Predicted();
    Touched touched = TouchedRegisters();
    std::array<uint64_t, kMaxTouched> before{};
    for (size_t i = 0; i < touched.count; ++i) before[i] = device_.PeekRegister(touched.regs[i]);
    device_.Write(op_.space, op_.offset, op_.width, op_.value);
    bool refused = Refused();
    for (size_t i = 0; i < touched.count; ++i) {
      RegisterId reg = touched.regs[i];
      uint64_t changed = (before[i] ^ device_.PeekRegister(reg)) & reference_.WriteProofBits(reg);
      if (changed != 0 && reference_.Tracks(reg)) {
        Fail("the write changed bits " + Hex(changed) + " of " + model_.registers()[reg].name +
             ", which no write may change (their policy ignores writes, or they are a masked register's enables)");
        ExpectLine(reg);
        return;
      }
    }
    if (refused) {
      // Nothing changes: the checks below make sure of it.
    } else if (predicted_reg != emulator::kNoRegister && reference_.PredictsWrites(predicted_reg)) {
      reference_.Write(predicted_reg, op_.value);
    } else {
      // A lane, a span or a window (or a write-once register after one):
      // the model takes the result from the device instead of predicting it.
      Resync(touched, true);
    }
    for (size_t i = 0; i < touched.count && !failure_; ++i) CheckTracked(touched.regs[i]);
  }

  void Resync(const Touched& touched, bool written) {
    for (size_t i = 0; i < touched.count; ++i) {
      RegisterId reg = touched.regs[i];
      if (reference_.Tracks(reg)) reference_.Resync(reg, device_.PeekRegister(reg), written);
    }
  }

  // ------------------------------------------------------------- checks

  void CheckTracked(RegisterId reg) {
    if (!reference_.Tracks(reg)) return;
    uint64_t value = device_.PeekRegister(reg);
    if (value == reference_.Value(reg)) return;
    Fail(model_.registers()[reg].name + " holds " + Hex(value) + ", the model " + Hex(reference_.Value(reg)));
    ExpectLine(reg);
  }

  void CheckAllTracked(const char* which) {
    if (failure_) return;
    device_.PeekRegisters(h_.device_values_);
    RegisterId reg = reference_.FirstDisagreement(h_.device_values_);
    if (reg == emulator::kNoRegister) return;
    std::string since = h_.full_check_period_ == 1 ? "" : " or an operation since the last full check";
    Fail(std::string(which) + " (the register changed other than by a whole-register access the model predicts: this " +
         "operation" + since + " reached it by a step, an inject, a write elsewhere or a behaviour): " +
         model_.registers()[reg].name + " holds " + Hex(h_.device_values_[reg]) + ", the model " +
         Hex(reference_.Value(reg)));
    ExpectLine(reg);
  }

  void Fail(std::string message, uint32_t script_line = 0) {
    if (failure_) return;
    failure_ = InvariantFailure{index_, OpLine(), std::move(message), script_line};
  }

  // ------------------------------------------------------------- script

  void WriteHeader() {
    *script_ += "# access_fuzz reproducer (tests/fuzz/access_fuzz.cpp), database " + h_.setup_.name + ":\n";
    *script_ += "#   regemu run --lenient " + h_.setup_.yaml_path + " THIS_FILE\n";
    *script_ += "# A read the reference model predicts is an `expect` of the model's value.\n";
    *script_ += "# Bring-up, before the fuzzer's pristine snapshot:\n";
    *script_ += h_.setup_.bring_up;
    if (!h_.setup_.bring_up.empty() && h_.setup_.bring_up.back() != '\n') *script_ += "\n";
    *script_ += "# Operations:\n";
    script_line_ = static_cast<uint32_t>(std::count(script_->text().begin(), script_->text().end(), '\n'));
  }

  void Line(const std::string& line) {
    *script_ += line;
    *script_ += "  # op " + std::to_string(index_) + "\n";
    ++script_line_;
  }

  // After a state check failed: a last read of the register, expecting the
  // model's readable bits, so that replaying fails here too. (Its read
  // effects do not matter: nothing runs after it.) Bits a read cannot show
  // get a peek, printed for whoever compares by hand.
  void ExpectLine(RegisterId reg) {
    if (!script_ || !reference_.Tracks(reg)) return;
    const emulator::RegisterModel& r = model_.registers()[reg];
    uint64_t readable = reference_.ReadableBits(reg);
    uint64_t device_value = device_.PeekRegister(reg);
    std::string width = std::to_string(r.width);
    if (((device_value ^ reference_.Value(reg)) & readable) != 0) {
      *script_ += "expect" + width + " " + TargetText(r.space, r.offset, r.width) + " " +
                  regdb::HexPadded(reference_.Value(reg) & readable, r.width) + " mask " +
                  regdb::HexPadded(readable, r.width) + "  # the model's value: " + failure_->message + "\n";
      failure_->script_line = ++script_line_;
    } else {
      *script_ += "peek" + width + " " + TargetText(r.space, r.offset, r.width) + "  # the model holds " +
                  regdb::HexPadded(reference_.Value(reg), r.width) + " (not readable): " + failure_->message + "\n";
      ++script_line_;
    }
  }

  // `REGISTER` where the register starts here and is this wide or wider, else `SPACE OFFSET`.
  std::string TargetText(SpaceId space, uint64_t offset, unsigned width) const {
    RegisterId reg = model_.Decode(space, offset);
    if (reg != emulator::kNoRegister) {
      const emulator::RegisterModel& r = model_.registers()[reg];
      if (r.offset == offset && r.width >= width && !model_.FindSpace(r.name)) return r.name;
    }
    return model_.spaces()[space].name + " " + regdb::Hex(offset);
  }

  std::string ReadLine(std::optional<uint64_t> predicted) const {
    std::string width = std::to_string(op_.width);
    std::string target = TargetText(op_.space, op_.offset, op_.width);
    if (predicted) return "expect" + width + " " + target + " " + regdb::HexPadded(*predicted, op_.width);
    return "read" + width + " " + target;
  }

  // The operation as a script line (a read as the reproducer has it when the model does not predict it).
  std::string OpLine() const {
    std::string width = std::to_string(op_.width);
    switch (op_.kind) {
      case OpKind::kReadRegister:
      case OpKind::kRead: return ReadLine(std::nullopt);
      case OpKind::kWriteRegister:
      case OpKind::kWrite:
        return "write" + width + " " + TargetText(op_.space, op_.offset, op_.width) + " " +
               regdb::HexPadded(op_.value, op_.width);
      case OpKind::kPeek: return "peek" + width + " " + TargetText(op_.space, op_.offset, op_.width);
      case OpKind::kPoke:
        return "poke" + width + " " + TargetText(op_.space, op_.offset, op_.width) + " " +
               regdb::HexPadded(op_.value, op_.width);
      case OpKind::kStep: return "step " + std::to_string(op_.value) + "ns";
      case OpKind::kInject: {
        std::string line = "inject " + h_.injects_[op_.inject].verb;
        for (const std::string& arg : h_.inject_args_) line += " " + arg;
        return line;
      }
      case OpKind::kReset: return "reset";
      case OpKind::kSnapshot: return "snapshot";
      case OpKind::kRestore: return "restore";
    }
    return "";
  }

  static std::string Hex(uint64_t value) { return regdb::Hex(value); }

  AccessHarness& h_;
  const emulator::Model& model_;
  emulator::Device& device_;
  ReferenceModel& reference_;
  FuzzedDataProvider input_;
  ScriptWriter* script_;
  uint32_t script_line_ = 0;  // lines written so far
  Op op_;
  size_t index_ = 0;
  uint64_t time_used_ = 0;
  bool has_snapshot_ = false;
  std::optional<InvariantFailure> failure_;
};

AccessHarness::AccessHarness(HarnessSetup setup) : setup_(std::move(setup)), reference_(*setup_.database, *setup_.model) {
  emulator::DeviceOptions options;
  options.policy = emulator::ViolationPolicy::Lenient();
  options.thread_safe = false;
  options.trace_capacity = 64;
  // The checks read violations off the trace (TraceEntry::violation_kinds);
  // keeping each violation, with the accesses before it, would cost more
  // than the access (random operations break rules at most steps).
  options.max_violations = 0;
  options.violation_context = 0;
  options.on_trace = [this](const emulator::TraceEntry& entry) { OnTrace(entry); };
  device_ = std::make_unique<emulator::Device>(setup_.model, options);

  emulator::Script bring_up = emulator::ParseScript(setup_.bring_up, setup_.name + " bring-up", *setup_.model);
  if (!bring_up.ok()) SetupFailed(setup_.name, bring_up.FormatErrors());
  emulator::RunResult run = emulator::RunScript(bring_up, *device_, {.policy = emulator::ViolationPolicy::Lenient()});
  // violation_count(): the device keeps no violation (max_violations 0) but counts them all.
  if (!run.passed() || device_->violation_count() != 0) {
    SetupFailed(setup_.name, "the bring-up script does not run cleanly");
  }
  for (RegisterId reg : reference_.tracked()) {
    if (device_->PeekRegister(reg) != reference_.Value(reg)) {
      SetupFailed(setup_.name, "after bring-up, " + setup_.model->registers()[reg].name +
                                   " is not its reset value: the bring-up must not touch tracked registers");
    }
  }
  pristine_ = device_->Snapshot();
  pristine_reference_ = reference_.state();
  injects_ = BuildInjectMenu(*device_);
  device_->Restore(pristine_);
  for (RegisterId id = 0; id < setup_.model->registers().size(); ++id) registers_.push_back(id);
  if (registers_.empty()) SetupFailed(setup_.name, "the database has no registers");
  snapshot_values_.resize(registers_.size());
  device_values_.resize(registers_.size());
  device_->Snapshot(snapshot_);  // its storage, reused by every snapshot operation
  full_check_period_ = std::max<size_t>(1, registers_.size() / kFullCheckRegisters);
}

void AccessHarness::OverridePolicyForTest(emulator::RegisterId reg, uint64_t bits, regdb::Access policy) {
  reference_.OverridePolicyForTest(reg, bits, policy);
}

void AccessHarness::OnTrace(const emulator::TraceEntry& entry) {
  if (entry.sequence <= last_sequence_) sequence_went_back_ = true;
  last_sequence_ = entry.sequence;
  last_entry_ = entry;
}

std::optional<InvariantFailure> AccessHarness::Run(const uint8_t* data, size_t size, ScriptWriter* script) {
  return Execution(*this, data, size, script).Run();
}

}  // namespace regemu::fuzz
