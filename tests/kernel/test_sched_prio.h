/*
 * What the priority tests of the sched suite share (test_sched_prio.c,
 * test_sched_prio_change.c): one run of threads that take tickets.
 *
 * Verdicts come from order, never from speed: the threads take tickets
 * from one counter at the points that matter, and a test compares the
 * tickets. The threads under test are pinned to cpu1 and the test itself
 * runs on cpu0, since a spinning real-time thread starves everything else
 * on its CPU; every spin ends on a flag another CPU sets.
 */
#ifndef TESTS_KERNEL_TEST_SCHED_PRIO_H
#define TESTS_KERNEL_TEST_SCHED_PRIO_H

#include "kernel/sched/completion.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"

#define PRIO_CPU	1
#define PRIO_THREADS	4
/* How long a test waits for a thread that, without the behaviour under
 * test, would never run: a bound on a failure, never part of a pass. */
#define PRIO_GIVE_UP_MS	5000ull

/* One test's threads and what they record; zeroed before each test. */
struct prio_run {
	unsigned int next_ticket;
	bool stop;			/* set by the test: every spin ends */
	struct completion gate[PRIO_THREADS];
	struct thread *threads[PRIO_THREADS];
	unsigned int nr_threads;
	unsigned int ticket[PRIO_THREADS][2];
	bool started[PRIO_THREADS];
	unsigned int prio_seen;		/* by a thread, of itself */
	unsigned int prio_after;
	unsigned int ran_on;
	bool ran;
};

extern struct prio_run prio_run;

unsigned int prio_take_ticket(void);
void prio_run_reset(void);
/* Start fn(i) pinned to cpu at prio, or on any of `allowed` if given. */
struct thread *prio_start(thread_fn fn, unsigned int i, unsigned int prio,
			  unsigned int cpu, const struct cpumask *allowed);
/* prio_start() a thread whose first act is to sleep, and wait for that. */
struct thread *prio_start_asleep(thread_fn fn, unsigned int i,
				 unsigned int prio, unsigned int cpu);
void prio_join_all(void);
void prio_abandon(void);
void prio_fail_out_of_memory(struct ktest_context *t);
bool prio_wait_ran(void);

/* Thread bodies: sleep on gate i, then take ticket i. Spin (marked
 * started) until prio_run.ran, then take ticket i. */
void prio_rt_sleeper(void *arg);
void prio_spin_until_ran(void *arg);

#endif
