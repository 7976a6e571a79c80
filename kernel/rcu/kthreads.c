/*
 * The priority of RCU's own threads, rcu_gp and the per-CPU rcuc/N
 * (Linux's rcutree.kthread_prio=). A grace period ends only when rcu_gp
 * runs to see its last quiescent state and to advance the callbacks,
 * and synchronize_rcu() returns only when its CPU's rcuc thread runs the
 * callback that wakes it. As normal threads, both wait for their turn
 * on a CPU full of other normal threads, a 4 ms slice per thread ahead
 * of them; as real-time threads they run at once. rcu.kthread_prio=0
 * (the default, as Linux's without CONFIG_RCU_BOOST) keeps them normal,
 * 1..99 makes them FIFO at that priority.
 *
 * Priority boosting (preempt/boost.c) is done by rcu_gp's forcing scan:
 * a normal rcu_gp would itself be starved by the real-time work that
 * boosting is there to get past. So, as Linux does under
 * CONFIG_RCU_BOOST, rcu_gp runs at real-time priority 1 at least while
 * boosting is on: a floor the boot sets, which rcu_kthreads_set_priority()
 * does not enforce, so that the benchmark and the self-test can compare
 * normal threads with real-time ones (each restores the boot's priority
 * when done). rcu.boost_prio needs no relation to it: rcu_gp and
 * rcuc sleep between short bursts, and a boosted reader above or below
 * them waits at most for one burst.
 *
 * The threads are created once, for every CPU online at boot, and keep
 * their priority across CPU hotplug: an offline CPU's rcuc is parked on
 * it, not destroyed, and runs again, at the same priority, when the CPU
 * comes back.
 */
#include "engine.h"
#include "flavour.h"
#include "kernel/sched/sched.h"
#include "kernel/cmdline.h"
#include "kernel/init.h"
#include "kernel/printk.h"
#include "kernel/sched/mutex.h"

static unsigned int rcu_kthread_prio;
CMDLINE_UINT("rcu.kthread_prio", rcu_kthread_prio, 0, SCHED_PRIO_RT_MAX,
	     "0: rcu_gp and rcuc/N are normal threads; 1..99: real-time "
	     "FIFO at that priority (Linux's rcutree.kthread_prio)");

/* Serializes changes, so that the threads' priority and the one
 * rcu_kthread_priority() reports agree once a change returns. */
static DEFINE_MUTEX(kthread_prio_mutex);

/**
 * rcu_kthreads_set_priority - run rcu_gp and every rcuc thread at @prio
 * @prio: 0 (normal) or a real-time FIFO priority, 1..99
 *
 * The boot applies rcu.kthread_prio with it; the benchmark that compares
 * grace periods with normal and real-time RCU threads switches between
 * them within one boot.
 *
 * Context: thread, after rcu_start_kthreads(); sleeps.
 * Return: 0, or -EINVAL for a priority out of range (named in one line).
 */
int rcu_kthreads_set_priority(unsigned int prio)
{
	int err;

	mutex_lock(&kthread_prio_mutex);
	err = rcu_engine->set_kthread_priority(prio);
	/* Read lock-free by rcu_kthread_priority(). */
	if (!err)
		WRITE_ONCE(rcu_kthread_prio, prio);
	mutex_unlock(&kthread_prio_mutex);
	return err;
}

/* The priority of rcu_gp and rcuc: the shell's `rcu`, the self-test,
 * and the benchmark, which puts it back when done. */
unsigned int rcu_kthread_priority(void)
{
	return READ_ONCE(rcu_kthread_prio);	/* see the setter */
}

/* Boot: the threads just created take rcu.kthread_prio (raised to 1 while
 * boosting is on, as the header says), and the boot log says which. */
__init void rcu_kthreads_apply_boot_priority(void)
{
	unsigned int prio = rcu_kthread_prio;
	const char *why = "";

	if (rcu_preempt_boost_enabled() && prio == 0) {
		prio = 1;
		why = " (at least 1: rcu_gp boosts readers)";
	}
	/* In range: the command line took only 0..99. */
	rcu_kthreads_set_priority(prio);
	if (prio)
		pr_info("rcu: %s at real-time priority %u%s\n",
			rcu_engine->kthreads, prio, why);
	else
		pr_info("rcu: %s at normal priority\n", rcu_engine->kthreads);
}
