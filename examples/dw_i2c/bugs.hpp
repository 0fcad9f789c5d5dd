#pragma once
// The mistakes the example DesignWare I2C driver can be told to make, one
// switch each, so tests and the demo show what regemu reports for each (or,
// where no register rule can see it, what the driver then gets). A driver
// with no bug set follows Linux's drivers/i2c/busses/i2c-designware-*.c.

#include <cstdint>
#include <string_view>

#include "examples/bug_set.hpp"

namespace regemu::dw_i2c {

enum class Bug : uint8_t {
  // Keeping the controller enabled between transfers and retargeting it
  // with a plain IC_TAR write (no __i2c_dw_disable in i2c_dw_xfer_init, no
  // __i2c_dw_disable_nowait at the end): the databook ignores the write
  // (`protocol`, rule configured_while_enabled).
  kRetargetWhileEnabled,
  // __i2c_dw_disable writing IC_ENABLE = 0 without polling
  // IC_ENABLE_STATUS.IC_EN: the reprogramming that follows lands while the
  // controller is still enabled (`protocol`, rule configured_while_enabled).
  kNoEnableStatusPoll,
  // i2c_dw_read_clear_intrbits reading IC_CLR_TX_ABRT before
  // IC_TX_ABRT_SOURCE: the reason is gone, so an absent target is reported
  // as -EIO instead of -EREMOTEIO. No register rule can see a read order
  // that loses information: the driver's result shows it.
  kClearAbortBeforeSource,
};

inline constexpr Bug kAllBugs[] = {Bug::kRetargetWhileEnabled, Bug::kNoEnableStatusPoll,
                                   Bug::kClearAbortBeforeSource};

constexpr std::string_view BugName(Bug bug) {
  switch (bug) {
    case Bug::kRetargetWhileEnabled: return "retarget-while-enabled";
    case Bug::kNoEnableStatusPoll: return "no-enable-status-poll";
    case Bug::kClearAbortBeforeSource: return "clear-abort-before-source";
  }
  return "?";
}

using Bugs = examples::BugSet<Bug>;

}  // namespace regemu::dw_i2c
