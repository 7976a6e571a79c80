/*
 * The rcu_kthread_prio suite, continued: rcu.kthread_prio= judged by its
 * effect. test_rcu_kthread_prio.c reads the threads' priorities; this
 * puts a real-time hog, one priority below RCU's threads, on the CPU
 * where they must run, and counts what still gets done while it spins:
 * grace periods (the tree's rcu_gp lives there; the classic engine has
 * no grace-period thread, its batches end from the ticks) and the
 * callbacks the hog queued there, which only that CPU's rcuc/N runs.
 * Were RCU's threads below the hog, the tree's grace periods would stop
 * and neither engine would run the hog's callbacks until it gave up.
 *
 * The hog gives up after HOG_TICKS ticks of its own CPU: a count, not a
 * clock, and far more than WAIT_GPS grace periods take when RCU's threads
 * get the CPU at once (about two ticks each).
 */
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/rcu/engine.h"
#include "kernel/rcu/tree/tree.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "lib/atomic.h"

#define WAIT_GPS	10u
#define HOG_CBS		16u
#define HOG_TICKS	2000u

static struct {
	unsigned int cpu, prio;
	bool spinning, stop, gave_up;
	unsigned int cbs_run;		/* atomic */
	unsigned int cbs_seen;		/* cbs_run when the hog stopped */
	unsigned int gps_done;		/* the waiter's, read by the test */
	u64 ticks_spun;
	struct rcu_head heads[HOG_CBS];
} hog;

static void hog_cb_run(struct rcu_head *head)
{
	(void)head;
	atomic_add_relaxed(&hog.cbs_run, 1);
}

/* Queues its callbacks on its CPU, then spins without ever sleeping
 * until the waiter is done or its tick budget is spent. */
static void hog_fn(void *unused)
{
	struct percpu *ca = cpu_area(hog.cpu);
	unsigned int i;
	u64 start;

	(void)unused;
	thread_set_priority(current_thread(), hog.prio);
	for (i = 0; i < HOG_CBS; i++)
		call_rcu(&hog.heads[i], hog_cb_run);
	start = READ_ONCE(ca->ticks);
	WRITE_ONCE(hog.spinning, true);
	while (!READ_ONCE(hog.stop)) {
		if (READ_ONCE(ca->ticks) - start >= HOG_TICKS) {
			WRITE_ONCE(hog.gave_up, true);
			break;
		}
		arch_cpu_relax();
	}
	hog.ticks_spun = READ_ONCE(ca->ticks) - start;
	hog.cbs_seen = READ_ONCE(hog.cbs_run);
}

/* The CPU RCU's threads must run on: the tree's rcu_gp's; for the
 * classic engine, whose batches need no thread, cpu0's rcuc will do. */
static unsigned int rcu_thread_cpu(void)
{
#if !CONFIG_PREEMPT_RCU
	if (rcu_engine == &rcu_classic_engine)
		return 0;
#endif
	return READ_ONCE(rcu_state.gp_thread->cpu);
}

/* On another CPU than the hog's: asks for WAIT_GPS grace periods one
 * after another, waits for the hog's callbacks, and lets it go. */
static void wait_beside_hog(void *unused)
{
	unsigned int i;

	(void)unused;
	while (!READ_ONCE(hog.spinning))
		sleep_ms(1);
	for (i = 0; i < WAIT_GPS && !READ_ONCE(hog.gave_up); i++) {
		synchronize_rcu();
		hog.gps_done++;
	}
	while (READ_ONCE(hog.cbs_run) < HOG_CBS && !READ_ONCE(hog.gave_up))
		sleep_ms(1);
	WRITE_ONCE(hog.stop, true);
}

KTEST(rcu_kthread_prio, grace_periods_end_beside_a_real_time_hog)
{
	unsigned int prio = rcu_kthread_priority();
	struct thread *h, *w;

	if (prio < 2)
		KTEST_SKIP("needs rcu.kthread_prio=2 or more: the hog runs "
			   "one below RCU's threads, and real-time");
	if (nr_cpus_online < 2)
		KTEST_SKIP("needs a second CPU for the waiter");
	hog.cpu = rcu_thread_cpu();
	hog.prio = prio - 1;
	WRITE_ONCE(hog.spinning, false);
	WRITE_ONCE(hog.stop, false);
	WRITE_ONCE(hog.gave_up, false);
	WRITE_ONCE(hog.cbs_run, 0);
	hog.gps_done = 0;
	w = thread_create_on(wait_beside_hog, NULL, "hog_waiter",
			     hog.cpu == 0 ? 1 : 0);
	KASSERT_TRUE(w != NULL);
	h = thread_create_on(hog_fn, NULL, "rt_hog", hog.cpu);
	KASSERT_TRUE(h != NULL);
	/* This thread may be on the hog's CPU: it then waits for the hog,
	 * which changes nothing the test counts. */
	thread_join(w);
	thread_join(h);
	rcu_barrier();
	console_printf("    # hog at priority %u on cpu%u: %u grace periods "
		       "and %u of its %u callbacks in %llu of its ticks\n",
		       hog.prio, hog.cpu, hog.gps_done, hog.cbs_seen, HOG_CBS,
		       (unsigned long long)hog.ticks_spun);
	KEXPECT_FALSE(READ_ONCE(hog.gave_up));
	KEXPECT_EQ(hog.gps_done, WAIT_GPS);
}
