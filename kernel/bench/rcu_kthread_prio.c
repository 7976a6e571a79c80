/*
 * Grace-period latency on a busy system, with RCU's own threads (rcu_gp
 * and rcuc/N) at normal priority and at real-time priority, as
 * rcu.kthread_prio= sets them (kernel/rcu/kthreads.c). Every CPU runs
 * HOGS_PER_CPU normal threads that spin and never sleep, but may be
 * preempted. A normal rcu_gp or rcuc waits its turn behind them, a 4 ms
 * slice each; a real-time one runs as soon as it is woken.
 *
 * Both variants run in one boot, taking turns grace period by grace
 * period, so that host noise hits them alike: on a shared TCG host the
 * ratio within one boot means more than either figure. The waiter
 * itself runs at a real-time priority above both, so that its own
 * wake-up behind the hogs is not what is measured.
 */
#include "bench.h"
#include "kernel/percpu.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"

#define GP_SAMPLES		50u
#define HOGS_PER_CPU		2u
#define RT_KTHREAD_PRIO		1u	/* Linux's kthread_prio under RCU_BOOST */
#define WAITER_PRIO		(RT_KTHREAD_PRIO + 1)

static bool hogs_stop;

struct cpu_hogs {
	struct thread *t[HOGS_PER_CPU];	/* NULL: not started */
};

static DEFINE_PERCPU_ARRAY(struct cpu_hogs, hogs);

/* A normal thread that keeps its CPU busy until told to stop. */
static void hog(void *unused)
{
	(void)unused;
	/* Set once by stop_hogs(), WRITE_ONCE. */
	while (!READ_ONCE(hogs_stop))
		arch_cpu_relax();
}

/* HOGS_PER_CPU hogs on every online CPU, the caller's too. */
static void start_hogs(void)
{
	unsigned int c, i;

	WRITE_ONCE(hogs_stop, false);	/* no hog runs yet */
	for (c = 0; c < nr_cpus_online; c++)
		for (i = 0; i < HOGS_PER_CPU; i++)
			hogs[c].t[i] = thread_create_on(hog, NULL, "hog", c);
}

/* The hogs end before the figures are printed, so that the console
 * and the next benchmark get the CPUs back. */
static void stop_hogs(void)
{
	unsigned int c, i;

	WRITE_ONCE(hogs_stop, true);	/* read by every hog's loop */
	for (c = 0; c < nr_cpus_online; c++)
		for (i = 0; i < HOGS_PER_CPU; i++)
			if (hogs[c].t[i])
				thread_join(hogs[c].t[i]);
}

/* One synchronize_rcu() with RCU's threads at prio, in microseconds. */
static u64 time_gp_at(unsigned int prio)
{
	u64 start;

	rcu_kthreads_set_priority(prio);
	start = clock_ns();
	synchronize_rcu();
	return (clock_ns() - start) / 1000;
}

BENCH(gp_kthread_prio)
{
	static u64 normal[GP_SAMPLES], rt[GP_SAMPLES], ratio[GP_SAMPLES];
	unsigned int i, n = b->quick ? 3 : GP_SAMPLES;
	unsigned int boot_prio = rcu_kthread_priority();

	thread_set_priority(current_thread(), WAITER_PRIO);
	start_hogs();
	for (i = 0; i < n; i++) {
		normal[i] = time_gp_at(0);
		sleep_ms(1);
		rt[i] = time_gp_at(RT_KTHREAD_PRIO);
		sleep_ms(1);
		/* Per pair, in percent; a grace period under 1 us counts
		 * as 1 us. */
		ratio[i] = normal[i] * 100 / (rt[i] ? rt[i] : 1);
	}
	stop_hogs();
	rcu_kthreads_set_priority(boot_prio);
	bench_report(b, "synchronize_rcu, CPUs busy, kthreads normal", "us",
		     normal, n);
	bench_report(b, "synchronize_rcu, CPUs busy, kthreads real-time",
		     "us", rt, n);
	bench_report(b, "normal / real-time, per pair", "%", ratio, n);
}
