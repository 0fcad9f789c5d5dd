#pragma once
// Unsigned 128-bit arithmetic, the one place regemu spells it: the products
// of two 64-bit quantities (elapsed ns x ticks per ns, ns x MHz x
// millionths) that must be exact before they are divided back into 64
// bits. A counter's clock (emulator/behaviours/counter_clock.hpp), the
// rates a period or frequency gives (tick_rate.cpp) and the OA unit's
// workload model use it.

#include <cstdint>

namespace regemu::regdb {

// -Wpedantic: __int128 is a GCC/Clang extension, which both compilers we build with have.
__extension__ typedef unsigned __int128 Uint128;

// a x b / d, exact, for a quotient that fits 64 bits: 64-bit arithmetic
// while the product fits (the common case: a 128-bit division is a
// library call, several times slower).
inline uint64_t MulDiv(uint64_t a, uint64_t b, uint64_t d) {
  uint64_t product;
  if (!__builtin_mul_overflow(a, b, &product)) return product / d;
  return static_cast<uint64_t>(static_cast<Uint128>(a) * b / d);
}

}  // namespace regemu::regdb
