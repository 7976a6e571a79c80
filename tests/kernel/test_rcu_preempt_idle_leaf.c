/*
 * The rcu_preempt suite, continued: a leaf with nothing but a preempted
 * reader. A grace period leaves out a leaf whose CPUs are all idle, since
 * none of them owes it a report; but a reader preempted on that leaf and
 * still inside its section is queued there, wherever it runs now, and
 * the grace period must wait for it all the same (rcu_gp_start() sets
 * the parent's bit for a leaf with blocked readers).
 *
 * Set up with rcu.fanout_leaf=2 at -smp 3, where cpu2 has a leaf of its
 * own: a reader allowed on cpu0 and cpu2 enters its section on cpu2, a
 * real-time hog pinned there preempts it (so it is queued on cpu2's
 * leaf), idle cpu0 pulls it over, and the hog leaves cpu2 idle. A grace
 * period asked for then must not end while the reader holds its section.
 * Every wait is for a condition; only the check that the grace period
 * has not ended needs the few ticks a wrong one would take to end.
 */
#include "kernel/rcu/tree/tree.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "test_rcu_preempt.h"
#include "arch.h"

#if CONFIG_PREEMPT_RCU

#define HOG_PRIO	1	/* above normal threads, below the boost */

struct pinned_hog {
	bool running, stop;
};

/* Holds its CPU, above every normal thread, until stopped. */
static void hog_until_stopped(void *arg)
{
	struct pinned_hog *h = arg;

	WRITE_ONCE(h->running, true);
	while (!READ_ONCE(h->stop))
		arch_cpu_relax();
}

static struct thread *start_hog(struct ktest_context *t,
				struct pinned_hog *h, unsigned int cpu)
{
	struct thread *hog = thread_create_on(hog_until_stopped, h,
					      "leaf_hog", cpu);

	if (!hog)
		return NULL;
	KEXPECT_EQ(thread_set_priority(hog, HOG_PRIO), 0);
	while (!READ_ONCE(h->running))
		sleep_ms(1);
	return hog;
}

struct moving_reader {
	unsigned int lock_cpu;
	bool inside, moved, release;
};

/* Enters its section, then holds it until released, noting when it has
 * been moved to cpu0. this_cpu_id() may be stale by the time it is
 * stored; the test waits on the stored value, which is true once seen. */
static void read_until_released(void *arg)
{
	struct moving_reader *r = arg;

	rcu_read_lock();
	WRITE_ONCE(r->lock_cpu, this_cpu_id());
	WRITE_ONCE(r->inside, true);
	while (!READ_ONCE(r->release)) {
		if (this_cpu_id() == 0)
			WRITE_ONCE(r->moved, true);
		arch_cpu_relax();
	}
	rcu_read_unlock();
}

/* Whether cpu0's leaf no longer owes the grace period snap waits for. */
static bool leaf0_reported(unsigned long snap)
{
	const struct rcu_node *leaf = rcu_data[0].leaf;

	return READ_ONCE(leaf->gp_seq) == snap - 1 &&
	       READ_ONCE(leaf->qsmask) == 0;
}

KTEST_ON_CPU(rcu_preempt, idle_leaf_with_a_preempted_reader_is_waited_for, 1)
{
	struct pinned_hog hog0 = { 0 }, hog2 = { 0 };
	struct moving_reader r = { 0 };
	struct thread *h0, *h2, *reader;
	struct cpumask cpus0_2;
	unsigned long snap;
	bool ended_under_reader;

	if (nr_cpus_online < 3 || rcu_data[2].leaf == rcu_data[0].leaf ||
	    rcu_data[1].leaf != rcu_data[0].leaf)
		KTEST_SKIP("needs cpu2 alone on its leaf: rcu.fanout_leaf=2 "
			   "at -smp 3");
	/* cpu0 busy, so the new reader is placed on idle cpu2. */
	h0 = start_hog(t, &hog0, 0);
	KASSERT_TRUE(h0 != NULL);
	cpumask_clear(&cpus0_2);
	cpumask_set(&cpus0_2, 0);
	cpumask_set(&cpus0_2, 2);
	reader = thread_create_mask(read_until_released, &r, "leaf_reader",
				    &cpus0_2);
	KASSERT_TRUE(reader != NULL);
	while (!READ_ONCE(r.inside))
		sleep_ms(1);
	/* Preempted on cpu2, so queued on its leaf... */
	h2 = start_hog(t, &hog2, 2);
	KASSERT_TRUE(h2 != NULL);
	while (!leaf_has_reader(2))
		sleep_ms(1);
	/* ...then pulled to cpu0 once the hog there is gone... */
	WRITE_ONCE(hog0.stop, true);
	thread_join(h0);
	while (!READ_ONCE(r.moved))
		sleep_ms(1);
	/* ...leaving cpu2 idle: in its extended quiescent state (odd). */
	WRITE_ONCE(hog2.stop, true);
	thread_join(h2);
	while (!(READ_ONCE(rcu_data[2].eqs_seq) & 1))
		sleep_ms(1);

	snap = rcu_gp_snap();
	rcu_request_gp(snap);
	while (!rcu_gp_done(snap) && !leaf0_reported(snap))
		sleep_ms(1);
	/* A grace period that left the reader's leaf out ends as soon as
	 * cpu0's leaf reports; give it the ticks to do so. */
	sleep_ms(20);
	ended_under_reader = rcu_gp_done(snap);
	WRITE_ONCE(r.release, true);
	thread_join(reader);
	KEXPECT_EQ(r.lock_cpu, 2u);
	KEXPECT_FALSE(ended_under_reader);
	synchronize_rcu();
	KEXPECT_FALSE(leaf_has_reader(2));
}

#endif
