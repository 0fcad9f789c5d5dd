#include "examples/hpet/hpet.hpp"

#include "regemu/regs/hpet.hpp"

namespace regemu::hpet {
namespace {

namespace regs = ::regemu::regs::hpet;

// Linux's asm/hpet.h, from the generated header: HPET_ID, HPET_PERIOD
// (GCAP_ID's high dword), HPET_CFG, HPET_COUNTER, HPET_Tn_CFG(n),
// HPET_Tn_CMP(n), HPET_Tn_ROUTE(n).
constexpr uint64_t kId = regs::GCAP_ID::kOffset;
constexpr uint64_t kPeriod = regs::GCAP_ID::kOffset + 4;
constexpr uint64_t kCfg = regs::GEN_CONF::kOffset;
constexpr uint64_t kCounter = regs::MAIN_CNT::kOffset;
constexpr uint64_t kChannelStride = regs::T1_CONF::kOffset - regs::T0_CONF::kOffset;
static_assert(regs::T2_CONF::kOffset - regs::T1_CONF::kOffset == kChannelStride);
static_assert(regs::T1_CMP::kOffset == regs::T0_CMP::kOffset + kChannelStride);
static_assert(regs::T1_FSB_ROUTE::kOffset == regs::T0_FSB_ROUTE::kOffset + kChannelStride);
constexpr uint64_t TnCfg(uint32_t n) { return regs::T0_CONF::kOffset + n * kChannelStride; }
constexpr uint64_t TnCmp(uint32_t n) { return regs::T0_CMP::kOffset + n * kChannelStride; }
constexpr uint64_t TnRoute(uint32_t n) { return regs::T0_FSB_ROUTE::kOffset + n * kChannelStride; }

// The bits Linux names, low dword only (it never reads the high one).
template <typename Field>
constexpr uint32_t Bits() {
  static_assert(Field::kMask <= 0xFFFFFFFF, "a field of the low dword");
  return static_cast<uint32_t>(Field::kMask);
}
constexpr uint32_t kIdNumber = Bits<regs::GCAP_ID::NUM_TIM_CAP>();  // HPET_ID_NUMBER
constexpr uint32_t kIdNumberShift = regs::GCAP_ID::NUM_TIM_CAP::kShift;
constexpr uint32_t kIdLegsup = Bits<regs::GCAP_ID::LEG_RT_CAP>();  // HPET_ID_LEGSUP
constexpr uint32_t kCfgEnable = Bits<regs::GEN_CONF::ENABLE_CNF>();
constexpr uint32_t kCfgLegacy = Bits<regs::GEN_CONF::LEG_RT_CNF>();
constexpr uint32_t kTnLevel = Bits<regs::T0_CONF::INT_TYPE_CNF>();
constexpr uint32_t kTnEnable = Bits<regs::T0_CONF::INT_ENB_CNF>();
constexpr uint32_t kTnPeriodic = Bits<regs::T0_CONF::TYPE_CNF>();
constexpr uint32_t kTnSetVal = Bits<regs::T0_CONF::VAL_SET_CNF>();
constexpr uint32_t kTn32Bit = Bits<regs::T0_CONF::_32MODE_CNF>();
constexpr uint32_t kTnRoute = Bits<regs::T0_CONF::INT_ROUTE_CNF>();
constexpr uint32_t kTnRouteShift = regs::T0_CONF::INT_ROUTE_CNF::kShift;
constexpr uint32_t kTnFsb = Bits<regs::T0_CONF::FSB_EN_CNF>();
constexpr uint32_t kTnFsbCap = Bits<regs::T0_CONF::FSB_INT_DEL_CAP>();
static_assert(kTnLevel == 0x2 && kTnEnable == 0x4 && kTnPeriodic == 0x8 && kTnSetVal == 0x40 && kTn32Bit == 0x100 &&
              kTnRoute == 0x3E00 && kTnFsb == 0x4000 && kTnFsbCap == 0x8000);

// hpet_cfg_working: up to 1000 reads for AMD SB700's SMM emulation.
constexpr int kCfgTries = 1000;
// hpet_counting spins for 200000 TSC cycles: 50 us at 4 GHz. One HPET
// read takes of the order of half a microsecond.
constexpr uint64_t kCountingBudgetNs = 50'000;
constexpr uint64_t kCounterReadNs = 500;
constexpr uint64_t kUdelay1Ns = 1'000;
// clockevents_program_min_delta tries the minimum delta this many times.
constexpr int kMinDeltaTries = 3;

}  // namespace

HpetDriver::HpetDriver(fakes::MmioBus& mmio, Delay delay, Bugs bugs, std::function<void(std::string_view)> on_step)
    : mmio_(mmio), delay_(std::move(delay)), bugs_(bugs), on_step_(std::move(on_step)) {}

uint32_t HpetDriver::readl(uint64_t offset, hwreg::SourceLocation site) {
  return static_cast<uint32_t>(mmio_.ReadAt(offset, 32, site));
}
void HpetDriver::writel(uint32_t value, uint64_t offset, hwreg::SourceLocation site) {
  mmio_.WriteAt(offset, 32, value, site);
}
void HpetDriver::Step(std::string_view name) const {
  if (on_step_) on_step_(name);
}

uint32_t HpetDriver::TickChannel() const { return bugs_.Has(Bug::kPeriodicOnOneShotChannel) ? 1 : 0; }

bool HpetDriver::CfgWorking() {
  for (int i = 0; i < kCfgTries; ++i) {
    if (readl(kCfg) != 0xFFFFFFFF) return true;
  }
  return false;  // "Config register invalid. Disabling HPET"
}

void HpetDriver::StopCounter() { writel(readl(kCfg) & ~kCfgEnable, kCfg); }

void HpetDriver::ResetCounter() {
  writel(0, kCounter);
  writel(0, kCounter + 4);
}

void HpetDriver::StartCounter() { writel(readl(kCfg) | kCfgEnable, kCfg); }

void HpetDriver::RestartCounter() {
  if (!bugs_.Has(Bug::kCounterResetWhileRunning)) StopCounter();
  ResetCounter();
  StartCounter();
}

bool HpetDriver::Counting() {
  Step("hpet_counting");
  RestartCounter();
  uint32_t t1 = readl(kCounter);
  for (uint64_t spun = 0; spun < kCountingBudgetNs; spun += kCounterReadNs) {
    delay_(kCounterReadNs);
    if (readl(kCounter) != t1) return true;
  }
  return false;  // "Counter not counting. HPET disabled"
}

void HpetDriver::EnableLegacyInt() { writel(readl(kCfg) | kCfgLegacy, kCfg); }

Status HpetDriver::Enable() {
  Step("hpet_enable");
  if (!CfgWorking()) return Status::kConfigInvalid;
  period_fs_ = readl(kPeriod);
  if (period_fs_ < kMinPeriodFs || period_fs_ > kMaxPeriodFs) return Status::kBadPeriod;
  uint64_t freq = FrequencyOf(period_fs_);
  uint32_t id = readl(kId);
  uint32_t count = ((id & kIdNumber) >> kIdNumberShift) + 1;

  // Read, store and sanitize the global configuration.
  uint32_t cfg = readl(kCfg);
  boot_cfg_ = cfg;
  writel(cfg & ~(kCfgEnable | kCfgLegacy), kCfg);
  // Read, store and sanitize the per channel configuration.
  channels_.clear();
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t tn = readl(TnCfg(i));
    channels_.push_back(Channel{i, tn, (tn & kTnRoute) >> kTnRouteShift});
    writel(tn & ~(kTnEnable | kTnLevel | kTnFsb), TnCfg(i));
  }
  if (!Counting()) return Status::kNotCounting;
  clockevent_ = ClockEvent::Configure(freq);
  if ((id & kIdLegsup) == 0) return Status::kNoLegacy;
  Step("hpet_legacy_clockevent_register");
  EnableLegacyInt();
  return Status::kOk;
}

void HpetDriver::Disable() {
  Step("hpet_disable");
  writel(boot_cfg_ & ~kCfgEnable, kCfg);
  for (const Channel& channel : channels_) writel(channel.boot_cfg, TnCfg(channel.num));
  if ((boot_cfg_ & kCfgEnable) != 0) writel(boot_cfg_, kCfg);
}

uint32_t HpetDriver::ReadCounter() { return readl(kCounter); }

void HpetDriver::ResumeCounter() {
  Step("hpet_resume_counter");
  RestartCounter();
}

void HpetDriver::SetPeriodic(uint32_t channel, uint32_t hz) {
  Step("hpet_clkevt_set_state_periodic");
  StopCounter();
  uint64_t delta = ((kNsPerSecond / hz) * clockevent_.mult) >> clockevent_.shift;
  uint32_t cmp = readl(kCounter) + static_cast<uint32_t>(delta);
  uint32_t cfg = readl(TnCfg(channel));
  cfg |= kTnEnable | kTnPeriodic | kTnSetVal | kTn32Bit;
  writel(cfg, TnCfg(channel));
  writel(cmp, TnCmp(channel));
  delay_(kUdelay1Ns);
  // HPET on AMD 81xx needs a second write (with HPET_TN_SETVAL cleared) to
  // the comparator to set the period.
  writel(static_cast<uint32_t>(delta), TnCmp(channel));
  StartCounter();
}

void HpetDriver::SetOneShot(uint32_t channel) {
  Step("hpet_clkevt_set_state_oneshot");
  uint32_t cfg = readl(TnCfg(channel));
  cfg &= ~kTnPeriodic;
  cfg |= kTnEnable | kTn32Bit;
  writel(cfg, TnCfg(channel));
}

void HpetDriver::Shutdown(uint32_t channel) {
  Step("hpet_clkevt_set_state_shutdown");
  writel(readl(TnCfg(channel)) & ~kTnEnable, TnCfg(channel));
}

Status HpetDriver::SetNextEvent(uint32_t channel, uint32_t delta) {
  uint32_t cnt = readl(kCounter) + delta;
  writel(cnt, TnCmp(channel));
  if (bugs_.Has(Bug::kNoTooLateCheck)) return Status::kOk;
  // The comparator is an equality match and its write may land late (ICH9/10,
  // ATI, AMD): -ETIME unless the counter is still HPET_MIN_CYCLES ticks
  // short of the event after the write.
  auto res = static_cast<int32_t>(cnt - readl(kCounter));
  return res < static_cast<int32_t>(kMinCycles) ? Status::kTooLate : Status::kOk;
}

Status HpetDriver::ProgramEvent(uint32_t channel, uint64_t ns) {
  Step("clockevents_program_event");
  if (SetNextEvent(channel, static_cast<uint32_t>(clockevent_.TicksFor(ns))) == Status::kOk) return Status::kOk;
  for (int i = 0; i < kMinDeltaTries; ++i) {
    Step("clockevents_program_min_delta");
    auto min_delta = static_cast<uint32_t>(clockevent_.TicksFor(clockevent_.min_delta_ns));
    if (SetNextEvent(channel, min_delta) == Status::kOk) return Status::kOk;
  }
  return Status::kTooLate;
}

bool HpetDriver::SetupMsi(uint32_t channel, uint32_t address, uint32_t data) {
  if (channel >= channels_.size() || (channels_[channel].boot_cfg & kTnFsbCap) == 0) return false;
  Step("hpet_msi_write");
  writel(data, TnRoute(channel));
  writel(address, TnRoute(channel) + 4);
  Step("hpet_msi_unmask");
  writel(readl(TnCfg(channel)) | kTnEnable | kTnFsb, TnCfg(channel));
  return true;
}

}  // namespace regemu::hpet
