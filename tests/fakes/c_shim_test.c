/* The C shim from C: open a shipped database, access registers by space and
 * offset and through readl()/writel(), see violations as text, inject an
 * interrupt where the device has no interrupt behaviour. Exits 0 when every
 * check holds, 1 otherwise (each failure printed). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "regemu/iomem.h"
#include "regemu/regemu.h"

static int failures = 0;

#define CHECK(cond)                                                 \
  do {                                                              \
    if (!(cond)) {                                                  \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                   \
    }                                                               \
  } while (0)

/* A driver function as it would be written for the kernel. */
static void oa_enable(char *regs) { writel(readl(regs + 0x2360) | 1u, regs + 0x2360); }

int main(void) {
  char err[4096];
  regemu_device *bad = regemu_open(REGEMU_SOURCE_DIR "/tests/data/hsw_literal", err, sizeof err);
  CHECK(bad == NULL);
  CHECK(strstr(err, "overlaps register 'CEC3_1'") != NULL);
  CHECK(regemu_open(REGEMU_SOURCE_DIR "/no/such/db", err, sizeof err) == NULL);

  regemu_device *dev = regemu_open(REGEMU_SOURCE_DIR "/yaml/hsw", err, sizeof err);
  CHECK(dev != NULL);
  if (dev == NULL) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  /* OASTATUS2 0x2368: bit 0 is read-only 1 (GGTT), bit 5 must be zero. */
  CHECK(regemu_read32(dev, "mmio", 0x2368) == 1u);
  regemu_write32(dev, "mmio", 0x2368, 0x01000001u);
  CHECK(regemu_read32(dev, "mmio", 0x2368) == 0x01000001u);
  CHECK(regemu_read16(dev, "mmio", 0x236A) == 0x0100u);
  CHECK(regemu_violation_count(dev) == 0);

  regemu_write32(dev, "mmio", 0x2368, 0x21u);
  CHECK(regemu_violation_count(dev) == 1);
  CHECK(regemu_violation_text(dev, 0) != NULL && strstr(regemu_violation_text(dev, 0), "mbz") != NULL);
  CHECK(regemu_violation_text(dev, 1) == NULL);

  /* readl/writel over a mapping of the mmio space. */
  char *regs = regemu_iomap(dev, "mmio", 0x10000);
  CHECK(regs != NULL);
  CHECK(regemu_iomap(dev, "gtt", 0x1000) == NULL);
  /* The OA buffer first (gen7_init_oa_buffer's order): enabling OA with no
     buffer programmed is a protocol violation. */
  regemu_write32(dev, "mmio", 0x23B0, 0x01000000u);
  regemu_write32(dev, "mmio", 0x2364, 0x01000038u);
  oa_enable(regs);
  CHECK((regemu_read32(dev, "mmio", 0x2360) & 1u) == 1u);
  CHECK(readb(regs + 0x2360) == 1u);

  /* An unknown space is a recorded misuse that reads all-ones. */
  CHECK(regemu_read32(dev, "gtt", 0) == 0xFFFFFFFFu);
  CHECK(regemu_violation_count(dev) == 2);
  CHECK(strstr(regemu_violation_text(dev, 1), "no such space") != NULL);

  /* Haswell's OA database has no interrupt behaviour. */
  CHECK(regemu_inject_interrupt(dev, "RCS0", 1) == -1);
  CHECK(regemu_irq_level(dev) == 0);
  regemu_step_ns(dev, 1000);

  regemu_iounmap(regs);
  regemu_close(dev);
  if (failures == 0) printf("c_shim_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
