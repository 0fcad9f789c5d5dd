/* The deliberate mistakes the Linux-style sequences (sp804.c, sp805_wdt.c)
 * can be told to make, one bit each in their `bugs` member, so that the
 * tests show what regemu reports for each (examples/cmsdk/bugs.hpp is the
 * C++ side: a BugSet of the same bits). 0 is the driver as Linux 6.1
 * writes it. */
#ifndef CMSDK_BUGS_H
#define CMSDK_BUGS_H

/* wdt_ping without the UNLOCK write: WDOGLOAD and WDOGINTCLR written
 * while the watchdog is locked (ARM DDI 0270B §3.3.8: the hardware
 * ignores them), so the ping never lands. */
#define CMSDK_BUG_PING_WHILE_LOCKED 0u
/* sp804_set_periodic without evt_timer_shutdown first: TimerControl's mode
 * bits rewritten while the timer runs. */
#define CMSDK_BUG_MODE_WHILE_ENABLED 1u

#define CMSDK_HAS_BUG(bugs, bug) ((((bugs) >> (bug)) & 1u) != 0)

#endif /* CMSDK_BUGS_H */
