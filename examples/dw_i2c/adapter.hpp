#pragma once
// A DesignWare I2C adapter driven the way Linux drives it
// (drivers/i2c/busses/i2c-designware-common.c and -master.c), reduced to
// its register accesses, against the generated header
// (regemu/regs/dw_i2c.hpp) and the MmioBus seam: i2c_dw_probe's
// IC_COMP_TYPE check and FIFO depths, __i2c_dw_disable's IC_ENABLE_STATUS
// polling, i2c_dw_init_master at 400 kHz from a 120 MHz ic_clk (Intel
// LPSS), and i2c_dw_xfer of a write-then-read message pair with the ISR
// (i2c_dw_isr, i2c_dw_read_clear_intrbits, i2c_dw_xfer_msg, i2c_dw_read).

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "examples/dw_i2c/bugs.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::dw_i2c {

// Linux's return values (errno, negated).
inline constexpr int kEremoteio = -121, kEio = -5, kEtimedout = -110, kEnodev = -19;

class Adapter {
 public:
  // `wait` lets virtual time pass (usleep_range on hardware; Device::Advance in tests).
  Adapter(fakes::MmioBus& io, std::function<void(uint64_t ns)> wait, Bugs bugs = {})
      : io_(io), wait_(std::move(wait)), bugs_(bugs) {}

  // i2c_dw_probe: 0, or kEnodev when IC_COMP_TYPE is not the DesignWare value.
  int Probe();
  // i2c_dw_init_master: disable, SCL counts, SDA hold, FIFO thresholds, IC_CON.
  void InitMaster();
  // i2c_dw_xfer's start (i2c_dw_xfer_init) of two messages to `address`:
  // `write` bytes, then a read of `read_count` bytes after a RESTART.
  void StartTransfer(uint16_t address, std::span<const uint8_t> write, size_t read_count);
  // i2c_dw_isr: false when the interrupt was not this adapter's.
  bool HandleIrq();
  bool done() const { return complete_; }
  // i2c_dw_xfer's end: 2 (the messages done), or kEremoteio (not
  // acknowledged), kEio, kEtimedout (never completed).
  int FinishTransfer();
  const std::vector<uint8_t>& read_data() const { return read_data_; }
  uint32_t abort_source() const { return abort_source_; }

 private:
  void Disable();
  void XferMsg();
  void ReadRx();

  fakes::MmioBus& io_;
  std::function<void(uint64_t ns)> wait_;
  Bugs bugs_;
  unsigned tx_fifo_depth_ = 0;
  unsigned rx_fifo_depth_ = 0;
  bool sda_hold_supported_ = false;
  // The transfer in flight: the write message, then the read message.
  std::vector<uint8_t> write_;
  size_t read_count_ = 0;
  size_t write_index_ = 0;      // bytes of the write message queued
  size_t read_queued_ = 0;      // read commands queued
  size_t rx_outstanding_ = 0;   // read commands whose byte has not been popped
  std::vector<uint8_t> read_data_;
  uint32_t abort_source_ = 0;
  bool aborted_ = false;
  bool complete_ = false;
};

}  // namespace regemu::dw_i2c
