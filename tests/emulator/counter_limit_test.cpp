// `kind: counter` with a direction, a limit and its policy, and rate, width
// and enable as expressions (yaml/README.md "kind: counter"), on the
// smallest SP804-shaped timer: "the counter decrements ... when it reaches
// zero an interrupt is generated and it reloads from LOAD (periodic) or
// wraps to its maximum (free-running); in one-shot mode it halts"
// (Arm Dual-Timer Module (SP804) TRM, ARM DDI 0271, "Functional overview").
#include <cstdint>
#include <memory>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using testing_support::MakeDevice;
using testing_support::RegisterNamed;

constexpr const char* kTimerDevice = R"(device: timer
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: LOAD, space: mmio, offset: 0x0}
  - {name: VALUE, space: mmio, offset: 0x4, volatile: true}
  - name: CONTROL
    space: mmio
    offset: 0x8
    fields:
      - {name: ONESHOT, bits: 0}
      - {name: SIZE, bits: 1}
      - {name: PRESCALE, bits: "3:2"}
      - {name: MODE, bits: 6}
      - {name: ENABLE, bits: 7}
  - name: RIS
    space: mmio
    offset: 0x10
    fields: [{name: INT, bits: 0, access: w1c}]
  - {name: HITS, space: mmio, offset: 0x14, access: hw}
behaviours:
)";

// 25 MHz is 40 ns a tick; PRESCALE 1 divides by 16, 2 by 256.
constexpr const char* kSp804Timer = R"yaml(  - name: timer
    kind: counter
    register: VALUE
    direction: down
    frequency: "25MHz / (CONTROL.PRESCALE == 0 ? 1 : CONTROL.PRESCALE == 1 ? 16 : 256)"
    width: "CONTROL.SIZE ? 32 : 16"
    enable: CONTROL.ENABLE
    at_limit: {set: RIS.INT, reload: "CONTROL.MODE ? LOAD : 0xFFFFFFFF", stop: CONTROL.ONESHOT}
)yaml";

constexpr uint64_t kOneShot = 1 << 0;
constexpr uint64_t kSize32 = 1 << 1;
constexpr uint64_t kPrescale16 = 1 << 2;
constexpr uint64_t kPeriodic = 1 << 6;
constexpr uint64_t kEnable = 1 << 7;

class CounterLimitTest : public ::testing::Test {
 protected:
  void Make(const std::string& behaviours) { device_ = MakeDevice(std::string(kTimerDevice) + behaviours); }
  uint64_t Get(const char* name) { return device_->PeekRegister(RegisterNamed(device_->model(), name)); }
  void Set(const char* name, uint64_t value) { device_->WriteRegister(RegisterNamed(device_->model(), name), value); }

  std::unique_ptr<Device> device_;
};

// Periodic: 10, 9, ... 0 (the interrupt at the tick that reaches 0), and
// the tick after 0 loads LOAD: a period of LOAD + 1 ticks.
TEST_F(CounterLimitTest, PeriodicReloadsTheTickAfterZero) {
  Make(kSp804Timer);
  Set("LOAD", 10);
  Set("VALUE", 10);
  Set("CONTROL", kEnable | kPeriodic | kSize32);
  device_->Advance(9 * 40);
  EXPECT_EQ(Get("VALUE"), 1u);
  EXPECT_EQ(Get("RIS"), 0u);
  device_->Advance(40);
  EXPECT_EQ(Get("VALUE"), 0u);
  EXPECT_EQ(Get("RIS"), 1u);
  Set("RIS", 1);  // w1c
  device_->Advance(40);
  EXPECT_EQ(Get("VALUE"), 10u);
  device_->Advance(10 * 40 - 1);
  EXPECT_EQ(Get("RIS"), 0u);
  device_->Advance(1);
  EXPECT_EQ(Get("VALUE"), 0u);
  EXPECT_EQ(Get("RIS"), 1u);
}

// Free-running wraps from 0 to all-ones of the width the expression gives
// (16 bits with SIZE 0); the bits above the width keep what they hold.
TEST_F(CounterLimitTest, FreeRunningWrapsAtTheWidth) {
  Make(kSp804Timer);
  Set("CONTROL", kEnable);
  Set("VALUE", 0x12'0002);
  device_->Advance(3 * 40);
  EXPECT_EQ(Get("VALUE"), 0x12'FFFFu);
  EXPECT_EQ(Get("RIS"), 1u);
  Set("CONTROL", kEnable | kSize32);
  Set("VALUE", 0x12'0000);
  device_->Advance(40);
  EXPECT_EQ(Get("VALUE"), 0x11'FFFFu);
}

// One-shot: the count halts at 0; clearing ONESHOT lets it go on, the next
// tick applying the mode (periodic: LOAD).
TEST_F(CounterLimitTest, OneShotHaltsAtZeroUntilItIsNoLongerOneShot) {
  Make(kSp804Timer);
  Set("LOAD", 5);
  Set("VALUE", 3);
  Set("CONTROL", kEnable | kOneShot | kPeriodic | kSize32);
  device_->Advance(3 * 40);
  EXPECT_EQ(Get("VALUE"), 0u);
  EXPECT_EQ(Get("RIS"), 1u);
  device_->Advance(100 * 40);
  EXPECT_EQ(Get("VALUE"), 0u);
  Set("CONTROL", kEnable | kPeriodic | kSize32);
  device_->Advance(40);
  EXPECT_EQ(Get("VALUE"), 5u);
}

// A new count (a write) restarts a halted one-shot count.
TEST_F(CounterLimitTest, WritingTheCountRestartsAHaltedOneShot) {
  Make(kSp804Timer);
  Set("VALUE", 1);
  Set("CONTROL", kEnable | kOneShot | kSize32);
  device_->Advance(10 * 40);
  EXPECT_EQ(Get("VALUE"), 0u);
  Set("VALUE", 4);
  device_->Advance(2 * 40);
  EXPECT_EQ(Get("VALUE"), 2u);
}

// The rate follows PRESCALE: /16 is a tick every 640 ns; a change of rate
// restarts the tick in progress (its fraction was of the old period).
TEST_F(CounterLimitTest, RateFollowsTheDividerAndAChangeRestartsTheTick) {
  Make(kSp804Timer);
  Set("VALUE", 100);
  Set("CONTROL", kEnable | kSize32 | kPrescale16);
  device_->Advance(639);
  EXPECT_EQ(Get("VALUE"), 100u);
  device_->Advance(1);
  EXPECT_EQ(Get("VALUE"), 99u);
  device_->Advance(360);  // 1000 ns: 360 ns into the second tick
  Set("CONTROL", kEnable | kSize32);
  device_->Advance(39);
  EXPECT_EQ(Get("VALUE"), 99u);
  device_->Advance(1);
  EXPECT_EQ(Get("VALUE"), 98u);
}

// Halting keeps what was counted of the tick in progress (as before); the
// enable is an expression like any other.
TEST_F(CounterLimitTest, EnableAsAnExpression) {
  Make(R"(  - {kind: counter, register: VALUE, direction: down, period: 10ns,
     enable: "CONTROL.ENABLE && !CONTROL.ONESHOT"}
)");
  Set("VALUE", 50);
  Set("CONTROL", kEnable);
  device_->Advance(25);
  EXPECT_EQ(Get("VALUE"), 48u);
  Set("CONTROL", kEnable | kOneShot);
  device_->Advance(100);
  EXPECT_EQ(Get("VALUE"), 48u);
  Set("CONTROL", kEnable);
  device_->Advance(5);
  EXPECT_EQ(Get("VALUE"), 47u);
}

// `write_phase`: restart (the default) puts the next tick a whole period
// after the write; keep lets the tick in progress finish.
TEST_F(CounterLimitTest, WritePhaseRestartOrKeep) {
  for (const char* phase : {"restart", "keep"}) {
    SCOPED_TRACE(phase);
    Make(std::string("  - {kind: counter, register: VALUE, period: 100ns, enable: CONTROL.ENABLE, write_phase: ") +
         phase + "}\n");
    Set("CONTROL", kEnable);
    device_->Advance(50);
    Set("VALUE", 7);
    device_->Advance(50);
    EXPECT_EQ(Get("VALUE"), std::string(phase) == "keep" ? 8u : 7u);
    device_->Advance(50);
    EXPECT_EQ(Get("VALUE"), 8u);
  }
}

// `read_at_tick: old`: a read at the exact instant of a tick sees the count
// before it (QEMU's ptimer-based models); the default sees it after.
TEST_F(CounterLimitTest, ReadAtTheInstantOfATick) {
  for (const char* read : {"new", "old"}) {
    SCOPED_TRACE(read);
    Make(std::string("  - {kind: counter, register: VALUE, direction: down, period: 40ns, enable: CONTROL.ENABLE, "
                     "read_at_tick: ") + read + "}\n");
    Set("VALUE", 1000);
    Set("CONTROL", kEnable);
    device_->Advance(40 * 501);
    EXPECT_EQ(Get("VALUE"), std::string(read) == "old" ? 500u : 499u);
    device_->Advance(1);
    EXPECT_EQ(Get("VALUE"), 499u);
  }
}

// Counting up to a limit: 0..4, the event at 4, the next tick reloads 0
// (five ticks a period), and the event is signalled as "<name>.limit".
TEST_F(CounterLimitTest, UpToALimitWithItsEventSignalled) {
  Make(R"(  - {name: up, kind: counter, register: VALUE, period: 10ns, enable: CONTROL.ENABLE, limit: LOAD,
     at_limit: {set: RIS.INT, reload: 0}}
  - kind: reactions
    reactions:
      - {name: count_hits, on: {event: up.limit}, do: [{set: {HITS: HITS + 1}}]}
)");
  Set("LOAD", 4);
  Set("CONTROL", kEnable);
  device_->Advance(40);
  EXPECT_EQ(Get("VALUE"), 4u);
  EXPECT_EQ(Get("HITS"), 1u);
  device_->Advance(10);
  EXPECT_EQ(Get("VALUE"), 0u);
  device_->Advance(5 * 10 * 3);
  EXPECT_EQ(Get("HITS"), 4u);
  EXPECT_EQ(Get("VALUE"), 0u);
}

// A limit event is on the device's queue: one step with no duration goes
// there (a script's bare `step`).
TEST_F(CounterLimitTest, TheLimitIsAnEventOfTheQueue) {
  Make(kSp804Timer);
  Set("VALUE", 7);
  Set("CONTROL", kEnable | kSize32 | kPeriodic);
  auto next = device_->next_event_ns();
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(*next, device_->now_ns() + 7u * 40);
}

}  // namespace
}  // namespace regemu::emulator
