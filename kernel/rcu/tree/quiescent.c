/*
 * Where a CPU's quiescent states come from: the hooks the scheduler, the
 * idle loop, the interrupt entry and CPU hotplug call (hooks.h), and the
 * one report they share, note_quiescent_state().
 *
 * A CPU is quiescent each time it passes through schedule() (readers run
 * with preemption off, so none spans a context switch), and all the time
 * it is idle or offline: an extended quiescent state, marked by an odd
 * eqs_seq. The grace-period thread (tree.c) reads eqs_seq to leave such
 * a CPU out of a grace period, or to report for it, without waking it.
 * So each change of parity is a full barrier (a locked increment) that
 * pairs with the full barrier between a grace period's start and its
 * reads of the counters: whichever side comes second sees the other.
 *
 * An interrupt on an idle CPU may run readers (timer callbacks, IPI
 * handlers): the outermost one leaves the extended quiescent state for
 * its duration, and reports as it goes back.
 */
#include "tree.h"
#include "kernel/rcu/inject.h"
#include "lib/atomic.h"

/* This CPU is quiescent right now: if a grace period it has not yet
 * reported is running, report it. A CPU notices a grace period through
 * its leaf's gp_seq, which node_start() publishes together with the
 * leaf's mask. Interrupts off. */
void note_quiescent_state(unsigned int cpu, enum trace_qs_reason reason)
{
	struct rcu_data *rdp = &rcu_data[cpu];
	/* Lock-free hints, written by the GP thread (rcu_gp_start(),
	 * rcu_gp_end()): node_clear() checks the node's gp_seq and
	 * our bit again under the node's lock, whose acquire also orders
	 * this CPU's later readers after node_start(). So a stale value
	 * only puts the report off to the next quiescent state or the
	 * FQS scan. The global gp_seq screens out a leaf value left over
	 * from a grace period that has ended. */
	struct rcu_node *leaf = READ_ONCE(rdp->leaf);
	unsigned long gp = READ_ONCE(leaf->gp_seq);

	if (!(gp & 1) || rdp->gp_seq_seen == gp ||
	    gp != READ_ONCE(rcu_state.gp_seq))
		return;
	rdp->gp_seq_seen = gp;
	rdp->qs_reported++;
	/* Its CPU's own counters, read lock-free as statistics: a report
	 * made from an interrupt that took the CPU out of idle is work RCU
	 * put on an idle CPU (the engine comparison counts it). */
	if (reason == TRACE_QS_IRQ_EXIT)
		rdp->idle_reports++;
	/* Traced before the report: a writer that has reported may be
	 * what ends trace_stop()'s grace period. */
	if (trace_on(TRACE_RCU)) {
		/* nudges is the GP thread's: a stale read only misnames
		 * the reason in the trace. */
		if (reason == TRACE_QS_CONTEXT_SWITCH &&
		    READ_ONCE(rdp->nudges) != READ_ONCE(rdp->nudges_snapshot))
			reason = TRACE_QS_NUDGED;
		trace_record_event(cpu, TRACE_QS, reason, rcu_gp_number(gp), 0);
	}
	rcu_report_qs(cpu, gp);
}

void rcu_tree_note_context_switch(void)
{
	unsigned int cpu = this_cpu_id();

	rcu_data[cpu].context_switches++;
	/* A reader being switched out is queued before the CPU reports. */
	rcu_preempt_note_context_switch(cpu);
	note_quiescent_state(cpu, TRACE_QS_CONTEXT_SWITCH);
	/* A hint, set by synchronize_rcu_expedited(): the report claims
	 * the flag with xchg, so a stale false only leaves the report to
	 * the IPI, which the requester sends after setting the flag. */
	if (READ_ONCE(rcu_data[cpu].exp_pending))
		rcu_exp_report_here();
}

/* Entering idle: quiescent now and until rcu_idle_exit(). */
void rcu_tree_idle_enter(void)
{
	unsigned int cpu = this_cpu_id();

	note_quiescent_state(cpu, TRACE_QS_IDLE);
	/* A hint, as in rcu_note_context_switch(): a flag missed here is
	 * cleared by the requester, which reads eqs_seq after setting it,
	 * or answered by its IPI, which ends the halt. */
	if (READ_ONCE(rcu_data[cpu].exp_pending))
		rcu_exp_report_here();
	/* Before the increment: a trace writer must not be in an
	 * extended quiescent state (see trace_stop()). */
	trace_event(TRACE_RCU, cpu, TRACE_IDLE_ENTER, 0, 0, 0);
	/* Full barrier (locked increment): every earlier access of this
	 * CPU comes before anyone can see it idle; pairs with the reads of
	 * eqs_seq in leaf_wait_mask(), force_one() and
	 * synchronize_rcu_expedited(). */
	atomic_fetch_add(&rcu_data[cpu].eqs_seq, 1);
}

/* Leaving idle. The locked increment is a full barrier between the
 * counter and the first reader that follows: if the GP thread, after its
 * own full barrier in rcu_gp_start(), still saw us idle, our readers see
 * every update made before that grace period began (store buffering
 * with fences on both sides). The same holds against the locked add
 * before synchronize_rcu_expedited() reads the counters. */
void rcu_tree_idle_exit(void)
{
	struct rcu_data *rdp = &rcu_data[this_cpu_id()];

	if (rcu_bug(RCU_BUG_IDLE_BARRIER)) {
		/* The injected bug: a plain store, no barrier, so a reader
		 * may run before the GP thread can see us awake. */
		WRITE_ONCE(rdp->eqs_seq, rdp->eqs_seq + 1);
		return;
	}
	atomic_fetch_add(&rdp->eqs_seq, 1);
	/* Out of the extended quiescent state: the trace may use RCU. */
	trace_event(TRACE_RCU, this_cpu_id(), TRACE_IDLE_EXIT, 0, 0, 0);
}

/*
 * CPU hotplug, on the CPU itself, interrupts off. Going offline is idling
 * for good: the CPU reports its quiescent state and enters the extended
 * quiescent state it will not leave until it comes back, so no grace
 * period begun from now on waits for it (leaf_wait_mask() skips it) and
 * the one running, if it still owes, is reported on its behalf by the next
 * scan (force_one() sees its counter odd). Its callbacks stay where they
 * are until a surviving CPU takes them (rcu_cpu_dead()).
 */
void rcu_tree_cpu_dying(void)
{
	unsigned int cpu = this_cpu_id();

	/* Its open kfree_rcu() block joins the callbacks that move. */
	rcu_kfree_flush_here();
	if (rcu_bug(RCU_BUG_OFFLINE_IN_MASKS)) {
		/* The injected bug: the parked CPU stays awake to RCU. */
		return;
	}
	rcu_tree_idle_enter();
	/* rcu_idle_enter() checked the expedited flag before its locked
	 * increment; a requester that set the flag meanwhile and then saw
	 * the counter even sent an IPI that a parked CPU never takes. So
	 * look again now that the increment is visible: store buffering
	 * with full barriers on both sides (the requester's locked add
	 * before it reads eqs_seq), one of the two sees the other. A grace
	 * period that began in the same gap is reported now too, rather
	 * than left to the next scan (the model check found the gap). */
	note_quiescent_state(cpu, TRACE_QS_OFFLINE);
	if (READ_ONCE(rcu_data[cpu].exp_pending))
		rcu_exp_report_here();
}

/* Starting, at boot or coming back online, before this CPU runs anything
 * else: leave the extended quiescent state it was in (every CPU starts in
 * one, see rcu_data), as idle exit does. A grace period that began while
 * it was offline did not wait for it, rightly: it held no reader then. */
void rcu_tree_cpu_starting(void)
{
	if (READ_ONCE(rcu_data[this_cpu_id()].eqs_seq) & 1)
		rcu_tree_idle_exit();
}

/* An interrupt on an idle CPU may use RCU readers: it leaves the
 * extended quiescent state for its duration. Outermost interrupt only. */
void rcu_tree_irq_enter(void)
{
	struct rcu_data *rdp = &rcu_data[this_cpu_id()];

	/* Our own counter: only this CPU writes it, so the read is
	 * current. irq_eqs_exit is this CPU's alone. */
	if (READ_ONCE(rdp->eqs_seq) & 1) {
		/* Full barrier, as in rcu_idle_exit(): the handler's readers
		 * see every update made before a grace period that saw this
		 * CPU idle; pairs with rcu_gp_start()'s smp_mb() and the locked
		 * add in synchronize_rcu_expedited(). */
		atomic_fetch_add(&rdp->eqs_seq, 1);
		rdp->irq_eqs_exit = 1;
	}
}

/* Back to idle: the handler is over, so this CPU is quiescent now; it
 * reports at once instead of waiting for the next scan to notice that
 * its counter moved. */
void rcu_tree_irq_exit(void)
{
	unsigned int cpu = this_cpu_id();
	struct rcu_data *rdp = &rcu_data[cpu];

	if (rdp->irq_eqs_exit) {
		rdp->irq_eqs_exit = 0;
		note_quiescent_state(cpu, TRACE_QS_IRQ_EXIT);
		/* Full barrier, as in rcu_idle_enter(): the handler's
		 * accesses come before the counter reads odd again in
		 * leaf_wait_mask(), force_one() or the expedited requester. */
		atomic_fetch_add(&rdp->eqs_seq, 1);
	}
}
