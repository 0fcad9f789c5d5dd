/* A CMSIS-style driver for the AN385's APB timers, dual timer and
 * watchdog: functions on the peripheral structs of cmsdk_apb.h, called
 * with the instance pointers (CMSDK_TIMER0, CMSDK_DUALTIMER1, ...), in
 * the shape of Arm's CMSDK example drivers (an init, start and stop, the
 * value, the interrupt's status and clear). Plain volatile accesses, no
 * regemu in it: the firmware's code, tested on a trapped mapping
 * (examples/cmsdk/tests). */
#ifndef CMSDK_TIMER_H
#define CMSDK_TIMER_H

#include <stdint.h>

#include "examples/cmsdk/cmsdk_apb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- APB timer (ARM DDI 0479C §4.4) ---- */

/* Stopped, counting from `reload` down on PCLK, reloading after 0; the
 * interrupt enabled when `irq_enable`; a pending interrupt cleared. */
void cmsdk_timer_init(CMSDK_TIMER_TypeDef *timer, uint32_t reload, int irq_enable);
void cmsdk_timer_start(CMSDK_TIMER_TypeDef *timer);
void cmsdk_timer_stop(CMSDK_TIMER_TypeDef *timer);
uint32_t cmsdk_timer_value(const CMSDK_TIMER_TypeDef *timer);
/* 1 while the timer's interrupt is pending. */
uint32_t cmsdk_timer_irq_status(const CMSDK_TIMER_TypeDef *timer);
void cmsdk_timer_clear_irq(CMSDK_TIMER_TypeDef *timer);

/* ---- Dual timer (ARM DDI 0479C §4.5, the SP804) ---- */

/* CMSDK_DUALTIMER_CTRL_PRESCALE values. */
enum cmsdk_dualtimer_prescale {
  CMSDK_DUALTIMER_DIV1 = 0,
  CMSDK_DUALTIMER_DIV16 = 1,
  CMSDK_DUALTIMER_DIV256 = 2,
};

/* Each setup stops the timer first (its mode bits change only while it is
 * stopped), loads `load`, clears a pending interrupt, then starts it as a
 * 32-bit timer, with the interrupt when `irq_enable`:
 *   periodic: counts `load` down to 0, interrupts, reloads, again;
 *   one-shot: counts `load` down to 0, interrupts, halts there;
 *   free-running: counts from `load`, wraps to 0xFFFFFFFF. */
void cmsdk_dualtimer_periodic(CMSDK_DUALTIMER_SINGLE_TypeDef *timer, uint32_t load,
                              enum cmsdk_dualtimer_prescale prescale, int irq_enable);
void cmsdk_dualtimer_oneshot(CMSDK_DUALTIMER_SINGLE_TypeDef *timer, uint32_t load,
                             enum cmsdk_dualtimer_prescale prescale, int irq_enable);
void cmsdk_dualtimer_freerunning(CMSDK_DUALTIMER_SINGLE_TypeDef *timer, uint32_t load,
                                 enum cmsdk_dualtimer_prescale prescale, int irq_enable);
/* The next period's length, taken at the next reload (the count kept). */
void cmsdk_dualtimer_set_next_period(CMSDK_DUALTIMER_SINGLE_TypeDef *timer, uint32_t load);
void cmsdk_dualtimer_stop(CMSDK_DUALTIMER_SINGLE_TypeDef *timer);
uint32_t cmsdk_dualtimer_value(const CMSDK_DUALTIMER_SINGLE_TypeDef *timer);
/* 1 while the timer's interrupt is pending and enabled (MIS). */
uint32_t cmsdk_dualtimer_irq_status(const CMSDK_DUALTIMER_SINGLE_TypeDef *timer);
void cmsdk_dualtimer_clear_irq(CMSDK_DUALTIMER_SINGLE_TypeDef *timer);

/* ---- Watchdog (ARM DDI 0479C §4.6, the SP805) ---- */

/* Every write but LOCK's needs the watchdog unlocked (ARM DDI 0270B
 * §3.3.8): each function below unlocks, writes and locks again. */
void cmsdk_watchdog_unlock(void);
void cmsdk_watchdog_lock(void);
/* 1 while writes are disabled. */
uint32_t cmsdk_watchdog_is_locked(void);
/* Loads `load` and starts the counter and its interrupt; with `reset_enable`
 * the second expiry with the interrupt still pending asserts the reset
 * output. */
void cmsdk_watchdog_init(uint32_t load, int reset_enable);
/* Keeps it alive: clears the interrupt, which reloads the count. */
void cmsdk_watchdog_ping(void);
void cmsdk_watchdog_disable(void);
uint32_t cmsdk_watchdog_value(void);
uint32_t cmsdk_watchdog_irq_status(void);

#ifdef __cplusplus
}
#endif

#endif /* CMSDK_TIMER_H */
