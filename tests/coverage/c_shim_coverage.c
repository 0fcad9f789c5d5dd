/* A C test program that turns coverage on in code
 * (regemu_enable_coverage), for the coverage end-to-end test
 * (RunCoverageTest.cmake): it opens yaml/icl, enables memory decode, wakes
 * the render domain and closes the device; the file is written at exit.
 * Usage: c_shim_coverage PATH_PATTERN */
#include <stdio.h>

#include "regemu/regemu.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: c_shim_coverage PATH_PATTERN\n");
    return 2;
  }
  if (regemu_enable_coverage(argv[1]) != 0) return 1;
  char err[4096];
  regemu_device *dev = regemu_open(REGEMU_SOURCE_DIR "/yaml/icl", err, sizeof err);
  if (dev == NULL) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  regemu_write16(dev, "config", 0x04, 0x0006);
  regemu_write32(dev, "mmio", 0xA278, 0x00010001); /* FORCEWAKE_RENDER_GEN9: get */
  for (int polls = 0; polls < 1000 && (regemu_read32(dev, "mmio", 0x0D84) & 1) == 0; ++polls) {
    regemu_step_ns(dev, 1000);
  }
  regemu_close(dev);
  return 0;
}
