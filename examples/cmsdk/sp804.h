/* Linux 6.1's SP804 timer driver (drivers/clocksource/timer-sp804.c and
 * timer-sp.h), its register sequences kept access for access, on the
 * AN385's dual timer: one timer as the clock event device (periodic tick
 * and one-shot events, TIMINT1 or TIMINT2), the other as the free-running
 * clocksource. The kernel's clockevents framework becomes a struct and a
 * callback; the registers are reached through readl()/writel() on the
 * SP804's base pointer (linux_io.h: plain volatile accesses, in sp804.c). */
#ifndef CMSDK_SP804_H
#define CMSDK_SP804_H

#include <stdint.h>

#ifndef __iomem
#define __iomem
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* timer-sp.h */
#define TIMER_LOAD 0x00
#define TIMER_VALUE 0x04
#define TIMER_CTRL 0x08
#define TIMER_CTRL_ONESHOT (1 << 0)
#define TIMER_CTRL_32BIT (1 << 1)
#define TIMER_CTRL_DIV1 (0 << 2)
#define TIMER_CTRL_DIV16 (1 << 2)
#define TIMER_CTRL_DIV256 (2 << 2)
#define TIMER_CTRL_IE (1 << 5)
#define TIMER_CTRL_PERIODIC (1 << 6)
#define TIMER_CTRL_ENABLE (1 << 7)
#define TIMER_INTCLR 0x0c
#define TIMER_RIS 0x10
#define TIMER_MIS 0x14
#define TIMER_BGLOAD 0x18
#define NR_TIMERS 2
#define TIMER_1_BASE 0x00
#define TIMER_2_BASE 0x20

/* struct sp804_clkevt: one timer's registers. */
struct sp804_clkevt {
  uint8_t __iomem *base;
  uint8_t __iomem *load;
  uint8_t __iomem *value;
  uint8_t __iomem *ctrl;
  uint8_t __iomem *intclr;
  unsigned long reload; /* the periodic tick's count: rate / HZ */
};

/* The driver's state: Linux keeps it in statics (sp804_clkevt[],
 * common_clkevt, sched_clkevt) and the clock_event_device. */
struct sp804 {
  struct sp804_clkevt timers[NR_TIMERS];
  struct sp804_clkevt *common_clkevt; /* the clock event device's timer */
  struct sp804_clkevt *sched_clkevt;  /* the clocksource's */
  unsigned long rate;                 /* the timers' clock, Hz */
  /* clock_event_device.event_handler, called by the interrupt handler. */
  void (*event_handler)(void *context);
  void *context;
  unsigned int bugs; /* CMSDK_BUG_* bits; 0: Linux's sequences */
};

/* sp804_of_init for an "arm,sp804" node at `base` with `rate` Hz and the
 * kernel's HZ: both timers disabled, then (arm,sp804-has-irq = irq_num)
 * timer 2 as clock events and timer 1 as clocksource when irq_num is 2,
 * else the other way round. */
int sp804_of_init(struct sp804 *sp, uint8_t __iomem *base, unsigned long rate, unsigned int hz, unsigned int irq_num);

/* The clocksource's read (sp804_read): the count, upwards. */
uint64_t sp804_read(struct sp804 *sp);

/* The clock event device's operations (sp804_clockevent). */
int sp804_shutdown(struct sp804 *sp);    /* set_state_shutdown, set_state_oneshot, tick_resume */
int sp804_set_periodic(struct sp804 *sp); /* set_state_periodic */
int sp804_set_next_event(struct sp804 *sp, unsigned long next);

/* sp804_timer_interrupt: the line's handler. */
void sp804_timer_interrupt(struct sp804 *sp);

#ifdef __cplusplus
}
#endif

#endif /* CMSDK_SP804_H */
