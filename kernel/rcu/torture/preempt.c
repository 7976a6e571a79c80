/*
 * torture.preempt=N: 1 in N read-side sections of the torture's reader
 * threads is preempted inside, so that the preemptible flavour's
 * blocked-tasks paths (kernel/rcu/preempt/blocked.c: queueing on the
 * leaf, the grace periods and expedited grace periods that wait for the
 * queued readers, the dequeue at the outermost unlock) run all the time,
 * under the oracle, which checks every wait against every live reader,
 * preempted ones included. Linux's rcu_read_delay() preempts its readers
 * the same way (torture_preempt_schedule()).
 *
 * The preemption is preempt_schedule(), the path an interrupt's
 * preemption takes, not a sleep in a reader, which the debug build
 * reports. The switch queues the reader on its leaf even when nothing
 * else is there to run.
 */
#include "internal.h"
#include "kernel/printk.h"
#include "lib/atomic.h"

void torture_preempt_setup(void)
{
	if (CONFIG_PREEMPT_RCU || !torture.cfg.preempt_one_in)
		return;
	pr_info("rcu-torture: torture.preempt=%u ignored: readers cannot be "
		"preempted in the non-preemptible flavour\n",
		torture.cfg.preempt_one_in);
	torture.cfg.preempt_one_in = 0;
}

void torture_preempt_reader_maybe(struct prng *rng)
{
	if (!torture.cfg.preempt_one_in ||
	    prng_below(rng, torture.cfg.preempt_one_in))
		return;
	preempt_schedule();
	atomic_add_relaxed(&torture.preempted_sections, 1);
}
