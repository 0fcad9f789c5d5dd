#include "examples/hpet/clockevent.hpp"

#include <algorithm>

namespace regemu::hpet {
namespace {

// clocks_calc_mult_shift(&mult, &shift, from, to, maxsec): the largest
// shift whose mult keeps `maxsec` seconds of `from` units from overflowing
// 64 bits.
void CalcMultShift(uint32_t& mult, uint32_t& shift, uint64_t from, uint64_t to, uint64_t maxsec) {
  uint64_t tmp = (maxsec * from) >> 32;
  uint32_t sftacc = 32;
  while (tmp != 0) {
    tmp >>= 1;
    --sftacc;
  }
  uint32_t sft = 32;
  for (; sft > 0; --sft) {
    tmp = (to << sft) + from / 2;
    tmp /= from;
    if ((tmp >> sftacc) == 0) break;
  }
  mult = static_cast<uint32_t>(tmp);
  shift = sft;
}

}  // namespace

uint64_t ClockEvent::NsFor(uint64_t ticks, bool ismax) const {
  // cev_delta2ns: clc = latch << shift; rounded up for the minimum.
  uint64_t clc = ticks << shift;
  uint64_t rnd = mult - 1;
  if ((clc >> shift) != ticks) clc = ~uint64_t{0};
  if (~uint64_t{0} - clc > rnd && (!ismax || mult <= (uint64_t{1} << shift))) clc += rnd;
  return std::max<uint64_t>(clc / mult, 1000);
}

ClockEvent ClockEvent::Configure(uint64_t freq_hz) {
  ClockEvent evt;
  evt.freq_hz = freq_hz;
  // clockevents_config: sec = max_delta_ticks / freq (at least 1).
  uint64_t sec = std::max<uint64_t>(kMaxDeltaTicks / freq_hz, 1);
  CalcMultShift(evt.mult, evt.shift, kNsPerSecond, freq_hz, sec);
  evt.min_delta_ns = evt.NsFor(kMinProgDelta, false);
  evt.max_delta_ns = evt.NsFor(kMaxDeltaTicks, true);
  return evt;
}

uint64_t ClockEvent::TicksFor(uint64_t ns) const {
  ns = std::clamp(ns, min_delta_ns, max_delta_ns);
  return (ns * mult) >> shift;
}

}  // namespace regemu::hpet
