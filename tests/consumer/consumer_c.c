/* Links the installed C shim through pkg-config. */
#include <stdio.h>
#include <string.h>

#include "regemu/regemu.h"

int main(int argc, char **argv) {
  char err[1024];
  const char *db = argc > 1 ? argv[1] : REGEMU_SHARE_YAML "/hsw";
  regemu_device *dev = regemu_open(db, err, sizeof err);
  if (!dev) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  /* gen7_init_oa_buffer's order, then enable: OASTATUS2, OABUFFER, OASTATUS1. */
  regemu_write32(dev, "mmio", 0x2368, 0x01000001);
  regemu_write32(dev, "mmio", 0x23B0, 0x01000000);
  regemu_write32(dev, "mmio", 0x2364, 0x01000038);
  regemu_write32(dev, "mmio", 0x2360, 1);
  int ok = regemu_read32(dev, "mmio", 0x2360) == 1;
  /* A hardware event as a script injects it: classic-iir `gt` raises GTISR bit 9. */
  ok = ok && regemu_inject(dev, "gt 9 on") == 0 && regemu_read32(dev, "mmio", 0x44010) == 0x200;
  /* A misspelt space is the test's error, not a violation. */
  ok = ok && regemu_read32(dev, "mmoi", 0x2360) == 0xFFFFFFFFu;
  const char *error = regemu_last_error(dev);
  if (error) printf("consumer_c: expected error: %s\n", error);
  ok = ok && error != NULL && strstr(error, "no space 'mmoi'") != NULL;
  ok = ok && regemu_violation_count(dev) == 0;
  /* A plain pointer into a trapped mapping: OASTATUS1 read as a volatile load. */
  volatile uint32_t *mmio = regemu_map(dev, "mmio", NULL);
  ok = ok && mmio != NULL && mmio[0x2364 / 4] == regemu_peek32(dev, "mmio", 0x2364);
  ok = ok && regemu_unmap(dev, (void *)mmio) == 0;
  regemu_close(dev);
  printf("consumer_c: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
