/* The C shim's clock and lines from C: a driver whose time_now() is the
 * virtual clock (regemu_now_ns) polls a status bit with a deadline, and
 * succeeds or times out in virtual time because every access costs some
 * (regemu_set_access_cost); an edge-triggered HPET pulse is read back by
 * level and edge count (regemu_line_level, regemu_line_edges). Nothing
 * sleeps. Exits 0 when every check holds, 1 otherwise (each failure
 * printed). */
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

static int last_error_contains(regemu_device *dev, const char *needle) {
  const char *error = regemu_last_error(dev);
  return error != NULL && strstr(error, needle) != NULL;
}

/* A controller that is ready 2 us after it is enabled (the shape of
 * NVMe's CC.EN / CSTS.RDY, docs/own-device.md). */
static const char kReadyYaml[] =
    "device: ready\n"
    "spaces:\n"
    "  - {name: bar0, kind: mmio, size: 0x100}\n"
    "registers:\n"
    "  - {name: CTRL, space: bar0, offset: 0x0, fields: [{name: EN, bits: 0}]}\n"
    "  - {name: STATUS, space: bar0, offset: 0x4, volatile: true, fields: [{name: RDY, bits: 0, access: hw}]}\n"
    "behaviours:\n"
    "  - name: ready\n"
    "    kind: reactions\n"
    "    reactions:\n"
    "      - {name: enable, on: {rise: CTRL.EN}, do: [{after: 2us, set: {STATUS.RDY: 1}}]}\n";

/* ctest runs each test in the build's tests folder: the file is this test's. */
static const char kReadyPath[] = "c_shim_clock_test_ready.yaml";

static regemu_device *open_ready(void) {
  FILE *file = fopen(kReadyPath, "w");
  CHECK(file != NULL);
  if (file == NULL) return NULL;
  CHECK(fputs(kReadyYaml, file) >= 0);
  CHECK(fclose(file) == 0);
  char err[4096];
  regemu_device *dev = regemu_open(kReadyPath, err, sizeof err);
  if (dev == NULL) fprintf(stderr, "regemu_open(%s): %s\n", kReadyPath, err);
  return dev;
}

/* ------------------------------------------------ the driver, as written */

/* The driver's platform hook, as C drivers have one; under test it is the
 * device's virtual clock. */
static regemu_device *platform_device;
static uint64_t time_now(void) { return regemu_now_ns(platform_device); }

#define CTRL 0x0
#define STATUS 0x4

/* Enables the controller and waits for it, giving up at a deadline. */
static int controller_enable(char *regs, uint64_t timeout_ns) {
  writel(1u, regs + CTRL);
  uint64_t deadline = time_now() + timeout_ns;
  while ((readl(regs + STATUS) & 1u) == 0) {
    if (time_now() >= deadline) return -1; /* -ETIMEDOUT */
  }
  return 0;
}

/* ------------------------------------------------------------ the tests */

static void test_a_poll_ends_when_the_device_is_ready(void) {
  regemu_device *dev = open_ready();
  CHECK(dev != NULL);
  if (dev == NULL) return;
  platform_device = dev;
  CHECK(regemu_now_ns(dev) == 0);
  CHECK(regemu_set_access_cost(dev, 100) == 0);
  char *regs = regemu_iomap(dev, "bar0", 0x100);
  CHECK(controller_enable(regs, 10000) == 0);
  /* Ready at 2 us: the poll read it within one access of that. */
  CHECK(time_now() >= 2000 && time_now() <= 2200);
  regemu_step_ns(dev, 500);
  CHECK(time_now() >= 2500);
  regemu_iounmap(regs);
  regemu_close(dev);
}

static void test_a_poll_times_out_in_virtual_time(void) {
  regemu_device *dev = open_ready();
  CHECK(dev != NULL);
  if (dev == NULL) return;
  platform_device = dev;
  CHECK(regemu_set_access_cost(dev, 100) == 0);
  char *regs = regemu_iomap(dev, "bar0", 0x100);
  CHECK(controller_enable(regs, 1000) == -1);
  /* The deadline passed by less than one read. */
  CHECK(time_now() >= 1100 && time_now() <= 1200);
  /* A cost of 0 again: accesses take no time. */
  CHECK(regemu_set_access_cost(dev, 0) == 0);
  uint64_t before = time_now();
  (void)readl(regs + STATUS);
  CHECK(time_now() == before);
  regemu_iounmap(regs);
  regemu_close(dev);
}

/* HPET timer 0 edge-triggered, one-shot, on IRQ0 by LegacyReplacement
 * (HPET 1.0a §2.4.2.1): 100 ticks take 6985 ns. */
static void test_an_edge_pulse_shows_in_the_edge_count(void) {
  char err[4096];
  regemu_device *dev = regemu_open(REGEMU_SOURCE_DIR "/yaml/hpet", err, sizeof err);
  if (dev == NULL) fprintf(stderr, "regemu_open(yaml/hpet): %s\n", err);
  CHECK(dev != NULL);
  if (dev == NULL) return;
  regemu_write32(dev, "mmio", 0x100, 0x4); /* T0_CONF: edge, enabled */
  regemu_write64(dev, "mmio", 0x108, 100); /* T0_CMP */
  regemu_write32(dev, "mmio", 0x10, 0x3);  /* GEN_CONF: enabled, legacy routes */
  CHECK(regemu_line_edges(dev, "IRQ0") == 0);
  regemu_step_ns(dev, 6985);
  CHECK(regemu_line_level(dev, "IRQ0") == 0); /* the pulse is over */
  CHECK(regemu_line_edges(dev, "IRQ0") == 1); /* but it came */
  CHECK(regemu_line_edges(dev, "IRQ8") == 0);
  /* "irq" is the device's interrupt output, the line regemu_irq_level reads. */
  CHECK(regemu_line_level(dev, "irq") == regemu_irq_level(dev));
  CHECK(regemu_line_edges(dev, "irq") == 0);
  CHECK(regemu_reset(dev) == 0);
  CHECK(regemu_line_edges(dev, "IRQ0") == 1); /* a reset keeps the count */
  regemu_close(dev);
}

static void test_misuse_is_an_error_return(void) {
  char err[4096];
  regemu_device *dev = regemu_open(REGEMU_SOURCE_DIR "/yaml/hpet", err, sizeof err);
  CHECK(dev != NULL);
  if (dev == NULL) return;
  CHECK(regemu_line_level(dev, "IRQ99") == -1);
  CHECK(last_error_contains(dev, "regemu_line_level: device 'hpet' has no interrupt line 'IRQ99'"));
  CHECK(regemu_line_edges(dev, "irq0") == UINT64_MAX);
  CHECK(last_error_contains(dev, "did you mean 'IRQ0'?"));
  CHECK(regemu_line_level(dev, NULL) == -1);
  CHECK(last_error_contains(dev, "the line name is NULL"));
  CHECK(regemu_line_level(dev, "IRQ0") == 0);
  CHECK(regemu_last_error(dev) == NULL);
  regemu_close(dev);
  CHECK(regemu_now_ns(NULL) == 0);
  CHECK(regemu_set_access_cost(NULL, 10) == -1);
  CHECK(regemu_line_level(NULL, "irq") == -1);
  CHECK(regemu_line_edges(NULL, "irq") == UINT64_MAX);
}

int main(void) {
  test_a_poll_ends_when_the_device_is_ready();
  test_a_poll_times_out_in_virtual_time();
  test_an_edge_pulse_shows_in_the_edge_count();
  test_misuse_is_an_error_return();
  if (failures == 0) printf("c_shim_clock_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
