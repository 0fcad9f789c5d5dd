/* The C shim from C: open a database, access registers by space and offset
 * and through readl()/writel(), the backdoor, reset, inject, MSI messages,
 * violations and their facets, plain pointers through regemu_map, and API
 * misuse as error returns (never as violations, never a crash). Exits 0 when every check holds, 1 otherwise
 * (each failure printed). */
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

/* The smallest device showing the backdoor and reset (the emulator's own
 * device_state_test): a clear-on-read IIR, a write-1-to-clear STATUS, a
 * write-once LOCK, a read-only ID, a reserved hole, and a 10 ns counter. */
static const char kStateYaml[] =
    "device: state\n"
    "spaces:\n"
    "  - {name: mmio, kind: mmio, size: 0x1000}\n"
    "  - {name: vram, kind: memory, size: 0x10000}\n"
    "registers:\n"
    "  - {name: IIR, space: mmio, offset: 0x0, access: rc, reset: 0x0}\n"
    "  - {name: STATUS, space: mmio, offset: 0x4, access: w1c}\n"
    "  - {name: LOCK, space: mmio, offset: 0x8, access: w1, reset: 0x5}\n"
    "  - {name: SCRATCH, space: mmio, offset: 0xC, reset: 0xA5A5A5A5}\n"
    "  - {name: RO_ID, space: mmio, offset: 0x10, access: ro, reset: 0x8086}\n"
    "  - {name: TIMESTAMP, space: mmio, offset: 0x18, width: 64, access: hw}\n"
    "ranges:\n"
    "  - {name: HOLE, space: mmio, base: 0x800, size: 0x100, kind: reserved}\n"
    "behaviours:\n"
    "  - {kind: counter, register: TIMESTAMP, period: 10ns}\n";

/* ctest runs each test in the build's tests folder: the file is this test's. */
static const char kStatePath[] = "c_shim_test_state.yaml";

static regemu_device *open_state(void) {
  FILE *file = fopen(kStatePath, "w");
  CHECK(file != NULL);
  if (file == NULL) return NULL;
  CHECK(fputs(kStateYaml, file) >= 0);
  CHECK(fclose(file) == 0);
  return open_db(kStatePath);
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
  CHECK(regemu_violation_kind(dev, 0) != NULL && strcmp(regemu_violation_kind(dev, 0), "mbz") == 0);
  CHECK(regemu_violation_register(dev, 0) != NULL && strcmp(regemu_violation_register(dev, 0), "OASTATUS2") == 0);
  CHECK_NO_ERROR(dev);
  CHECK(regemu_violation_text(dev, 1) == NULL);
  CHECK_ERROR(dev, "index 1 is past the end (1 violations)");
  CHECK(regemu_violation_kind(dev, 1) == NULL);
  CHECK_ERROR(dev, "regemu_violation_kind: index 1");
  CHECK(regemu_violation_register(dev, (size_t)-1) == NULL);
  CHECK_ERROR(dev, "regemu_violation_register: index");

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
  CHECK(regemu_peek32(dev, "mmio", 0x2368) == 1u); /* nothing written */

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

/* The backdoor: no side effect, no violation, no time; misuse is an error. */
static void test_peek_poke(void) {
  regemu_device *dev = open_state();
  if (dev == NULL) return;
  /* Peeking a clear-on-read register does not clear it; reading does. */
  CHECK(regemu_poke32(dev, "mmio", 0x0, 0x8) == 0);
  CHECK_NO_ERROR(dev);
  CHECK(regemu_peek32(dev, "mmio", 0x0) == 0x8u);
  CHECK(regemu_peek8(dev, "mmio", 0x0) == 0x8u);
  CHECK(regemu_peek32(dev, "mmio", 0x0) == 0x8u);
  CHECK(regemu_read32(dev, "mmio", 0x0) == 0x8u);
  CHECK(regemu_peek32(dev, "mmio", 0x0) == 0u);
  /* Poking a write-1-to-clear register stores raw bytes, any alignment. */
  CHECK(regemu_poke32(dev, "mmio", 0x4, 0xF0) == 0);
  CHECK(regemu_poke8(dev, "mmio", 0x5, 0x0F) == 0);
  CHECK(regemu_peek32(dev, "mmio", 0x4) == 0x0FF0u);
  CHECK(regemu_peek16(dev, "mmio", 0x5) == 0x000Fu);
  /* Poking a read-only register breaks no rule. */
  CHECK(regemu_poke16(dev, "mmio", 0x10, 0x1234) == 0);
  CHECK(regemu_peek32(dev, "mmio", 0x10) == 0x1234u);
  CHECK(regemu_poke64(dev, "mmio", 0x18, 0x1122334455667788u) == 0);
  CHECK(regemu_peek64(dev, "mmio", 0x18) == 0x1122334455667788u);
  CHECK(regemu_peek64(dev, "mmio", 0x8) == 0xA5A5A5A500000005u); /* LOCK and SCRATCH */
  /* A memory space: bytes as written, 0 before. */
  CHECK(regemu_peek32(dev, "vram", 0x100) == 0u);
  CHECK(regemu_poke32(dev, "vram", 0x100, 0xDEADBEEFu) == 0);
  CHECK(regemu_peek8(dev, "vram", 0x101) == 0xBEu);
  CHECK(regemu_peek32(dev, "vram", 0xFFFC) == 0u);
  CHECK_NO_ERROR(dev);
  CHECK(regemu_violation_count(dev) == 0);

  /* Where no register holds the bytes: a peek reads what the bus would
     (0 here), a poke stores nothing and fails. */
  CHECK(regemu_peek32(dev, "mmio", 0x800) == 0u);
  CHECK_NO_ERROR(dev);
  CHECK(regemu_poke32(dev, "mmio", 0x800, 1) == -1);
  CHECK_ERROR(dev, "regemu_poke32: no register or memory of space 'mmio' holds the bytes at 0x800");
  /* A poke half over a register stores the half. */
  CHECK(regemu_poke32(dev, "mmio", 0x1E, 0xBBBBAAAAu) == 0);
  CHECK(regemu_peek16(dev, "mmio", 0x1E) == 0xAAAAu);

  /* Past the end of the space, an unknown space, a NULL space. */
  CHECK(regemu_peek32(dev, "mmio", 0xFFC) == 0u);
  CHECK_NO_ERROR(dev);
  CHECK(regemu_peek32(dev, "mmio", 0xFFE) == 0xFFFFFFFFu);
  CHECK_ERROR(dev, "regemu_peek32: 32 bits at 0xffe run past the end of space 'mmio' (size 0x1000)");
  CHECK(regemu_peek8(dev, "mmio", 0x1000) == 0xFFu);
  CHECK_ERROR(dev, "regemu_peek8: 8 bits at 0x1000 run past the end");
  CHECK(regemu_peek64(dev, "mmio", UINT64_MAX) == UINT64_MAX);
  CHECK_ERROR(dev, "regemu_peek64:");
  CHECK(regemu_poke16(dev, "vram", 0xFFFF, 1) == -1);
  CHECK_ERROR(dev, "regemu_poke16: 16 bits at 0xffff run past the end of space 'vram'");
  CHECK(regemu_peek16(dev, "vrma", 0) == 0xFFFFu);
  CHECK_ERROR(dev, "regemu_peek16: device 'state' has no space 'vrma' (did you mean 'vram'?)");
  CHECK(regemu_poke8(dev, "vrma", 0, 1) == -1);
  CHECK_ERROR(dev, "regemu_poke8: device 'state' has no space 'vrma'");
  CHECK(regemu_poke64(dev, NULL, 0, 1) == -1);
  CHECK_ERROR(dev, "regemu_poke64: the space name is NULL");

  CHECK(regemu_violation_count(dev) == 0);
  regemu_close(dev);
}

/* regemu_reset: reset values back, write-once writable again; time goes
   on, violations stay. */
static void test_reset(void) {
  regemu_device *dev = open_state();
  if (dev == NULL) return;
  regemu_write32(dev, "mmio", 0x8, 0x1);
  regemu_write32(dev, "mmio", 0x8, 0x2); /* write-once: no effect */
  regemu_write32(dev, "mmio", 0xC, 0x0);
  regemu_write32(dev, "mmio", 0x10, 0x1); /* read-only: a violation */
  CHECK(regemu_poke32(dev, "vram", 0x40, 0x77) == 0);
  regemu_step_ns(dev, 100);
  CHECK(regemu_peek32(dev, "mmio", 0x8) == 0x1u);
  CHECK(regemu_peek64(dev, "mmio", 0x18) == 10u);
  CHECK(regemu_violation_count(dev) == 1);

  CHECK(regemu_reset(dev) == 0);
  CHECK_NO_ERROR(dev);
  CHECK(regemu_peek32(dev, "mmio", 0x8) == 0x5u);
  CHECK(regemu_peek32(dev, "mmio", 0xC) == 0xA5A5A5A5u);
  CHECK(regemu_peek64(dev, "mmio", 0x18) == 0u);
  CHECK(regemu_peek32(dev, "vram", 0x40) == 0u);
  CHECK(regemu_violation_count(dev) == 1);
  CHECK(regemu_violation_kind(dev, 0) != NULL && strcmp(regemu_violation_kind(dev, 0), "read-only") == 0);
  CHECK(regemu_violation_register(dev, 0) != NULL && strcmp(regemu_violation_register(dev, 0), "RO_ID") == 0);
  regemu_write32(dev, "mmio", 0x8, 0x2); /* the first write since the reset */
  CHECK(regemu_peek32(dev, "mmio", 0x8) == 0x2u);
  regemu_step_ns(dev, 25);
  CHECK(regemu_peek64(dev, "mmio", 0x18) == 2u);

  /* A read where nothing decodes: `unclaimed`, no register to name. */
  regemu_read32(dev, "mmio", 0x400);
  CHECK(regemu_violation_count(dev) == 2);
  CHECK(regemu_violation_kind(dev, 1) != NULL && strcmp(regemu_violation_kind(dev, 1), "unclaimed") == 0);
  CHECK(regemu_violation_register(dev, 1) != NULL && strcmp(regemu_violation_register(dev, 1), "") == 0);
  CHECK_NO_ERROR(dev);
  regemu_close(dev);
}

/* regemu_inject: a script's inject line, through the device's behaviours. */
static void test_inject(void) {
  regemu_device *dev = open_db(REGEMU_SOURCE_DIR "/yaml/hsw");
  if (dev == NULL) return;
  /* Haswell's classic-iir `gt` (GTISR 0x44010, GTIMR 0x44014, GTIIR
     0x44018, GTIER 0x4401C): a live source, then a pulse once unmasked. */
  CHECK(regemu_inject(dev, "gt 9 on") == 0);
  CHECK_NO_ERROR(dev);
  CHECK(regemu_peek32(dev, "mmio", 0x44010) == 0x200u);
  CHECK(regemu_peek32(dev, "mmio", 0x44018) == 0u); /* masked at reset */
  CHECK(regemu_inject(dev, " \tgt  9\toff\n") == 0);  /* any white space */
  CHECK(regemu_peek32(dev, "mmio", 0x44010) == 0u);
  regemu_write32(dev, "mmio", 0x44014, ~0x200u);
  regemu_write32(dev, "mmio", 0x4401C, 0x200u);
  CHECK(regemu_irq_level(dev) == 0);
  CHECK(regemu_inject(dev, "gt 9") == 0);
  CHECK(regemu_peek32(dev, "mmio", 0x44018) == 0x200u);
  CHECK(regemu_irq_level(dev) == 1);
  regemu_write32(dev, "mmio", 0x44018, 0x200u); /* ack */
  CHECK(regemu_irq_level(dev) == 0);
  /* The OA unit's verbs go to the OA unit, with its usage on bad arguments. */
  CHECK(regemu_inject(dev, "gpu-freq 500") == 0);
  CHECK(regemu_inject(dev, "gpu-freq") == -1);
  CHECK_ERROR(dev, "regemu_inject: 'gpu-freq': usage: inject gpu-freq MHZ");

  /* Misuse: unknown verb, bad arguments, blank, NULL, the word inject. */
  CHECK(regemu_inject(dev, "frobnicate 1 2") == -1);
  CHECK_ERROR(dev, "regemu_inject: 'frobnicate 1 2': no behaviour of device 'hsw' handles 'inject frobnicate'");
  CHECK(regemu_inject(dev, "gt 99") == -1);
  CHECK_ERROR(dev, "regemu_inject: 'gt 99': bad bit '99'");
  CHECK_ERROR(dev, "usage: inject gt BIT [on|off]");
  CHECK(regemu_inject(dev, "gt 9 sideways") == -1);
  CHECK_ERROR(dev, "expected 'on' or 'off', got 'sideways'");
  CHECK(regemu_inject(dev, "") == -1);
  CHECK_ERROR(dev, "regemu_inject: the command is empty");
  CHECK(regemu_inject(dev, " \t\n") == -1);
  CHECK_ERROR(dev, "the command is empty");
  CHECK(regemu_inject(dev, NULL) == -1);
  CHECK_ERROR(dev, "regemu_inject: the command is NULL");
  CHECK(regemu_inject(dev, "inject gt 9") == -1);
  CHECK_ERROR(dev, "starts with 'inject'");
  CHECK(regemu_peek32(dev, "mmio", 0x44010) == 0u); /* no failed inject did anything */

  /* Haswell has no interrupt behaviour named irq. */
  CHECK(regemu_inject_interrupt(dev, "RCS0", 1) == -1);
  CHECK_ERROR(dev, "regemu_inject_interrupt: 'irq RCS0 0x1': no behaviour of device 'hsw' handles 'inject irq'");
  CHECK(regemu_inject_interrupt(dev, NULL, 1) == -1);
  CHECK_ERROR(dev, "regemu_inject_interrupt: the engine is NULL");
  CHECK(regemu_violation_count(dev) == 0);
  regemu_close(dev);
}

/* Ice Lake's function enables MSI in Linux's order (msi_capability_init);
   an interrupt request then goes out as a message, not on INTx. */
static void test_msi(void) {
  regemu_device *dev = open_db(REGEMU_SOURCE_DIR "/yaml/icl");
  if (dev == NULL) return;
  uint64_t address = 7, data = 7;
  CHECK(regemu_msi_count(dev) == 0);
  CHECK(regemu_msi_message(dev, 0, &address, &data) == -1);
  CHECK_ERROR(dev, "regemu_msi_message: index 0 is past the end (0 messages)");
  CHECK(address == 7 && data == 7);

  /* INTx first: the request raises the line and sends nothing. */
  regemu_write16(dev, "config", 0x04, 0x0006); /* PCICMD: MSE, BME */
  CHECK(regemu_inject(dev, "pci-request 1") == 0);
  CHECK(regemu_irq_level(dev) == 1);
  CHECK(regemu_inject(dev, "pci-request 0") == 0);
  CHECK(regemu_irq_level(dev) == 0);
  CHECK(regemu_msi_count(dev) == 0);

  regemu_write16(dev, "config", 0xAE, 0x0100);     /* MC: enable off */
  regemu_write32(dev, "config", 0xB8, 0x1);        /* MSI_MASK: vector masked */
  regemu_write32(dev, "config", 0xB0, 0xFEE00000); /* MA */
  regemu_write16(dev, "config", 0xB4, 0x4021);     /* MD */
  regemu_write16(dev, "config", 0x04, 0x0406);     /* PCICMD: INTx disable */
  regemu_write16(dev, "config", 0xAE, 0x0101);     /* MC: enable */
  regemu_write32(dev, "config", 0xB8, 0x0);        /* unmask */
  CHECK(regemu_inject(dev, "pci-request 1") == 0);
  CHECK(regemu_irq_level(dev) == 0);
  CHECK(regemu_msi_count(dev) == 1);
  CHECK(regemu_msi_message(dev, 0, &address, &data) == 0);
  CHECK_NO_ERROR(dev);
  CHECK(address == 0xFEE00000u);
  CHECK(data == 0x4021u);

  /* Retargeted the safe way (masked while MA/MD change): the next message
     goes to the new address, after the first. */
  CHECK(regemu_inject(dev, "pci-request 0") == 0);
  regemu_write32(dev, "config", 0xB8, 0x1);
  regemu_write32(dev, "config", 0xB0, 0xFEE01000);
  regemu_write16(dev, "config", 0xB4, 0x4022);
  regemu_write32(dev, "config", 0xB8, 0x0);
  CHECK(regemu_inject(dev, "pci-request 1") == 0);
  CHECK(regemu_msi_count(dev) == 2);
  CHECK(regemu_msi_message(dev, 1, &address, NULL) == 0);
  CHECK(address == 0xFEE01000u);
  CHECK(regemu_msi_message(dev, 1, NULL, &data) == 0);
  CHECK(data == 0x4022u);
  CHECK(regemu_msi_message(dev, 0, &address, &data) == 0);
  CHECK(address == 0xFEE00000u && data == 0x4021u);
  CHECK(regemu_msi_message(dev, 2, &address, &data) == -1);
  CHECK_ERROR(dev, "index 2 is past the end (2 messages)");
  CHECK(regemu_msi_message(dev, (size_t)-1, NULL, NULL) == -1);
  CHECK(address == 0xFEE00000u && data == 0x4021u);

  /* A reset keeps the messages sent. */
  CHECK(regemu_reset(dev) == 0);
  CHECK(regemu_msi_count(dev) == 2);

  CHECK(regemu_inject(dev, "pci-request 2") == -1);
  CHECK_ERROR(dev, "regemu_inject: 'pci-request 2': pci-request takes 0 (deassert) or 1 (assert)");
  CHECK(regemu_violation_count(dev) == 0);
  regemu_close(dev);
}

/* Every call on a NULL device fails without crashing. */
static void test_null_device(void) {
  uint64_t address = 7, data = 7;
  CHECK(contains(regemu_last_error(NULL), "the device is NULL"));
  CHECK(regemu_read8(NULL, "mmio", 0) == 0xFFu);
  CHECK(regemu_read16(NULL, "mmio", 0) == 0xFFFFu);
  CHECK(regemu_read32(NULL, "mmio", 0) == 0xFFFFFFFFu);
  CHECK(regemu_read64(NULL, "mmio", 0) == UINT64_MAX);
  regemu_write8(NULL, "mmio", 0, 1);
  regemu_write16(NULL, "mmio", 0, 1);
  regemu_write32(NULL, "mmio", 0, 1);
  regemu_write64(NULL, "mmio", 0, 1);
  CHECK(regemu_peek8(NULL, "mmio", 0) == 0xFFu);
  CHECK(regemu_peek16(NULL, "mmio", 0) == 0xFFFFu);
  CHECK(regemu_peek32(NULL, "mmio", 0) == 0xFFFFFFFFu);
  CHECK(regemu_peek64(NULL, "mmio", 0) == UINT64_MAX);
  CHECK(regemu_poke8(NULL, "mmio", 0, 1) == -1);
  CHECK(regemu_poke16(NULL, "mmio", 0, 1) == -1);
  CHECK(regemu_poke32(NULL, "mmio", 0, 1) == -1);
  CHECK(regemu_poke64(NULL, "mmio", 0, 1) == -1);
  regemu_step_ns(NULL, 1);
  CHECK(regemu_reset(NULL) == -1);
  CHECK(regemu_inject(NULL, "gt 9") == -1);
  CHECK(regemu_inject_interrupt(NULL, "RCS0", 1) == -1);
  CHECK(regemu_irq_level(NULL) == -1);
  CHECK(regemu_msi_count(NULL) == 0);
  CHECK(regemu_msi_message(NULL, 0, &address, &data) == -1);
  CHECK(address == 7 && data == 7);
  CHECK(regemu_violation_count(NULL) == 0);
  CHECK(regemu_violation_text(NULL, 0) == NULL);
  CHECK(regemu_violation_kind(NULL, 0) == NULL);
  CHECK(regemu_violation_register(NULL, 0) == NULL);
  CHECK(regemu_iomap(NULL, "mmio", 0x1000) == NULL);
  regemu_iounmap(NULL);
  regemu_close(NULL);
}

/* A driver that dereferences plain pointers (regemu_map): its loads and
 * stores are frontdoor accesses, a violation names its instruction and
 * line, misuse is an error return. */
static int id_write_line = 0;
static void write_id_by_mistake(volatile uint32_t *regs) {
  id_write_line = __LINE__ + 1;
  regs[0x10 / 4] = 0x1af4;
}

static void test_map(void) {
  regemu_device *dev = open_state();
  if (dev == NULL) return;
  volatile uint32_t *regs = regemu_map(dev, "mmio", NULL);
  CHECK_NO_ERROR(dev);
  CHECK(regs != NULL);
  if (regs == NULL) {
    regemu_close(dev);
    return;
  }
  CHECK(regs[0x10 / 4] == 0x8086u);
  regs[0xC / 4] = 0x12345678u;
  CHECK(regemu_peek32(dev, "mmio", 0xC) == 0x12345678u);
  uint64_t before = regemu_peek64(dev, "mmio", 0x18);
  (void)regs[0xC / 4];
  CHECK(regemu_peek64(dev, "mmio", 0x18) - before == 100u); /* 1 us per access: 100 ticks of 10 ns */
  CHECK(regemu_violation_count(dev) == 0);
  write_id_by_mistake(regs);
  CHECK(regemu_violation_count(dev) == 1);
  char line[64];
  snprintf(line, sizeof line, "c_shim_test.c:%d", id_write_line);
  CHECK(contains(regemu_violation_text(dev, 0), "read-only"));
  CHECK(contains(regemu_violation_text(dev, 0), "[driver instruction: "));
  CHECK(contains(regemu_violation_text(dev, 0), line));

  CHECK(regemu_map(dev, "mmoi", NULL) == NULL);
  CHECK_ERROR(dev, "regemu_map: device 'state' has no space 'mmoi'");
  CHECK(regemu_map(dev, "mmio", (void *)(uintptr_t)0x20000010) == NULL);
  CHECK_ERROR(dev, "must be page-aligned");
  CHECK(regemu_unmap(dev, (void *)regs) == 0);
  CHECK_NO_ERROR(dev);
  CHECK(regemu_unmap(dev, (void *)regs) == -1);
  CHECK_ERROR(dev, "is not a regemu_map mapping of this device");
  CHECK(regemu_map(NULL, "mmio", NULL) == NULL);
  CHECK(regemu_unmap(NULL, NULL) == -1);
  /* A mapping regemu_close unmaps. */
  CHECK(regemu_map(dev, "mmio", NULL) != NULL);
  regemu_close(dev);
}

int main(void) {
  test_open_failures();
  test_frontdoor_and_violations();
  test_unknown_space();
  test_last_error();
  test_peek_poke();
  test_reset();
  test_inject();
  test_msi();
  test_null_device();
  test_map();
  if (failures == 0) printf("c_shim_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
