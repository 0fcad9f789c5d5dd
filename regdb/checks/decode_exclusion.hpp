#pragma once
// Split and banked registers: the proof that two registers at one place
// never decode the same access (yaml/README.md, "Split and banked registers").

#include <optional>
#include <string>

#include "regemu/regdb/database.hpp"

namespace regemu::regdb {

// The condition values a decode proof tries exhaustively: every value of
// the fields both conditions read, up to this many bits in all.
inline constexpr unsigned kMaxDecodeProofBits = 16;

struct DecodeClash {
  std::string access;   // "a read", "a write"
  std::string witness;  // "while LCR.DLAB = 1", or why no proof was possible
  bool unproven = false;  // the conditions read too many bits to try them all
};

// Nothing when `a` and `b` (at one place, their decode conditions compiled)
// can never both decode one access: their directions differ, or no value of
// the fields their conditions read makes both true. Otherwise an access and
// a state in which both decode it.
std::optional<DecodeClash> BothDecode(const Database& db, const Register& a, const Register& b);

}  // namespace regemu::regdb
