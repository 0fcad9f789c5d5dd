/* readl()/writel()-style accessors over regemu devices, so that a driver's
 * C files written against them compile unchanged into a test build:
 *
 *   char *regs = regemu_iomap(dev, "mmio", 16u << 20);   // "ioremap" BAR0
 *   writel(0x80000000, regs + 0x190010);
 *   uint32_t master = readl(regs + 0x190010);
 *
 * regemu_iomap returns the base of an address range that is never
 * dereferenced: the accessors find the mapping holding an address and turn
 * it into (device, space, offset). An address no mapping holds is a program
 * error: the accessor aborts with a message naming it.
 *
 * The macro names are the kernel's; define REGEMU_NO_IOMEM_MACROS to get
 * only the regemu_ functions.
 */
#ifndef REGEMU_IOMEM_H
#define REGEMU_IOMEM_H

#include "regemu/regemu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Maps `size` bytes of `space`; NULL for an unknown space, a size of 0 or
 * larger than the space (regemu_last_error says which). The accessors
 * below do not fail and leave regemu_last_error as it is. */
void *regemu_iomap(regemu_device *dev, const char *space, uint64_t size);
/* Unmaps; regemu_close unmaps a device's mappings too. */
void regemu_iounmap(void *base);

uint8_t regemu_ioread8(const volatile void *addr);
uint16_t regemu_ioread16(const volatile void *addr);
uint32_t regemu_ioread32(const volatile void *addr);
uint64_t regemu_ioread64(const volatile void *addr);
void regemu_iowrite8(uint8_t value, volatile void *addr);
void regemu_iowrite16(uint16_t value, volatile void *addr);
void regemu_iowrite32(uint32_t value, volatile void *addr);
void regemu_iowrite64(uint64_t value, volatile void *addr);

#ifndef REGEMU_NO_IOMEM_MACROS
/* The value cut to the access's width, as the kernel's accessors take it:
 * a cast in C, a static_cast in C++ (clean under -Wold-style-cast). */
#ifdef __cplusplus
#define REGEMU_IOMEM_VALUE(type, value) (static_cast<type>(value))
#else
#define REGEMU_IOMEM_VALUE(type, value) ((type)(value))
#endif
#define readb(addr) regemu_ioread8(addr)
#define readw(addr) regemu_ioread16(addr)
#define readl(addr) regemu_ioread32(addr)
#define readq(addr) regemu_ioread64(addr)
#define writeb(value, addr) regemu_iowrite8(REGEMU_IOMEM_VALUE(uint8_t, value), addr)
#define writew(value, addr) regemu_iowrite16(REGEMU_IOMEM_VALUE(uint16_t, value), addr)
#define writel(value, addr) regemu_iowrite32(REGEMU_IOMEM_VALUE(uint32_t, value), addr)
#define writeq(value, addr) regemu_iowrite64(REGEMU_IOMEM_VALUE(uint64_t, value), addr)
#endif

#ifdef __cplusplus
}
#endif

#endif /* REGEMU_IOMEM_H */
