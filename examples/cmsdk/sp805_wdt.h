/* Linux 6.1's SP805 watchdog driver (drivers/watchdog/sp805_wdt.c), its
 * register sequences kept access for access, on the AN385's watchdog: the
 * watchdog core's operations (start, stop, ping, set_timeout,
 * get_timeleft, restart) as functions of a struct holding what the
 * driver's struct sp805_wdt and watchdog_device hold. Registers through
 * readl_relaxed()/writel_relaxed() on the base pointer (linux_io.h); the
 * register offsets and bits, under Linux's names, are in sp805_wdt_regs.h. */
#ifndef CMSDK_SP805_WDT_H
#define CMSDK_SP805_WDT_H

#include <stdint.h>

#ifndef __iomem
#define __iomem
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct sp805_wdt {
  uint8_t __iomem *base;
  uint64_t rate;         /* the watchdog's clock, Hz */
  unsigned int load_val; /* load value for the current timeout */
  unsigned int timeout;  /* watchdog_device.timeout, seconds */
  int hw_running;        /* WDOG_HW_RUNNING, set by the probe */
  unsigned int bugs;     /* CMSDK_BUG_* bits; 0: Linux's sequences */
};

/* sp805_wdt_probe's part after the resources: the timeout set (0 means
 * DEFAULT_TIMEOUT, as without a timeout-sec property), and a watchdog the
 * firmware left running restarted and marked running. */
int sp805_wdt_probe(struct sp805_wdt *wdt, uint8_t __iomem *base, uint64_t rate, unsigned int timeout);

int sp805_wdt_is_running(struct sp805_wdt *wdt);                       /* wdt_is_running */
int sp805_wdt_setload(struct sp805_wdt *wdt, unsigned int timeout);    /* wdt_setload (.set_timeout) */
unsigned int sp805_wdt_timeleft(struct sp805_wdt *wdt);                /* wdt_timeleft (.get_timeleft) */
int sp805_wdt_restart(struct sp805_wdt *wdt);                          /* wdt_restart (.restart) */
int sp805_wdt_config(struct sp805_wdt *wdt, int ping);                 /* wdt_config */
int sp805_wdt_ping(struct sp805_wdt *wdt);                             /* wdt_ping (.ping) */
int sp805_wdt_enable(struct sp805_wdt *wdt);                           /* wdt_enable (.start) */
int sp805_wdt_disable(struct sp805_wdt *wdt);                          /* wdt_disable (.stop) */

#ifdef __cplusplus
}
#endif

#endif /* CMSDK_SP805_WDT_H */
