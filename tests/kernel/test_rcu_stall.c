/*
 * rcu_stall: a CPU spinning with preemption disabled past
 * rcu.stall_timeout_ms must draw stall warnings, from normal and from
 * expedited grace periods, and the grace period must still end once the
 * CPU lets go (the boot lines check what the warnings say). Slow and
 * noisy on purpose, so it runs only when named (ktest=rcu_stall), with
 * the harness told to expect the warnings.
 */
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/stats.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "test_rcu_stall.h"

static bool holding;

u64 stalls_of(bool expedited)
{
	struct rcu_stats s;

	rcu_get_stats(&s);
	return expedited ? s.exp_stalls : s.stalls;
}

struct holder {
	bool expedited;		/* which warning it waits for */
	u64 until;		/* that warning's count to reach */
};

/* Holds cpu1 with preemption off until a second warning has been
 * counted: the count goes up before a warning prints, so only the second
 * says that the first was printed whole. Never a time: a host that runs
 * the GP thread late must not shorten the stall. */
static void hold_cpu(void *arg)
{
	const struct holder *h = arg;

	preempt_disable();
	WRITE_ONCE(holding, true);
	while (stalls_of(h->expedited) < h->until)
		arch_cpu_relax();
	WRITE_ONCE(holding, false);
	preempt_enable();
}

/* Hold cpu1 with preemption off through two stall warnings while `wait`
 * waits for a grace period, which must not end before the holder lets
 * go. False if the holder could not start. */
static bool wait_beside_holder(struct ktest_context *t, void (*wait)(void),
			       bool expedited)
{
	struct holder h = { .expedited = expedited,
			    .until = stalls_of(expedited) + 2 };
	struct thread *holder;

	WRITE_ONCE(holding, false);
	holder = thread_create_on(hold_cpu, &h, "stall_holder", 1);
	if (!holder)
		return false;
	while (!READ_ONCE(holding))
		sleep_ms(1);
	wait();
	KEXPECT_FALSE(READ_ONCE(holding));
	thread_join(holder);
	KEXPECT_GE(stalls_of(expedited), h.until);
	return true;
}

KTEST_SLOW(rcu_stall, warning_names_the_stalled_cpu, 60000)
{
	if (nr_cpus_online < 2)
		KTEST_SKIP("needs 2 CPUs");
	KASSERT_TRUE(wait_beside_holder(t, synchronize_rcu, false));
}

/* The expedited grace period's own warning (its IPI finds cpu1 with
 * preemption off, so no report comes until the holder lets go). */
KTEST_SLOW(rcu_stall, expedited_warning_names_the_stalled_cpu, 60000)
{
	if (nr_cpus_online < 2)
		KTEST_SKIP("needs 2 CPUs");
	KASSERT_TRUE(wait_beside_holder(t, synchronize_rcu_expedited, true));
}
