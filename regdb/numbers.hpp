#pragma once
// Number syntax of the database: decimal, 0x hex, 0b binary, with `_`
// between digits. Parsing reports why a text is not a number so that the
// schema reader can say it at the right column.

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace regemu::regdb {

struct NumberError {
  std::string message;
};

// An unsigned 64-bit number, or why `text` is not one.
std::variant<uint64_t, NumberError> ParseUnsigned(std::string_view text);

struct BitRange {
  unsigned msb = 0;
  unsigned lsb = 0;
  unsigned width() const { return msb - lsb + 1; }
};

// "hi:lo" (high bit first, as in datasheets) or one bit number.
std::variant<BitRange, NumberError> ParseBitRange(std::string_view text);

// "500ns", "2us", "1ms", "3s": a duration in nanoseconds of virtual time.
std::variant<uint64_t, NumberError> ParseDurationNs(std::string_view text);

// A non-negative decimal with at most six fraction digits ("0.25", "4",
// "1.5") in millionths: 250000, 4000000, 1500000. Workload rates and scales
// are exact in this unit, so the same script always gives the same counts.
std::variant<uint64_t, NumberError> ParseDecimalMicros(std::string_view text);
// Millionths back as the shortest decimal: 250000 is "0.25".
std::string FormatMicros(uint64_t micros);

// "0x1f" style rendering used by every message.
std::string Hex(uint64_t value);
// Zero-padded to `width` bits, as traces and scripts spell values:
// HexPadded(1, 32) is "0x00000001".
std::string HexPadded(uint64_t value, unsigned width);

}  // namespace regemu::regdb
