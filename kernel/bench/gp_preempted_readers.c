/*
 * Grace-period latency with N readers preempted inside their sections,
 * in the preemptible flavour (in the other a reader disables preemption,
 * so no reader is ever preempted: the benchmark says so and stops).
 *
 * N readers on cpu1 each take rcu_read_lock() and spin until they have
 * been switched out once (a spinner on cpu1 makes sure the time slice
 * passes even for one reader), so that every one of them is on cpu1's
 * leaf's blocked-tasks list before the grace period starts. cpu0 then
 * calls synchronize_rcu(), and a releaser lets the readers go
 * RELEASE_MS later; each unlocks at once and exits. Two figures for each
 * N: synchronize_rcu()'s latency, which for N > 0 cannot end before the
 * release (the grace period waits for the preempted readers), and the
 * time from the release to its return: N outermost unlocks taking their
 * thread off the list, the switches between the readers, the report
 * the last unlock makes for the leaf, and the waiter's wake-up. N = 0
 * is the reference: a busy cpu1 with no reader, nudged through
 * schedule().
 */
#include "bench.h"
#include "kernel/rcu/flavour.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"
#include "lib/atomic.h"
#include "lib/format.h"

#define RELEASE_MS		2u
#define MAX_READERS		16u
#define MAX_SAMPLES		16u
#define READERS_CPU		1u

static const unsigned int reader_counts[] = { 0, 1, 4, MAX_READERS };

/* Reset by the benchmark before each sample's threads exist; set once
 * by the releaser (WRITE_ONCE), after it has written release_ns. */
static bool readers_release;
/* Readers switched out inside their section so far (atomic). */
static unsigned int readers_queued;
/* A reader was boosted before its release (WRITE_ONCE): the sample is
 * dropped. */
static bool readers_boosted;
/* When the releaser let the readers go; read after joining it. */
static u64 release_ns;

/* A reader that stays inside its section, switched out once, until it
 * is released. */
static void preempted_reader(void *unused)
{
	struct thread *self = current_thread();
	u64 switches;

	(void)unused;
	rcu_read_lock();
	/* Written by cpu1's scheduler at each switch-in of this thread.
	 * A reader boosted while it waits (a grace period it holds up grew
	 * rcu.boost_delay_ms old) would outrank the others and the spinner
	 * for good: it leaves, and the sample is dropped. */
	switches = READ_ONCE(self->switches);
	while (READ_ONCE(self->switches) == switches &&
	       !rcu_preempt_thread_boosted(self))
		arch_cpu_relax();
	atomic_fetch_add(&readers_queued, 1);
	while (!READ_ONCE(readers_release) &&	/* see readers_release */
	       !rcu_preempt_thread_boosted(self))
		arch_cpu_relax();
	if (!READ_ONCE(readers_release))
		WRITE_ONCE(readers_boosted, true);
	rcu_read_unlock();
}

/* Keeps cpu1 busy beside the readers, so that even one reader loses
 * its CPU at the end of a time slice; it leaves at the release, so as
 * not to take a slice from the readers then. */
static void spinner(void *unused)
{
	(void)unused;
	while (!READ_ONCE(readers_release))	/* see readers_release */
		arch_cpu_relax();
}

/* RELEASE_MS after it is created (as synchronize_rcu() is called),
 * lets the readers and the spinner go. */
static void releaser(void *unused)
{
	(void)unused;
	sleep_ms(RELEASE_MS);
	release_ns = clock_ns();
	WRITE_ONCE(readers_release, true);	/* after release_ns */
}

/* Let the threads go, if the releaser has not, and wait for them. */
static void release_and_join(struct thread **threads, unsigned int nr)
{
	WRITE_ONCE(readers_release, true);	/* see readers_release */
	while (nr--)
		thread_join(threads[nr]);
}

/* One grace period with n readers preempted; its latency and the time
 * from the release to its end, in microseconds. False if a thread could
 * not be created, or a reader was boosted early (the sample is not one
 * of n preempted readers). */
static bool time_one(unsigned int n, u64 *latency_us, u64 *after_us)
{
	struct thread *threads[MAX_READERS + 1], *rel;
	unsigned int nr;
	u64 start, end;

	WRITE_ONCE(readers_release, false);	/* no thread runs yet */
	WRITE_ONCE(readers_queued, 0);
	WRITE_ONCE(readers_boosted, false);
	/* n readers, then the spinner. */
	for (nr = 0; nr <= n; nr++) {
		threads[nr] = thread_create_on(nr < n ? preempted_reader
						      : spinner,
					       NULL, nr < n ? "preempted"
							    : "spinner",
					       READERS_CPU);
		if (!threads[nr]) {
			release_and_join(threads, nr);
			return false;
		}
	}
	while (READ_ONCE(readers_queued) < n)
		sleep_ms(1);
	start = clock_ns();
	rel = thread_create_on(releaser, NULL, "releaser", 0);
	if (!rel) {
		release_and_join(threads, nr);
		return false;
	}
	synchronize_rcu();
	end = clock_ns();
	thread_join(rel);
	*latency_us = (end - start) / 1000;
	*after_us = end > release_ns ? (end - release_ns) / 1000 : 0;
	release_and_join(threads, nr);
	return !READ_ONCE(readers_boosted);
}

/* The figures for n readers. */
static void time_readers(struct bench_run *b, unsigned int n)
{
	u64 latency[MAX_SAMPLES], after[MAX_SAMPLES];
	unsigned int i, samples = 0;
	unsigned int repeats = b->repeats < MAX_SAMPLES ? b->repeats
							: MAX_SAMPLES;
	char figure[64];

	for (i = 0; i < repeats; i++)
		if (time_one(n, &latency[samples], &after[samples]))
			samples++;
	ksnprintf(figure, sizeof(figure),
		 "synchronize_rcu, %u readers preempted", n);
	bench_report(b, figure, "us", latency, samples);
	if (!n)
		return;		/* nothing to release: it ends before */
	ksnprintf(figure, sizeof(figure),
		 "release to return, %u readers preempted", n);
	bench_report(b, figure, "us", after, samples);
}

BENCH(gp_preempted_readers)
{
	unsigned int i;

	if (!CONFIG_PREEMPT_RCU) {
		bench_skip(b, "readers disable preemption in this flavour");
		return;
	}
	if (nr_cpus_online < 2) {
		bench_skip(b, "needs a second CPU for the readers");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(reader_counts); i++)
		time_readers(b, reader_counts[i]);
}
