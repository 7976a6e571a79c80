/*
 * The rcu_kthread_prio suite: RCU's own threads, rcu_gp and every rcuc/N,
 * run at the priority rcu.kthread_prio= asks (kernel/rcu/kthreads.c),
 * keep it across CPU hotplug, and all follow a change made at run time.
 * tests/boots-rcu.txt and boots-preempt.txt boot it with
 * rcu.kthread_prio=7 and expect the boot log's line saying so; a boot
 * without the option checks the default the same way. Priorities are
 * read, never inferred from how fast anything ran.
 */
#include "kernel/errno.h"
#include "kernel/hotplug.h"
#include "kernel/percpu.h"
#include "kernel/rcu/tree/tree.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/classic/classic.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"

#define OTHER_PRIO	42u	/* any real-time priority the boot does not use */

static void expect_at(struct ktest_context *t, const struct thread *th,
		      unsigned int prio)
{
	unsigned int own = thread_base_priority(th);
	unsigned int now = thread_priority(th);

	if (own != prio || now != prio)
		ktest_fail(t, __FILE__, __LINE__,
			   "%s runs at priority %u (its own %u), expected %u",
			   th->name, now, own, prio);
}

/* One failure per RCU thread (existing, parked or not) whose own or
 * effective priority is not prio, naming it. */
static void expect_all_at(struct ktest_context *t, unsigned int prio)
{
	unsigned int cpu;

	/* Set by rcu_start_kthreads() at boot and never changed. */
#if !CONFIG_PREEMPT_RCU
	if (rcu_engine == &rcu_classic_engine) {
		for (cpu = 0; cpu < nr_cpus; cpu++)
			if (classic_data[cpu].cb_thread)
				expect_at(t, classic_data[cpu].cb_thread, prio);
	} else
#endif
	{
		expect_at(t, rcu_state.gp_thread, prio);
		for (cpu = 0; cpu < nr_cpus; cpu++)
			if (rcu_data[cpu].cb_thread)
				expect_at(t, rcu_data[cpu].cb_thread, prio);
	}
}

KTEST(rcu_kthread_prio, threads_run_at_the_boot_priority)
{
	expect_all_at(t, rcu_kthread_priority());
}

KTEST(rcu_kthread_prio, a_change_reaches_every_thread)
{
	unsigned int boot = rcu_kthread_priority();

	KEXPECT_EQ(rcu_kthreads_set_priority(OTHER_PRIO), 0);
	KEXPECT_EQ(rcu_kthread_priority(), OTHER_PRIO);
	expect_all_at(t, OTHER_PRIO);
	KEXPECT_EQ(rcu_kthreads_set_priority(0), 0);
	expect_all_at(t, 0);
	/* Refused, in one line, and nothing changes. */
	KEXPECT_EQ(rcu_kthreads_set_priority(SCHED_PRIO_RT_MAX + 1), -EINVAL);
	KEXPECT_EQ(rcu_kthread_priority(), 0u);
	expect_all_at(t, 0);
	KEXPECT_EQ(rcu_kthreads_set_priority(boot), 0);
	expect_all_at(t, boot);
}

/* cpu1's rcuc is parked while cpu1 is offline and runs again when it
 * comes back: at the same priority throughout. */
KTEST(rcu_kthread_prio, priority_survives_cpu_hotplug)
{
	unsigned int prio = rcu_kthread_priority();

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs 2 CPUs");
	KASSERT_EQ(cpu_down(1), 0);
	expect_all_at(t, prio);
	KASSERT_EQ(cpu_up(1), 0);
	synchronize_rcu();	/* a grace period with cpu1 back */
	expect_all_at(t, prio);
}
