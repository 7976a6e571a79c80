/*
 * The rcu_preempt suite: readers preempted inside their sections, in the
 * preemptible flavour (make RCU=preempt; the other flavour skips it).
 *
 * A reader on cpu1 shares the CPU with a spinning thread, so the tick
 * switches it out inside its section; it counts its own switches to know
 * that it was, then holds the section until the test lets it go. The
 * test, on cpu0, checks that cpu1 has reported (its leaf's bit is clear:
 * the CPU is no longer what the grace period waits for), that the reader
 * is on its leaf's list, and that neither kind of grace period ends
 * until the reader leaves. Every wait is for a condition, never a time.
 */
#include "kernel/rcu/tree/tree.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "test_rcu_preempt.h"
#include "arch.h"

#if CONFIG_PREEMPT_RCU

static bool spinner_stop;

/* Keeps cpu1 contended, so that the tick switches the reader out. */
static void spin_until_stopped(void *unused)
{
	(void)unused;
	while (!READ_ONCE(spinner_stop))
		arch_cpu_relax();
}

struct preempted_reader {
	bool preempted;		/* switched out inside its section */
	bool release;
	bool irqs_off_unlock;	/* end the section with interrupts off */
	bool nested;		/* an inner section, ended once preempted */
};

static void read_until_released(void *arg)
{
	struct preempted_reader *r = arg;
	struct thread *self = current_thread();
	u64 switches;

	rcu_read_lock();
	if (r->nested)
		rcu_read_lock();
	switches = READ_ONCE(self->switches);
	/* switches counts switch-ins, by this CPU's scheduler. */
	while (READ_ONCE(self->switches) == switches)
		arch_cpu_relax();
	/* Only the outermost unlock may take the reader off its list. */
	if (r->nested)
		rcu_read_unlock();
	WRITE_ONCE(r->preempted, true);
	while (!READ_ONCE(r->release))
		arch_cpu_relax();
	if (r->irqs_off_unlock) {
		unsigned long flags = arch_irq_save();

		rcu_read_unlock();
		arch_irq_restore(flags);
	} else {
		rcu_read_unlock();
	}
}

static struct thread *start_preempted_reader(struct preempted_reader *r,
					     struct thread **spinner)
{
	struct thread *reader;

	WRITE_ONCE(spinner_stop, false);
	*spinner = thread_create_on(spin_until_stopped, NULL, "spinner", 1);
	reader = thread_create_on(read_until_released, r, "preempted", 1);
	if (reader)
		while (!READ_ONCE(r->preempted))
			sleep_ms(1);
	return reader;
}

static void stop_all(struct preempted_reader *r, struct thread *reader,
		     struct thread *spinner)
{
	WRITE_ONCE(r->release, true);
	WRITE_ONCE(spinner_stop, true);
	if (reader)
		thread_join(reader);
	if (spinner)
		thread_join(spinner);
}

bool leaf_has_reader(unsigned int cpu)
{
	struct rcu_node *leaf = rcu_data[cpu].leaf;
	unsigned long flags = spin_lock_irqsave(&leaf->lock);
	bool queued = !list_empty(&leaf->blkd_tasks);

	spin_unlock_irqrestore(&leaf->lock, flags);
	return queued;
}

/* Ask for a grace period; wait until cpu1 no longer owes it (it switched
 * the reader out and reported) or it has ended. */
static unsigned long gp_past_cpu1(void)
{
	const struct rcu_data *rdp = &rcu_data[1];
	unsigned long snap = rcu_gp_snap();

	rcu_request_gp(snap);
	while (!rcu_gp_done(snap) &&
	       (READ_ONCE(rdp->leaf->gp_seq) != snap - 1 ||
		(READ_ONCE(rdp->leaf->qsmask) & rdp->leaf_bit)))
		sleep_ms(1);
	return snap;
}

static void reader_holds_up_a_grace_period(struct ktest_context *t,
					   bool irqs_off_unlock, bool nested)
{
	struct preempted_reader r = { .irqs_off_unlock = irqs_off_unlock,
				      .nested = nested };
	struct thread *reader, *spinner;
	unsigned long snap;
	bool queued, ended_under_reader;

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs a second CPU for the reader");
	reader = start_preempted_reader(&r, &spinner);
	KASSERT_TRUE(reader != NULL && spinner != NULL);
	queued = leaf_has_reader(1);
	snap = gp_past_cpu1();
	/* Ticks enough for the grace period to end, were nothing holding
	 * it: the reader's CPU has reported and cpu0 has no reader. */
	sleep_ms(20);
	ended_under_reader = rcu_gp_done(snap);
	stop_all(&r, reader, spinner);
	KEXPECT_TRUE(queued);
	KEXPECT_FALSE(ended_under_reader);
	/* Ends once the reader is gone, even after an unlock that had to
	 * leave its dequeue to the next switch. */
	synchronize_rcu();
	KEXPECT_FALSE(leaf_has_reader(1));
}

KTEST_ON_CPU(rcu_preempt, preempted_reader_holds_up_the_grace_period, 0)
{
	reader_holds_up_a_grace_period(t, false, false);
}

KTEST_ON_CPU(rcu_preempt, unlock_with_interrupts_off_is_finished_later, 0)
{
	reader_holds_up_a_grace_period(t, true, false);
}

/* Preempted two sections deep, then out of the inner one: still held. */
KTEST_ON_CPU(rcu_preempt, inner_unlock_keeps_a_preempted_reader_queued, 0)
{
	reader_holds_up_a_grace_period(t, false, true);
}

static bool exp_returned;

static void expedite(void *unused)
{
	(void)unused;
	synchronize_rcu_expedited();
	WRITE_ONCE(exp_returned, true);
}

KTEST_ON_CPU(rcu_preempt, expedited_waits_for_a_preempted_reader, 0)
{
	struct preempted_reader r = { 0 };
	struct thread *reader, *spinner, *expediter;
	bool returned_under_reader;

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs a second CPU for the reader");
	reader = start_preempted_reader(&r, &spinner);
	KASSERT_TRUE(reader != NULL && spinner != NULL);
	WRITE_ONCE(exp_returned, false);
	expediter = thread_create_on(expedite, NULL, "expediter", 0);
	KASSERT_TRUE(expediter != NULL);
	/* Every CPU but the reader's answers an expedited grace period's
	 * IPI at once; the reader's CPU reports at its next switch. */
	sleep_ms(20);
	returned_under_reader = READ_ONCE(exp_returned);
	stop_all(&r, reader, spinner);
	thread_join(expediter);
	KEXPECT_FALSE(returned_under_reader);
	KEXPECT_TRUE(READ_ONCE(exp_returned));
}

/* A real-time hog on cpu1, above every normal thread and below the
 * boost (rcu.boost_prio, 2 by default): it starves a normal reader it
 * preempted until the test stops it. */
#define HOG_PRIO	1

static bool hog_go, hog_stop, hog_running;

/* Made real-time before it spins: until then it yields, so that it
 * cannot end the reader's section from a normal time slice. */
static void hog_until_stopped(void *unused)
{
	(void)unused;
	while (!READ_ONCE(hog_go))
		yield();
	WRITE_ONCE(hog_running, true);
	while (!READ_ONCE(hog_stop))
		arch_cpu_relax();
}

struct starved_reader {
	bool inside, unlocking;
	unsigned int prio_after_unlock;
};

static void read_then_leave(void *arg)
{
	struct starved_reader *r = arg;

	rcu_read_lock();
	WRITE_ONCE(r->inside, true);
	/* Stays inside until the hog has preempted it and it ran again:
	 * only a boost lets it run while the hog spins. */
	while (!READ_ONCE(hog_running))
		arch_cpu_relax();
	WRITE_ONCE(r->unlocking, true);
	rcu_read_unlock();
	/* Unboosted by the unlock: from here on the hog runs first, so
	 * this runs once the hog has stopped, or at once if the boost was
	 * kept. Read here, not by the test after synchronize_rcu(): the
	 * unlock reports the quiescent state before it drops the boost (as
	 * Linux's does), so the grace period may end in between. */
	WRITE_ONCE(r->prio_after_unlock, thread_priority(current_thread()));
}

/* Without boosting this test never ends: the grace period waits for a
 * reader that the hog never lets run (the stall warning names it). The
 * torture's boost test makes the same case in tests/boots-preempt.txt,
 * where a boot with rcu.boost=0 is expected to fail. */
KTEST_ON_CPU(rcu_preempt, reader_starved_by_a_realtime_hog_is_boosted, 0)
{
	struct starved_reader r = { 0 };
	struct thread *reader, *hog;
	bool ran_beside_hog;

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs a second CPU for the reader and the hog");
	WRITE_ONCE(hog_go, false);
	WRITE_ONCE(hog_stop, false);
	WRITE_ONCE(hog_running, false);
	reader = thread_create_on(read_then_leave, &r, "starved", 1);
	KASSERT_TRUE(reader != NULL);
	while (!READ_ONCE(r.inside))
		sleep_ms(1);
	hog = thread_create_on(hog_until_stopped, NULL, "rt_hog", 1);
	KASSERT_TRUE(hog != NULL);
	KEXPECT_EQ(thread_set_priority(hog, HOG_PRIO), 0);
	WRITE_ONCE(hog_go, true);
	/* The hog runs only once it has preempted the reader, which is
	 * then on its leaf's list. */
	while (!READ_ONCE(hog_running) || !leaf_has_reader(1))
		sleep_ms(1);
	synchronize_rcu();	/* ends only once the reader has left */
	/* The hog still spins: only a boost let the reader reach its
	 * unlock, which dropped the boost again. */
	ran_beside_hog = READ_ONCE(r.unlocking);
	WRITE_ONCE(hog_stop, true);
	thread_join(hog);
	thread_join(reader);
	KEXPECT_TRUE(ran_beside_hog);
	KEXPECT_EQ(READ_ONCE(r.prio_after_unlock), 0u);
}

#else

KTEST(rcu_preempt, needs_the_preemptible_flavour)
{
	KTEST_SKIP("readers are not preemptible in this build "
		   "(make RCU=preempt)");
}

#endif
