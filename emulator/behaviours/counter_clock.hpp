#pragma once
// The exact arithmetic of a counter's clock. The rate is num/den ticks per
// ns (regdb::TickRate); what is left of a tick after each advance is kept
// as a numerator over den, so the ticks of any split of the same counting
// time add up to floor(total_ns * num / den): an hour in 1ns steps counts
// what one step of an hour counts. 128-bit integers, never a double: with
// num, den < 2^64, every product below fits.

#include <cstdint>

#include "regemu/regdb/tick_rate.hpp"
#include "regemu/regdb/wide_math.hpp"

namespace regemu::emulator {

using U128 = regdb::Uint128;

class CounterClock {
 public:
  explicit CounterClock(regdb::TickRate rate)
      : rate_(rate), fast_ns_((~uint64_t{0} - (rate.den - 1)) / rate.num) {}

  // The ticks in the next `ns` of counting time: floor((fraction + ns*num) / den).
  U128 Advance(uint64_t& fraction, uint64_t ns) const {
    if (ns <= fast_ns_) {  // the common step: 64 bits hold it (one division, not a 128-bit one)
      uint64_t total = fraction + ns * rate_.num;
      fraction = total % rate_.den;
      return total / rate_.den;
    }
    U128 total = U128{fraction} + U128{ns} * rate_.num;
    fraction = static_cast<uint64_t>(total % rate_.den);
    return total / rate_.den;
  }

  // The same, for a phase whose first tick shows one ns after its instant
  // (a read at the exact instant of a tick sees the count before it):
  // floor((fraction + ns*num - 1) / den) while `lag` is set; an advance of
  // at least 1 ns clears it (from then on the fraction carries the lag).
  U128 Advance(uint64_t& fraction, uint64_t ns, bool& lag) const {
    if (!lag || ns == 0) return Advance(fraction, ns);
    lag = false;
    U128 total = U128{fraction} + U128{ns} * rate_.num - 1;
    fraction = static_cast<uint64_t>(total % rate_.den);
    return total / rate_.den;
  }
  U128 NsUntil(uint64_t fraction, U128 ticks, bool lag) const {
    if (!lag) return NsUntil(fraction, ticks);
    U128 needed = ticks * rate_.den - fraction + 1;
    return (needed + rate_.num - 1) / rate_.num;
  }

  // The counting time until `ticks` (>= 1) more ticks have happened: the
  // least d with floor((fraction + d*num) / den) >= ticks, that is
  // ceil((ticks*den - fraction) / num). At least 1, as fraction < den.
  // `ticks` is at most 2^64 (a full lap of a 64-bit counter).
  U128 NsUntil(uint64_t fraction, U128 ticks) const {
    U128 needed = ticks * rate_.den - fraction;
    return (needed + rate_.num - 1) / rate_.num;
  }

 private:
  regdb::TickRate rate_;
  uint64_t fast_ns_;  // the longest advance whose fraction + ns*num fits in 64 bits
};

}  // namespace regemu::emulator
