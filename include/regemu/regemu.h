/* The C shim of regemu: an emulated device for C drivers' tests.
 *
 *   char err[512];
 *   regemu_device *dev = regemu_open("yaml/icl", err, sizeof err);
 *   if (!dev) { fprintf(stderr, "%s\n", err); return 1; }
 *   regemu_write16(dev, "config", 0x04, 0x0006);
 *   uint32_t v = regemu_read32(dev, "mmio", 0x190010);
 *   if (regemu_inject(dev, "pci-request 1") != 0)
 *     fprintf(stderr, "%s\n", regemu_last_error(dev));
 *   ...
 *   for (size_t i = 0; i < regemu_violation_count(dev); ++i)
 *     puts(regemu_violation_text(dev, i));
 *   regemu_close(dev);
 *
 * Frontdoor and backdoor. regemu_read and regemu_write go through the
 * device's frontdoor, as the driver's accesses do: access semantics, side
 * effects, virtual time, trace, and violations (the driver's mistakes:
 * recorded, never aborting). regemu_peek and regemu_poke are the test's
 * backdoor: raw register state, no side effect, no violation, no time
 * (peeking a clear-on-read register does not clear it).
 *
 * Errors. Misusing this API (an unknown space, an inject the device does
 * not take, an index past the end, a NULL device or string) is the test's
 * error, not the driver's: it is never a violation. The call fails (reads
 * and peeks return all-ones, writes do nothing, int functions return -1,
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
 * Coverage. With the environment variable REGEMU_COVERAGE set (a path;
 * %p stands for the process id) every device opened counts what the test
 * exercised (registers read and written, fields changed, access-policy
 * effects, behaviour paths, violations), and the process writes it there
 * when it exits; `regemu coverage report` reads the files. Close devices
 * before exiting: an open device's counts are not written.
 *
 * For driver C files written against readl()/writel(), see regemu/iomem.h;
 * for drivers that dereference plain pointers, regemu_map below.
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

/* Coverage without the environment variable: devices opened after this
 * call count coverage, written at exit to `path` (%p: the process id), or
 * when `path` is NULL or empty to regemu-coverage-%p.json in the working
 * directory. REGEMU_COVERAGE, when set, still says where. Returns 0, or -1
 * when out of memory. */
int regemu_enable_coverage(const char *path);

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

/* Backdoor: the bytes as the device holds them, any alignment; bytes no
 * register holds peek as the space's unclaimed value (memory spaces: as
 * written, else 0). An unknown space or bytes past the end of the space
 * are an error: peeks return all-ones, pokes return -1 and store nothing.
 * A poke also returns -1 when no register or memory holds any of its
 * bytes; otherwise it returns 0 (bytes no register holds are dropped). */
uint8_t regemu_peek8(regemu_device *dev, const char *space, uint64_t offset);
uint16_t regemu_peek16(regemu_device *dev, const char *space, uint64_t offset);
uint32_t regemu_peek32(regemu_device *dev, const char *space, uint64_t offset);
uint64_t regemu_peek64(regemu_device *dev, const char *space, uint64_t offset);
int regemu_poke8(regemu_device *dev, const char *space, uint64_t offset, uint8_t value);
int regemu_poke16(regemu_device *dev, const char *space, uint64_t offset, uint16_t value);
int regemu_poke32(regemu_device *dev, const char *space, uint64_t offset, uint32_t value);
int regemu_poke64(regemu_device *dev, const char *space, uint64_t offset, uint64_t value);

/* Advances the virtual clock (acks, counters, ... follow it). */
void regemu_step_ns(regemu_device *dev, uint64_t ns);

/* The virtual clock: nanoseconds since the device was opened, moved by
 * regemu_step_ns and by every frontdoor access's cost. A C driver whose
 * time_now() returns it has its timeouts follow virtual time, so a test
 * never sleeps and a stuck poll times out at once. 0 for a NULL dev. */
uint64_t regemu_now_ns(regemu_device *dev);

/* Virtual time each frontdoor access takes from now on: regemu_read and
 * regemu_write, readl()/writel() and the accesses of a trapped mapping
 * (0: none, the default; regemu_map gives a device that has none 1 us, so
 * set it after regemu_map to choose another). A driver polling a status
 * bit then sees time pass on its own. Returns 0, or -1 for a NULL dev. */
int regemu_set_access_cost(regemu_device *dev, uint64_t ns);

/* A device reset (a script's `reset`): every register back to its reset
 * value, write-once bits writable again, memory spaces cleared, behaviours
 * reset, the interrupt line recomputed. Time goes on; violations, MSI
 * messages and iomem mappings are kept. Returns 0, or -1 for a NULL dev. */
int regemu_reset(regemu_device *dev);

/* A hardware-side event for the device's behaviours: the text of a
 * script's `inject` line without the word `inject`, "VERB ARGS...", split
 * on white space. Which verbs a device takes depends on its behaviours
 * (yaml/README.md): e.g. "pci-request 1" (pci-config), "irq RCS0 0x1" (a
 * gen11-interrupts behaviour named irq), "gt 9 on" (a classic-iir named
 * gt), "event GRBM_COUNT 1000" (event-counters), "pm4 gpuva 0x1000 8".
 * Returns 0, or -1 when no behaviour takes the verb, the arguments are
 * wrong (regemu_last_error has the behaviour's usage) or `command` is
 * NULL or blank. The device keeps no pointer to `command`. */
int regemu_inject(regemu_device *dev, const char *command);

/* Raises an interrupt of `engine` (e.g. "RCS0") with 16 bits of data through
 * the device's interrupt behaviour named `irq`: regemu_inject of
 * "irq ENGINE DATA". Returns 0, or -1 when the device has no such engine
 * or behaviour. */
int regemu_inject_interrupt(regemu_device *dev, const char *engine, uint16_t data);

/* The device's INTx interrupt line: 1 asserted, 0 not, -1 for a NULL dev.
 * While the function has MSI enabled its interrupts go out as messages
 * instead and the line stays low. */
int regemu_irq_level(regemu_device *dev);

/* An interrupt line by name, as scripts name it (read-irq, expect-edges):
 * one of the device's named lines (a `kind: interrupts` output's `line:`,
 * HPET's "IRQ0") or "irq", the device's interrupt output (the line
 * regemu_irq_level reads).
 *   regemu_line_level: 1 asserted, 0 not, -1 for an unknown line, a NULL
 *     line or a NULL dev (regemu_last_error names the device's lines).
 *   regemu_line_edges: its rising edges since the device was opened (reset
 *     keeps them): an edge-triggered pulse is over before a driver looks,
 *     its edge stays counted. All-ones on the same errors. */
int regemu_line_level(regemu_device *dev, const char *line);
uint64_t regemu_line_edges(regemu_device *dev, const char *line);

/* The MSI messages the device sent (memory writes of `data` to `address`,
 * from the MSI capability's address and data registers), oldest first:
 * the count, and one of them. The device keeps the first 4096. Pointers
 * may be NULL for values not wanted. regemu_msi_message returns 0, or -1
 * for an index past the end (nothing is written then). */
size_t regemu_msi_count(regemu_device *dev);
int regemu_msi_message(regemu_device *dev, size_t index, uint64_t *address, uint64_t *data);

/* Violations recorded so far (the device keeps the first 1000), oldest
 * first, and facets of one of them. Each returns NULL for an index past
 * the end.
 *   regemu_violation_text: one line: kind, access, register and field,
 *     rule. The string belongs to the device and stays valid until the
 *     next regemu_violation_text on it or regemu_close.
 *   regemu_violation_kind: the kind as the emulator and scripts spell it
 *     (`expect-violation KIND`): "read-only", "write-only", "mbz",
 *     "width", "alignment", "unclaimed", "alias-write", "forcewake",
 *     "protocol", "power", "hazard", "unmodelled". A static string.
 *   regemu_violation_register: the register's name, "" when no register
 *     decodes where the access went. Valid until regemu_close. */
size_t regemu_violation_count(regemu_device *dev);
const char *regemu_violation_text(regemu_device *dev, size_t index);
const char *regemu_violation_kind(regemu_device *dev, size_t index);
const char *regemu_violation_register(regemu_device *dev, size_t index);

/* Trapped mappings (x86-64 Linux; docs/trapped-mappings.md): space
 * `space` mapped into the process, so that an unmodified driver reaches it
 * through plain pointers (a BAR pointer, CMSIS structs at fixed addresses).
 * Every load and store there is a frontdoor access, as regemu_read and
 * regemu_write make: access semantics, side effects, virtual time,
 * violations (whose regemu_violation_text then ends with the driver
 * instruction and, with debug information, its source line).
 *   regemu_map: at `fixed_address` when not NULL (page-aligned; refused
 *     when anything is mapped in the range), else where the kernel puts it.
 *     A device that had no access cost gets 1 us per access, so that a
 *     driver's polling loop sees time pass. Returns the address of the
 *     space's offset 0, or NULL (regemu_last_error says why: an unknown
 *     space, an MSR or state space, a taken range, ...).
 *   regemu_unmap: gives the range back. Returns 0, or -1 when `base` is
 *     not a mapping of `dev`. regemu_close unmaps the device's mappings.
 * An instruction regemu does not emulate ends the process with a message
 * naming it; a fault outside every mapping crashes as it would without
 * regemu. */
void *regemu_map(regemu_device *dev, const char *space, void *fixed_address);
int regemu_unmap(regemu_device *dev, void *base);

#ifdef __cplusplus
}
#endif

#endif /* REGEMU_REGEMU_H */
