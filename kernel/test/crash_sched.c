/* crash=sleep_atomic: the scheduler's check for sleeping while atomic.
 * crash=hang_irqs_off: a CPU lost for good, which no check of the
 * kernel's own can report from that CPU: tests/boot's timeout report
 * must find it (tests/harness-test). */
#include "crash.h"
#include "arch.h"
#include "kernel/sched/sched.h"

static void sleep_while_atomic(void)
{
	preempt_disable();
	sleep_ms(1);
	preempt_enable();
}
CRASH_KIND("sleep_atomic", "sleep with preemption disabled",
	   sleep_while_atomic);

static void hang_with_irqs_off(void)
{
	arch_irq_disable();
	for (;;)
		arch_cpu_relax();
}
CRASH_KIND("hang_irqs_off", "spin for ever with interrupts off",
	   hang_with_irqs_off);
