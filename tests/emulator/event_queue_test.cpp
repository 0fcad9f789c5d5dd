// The device's event queue (BehaviourContext::Schedule, Behaviour::OnTimer)
// and the extension point that let a test binary add a behaviour kind
// (emulator/behaviour_registry.hpp): a kind defined here, outside regemu,
// schedules timers from its writes.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/behaviour_registry.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;

// `kind: test-timer`: a write of N to `register` schedules N ns later an
// event that appends its tag (the value written) to LOG's low byte history,
// kept in the behaviour; a write of 0 cancels the last one scheduled.
struct TestTimerConfig : regdb::BehaviourConfig {
  regdb::RegisterIndex reg = 0;
  regdb::RegisterIndex log = 0;
};

class TestTimerBehaviour : public CopyableBehaviour<TestTimerBehaviour> {
 public:
  explicit TestTimerBehaviour(const TestTimerConfig& config) : config_(config) {}
  void OnReset(BehaviourContext&) override { last_ = 0; }
  void AfterWrite(BehaviourContext& context, RegisterId, uint64_t, uint64_t after) override {
    if (after == 0) {
      context.Cancel(last_);
      return;
    }
    last_ = context.Schedule(after, after);
  }
  void OnTimer(BehaviourContext& context, uint64_t tag) override {
    // LOG shifts in the tag's low byte; its time is what the clock says now.
    context.Poke(config_.log, (context.Peek(config_.log) << 8) | (tag & 0xFF));
    fired_at_.push_back(context.now_ns());
  }
  std::vector<uint64_t> fired_at_;

 private:
  TestTimerConfig config_;
  uint64_t last_ = 0;
};

class TestTimerProgram : public BehaviourProgram {
 public:
  TestTimerProgram(std::string name, const TestTimerConfig& config)
      : BehaviourProgram("test-timer", std::move(name)), config_(config) {}
  std::vector<RegisterId> WriteHooks() const override { return {config_.reg}; }
  std::unique_ptr<Behaviour> Instantiate() const override { return std::make_unique<TestTimerBehaviour>(config_); }

 private:
  TestTimerConfig config_;
};

// Registered once per test binary, as a driver project's test would.
void RegisterTestTimer() {
  static bool done = [] {
    RegisterBehaviourKind({
        .name = "test-timer",
        .check = [](const regdb::BehaviourSpec& spec, const regdb::Database& database,
                    regdb::SchemaReader& reader) -> std::unique_ptr<regdb::BehaviourConfig> {
          static constexpr std::array<std::string_view, 4> kKeys{"kind", "name", "register", "log"};
          if (!reader.ExpectMap(spec.yaml, "a test-timer behaviour", kKeys)) return nullptr;
          auto config = std::make_unique<TestTimerConfig>();
          const regdb::Register* reg = regdb::ResolveRegisterKey(spec, "register", true, database, reader);
          const regdb::Register* log = regdb::ResolveRegisterKey(spec, "log", true, database, reader);
          if (!reg || !log) return nullptr;
          config->reg = database.IndexOf(*reg);
          config->log = database.IndexOf(*log);
          return config;
        },
        .compile = [](const regdb::BehaviourSpec& spec, const Model&,
                      std::string& error) -> std::unique_ptr<BehaviourProgram> {
          const auto* config = ConfigOf<TestTimerConfig>(spec, error);
          if (!config) return nullptr;
          return std::make_unique<TestTimerProgram>(spec.name, *config);
        },
    });
    return true;
  }();
  (void)done;
}

constexpr const char* kTimerDevice = R"y(device: timer
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: ARM, space: mmio, offset: 0x0}
  - {name: LOG, space: mmio, offset: 0x8, width: 64, access: hw}
behaviours:
  - {kind: test-timer, register: ARM, log: LOG}
)y";

class EventQueueTest : public ::testing::Test {
 protected:
  void SetUp() override { RegisterTestTimer(); }
  std::unique_ptr<Device> device_ = (RegisterTestTimer(), MakeDevice(kTimerDevice));
  RegisterId arm_ = RegisterNamed(device_->model(), "ARM");
  RegisterId log_ = RegisterNamed(device_->model(), "LOG");
};

// An event fires when the clock reaches its instant, not before.
TEST_F(EventQueueTest, FiresWhenTheClockReachesIt) {
  device_->WriteRegister(arm_, 100);
  EXPECT_EQ(device_->next_event_ns(), 100u);
  device_->Advance(99);
  EXPECT_EQ(device_->PeekRegister(log_), 0u);
  device_->Advance(1);
  EXPECT_EQ(device_->PeekRegister(log_), 100u);
  EXPECT_EQ(device_->next_event_ns(), std::nullopt);
  EXPECT_EQ(device_->pending_events(), 0u);
}

// One long step crossing several events runs them in time order, each at
// its own instant.
TEST_F(EventQueueTest, OneStepRunsEventsInTimeOrder) {
  device_->WriteRegister(arm_, 30);
  device_->WriteRegister(arm_, 10);
  device_->WriteRegister(arm_, 20);
  device_->Advance(1000);
  EXPECT_EQ(device_->PeekRegister(log_), 0x0A141Eu);  // 10, then 20, then 30
  EXPECT_EQ(device_->now_ns(), 1000u);
}

// Events due at one instant fire in the order they were scheduled.
TEST_F(EventQueueTest, SameInstantKeepsScheduleOrder) {
  device_->Advance(5);
  device_->WriteRegister(arm_, 0x0107);  // due at 5 + 0x107
  device_->Advance(0x100 - 5);
  device_->WriteRegister(arm_, 0x0C);    // due at 0x100 + 0x0C = 0x10C, the same instant
  device_->Advance(0x1000);
  EXPECT_EQ(device_->PeekRegister(log_), 0x070Cu);
}

// Cancel removes a pending event; cancelling it again is refused.
TEST_F(EventQueueTest, CancelRemovesThePendingEvent) {
  device_->WriteRegister(arm_, 50);
  device_->WriteRegister(arm_, 0);
  EXPECT_EQ(device_->pending_events(), 0u);
  device_->Advance(100);
  EXPECT_EQ(device_->PeekRegister(log_), 0u);
}

// Reset empties the queue; a snapshot keeps it, and restoring brings it back.
TEST_F(EventQueueTest, ResetEmptiesAndSnapshotKeepsTheQueue) {
  device_->WriteRegister(arm_, 40);
  DeviceSnapshot snapshot = device_->Snapshot();
  device_->Reset();
  EXPECT_EQ(device_->pending_events(), 0u);
  device_->Restore(snapshot);
  EXPECT_EQ(device_->next_event_ns(), 40u);
  device_->Advance(40);
  EXPECT_EQ(device_->PeekRegister(log_), 40u);
}

// An access's cost moves the clock too: the event fires inside it.
TEST(EventQueueCostTest, AccessCostReachesEvents) {
  RegisterTestTimer();
  DeviceOptions options;
  options.access_cost_ns = 10;
  auto device = MakeDevice(kTimerDevice, options);
  RegisterId arm = RegisterNamed(device->model(), "ARM");
  RegisterId log = RegisterNamed(device->model(), "LOG");
  device->WriteRegister(arm, 25);  // at 0, then the clock is 10
  device->ReadRegister(arm);       // 20
  EXPECT_EQ(device->PeekRegister(log), 0u);
  device->ReadRegister(arm);       // 30: fired at 25
  EXPECT_EQ(device->PeekRegister(log), 25u);
}

// A script's `step` with no duration goes to the next event exactly, and a
// poll's wait stops at an event due before its next read.
TEST_F(EventQueueTest, ScriptStepAndPollReachTheNextEvent) {
  Script script = ParseScript(R"y(write32 ARM 1234
step
expect64 LOG 0xd2
write32 ARM 77
poll64 LOG 0x4d mask 0xff timeout 1ms
)y",
                              "step.script", device_->model());
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  RunOptions options;
  RunResult result = RunScript(script, *device_, options);
  EXPECT_TRUE(result.passed()) << (result.failures.empty() ? "" : result.failures.front().message);
  EXPECT_EQ(device_->now_ns(), 1234u + 77u);  // the poll read exactly when the event fired
}

TEST_F(EventQueueTest, ScriptStepWithNothingPendingFails) {
  Script script = ParseScript("step\n", "step.script", device_->model());
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  RunResult result = RunScript(script, *device_, RunOptions{});
  ASSERT_FALSE(result.passed());
  ASSERT_FALSE(result.failures.empty());
  EXPECT_THAT(result.failures.front().message, HasSubstr("no event is pending"));
}

// The registry refuses a taken name and a name that is not a kind name.
TEST(BehaviourRegistryTest, RefusesTakenAndBadNames) {
  RegisterTestTimer();
  auto check = [](const regdb::BehaviourSpec&, const regdb::Database&,
                  regdb::SchemaReader&) -> std::unique_ptr<regdb::BehaviourConfig> { return nullptr; };
  auto compile = [](const regdb::BehaviourSpec&, const Model&, std::string&) -> std::unique_ptr<BehaviourProgram> {
    return nullptr;
  };
  EXPECT_THROW(RegisterBehaviourKind({"test-timer", check, compile}), std::invalid_argument);
  EXPECT_THROW(RegisterBehaviourKind({"counter", check, compile}), std::invalid_argument);
  EXPECT_THROW(RegisterBehaviourKind({"Bad_Name", check, compile}), std::invalid_argument);
  EXPECT_THROW(RegisterBehaviourKind({"no-compile", check, nullptr}), std::invalid_argument);
}

// A database naming a kind nobody registered is a located error with the
// kinds it could have meant, registered ones included.
TEST(BehaviourRegistryTest, UnknownKindOffersRegisteredOnes) {
  RegisterTestTimer();
  regdb::LoadedDatabase loaded = regdb::testing_support::CheckYaml(R"y(device: t
spaces: [{name: mmio, kind: mmio, size: 0x10}]
registers: [{name: A, space: mmio, offset: 0}]
behaviours:
  - {kind: test-timr, register: A}
)y");
  EXPECT_THAT(regdb::testing_support::Rendered(loaded), HasSubstr("test-timer"));
}

}  // namespace
}  // namespace regemu::emulator
