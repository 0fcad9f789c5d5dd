/* The C shim of regemu: an emulated device for C drivers' tests.
 *
 *   char err[512];
 *   regemu_device *dev = regemu_open("yaml/icl", err, sizeof err);
 *   if (!dev) { fprintf(stderr, "%s\n", err); return 1; }
 *   regemu_write16(dev, "config", 0x04, 0x0006);
 *   uint32_t v = regemu_read32(dev, "mmio", 0x190010);
 *   if (regemu_inject_interrupt(dev, "RCS0", 1) != 0)
 *     fprintf(stderr, "%s\n", regemu_last_error(dev));
 *   ...
 *   for (size_t i = 0; i < regemu_violation_count(dev); ++i)
 *     puts(regemu_violation_text(dev, i));
 *   regemu_close(dev);
 *
 * regemu_read and regemu_write go through the device's frontdoor, as the
 * driver's accesses do: access semantics, side effects, virtual time,
 * trace, and violations (the driver's mistakes: recorded, never aborting).
 *
 * Errors. Misusing this API (an unknown space, an interrupt the device
 * cannot raise, an index past the end, a NULL device or string) is the test's
 * error, not the driver's: it is never a violation. The call fails (reads
 * return all-ones, writes do nothing, int functions return -1,
 * functions returning a pointer return NULL, counts return 0) and
 * regemu_last_error says why. No call aborts or throws; only the
 * regemu/iomem.h accessors abort, on an address no mapping holds.
 *
 * Threads. The device is thread-safe: a driver's interrupt thread and its
 * main thread may call these functions concurrently on one device. The
 * strings regemu_violation_text and regemu_last_error return live in a
 * buffer of the device, one for each of the two functions: call each of
 * them from one thread at a time.
 *
 * For driver C files written against readl()/writel(), see regemu/iomem.h.
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
 * a YAML file) into a new device with the strict policy, at its reset
 * values and time 0. On failure returns NULL and writes the diagnostics
 * (truncated, NUL-terminated) to `err` when `err` is not NULL and `errlen`
 * is not 0. The caller owns the device: regemu_close frees it. */
regemu_device *regemu_open(const char *db_path, char *err, size_t errlen);
/* Frees the device, its iomem mappings and every string the device
 * returned. NULL is ignored. */
void regemu_close(regemu_device *dev);

/* Why the last call on `dev` failed, or NULL when it succeeded: every
 * function taking a regemu_device replaces it, except regemu_last_error
 * itself (so ask right after the call). One record per device: with
 * several threads on a device it is the last call of any of them. The
 * string belongs to the device and stays valid until the next
 * regemu_last_error on `dev` or regemu_close. For a NULL `dev` it returns
 * a static string saying so, as every call on a NULL device fails. */
const char *regemu_last_error(regemu_device *dev);

/* Frontdoor accesses of `space` (a space name of the database: "mmio",
 * "config", ...) at byte `offset` (a register index in an MSR space). An
 * access the device refuses (unaligned, past the end of the space, a width
 * the space does not allow, a read-only register, ...) is a violation, and
 * the call still succeeds. An unknown space is an error: reads return
 * all-ones, writes do nothing. */
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

/* The device's INTx interrupt line: 1 asserted, 0 not, -1 for a NULL dev. */
int regemu_irq_level(regemu_device *dev);

/* Violations recorded so far (the device keeps the first 1000), oldest
 * first, and one of them as text (kind, access, register and field, rule).
 * The text belongs to the device and stays valid until the next
 * regemu_violation_text on it or regemu_close; NULL past the end. */
size_t regemu_violation_count(regemu_device *dev);
const char *regemu_violation_text(regemu_device *dev, size_t index);

#ifdef __cplusplus
}
#endif

#endif /* REGEMU_REGEMU_H */
