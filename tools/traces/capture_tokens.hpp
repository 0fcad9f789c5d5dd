#pragma once
// The small lexical pieces every capture format shares: whitespace-separated
// tokens, hex and decimal numbers, `secs.fraction` timestamps. All of them
// reject rather than guess: a capture line that does not parse is reported.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace regemu::traces {

// Tokens separated by spaces or tabs; at most `max` (the rest of the line,
// e.g. a MARK's text, is left to the caller through `rest`).
std::vector<std::string_view> SplitTokens(std::string_view line, size_t max, std::string_view* rest = nullptr);

// Hex digits with or without `0x`, at most 16 of them.
std::optional<uint64_t> ParseHexToken(std::string_view text);
// Hex digits with a mandatory `0x` prefix.
std::optional<uint64_t> ParsePrefixedHex(std::string_view text);
std::optional<uint64_t> ParseDecimalToken(std::string_view text);
// `SECONDS.FRACTION` (up to nine fraction digits) in nanoseconds.
std::optional<uint64_t> ParseTimestampNs(std::string_view text);
// Access widths in bytes a capture may name: 1, 2, 4, 8.
bool IsAccessWidth(uint64_t bytes);

}  // namespace regemu::traces
