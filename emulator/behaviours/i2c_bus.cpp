// `kind: i2c-bus`: an I2C bus a controller masters and the register-pointer
// targets that answer on it (yaml/README.md, "kind: i2c-bus"). Command
// entries arrive from the controller's command FIFO as it drains (a fifo
// route `to: [{bus: NAME}]`, `inject NAME push VALUE`), each at the end of
// its byte time on the bus; the bus opens a transfer with a START (or a
// repeated START) addressing the target, moves the byte, and closes with a
// STOP when the entry asks. Read bytes go to the receive FIFO as pushes.
// It tells the rest of the device what happened on the wire by signals
// (`NAME.start`, `NAME.nack`, `NAME.stop`), which reactions and fifo clears
// take, and keeps its `active` fields at 1 while a transfer holds the bus.
#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/behaviours/register_env.hpp"
#include "regemu/regdb/behaviour_configs/i2c_bus.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

using regdb::I2cBusConfig;
using regdb::I2cTarget;

// Coverage points, in CoveragePoints() order.
constexpr uint32_t kStarted = 0, kNacked = 1, kWritten = 2, kRead = 3, kStopped = 4;
// A 7-bit address on the wire.
constexpr uint64_t kAddressMask = 0x7F;

class I2cBusProgram : public BehaviourProgram {
 public:
  I2cBusProgram(std::string name, const I2cBusConfig& config)
      : BehaviourProgram("i2c-bus", std::move(name)), config_(config) {
    if (config_.enabled) AddOperandRegisters(*config_.enabled, enable_hooks_);
  }

  const I2cBusConfig& config() const { return config_; }
  std::vector<RegisterId> WriteHooks() const override { return enable_hooks_; }
  std::vector<CoveragePoint> CoveragePoints() const override {
    return {{"transfers", "started"}, {"transfers", "not acknowledged"}, {"bytes", "written"},
            {"bytes", "read"},        {"transfers", "stopped"}};
  }
  std::vector<InjectForm> InjectForms() const override {
    std::vector<std::string> targets;
    for (const auto& target : config_.targets) targets.push_back(target.name);
    std::vector<InjectForm> forms{{name(),
                                   {InjectArgument::Word("push"), InjectArgument::Number("COMMAND")},
                                   0, 0,
                                   "one command entry onto the bus, as the controller's command FIFO drains it"}};
    if (!targets.empty()) {
      forms.push_back({name(),
                       {InjectArgument::Word("load"),
                        InjectArgument::Choice("TARGET", targets),
                        InjectArgument::Number("OFFSET"),
                        InjectArgument::Number("BYTES", 0, 0xFF)},
                       3, 1, "fills a target's memory from OFFSET, as a programmer would before power-up"});
    }
    return forms;
  }
  std::unique_ptr<Behaviour> Instantiate() const override;

 private:
  I2cBusConfig config_;
  std::vector<RegisterId> enable_hooks_;  // registers `enabled` reads
};

// One target's memory and where its pointer stands.
struct TargetState {
  std::vector<uint8_t> memory;
  uint32_t pointer = 0;
};

class I2cBusBehaviour : public CopyableBehaviour<I2cBusBehaviour> {
 public:
  explicit I2cBusBehaviour(const I2cBusProgram& program) : program_(&program) {}

  void OnReset(BehaviourContext& context) override {
    targets_.clear();
    for (const I2cTarget& target : program_->config().targets) {
      TargetState state;
      state.memory.assign(target.size, 0xFF);  // erased EEPROM cells read all ones
      std::copy(target.contents.begin(), target.contents.end(), state.memory.begin());
      targets_.push_back(std::move(state));
    }
    open_ = false;
    SetActive(context, false);
  }

  // The controller disabled mid-transfer: the master lets the bus go.
  void AfterWrite(BehaviourContext& context, RegisterId, uint64_t, uint64_t) override {
    if (open_ && !Enabled(context)) Stop(context);
  }
  void OnStore(BehaviourContext& context, RegisterId, uint64_t, uint64_t) override {
    if (open_ && !Enabled(context)) Stop(context);
  }

  InjectResult Inject(BehaviourContext& context, std::string_view verb, std::span<const std::string> args,
                      std::string& error) override {
    if (verb != program_->name()) return InjectResult::kNotMine;
    if (args.size() == 2 && args[0] == "push") {
      auto value = Number(args[1], error);
      if (!value) return Usage(error);
      Command(context, *value);
      return InjectResult::kDone;
    }
    if (args.size() >= 3 && args[0] == "load") return Load(args.subspan(1), error);
    error = "expected 'push COMMAND' or 'load TARGET OFFSET BYTES...'";
    return Usage(error);
  }

 private:
  InjectResult Usage(std::string& error) const {
    error += "; usage: inject " + program_->name() + " push COMMAND | inject " + program_->name() +
             " load TARGET OFFSET BYTES...";
    return InjectResult::kBadArguments;
  }

  static std::optional<uint64_t> Number(const std::string& text, std::string& error) {
    auto parsed = regdb::ParseUnsigned(text);
    if (auto* bad = std::get_if<regdb::NumberError>(&parsed)) {
      error = "bad number '" + text + "': " + bad->message;
      return std::nullopt;
    }
    return std::get<uint64_t>(parsed);
  }

  // `inject NAME load TARGET OFFSET BYTES...`: a test fills a target's
  // memory, as a programmer would before the board is powered.
  InjectResult Load(std::span<const std::string> args, std::string& error) {
    const auto& targets = program_->config().targets;
    size_t index = 0;
    while (index < targets.size() && targets[index].name != args[0]) ++index;
    if (index == targets.size()) {
      error = "no target '" + args[0] + "' on bus '" + program_->name() + "'";
      return Usage(error);
    }
    auto offset = Number(args[1], error);
    if (!offset) return Usage(error);
    std::vector<uint8_t>& memory = targets_[index].memory;
    if (*offset >= memory.size() || args.size() - 2 > memory.size() - *offset) {
      error = "target '" + args[0] + "' holds " + std::to_string(memory.size()) + " bytes";
      return Usage(error);
    }
    for (size_t i = 2; i < args.size(); ++i) {
      auto byte = Number(args[i], error);
      if (!byte || *byte > 0xFF) {
        if (byte) error = "'" + args[i] + "' is not a byte";
        return Usage(error);
      }
      memory[*offset + i - 2] = static_cast<uint8_t>(*byte);
    }
    return InjectResult::kDone;
  }

  bool Enabled(BehaviourContext& context) const {
    const auto& enabled = program_->config().enabled;
    return !enabled || enabled->Evaluate(RegisterEnv(context)) != 0;
  }

  // One command entry, at the end of its byte time on the bus.
  void Command(BehaviourContext& context, uint64_t entry) {
    const I2cBusConfig& config = program_->config();
    if (!Enabled(context)) return;  // a disabled master sends nothing
    bool read = config.read.Get(entry) != 0;
    bool restart = config.restart.mask != 0 && config.restart.Get(entry) != 0;
    // A new address phase: the bus is free, the entry asks for a repeated
    // START, or the direction changes (which I2C allows only after one).
    if (!open_ || restart || read != reading_) {
      if (!Start(context, read)) return;
    }
    TargetState& target = targets_[target_];
    const I2cTarget& shape = config.targets[target_];
    if (read) {
      uint8_t byte = target.memory[target.pointer];
      target.pointer = (target.pointer + 1) % shape.size;  // sequential reads roll over
      context.Cover(kRead);
      std::string args[2] = {"push", regdb::Hex(byte)};
      context.Signal(config.receive, args);
    } else {
      Write(target, shape, static_cast<uint8_t>(config.data.Get(entry)));
      context.Cover(kWritten);
    }
    if (config.stop.Get(entry) != 0) Stop(context);
  }

  // START + address: false when no target acknowledges (the transfer ends).
  bool Start(BehaviourContext& context, bool read) {
    const I2cBusConfig& config = program_->config();
    uint64_t address = config.address.Evaluate(RegisterEnv(context)) & kAddressMask;
    context.Cover(kStarted);
    std::string args[1] = {regdb::Hex(address)};
    context.Signal(program_->name() + ".start", args);
    size_t index = 0;
    while (index < config.targets.size() && config.targets[index].address != address) ++index;
    if (index == config.targets.size()) {
      // Nobody pulls SDA low in the ACK slot: the master gives up with a STOP.
      context.Cover(kNacked);
      context.Signal(program_->name() + ".nack", args);
      Stop(context);
      return false;
    }
    open_ = true;
    SetActive(context, true);
    target_ = index;
    reading_ = read;
    pointer_bytes_seen_ = 0;
    return true;
  }

  // A written byte: the word address first, then data stored at the
  // pointer, which advances inside its page (page writes wrap).
  void Write(TargetState& target, const I2cTarget& shape, uint8_t byte) {
    if (pointer_bytes_seen_ < shape.pointer_bytes) {
      pending_pointer_ = (pointer_bytes_seen_ == 0 ? 0 : pending_pointer_ << 8) | byte;
      if (++pointer_bytes_seen_ == shape.pointer_bytes) target.pointer = pending_pointer_ % shape.size;
      return;
    }
    target.memory[target.pointer] = byte;
    if (shape.page == 0) {
      target.pointer = (target.pointer + 1) % shape.size;
    } else {
      uint32_t page_start = target.pointer - target.pointer % shape.page;
      target.pointer = page_start + (target.pointer + 1 - page_start) % shape.page;
    }
  }

  void Stop(BehaviourContext& context) {
    open_ = false;
    SetActive(context, false);
    context.Cover(kStopped);
    context.Signal(program_->name() + ".stop");
  }

  void SetActive(BehaviourContext& context, bool active) {
    for (const regdb::RegisterBits& bits : program_->config().active) {
      uint64_t before = context.Peek(bits.reg);
      uint64_t after = active ? before | bits.bits.mask : before & ~bits.bits.mask;
      if (after != before) context.Store(bits.reg, after);
    }
  }

  const I2cBusProgram* program_;
  std::vector<TargetState> targets_;
  bool open_ = false;     // a transfer holds the bus (between START and STOP)
  bool reading_ = false;  // its direction
  size_t target_ = 0;     // the target it addressed
  unsigned pointer_bytes_seen_ = 0;
  uint32_t pending_pointer_ = 0;
};

std::unique_ptr<Behaviour> I2cBusProgram::Instantiate() const { return std::make_unique<I2cBusBehaviour>(*this); }

}  // namespace

std::unique_ptr<BehaviourProgram> CompileI2cBus(const regdb::BehaviourSpec& spec, const Model&, std::string& error) {
  const I2cBusConfig* config = ConfigOf<I2cBusConfig>(spec, error);
  if (!config) return nullptr;
  return std::make_unique<I2cBusProgram>(spec.name, *config);
}

}  // namespace regemu::emulator
