/* The CMSIS-style driver of cmsdk_timer.h: register accesses through the
 * peripheral structs only. Register behaviour cited from ARM DDI 0479C
 * (CMSDK TRM) §4.4-4.6, ARM DDI 0271D (SP804) and ARM DDI 0270B (SP805). */
#include "examples/cmsdk/cmsdk_timer.h"

/* ---- APB timer ---- */

void cmsdk_timer_init(CMSDK_TIMER_TypeDef *timer, uint32_t reload, int irq_enable) {
  timer->CTRL = 0; /* stopped while it is programmed */
  timer->INTCLEAR = CMSDK_TIMER_INTCLEAR_Msk;
  timer->RELOAD = reload;
  timer->VALUE = reload;
  timer->CTRL = irq_enable ? CMSDK_TIMER_CTRL_IRQEN_Msk : 0;
}

void cmsdk_timer_start(CMSDK_TIMER_TypeDef *timer) { timer->CTRL |= CMSDK_TIMER_CTRL_EN_Msk; }

void cmsdk_timer_stop(CMSDK_TIMER_TypeDef *timer) { timer->CTRL &= ~(uint32_t)CMSDK_TIMER_CTRL_EN_Msk; }

uint32_t cmsdk_timer_value(const CMSDK_TIMER_TypeDef *timer) { return timer->VALUE; }

uint32_t cmsdk_timer_irq_status(const CMSDK_TIMER_TypeDef *timer) {
  return timer->INTSTATUS & CMSDK_TIMER_INTSTATUS_Msk;
}

void cmsdk_timer_clear_irq(CMSDK_TIMER_TypeDef *timer) { timer->INTCLEAR = CMSDK_TIMER_INTCLEAR_Msk; }

/* ---- Dual timer ---- */

static void dualtimer_setup(CMSDK_DUALTIMER_SINGLE_TypeDef *timer, uint32_t load,
                            enum cmsdk_dualtimer_prescale prescale, int irq_enable, uint32_t mode) {
  uint32_t control = CMSDK_DUALTIMER_CTRL_SIZE_Msk | mode |
                     (((uint32_t)prescale << CMSDK_DUALTIMER_CTRL_PRESCALE_Pos) & CMSDK_DUALTIMER_CTRL_PRESCALE_Msk);
  if (irq_enable) control |= CMSDK_DUALTIMER_CTRL_INTEN_Msk;
  timer->TimerControl = 0; /* the mode changes only while stopped */
  timer->TimerLoad = load; /* sets the count at once (DDI 0271D §3.2.1) */
  timer->TimerIntClr = 1;
  timer->TimerControl = control | CMSDK_DUALTIMER_CTRL_EN_Msk;
}

void cmsdk_dualtimer_periodic(CMSDK_DUALTIMER_SINGLE_TypeDef *timer, uint32_t load,
                              enum cmsdk_dualtimer_prescale prescale, int irq_enable) {
  dualtimer_setup(timer, load, prescale, irq_enable, CMSDK_DUALTIMER_CTRL_MODE_Msk);
}

void cmsdk_dualtimer_oneshot(CMSDK_DUALTIMER_SINGLE_TypeDef *timer, uint32_t load,
                             enum cmsdk_dualtimer_prescale prescale, int irq_enable) {
  dualtimer_setup(timer, load, prescale, irq_enable, CMSDK_DUALTIMER_CTRL_ONESHOT_Msk);
}

void cmsdk_dualtimer_freerunning(CMSDK_DUALTIMER_SINGLE_TypeDef *timer, uint32_t load,
                                 enum cmsdk_dualtimer_prescale prescale, int irq_enable) {
  dualtimer_setup(timer, load, prescale, irq_enable, 0);
}

void cmsdk_dualtimer_set_next_period(CMSDK_DUALTIMER_SINGLE_TypeDef *timer, uint32_t load) {
  timer->TimerBGLoad = load;
}

void cmsdk_dualtimer_stop(CMSDK_DUALTIMER_SINGLE_TypeDef *timer) {
  timer->TimerControl &= ~(uint32_t)CMSDK_DUALTIMER_CTRL_EN_Msk;
}

uint32_t cmsdk_dualtimer_value(const CMSDK_DUALTIMER_SINGLE_TypeDef *timer) { return timer->TimerValue; }

uint32_t cmsdk_dualtimer_irq_status(const CMSDK_DUALTIMER_SINGLE_TypeDef *timer) {
  return timer->TimerMIS & CMSDK_DUALTIMER_MASKINTSTAT_Msk;
}

void cmsdk_dualtimer_clear_irq(CMSDK_DUALTIMER_SINGLE_TypeDef *timer) { timer->TimerIntClr = 1; }

/* ---- Watchdog ---- */

void cmsdk_watchdog_unlock(void) { CMSDK_WATCHDOG->LOCK = CMSDK_Watchdog_UNLOCK_KEY; }

void cmsdk_watchdog_lock(void) { CMSDK_WATCHDOG->LOCK = 1; /* any value but the key */ }

uint32_t cmsdk_watchdog_is_locked(void) { return CMSDK_WATCHDOG->LOCK & CMSDK_Watchdog_LOCK_Msk; }

void cmsdk_watchdog_init(uint32_t load, int reset_enable) {
  cmsdk_watchdog_unlock();
  CMSDK_WATCHDOG->LOAD = load;
  CMSDK_WATCHDOG->INTCLR = 1;
  CMSDK_WATCHDOG->CTRL = CMSDK_Watchdog_CTRL_INTEN_Msk | (reset_enable ? CMSDK_Watchdog_CTRL_RESEN_Msk : 0);
  cmsdk_watchdog_lock();
}

void cmsdk_watchdog_ping(void) {
  cmsdk_watchdog_unlock();
  CMSDK_WATCHDOG->INTCLR = 1; /* clears the interrupt and reloads (DDI 0270B §3.3.4) */
  cmsdk_watchdog_lock();
}

void cmsdk_watchdog_disable(void) {
  cmsdk_watchdog_unlock();
  CMSDK_WATCHDOG->CTRL = 0;
  cmsdk_watchdog_lock();
}

uint32_t cmsdk_watchdog_value(void) { return CMSDK_WATCHDOG->VALUE; }

uint32_t cmsdk_watchdog_irq_status(void) { return CMSDK_WATCHDOG->MASKINTSTAT & CMSDK_Watchdog_MASKINTSTAT_Msk; }
