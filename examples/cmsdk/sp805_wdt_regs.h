/* sp805_wdt.c's register offsets and bits, under its names, kept out of
 * sp805_wdt.h so that including the driver's interface defines none of
 * them: they are generic (LOCK, UNLOCK, INT_MASK), and LOCK would rename
 * CMSDK_WATCHDOG_TypeDef's LOCK member in a file that includes both. */
#ifndef CMSDK_SP805_WDT_REGS_H
#define CMSDK_SP805_WDT_REGS_H

/* the timeout without a timeout-sec property, seconds */
#define DEFAULT_TIMEOUT 60

/* watchdog register offsets and masks (sp805_wdt.c) */
#define WDTLOAD 0x000
#define LOAD_MIN 0x00000001
#define LOAD_MAX 0xFFFFFFFF
#define WDTVALUE 0x004
#define WDTCONTROL 0x008
#define INT_ENABLE (1 << 0)
#define RESET_ENABLE (1 << 1)
#define ENABLE_MASK (INT_ENABLE | RESET_ENABLE)
#define WDTINTCLR 0x00C
#define WDTRIS 0x010
#define WDTMIS 0x014
#define INT_MASK (1 << 0)
#define WDTLOCK 0xC00
#define UNLOCK 0x1ACCE551
#define LOCK 0x00000001

#endif /* CMSDK_SP805_WDT_REGS_H */
