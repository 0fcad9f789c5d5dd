/* readl()/writel() as on real hardware: volatile loads and stores through
 * the pointer, nothing else. The example C drivers build against this
 * header too (their io header includes it when REGEMU_PLAIN_MMIO is
 * defined), and run on a trapped mapping (regemu_map): the same driver
 * code, unmodified, reaching the emulated device through plain pointers. */
#ifndef REGEMU_EXAMPLES_PLAIN_MMIO_H
#define REGEMU_EXAMPLES_PLAIN_MMIO_H

#include <stdint.h>

static inline uint8_t readb(const volatile void *addr) { return *(const volatile uint8_t *)addr; }
static inline uint16_t readw(const volatile void *addr) { return *(const volatile uint16_t *)addr; }
static inline uint32_t readl(const volatile void *addr) { return *(const volatile uint32_t *)addr; }
static inline uint64_t readq(const volatile void *addr) { return *(const volatile uint64_t *)addr; }
static inline void writeb(uint8_t value, volatile void *addr) { *(volatile uint8_t *)addr = value; }
static inline void writew(uint16_t value, volatile void *addr) { *(volatile uint16_t *)addr = value; }
static inline void writel(uint32_t value, volatile void *addr) { *(volatile uint32_t *)addr = value; }
static inline void writeq(uint64_t value, volatile void *addr) { *(volatile uint64_t *)addr = value; }

#endif /* REGEMU_EXAMPLES_PLAIN_MMIO_H */
