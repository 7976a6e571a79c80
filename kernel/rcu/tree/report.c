/*
 * Quiescent-state reports climbing the combining tree (tree.c, step 3):
 * a CPU clears its bit in its leaf; a node whose mask empties (and, in
 * the preemptible flavour, whose readers preempted before the grace
 * period are done) clears its own bit in its parent, and so on up, level
 * by level, one lock at a time; the root's emptying wakes rcu_gp.
 *
 * Each step lets go of the child's lock before it takes the parent's, as
 * Linux's rcu_report_qs_rnp() does: no CPU holds two node locks, so the
 * order of locks never matters, and a report at one leaf never waits for
 * one at another. Between the two, anything may happen: another child
 * may report, the grace period may end and the next begin. So the
 * parent checks, under its own lock, that it still waits for this child
 * in this grace period; if not, the report is stale or made already,
 * and stops there.
 */
#include "tree.h"
#include "kernel/race.h"

bool rcu_node_waits(const struct rcu_node *node)
{
	return node->qsmask || rcu_preempt_blocks_gp(node);
}

/* Clear `bit` in `node` for grace period gp_seq, taking the node's
 * lock: true with the lock held, or false, the lock dropped, if the node
 * is in another grace period or no longer waits for bit. */
static bool node_clear(struct rcu_node *node, u64 bit, unsigned long gp_seq)
{
	rcu_node_lock(node);
	if (node->gp_seq != gp_seq || !(node->qsmask & bit)) {
		raw_spin_unlock(&node->lock);
		return false;	/* stale, or reported already */
	}
	node->qsmask &= ~bit;
	node->shared_writes++;
	return true;
}

void rcu_report_node_done(struct rcu_node *node, unsigned long gp_seq)
{
	struct rcu_node *parent;
	u64 bit;
	bool wake;

	while (!rcu_node_waits(node) && node->parent) {
		parent = node->parent;
		bit = node->grpmask;
		raw_spin_unlock(&node->lock);
		/* The node is empty, its parent not yet told: at every
		 * level of the climb. */
		race_window(RACE_QS_REPORT);
		if (!node_clear(parent, bit, gp_seq))
			return;
		node = parent;
	}
	wake = !node->parent && !rcu_node_waits(node);
	raw_spin_unlock(&node->lock);
	if (wake)
		wake_up_all(&rcu_state.gp_wait);
}

/* Report cpu's quiescent state for gp_seq (by the CPU itself, or by the
 * GP thread on behalf of an idle one). */
void rcu_report_qs(unsigned int cpu, unsigned long gp_seq)
{
	unsigned long flags = arch_irq_save();

	race_window(RACE_QS_REPORT);
	if (node_clear(rcu_data[cpu].leaf, rcu_data[cpu].leaf_bit, gp_seq))
		rcu_report_node_done(rcu_data[cpu].leaf, gp_seq);
	arch_irq_restore(flags);
}
