/* The register sequences of Linux 6.1's drivers/clocksource/timer-sp804.c,
 * each function named after the one it follows; the kernel's clocks,
 * interrupts and clockevents registration are left out (sp804.h).
 * Deliberate mistakes (cmsdk_bugs.h) are marked where they depart. */
#include "examples/cmsdk/sp804.h"

#include "examples/cmsdk/linux_io.h"

#include <stddef.h>

/* sp804_clkevt_init, for the "arm,sp804" layout (arm_sp804_timer). */
static void sp804_clkevt_init(struct sp804 *sp, uint8_t __iomem *base) {
  static const unsigned int timer_base[NR_TIMERS] = {TIMER_1_BASE, TIMER_2_BASE};
  for (int i = 0; i < NR_TIMERS; i++) {
    uint8_t __iomem *tbase = base + timer_base[i];
    struct sp804_clkevt *clkevt = &sp->timers[i];
    clkevt->base = tbase;
    clkevt->load = tbase + TIMER_LOAD;
    clkevt->value = tbase + TIMER_VALUE;
    clkevt->ctrl = tbase + TIMER_CTRL;
    clkevt->intclr = tbase + TIMER_INTCLR;
  }
}

/* sp804_clocksource_and_sched_clock_init: the timer runs free, 32-bit,
 * periodic from 0xffffffff, with no interrupt. */
static int sp804_clocksource_and_sched_clock_init(struct sp804 *sp, struct sp804_clkevt *clkevt) {
  writel(0, clkevt->ctrl);
  writel(0xffffffff, clkevt->load);
  writel(0xffffffff, clkevt->value);
  writel(TIMER_CTRL_32BIT | TIMER_CTRL_ENABLE | TIMER_CTRL_PERIODIC, clkevt->ctrl);
  sp->sched_clkevt = clkevt;
  return 0;
}

/* sp804_clockevents_init: the tick's reload, DIV_ROUND_CLOSEST(rate, HZ),
 * and the timer stopped until the framework picks a mode. */
static int sp804_clockevents_init(struct sp804 *sp, struct sp804_clkevt *clkevt, unsigned int hz) {
  sp->common_clkevt = clkevt;
  clkevt->reload = (sp->rate + hz / 2) / hz;
  writel(0, clkevt->ctrl);
  return 0;
}

int sp804_of_init(struct sp804 *sp, uint8_t __iomem *base, unsigned long rate, unsigned int hz, unsigned int irq_num) {
  uint8_t __iomem *timer1_base = base + TIMER_1_BASE;
  uint8_t __iomem *timer2_base = base + TIMER_2_BASE;
  int ret;

  sp->rate = rate;
  /* both timers stopped before either is set up */
  writel(0, timer1_base + TIMER_CTRL);
  writel(0, timer2_base + TIMER_CTRL);

  sp804_clkevt_init(sp, base);
  if (irq_num == 2) {
    ret = sp804_clockevents_init(sp, &sp->timers[1], hz);
    if (ret) return ret;
    ret = sp804_clocksource_and_sched_clock_init(sp, &sp->timers[0]);
  } else {
    ret = sp804_clockevents_init(sp, &sp->timers[0], hz);
    if (ret) return ret;
    ret = sp804_clocksource_and_sched_clock_init(sp, &sp->timers[1]);
  }
  return ret;
}

/* sp804_read */
uint64_t sp804_read(struct sp804 *sp) { return ~readl_relaxed(sp->sched_clkevt->value); }

/* sp804_timer_interrupt: clear the interrupt, then the event. */
void sp804_timer_interrupt(struct sp804 *sp) {
  writel(1, sp->common_clkevt->intclr);
  if (sp->event_handler != NULL) sp->event_handler(sp->context);
}

/* evt_timer_shutdown */
static void evt_timer_shutdown(struct sp804 *sp) { writel(0, sp->common_clkevt->ctrl); }

/* sp804_shutdown */
int sp804_shutdown(struct sp804 *sp) {
  evt_timer_shutdown(sp);
  return 0;
}

/* sp804_set_periodic: stopped, the tick's count loaded, started periodic. */
int sp804_set_periodic(struct sp804 *sp) {
  unsigned long ctrl = TIMER_CTRL_32BIT | TIMER_CTRL_IE | TIMER_CTRL_PERIODIC | TIMER_CTRL_ENABLE;

  if (!CMSDK_HAS_BUG(sp->bugs, CMSDK_BUG_MODE_WHILE_ENABLED)) evt_timer_shutdown(sp);
  writel((uint32_t)sp->common_clkevt->reload, sp->common_clkevt->load);
  writel((uint32_t)ctrl, sp->common_clkevt->ctrl);
  return 0;
}

/* sp804_set_next_event: a one-shot count of `next`, loaded and started. */
int sp804_set_next_event(struct sp804 *sp, unsigned long next) {
  unsigned long ctrl = TIMER_CTRL_32BIT | TIMER_CTRL_IE | TIMER_CTRL_ONESHOT | TIMER_CTRL_ENABLE;

  writel((uint32_t)next, sp->common_clkevt->load);
  writel((uint32_t)ctrl, sp->common_clkevt->ctrl);
  return 0;
}
