#include "examples/uart16550/port.hpp"

#include <algorithm>

#include "regemu/regs/uart16550.hpp"

namespace regemu::uart16550 {

namespace r = regs::uart16550;

namespace {

// Bits by Linux's include/uapi/linux/serial_reg.h names.
constexpr uint8_t kIerRdi = 0x01, kIerThri = 0x02, kIerRlsi = 0x04, kIerAll = 0x0F;
constexpr uint8_t kIirNoInt = 0x01;
constexpr uint8_t kFcrEnable = 0x01, kFcrClearRcvr = 0x02, kFcrClearXmit = 0x04, kFcrTrigger8 = 0x80;
constexpr uint8_t kLcrWlen8 = 0x03, kLcrDlab = 0x80;
constexpr uint8_t kMcrDtr = 0x01, kMcrRts = 0x02, kMcrOut2 = 0x08, kMcrLoop = 0x10;
constexpr uint8_t kLsrDr = 0x01, kLsrOe = 0x02, kLsrPe = 0x04, kLsrFe = 0x08, kLsrBi = 0x10, kLsrThre = 0x20;
constexpr uint8_t kLsrBrkErrorBits = kLsrOe | kLsrPe | kLsrFe | kLsrBi;  // UART_LSR_BRK_ERROR_BITS
constexpr uint8_t kMsrDcd = 0x80, kMsrCts = 0x10;
constexpr uint32_t kUartClock = 1'843'200;
constexpr unsigned kTxLoadSize = 16;  // uart_config[PORT_16550A].tx_loadsz

}  // namespace

PortType Port::Autoconfig() {
  // The IER test: 0x00 and 0x0F read back (bits 7:4 read 0).
  uint8_t saved_ier = io_.Read8(r::IER::kOffset);
  io_.Write8(r::IER::kOffset, 0);
  uint8_t scratch = io_.Read8(r::IER::kOffset) & 0x0F;
  io_.Write8(r::IER::kOffset, kIerAll);
  uint8_t scratch2 = io_.Read8(r::IER::kOffset) & 0x0F;
  io_.Write8(r::IER::kOffset, saved_ier);
  if (scratch != 0 || scratch2 != kIerAll) return PortType::kNone;

  uint8_t saved_mcr = io_.Read8(r::MCR::kOffset);
  uint8_t saved_lcr = io_.Read8(r::LCR::kOffset);
  // The loopback test: LOOP | OUT2 | RTS shows DCD | CTS in MSR.
  io_.Write8(r::MCR::kOffset, kMcrLoop | kMcrOut2 | kMcrRts);
  uint8_t status = io_.Read8(r::MSR::kOffset) & 0xF0;
  io_.Write8(r::MCR::kOffset, saved_mcr);
  if (status != (kMsrDcd | kMsrCts)) return PortType::kNone;

  // EFR of 16650-class parts (a plain FCR write of 0 here), then the FIFO type from IIR[7:6].
  io_.Write8(r::LCR::kOffset, 0xBF);
  io_.Write8(r::FCR::kOffset, 0);
  io_.Write8(r::LCR::kOffset, 0);
  io_.Write8(r::FCR::kOffset, kFcrEnable);
  uint8_t fifo = io_.Read8(r::IIR::kOffset) >> 6;
  PortType type = PortType::k16550A;
  if (fifo == 0) {
    // autoconfig_8250: a scratch register tells a 16450 from an 8250.
    uint8_t saved_scr = io_.Read8(r::SCR::kOffset);
    io_.Write8(r::SCR::kOffset, 0xA5);
    bool a5 = io_.Read8(r::SCR::kOffset) == 0xA5;
    io_.Write8(r::SCR::kOffset, 0x5A);
    bool five_a = io_.Read8(r::SCR::kOffset) == 0x5A;
    io_.Write8(r::SCR::kOffset, saved_scr);
    type = a5 && five_a ? PortType::k16450 : PortType::k8250;
  } else if (fifo == 2) {
    type = PortType::k16550;
  } else if (fifo == 1) {
    type = PortType::kNone;
  }
  io_.Write8(r::LCR::kOffset, saved_lcr);
  io_.Write8(r::MCR::kOffset, saved_mcr);
  ClearFifos();
  io_.Read8(r::RBR::kOffset);
  io_.Write8(r::IER::kOffset, 0);
  return type;
}

void Port::ClearFifos() {
  io_.Write8(r::FCR::kOffset, kFcrEnable);
  io_.Write8(r::FCR::kOffset, kFcrEnable | kFcrClearRcvr | kFcrClearXmit);
  io_.Write8(r::FCR::kOffset, 0);
}

bool Port::Startup() {
  ClearFifos();
  io_.Read8(r::LSR::kOffset);
  io_.Read8(r::RBR::kOffset);
  io_.Read8(r::IIR::kOffset);
  io_.Read8(r::MSR::kOffset);
  if (io_.Read8(r::LSR::kOffset) == 0xFF) return false;  // "LSR safety check engaged!"

  // The THRE re-assert test: THRE must show again when THRI is set again.
  for (int i = 0; i < 10 && (io_.Read8(r::LSR::kOffset) & kLsrThre) == 0; ++i) wait_(1'000'000);
  io_.Write8(r::IER::kOffset, kIerThri);
  wait_(1'000);
  io_.Read8(r::IIR::kOffset);
  io_.Write8(r::IER::kOffset, 0);
  io_.Write8(r::IER::kOffset, kIerThri);
  wait_(1'000);
  io_.Read8(r::IIR::kOffset);
  io_.Write8(r::IER::kOffset, 0);

  lcr_ = kLcrWlen8;
  io_.Write8(r::LCR::kOffset, lcr_);
  io_.Write8(r::MCR::kOffset, kMcrDtr | kMcrRts | kMcrOut2);
  // The TX-enable test.
  io_.Write8(r::IER::kOffset, kIerThri);
  io_.Read8(r::LSR::kOffset);
  io_.Read8(r::IIR::kOffset);
  io_.Write8(r::IER::kOffset, 0);
  io_.Read8(r::LSR::kOffset);
  io_.Read8(r::RBR::kOffset);
  io_.Read8(r::IIR::kOffset);
  io_.Read8(r::MSR::kOffset);
  ier_ = kIerRlsi | kIerRdi;
  return true;
}

void Port::SetDivisor(uint32_t quot) {
  io_.Write8(r::LCR::kOffset, lcr_ | kLcrDlab);
  io_.Write8(r::DLL::kOffset, static_cast<uint8_t>(quot & 0xFF));
  io_.Write8(r::DLM::kOffset, static_cast<uint8_t>(quot >> 8));
}

void Port::SetTermios(uint32_t baud) {
  lcr_ = kLcrWlen8;
  // uart_get_divisor: round to nearest.
  uint32_t quot = (kUartClock + 8 * baud) / (16 * baud);
  io_.Write8(r::IER::kOffset, ier_);
  if (!bugs_.Has(Bug::kNoDivisor)) SetDivisor(quot);
  if (!bugs_.Has(Bug::kDlabLeftSet)) io_.Write8(r::LCR::kOffset, lcr_);
  io_.Write8(r::FCR::kOffset, kFcrEnable);
  io_.Write8(r::FCR::kOffset, kFcrEnable | kFcrTrigger8);
  io_.Write8(r::MCR::kOffset, kMcrDtr | kMcrRts | kMcrOut2);
}

void Port::Write(std::string_view text) {
  tx_queue_ += text;
  if ((ier_ & kIerThri) == 0) {
    ier_ |= kIerThri;
    io_.Write8(r::IER::kOffset, ier_);
  }
}

void Port::TxChars() {
  if (tx_queue_.empty()) {
    // __stop_tx: nothing left, THRI off.
    ier_ &= static_cast<uint8_t>(~kIerThri);
    io_.Write8(r::IER::kOffset, ier_);
    return;
  }
  size_t count = bugs_.Has(Bug::kOverfillFifo) ? kTxLoadSize + 1 : kTxLoadSize;
  size_t n = std::min(count, tx_queue_.size());
  for (size_t i = 0; i < n; ++i) io_.Write8(r::THR::kOffset, static_cast<uint8_t>(tx_queue_[i]));
  tx_queue_.erase(0, n);
  if (tx_queue_.empty()) {
    ier_ &= static_cast<uint8_t>(~kIerThri);
    io_.Write8(r::IER::kOffset, ier_);
  }
}

uint8_t Port::RxChars(uint8_t lsr) {
  for (int max = 256; max > 0 && (lsr & (kLsrDr | kLsrBi)) != 0; --max) {
    uint8_t ch = (lsr & kLsrDr) != 0 ? io_.Read8(r::RBR::kOffset) : 0;
    // serial8250_read_char: error bits an earlier LSR read saw belong to this character.
    lsr |= lsr_saved_flags_;
    lsr_saved_flags_ = 0;
    if ((lsr & kLsrBi) != 0) {
      ++received_.breaks;
    } else if ((lsr & kLsrPe) != 0) {
      ++received_.parity_errors;
    } else if ((lsr & kLsrFe) != 0) {
      ++received_.framing_errors;
    }
    if ((lsr & kLsrOe) != 0) ++received_.overruns;
    if ((lsr & kLsrBi) == 0) received_.text += static_cast<char>(ch);
    lsr = ReadLsr();
  }
  return lsr;
}

// serial_lsr_in: LSR's error bits clear when it is read, so a read that
// finds them before their character keeps them for it.
uint8_t Port::ReadLsr() {
  uint8_t lsr = io_.Read8(r::LSR::kOffset);
  lsr_saved_flags_ |= lsr & kLsrBrkErrorBits;
  return lsr;
}

bool Port::HandleIrq() {
  uint8_t iir = io_.Read8(r::IIR::kOffset);
  if ((iir & kIirNoInt) != 0) {
    ++spurious_;
    return false;
  }
  uint8_t lsr = ReadLsr();
  if ((lsr & (kLsrDr | kLsrBi)) != 0) lsr = RxChars(lsr);
  io_.Read8(r::MSR::kOffset);  // serial8250_modem_status
  if ((lsr & kLsrThre) != 0 && (ier_ & kIerThri) != 0) TxChars();
  return true;
}

void Port::Shutdown() {
  ier_ = 0;
  io_.Write8(r::IER::kOffset, 0);
  io_.Write8(r::MCR::kOffset, kMcrDtr | kMcrRts);
  io_.Write8(r::LCR::kOffset, static_cast<uint8_t>(io_.Read8(r::LCR::kOffset) & ~0x40u));  // break off
  ClearFifos();
  io_.Read8(r::RBR::kOffset);
}

}  // namespace regemu::uart16550
