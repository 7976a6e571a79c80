/* crash=sleep_atomic: the scheduler's check for sleeping while atomic.
 * crash=hang_irqs_off: a CPU lost for good, which no check of the
 * kernel's own can report from that CPU: tests/boot's timeout report
 * must find it (tests/harness-test).
 * crash=lost_timer: a lost wake-up, every CPU halted in idle: the
 * kernel's hang report, asked for by tests/boot's NMI, must name it. */
#include "crash.h"
#include "arch.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/hang_report.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/tick.h"
#include "kernel/sched/timer.h"

/* The lost timer's delay, and how long to wait for a CPU to idle with
 * its tick stopped (1 ms sleeps; a quiet machine takes a few ticks). */
#define LOST_TIMER_DUE_MS	10u
#define LOST_TIMER_WAIT_MS	5000u

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

struct lost_timer {
	struct timer timer;
	struct completion fired;
};

static void lost_timer_fires(void *arg)
{
	complete(&((struct lost_timer *)arg)->fired);
}

/* Another online CPU, idle with its tick stopped and no clock event set,
 * so that only timer_add_on()'s kick can make it look at a new timer;
 * MAX_CPUS if none comes to that within LOST_TIMER_WAIT_MS sleeps. */
static unsigned int stopped_idle_cpu(void)
{
	unsigned int cpu, tries;
	struct tick_cpu_stats ts;

	for (tries = 0; tries < LOST_TIMER_WAIT_MS; tries++) {
		for_each_online_cpu(cpu) {
			if (cpu == this_cpu_id())
				continue;
			tick_cpu_stats(cpu, &ts);
			if (ts.stopped && !ts.programmed_ns)
				return cpu;
		}
		sleep_ms(1);
	}
	return MAX_CPUS;
}

/* A thread arms a timer on an idle CPU and waits for it. With
 * timer.lose_kick=1 that CPU is never kicked, and sleeps past the
 * timer: the boot times out, and tests/harness-test checks that the
 * timeout's hang report names the timer and the wait. The report's NMI
 * wakes that CPU, which then runs the timer: the kind stays hung then,
 * as it was, so that tests/boot still finds every vCPU halted. Without
 * the plant the timer fires, and this kind returns: the run fails, as a
 * crash kind that did not stop the machine does. */
static void lose_a_timer(void)
{
	struct lost_timer lt;
	unsigned int cpu = stopped_idle_cpu();
	u64 nmis = hang_report_nmis();

	if (cpu == MAX_CPUS) {
		pr_err("crash: lost_timer: no other CPU idled with its tick "
		       "stopped and no clock event; expected one (-smp 2 or "
		       "more, nohz on)\n");
		return;
	}
	init_completion(&lt.fired);
	lt.timer.fn = lost_timer_fires;
	lt.timer.arg = &lt;
	pr_info("crash: lost_timer: a timer on cpu%u, due in %u ms\n", cpu,
		LOST_TIMER_DUE_MS);
	timer_add_on(&lt.timer, clock_ns() + LOST_TIMER_DUE_MS * NSEC_PER_MSEC,
		     cpu);
	wait_for_completion(&lt.fired);
	if (hang_report_nmis() != nmis) {
		pr_info("crash: lost_timer: the timer on cpu%u fired once a "
			"hang report's NMI woke that CPU; staying hung\n", cpu);
		for (;;)
			sleep_ms(1000);
	}
	pr_info("crash: lost_timer: the timer on cpu%u fired: no wake-up "
		"was lost (timer.lose_kick=1 plants one)\n", cpu);
}
CRASH_KIND("lost_timer", "arm a timer on an idle CPU and wait for it; "
	   "hangs with timer.lose_kick=1", lose_a_timer);
