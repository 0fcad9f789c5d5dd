#pragma once
// The exact rate of a counter's clock, from a `period:` ("69841279fs",
// "80ns") or a `frequency:` ("14318180Hz", "19.2MHz"): ticks per
// nanosecond as a fraction in lowest terms. Decimals are read as integers
// (19.2MHz is 192/10 MHz, not a double), so a counter that runs for an hour
// of virtual time is off by nothing, not by rounding.

#include <cstdint>
#include <string_view>
#include <variant>

#include "regemu/regdb/numbers.hpp"

namespace regemu::regdb {

// num/den ticks per ns, in lowest terms, each at least 1 and below 2^64:
// then elapsed_ns * num and ticks * den fit in 128 bits for any 64-bit
// operand, which is what makes the counter's arithmetic exact.
struct TickRate {
  uint64_t num = 1;
  uint64_t den = 1;
};

// A period with a unit: fs, ps, ns, us, ms or s. The number is an integer
// in the database's syntax (0x10ns, 1_000ps) or a decimal (69.841279ns).
// Zero, and a period whose rate has no 64-bit fraction (too long, or too
// many decimals), are errors.
std::variant<TickRate, NumberError> ParseTickPeriod(std::string_view text);

// A frequency with a unit: Hz, kHz, MHz or GHz, an integer or a decimal
// (32.768kHz). Zero, a number beyond 64 bits, and a frequency whose rate
// has no 64-bit fraction (too many decimals) are errors.
std::variant<TickRate, NumberError> ParseTickFrequency(std::string_view text);

}  // namespace regemu::regdb
