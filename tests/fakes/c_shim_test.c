/* The C shim from C: open a database, access registers by space and offset
 * and through readl()/writel(), violations as text, and API misuse as error
 * returns (never as violations, never a crash). Exits 0 when every check
 * holds, 1 otherwise (each failure printed). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "regemu/iomem.h"
#include "regemu/regemu.h"

static int failures = 0;

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                                \
    }                                                                            \
  } while (0)

/* The last call on `dev` failed with a message containing `needle`. */
#define CHECK_ERROR(dev, needle)                                                                  \
  do {                                                                                            \
    const char *error_ = regemu_last_error(dev);                                                 \
    if (error_ == NULL || strstr(error_, needle) == NULL) {                                      \
      fprintf(stderr, "%s:%d: CHECK_ERROR failed: last error %s%s%s does not contain \"%s\"\n", \
              __FILE__, __LINE__, error_ ? "\"" : "", error_ ? error_ : "NULL", error_ ? "\"" : "", \
              needle);                                                                            \
      ++failures;                                                                                 \
    }                                                                                             \
  } while (0)

#define CHECK_NO_ERROR(dev)                                                                          \
  do {                                                                                               \
    const char *error_ = regemu_last_error(dev);                                                    \
    if (error_ != NULL) {                                                                           \
      fprintf(stderr, "%s:%d: CHECK_NO_ERROR failed: last error \"%s\"\n", __FILE__, __LINE__, error_); \
      ++failures;                                                                                    \
    }                                                                                                \
  } while (0)

static int contains(const char *text, const char *needle) { return text != NULL && strstr(text, needle) != NULL; }

static regemu_device *open_db(const char *path) {
  char err[4096];
  regemu_device *dev = regemu_open(path, err, sizeof err);
  if (dev == NULL) fprintf(stderr, "regemu_open(%s): %s\n", path, err);
  CHECK(dev != NULL);
  return dev;
}

static void test_open_failures(void) {
  char err[4096];
  CHECK(regemu_open(REGEMU_SOURCE_DIR "/tests/data/hsw_literal", err, sizeof err) == NULL);
  CHECK(contains(err, "overlaps register 'CEC3_1'"));
  CHECK(regemu_open(REGEMU_SOURCE_DIR "/no/such/db", err, sizeof err) == NULL);
  CHECK(regemu_open(NULL, err, sizeof err) == NULL);
  CHECK(contains(err, "db_path is NULL"));
  /* A short buffer is truncated and terminated, a NULL one left alone. */
  char tiny[4] = "xxx";
  CHECK(regemu_open(NULL, tiny, sizeof tiny) == NULL);
  CHECK(strcmp(tiny, "reg") == 0);
  CHECK(regemu_open(NULL, NULL, 0) == NULL);
}

/* A driver function as it would be written for the kernel. */
static void oa_enable(char *regs) { writel(readl(regs + 0x2360) | 1u, regs + 0x2360); }

static void test_frontdoor_and_violations(void) {
  regemu_device *dev = open_db(REGEMU_SOURCE_DIR "/yaml/hsw");
  if (dev == NULL) return;
  /* OASTATUS2 0x2368: bit 0 is read-only 1 (GGTT), bit 5 must be zero. */
  CHECK(regemu_read32(dev, "mmio", 0x2368) == 1u);
  CHECK_NO_ERROR(dev);
  regemu_write32(dev, "mmio", 0x2368, 0x01000001u);
  CHECK(regemu_read32(dev, "mmio", 0x2368) == 0x01000001u);
  CHECK(regemu_read16(dev, "mmio", 0x236A) == 0x0100u);
  CHECK(regemu_violation_count(dev) == 0);
  CHECK(regemu_violation_text(dev, 0) == NULL);
  CHECK_ERROR(dev, "regemu_violation_text: index 0 is past the end (0 violations)");

  /* A driver mistake is a violation and the call still succeeds. */
  regemu_write32(dev, "mmio", 0x2368, 0x21u);
  CHECK_NO_ERROR(dev);
  CHECK(regemu_violation_count(dev) == 1);
  CHECK(contains(regemu_violation_text(dev, 0), "mbz"));
  CHECK_NO_ERROR(dev);
  CHECK(regemu_violation_text(dev, 1) == NULL);
  CHECK_ERROR(dev, "index 1 is past the end (1 violations)");
  CHECK(regemu_violation_text(dev, (size_t)-1) == NULL);
  CHECK_ERROR(dev, "regemu_violation_text: index");

  /* readl/writel over a mapping of the mmio space. */
  char *regs = regemu_iomap(dev, "mmio", 0x10000);
  CHECK(regs != NULL);
  CHECK_NO_ERROR(dev);
  CHECK(regemu_iomap(dev, "gtt", 0x1000) == NULL);
  CHECK_ERROR(dev, "regemu_iomap: device 'hsw' has no space 'gtt' (did you mean 'ggtt'?)");
  CHECK(regemu_iomap(dev, "mmio", 0) == NULL);
  CHECK_ERROR(dev, "cannot map 0x0 bytes of space 'mmio'");
  CHECK(regemu_iomap(dev, "mmio", 0x200001) == NULL);
  CHECK_ERROR(dev, "(size 0x200000)");
  /* The OA buffer first (gen7_init_oa_buffer's order): enabling OA with no
     buffer programmed is a protocol violation. */
  regemu_write32(dev, "mmio", 0x23B0, 0x01000000u);
  regemu_write32(dev, "mmio", 0x2364, 0x01000038u);
  oa_enable(regs);
  CHECK((regemu_read32(dev, "mmio", 0x2360) & 1u) == 1u);
  CHECK(readb(regs + 0x2360) == 1u);
  CHECK(regemu_violation_count(dev) == 1);

  regemu_step_ns(dev, 1000);
  CHECK_NO_ERROR(dev);
  regemu_iounmap(regs);
  regemu_close(dev);
}

/* A misspelt space is the test's error, not the driver's: no violation,
   reads all-ones, writes nothing, and says which space and what it has. */
static void test_unknown_space(void) {
  regemu_device *dev = open_db(REGEMU_SOURCE_DIR "/yaml/hsw");
  if (dev == NULL) return;
  CHECK(regemu_read32(dev, "mmoi", 0x2368) == 0xFFFFFFFFu);
  CHECK_ERROR(dev, "regemu_read32: device 'hsw' has no space 'mmoi' (did you mean 'mmio'?)");
  CHECK(regemu_read8(dev, "mmoi", 0) == 0xFFu);
  CHECK_ERROR(dev, "regemu_read8:");
  CHECK(regemu_read16(dev, "mmoi", 0) == 0xFFFFu);
  CHECK_ERROR(dev, "regemu_read16:");
  CHECK(regemu_read64(dev, "mmoi", 0) == UINT64_MAX);
  CHECK_ERROR(dev, "regemu_read64:");
  /* No suggestion within reach: the space list instead. */
  CHECK(regemu_read32(dev, "framebuffer", 0) == 0xFFFFFFFFu);
  CHECK_ERROR(dev, "has no space 'framebuffer' (its spaces: ");
  CHECK_ERROR(dev, "mmio");
  CHECK(regemu_read32(dev, NULL, 0) == 0xFFFFFFFFu);
  CHECK_ERROR(dev, "regemu_read32: the space name is NULL");

  regemu_write32(dev, "mmoi", 0x2368, 0x01000001u);
  CHECK_ERROR(dev, "regemu_write32: device 'hsw' has no space 'mmoi'");
  regemu_write8(dev, "", 0x2368, 1);
  CHECK_ERROR(dev, "regemu_write8: device 'hsw' has no space ''");
  regemu_write16(dev, "MMIO", 0x2368, 1);
  CHECK_ERROR(dev, "regemu_write16:");
  regemu_write64(dev, NULL, 0x2368, 1);
  CHECK_ERROR(dev, "regemu_write64: the space name is NULL");
  CHECK(regemu_read32(dev, "mmio", 0x2368) == 1u); /* nothing written */

  CHECK(regemu_violation_count(dev) == 0);
  CHECK_NO_ERROR(dev);
  regemu_close(dev);
}

/* regemu_last_error: replaced by every call; its string outlives later
   failures until the next regemu_last_error. */
static void test_last_error(void) {
  regemu_device *dev = open_db(REGEMU_SOURCE_DIR "/yaml/hsw");
  if (dev == NULL) return;
  CHECK_NO_ERROR(dev); /* a new device */
  regemu_read32(dev, "mmoi", 0);
  const char *first = regemu_last_error(dev);
  char copy[256];
  CHECK(first != NULL);
  snprintf(copy, sizeof copy, "%s", first ? first : "");
  regemu_read32(dev, "other", 0);
  regemu_read32(dev, "mmio", 0x2368);
  CHECK(first != NULL && strcmp(first, copy) == 0);
  CHECK_NO_ERROR(dev); /* the success replaced both failures */
  regemu_read32(dev, "mmoi", 0);
  CHECK(regemu_irq_level(dev) == 0); /* a success too */
  CHECK_NO_ERROR(dev);
  regemu_close(dev);
}

/* Haswell has no interrupt behaviour named irq: an error, not a violation. */
static void test_inject_interrupt(void) {
  regemu_device *dev = open_db(REGEMU_SOURCE_DIR "/yaml/hsw");
  if (dev == NULL) return;
  CHECK(regemu_inject_interrupt(dev, "RCS0", 1) == -1);
  CHECK_ERROR(dev, "regemu_inject_interrupt: 'irq RCS0 0x1': no behaviour of device 'hsw' handles 'inject irq'");
  CHECK(regemu_inject_interrupt(dev, NULL, 1) == -1);
  CHECK_ERROR(dev, "regemu_inject_interrupt: the engine is NULL");
  CHECK(regemu_violation_count(dev) == 0);
  regemu_close(dev);
}

/* Every call on a NULL device fails without crashing. */
static void test_null_device(void) {
  CHECK(contains(regemu_last_error(NULL), "the device is NULL"));
  CHECK(regemu_read8(NULL, "mmio", 0) == 0xFFu);
  CHECK(regemu_read16(NULL, "mmio", 0) == 0xFFFFu);
  CHECK(regemu_read32(NULL, "mmio", 0) == 0xFFFFFFFFu);
  CHECK(regemu_read64(NULL, "mmio", 0) == UINT64_MAX);
  regemu_write8(NULL, "mmio", 0, 1);
  regemu_write16(NULL, "mmio", 0, 1);
  regemu_write32(NULL, "mmio", 0, 1);
  regemu_write64(NULL, "mmio", 0, 1);
  regemu_step_ns(NULL, 1);
  CHECK(regemu_inject_interrupt(NULL, "RCS0", 1) == -1);
  CHECK(regemu_irq_level(NULL) == -1);
  CHECK(regemu_violation_count(NULL) == 0);
  CHECK(regemu_violation_text(NULL, 0) == NULL);
  CHECK(regemu_iomap(NULL, "mmio", 0x1000) == NULL);
  regemu_iounmap(NULL);
  regemu_close(NULL);
}

int main(void) {
  test_open_failures();
  test_frontdoor_and_violations();
  test_unknown_space();
  test_last_error();
  test_inject_interrupt();
  test_null_device();
  if (failures == 0) printf("c_shim_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
