/*
 * Priority boosting's latency, in the preemptible flavour (the other
 * has no preempted readers to boost: the benchmark says so and stops).
 *
 * A normal reader on cpu1 is preempted inside its section by a
 * real-time hog at priority HOG_PRIO, below rcu.boost_prio, which never
 * yields; cpu0 calls synchronize_rcu(). Only a boost lets the reader run
 * again (preempt/boost.c notes when, in rcu_boosted_ns). Three figures:
 * from the call to the boost (rcu.boost_delay_ms, plus up to a tick for
 * the forcing scan that boosts), from the boost to the reader's unlock
 * (the boosted thread preempting the hog on cpu1), and from the unlock
 * to synchronize_rcu()'s return (the leaf's report, the end of the
 * grace period, the waiter's wake-up). make bench boots this flavour
 * with a short rcu.boost_delay_ms, so that a sample takes tens of
 * milliseconds, not half a second.
 */
#include "bench.h"
#include "kernel/rcu/flavour.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"

#if CONFIG_PREEMPT_RCU

#define HOG_PRIO	1u	/* real-time, below rcu.boost_prio (>= 2) */
#define HOG_CPU		1u
#define MAX_SAMPLES	16u

/* Reset before each sample's threads exist; set once each by the
 * benchmark (hog_stop) or the hog (hog_running), WRITE_ONCE. */
static bool hog_stop, hog_running;

struct starved_reader {
	bool inside;		/* WRITE_ONCE, once in its section */
	u64 boost_ns;		/* read after joining the reader */
	u64 unlock_ns;
};

/* Created on the reader's CPU once the reader is inside its section,
 * it first runs when the reader's time slice ends, the switch that put
 * the reader on its leaf's list; from then on, real-time, it keeps the
 * CPU until told to stop. */
static void hog(void *unused)
{
	(void)unused;
	thread_set_priority(current_thread(), HOG_PRIO);	/* in range */
	WRITE_ONCE(hog_running, true);
	while (!READ_ONCE(hog_stop))
		arch_cpu_relax();
}

/* Stays inside its section until the hog has run, which it can see
 * only once a boost has put it above the hog. */
static void starved_reader(void *arg)
{
	struct starved_reader *r = arg;

	rcu_read_lock();
	WRITE_ONCE(r->inside, true);
	while (!READ_ONCE(hog_running))
		arch_cpu_relax();
	r->unlock_ns = clock_ns();
	/* Written by the booster before it raised this thread's priority,
	 * under the run-queue lock that the switch back to us took. */
	r->boost_ns = READ_ONCE(current_thread()->rcu_boosted_ns);
	rcu_read_unlock();
}

/* One sample, in microseconds: call to boost, boost to unlock, unlock
 * to return. False if a thread could not be created. */
static bool time_one(u64 *to_boost, u64 *to_unlock, u64 *to_return)
{
	struct starved_reader r = { 0 };
	struct thread *reader, *hogger;
	u64 start, end;

	WRITE_ONCE(hog_stop, false);	/* no thread runs yet */
	WRITE_ONCE(hog_running, false);
	reader = thread_create_on(starved_reader, &r, "starved", HOG_CPU);
	if (!reader)
		return false;
	while (!READ_ONCE(r.inside))
		sleep_ms(1);
	hogger = thread_create_on(hog, NULL, "rt_hog", HOG_CPU);
	if (!hogger) {
		WRITE_ONCE(hog_running, true);	/* frees the reader */
		thread_join(reader);
		return false;
	}
	while (!READ_ONCE(hog_running))
		sleep_ms(1);
	start = clock_ns();
	synchronize_rcu();
	end = clock_ns();
	WRITE_ONCE(hog_stop, true);
	thread_join(hogger);
	thread_join(reader);
	/* A boost of an earlier grace period, begun before the call. */
	if (r.boost_ns < start)
		return false;
	*to_boost = (r.boost_ns - start) / 1000;
	*to_unlock = (r.unlock_ns - r.boost_ns) / 1000;
	*to_return = (end - r.unlock_ns) / 1000;
	return true;
}

BENCH(boost_latency)
{
	u64 to_boost[MAX_SAMPLES], to_unlock[MAX_SAMPLES];
	u64 to_return[MAX_SAMPLES];
	unsigned int i, n = 0;
	unsigned int repeats = b->repeats < MAX_SAMPLES ? b->repeats
							: MAX_SAMPLES;

	if (nr_cpus_online < 2) {
		bench_skip(b, "needs a second CPU for the reader and the hog");
		return;
	}
	if (!rcu_preempt_boost_enabled()) {
		bench_skip(b, "rcu.boost=0: the reader would never run");
		return;
	}
	if (rcu_preempt_boost_prio() <= HOG_PRIO) {
		bench_skip(b, "rcu.boost_prio is not above the hog's priority: "
			   "the reader would never run");
		return;
	}
	for (i = 0; i < repeats; i++)
		if (time_one(&to_boost[n], &to_unlock[n], &to_return[n]))
			n++;
	bench_report(b, "synchronize_rcu call to boost", "us", to_boost, n);
	bench_report(b, "boost to the reader's unlock", "us", to_unlock, n);
	bench_report(b, "unlock to synchronize_rcu return", "us", to_return,
		     n);
}

#else

BENCH(boost_latency)
{
	bench_skip(b, "readers disable preemption in this flavour");
}

#endif
