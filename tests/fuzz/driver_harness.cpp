#include "tests/fuzz/driver_harness.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>

#include "regemu/emulator/trace.hpp"
#include "examples/i915_mini/driver.hpp"
#include "examples/i915_mini/icl_interrupt_sources.hpp"
#include "examples/i915_mini/pci_regs.hpp"
#include "regemu/fakes/mmio_bus.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::fuzz {
namespace {

// PCI STATUS error bits the hardware sets and software clears by writing 1
// (PCI Local Bus 3.0, 6.2.3): master data parity error, signaled target
// abort, received target abort, received master abort, signaled system
// error, detected parity error. Firmware may leave any of them set.
constexpr std::array<uint16_t, 6> kStatusErrorBits{1u << 8, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15};

// The Gen11 interrupt behaviour's inject verb (yaml/icl: the behaviour named `irq`).
constexpr std::string_view kIrqVerb = "irq";

struct Event {
  uint64_t at_access = 0;  // fires just before the driver's access with this index
  bool latency_change = false;
  uint8_t source = 0;  // kIclInterruptSources index
  uint16_t data = 0;
  uint64_t latency_ns = 0;
};

// Thrown from inside the driver's call stack to end the run where it failed.
struct StopRun {};

[[noreturn]] void SetupFailed(const std::string& why) {
  std::fprintf(stderr, "driver_fuzz: %s\n", why.c_str());
  std::abort();
}

}  // namespace

// One input's run.
class DriverHarness::Execution {
 public:
  Execution(DriverHarness& harness, const uint8_t* data, size_t size, i915_mini::Bugs bugs)
      : h_(harness), device_(*harness.device_), input_(data, size), bugs_(bugs),
        config_(*this, SpaceOf("config")), mmio_(*this, SpaceOf("mmio")) {}

  std::optional<DriverFailure> Run() {
    Decode();
    device_.Restore(h_.pristine_);
    device_.ClearViolations();
    Comment("driver_fuzz reproducer (tests/fuzz/driver_fuzz.cpp): regemu run " + h_.yaml_path_ + " THIS_FILE");
    Comment("firmware: memory decode and bus mastering, pending PCI errors, force-wake ack latency");
    try {
      if (firmware_command_ != 0) device_.Write(config_.space(), i915_mini::pci::kCommand, 16, firmware_command_);
      if (status_errors_ != 0) device_.Poke(config_.space(), i915_mini::pci::kStatus, 16, status_errors_);
      Inject("forcewake-latency", {std::to_string(forcewake_latency_ns_)});
      CheckViolations();

      i915_mini::DriverOptions options;
      options.bugs = bugs_;
      options.on_step = [this](std::string_view step) { Comment("driver: " + std::string(step)); };
      i915_mini::I915Mini driver(config_, mmio_, [this](uint64_t ns) { Delay(ns); }, std::move(options));
      driver.Probe();
      driver.InitEngines();
      driver.InstallIrq();
      for (uint64_t gap : gaps_) {
        Delay(gap);
        driver.HandleIrq();
      }
      driver.ReadFrequencies();
    } catch (const StopRun&) {
      return failure_;
    }
    return std::nullopt;
  }

 private:
  // The driver's view of one space: each access first lets the hardware
  // side act (due events), then runs, then ends the run at a violation.
  class Bus : public fakes::MmioBus {
   public:
    Bus(Execution& execution, emulator::SpaceId space) : e_(execution), space_(space) {}
    emulator::SpaceId space() const { return space_; }
    uint64_t Read(uint64_t offset, unsigned width) override {
      e_.BeforeAccess();
      uint64_t value = e_.device_.Read(space_, offset, width);
      e_.CheckViolations();
      return value;
    }
    void Write(uint64_t offset, unsigned width, uint64_t value) override {
      e_.BeforeAccess();
      e_.device_.Write(space_, offset, width, value);
      e_.CheckViolations();
    }

   private:
    Execution& e_;
    emulator::SpaceId space_;
  };

  emulator::SpaceId SpaceOf(const char* name) const {
    auto space = device_.model().FindSpace(name);
    if (!space) SetupFailed(std::string("the model has no space '") + name + "'");
    return *space;
  }

  void Decode() {
    // What firmware leaves: bits 5:0 pending errors, bit 6 memory decode
    // left off, bit 7 bus mastering left off (the PCI core turns on what
    // is off; a BIOS usually leaves a boot GPU's decode on).
    uint8_t firmware = input_.ConsumeIntegral<uint8_t>();
    for (size_t i = 0; i < kStatusErrorBits.size(); ++i) {
      if ((firmware >> i) & 1) status_errors_ |= kStatusErrorBits[i];
    }
    if ((firmware & 0x40) == 0) firmware_command_ |= i915_mini::pci::kCommandMemory;
    if ((firmware & 0x80) == 0) firmware_command_ |= i915_mini::pci::kCommandMaster;
    forcewake_latency_ns_ = input_.ConsumeIntegralInRange<uint64_t>(0, kMaxForcewakeLatencyNs);
    size_t runs = input_.ConsumeIntegralInRange<size_t>(1, kMaxHandlerRuns);
    for (size_t i = 0; i < runs; ++i) gaps_.push_back(input_.ConsumeIntegralInRange<uint64_t>(0, kMaxGapNs));
    size_t count = input_.ConsumeIntegralInRange<size_t>(0, kMaxEvents);
    uint64_t at = 0;
    for (size_t i = 0; i < count && input_.remaining_bytes() > 0; ++i) {
      Event event;
      at += input_.ConsumeIntegral<uint8_t>();
      event.at_access = at;
      uint8_t kind = input_.ConsumeIntegral<uint8_t>();
      event.latency_change = kind >= 240;  // one in sixteen
      if (event.latency_change) {
        event.latency_ns = input_.ConsumeIntegralInRange<uint64_t>(0, kMaxForcewakeLatencyNs);
      } else {
        event.source = static_cast<uint8_t>(kind % std::size(i915_mini::kIclInterruptSources));
        event.data = input_.ConsumeIntegral<uint16_t>();
      }
      events_.push_back(event);
    }
  }

  void BeforeAccess() {
    if (accesses_ >= kMaxAccesses) {
      Fail("the driver made " + std::to_string(kMaxAccesses) + " accesses without finishing: a hang");
    }
    while (next_event_ < events_.size() && events_[next_event_].at_access <= accesses_) {
      const Event& event = events_[next_event_++];
      if (event.latency_change) {
        Inject("forcewake-latency", {std::to_string(event.latency_ns)});
      } else {
        const i915_mini::InterruptSource& source = i915_mini::kIclInterruptSources[event.source];
        Inject(std::string(kIrqVerb), {std::string(source.name), regdb::Hex(event.data)});
      }
    }
    ++accesses_;
  }

  void Delay(uint64_t ns) {
    if (ns == 0) return;
    device_.Advance(ns);
  }

  void Inject(const std::string& verb, std::vector<std::string> args) {
    if (h_.script_ != nullptr) {
      std::string line = "inject " + verb;
      for (const std::string& arg : args) line += " " + arg;
      *h_.script_ += line + "\n";
    }
    std::string why = device_.Inject(verb, args);
    if (!why.empty()) SetupFailed("the device refused `inject " + verb + "`: " + why);
  }

  void CheckViolations() {
    if (device_.violation_count() == 0) return;
    std::vector<emulator::Violation> violations = device_.violations();
    Fail(violations.empty() ? "a violation" : violations.front().Describe(device_.model()));
  }

  [[noreturn]] void Fail(std::string message) {
    failure_ = DriverFailure{std::move(message), accesses_ == 0 ? 0 : accesses_ - 1};
    throw StopRun{};
  }

  void Comment(const std::string& text) {
    if (h_.script_ != nullptr) *h_.script_ += "# " + text + "\n";
  }

  DriverHarness& h_;
  emulator::Device& device_;
  FuzzedDataProvider input_;
  i915_mini::Bugs bugs_;
  Bus config_;
  Bus mmio_;

  uint16_t firmware_command_ = 0;  // COMMAND as firmware leaves it
  uint16_t status_errors_ = 0;
  uint64_t forcewake_latency_ns_ = 0;
  std::vector<uint64_t> gaps_;
  std::vector<Event> events_;
  size_t next_event_ = 0;
  uint64_t accesses_ = 0;
  std::optional<DriverFailure> failure_;
};

DriverHarness::DriverHarness(std::shared_ptr<const emulator::Model> model, std::string yaml_path)
    : model_(std::move(model)), yaml_path_(std::move(yaml_path)) {
  emulator::DeviceOptions options;
  options.policy = emulator::ViolationPolicy::Lenient();
  options.thread_safe = false;
  options.trace_capacity = 64;
  // The reproducer is the device's own trace, rendered as script lines as
  // each access, poke and step happens.
  options.on_trace = [this](const emulator::TraceEntry& entry) {
    if (script_ == nullptr) return;
    std::string line = emulator::RenderTraceEntry(*model_, entry);
    // A trace announces its violations (`expect-violation`) so that
    // replaying it passes; a reproducer must stop at the violation instead.
    while (line.starts_with("expect-violation ")) line.erase(0, line.find('\n') + 1);
    *script_ += line + "\n";
  };
  device_ = std::make_unique<emulator::Device>(model_, options);
  for (const char* space : {"config", "mmio"}) {
    if (!model_->FindSpace(space)) SetupFailed(std::string("the model has no space '") + space + "': not yaml/icl?");
  }
  pristine_ = device_->Snapshot();
}

DriverHarness::~DriverHarness() = default;

std::optional<DriverFailure> DriverHarness::Run(const uint8_t* data, size_t size, i915_mini::Bugs bugs,
                                                ScriptWriter* script) {
  script_ = script;
  std::optional<DriverFailure> failure = Execution(*this, data, size, bugs).Run();
  script_ = nullptr;
  return failure;
}

}  // namespace regemu::fuzz
