/*
 * rcu_stall: a CPU spinning with preemption disabled past
 * rcu.stall_timeout_ms must draw a stall warning, from normal and from
 * expedited grace periods, and the grace period
 * must still end once the CPU lets go. Slow and noisy on purpose, so it
 * runs only when named (ktest=rcu_stall), with the harness told to
 * expect the warning.
 */
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/stats.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "kernel/time.h"

extern unsigned int rcu_stall_timeout_ms;

static bool holding;

static void hold_cpu(void *arg)
{
	u64 until = clock_ns() + *(u64 *)arg;

	preempt_disable();
	WRITE_ONCE(holding, true);
	while (clock_ns() < until)
		arch_cpu_relax();
	WRITE_ONCE(holding, false);
	preempt_enable();
}

/* Hold cpu1 with preemption off for three stall timeouts while `wait`
 * waits for a grace period; the statistics before and after. False if
 * the holder could not start. */
static bool wait_beside_holder(struct ktest_context *t, void (*wait)(void),
			       struct rcu_stats *before,
			       struct rcu_stats *after)
{
	u64 hold_ns = 3ull * rcu_stall_timeout_ms * NSEC_PER_MSEC;
	struct thread *holder;

	rcu_get_stats(before);
	WRITE_ONCE(holding, false);
	holder = thread_create_on(hold_cpu, &hold_ns, "stall_holder", 1);
	if (!holder)
		return false;
	while (!READ_ONCE(holding))
		sleep_ms(1);
	wait();
	KEXPECT_FALSE(READ_ONCE(holding));
	thread_join(holder);
	rcu_get_stats(after);
	return true;
}

KTEST_SLOW(rcu_stall, warning_names_the_stalled_cpu, 60000)
{
	struct rcu_stats before, after;

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs 2 CPUs");
	KASSERT_TRUE(wait_beside_holder(t, synchronize_rcu, &before, &after));
	KEXPECT_GE(after.stalls, before.stalls + 2);
}

/* The expedited grace period's own warning (its IPI finds cpu1 with
 * preemption off, so no report comes until the holder lets go). */
KTEST_SLOW(rcu_stall, expedited_warning_names_the_stalled_cpu, 60000)
{
	struct rcu_stats before, after;

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs 2 CPUs");
	KASSERT_TRUE(wait_beside_holder(t, synchronize_rcu_expedited, &before,
					&after));
	KEXPECT_GE(after.exp_stalls, before.exp_stalls + 2);
}
