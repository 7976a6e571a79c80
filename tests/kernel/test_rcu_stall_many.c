/*
 * rcu_stall with many holdouts: every CPU but cpu0 spins with preemption
 * off through two stall warnings. Each warning must print at most
 * RCU_STALL_CPUS_IN_FULL of them in full and name the rest in summary
 * lines (kernel/rcu/engine.h says why: at -smp 255 the full reports
 * outlasted the stall timeout). Checked on the counts the warnings keep;
 * the boot lines check what the summary says.
 */
#include "kernel/rcu/engine.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "lib/atomic.h"
#include "test_rcu_stall.h"

static unsigned int holders_in;
static u64 hold_until;		/* the normal stall count to reach */

static void hold_until_warned(void *unused)
{
	(void)unused;
	preempt_disable();
	atomic_add_return(&holders_in, 1);	/* full barrier; counted */
	while (stalls_of(false) < READ_ONCE(hold_until))
		arch_cpu_relax();
	preempt_enable();
}

static DEFINE_PERCPU_ARRAY(struct thread *, holder_threads);

/* On cpu0, which the holders leave free for the grace-period thread. */
KTEST_DEFINE(rcu_stall, warning_with_many_holdouts_is_bounded, 0, 60000,
	     true)
{
	unsigned int holders = nr_cpus_online - 1, cpu, made = 0;
	struct rcu_stats before, after;
	u64 warnings;

	if (holders < RCU_STALL_CPUS_IN_FULL + 2)
		KTEST_SKIP("needs more holdouts than a warning prints in full");
	rcu_get_stats(&before);
	WRITE_ONCE(holders_in, 0);
	WRITE_ONCE(hold_until, before.stalls + 2);
	for (cpu = 1; cpu <= holders; cpu++) {
		holder_threads[made] = thread_create_on(hold_until_warned, NULL,
							"stall_holder", cpu);
		if (holder_threads[made])
			made++;
	}
	KASSERT_EQ(made, holders);
	while (READ_ONCE(holders_in) < holders)
		sleep_ms(1);
	synchronize_rcu();
	while (made)
		thread_join(holder_threads[--made]);
	rcu_get_stats(&after);
	warnings = after.stalls - before.stalls;
	KEXPECT_GE(warnings, 2ull);
	/* One warning more than counted: the classic engine prints from
	 * whichever tick wins, so the previous test's last warning may still
	 * be adding its count when `before` is read (make test met that). */
	KEXPECT_LE(after.stall_cpus_in_full - before.stall_cpus_in_full,
		   (warnings + 1) * RCU_STALL_CPUS_IN_FULL);
	/* The first warning found every holder still holding. */
	KEXPECT_GE(after.stall_cpus_summarised - before.stall_cpus_summarised,
		   (u64)(holders - RCU_STALL_CPUS_IN_FULL));
}
