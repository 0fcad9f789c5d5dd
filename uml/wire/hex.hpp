#pragma once
// Numbers in messages a person reads: addresses and sizes in hex.

#include <cstdint>
#include <cstdio>
#include <string>

namespace regemu::uml {

inline std::string Hex(uint64_t value) {
  char text[19];
  std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace regemu::uml
