/*
 * Preemptible RCU: readers switched out inside their sections, and the
 * grace periods that wait for them (the shape of Linux's
 * kernel/rcu/tree_plugin.h).
 *
 * In this flavour rcu_read_lock() only counts (rcupdate.h), so a reader
 * may be preempted, and a CPU that passes through schedule() no longer
 * proves that its readers are done. It still reports its quiescent
 * state, so that one long reader cannot hold up every CPU's report; what
 * it cannot vouch for, the thread it switched out inside a reader, is
 * queued on the CPU's leaf of the combining tree, and the leaf answers
 * for it:
 *
 *  1. Queueing. A switch inside a reader puts the thread on its leaf's
 *     blkd_tasks list. A normal grace period waits, on that leaf, for the
 *     entry gp_tasks points at and every entry after it; an expedited
 *     one, for exp_tasks and every entry after it. So a new reader goes
 *     where the waits it must join (and, where it can, only those) reach:
 *     at the head when it joins none (its CPU has reported both), just
 *     after gp_tasks or exp_tasks when it joins one that already has a
 *     wait, at the tail otherwise (the tail is inside every wait), and a
 *     wait that had none begins at it. It joins the normal wait if its
 *     CPU has not yet reported the running grace period (its section may
 *     have begun before it), the expedited one if its CPU still owes
 *     that a report.
 *
 *  2. A grace period's start points gp_tasks at the head of each leaf's
 *     list: every reader queued then began before it. A leaf with queued
 *     readers has its bit in its parent (and each ancestor its own in
 *     its parent) even if none of its CPUs must report, and reports
 *     upward only when its CPUs have and gp_tasks is NULL. An expedited
 *     start does the same with exp_tasks, holding one more report per
 *     such leaf.
 *
 *  3. The outermost rcu_read_unlock() of a queued thread (its special
 *     bit says so) takes it off the list, moves gp_tasks or exp_tasks on
 *     to the next entry if they pointed at it, and when a wait ends so,
 *     reports for the leaf. With interrupts or preemption off it cannot
 *     (the report may wake threads, and the caller may hold scheduler
 *     locks): it asks for a reschedule instead, and the next switch does
 *     it (read_side.c); the tick asks again, so a grace period waits at
 *     most a tick past the next preemption point.
 *
 * CPU hotplug needs nothing more: the list belongs to the leaf, not to a
 * CPU, and a grace period's start looks at every leaf's list whether or
 * not any of its CPUs is online (Linux moves such readers to the root
 * because its leaves leave the tree with their last CPU; ours stay).
 * All list and pointer changes are under the leaf's lock, interrupts off.
 */
#include "preempt.h"
#include "kernel/race.h"
#include "kernel/rcu/tree/tree.h"
#include "kernel/time.h"

void rcu_preempt_init_node(struct rcu_node *node)
{
	INIT_LIST_HEAD(&node->blkd_tasks);
	node->gp_tasks = NULL;
	node->exp_tasks = NULL;
}

bool rcu_preempt_blocks_gp(const struct rcu_node *node)
{
	return node->gp_tasks != NULL;
}

bool rcu_preempt_blocks_gp_hint(const struct rcu_node *node)
{
	/* Written under the node's lock (WRITE_ONCE), which the waker
	 * takes before it wakes the GP thread: see rcu_gp_complete(). */
	return READ_ONCE(node->gp_tasks) != NULL;
}

bool rcu_preempt_has_blocked(const struct rcu_node *leaf)
{
	return !list_empty(&leaf->blkd_tasks);
}

void rcu_preempt_gp_start_leaf(struct rcu_node *leaf)
{
	WRITE_ONCE(leaf->gp_tasks, list_empty(&leaf->blkd_tasks) ?
		   NULL : leaf->blkd_tasks.next);
}

void rcu_preempt_exp_start(void)
{
	struct rcu_node *leaf;

	rcu_for_each_leaf(leaf) {
		unsigned long flags = spin_lock_irqsave(&leaf->lock);

		/* A reader queued since the CPUs' flags were set may have
		 * begun the wait already, and taken its hold: widen it to
		 * the whole list, with no second hold. */
		if (!list_empty(&leaf->blkd_tasks)) {
			if (!leaf->exp_tasks)
				rcu_exp_hold_report();
			leaf->exp_tasks = leaf->blkd_tasks.next;
		}
		spin_unlock_irqrestore(&leaf->lock, flags);
	}
}

/* Where a reader joining the given waits goes on the list (step 1). */
static void insert_blocked(struct rcu_node *leaf, struct list_head *link,
			   bool joins_gp, bool joins_exp)
{
	if (!joins_gp && !joins_exp)
		list_add(link, &leaf->blkd_tasks);
	else if (joins_gp && !joins_exp && leaf->gp_tasks)
		list_add(link, leaf->gp_tasks);
	else if (joins_exp && !joins_gp && leaf->exp_tasks)
		list_add(link, leaf->exp_tasks);
	else
		list_add_tail(link, &leaf->blkd_tasks);
}

void rcu_preempt_queue_reader(struct thread *t, unsigned int cpu)
{
	struct rcu_data *rdp = &rcu_data[cpu];
	struct rcu_node *leaf = rdp->leaf;
	bool joins_gp, joins_exp;

	raw_spin_lock(&leaf->lock);
	/* Under the lock that node_start() sets the mask under: a CPU
	 * whose bit is still set has not reported this grace period. */
	joins_gp = leaf->qsmask & rdp->leaf_bit;
	/* The requester sets the flag (release) before it takes this lock
	 * in rcu_preempt_exp_start(): either we see it, or it sees us on
	 * the list. Cleared only by this CPU's own report, which follows. */
	joins_exp = READ_ONCE(rdp->exp_pending);
	insert_blocked(leaf, &t->rcu_blocked_link, joins_gp, joins_exp);
	if (joins_gp && !leaf->gp_tasks)
		WRITE_ONCE(leaf->gp_tasks, &t->rcu_blocked_link);
	if (joins_exp && !leaf->exp_tasks) {
		rcu_exp_hold_report();
		leaf->exp_tasks = &t->rcu_blocked_link;
	}
	t->rcu_blocked_node = leaf;
	t->rcu_blocked_ns = clock_ns();
	/* Locked: queues of other leaves count too. */
	atomic_fetch_add(&rcu_preempt_blocked_total, 1);
	raw_spin_unlock(&leaf->lock);
}

void rcu_preempt_dequeue_reader(struct thread *t)
{
	struct rcu_node *leaf = t->rcu_blocked_node;
	struct list_head *link = &t->rcu_blocked_link;
	struct list_head *next;
	bool gp_wait_ends = false, exp_wait_ends = false, boosted;

	raw_spin_lock(&leaf->lock);
	next = link->next == &leaf->blkd_tasks ? NULL : link->next;
	if (leaf->gp_tasks == link) {
		WRITE_ONCE(leaf->gp_tasks, next);
		gp_wait_ends = !next;
	}
	if (leaf->exp_tasks == link) {
		leaf->exp_tasks = next;
		exp_wait_ends = !next;
	}
	/* The wait pointers moved on, the entry still on the list: the
	 * grace-period thread's lock-free hint may look in between. */
	race_window(RACE_PREEMPT_DEQUEUE);
	list_del_init(link);
	t->rcu_blocked_node = NULL;
	boosted = t->rcu_boosted;	/* set under this lock (boost.c) */
	t->rcu_boosted = false;
	if (gp_wait_ends)
		rcu_report_node_done(leaf, leaf->gp_seq);
	else
		raw_spin_unlock(&leaf->lock);
	/* The normal grace period may end here, the expedited one not. */
	race_window(RACE_PREEMPT_DEQUEUE);
	if (exp_wait_ends)
		rcu_exp_report_leaf();
	/* Both waits may have ended, and their waiters run, while this
	 * reader still has its boost. */
	race_window(RACE_PREEMPT_DEQUEUE);
	/* Out of the wait it was boosted for: back to its own priority.
	 * After the leaf's lock, which the booster holds while it takes
	 * run queue locks (boost.c). */
	if (boosted)
		thread_unboost_priority(t);
}
