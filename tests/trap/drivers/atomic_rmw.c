/* Atomic read-modify-writes on a device register, as drivers sharing a
 * register between threads write them: the GCC/clang builtins, which
 * become LOCK OR / LOCK CMPXCHG loops / LOCK XADD / XCHG / LOCK BTS. */
#include <stdint.h>

uint32_t atomic_fetch_set_bits(volatile uint32_t *reg, uint32_t bits)
{
	return __atomic_fetch_or(reg, bits, __ATOMIC_SEQ_CST);
}

void atomic_set_bits(volatile uint32_t *reg, uint32_t bits)
{
	__atomic_fetch_or(reg, bits, __ATOMIC_SEQ_CST);
}

void atomic_clear_bits(volatile uint32_t *reg, uint32_t bits)
{
	__atomic_fetch_and(reg, ~bits, __ATOMIC_SEQ_CST);
}

int atomic_claim(volatile uint32_t *reg, uint32_t expected, uint32_t desired)
{
	return __atomic_compare_exchange_n(reg, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

uint32_t atomic_swap(volatile uint32_t *reg, uint32_t value)
{
	return __atomic_exchange_n(reg, value, __ATOMIC_SEQ_CST);
}

uint64_t atomic_add64(volatile uint64_t *reg, uint64_t value)
{
	return __atomic_fetch_add(reg, value, __ATOMIC_SEQ_CST);
}

/* Linux's test_and_set_bit: one bit, its old value (GCC makes it LOCK BTS). */
int atomic_test_and_set_bit(volatile uint64_t *word, unsigned nr)
{
	uint64_t bit = (uint64_t)1 << (nr & 63);

	return (__atomic_fetch_or(word, bit, __ATOMIC_SEQ_CST) & bit) != 0;
}
