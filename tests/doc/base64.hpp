#pragma once
// Base64 decoding (RFC 4648, standard alphabet, '=' padding), for the PNG
// that Page.captureScreenshot returns as text.
#include <stdexcept>
#include <string>
#include <string_view>

namespace regemu::doc_test {

inline std::string Base64Decode(std::string_view text) {
  auto sextet = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string bytes;
  bytes.reserve(text.size() / 4 * 3);
  unsigned bits = 0;
  int bit_count = 0;
  for (char c : text) {
    if (c == '=') break;
    int value = sextet(c);
    if (value < 0) throw std::runtime_error("base64: unexpected character");
    bits = (bits << 6) | static_cast<unsigned>(value);
    bit_count += 6;
    if (bit_count >= 8) {
      bit_count -= 8;
      bytes.push_back(static_cast<char>((bits >> bit_count) & 0xFFu));
    }
  }
  return bytes;
}

}  // namespace regemu::doc_test
