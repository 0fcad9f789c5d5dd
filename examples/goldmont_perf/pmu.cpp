#include "examples/goldmont_perf/pmu.hpp"

#include "regemu/regs/goldmont.hpp"

namespace regemu::goldmont_perf {
namespace {

namespace msr = regs::goldmont;

// intel_ctrl: every GP counter's bit and every fixed counter's (bits 32+).
constexpr uint64_t kIntelCtrl = ((uint64_t{1} << GoldmontPmu::kGpCounters) - 1) |
                                (((uint64_t{1} << GoldmontPmu::kFixedCounters) - 1) << 32);

// The fixed counter an event code goes to first (Linux's fixed-counter
// constraints: 0x00C0, 0x003C and the pseudo-encoding 0x0300).
std::optional<unsigned> FixedCounterFor(uint16_t code) {
  switch (code) {
    case 0x00C0: return 0;
    case 0x003C: return 1;
    case 0x0300: return 2;
    default: return std::nullopt;
  }
}

// Linux clamps a period into [2, max_period]; max_period is half the
// counter with full-width writes, 2^31 - 1 without (Intel SDM Vol. 3 (2016) p. 18-29, Table 18-18).
int64_t MaxPeriod(bool full_width) {
  return full_width ? static_cast<int64_t>((uint64_t{1} << (GoldmontPmu::kCounterBits - 1)) - 1)
                    : (int64_t{1} << 31) - 1;
}

}  // namespace

bool GoldmontPmu::Probe() {
  full_width_ = msr::IA32_PERF_CAPABILITIES::Get().ReadFrom(msr_).fw_write() != 0;
  // Selects firmware left enabled ("Broken BIOS detected"): Linux logs and
  // goes on, and so does this driver; the fixed control likewise.
  for (unsigned i = 0; i < kGpCounters; ++i) msr::IA32_PERFEVTSEL::Get(i).ReadFrom(msr_);
  msr::IA32_FIXED_CTR_CTRL::Get().ReadFrom(msr_);
  // check_hw_exists: a free counter must return what was written.
  uint64_t counter = full_width_ ? msr::IA32_A_PMC::OffsetOf(0) : msr::IA32_PMC::OffsetOf(0);
  uint64_t value = msr_.Read64(counter) ^ 0xFFFF;
  msr_.Write64(counter, value);
  return msr_.Read64(counter) == value;
}

std::optional<unsigned> GoldmontPmu::Start(const EventConfig& config) {
  std::optional<unsigned> handle;
  if (std::optional<unsigned> fixed = FixedCounterFor(config.code); fixed && !events_[kGpCounters + *fixed].active) {
    handle = kGpCounters + *fixed;
    events_[*handle] = Event{.active = true, .fixed = true, .index = *fixed, .config = config};
  } else {
    for (unsigned i = 0; i < kGpCounters && !handle; ++i) {
      if (!events_[i].active) {
        handle = i;
        events_[i] = Event{.active = true, .fixed = false, .index = i, .config = config};
      }
    }
  }
  if (!handle) return std::nullopt;
  Event& event = events_[*handle];
  event.period_left = config.period != 0 ? static_cast<int64_t>(config.period) : MaxPeriod(full_width_);
  if (bugs_.Has(Bug::kCounterWrittenWhileEnabled)) {
    // The mistake: enable first, program the period after.
    EnableEvent(event);
    EnableAll();
    SetPeriod(event);
    return handle;
  }
  DisableAll();  // pmu->disable
  SetPeriod(event);
  EnableEvent(event);
  EnableAll();  // pmu->enable
  return handle;
}

void GoldmontPmu::Stop(unsigned handle) {
  Event& event = events_[handle];
  if (!event.active) return;
  DisableAll();
  DisableEvent(event);
  Update(event);
  event.active = false;
  EnableAll();
}

uint64_t GoldmontPmu::Read(unsigned handle) {
  Event& event = events_[handle];
  if (event.active) Update(event);
  return event.count;
}

bool GoldmontPmu::HandlePmi() {
  DisableAll();
  uint64_t status = msr::IA32_PERF_GLOBAL_STATUS::Get().ReadFrom(msr_).reg_value();
  bool handled = status != 0;
  for (int loops = 0; status != 0; ++loops) {
    if (loops > 100) {  // "perf: irq loop stuck!"
      Reset();
      break;
    }
    if (!bugs_.Has(Bug::kStatusNeverAcked)) msr::IA32_PERF_GLOBAL_OVF_CTRL::FromValue(status).WriteTo(msr_);
    HandleStatus(status);
    // The mistake trusts its one pass (the status it never cleared would
    // otherwise send it round the loop until intel_pmu_reset).
    if (bugs_.Has(Bug::kStatusNeverAcked)) break;
    status = msr::IA32_PERF_GLOBAL_STATUS::Get().ReadFrom(msr_).reg_value();
  }
  EnableAll();
  return handled;
}

void GoldmontPmu::DisableAll() { msr::IA32_PERF_GLOBAL_CTRL::FromValue(0).WriteTo(msr_); }
void GoldmontPmu::EnableAll() { msr::IA32_PERF_GLOBAL_CTRL::FromValue(kIntelCtrl).WriteTo(msr_); }

// x86_perf_event_set_period: the counter starts at -left, so that it
// overflows after `left` more events.
void GoldmontPmu::SetPeriod(Event& event) {
  int64_t period = event.config.period != 0 ? static_cast<int64_t>(event.config.period) : MaxPeriod(full_width_);
  if (event.period_left <= 0) event.period_left += period;
  int64_t left = event.period_left;
  if (left < 2) left = 2;
  if (left > MaxPeriod(full_width_)) left = MaxPeriod(full_width_);
  event.prev = static_cast<uint64_t>(-left) & kCounterMask;
  WriteCounter(event, event.prev);
}

void GoldmontPmu::EnableEvent(const Event& event) {
  if (event.fixed) {
    // intel_pmu_enable_fixed: read-modify-write of the counter's nibble.
    auto ctrl = msr::IA32_FIXED_CTR_CTRL::Get().ReadFrom(msr_);
    uint64_t bits = 0x8 | (event.config.user ? 0x2 : 0) | (event.config.kernel ? 0x1 : 0);
    unsigned shift = 4 * event.index;
    ctrl.set_reg_value((ctrl.reg_value() & ~(uint64_t{0xF} << shift)) | (bits << shift)).WriteTo(msr_);
    return;
  }
  auto select = msr::IA32_PERFEVTSEL::Get(event.index)
                    .set_event(event.config.code & 0xFF)
                    .set_umask(event.config.code >> 8)
                    .set_usr(event.config.user ? 1 : 0)
                    .set_os(event.config.kernel ? 1 : 0)
                    .set_int(1)
                    .set_en(1);
  if (bugs_.Has(Bug::kReservedEvtselBit)) {
    // The mistake: AnyThread, which the vPMU reserves, written raw (the
    // generated header's WriteTo clears reserved bits).
    msr_.Write64(select.reg_offset(), select.reg_value() | (uint64_t{1} << 21));
    return;
  }
  select.WriteTo(msr_);
}

void GoldmontPmu::DisableEvent(const Event& event) {
  if (event.fixed) {
    auto ctrl = msr::IA32_FIXED_CTR_CTRL::Get().ReadFrom(msr_);
    ctrl.set_reg_value(ctrl.reg_value() & ~(uint64_t{0xF} << (4 * event.index))).WriteTo(msr_);
    return;
  }
  auto select = msr::IA32_PERFEVTSEL::Get(event.index).ReadFrom(msr_);
  select.set_en(0).WriteTo(msr_);
}

uint64_t GoldmontPmu::ReadCounter(const Event& event) {
  return msr_.Read64(event.fixed ? msr::IA32_FIXED_CTR::OffsetOf(event.index) : msr::IA32_PMC::OffsetOf(event.index));
}

void GoldmontPmu::WriteCounter(const Event& event, uint64_t value) {
  if (event.fixed) {
    msr_.Write64(msr::IA32_FIXED_CTR::OffsetOf(event.index), value);
  } else {
    // x86_pmu.perfctr is the full-width alias when the CPU has one.
    msr_.Write64(full_width_ ? msr::IA32_A_PMC::OffsetOf(event.index) : msr::IA32_PMC::OffsetOf(event.index), value);
  }
}

// x86_perf_event_update: the delta since `prev`, sign-corrected at 48 bits.
void GoldmontPmu::Update(Event& event) {
  constexpr unsigned kShift = 64 - kCounterBits;
  uint64_t now = ReadCounter(event);
  int64_t delta = static_cast<int64_t>((now << kShift) - (event.prev << kShift)) >> kShift;
  event.prev = now;
  event.count += static_cast<uint64_t>(delta);
  event.period_left -= delta;
}

uint64_t GoldmontPmu::StatusBit(const Event& event) const {
  return event.fixed ? uint64_t{1} << (32 + event.index) : uint64_t{1} << event.index;
}

// handle_pmi_common: each overflowed counter is brought up to date, counts
// a sample and restarts with its next period.
void GoldmontPmu::HandleStatus(uint64_t status) {
  for (Event& event : events_) {
    if (!event.active || (status & StatusBit(event)) == 0) continue;
    Update(event);
    if (event.config.period != 0) ++event.samples;
    SetPeriod(event);
  }
}

// intel_pmu_reset: every select and counter zeroed, status acked, disabled.
void GoldmontPmu::Reset() {
  for (unsigned i = 0; i < kGpCounters; ++i) {
    msr::IA32_PERFEVTSEL::FromValue(i, 0).WriteTo(msr_);
    msr_.Write64(msr::IA32_PMC::OffsetOf(i), 0);
  }
  msr::IA32_FIXED_CTR_CTRL::FromValue(0).WriteTo(msr_);
  for (unsigned i = 0; i < kFixedCounters; ++i) msr_.Write64(msr::IA32_FIXED_CTR::OffsetOf(i), 0);
  uint64_t status = msr::IA32_PERF_GLOBAL_STATUS::Get().ReadFrom(msr_).reg_value();
  msr::IA32_PERF_GLOBAL_OVF_CTRL::FromValue(status).WriteTo(msr_);
  DisableAll();
}

}  // namespace regemu::goldmont_perf
