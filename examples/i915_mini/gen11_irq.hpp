#pragma once
// Gen11 GT interrupts as i915 drives them (i915 gt/intel_gt_irq.c):
// gen11_irq_reset, gen11_irq_postinstall and gen11_irq_handler with its
// selector/identity service of each pending engine. A template over the
// register IO (anything with Read/Write(offset, width[, value])), so the
// same handler runs on an MmioBus (fake, mock) or straight on a device;
// the MmioBus instance is compiled once, in gen11_irq.cpp.

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "examples/i915_mini/bugs.hpp"
#include "examples/i915_mini/delay.hpp"
#include "regemu/fakes/mmio_bus.hpp"
#include "regemu/regs/icl.hpp"

namespace regemu::i915_mini {

// One engine event the handler took from an identity register.
struct ServicedInterrupt {
  uint8_t bank = 0;
  uint8_t bit = 0;  // the DW bit selected
  uint8_t engine_class = 0;
  uint8_t instance = 0;
  uint16_t data = 0;  // the engine's interrupt bits (USER 0, CS_MASTER_ERROR 3, CONTEXT_SWITCH 8, ...)
};

// What one run of the handler saw and did.
class IrqReport {
 public:
  static constexpr size_t kMaxServiced = 64;  // two banks of 32 bits

  uint32_t master_ctl = 0;         // GEN11_GFX_MSTR_IRQ read right after the master disable
  uint32_t gu_misc_iir = 0;        // GU_MISC events acknowledged
  unsigned identity_timeouts = 0;  // selections whose identity never became valid

  bool handled() const { return master_ctl != 0; }  // IRQ_HANDLED vs IRQ_NONE
  std::span<const ServicedInterrupt> serviced() const { return {serviced_.data(), count_}; }
  void Add(const ServicedInterrupt& serviced) {
    if (count_ < kMaxServiced) serviced_[count_++] = serviced;
  }

 private:
  std::array<ServicedInterrupt, kMaxServiced> serviced_{};
  size_t count_ = 0;
};

// The engine interrupts i915 enables (GT_RENDER_USER_INTERRUPT,
// GT_CS_MASTER_ERROR_INTERRUPT, GT_CONTEXT_SWITCH_INTERRUPT,
// GT_WAIT_SEMAPHORE_INTERRUPT; no GuC submission).
inline constexpr uint16_t kGen11EngineIrqs = 0x0909;
// gen11_gt_engine_identity spins ~100 us for DATA_VALID.
inline constexpr uint64_t kIdentityTimeoutNs = 100'000;
inline constexpr uint64_t kIdentityPollNs = 1'000;

template <fakes::MmioBusLike Io>
class Gen11Irq {
 public:
  Gen11Irq(Io& mmio, Delay delay, Bugs bugs = {}) : io_(mmio), delay_(std::move(delay)), bugs_(bugs) {}

  // gen11_irq_reset: master off, every GT enable off and mask on, GU_MISC
  // and PCU IIRs reset.
  void Reset();
  // gen11_irq_postinstall: the engine interrupts enabled and unmasked,
  // GU_MISC GSE enabled, master on.
  void Postinstall();
  // gen11_irq_handler.
  IrqReport Handle();

 private:
  static uint64_t DwOffset(unsigned bank) {
    return bank == 0 ? regs::icl::GEN11_GT_INTR_DW0::kOffset : regs::icl::GEN11_GT_INTR_DW1::kOffset;
  }
  void Write32(uint64_t offset, uint32_t value) { io_.Write(offset, 32, value); }
  uint32_t Read32(uint64_t offset) { return static_cast<uint32_t>(io_.Read(offset, 32)); }

  void DisableMaster();
  void EnableMaster();
  // GEN3_IRQ_RESET / GEN3_IRQ_INIT of a classic IMR/IIR/IER triple.
  void ResetIir(uint64_t imr, uint64_t ier, uint64_t iir);
  void InitIir(uint64_t imr, uint64_t ier, uint64_t iir, uint32_t imr_value, uint32_t ier_value);
  void BankHandler(unsigned bank, IrqReport& report);
  void ServiceEngine(unsigned bank, uint32_t selector, IrqReport& report);

  Io& io_;
  Delay delay_;
  Bugs bugs_;
};

// ---------------------------------------------------------------- the template's body

template <fakes::MmioBusLike Io>
void Gen11Irq<Io>::DisableMaster() {
  regs::icl::GEN11_GFX_MSTR_IRQ::FromValue(0).WriteTo(io_);
}

template <fakes::MmioBusLike Io>
void Gen11Irq<Io>::EnableMaster() {
  regs::icl::GEN11_GFX_MSTR_IRQ::FromValue(0).set_master_irq(1).WriteTo(io_);
}

template <fakes::MmioBusLike Io>
void Gen11Irq<Io>::ResetIir(uint64_t imr, uint64_t ier, uint64_t iir) {
  Write32(imr, 0xFFFFFFFF);
  Read32(imr);  // posting read
  Write32(ier, 0);
  // "IIR can theoretically queue up two events. Be paranoid."
  Write32(iir, 0xFFFFFFFF);
  Read32(iir);
  Write32(iir, 0xFFFFFFFF);
  Read32(iir);
}

template <fakes::MmioBusLike Io>
void Gen11Irq<Io>::InitIir(uint64_t imr, uint64_t ier, uint64_t iir, uint32_t imr_value, uint32_t ier_value) {
  // gen3_assert_iir_is_zero: an event left from before would fire the
  // moment IER enables it.
  if (Read32(iir) != 0) {
    Write32(iir, 0xFFFFFFFF);
    Read32(iir);
    Write32(iir, 0xFFFFFFFF);
    Read32(iir);
  }
  Write32(ier, ier_value);
  Write32(imr, imr_value);
  Read32(imr);
}

template <fakes::MmioBusLike Io>
void Gen11Irq<Io>::Reset() {
  namespace icl = regs::icl;
  DisableMaster();
  icl::GEN11_GFX_MSTR_IRQ::Get().ReadFrom(io_);  // posting read

  // gen11_gt_irq_reset
  Write32(icl::GEN11_RENDER_COPY_INTR_ENABLE::kOffset, 0);
  Write32(icl::GEN11_VCS_VECS_INTR_ENABLE::kOffset, 0);
  Write32(icl::GEN11_RCS0_RSVD_INTR_MASK::kOffset, ~0u);
  Write32(icl::GEN11_BCS_RSVD_INTR_MASK::kOffset, ~0u);
  Write32(icl::GEN11_VCS0_VCS1_INTR_MASK::kOffset, ~0u);
  Write32(icl::GEN11_VCS2_VCS3_INTR_MASK::kOffset, ~0u);
  Write32(icl::GEN11_VECS0_VECS1_INTR_MASK::kOffset, ~0u);
  Write32(icl::GEN11_GPM_WGBOXPERF_INTR_ENABLE::kOffset, 0);
  Write32(icl::GEN11_GPM_WGBOXPERF_INTR_MASK::kOffset, ~0u);
  Write32(icl::GEN11_GUC_SG_INTR_ENABLE::kOffset, 0);
  Write32(icl::GEN11_GUC_SG_INTR_MASK::kOffset, ~0u);
  Write32(icl::GEN11_CRYPTO_RSVD_INTR_ENABLE::kOffset, 0);
  Write32(icl::GEN11_CRYPTO_RSVD_INTR_MASK::kOffset, ~0u);

  ResetIir(icl::GEN11_GU_MISC_IMR::kOffset, icl::GEN11_GU_MISC_IER::kOffset, icl::GEN11_GU_MISC_IIR::kOffset);
  ResetIir(icl::GEN8_PCU_IMR::kOffset, icl::GEN8_PCU_IER::kOffset, icl::GEN8_PCU_IIR::kOffset);
}

template <fakes::MmioBusLike Io>
void Gen11Irq<Io>::Postinstall() {
  namespace icl = regs::icl;
  // Enables in both halves (every class), masks open only where an engine
  // ICL has lives: the render half of RCS0_RSVD and BCS_RSVD, both halves
  // of the VCS/VECS pairs.
  const uint32_t dmask = uint32_t{kGen11EngineIrqs} << 16 | kGen11EngineIrqs;
  const uint32_t smask = uint32_t{kGen11EngineIrqs} << 16;
  icl::GEN11_RENDER_COPY_INTR_ENABLE::FromValue(0).set_render(kGen11EngineIrqs).set_copy(kGen11EngineIrqs).WriteTo(io_);
  icl::GEN11_VCS_VECS_INTR_ENABLE::FromValue(0).set_vcs(kGen11EngineIrqs).set_vecs(kGen11EngineIrqs).WriteTo(io_);
  Write32(icl::GEN11_RCS0_RSVD_INTR_MASK::kOffset, ~smask);
  Write32(icl::GEN11_BCS_RSVD_INTR_MASK::kOffset, ~smask);
  Write32(icl::GEN11_VCS0_VCS1_INTR_MASK::kOffset, ~dmask);
  Write32(icl::GEN11_VCS2_VCS3_INTR_MASK::kOffset, ~dmask);
  Write32(icl::GEN11_VECS0_VECS1_INTR_MASK::kOffset, ~dmask);
  // No GuC, no power-management or OA events.
  Write32(icl::GEN11_GPM_WGBOXPERF_INTR_ENABLE::kOffset, 0);
  Write32(icl::GEN11_GPM_WGBOXPERF_INTR_MASK::kOffset, ~0u);
  Write32(icl::GEN11_GUC_SG_INTR_ENABLE::kOffset, 0);
  Write32(icl::GEN11_GUC_SG_INTR_MASK::kOffset, ~0u);

  const auto gse = static_cast<uint32_t>(icl::GEN11_GU_MISC_IIR::GSE::kMask);
  InitIir(icl::GEN11_GU_MISC_IMR::kOffset, icl::GEN11_GU_MISC_IER::kOffset, icl::GEN11_GU_MISC_IIR::kOffset, ~gse, gse);

  EnableMaster();
  icl::GEN11_GFX_MSTR_IRQ::Get().ReadFrom(io_);  // posting read
}

template <fakes::MmioBusLike Io>
IrqReport Gen11Irq<Io>::Handle() {
  namespace icl = regs::icl;
  IrqReport report;
  // gen11_master_intr_disable: the master read after the disable is the
  // snapshot of what is pending.
  DisableMaster();
  auto master = icl::GEN11_GFX_MSTR_IRQ::Get().ReadFrom(io_);
  report.master_ctl = master.reg_value();
  if (report.master_ctl == 0) {
    EnableMaster();
    return report;  // IRQ_NONE: not ours
  }

  // gen11_gt_irq_handler
  if (master.gt_dw0_irq() != 0) BankHandler(0, report);
  if (master.gt_dw1_irq() != 0) BankHandler(1, report);

  // gen11_gu_misc_irq_ack
  if (master.gu_misc_irq() != 0) {
    auto iir = icl::GEN11_GU_MISC_IIR::Get().ReadFrom(io_);
    if (iir.reg_value() != 0) iir.WriteTo(io_);
    report.gu_misc_iir = iir.reg_value();
  }

  EnableMaster();
  return report;
}

template <fakes::MmioBusLike Io>
void Gen11Irq<Io>::BankHandler(unsigned bank, IrqReport& report) {
  // The DW read locks the bank: events arriving from here on wait in
  // secondary storage until the DW is cleared.
  const uint32_t dw = Read32(DwOffset(bank));
  if (bugs_.Has(Bug::kClearDwBeforeService)) Write32(DwOffset(bank), dw);  // THE BUG: acked unserviced

  if (bugs_.Has(Bug::kSelectAllPending)) {
    if (dw != 0) ServiceEngine(bank, dw, report);  // THE BUG: not one-hot when two engines are pending
  } else {
    for (uint32_t rest = dw; rest != 0; rest &= rest - 1) {
      ServiceEngine(bank, uint32_t{1} << std::countr_zero(rest), report);
    }
  }

  // "Clear must be after shared has been served for engine."
  if (!bugs_.Has(Bug::kClearDwBeforeService)) Write32(DwOffset(bank), dw);
}

template <fakes::MmioBusLike Io>
void Gen11Irq<Io>::ServiceEngine(unsigned bank, uint32_t selector, IrqReport& report) {
  namespace icl = regs::icl;
  // gen11_gt_engine_identity
  icl::GEN11_IIR_REG_SELECTOR::FromValue(bank, selector).WriteTo(io_);
  auto identity = icl::GEN11_INTR_IDENTITY_REG::Get(bank);
  bool valid = PollUntil(delay_, kIdentityTimeoutNs, kIdentityPollNs,
                         [&] { return identity.ReadFrom(io_).data_valid() != 0; });
  if (!valid) {
    ++report.identity_timeouts;  // i915: "INTR_IDENTITY_REG%u:%u 0x%08x not valid!"
    return;
  }
  icl::GEN11_INTR_IDENTITY_REG::FromValue(bank, 0).set_data_valid(1).WriteTo(io_);
  report.Add({static_cast<uint8_t>(bank), static_cast<uint8_t>(std::countr_zero(selector)),
              static_cast<uint8_t>(identity.class_()), static_cast<uint8_t>(identity.instance()),
              static_cast<uint16_t>(identity.data())});
}

extern template class Gen11Irq<fakes::MmioBus>;

}  // namespace regemu::i915_mini
