/*
 * Read-copy-update: the grace-period engine.
 *
 * A grace period ends once every CPU has passed through a quiescent
 * state since it began. Readers run with preemption disabled and may not
 * sleep, so a CPU is quiescent whenever it passes through schedule(), and
 * all the time it is idle. The engine:
 *
 *  1. Numbers grace periods. rcu_state.gp_seq is odd while one runs; the
 *     one that starts at 2n-1 ends at 2n. Whoever needs a grace period
 *     (call_rcu, synchronize_rcu) takes rcu_seq_snap(gp_seq), the value
 *     at which a full grace period begun after now will be over, and asks
 *     for it (rcu_request_gp). One grace period serves every request
 *     made before it started.
 *
 *  2. Starts it in one thread, "rcu_gp". At the start it fills each leaf
 *     of a combining tree (16 CPUs a leaf, as in Linux's Tree RCU) with
 *     a bit per online CPU that is not idle. An idle CPU is in an
 *     extended quiescent state: its eqs_seq counter is odd, and it owes
 *     nothing, so RCU never wakes an idle CPU.
 *
 *  3. Collects quiescent states without shared writes on the fast path.
 *     Each pass through schedule() calls rcu_note_context_switch(), which
 *     compares the CPU's last-seen grace period with gp_seq (one read of
 *     a read-mostly line); only the first quiescent state of a new grace
 *     period takes the leaf lock and clears the CPU's bit. The last CPU
 *     of a leaf clears the leaf's bit in the root, and the last leaf
 *     wakes rcu_gp. So each CPU writes one leaf line per grace period,
 *     and each leaf one root line.
 *
 *  4. Forces the stragglers. The tick asks rcu_gp to scan every
 *     RCU_NUDGE_TICKS ticks of a grace period: a CPU that has been idle
 *     since the start (eqs_seq odd, or changed since sampled) is reported
 *     on its behalf; any other holdout gets a reschedule IPI (the nudge),
 *     so that it passes through schedule() on its way out of the
 *     interrupt, or at its outermost rcu_read_unlock() if it is inside a
 *     reader. Grace periods on a busy system thus end in about a tick.
 *     Past rcu.stall_timeout_ms, the scan prints a stall warning.
 *
 *  5. Ends it: gp_seq becomes even, synchronize_rcu() callers wake, and
 *     each CPU's tick moves its callbacks whose grace period is over to
 *     the DONE segment of its list (rcu_cblist.c), to be invoked by its
 *     own "rcuc" thread (rcu_callbacks.c).
 *
 * Expedited grace periods (rcu_exp.c) skip the wait for the scheduler
 * and IPI every non-idle CPU instead.
 *
 * Memory ordering. A reader's accesses come before its CPU's quiescent
 * state in program order; the report is a locked operation (a full
 * barrier on x86), the GP thread sees it under the same lock, and the
 * grace period's end is read with acquire before callbacks run or
 * synchronize_rcu() returns. So a callback runs after every access of
 * every reader that began before the grace period. The idle counter
 * pairs a full barrier at idle exit with one between the grace period's
 * start and the sampling of eqs_seq (see rcu_idle_exit()).
 */
#include "internal.h"
#include "inject.h"
#include "kernel/cmdline.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/init.h"
#include "lib/format.h"
#include "lib/atomic.h"

struct rcu_state rcu_state;
struct rcu_data rcu_data[MAX_CPUS];
static bool rcu_ready;

unsigned int rcu_stall_timeout_ms = 5000;
CMDLINE_UINT("rcu.stall_timeout_ms", rcu_stall_timeout_ms, 10, 600000,
	     "warn when a grace period is older than this");

/* Clear `bit` in `node` for grace period gp_seq, climbing to the root
 * when the node empties. Interrupts off. */
static void report_up(struct rcu_node *node, u64 bit, unsigned long gp_seq)
{
	struct rcu_node *root = &rcu_state.root;
	bool wake = false;

	raw_spin_lock(&node->lock);
	if (node->gp_seq != gp_seq || !(node->qsmask & bit)) {
		raw_spin_unlock(&node->lock);
		return;		/* stale, or reported already */
	}
	node->qsmask &= ~bit;
	if (node->qsmask || node == root) {
		wake = node == root && node->qsmask == 0;
		raw_spin_unlock(&node->lock);
	} else {
		raw_spin_unlock(&node->lock);
		raw_spin_lock(&root->lock);
		if (root->gp_seq == gp_seq && (root->qsmask & (1ull << node->index))) {
			root->qsmask &= ~(1ull << node->index);
			wake = root->qsmask == 0;
		}
		raw_spin_unlock(&root->lock);
	}
	if (wake)
		wake_up_all(&rcu_state.gp_wait);
}

/* Report cpu's quiescent state for gp_seq (by the CPU itself, or by the
 * GP thread on behalf of an idle one). */
void rcu_report_qs(unsigned int cpu, unsigned long gp_seq)
{
	struct rcu_node *leaf = rcu_leaf_of(cpu);
	unsigned long flags = arch_irq_save();

	report_up(leaf, 1ull << (cpu - leaf->first_cpu), gp_seq);
	arch_irq_restore(flags);
}

/* This CPU is quiescent right now: if a grace period it has not yet
 * reported is running, report it. A CPU notices a grace period through
 * its leaf's gp_seq, which node_start() publishes together with the
 * leaf's mask. Interrupts off. */
static void note_quiescent_state(unsigned int cpu)
{
	struct rcu_data *rdp = &rcu_data[cpu];
	unsigned long gp = READ_ONCE(rcu_leaf_of(cpu)->gp_seq);

	if (!(gp & 1) || rdp->gp_seq_seen == gp ||
	    gp != READ_ONCE(rcu_state.gp_seq))
		return;
	rdp->gp_seq_seen = gp;
	rdp->qs_reported++;
	rcu_report_qs(cpu, gp);
}

void rcu_note_context_switch(void)
{
	unsigned int cpu = this_cpu_id();

	rcu_data[cpu].context_switches++;
	note_quiescent_state(cpu);
	if (READ_ONCE(rcu_data[cpu].exp_pending))
		rcu_exp_report_here();
}

/* Entering idle: quiescent now and until rcu_idle_exit(). The locked
 * increment orders every earlier access of this CPU before the GP
 * thread can see it idle. */
void rcu_idle_enter(void)
{
	unsigned int cpu = this_cpu_id();

	note_quiescent_state(cpu);
	if (READ_ONCE(rcu_data[cpu].exp_pending))
		rcu_exp_report_here();
	atomic_fetch_add(&rcu_data[cpu].eqs_seq, 1);
}

/* Leaving idle. The locked increment is a full barrier between the
 * counter and the first reader that follows: if the GP thread, after its
 * own full barrier in gp_start(), still saw us idle, our readers see
 * every update made before that grace period began (store buffering
 * with fences on both sides). */
void rcu_idle_exit(void)
{
	struct rcu_data *rdp = &rcu_data[this_cpu_id()];

	if (rcu_bug(RCU_BUG_IDLE_BARRIER)) {
		WRITE_ONCE(rdp->eqs_seq, rdp->eqs_seq + 1);
		return;
	}
	atomic_fetch_add(&rdp->eqs_seq, 1);
}

/* An interrupt on an idle CPU may use RCU readers: it leaves the
 * extended quiescent state for its duration. Outermost interrupt only. */
void rcu_irq_enter(void)
{
	struct rcu_data *rdp = &rcu_data[this_cpu_id()];

	if (READ_ONCE(rdp->eqs_seq) & 1) {
		atomic_fetch_add(&rdp->eqs_seq, 1);
		rdp->irq_eqs_exit = 1;
	}
}

/* Back to idle: the handler is over, so this CPU is quiescent now; it
 * reports at once instead of waiting for the next scan to notice that
 * its counter moved. */
void rcu_irq_exit(void)
{
	unsigned int cpu = this_cpu_id();
	struct rcu_data *rdp = &rcu_data[cpu];

	if (rdp->irq_eqs_exit) {
		rdp->irq_eqs_exit = 0;
		note_quiescent_state(cpu);
		atomic_fetch_add(&rdp->eqs_seq, 1);
	}
}

void rcu_tick(void)
{
	unsigned int cpu = this_cpu_id();

	if (!READ_ONCE(rcu_ready))
		return;
	rcu_callbacks_tick();
	rcu_exp_tick();
	/* cpu0 keeps time for the GP thread's scans. */
	if (cpu == 0 && (READ_ONCE(rcu_state.gp_seq) & 1) &&
	    (unsigned int)jiffies - READ_ONCE(rcu_state.gp_start_jiffies) >=
	    RCU_NUDGE_TICKS) {
		WRITE_ONCE(rcu_state.fqs_due, true);
		wake_up_all(&rcu_state.gp_wait);
	}
}

void rcu_request_gp(unsigned long snap)
{
	unsigned long flags;
	bool wake = false;

	if (rcu_seq_done(READ_ONCE(rcu_state.gp_seq_needed), snap))
		return;
	flags = spin_lock_irqsave(&rcu_state.request_lock);
	if (!rcu_seq_done(rcu_state.gp_seq_needed, snap)) {
		WRITE_ONCE(rcu_state.gp_seq_needed, snap);
		wake = true;
	}
	spin_unlock_irqrestore(&rcu_state.request_lock, flags);
	if (wake)
		wake_up_all(&rcu_state.gp_wait);
}

static bool gp_needed(void)
{
	return !rcu_seq_done(READ_ONCE(rcu_state.gp_seq),
			     READ_ONCE(rcu_state.gp_seq_needed));
}

/* Which CPUs of `leaf` the grace period must wait for: the online ones
 * that are not idle. Samples each CPU's idle counter for the FQS scan. */
static u64 leaf_wait_mask(const struct rcu_node *leaf)
{
	unsigned int i, cpu;
	u64 mask = 0;

	for (i = 0; i < RCU_LEAF_FANOUT; i++) {
		cpu = leaf->first_cpu + i;
		if (cpu >= nr_cpus || !READ_ONCE(cpu_area(cpu)->online))
			continue;
		rcu_data[cpu].eqs_snapshot = READ_ONCE(rcu_data[cpu].eqs_seq);
		if (!(rcu_data[cpu].eqs_snapshot & 1))
			mask |= 1ull << i;
		if (rcu_bug(RCU_BUG_FORGET_CPU) && cpu == nr_cpus - 1 &&
		    cpu != this_cpu_id())
			mask &= ~(1ull << i);
	}
	return mask;
}

/* Publish a node's mask and grace period together, under its lock: a
 * CPU that sees the node's new gp_seq (see note_quiescent_state()) can
 * rely on its bit being set. */
static void node_start(struct rcu_node *node, unsigned long gp, u64 mask)
{
	raw_spin_lock(&node->lock);
	node->qsmask = mask;
	WRITE_ONCE(node->gp_seq, gp);
	raw_spin_unlock(&node->lock);
}

/*
 * Start grace period gp. The masks are computed first and published
 * root first, leaves after: a leaf that empties can then always clear its
 * bit in a root that is already set up, and no report can be overwritten
 * by set-up still in progress.
 */
static void gp_start(void)
{
	static u64 leaf_masks[RCU_MAX_LEAVES];
	unsigned long flags = arch_irq_save();
	unsigned long gp = rcu_state.gp_seq + 1;
	u64 root_mask = 0;
	unsigned int i;

	rcu_state.gp_start_ns = clock_ns();
	WRITE_ONCE(rcu_state.gp_start_jiffies, (unsigned int)jiffies);
	rcu_state.next_stall_ns = rcu_state.gp_start_ns +
				  rcu_stall_timeout_ms * NSEC_PER_MSEC;
	WRITE_ONCE(rcu_state.fqs_due, false);
	WRITE_ONCE(rcu_state.gp_seq, gp);
	/* Full barrier: the new gp_seq (and every update the callers made
	 * before asking for this grace period) is visible before we sample
	 * the idle counters; pairs with the barrier in rcu_idle_exit(). */
	smp_mb();
	if (rcu_state.nr_leaves == 1) {
		node_start(&rcu_state.root, gp, leaf_wait_mask(&rcu_state.root));
	} else {
		for (i = 0; i < rcu_state.nr_leaves; i++) {
			leaf_masks[i] = leaf_wait_mask(&rcu_state.leaves[i]);
			if (leaf_masks[i])
				root_mask |= 1ull << i;
		}
		node_start(&rcu_state.root, gp, root_mask);
		for (i = 0; i < rcu_state.nr_leaves; i++)
			node_start(&rcu_state.leaves[i], gp, leaf_masks[i]);
	}
	/* This thread is in a quiescent state itself. */
	note_quiescent_state(this_cpu_id());
	arch_irq_restore(flags);
}

static bool gp_complete(void)
{
	return READ_ONCE(rcu_state.root.qsmask) == 0;
}

static void gp_end(void)
{
	struct rcu_node *root = &rcu_state.root;
	unsigned long flags = spin_lock_irqsave(&root->lock);
	u64 took = clock_ns() - rcu_state.gp_start_ns;

	/* Release: every report that emptied the tree happened before;
	 * pairs with the acquire loads of gp_seq in synchronize_rcu(),
	 * poll_state_synchronize_rcu() and the callbacks' advance. */
	smp_store_release(&rcu_state.gp_seq, rcu_state.gp_seq + 1);
	rcu_state.gps_completed++;
	spin_unlock_irqrestore(&root->lock, flags);
	rcu_record_latency(took);
	wake_up_all(&rcu_state.gp_done);
}

static void gp_thread_fn(void *unused)
{
	(void)unused;
	for (;;) {
		wait_event(&rcu_state.gp_wait, gp_needed());
		gp_start();
		for (;;) {
			wait_event(&rcu_state.gp_wait, gp_complete() ||
				   READ_ONCE(rcu_state.fqs_due));
			if (gp_complete())
				break;
			WRITE_ONCE(rcu_state.fqs_due, false);
			WRITE_ONCE(rcu_state.gp_start_jiffies,
				   (unsigned int)jiffies);
			rcu_force_quiescent_states();
			rcu_check_stall();
		}
		gp_end();
	}
}

unsigned long get_state_synchronize_rcu(void)
{
	/* Full barrier: the caller's earlier updates come before the
	 * sample of gp_seq, so a grace period that has already started
	 * (and might miss those updates' readers) is not counted. */
	smp_mb();
	return rcu_seq_snap(READ_ONCE(rcu_state.gp_seq));
}

bool poll_state_synchronize_rcu(unsigned long cookie)
{
	/* Acquire pairs with gp_end()'s release store. */
	return rcu_seq_done(smp_load_acquire(&rcu_state.gp_seq), cookie);
}

void synchronize_rcu(void)
{
	unsigned long cookie = get_state_synchronize_rcu();

	rcu_request_gp(cookie);
	wait_event(&rcu_state.gp_done, poll_state_synchronize_rcu(cookie));
}

void cond_synchronize_rcu(unsigned long cookie)
{
	if (!poll_state_synchronize_rcu(cookie)) {
		rcu_request_gp(cookie);
		wait_event(&rcu_state.gp_done,
			   poll_state_synchronize_rcu(cookie));
	}
}

__init void rcu_init(void)
{
	unsigned int i, cpu;

	rcu_inject_init();
	rcu_exp_init();
	spin_lock_init(&rcu_state.request_lock);
	wait_queue_init(&rcu_state.gp_wait);
	wait_queue_init(&rcu_state.gp_done);
	spin_lock_init(&rcu_state.root.lock);
	rcu_state.nr_leaves = nr_cpus <= RCU_LEAF_FANOUT ? 1 :
			      DIV_ROUND_UP(nr_cpus, RCU_LEAF_FANOUT);
	for (i = 0; i < rcu_state.nr_leaves; i++) {
		spin_lock_init(&rcu_state.leaves[i].lock);
		rcu_state.leaves[i].first_cpu = i * RCU_LEAF_FANOUT;
		rcu_state.leaves[i].index = i;
	}
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		rcu_cblist_init(&rcu_data[cpu].cbs);
		wait_queue_init(&rcu_data[cpu].cb_wait);
	}
	pr_info("rcu: %u CPUs in %u leaf node%s of up to %u, stall warnings "
		"after %u ms\n", nr_cpus, rcu_state.nr_leaves,
		rcu_state.nr_leaves == 1 ? "" : "s", RCU_LEAF_FANOUT,
		rcu_stall_timeout_ms);
}

__init void rcu_start_kthreads(void)
{
	rcu_state.gp_thread = thread_create(gp_thread_fn, NULL, "rcu_gp");
	if (!rcu_state.gp_thread)
		panic("rcu: no memory for the grace-period thread");
	rcu_cb_threads_start();
	WRITE_ONCE(rcu_ready, true);
}

void rcu_read_unlock_underflow(void)
{
	panic("BUG: rcu_read_unlock() without rcu_read_lock() (thread %s)",
	      current_thread() ? current_thread()->name : "?");
}

void rcu_dereference_warn(const char *file, int line)
{
	pr_warn("WARNING: suspicious rcu_dereference_check() usage at %s:%d:"
		" no rcu_read_lock() held and no other protection given\n",
		file, line);
	arch_dump_stack();
}
