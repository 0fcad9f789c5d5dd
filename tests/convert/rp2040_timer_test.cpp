// The RP2040's system timer, converted from its SVD and given its behaviour
// by an overlay (data/rp2040/timer_overlay.yaml, RP2040 Datasheet §4.6),
// driven in virtual time by a driver written the way pico-sdk's
// hardware_timer is (src/rp2_common/hardware_timer/timer.c): time_us_64,
// hardware_alarm_set_target and the alarm IRQ handler, against the
// generated C header.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <functional>

#include "regemu/fakes/device_test.hpp"
#include "regemu/regs/rp2040.hpp"

namespace regemu::convert {
namespace {

using ::testing::HasSubstr;

namespace regs = ::regemu::regs::RP2040::TIMER;
constexpr uint64_t kBase = regs::TIMER_BASE;
constexpr uint64_t kUs = 1000;  // ns

// A TIMER register's address, from the generated header.
template <typename Reg>
constexpr uint64_t At() {
  return Reg::OffsetOf(kBase);
}
template <typename Field>
constexpr uint32_t Bit() {
  return static_cast<uint32_t>(Field::kMask);
}

struct PicoTimerBugs {
  bool handler_leaves_intr_set = false;  // the IRQ handler does not write INTR
  bool get_time_high_first = false;      // reads TIMEHR before TIMELR
};

// pico-sdk's hardware_timer, its register accesses kept, its spin lock
// and NVIC left out (one core, the test dispatches the IRQ).
class PicoTimer {
 public:
  using Bugs = PicoTimerBugs;
  using Callback = std::function<void(unsigned alarm)>;

  PicoTimer(fakes::MmioBus& bus, Bugs bugs = {}) : bus_(bus), bugs_(bugs) {}

  // time_us_64: TIMERAWH/TIMERAWL, which do not latch, re-read until the
  // high word is stable (safe from either core).
  uint64_t TimeUs64() {
    uint32_t hi = Read(At<regs::TIMERAWH>());
    for (;;) {
      uint32_t lo = Read(At<regs::TIMERAWL>());
      uint32_t next_hi = Read(At<regs::TIMERAWH>());
      if (hi == next_hi) return (uint64_t{hi} << 32) | lo;
      hi = next_hi;
    }
  }

  // pico-examples timer_lowlevel.c get_time: "reading low latches the high value".
  uint64_t GetTimeLatched() {
    if (bugs_.get_time_high_first) {
      uint32_t hi = Read(At<regs::TIMEHR>());
      uint32_t lo = Read(At<regs::TIMELR>());
      return (uint64_t{hi} << 32) | lo;
    }
    uint32_t lo = Read(At<regs::TIMELR>());
    uint32_t hi = Read(At<regs::TIMEHR>());
    return (uint64_t{hi} << 32) | lo;
  }

  // hardware_alarm_set_callback: the alarm's interrupt enabled at the timer.
  void SetCallback(unsigned alarm, Callback callback) {
    callbacks_[alarm] = std::move(callback);
    Write(At<regs::INTE>(), Read(At<regs::INTE>()) | (1u << alarm));
  }

  // hardware_alarm_set_target: true when the target is already past ("missed").
  bool SetTarget(unsigned alarm, uint64_t target_us) {
    if (TimeUs64() >= target_us) return true;
    pending_ |= 1u << alarm;
    Write(At<regs::INTR>(), 1u << alarm);                                  // clear any IRQ
    Write(At<regs::ALARM0>() + 4 * alarm, static_cast<uint32_t>(target_us));  // writing arms it
    target_hi_[alarm] = static_cast<uint32_t>(target_us >> 32);
    if ((Read(At<regs::ARMED>()) & (1u << alarm)) != 0 && TimeUs64() >= target_us) {
      Write(At<regs::ARMED>(), 1u << alarm);  // disarm: it was missed while arming
      Write(At<regs::INTR>(), 1u << alarm);
      pending_ &= ~(1u << alarm);
      return true;
    }
    return false;
  }

  // hardware_alarm_irq_handler: acknowledge, then fire unless the target's
  // high word is still ahead (then re-arm for the next lap).
  void IrqHandler(unsigned alarm) {
    if (!bugs_.handler_leaves_intr_set) Write(At<regs::INTR>(), 1u << alarm);
    if ((pending_ & (1u << alarm)) == 0) return;
    if (Read(At<regs::TIMERAWH>()) >= target_hi_[alarm]) {
      pending_ &= ~(1u << alarm);
      if (callbacks_[alarm]) callbacks_[alarm](alarm);
    } else {
      Write(At<regs::ALARM0>() + 4 * alarm, Read(At<regs::ALARM0>() + 4 * alarm));
    }
  }

 private:
  uint32_t Read(uint64_t address) { return bus_.Read32(address); }
  void Write(uint64_t address, uint32_t value) { bus_.Write32(address, value); }

  fakes::MmioBus& bus_;
  Bugs bugs_;
  std::array<Callback, 4> callbacks_;
  std::array<uint32_t, 4> target_hi_{};
  uint32_t pending_ = 0;
};

constexpr std::array<const char*, 4> kLines{"TIMER_IRQ_0", "TIMER_IRQ_1", "TIMER_IRQ_2", "TIMER_IRQ_3"};

class Rp2040Timer : public fakes::DeviceTest {
 protected:
  void SetUp() override { dev_ = &LoadDevice(REGEMU_RP2040_TIMER_DB); }

  uint64_t Peek(const char* name) { return dev_->PeekRegister(*dev_->model().FindRegister(name)); }
  // The time set as software does (TIMELW, then TIMEHW): through the
  // frontdoor, so the counter re-plans its carry and alarms at once (a
  // backdoor poke would leave them to the next advance, README "counter").
  void SetTime(uint64_t us) {
    bus("bus").Write32(At<regs::TIMELW>(), static_cast<uint32_t>(us));
    bus("bus").Write32(At<regs::TIMEHW>(), static_cast<uint32_t>(us >> 32));
  }

  // The CPU for `ns` of virtual time: from one due event to the next, each
  // asserted TIMER_IRQ_n line taken by the handler at that instant, as the
  // NVIC would (a handler that leaves its line high is entered again, up to
  // `max_entries` in all).
  size_t Run(PicoTimer& timer, uint64_t ns, size_t max_entries = 100) {
    uint64_t end = dev_->now_ns() + ns;
    size_t entries = 0;
    for (;;) {
      for (unsigned alarm = 0; alarm < kLines.size(); ++alarm) {
        while (dev_->line_asserted(kLines[alarm]) && entries < max_entries) {
          ++entries;
          timer.IrqHandler(alarm);
        }
      }
      auto next = dev_->next_event_ns();
      if (!next || *next > end) break;
      dev_->Advance(*next - dev_->now_ns());
    }
    if (end > dev_->now_ns()) dev_->Advance(end - dev_->now_ns());
    return entries;
  }

  emulator::Device* dev_ = nullptr;
};

TEST_F(Rp2040Timer, TheOverlayChecksClean) {
  EXPECT_EQ(dev_->model().device(), "RP2040");
  EXPECT_TRUE(TakeViolations().empty());
}

// "A single 64-bit counter, incrementing once per microsecond" (§4.6.1).
TEST_F(Rp2040Timer, TimeUs64CountsMicrosecondsOfVirtualTime) {
  PicoTimer timer(bus("bus"));
  EXPECT_EQ(timer.TimeUs64(), 0u);
  dev_->Advance(1'234'567 * kUs + 999);
  EXPECT_EQ(timer.TimeUs64(), 1'234'567u);
  EXPECT_EQ(timer.GetTimeLatched(), 1'234'567u);
}

// The high word takes the low word's carry: 64 bits over two registers.
TEST_F(Rp2040Timer, TheLowWordCarriesIntoTheHighWord) {
  PicoTimer timer(bus("bus"));
  SetTime(0xFFFF'FFF0);
  dev_->Advance(0x20 * kUs);
  EXPECT_EQ(timer.TimeUs64(), 0x1'0000'0010u);
  dev_->Advance(uint64_t{0xFFFF'FFFF} * kUs);
  EXPECT_EQ(timer.TimeUs64(), 0x2'0000'000Fu);
}

// "Reading TIMELR latches the value in TIMEHR (i.e. stops it updating)
// until TIMEHR is read" (§4.6.4.1): a pair read across a carry is whole.
TEST_F(Rp2040Timer, ReadingTimelrLatchesTimehrAcrossACarry) {
  SetTime(0xFFFF'FFFE);
  uint32_t lo = bus("bus").Read32(At<regs::TIMELR>());
  dev_->Advance(5 * kUs);  // the carry comes between the two reads
  uint32_t hi = bus("bus").Read32(At<regs::TIMEHR>());
  EXPECT_EQ(lo, 0xFFFF'FFFEu);
  EXPECT_EQ(hi, 0u);                       // latched: the time of the TIMELR read
  EXPECT_EQ(Peek("TIMER_TIMERAWH"), 1u);   // the raw word went on
  EXPECT_EQ(bus("bus").Read32(At<regs::TIMELR>()), 3u);
  EXPECT_EQ(bus("bus").Read32(At<regs::TIMEHR>()), 1u);
}

TEST_F(Rp2040Timer, WritingTimelwThenTimehwSetsTheTime) {
  PicoTimer timer(bus("bus"));
  bus("bus").Write32(At<regs::TIMELW>(), 0x10);
  EXPECT_EQ(timer.TimeUs64(), 0u);  // "writes do not get copied to time until timehw is written"
  bus("bus").Write32(At<regs::TIMEHW>(), 0x7);
  EXPECT_EQ(timer.TimeUs64(), 0x7'0000'0010u);
  dev_->Advance(3 * kUs);
  EXPECT_EQ(timer.TimeUs64(), 0x7'0000'0013u);
}

TEST_F(Rp2040Timer, PauseStopsTheCounter) {
  PicoTimer timer(bus("bus"));
  dev_->Advance(10 * kUs);
  // PAUSE.PAUSE, bit 0: the C++ header cannot name a field called as its
  // register (regs::PAUSE::PAUSE is the constructor).
  bus("bus").Write32(At<regs::PAUSE>(), 1u);
  dev_->Advance(1000 * kUs);
  EXPECT_EQ(timer.TimeUs64(), 10u);
  bus("bus").Write32(At<regs::PAUSE>(), 0);
  dev_->Advance(5 * kUs);
  EXPECT_EQ(timer.TimeUs64(), 15u);
}

// §4.6.3: writing ALARMn arms it; at the match INTR latches, ARMED clears,
// TIMER_IRQ_n rises; the handler's write of 1 to INTR lowers it.
TEST_F(Rp2040Timer, AnAlarmFiresAtItsTargetAndTheHandlerAcknowledgesIt) {
  PicoTimer timer(bus("bus"));
  std::vector<uint64_t> fired_at;
  timer.SetCallback(2, [&](unsigned) { fired_at.push_back(dev_->now_ns()); });
  dev_->Advance(100 * kUs);
  ASSERT_FALSE(timer.SetTarget(2, 1100));
  EXPECT_EQ(Peek("TIMER_ARMED"), 0x4u);
  Run(timer, 999 * kUs);
  EXPECT_TRUE(fired_at.empty());
  EXPECT_FALSE(dev_->line_asserted("TIMER_IRQ_2"));
  size_t entries = Run(timer, 1 * kUs);
  ASSERT_EQ(fired_at.size(), 1u);
  EXPECT_EQ(fired_at[0], 1100 * kUs);
  EXPECT_EQ(entries, 1u);
  EXPECT_EQ(Peek("TIMER_ARMED"), 0u);  // "the alarm will disarm itself once it fires"
  EXPECT_EQ(Peek("TIMER_INTR"), 0u);
  EXPECT_FALSE(dev_->line_asserted("TIMER_IRQ_2"));
  EXPECT_EQ(dev_->line_edges("TIMER_IRQ_2"), 1u);
  EXPECT_EQ(dev_->line_edges("TIMER_IRQ_0"), 0u);
}

// INTS is INTR or INTF, masked by INTE; INTF forces the line.
TEST_F(Rp2040Timer, ForcingAnInterruptRaisesItsLineOnlyWhileEnabled) {
  bus("bus").Write32(At<regs::INTF>(), Bit<regs::INTF::ALARM_1>());
  EXPECT_FALSE(dev_->line_asserted("TIMER_IRQ_1"));
  EXPECT_EQ(bus("bus").Read32(At<regs::INTS>()), 0u);
  bus("bus").Write32(At<regs::INTE>(), Bit<regs::INTE::ALARM_1>());
  EXPECT_TRUE(dev_->line_asserted("TIMER_IRQ_1"));
  EXPECT_EQ(bus("bus").Read32(At<regs::INTS>()), Bit<regs::INTS::ALARM_1>());
  bus("bus").Write32(At<regs::INTF>(), 0);
  EXPECT_FALSE(dev_->line_asserted("TIMER_IRQ_1"));
}

// Alarms match the low 32 bits only: a target more than 2^32 us ahead fires
// a lap early, and the SDK's handler re-arms it until the high word agrees.
TEST_F(Rp2040Timer, ATargetPastTheLowWordsLapIsReArmedByTheHandler) {
  PicoTimer timer(bus("bus"));
  std::vector<uint64_t> fired_at;
  timer.SetCallback(0, [&](unsigned) { fired_at.push_back(dev_->now_ns() / kUs); });
  uint64_t target = (uint64_t{1} << 32) + 50;
  ASSERT_FALSE(timer.SetTarget(0, target));
  Run(timer, 60 * kUs);  // the low word matches at 50 us: the handler re-arms
  EXPECT_TRUE(fired_at.empty());
  EXPECT_EQ(Peek("TIMER_ARMED"), 0x1u);
  Run(timer, uint64_t{1} << 32 << 10);  // well past: 2^32 us later
  ASSERT_EQ(fired_at.size(), 1u);
  EXPECT_EQ(fired_at[0], target);
}

// A target already past: SetTarget says "missed", as the SDK does, since
// the hardware would wait a whole lap of the low word (71 minutes).
TEST_F(Rp2040Timer, AMissedTargetIsReportedNotArmed) {
  PicoTimer timer(bus("bus"));
  dev_->Advance(500 * kUs);
  EXPECT_TRUE(timer.SetTarget(1, 400));
  EXPECT_EQ(Peek("TIMER_ARMED"), 0u);
  // Without that check the alarm would be armed for the next lap.
  bus("bus").Write32(At<regs::ALARM1>(), 400);
  Run(timer, 1'000'000 * kUs);
  EXPECT_EQ(Peek("TIMER_ARMED"), 0x2u);
  EXPECT_EQ(Peek("TIMER_INTR"), 0u);
}

// Driver bug: an IRQ handler that does not write 1 to INTR leaves the line
// high, so the CPU takes the interrupt again and again (an IRQ storm).
TEST_F(Rp2040Timer, BugAHandlerThatDoesNotClearIntrStorms) {
  PicoTimer timer(bus("bus"), {.handler_leaves_intr_set = true});
  timer.SetCallback(3, [](unsigned) {});
  ASSERT_FALSE(timer.SetTarget(3, 20));
  size_t entries = Run(timer, 30 * kUs, /*max_entries=*/50);
  EXPECT_EQ(entries, 50u);
  EXPECT_TRUE(dev_->line_asserted("TIMER_IRQ_3"));
  EXPECT_EQ(Peek("TIMER_INTR"), Bit<regs::INTR::ALARM_3>());
}

// Driver bug: reading TIMEHR before TIMELR. The overlay's rule says so at
// the access, and the torn value it gives across a carry is shown.
TEST_F(Rp2040Timer, BugReadingTimehrFirstBreaksTheDatasheetsRule) {
  FailAtAccess(false);
  SetTime(0xFFFF'FFFF);
  // GetTimeLatched with the bug, the carry coming between its two reads.
  uint32_t hi = bus("bus").Read32(At<regs::TIMEHR>());
  dev_->Advance(1 * kUs);
  uint32_t lo = bus("bus").Read32(At<regs::TIMELR>());
  EXPECT_EQ((uint64_t{hi} << 32) | lo, 0u);  // 2^32 us is the truth: a whole lap lost
  EXPECT_EQ(TakeViolations().size(), 1u);  // its TIMEHR read
  // The same code at a quiet moment gives the right time, and still breaks the rule.
  bus("bus").Read32(At<regs::TIMEHR>());  // release the latch the TIMELR read above left
  PicoTimer timer(bus("bus"), {.get_time_high_first = true});
  EXPECT_EQ(timer.GetTimeLatched(), uint64_t{1} << 32);
  std::vector<emulator::Violation> violations = TakeViolations();
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0].register_name, "TIMER_TIMEHR");
  EXPECT_THAT(violations[0].Describe(dev_->model()), HasSubstr("TIMEHR read without reading TIMELR first"));
}

}  // namespace
}  // namespace regemu::convert
