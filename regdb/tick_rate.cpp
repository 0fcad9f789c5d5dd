#include "regemu/regdb/tick_rate.hpp"

#include <array>
#include <cctype>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "regemu/regdb/wide_math.hpp"

namespace regemu::regdb {
namespace {

constexpr Uint128 kMax64 = ~uint64_t{0};

// A number as written, mantissa * 10^-decimals: "19.2" is {192, 1}.
struct Decimal {
  uint64_t mantissa = 0;
  unsigned decimals = 0;
};

struct Unit {
  std::string_view suffix;
  uint64_t scale;  // of the smallest unit of its list
};

// "69.841279" or an integer in the database's syntax (0x10, 1_000).
std::variant<Decimal, NumberError> ParseNumber(std::string_view text, std::string_view whole_text) {
  size_t dot = text.find('.');
  if (dot == std::string_view::npos) {
    auto parsed = ParseUnsigned(text);
    if (auto* error = std::get_if<NumberError>(&parsed)) return *error;
    return Decimal{std::get<uint64_t>(parsed), 0};
  }
  std::string_view whole = text.substr(0, dot);
  std::string_view fraction = text.substr(dot + 1);
  auto all_digits = [](std::string_view part) {
    if (part.empty()) return false;
    for (char c : part) {
      if (c < '0' || c > '9') return false;
    }
    return true;
  };
  if (!all_digits(whole) || !all_digits(fraction)) {
    return NumberError{"'" + std::string(whole_text) + "': a decimal is digits, '.', digits (such as 19.2)"};
  }
  while (fraction.size() > 1 && fraction.back() == '0') fraction.remove_suffix(1);
  Decimal decimal{0, static_cast<unsigned>(fraction.size())};
  for (std::string_view part : {whole, fraction}) {
    for (char c : part) {
      uint64_t digit = static_cast<uint64_t>(c - '0');
      if (decimal.mantissa > (~uint64_t{0} - digit) / 10) {
        return NumberError{"'" + std::string(whole_text) + "' has more digits than 64 bits hold"};
      }
      decimal.mantissa = decimal.mantissa * 10 + digit;
    }
  }
  return decimal;
}

// The number and its unit's scale, the unit being the longest suffix of
// `units` after which a number remains ("5ms" is 5 ms, not 5m s; "0x1fs" is
// 0x1 fs).
std::variant<std::pair<Decimal, uint64_t>, NumberError> ParseWithUnit(std::string_view text,
                                                                      std::span<const Unit> units,
                                                                      std::string_view expected) {
  for (const Unit& unit : units) {
    if (text.size() <= unit.suffix.size() || text.substr(text.size() - unit.suffix.size()) != unit.suffix) continue;
    std::string_view number = text.substr(0, text.size() - unit.suffix.size());
    // "1.ns" is a malformed decimal in ns, not a number without a unit.
    char last = number.back();
    if (!std::isdigit(static_cast<unsigned char>(last)) && last != '_' && last != '.') continue;
    auto parsed = ParseNumber(number, text);
    if (auto* error = std::get_if<NumberError>(&parsed)) return *error;
    return std::pair{std::get<Decimal>(parsed), unit.scale};
  }
  return NumberError{"expected " + std::string(expected) + ", got '" + std::string(text) + "'"};
}

Uint128 Gcd(Uint128 a, Uint128 b) {
  while (b != 0) {
    Uint128 r = a % b;
    a = b;
    b = r;
  }
  return a;
}

Uint128 PowerOfTen(unsigned exponent) {
  Uint128 value = 1;
  for (unsigned i = 0; i < exponent; ++i) value *= 10;
  return value;
}

// num/den in lowest terms, or nothing when either needs more than 64 bits.
std::optional<TickRate> Reduced(Uint128 num, Uint128 den) {
  Uint128 gcd = Gcd(num, den);
  num /= gcd;
  den /= gcd;
  if (num > kMax64 || den > kMax64) return std::nullopt;
  return TickRate{static_cast<uint64_t>(num), static_cast<uint64_t>(den)};
}

}  // namespace

std::variant<TickRate, NumberError> ParseTickPeriod(std::string_view text) {
  // Longest suffixes first; scales in femtoseconds.
  static constexpr std::array<Unit, 6> kUnits{{{"fs", 1},
                                               {"ps", 1'000},
                                               {"ns", 1'000'000},
                                               {"us", 1'000'000'000},
                                               {"ms", 1'000'000'000'000},
                                               {"s", 1'000'000'000'000'000}}};
  auto parsed = ParseWithUnit(text, kUnits, "a period with a unit (fs, ps, ns, us, ms, s)");
  if (auto* error = std::get_if<NumberError>(&parsed)) return *error;
  auto [number, fs] = std::get<std::pair<Decimal, uint64_t>>(parsed);
  if (number.mantissa == 0) {
    return NumberError{"a counter period must be longer than 0ns, got '" + std::string(text) + "'"};
  }
  // A period of P fs is 10^6 / P ticks per ns; P = mantissa * fs / 10^decimals.
  // Every factor is below 10^20 * 10^15, inside 128 bits.
  auto rate = Reduced(PowerOfTen(6 + number.decimals), Uint128{number.mantissa} * fs);
  if (!rate) {
    return NumberError{"period '" + std::string(text) +
                       "' cannot be represented exactly (its ticks per ns, as a fraction, need more than 64 bits: "
                       "fewer decimals, or a shorter period)"};
  }
  return *rate;
}

std::variant<TickRate, NumberError> ParseTickFrequency(std::string_view text) {
  static constexpr std::array<Unit, 4> kUnits{
      {{"kHz", 1'000}, {"MHz", 1'000'000}, {"GHz", 1'000'000'000}, {"Hz", 1}}};
  auto parsed = ParseWithUnit(text, kUnits, "a frequency with a unit (Hz, kHz, MHz, GHz)");
  if (auto* error = std::get_if<NumberError>(&parsed)) return *error;
  auto [number, hz] = std::get<std::pair<Decimal, uint64_t>>(parsed);
  if (number.mantissa == 0) {
    return NumberError{"a counter frequency must be above 0Hz, got '" + std::string(text) + "'"};
  }
  // F Hz is F / 10^9 ticks per ns; F = mantissa * hz / 10^decimals.
  auto rate = Reduced(Uint128{number.mantissa} * hz, PowerOfTen(9 + number.decimals));
  if (!rate) {
    return NumberError{"frequency '" + std::string(text) +
                       "' cannot be represented exactly (its ticks per ns, as a fraction, need more than 64 bits: "
                       "fewer decimals)"};
  }
  return *rate;
}

}  // namespace regemu::regdb
