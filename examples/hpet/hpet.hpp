#pragma once
// The example HPET driver: Linux's arch/x86/kernel/hpet.c reduced to its
// register accesses, written against the generated register header
// (regemu/regs/hpet.hpp: offsets and field masks) and the MmioBus seam.
// Every access is a 32-bit readl/writel as Linux's, and the timers run in
// 32-bit mode (HPET 1.0a §2.4.7).
//
//   HpetDriver hpet(mmio, [&](uint64_t ns) { device.Advance(ns); });
//   hpet.Enable();                  // hpet_enable: sanitize, hpet_counting, legacy clockevent on channel 0
//   hpet.SetPeriodic(0, 1000);      // the 1 kHz tick (hpet_clkevt_set_state_periodic)
//   hpet.SetOneShot(0);             // hpet_clkevt_set_state_oneshot
//   hpet.ProgramEvent(0, 500'000);  // clockevents_program_event -> hpet_clkevt_set_next_event
//   hpet.Disable();                 // hpet_disable: the boot configuration back

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "examples/hpet/bugs.hpp"
#include "examples/hpet/clockevent.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::hpet {

// Waits `ns` nanoseconds (udelay, a TSC spin): Device::Advance in tests.
using Delay = std::function<void(uint64_t ns)>;

// How a step ended; Linux's messages and errno in words.
enum class Status : uint8_t {
  kOk,
  kConfigInvalid,  // hpet_cfg_working: "Config register invalid. Disabling HPET"
  kBadPeriod,      // the period is outside [HPET_MIN_PERIOD, HPET_MAX_PERIOD]
  kNotCounting,    // hpet_counting: "Counter not counting. HPET disabled"
  kNoLegacy,       // no LegacyReplacement capability: no legacy clockevent (hpet_enable returns 0)
  kTooLate,        // hpet_clkevt_set_next_event's -ETIME: the counter is not HPET_MIN_CYCLES behind the event
};

constexpr std::string_view StatusName(Status status) {
  switch (status) {
    case Status::kOk: return "ok";
    case Status::kConfigInvalid: return "config register invalid";
    case Status::kBadPeriod: return "period out of range";
    case Status::kNotCounting: return "counter not counting";
    case Status::kNoLegacy: return "no legacy replacement route";
    case Status::kTooLate: return "too late (-ETIME)";
  }
  return "?";
}

// struct hpet_channel, reduced: the boot configuration hpet_enable keeps
// (and hpet_disable writes back) and the route it found there.
struct Channel {
  uint32_t num = 0;
  uint32_t boot_cfg = 0;
  uint32_t irq = 0;
};

class HpetDriver {
 public:
  // `delay` is the driver's udelay and TSC spin; `on_step`, when set, hears
  // the name of each Linux function as it starts (tracepoints).
  HpetDriver(fakes::MmioBus& mmio, Delay delay, Bugs bugs = {},
             std::function<void(std::string_view)> on_step = {});

  // hpet_enable: hpet_cfg_working, the period and frequency, HPET_ID, the
  // global and per-channel configuration sanitized, hpet_counting, and with
  // LegacyReplacement capability hpet_legacy_clockevent_register (the
  // clockevent of channel 0, GEN_CONF.LEG_RT_CNF on).
  Status Enable();
  // hpet_disable: the boot configuration written back.
  void Disable();

  // read_hpet: the main counter's low 32 bits.
  uint32_t ReadCounter();
  // hpet_resume_counter, the clocksource's resume hook: hpet_restart_counter
  // (stop, reset, start) on a counter that is running.
  void ResumeCounter();

  // hpet_clkevt_set_state_periodic: a tick of `hz` on `channel` (Linux: the
  // legacy channel 0), started from the counter as it is.
  void SetPeriodic(uint32_t channel, uint32_t hz);
  // hpet_clkevt_set_state_oneshot.
  void SetOneShot(uint32_t channel);
  // hpet_clkevt_set_state_shutdown.
  void Shutdown(uint32_t channel);
  // hpet_clkevt_set_next_event: the event `delta` ticks from now; kTooLate
  // (-ETIME) when the counter read after the comparator write is fewer than
  // HPET_MIN_CYCLES ticks before it, or past it.
  Status SetNextEvent(uint32_t channel, uint32_t delta);
  // clockevents_program_event(force): `ns` as ticks, and on -ETIME
  // clockevents_program_min_delta's retries with the minimum delta (three).
  Status ProgramEvent(uint32_t channel, uint64_t ns);

  // An FSB (MSI) clockevent on `channel` (hpet_select_clockevents takes an
  // unused channel whose boot configuration has FSB_CAP): hpet_msi_write
  // (data, then address_lo) and hpet_msi_unmask (ENABLE and FSB). False
  // when the channel cannot deliver by FSB.
  bool SetupMsi(uint32_t channel, uint32_t address, uint32_t data);

  const ClockEvent& clockevent() const { return clockevent_; }
  const std::vector<Channel>& channels() const { return channels_; }
  uint32_t period_fs() const { return period_fs_; }
  uint32_t boot_cfg() const { return boot_cfg_; }
  // The channel the periodic tick goes to (channel 0; a bug may move it).
  uint32_t TickChannel() const;

 private:
  uint32_t readl(uint64_t offset, hwreg::SourceLocation site = hwreg::SourceLocation::current());
  void writel(uint32_t value, uint64_t offset, hwreg::SourceLocation site = hwreg::SourceLocation::current());
  void Step(std::string_view name) const;

  bool CfgWorking();
  bool Counting();
  void StopCounter();
  void ResetCounter();
  void StartCounter();
  void RestartCounter();
  void EnableLegacyInt();

  fakes::MmioBus& mmio_;
  Delay delay_;
  Bugs bugs_;
  std::function<void(std::string_view)> on_step_;
  uint32_t period_fs_ = 0;
  uint32_t boot_cfg_ = 0;  // hpet_base.boot_cfg
  std::vector<Channel> channels_;
  ClockEvent clockevent_;
};

}  // namespace regemu::hpet
