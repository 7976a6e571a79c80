/*
 * RCU priority boosting: a reader preempted inside its section by
 * higher-priority work holds up every grace period for as long as that
 * work runs, and memory waiting for those grace periods runs out. Linux
 * (CONFIG_RCU_BOOST) raises such a reader's priority once a grace period
 * has waited rcutree.rcu_boost_delay ms for it; so does this.
 *
 * The grace-period thread's forcing scan (every RCU_NUDGE_TICKS of a
 * grace period) calls rcu_preempt_boost(): once the grace period is
 * rcu.boost_delay_ms old, every reader still holding it up from a leaf's
 * list (gp_tasks onward) gets a boost to rcu.boost_prio, a real-time
 * priority, so it runs, reaches its outermost rcu_read_unlock(), and
 * dequeues itself; the dequeue drops the boost (blocked.c). Linux boosts
 * one reader at a time through an rt_mutex it makes the reader hold; here
 * the scheduler's own boost serves, and all the readers of the wait are
 * boosted at once, which ends the wait soonest.
 *
 * Lock order: a leaf's lock, then the run queue's lock that
 * thread_boost_priority() takes; nothing takes a leaf's lock with a run
 * queue's lock held (the scheduler calls RCU before it locks its queue).
 */
#include "preempt.h"
#include "kernel/cmdline.h"
#include "kernel/rcu/tree/tree.h"
#include "kernel/time.h"

static bool rcu_boost = true;
CMDLINE_BOOL("rcu.boost", rcu_boost,
	     "boost readers that hold up a grace period (Linux's "
	     "CONFIG_RCU_BOOST)");

static unsigned int rcu_boost_delay_ms = 500;
CMDLINE_UINT("rcu.boost_delay_ms", rcu_boost_delay_ms, 0, 600000,
	     "boost once a grace period is this old (Linux's "
	     "rcutree.rcu_boost_delay)");

static unsigned int rcu_boost_prio = 2;
CMDLINE_UINT("rcu.boost_prio", rcu_boost_prio, 1, 99,
	     "the real-time priority a boosted reader runs at");

static u64 rcu_preempt_boosts;
static u64 rcu_preempt_boost_scans;

bool rcu_preempt_boost_enabled(void)
{
	return rcu_boost;	/* set by the command line, before any thread */
}

u64 rcu_preempt_boost_count(void)
{
	/* The GP thread's plain increments; a statistic, read whole. */
	return READ_ONCE(rcu_preempt_boosts);
}

u64 rcu_preempt_boost_chances(void)
{
	/* The GP thread's plain increments, read whole by the torture. */
	return READ_ONCE(rcu_preempt_boost_scans);
}

bool rcu_preempt_thread_boosted(const struct thread *t)
{
	return READ_ONCE(t->rcu_boosted);	/* see flavour.h */
}

unsigned int rcu_preempt_boost_prio(void)
{
	return rcu_boost_prio;	/* set by the command line, before any thread */
}

unsigned int rcu_preempt_boost_delay_ms(void)
{
	/* Set once by the command line, before any thread runs. */
	return rcu_boost_delay_ms;
}

/* Boost every reader of one leaf's wait not boosted yet. */
static void boost_leaf(struct rcu_node *leaf)
{
	unsigned long flags = spin_lock_irqsave(&leaf->lock);
	struct list_head *pos;

	for (pos = leaf->gp_tasks; pos && pos != &leaf->blkd_tasks;
	     pos = pos->next) {
		struct thread *t = list_entry(pos, struct thread,
					      rcu_blocked_link);

		if (t->rcu_boosted)
			continue;
		/* Leaf lock, read by the dequeue; lock-free by the boost
		 * test's reader (rcutorture), which only looks. */
		WRITE_ONCE(t->rcu_boosted, true);
		/* Leaf lock; read by the stall report, and by the reader
		 * itself once the boost has run it (boost_latency). */
		WRITE_ONCE(t->rcu_boosted_ns, clock_ns());
		thread_boost_priority(t, rcu_boost_prio);
		rcu_preempt_boosts++;	/* GP thread only; statistics */
	}
	spin_unlock_irqrestore(&leaf->lock, flags);
}

void rcu_preempt_boost(u64 gp_age_ms)
{
	struct rcu_node *leaf;

	if (gp_age_ms < rcu_boost_delay_ms)
		return;
	/* A chance to boost, taken or not (rcu.boost=0): the torture's
	 * boost test counts them rather than trust a time alone. GP thread
	 * only; ONCE for the torture's lock-free reads. */
	WRITE_ONCE(rcu_preempt_boost_scans, rcu_preempt_boost_scans + 1);
	if (!rcu_boost)
		return;
	rcu_for_each_leaf(leaf)
		boost_leaf(leaf);
	/* The root's own list, which only readers queued before
	 * rcu_init() can be on. */
	if (rcu_state.nr_levels > 1)
		boost_leaf(rcu_root());
}
