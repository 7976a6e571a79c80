/* crash=sleep_atomic: the scheduler's check for sleeping while atomic. */
#include "crash.h"
#include "kernel/sched/sched.h"

static void sleep_while_atomic(void)
{
	preempt_disable();
	sleep_ms(1);
	preempt_enable();
}
CRASH_KIND("sleep_atomic", "sleep with preemption disabled",
	   sleep_while_atomic);
