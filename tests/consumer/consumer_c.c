/* Links the installed C shim through pkg-config. */
#include <stdio.h>

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
  int ok = regemu_read32(dev, "mmio", 0x2360) == 1 && regemu_violation_count(dev) == 0;
  regemu_close(dev);
  printf("consumer_c: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
