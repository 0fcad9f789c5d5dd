/* A 64-bit register read two ways: one 64-bit load (readq) and two 32-bit
 * halves, low first (lo_hi_readq, for buses without 64-bit reads). */
#include <stdint.h>

static inline uint32_t readl(const volatile void *addr)
{
	return *(const volatile uint32_t *)addr;
}

static inline uint64_t readq(const volatile void *addr)
{
	return *(const volatile uint64_t *)addr;
}

uint64_t reg64_readq(const uint8_t *bar, unsigned long offset)
{
	return readq(bar + offset);
}

uint64_t reg64_lo_hi_readq(const uint8_t *bar, unsigned long offset)
{
	uint32_t low = readl(bar + offset);
	uint32_t high = readl(bar + offset + 4);

	return low | (uint64_t)high << 32;
}
