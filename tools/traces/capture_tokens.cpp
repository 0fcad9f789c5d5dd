#include "tools/traces/capture_tokens.hpp"

#include <limits>

namespace regemu::traces {

std::vector<std::string_view> SplitTokens(std::string_view line, size_t max, std::string_view* rest) {
  std::vector<std::string_view> tokens;
  size_t i = 0;
  auto blank = [&](size_t at) { return line[at] == ' ' || line[at] == '\t' || line[at] == '\r'; };
  while (i < line.size()) {
    while (i < line.size() && blank(i)) ++i;
    if (i == line.size()) break;
    if (tokens.size() == max) {
      if (rest) *rest = line.substr(i);
      return tokens;
    }
    size_t start = i;
    while (i < line.size() && !blank(i)) ++i;
    tokens.push_back(line.substr(start, i - start));
  }
  if (rest) *rest = {};
  return tokens;
}

std::optional<uint64_t> ParseHexToken(std::string_view text) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) text.remove_prefix(2);
  if (text.empty() || text.size() > 16) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    unsigned digit;
    if (c >= '0' && c <= '9') digit = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f') digit = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') digit = static_cast<unsigned>(c - 'A' + 10);
    else return std::nullopt;
    value = value << 4 | digit;
  }
  return value;
}

std::optional<uint64_t> ParsePrefixedHex(std::string_view text) {
  if (text.size() < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) return std::nullopt;
  return ParseHexToken(text);
}

std::optional<uint64_t> ParseDecimalToken(std::string_view text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

std::optional<uint64_t> ParseTimestampNs(std::string_view text) {
  size_t dot = text.find('.');
  std::string_view seconds = text.substr(0, dot);
  std::string_view fraction = dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
  if (dot != std::string_view::npos && (fraction.empty() || fraction.size() > 9)) return std::nullopt;
  auto secs = ParseDecimalToken(seconds);
  // 2^64 ns is 584 years: a larger timestamp is garbage, not uptime.
  if (!secs || *secs > 18'000'000'000ull) return std::nullopt;
  uint64_t ns = 0;
  if (!fraction.empty()) {
    auto digits = ParseDecimalToken(fraction);
    if (!digits) return std::nullopt;
    ns = *digits;
    for (size_t i = fraction.size(); i < 9; ++i) ns *= 10;
  }
  return *secs * 1'000'000'000ull + ns;
}

bool IsAccessWidth(uint64_t bytes) { return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8; }

}  // namespace regemu::traces
