#pragma once
// The mistakes the example 8250 driver can be told to make, one switch
// each, so tests and the demo show what regemu reports for each (or, where
// no register rule can see it, what the driver then sees). A driver with no
// bug set follows Linux's drivers/tty/serial/8250/8250_port.c.

#include <cstdint>
#include <string_view>

#include "examples/bug_set.hpp"

namespace regemu::uart16550 {

enum class Bug : uint8_t {
  // serial8250_do_set_termios without serial8250_do_set_divisor: the
  // divisor latch stays 0 and the first character is sent with no baud
  // rate (`protocol`, rule divisor_zero).
  kNoDivisor,
  // serial8250_tx_chars loading 17 characters per THRE interrupt, one more
  // than the 16-byte FIFO holds: the last is lost (`protocol`, the TX
  // FIFO's overrun rule).
  kOverfillFifo,
  // serial8250_do_set_divisor leaving LCR.DLAB set: THR writes then reach
  // DLL (they reprogram the divisor) and nothing is sent. No register rule
  // can tell a divisor write from a mistaken one: the line's silence shows it.
  kDlabLeftSet,
};

inline constexpr Bug kAllBugs[] = {Bug::kNoDivisor, Bug::kOverfillFifo, Bug::kDlabLeftSet};

constexpr std::string_view BugName(Bug bug) {
  switch (bug) {
    case Bug::kNoDivisor: return "no-divisor";
    case Bug::kOverfillFifo: return "overfill-fifo";
    case Bug::kDlabLeftSet: return "dlab-left-set";
  }
  return "?";
}

using Bugs = examples::BugSet<Bug>;

}  // namespace regemu::uart16550
