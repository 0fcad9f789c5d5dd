#include "examples/dw_i2c/adapter.hpp"

#include "regemu/regs/dw_i2c.hpp"

namespace regemu::dw_i2c {

namespace r = regs::dw_i2c;

namespace {

// Values by Linux's i2c-designware-core.h names.
constexpr uint32_t kCompTypeValue = 0x44570140;        // DW_IC_COMP_TYPE_VALUE
constexpr uint32_t kSdaHoldMinVers = 0x3131312A;       // DW_IC_SDA_HOLD_MIN_VERS
constexpr uint32_t kConMasterFast = 0x65;              // MASTER | SPEED_FAST | RESTART_EN | SLAVE_DISABLE
constexpr uint32_t kCmdRead = 0x100, kCmdStop = 0x200, kCmdRestart = 0x400;
constexpr uint32_t kIntrRxUnder = 0x1, kIntrRxOver = 0x2, kIntrRxFull = 0x4, kIntrTxOver = 0x8, kIntrTxEmpty = 0x10,
                   kIntrTxAbrt = 0x40, kIntrRxDone = 0x80, kIntrActivity = 0x100, kIntrStopDet = 0x200,
                   kIntrStartDet = 0x400, kIntrGenCall = 0x800;
constexpr uint32_t kIntrMasterMask = 0x254;            // DW_IC_INTR_MASTER_MASK
constexpr uint32_t kStatusActivity = 0x1, kStatusMasterActivity = 0x20;
constexpr uint32_t kTxAbrtNoack = 0x1F;                // DW_IC_TX_ABRT_NOACK
// i2c_dw_scl_hcnt/lcnt for a 120 MHz ic_clk (Intel SPT LPSS), tf = 300 ns:
// standard 4000/4700 ns, fast 600/1300 ns (400 kHz).
constexpr uint64_t kIcClkKhz = 120'000;
constexpr uint32_t SclHcnt(uint64_t t_high_ns, uint64_t tf_ns) {
  return static_cast<uint32_t>((kIcClkKhz * (t_high_ns + tf_ns) + 500'000) / 1'000'000 - 3);
}
constexpr uint32_t SclLcnt(uint64_t t_low_ns, uint64_t tf_ns) {
  return static_cast<uint32_t>((kIcClkKhz * (t_low_ns + tf_ns) + 500'000) / 1'000'000 - 1);
}
// SDA hold 230 ns in ic_clk cycles (intel-lpss), RX hold 1 (i2c_dw_set_sda_hold).
constexpr uint32_t kSdaHold = static_cast<uint32_t>((230 * kIcClkKhz + 500'000) / 1'000'000) | (1u << 16);
// __i2c_dw_disable: up to 100 polls, 25-250 us apart.
constexpr int kDisablePolls = 100;
constexpr uint64_t kDisablePollNs = 25'000;

}  // namespace

int Adapter::Probe() {
  // i2c_dw_init_regmap: a plain 32-bit read must give the DesignWare type.
  if (io_.Read32(r::IC_COMP_TYPE::kOffset) != kCompTypeValue) return kEnodev;
  // i2c_dw_set_timings_master reads the speed modes; i2c_dw_set_sda_hold the version.
  io_.Read32(r::IC_COMP_PARAM_1::kOffset);
  // Intel LPSS gives a hold time; only 1.11a and later have IC_SDA_HOLD for it.
  sda_hold_supported_ = io_.Read32(r::IC_COMP_VERSION::kOffset) >= kSdaHoldMinVers;
  // i2c_dw_set_fifo_size: depth - 1 in bits 23:16 (TX) and 15:8 (RX).
  uint32_t param = io_.Read32(r::IC_COMP_PARAM_1::kOffset);
  tx_fifo_depth_ = ((param >> 16) & 0xFF) + 1;
  rx_fifo_depth_ = ((param >> 8) & 0xFF) + 1;
  // i2c_dw_probe_master keeps a firmware-set BUS_CLEAR_CTRL.
  io_.Read32(r::IC_CON::kOffset);
  InitMaster();
  io_.Write32(r::IC_INTR_MASK::kOffset, 0);
  return 0;
}

// __i2c_dw_disable: IC_ENABLE = 0, then IC_ENABLE_STATUS polled until IC_EN
// reads 0 (disabling waits for the bus; A10 21.5.3).
void Adapter::Disable() {
  io_.Read32(r::IC_RAW_INTR_STAT::kOffset);
  io_.Read32(r::IC_STATUS::kOffset);
  io_.Read32(r::IC_ENABLE::kOffset);
  for (int poll = 0; poll < kDisablePolls; ++poll) {
    io_.Write32(r::IC_ENABLE::kOffset, 0);
    if (bugs_.Has(Bug::kNoEnableStatusPoll)) return;
    if ((io_.Read32(r::IC_ENABLE_STATUS::kOffset) & 1) == 0) return;
    wait_(kDisablePollNs);
  }
}

void Adapter::InitMaster() {
  Disable();
  io_.Write32(r::IC_SS_SCL_HCNT::kOffset, SclHcnt(4000, 300));
  io_.Write32(r::IC_SS_SCL_LCNT::kOffset, SclLcnt(4700, 300));
  io_.Write32(r::IC_FS_SCL_HCNT::kOffset, SclHcnt(600, 300));
  io_.Write32(r::IC_FS_SCL_LCNT::kOffset, SclLcnt(1300, 300));
  if (sda_hold_supported_) io_.Write32(r::IC_SDA_HOLD::kOffset, kSdaHold);
  io_.Write32(r::IC_TX_TL::kOffset, tx_fifo_depth_ / 2);
  io_.Write32(r::IC_RX_TL::kOffset, 0);
  io_.Write32(r::IC_CON::kOffset, kConMasterFast);
}

void Adapter::StartTransfer(uint16_t address, std::span<const uint8_t> write, size_t read_count) {
  write_.assign(write.begin(), write.end());
  read_count_ = read_count;
  write_index_ = read_queued_ = rx_outstanding_ = 0;
  read_data_.clear();
  abort_source_ = 0;
  aborted_ = complete_ = false;
  // i2c_dw_wait_bus_not_busy.
  for (int poll = 0; poll < 20 && (io_.Read32(r::IC_STATUS::kOffset) & kStatusActivity) != 0; ++poll) wait_(1'100'000);
  // i2c_dw_xfer_init.
  if (!bugs_.Has(Bug::kRetargetWhileEnabled)) Disable();
  // regmap_update_bits of DW_IC_CON_10BITADDR_MASTER: a read, and no write
  // for a 7-bit address (the bit is already clear).
  io_.Read32(r::IC_CON::kOffset);
  io_.Write32(r::IC_TAR::kOffset, address);
  io_.Write32(r::IC_INTR_MASK::kOffset, 0);
  io_.Write32(r::IC_ENABLE::kOffset, 1);
  io_.Read32(r::IC_ENABLE_STATUS::kOffset);  // Bay Trail: the dummy read
  io_.Read32(r::IC_CLR_INTR::kOffset);
  io_.Write32(r::IC_INTR_MASK::kOffset, kIntrMasterMask);
}

bool Adapter::HandleIrq() {
  uint32_t enabled = io_.Read32(r::IC_ENABLE::kOffset);
  uint32_t raw = io_.Read32(r::IC_RAW_INTR_STAT::kOffset);
  if (enabled == 0 || (raw & ~kIntrActivity) == 0) return false;
  // i2c_dw_read_clear_intrbits: each bit cleared by its own register; the
  // abort source saved before IC_CLR_TX_ABRT clears it.
  uint32_t stat = io_.Read32(r::IC_INTR_STAT::kOffset);
  if (stat & kIntrRxUnder) io_.Read32(r::IC_CLR_RX_UNDER::kOffset);
  if (stat & kIntrRxOver) io_.Read32(r::IC_CLR_RX_OVER::kOffset);
  if (stat & kIntrTxOver) io_.Read32(r::IC_CLR_TX_OVER::kOffset);
  if (stat & kIntrTxAbrt) {
    if (bugs_.Has(Bug::kClearAbortBeforeSource)) {
      io_.Read32(r::IC_CLR_TX_ABRT::kOffset);
      abort_source_ = io_.Read32(r::IC_TX_ABRT_SOURCE::kOffset);
    } else {
      abort_source_ = io_.Read32(r::IC_TX_ABRT_SOURCE::kOffset);
      io_.Read32(r::IC_CLR_TX_ABRT::kOffset);
    }
  }
  if (stat & kIntrRxDone) io_.Read32(r::IC_CLR_RX_DONE::kOffset);
  if (stat & kIntrActivity) io_.Read32(r::IC_CLR_ACTIVITY::kOffset);
  if ((stat & kIntrStopDet) && (rx_outstanding_ == 0 || (stat & kIntrRxFull))) {
    io_.Read32(r::IC_CLR_STOP_DET::kOffset);
  }
  if (stat & kIntrStartDet) io_.Read32(r::IC_CLR_START_DET::kOffset);
  if (stat & kIntrGenCall) io_.Read32(r::IC_CLR_GEN_CALL::kOffset);
  // i2c_dw_process_transfer.
  if (stat & kIntrTxAbrt) {
    aborted_ = true;
    rx_outstanding_ = 0;
    io_.Write32(r::IC_INTR_MASK::kOffset, 0);
    complete_ = true;
    return true;
  }
  if (stat & kIntrRxFull) ReadRx();
  if (stat & kIntrTxEmpty) XferMsg();
  if ((stat & kIntrStopDet) && rx_outstanding_ == 0) complete_ = true;
  return true;
}

// i2c_dw_xfer_msg: as many commands as both FIFOs have room for; STOP on the
// last byte of the last message, RESTART on the first byte of the second.
void Adapter::XferMsg() {
  uint32_t tx_limit = tx_fifo_depth_ - io_.Read32(r::IC_TXFLR::kOffset);
  uint32_t rx_limit = rx_fifo_depth_ - io_.Read32(r::IC_RXFLR::kOffset);
  while (write_index_ < write_.size() && tx_limit > 0) {
    uint32_t cmd = write_[write_index_];
    if (write_index_ + 1 == write_.size() && read_count_ == 0) cmd |= kCmdStop;
    io_.Write32(r::IC_DATA_CMD::kOffset, cmd);
    ++write_index_;
    --tx_limit;
  }
  while (write_index_ == write_.size() && read_queued_ < read_count_ && tx_limit > 0 && rx_limit > 0 &&
         rx_outstanding_ < rx_fifo_depth_) {
    uint32_t cmd = kCmdRead;
    if (read_queued_ == 0 && !write_.empty()) cmd |= kCmdRestart;
    if (read_queued_ + 1 == read_count_) cmd |= kCmdStop;
    io_.Write32(r::IC_DATA_CMD::kOffset, cmd);
    ++read_queued_;
    ++rx_outstanding_;
    --tx_limit;
    --rx_limit;
  }
  bool all_queued = write_index_ == write_.size() && read_queued_ == read_count_;
  io_.Write32(r::IC_INTR_MASK::kOffset, all_queued ? kIntrMasterMask & ~kIntrTxEmpty : kIntrMasterMask);
}

// i2c_dw_read: every byte the RX FIFO holds.
void Adapter::ReadRx() {
  for (uint32_t n = io_.Read32(r::IC_RXFLR::kOffset); n > 0 && rx_outstanding_ > 0; --n) {
    read_data_.push_back(static_cast<uint8_t>(io_.Read32(r::IC_DATA_CMD::kOffset) & 0xFF));
    --rx_outstanding_;
  }
}

int Adapter::FinishTransfer() {
  if (!complete_) {
    io_.Write32(r::IC_ENABLE::kOffset, 0);
    return kEtimedout;
  }
  // i2c_dw_is_controller_active, then __i2c_dw_disable_nowait.
  for (int poll = 0; poll < 20 && (io_.Read32(r::IC_STATUS::kOffset) & kStatusMasterActivity) != 0; ++poll) {
    wait_(1'100'000);
  }
  if (!bugs_.Has(Bug::kRetargetWhileEnabled)) io_.Write32(r::IC_ENABLE::kOffset, 0);
  // i2c_dw_handle_tx_abort.
  if (aborted_) return (abort_source_ & kTxAbrtNoack) != 0 ? kEremoteio : kEio;
  return 2;
}

}  // namespace regemu::dw_i2c
