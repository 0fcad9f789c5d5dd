/* Bit helpers for the C register headers `regemu header --lang c` generates,
 * in the style of Linux i915's REG_BIT / REG_GENMASK / REG_FIELD_PREP /
 * REG_FIELD_GET, prefixed REGEMU_ so they never clash with the kernel's.
 * Every macro is an integer constant expression on uint64_t (C11 and C++). */
#ifndef REGEMU_REG_BITS_H_
#define REGEMU_REG_BITS_H_

#include <stdint.h>

/* x as a uint64_t: a cast in C, a static_cast in C++, so that C++ code
 * built with -Wold-style-cast can use these macros and the generated ones. */
#ifdef __cplusplus
#define REGEMU_U64(x) (static_cast<uint64_t>(x))
#else
#define REGEMU_U64(x) ((uint64_t)(x))
#endif

/* Bit n. */
#define REGEMU_BIT(n) (UINT64_C(1) << (n))
/* Bits hi..lo, high bit first as datasheets write them. */
#define REGEMU_GENMASK(hi, lo) ((~UINT64_C(0) >> (63 - (hi))) & (~UINT64_C(0) << (lo)))
/* The lowest set bit of a mask (the multiplier that shifts a value into it). */
#define REGEMU_LOWBIT(mask) (REGEMU_U64(mask) & (~REGEMU_U64(mask) + UINT64_C(1)))
/* A field value placed into its mask. */
#define REGEMU_FIELD_PREP(mask, value) ((REGEMU_U64(value) * REGEMU_LOWBIT(mask)) & REGEMU_U64(mask))
/* A field value taken out of a register value. */
#define REGEMU_FIELD_GET(mask, reg) ((REGEMU_U64(reg) & REGEMU_U64(mask)) / REGEMU_LOWBIT(mask))
/* Intel masked registers: bits 31:16 of a write select which of bits 15:0 change. */
#define REGEMU_MASKED_FIELD(mask, value) (((REGEMU_U64(mask)) << 16) | (REGEMU_U64(value) & REGEMU_U64(mask)))
#define REGEMU_MASKED_BIT_ENABLE(bits) REGEMU_MASKED_FIELD((bits), (bits))
#define REGEMU_MASKED_BIT_DISABLE(bits) REGEMU_MASKED_FIELD((bits), 0)

#endif /* REGEMU_REG_BITS_H_ */
