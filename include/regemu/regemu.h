/* The C shim of regemu: an emulated device for C drivers' tests.
 *
 *   char err[512];
 *   regemu_device *dev = regemu_open("yaml/icl", err, sizeof err);
 *   if (!dev) { fprintf(stderr, "%s\n", err); return 1; }
 *   regemu_write16(dev, "config", 0x04, 0x0006);
 *   uint32_t v = regemu_read32(dev, "mmio", 0x190010);
 *   ...
 *   for (size_t i = 0; i < regemu_violation_count(dev); ++i)
 *     puts(regemu_violation_text(dev, i));
 *   regemu_close(dev);
 *
 * Every access goes through the device's frontdoor: access semantics, side
 * effects, violations (recorded, never aborting), trace. A device is
 * thread-safe. Unknown spaces are recorded as `unmodelled` violations and
 * read as all-ones. For driver C files written against readl()/writel(),
 * see regemu/iomem.h.
 */
#ifndef REGEMU_REGEMU_H
#define REGEMU_REGEMU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct regemu_device regemu_device;

/* Loads, checks and compiles the database at `db_path` (a device folder or
 * a YAML file) into a new device with the strict policy. On failure returns
 * NULL and writes the diagnostics (truncated, NUL-terminated) to `err`. */
regemu_device *regemu_open(const char *db_path, char *err, size_t errlen);
void regemu_close(regemu_device *dev);

uint8_t regemu_read8(regemu_device *dev, const char *space, uint64_t offset);
uint16_t regemu_read16(regemu_device *dev, const char *space, uint64_t offset);
uint32_t regemu_read32(regemu_device *dev, const char *space, uint64_t offset);
uint64_t regemu_read64(regemu_device *dev, const char *space, uint64_t offset);
void regemu_write8(regemu_device *dev, const char *space, uint64_t offset, uint8_t value);
void regemu_write16(regemu_device *dev, const char *space, uint64_t offset, uint16_t value);
void regemu_write32(regemu_device *dev, const char *space, uint64_t offset, uint32_t value);
void regemu_write64(regemu_device *dev, const char *space, uint64_t offset, uint64_t value);

/* Advances the virtual clock (acks, counters, ... follow it). */
void regemu_step_ns(regemu_device *dev, uint64_t ns);

/* Raises an interrupt of `engine` (e.g. "RCS0") with 16 bits of data through
 * the device's interrupt behaviour named `irq` (`inject irq ENGINE DATA`).
 * Returns 0, or -1 when the device has no such engine or behaviour. */
int regemu_inject_interrupt(regemu_device *dev, const char *engine, uint16_t data);

/* The device's INTx interrupt line: 1 asserted, 0 not. */
int regemu_irq_level(regemu_device *dev);

/* Violations recorded so far, and one of them as text (kind, access,
 * register and field, rule). The text stays valid until the next call of
 * regemu_violation_text on this device or regemu_close; NULL past the end. */
size_t regemu_violation_count(regemu_device *dev);
const char *regemu_violation_text(regemu_device *dev, size_t index);

#ifdef __cplusplus
}
#endif

#endif /* REGEMU_REGEMU_H */
