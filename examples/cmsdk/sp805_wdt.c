/* The register sequences of Linux 6.1's drivers/watchdog/sp805_wdt.c, each
 * function named after the one it follows (wdt_config is
 * sp805_wdt_config); the clock framework, spinlock and watchdog core are
 * left out (sp805_wdt.h). A deliberate mistake (cmsdk_bugs.h) is marked
 * where it departs. */
#include "examples/cmsdk/sp805_wdt.h"

#include "examples/cmsdk/linux_io.h"
#include "examples/cmsdk/sp805_wdt_regs.h"

/* wdt_is_running: both INT_ENABLE and RESET_ENABLE set. */
int sp805_wdt_is_running(struct sp805_wdt *wdt) {
  uint32_t wdtcontrol = readl_relaxed(wdt->base + WDTCONTROL);

  return (wdtcontrol & ENABLE_MASK) == ENABLE_MASK;
}

/* wdt_setload: the counter runs the load twice before the reset (the
 * interrupt, then the reset), so the load is half the timeout's count. */
int sp805_wdt_setload(struct sp805_wdt *wdt, unsigned int timeout) {
  uint64_t load, rate;

  rate = wdt->rate;
  load = rate / 2 * timeout - 1;

  load = (load > LOAD_MAX) ? LOAD_MAX : load;
  load = (load < LOAD_MIN) ? LOAD_MIN : load;

  wdt->load_val = (unsigned int)load;
  /* the timeout this load gives, in whole seconds (rounded) */
  wdt->timeout = (unsigned int)(((load + 1) * 2 + (rate / 2)) / rate);
  return 0;
}

/* wdt_timeleft: the count, plus a whole load while the interrupt is not
 * yet pending. */
unsigned int sp805_wdt_timeleft(struct sp805_wdt *wdt) {
  uint64_t load;

  load = readl_relaxed(wdt->base + WDTVALUE);

  if (!(readl_relaxed(wdt->base + WDTRIS) & INT_MASK)) load += (uint64_t)wdt->load_val + 1;

  return (unsigned int)(load / wdt->rate);
}

/* wdt_restart: reset now (a load of 0, interrupt and reset enabled). */
int sp805_wdt_restart(struct sp805_wdt *wdt) {
  writel_relaxed(UNLOCK, wdt->base + WDTLOCK);
  writel_relaxed(0, wdt->base + WDTCONTROL);
  writel_relaxed(0, wdt->base + WDTLOAD);
  writel_relaxed(INT_ENABLE | RESET_ENABLE, wdt->base + WDTCONTROL);

  /* read back: the posted writes reach the device first */
  readl_relaxed(wdt->base + WDTLOCK);

  return 0;
}

/* wdt_config: unlock, load, clear the interrupt, (start,) lock. */
int sp805_wdt_config(struct sp805_wdt *wdt, int ping) {
  if (!(ping && CMSDK_HAS_BUG(wdt->bugs, CMSDK_BUG_PING_WHILE_LOCKED))) writel_relaxed(UNLOCK, wdt->base + WDTLOCK);
  writel_relaxed(wdt->load_val, wdt->base + WDTLOAD);
  writel_relaxed(INT_MASK, wdt->base + WDTINTCLR);

  if (!ping) writel_relaxed(INT_ENABLE | RESET_ENABLE, wdt->base + WDTCONTROL);

  writel_relaxed(LOCK, wdt->base + WDTLOCK);

  /* read back: the posted writes reach the device first */
  readl_relaxed(wdt->base + WDTLOCK);

  return 0;
}

/* wdt_ping */
int sp805_wdt_ping(struct sp805_wdt *wdt) { return sp805_wdt_config(wdt, 1); }

/* wdt_enable */
int sp805_wdt_enable(struct sp805_wdt *wdt) { return sp805_wdt_config(wdt, 0); }

/* wdt_disable */
int sp805_wdt_disable(struct sp805_wdt *wdt) {
  writel_relaxed(UNLOCK, wdt->base + WDTLOCK);
  writel_relaxed(0, wdt->base + WDTCONTROL);
  writel_relaxed(LOCK, wdt->base + WDTLOCK);

  /* read back: the posted writes reach the device first */
  readl_relaxed(wdt->base + WDTLOCK);

  return 0;
}

/* sp805_wdt_probe, from wdt->rate on. */
int sp805_wdt_probe(struct sp805_wdt *wdt, uint8_t __iomem *base, uint64_t rate, unsigned int timeout) {
  wdt->base = base;
  wdt->rate = rate;
  if (!wdt->rate) return -19; /* -ENODEV: no clock-frequency property */

  wdt->timeout = timeout ? timeout : DEFAULT_TIMEOUT;
  sp805_wdt_setload(wdt, wdt->timeout);

  /*
   * A watchdog already running (the boot firmware's) is enabled again and
   * reported running to the watchdog core.
   */
  if (sp805_wdt_is_running(wdt)) {
    sp805_wdt_enable(wdt);
    wdt->hw_running = 1;
  }
  return 0;
}
