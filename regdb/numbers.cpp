#include "regemu/regdb/numbers.hpp"

#include <array>
#include <cctype>
#include <limits>

namespace regemu::regdb {

std::variant<uint64_t, NumberError> ParseUnsigned(std::string_view text) {
  if (text.empty()) return NumberError{"expected a number, got an empty value"};
  unsigned base = 10;
  std::string_view digits = text;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    base = 2;
    digits.remove_prefix(2);
  }
  if (digits.empty() || digits.front() == '_' || digits.back() == '_') {
    return NumberError{"'" + std::string(text) + "' is not a number (digits expected; '_' only between digits)"};
  }
  uint64_t value = 0;
  bool previous_underscore = false;
  for (char c : digits) {
    if (c == '_') {
      if (previous_underscore) return NumberError{"'" + std::string(text) + "' has '__' in it"};
      previous_underscore = true;
      continue;
    }
    previous_underscore = false;
    unsigned digit;
    if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<unsigned>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<unsigned>(c - 'A' + 10);
    } else {
      digit = 99;
    }
    if (digit >= base) {
      static constexpr std::array<const char*, 17> kBaseName{"", "", "binary", "", "", "", "", "", "", "", "decimal",
                                                            "", "", "", "", "", "hexadecimal"};
      return NumberError{"'" + std::string(text) + "' is not a number: '" + std::string(1, c) + "' is not a " +
                         kBaseName[base] + " digit"};
    }
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / base) {
      return NumberError{"'" + std::string(text) + "' does not fit in 64 bits"};
    }
    value = value * base + digit;
  }
  return value;
}

std::variant<BitRange, NumberError> ParseBitRange(std::string_view text) {
  auto bit = [](std::string_view part) -> std::variant<unsigned, NumberError> {
    auto parsed = ParseUnsigned(part);
    if (auto* error = std::get_if<NumberError>(&parsed)) return *error;
    uint64_t v = std::get<uint64_t>(parsed);
    if (v > 63) return NumberError{"bit " + std::to_string(v) + " is beyond bit 63"};
    return static_cast<unsigned>(v);
  };
  size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    auto one = bit(text);
    if (auto* error = std::get_if<NumberError>(&one)) {
      return NumberError{"expected bits as \"hi:lo\" or one bit number: " + error->message};
    }
    return BitRange{std::get<unsigned>(one), std::get<unsigned>(one)};
  }
  auto hi = bit(text.substr(0, colon));
  auto lo = bit(text.substr(colon + 1));
  if (auto* error = std::get_if<NumberError>(&hi)) return NumberError{"in \"hi:lo\": " + error->message};
  if (auto* error = std::get_if<NumberError>(&lo)) return NumberError{"in \"hi:lo\": " + error->message};
  BitRange range{std::get<unsigned>(hi), std::get<unsigned>(lo)};
  if (range.msb < range.lsb) {
    return NumberError{"bits \"" + std::string(text) + "\" have the high bit first: write \"" +
                       std::to_string(range.lsb) + ":" + std::to_string(range.msb) + "\""};
  }
  return range;
}

std::variant<uint64_t, NumberError> ParseDurationNs(std::string_view text) {
  struct Unit {
    std::string_view suffix;
    uint64_t ns;
  };
  static constexpr std::array<Unit, 4> kUnits{{{"ns", 1}, {"us", 1'000}, {"ms", 1'000'000}, {"s", 1'000'000'000}}};
  for (const Unit& unit : kUnits) {
    if (text.size() > unit.suffix.size() && text.substr(text.size() - unit.suffix.size()) == unit.suffix) {
      std::string_view number = text.substr(0, text.size() - unit.suffix.size());
      // "5ms" also ends in "s": only accept it under the longest suffix whose
      // remaining text is a number.
      if (!number.empty() && !std::isdigit(static_cast<unsigned char>(number.back())) && number.back() != '_') {
        continue;
      }
      auto parsed = ParseUnsigned(number);
      if (auto* error = std::get_if<NumberError>(&parsed)) return *error;
      uint64_t value = std::get<uint64_t>(parsed);
      if (value > std::numeric_limits<uint64_t>::max() / unit.ns) {
        return NumberError{"duration '" + std::string(text) + "' is too long"};
      }
      return value * unit.ns;
    }
  }
  return NumberError{"expected a duration with a unit (ns, us, ms, s), got '" + std::string(text) + "'"};
}

std::string Hex(uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), kDigits[value & 0xF]);
    value >>= 4;
  } while (value != 0);
  return "0x" + out;
}

std::string HexPadded(uint64_t value, unsigned width) {
  std::string hex = Hex(value).substr(2);
  size_t digits = width / 4;
  if (hex.size() < digits) hex.insert(0, digits - hex.size(), '0');
  return "0x" + hex;
}

std::variant<uint64_t, NumberError> ParseDecimalMicros(std::string_view text) {
  constexpr uint64_t kMax = ~uint64_t{0} / 1'000'000;
  if (text.empty()) return NumberError{"expected a decimal number, got nothing"};
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view fraction = dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
  auto bad = [&] { return NumberError{"'" + std::string(text) + "' is not a decimal number such as 0.25 or 4"}; };
  if (whole.empty() || (dot != std::string_view::npos && fraction.empty())) return bad();
  uint64_t value = 0;
  for (char c : whole) {
    if (c < '0' || c > '9') return bad();
    value = value * 10 + static_cast<uint64_t>(c - '0');
    if (value > kMax) return NumberError{"'" + std::string(text) + "' is too large"};
  }
  if (fraction.size() > 6) return NumberError{"'" + std::string(text) + "' has more than six decimals"};
  uint64_t micros = 0;
  for (size_t i = 0; i < 6; ++i) {
    char c = i < fraction.size() ? fraction[i] : '0';
    if (c < '0' || c > '9') return bad();
    micros = micros * 10 + static_cast<uint64_t>(c - '0');
  }
  return value * 1'000'000 + micros;
}

std::string FormatMicros(uint64_t micros) {
  std::string text = std::to_string(micros / 1'000'000);
  uint64_t fraction = micros % 1'000'000;
  if (fraction == 0) return text;
  std::string digits = std::to_string(fraction);
  digits.insert(0, 6 - digits.size(), '0');
  while (digits.back() == '0') digits.pop_back();
  return text + "." + digits;
}

}  // namespace regemu::regdb
