#pragma once
// A 16550A port driven the way Linux's 8250 driver drives it
// (drivers/tty/serial/8250/8250_port.c), reduced to its
// register accesses, against the generated header (regemu/regs/uart16550.hpp)
// and the MmioBus seam: autoconfig's probes, serial8250_do_startup,
// set_termios with the divisor, transmit by THRE interrupt
// (serial8250_tx_chars) and receive with error flags (serial8250_rx_chars).

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "examples/uart16550/bugs.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::uart16550 {

enum class PortType : uint8_t { kNone, k8250, k16450, k16550, k16550A };

// What serial8250_read_char makes of a received character's LSR.
struct Received {
  std::string text;
  unsigned overruns = 0;
  unsigned parity_errors = 0;
  unsigned framing_errors = 0;
  unsigned breaks = 0;
};

class Port {
 public:
  // `wait` lets virtual time pass (udelay/mdelay on hardware; Device::Advance in tests).
  Port(fakes::MmioBus& io, std::function<void(uint64_t ns)> wait, Bugs bugs = {})
      : io_(io), wait_(std::move(wait)), bugs_(bugs) {}

  // autoconfig(): the IER test, the loopback test, the FIFO type from IIR[7:6].
  PortType Autoconfig();
  // serial8250_do_startup(): FIFOs cleared, pending state read away, the
  // THRE re-assert test, 8N1, MCR with OUT2, the TX-enable test. False when
  // LSR reads 0xFF (no port).
  bool Startup();
  // serial8250_do_set_termios() for 8N1 at `baud` (uartclk 1.8432 MHz),
  // RX trigger 8: IER, the divisor with DLAB, LCR, FCR in two steps, MCR.
  void SetTermios(uint32_t baud);
  // uart_write + __start_tx: queue `text` and set IER.THRI; the interrupt
  // handler (HandleIrq) sends it 16 characters per THRE.
  void Write(std::string_view text);
  // serial8250_handle_irq: IIR, then receive while DR|BI, then transmit on
  // THRE. False when IIR said no interrupt.
  bool HandleIrq();
  // serial8250_do_shutdown: IER 0, OUT2 off, FIFOs cleared, RBR read.
  void Shutdown();

  bool tx_done() const { return tx_queue_.empty(); }
  const Received& received() const { return received_; }
  // IIR reads the handler found nothing pending in (a shared line's other devices).
  unsigned spurious() const { return spurious_; }

 private:
  void SetDivisor(uint32_t quot);
  void ClearFifos();
  void TxChars();
  uint8_t RxChars(uint8_t lsr);
  uint8_t ReadLsr();

  fakes::MmioBus& io_;
  std::function<void(uint64_t ns)> wait_;
  Bugs bugs_;
  uint8_t ier_ = 0;  // Linux's up->ier shadow
  uint8_t lcr_ = 0;
  uint8_t lsr_saved_flags_ = 0;  // Linux's up->lsr_saved_flags
  std::string tx_queue_;
  Received received_;
  unsigned spurious_ = 0;
};

}  // namespace regemu::uart16550
