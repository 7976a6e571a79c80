/*
 * A grace period's start and end in the combining tree (tree.c, steps 2
 * and 5), at any depth.
 *
 * The start decides, bottom-up, what each node must wait for: a leaf,
 * its CPUs that are not in an extended quiescent state; an interior
 * node, its children that wait for anything (a leaf with readers
 * preempted before now waits for them even if none of its CPUs must
 * report). Then it publishes the masks top-down, each node's with the
 * grace period's number under the node's lock, so that a node that
 * empties always finds its parent already waiting for it, and no report
 * is overwritten by set-up still in progress.
 */
#include "tree.h"
#include "kernel/percpu_array.h"
#include "kernel/rcu/inject.h"
#include "kernel/race.h"

/* Which CPUs of `leaf` the grace period must wait for: those not in an
 * extended quiescent state (idle, or offline: parked CPUs, and CPUs that
 * never came up, are in one for good). Not the online flag: cpu_down()
 * clears it before the CPU has finished the reader it may be in, and
 * the hotplug torture caught a grace period that ended under such a
 * reader. So CPU hotplug needs no mask of online CPUs kept up the tree
 * (Linux's qsmaskinit): a leaf whose CPUs are all offline waits for
 * nothing, and neither does any ancestor for it. Samples each CPU's
 * idle counter for the FQS scan. */
static u64 leaf_wait_mask(const struct rcu_node *leaf)
{
	unsigned int cpu;
	u64 mask = 0;

	for (cpu = leaf->grplo; cpu <= leaf->grphi; cpu++) {
		struct rcu_data *rdp = &rcu_data[cpu];

		/* After rcu_gp_start()'s smp_mb(). Odd: the locked
		 * increment in rcu_idle_enter() or rcu_irq_exit() put the
		 * CPU's readers before this load, which node_start()'s
		 * locked ticket add keeps before the grace period's end (as
		 * x86-TSO would anyway); the barrier in rcu_idle_exit() or
		 * rcu_irq_enter() makes its next readers see the updates
		 * made before this grace period. eqs_snapshot is this
		 * thread's alone. */
		rdp->eqs_snapshot = READ_ONCE(rdp->eqs_seq);
		rdp->ticks_snapshot = READ_ONCE(cpu_area(cpu)->ticks);
		rdp->switches_snapshot = READ_ONCE(rdp->context_switches);
		rdp->nudges_snapshot = rdp->nudges;
		rdp->found_running_snapshot = rdp->found_running;
		if (!(rdp->eqs_snapshot & 1))
			mask |= rdp->leaf_bit;
		if (rcu_bug(RCU_BUG_FORGET_CPU) && cpu == nr_cpus - 1 &&
		    cpu != this_cpu_id())
			mask &= ~rdp->leaf_bit;
	}
	return mask;
}

/* Whether a leaf has readers preempted inside their sections, which the
 * next grace period must wait for even if none of its CPUs must report.
 * A hint: node_start() looks again under the lock. */
static bool leaf_has_blocked_readers(struct rcu_node *leaf)
{
	unsigned long flags = rcu_node_lock_irqsave(leaf);
	bool blocked = rcu_preempt_has_blocked(leaf);

	spin_unlock_irqrestore(&leaf->lock, flags);
	return blocked;
}

/* Publish a node's mask and grace period together, under its lock: a
 * CPU that sees the leaf's new gp_seq (see note_quiescent_state()) can
 * rely on its bit being set. A leaf's readers preempted before now wait
 * with its CPUs; if the parent waits for a leaf that has nothing left
 * (its readers ended since the masks were made), report it now. */
static void node_start(struct rcu_node *node, unsigned long gp, u64 mask,
		       bool parent_waits)
{
	rcu_node_lock(node);
	node->qsmask = mask;
	node->shared_writes++;
	rcu_preempt_gp_start_leaf(node);
	/* ONCE for note_quiescent_state()'s lock-free peek; node_clear()
	 * reads both fields under the lock. */
	WRITE_ONCE(node->gp_seq, gp);
	if (parent_waits && !rcu_node_waits(node)) {
		rcu_report_node_done(node, gp);
		return;
	}
	raw_spin_unlock(&node->lock);
}

/* rcu_gp_start()'s scratch, a mask per node: sized as the tree's nodes
 * (geometry.c). The GP thread's alone. */
static DEFINE_PERCPU_ARRAY_N(u64, start_masks, RCU_NODES_PER_CPU);

/* What each node must wait for, leaves first, then each level's nodes
 * from their children's: the array backwards visits every child before
 * its parent. The GP thread's own. */
static void compute_masks(u64 *masks)
{
	struct rcu_node *node;
	unsigned int i;

	for (i = rcu_state.nr_nodes; i-- > 0;) {
		node = &rcu_state.node[i];
		if (rcu_is_leaf(node))
			masks[i] = leaf_wait_mask(node);
		/* Its children, all later in the array, have added
		 * their bits already. */
		if (node->parent &&
		    (masks[i] ||
		     (rcu_is_leaf(node) && leaf_has_blocked_readers(node))))
			masks[node->parent - rcu_state.node] |= node->grpmask;
	}
}

/**
 * rcu_gp_start - start the next grace period in every node
 *
 * Context: the GP thread. The masks are computed first and published
 * root first, level by level: see the top of this file.
 */
void rcu_gp_start(void)
{
	unsigned long flags = arch_irq_save();
	unsigned long gp = rcu_state.gp_seq + 1;
	struct rcu_node *node;
	unsigned int i;

	/* gp_start_ns and next_stall_ns are this thread's alone. A stale
	 * fqs_due left by the last grace period's alarm is cleared here. */
	rcu_state.gp_start_ns = clock_ns();
	rcu_state.next_stall_ns = rcu_state.gp_start_ns +
				  rcu_stall_timeout_ms * NSEC_PER_MSEC;
	WRITE_ONCE(rcu_state.fqs_due, false);
	/* Read lock-free everywhere; ordered by the smp_mb() below. */
	WRITE_ONCE(rcu_state.gp_seq, gp);
	rcu_state.gp_seq_writes++;
	/* Full barrier: the new gp_seq (and every update the callers made
	 * before asking for this grace period) is visible before we sample
	 * the idle counters; pairs with the barriers in rcu_idle_exit() and
	 * rcu_irq_enter(), and with the smp_mb() of call_rcu() and
	 * rcu_gp_snap() before they sample gp_seq. */
	smp_mb();
	for (i = 0; i < rcu_state.nr_nodes; i++)
		start_masks[i] = 0;
	compute_masks(start_masks);
	/* A window after each node takes the grace period: the reports of
	 * a node that empties at once must still climb to the root,
	 * whichever nodes took it first. */
	rcu_for_each_node(node) {
		struct rcu_node *parent = node->parent;

		i = node - rcu_state.node;
		node_start(node, gp, start_masks[i],
			   parent && (start_masks[parent - rcu_state.node] &
				      node->grpmask));
		race_window(RACE_GP_START);
	}
	trace_event(TRACE_RCU, this_cpu_id(), TRACE_GP_START, 0,
		    rcu_gp_number(gp), 0);
	/* This thread is in a quiescent state itself. */
	note_quiescent_state(this_cpu_id(), TRACE_QS_GP_THREAD);
	arch_irq_restore(flags);
}

/* Lock-free test in the GP thread's wait: the climb clears the root's
 * last bit (and the last blocked reader leaves the root's list) under
 * the root lock, then wakes gp_wait, whose lock orders that store before
 * this re-test. rcu_gp_end() then takes the root lock, which orders
 * every report before the end. */
bool rcu_gp_complete(void)
{
	/* qsmask first, with acquire, then the blocked readers: when the
	 * root is the only leaf, a reader is queued on it (gp_tasks set)
	 * before its CPU's report clears its bit, both under the root's
	 * lock; reading in the other order could miss both. */
	return smp_load_acquire(&rcu_root()->qsmask) == 0 &&
	       !rcu_preempt_blocks_gp_hint(rcu_root());
}

/**
 * rcu_gp_end - end the grace period the root has nothing left to wait for
 *
 * Context: the GP thread, once rcu_gp_complete(). Every node takes the
 * end's number, as Linux's rcu_gp_cleanup() does, so that a node's own
 * gp_seq says whether it is in a grace period; the global one ends last.
 */
void rcu_gp_end(void)
{
	struct rcu_node *root = rcu_root();
	unsigned long end = rcu_state.gp_seq + 1;
	u64 took = clock_ns() - rcu_state.gp_start_ns;
	unsigned long flags;
	struct rcu_node *node;

	/* Every node below the root has reported, so nothing but a stale
	 * report (which its gp_seq check turns away) looks at it now. */
	for (node = rcu_state.node + 1;
	     node < rcu_state.node + rcu_state.nr_nodes; node++) {
		flags = rcu_node_lock_irqsave(node);
		WRITE_ONCE(node->gp_seq, end);	/* as node_start() */
		spin_unlock_irqrestore(&node->lock, flags);
	}
	flags = rcu_node_lock_irqsave(root);
	WRITE_ONCE(root->gp_seq, end);
	/* Release: every report that emptied the tree happened before;
	 * pairs with the acquire loads of gp_seq in synchronize_rcu(),
	 * poll_state_synchronize_rcu() and the callbacks' advance. */
	smp_store_release(&rcu_state.gp_seq, end);
	rcu_state.gp_seq_writes++;
	rcu_state.gps_completed++;	/* statistics, read lock-free */
	trace_event(TRACE_RCU, this_cpu_id(), TRACE_GP_END, 0,
		    rcu_gp_number(end), took);
	spin_unlock_irqrestore(&root->lock, flags);
	rcu_record_latency(took);
	wake_up_all(&rcu_state.gp_done);
}
