/*
 * Read-copy-update: the grace-period engine.
 *
 * A grace period ends once every CPU has passed through a quiescent
 * state since it began. Readers run with preemption disabled and may not
 * sleep, so a CPU is quiescent whenever it passes through schedule(), and
 * all the time it is idle. (In the preemptible flavour a reader may be
 * switched out; the switch still counts for its CPU, and the reader is
 * queued on the CPU's leaf, which answers for it: kernel/rcu/flavour.h
 * names the few places below where that matters.) The engine:
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
 *  3. Collects quiescent states without shared writes on the fast path
 *     (quiescent.c holds the hooks that find them).
 *     Each pass through schedule() calls rcu_note_context_switch(), which
 *     compares the CPU's last-seen grace period with gp_seq (one read of
 *     a read-mostly line); only the first quiescent state of a new grace
 *     period takes the leaf lock and clears the CPU's bit. The last CPU
 *     of a leaf clears the leaf's bit in the root, and the last leaf
 *     wakes rcu_gp. So each CPU writes one leaf line per grace period,
 *     and each leaf one root line.
 *
 *  4. Forces the stragglers. rcu_gp sets itself an alarm (a timer, so
 *     it comes while idle CPUs have stopped their ticks) and scans every
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
 *     the DONE segment of its list (cblist.c), to be invoked by its
 *     own "rcuc" thread (callbacks.c). An idle CPU that holds callbacks
 *     keeps a wake-up every RCU_IDLE_WAKE_TICKS for that
 *     (rcu_needs_cpu(), kernel/sched/tick.c); one with none sleeps.
 *
 * Expedited grace periods (exp.c) skip the wait for the scheduler
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
#include "inject.h"
#include "internal.h"
#include "kernel/cmdline.h"
#include "kernel/init.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/race.h"
#include "lib/atomic.h"
#include "lib/format.h"

/* The root's blocked-readers list is ready before rcu_init(): until then
 * every CPU reports to the root. */
struct rcu_state rcu_state = {
#if CONFIG_PREEMPT_RCU
	.root.blkd_tasks = LIST_HEAD_INIT(rcu_state.root.blkd_tasks),
#endif
};
/* Until rcu_init() builds the tree every CPU points at the root, whose
 * gp_seq stays 0 (no grace period) until then: the APs schedule before
 * RCU is set up. Every CPU starts in the extended quiescent state of a
 * CPU that is not running, and leaves it itself as it starts: so no
 * guess by another CPU can race with an AP that starts late. */
#define RCU_DATA_BOOT { .leaf = &rcu_state.root, .leaf_bit = 1, .eqs_seq = 1 }

static void rcu_data_boot_init(void *elem, unsigned int cpu)
{
	(void)cpu;
	*(struct rcu_data *)elem = (struct rcu_data)RCU_DATA_BOOT;
}

/* The boot CPU's element is static until percpu_arrays_alloc(): its
 * first hook runs in kmain() before the allocator exists. */
DEFINE_PERCPU_ARRAY_BOOT(struct rcu_data, rcu_data, rcu_data_boot_init,
			 RCU_DATA_BOOT);
static bool rcu_ready;

unsigned int rcu_stall_timeout_ms = 5000;
CMDLINE_UINT("rcu.stall_timeout_ms", rcu_stall_timeout_ms, 10, 600000,
	     "warn when a grace period is older than this");

unsigned int rcu_fanout_leaf = RCU_FANOUT_LEAF_DEFAULT;
CMDLINE_UINT("rcu.fanout_leaf", rcu_fanout_leaf, RCU_FANOUT_LEAF_MIN,
	     RCU_FANOUT_LEAF_MAX,
	     "CPUs per leaf of the combining tree (Linux's "
	     "rcutree.rcu_fanout_leaf)");

/* The leaf size asked for, unless the root (a bit per leaf) could not
 * hold that many leaves: then the smallest that fits, said once. */
static __init unsigned int fanout_leaf_for(unsigned int cpus)
{
	unsigned int least = DIV_ROUND_UP(cpus, RCU_MAX_LEAVES);

	if (rcu_fanout_leaf >= least)
		return rcu_fanout_leaf;
	pr_err("rcu: rcu.fanout_leaf=%u would need more than %u leaves for "
	       "%u CPUs; expected at least %u, using %u\n", rcu_fanout_leaf,
	       RCU_MAX_LEAVES, cpus, least, least);
	return least;
}

/* Whether a node still waits for anything in its grace period: CPUs
 * (or, in the root, leaves) that have not reported, or readers
 * preempted before it began. Under the node's lock. */
static bool node_waits(const struct rcu_node *node)
{
	return node->qsmask || rcu_preempt_blocks_gp(node);
}

void rcu_report_node_done(struct rcu_node *node, unsigned long gp_seq)
{
	struct rcu_node *root = &rcu_state.root;
	bool wake = false;

	if (node_waits(node) || node == root) {
		wake = node == root && !node_waits(node);
		raw_spin_unlock(&node->lock);
	} else {
		raw_spin_unlock(&node->lock);
		/* The leaf is empty, the root not yet told. */
		race_window(RACE_QS_REPORT);
		rcu_node_lock(root);
		if (root->gp_seq == gp_seq && (root->qsmask & (1ull << node->index))) {
			root->qsmask &= ~(1ull << node->index);
			root->shared_writes++;
			wake = root->qsmask == 0;
		}
		raw_spin_unlock(&root->lock);
	}
	if (wake)
		wake_up_all(&rcu_state.gp_wait);
}

/* Clear `bit` in `node` for grace period gp_seq, climbing to the root
 * when the node empties. Interrupts off. */
static void report_up(struct rcu_node *node, u64 bit, unsigned long gp_seq)
{
	rcu_node_lock(node);
	if (node->gp_seq != gp_seq || !(node->qsmask & bit)) {
		raw_spin_unlock(&node->lock);
		return;		/* stale, or reported already */
	}
	node->qsmask &= ~bit;
	node->shared_writes++;
	rcu_report_node_done(node, gp_seq);
}

/* Report cpu's quiescent state for gp_seq (by the CPU itself, or by the
 * GP thread on behalf of an idle one). */
void rcu_report_qs(unsigned int cpu, unsigned long gp_seq)
{
	unsigned long flags = arch_irq_save();

	race_window(RACE_QS_REPORT);
	report_up(rcu_data[cpu].leaf, rcu_data[cpu].leaf_bit, gp_seq);
	arch_irq_restore(flags);
}

void rcu_tree_tick(void)
{
	/* Acquire: the APs tick before rcu_init() runs; seeing rcu_ready,
	 * this CPU also sees the callback lists, wait queues and kthreads
	 * set up before it. Pairs with the release in rcu_start_kthreads(). */
	if (!smp_load_acquire(&rcu_ready))
		return;
	rcu_callbacks_tick();
	rcu_exp_tick();
	rcu_preempt_tick();
}

void rcu_tree_request_gp(unsigned long snap)
{
	unsigned long flags;
	bool wake = false;

	/* Double-checked, lock-free: gp_seq_needed only grows, and whoever
	 * stored a value covering snap wakes the GP thread after it, so a
	 * hit is safe; a stale miss takes the lock and checks again. */
	if (rcu_seq_done(READ_ONCE(rcu_state.gp_seq_needed), snap))
		return;
	/* Interrupts stay off until the wake-up: later requesters count on
	 * it and return above, so a requester preempted between its store
	 * and its wake-up (a thread pinned to a CPU going down, or behind a
	 * real-time hog) would hold every grace period up with it. */
	flags = arch_irq_save();
	raw_spin_lock(&rcu_state.request_lock);
	if (!rcu_seq_done(rcu_state.gp_seq_needed, snap)) {
		/* Read lock-free above and in gp_needed(); the GP thread
		 * sees it through gp_wait's lock in wake_up_all() below. */
		WRITE_ONCE(rcu_state.gp_seq_needed, snap);
		wake = true;
	}
	raw_spin_unlock(&rcu_state.request_lock);
	if (wake)
		wake_up_all(&rcu_state.gp_wait);
	arch_irq_restore(flags);
}

/* The GP thread's wait condition: gp_seq is its own; gp_seq_needed is
 * ordered by gp_wait's lock (see rcu_request_gp()). */
static bool gp_needed(void)
{
	return !rcu_seq_done(READ_ONCE(rcu_state.gp_seq),
			     READ_ONCE(rcu_state.gp_seq_needed));
}

/* Which CPUs of `leaf` the grace period must wait for: those not in an
 * extended quiescent state (idle, or offline: parked CPUs, and CPUs that
 * never came up, are in one for good). Not the online flag: cpu_down()
 * clears it before the CPU has finished the reader it may be in, and
 * the hotplug torture caught a grace period that ended under such a
 * reader. Samples each CPU's idle counter for the FQS scan. */
static u64 leaf_wait_mask(const struct rcu_node *leaf)
{
	unsigned int i, cpu;
	u64 mask = 0;

	for (i = 0; i < rcu_fanout_leaf; i++) {
		cpu = leaf->first_cpu + i;
		if (cpu >= nr_cpus)
			continue;
		/* After gp_start()'s smp_mb(). Odd: the locked increment in
		 * rcu_idle_enter() or rcu_irq_exit() put the CPU's readers
		 * before this load, which node_start()'s locked ticket add
		 * keeps before the grace period's end (as x86-TSO would
		 * anyway); the barrier in rcu_idle_exit() or rcu_irq_enter()
		 * makes its next readers see the updates made before this
		 * grace period. eqs_snapshot is this thread's alone. */
		rcu_data[cpu].eqs_snapshot = READ_ONCE(rcu_data[cpu].eqs_seq);
		rcu_data[cpu].ticks_snapshot = READ_ONCE(cpu_area(cpu)->ticks);
		rcu_data[cpu].switches_snapshot =
			READ_ONCE(rcu_data[cpu].context_switches);
		rcu_data[cpu].nudges_snapshot = rcu_data[cpu].nudges;
		rcu_data[cpu].found_running_snapshot =
			rcu_data[cpu].found_running;
		if (!(rcu_data[cpu].eqs_snapshot & 1))
			mask |= 1ull << i;
		if (rcu_bug(RCU_BUG_FORGET_CPU) && cpu == nr_cpus - 1 &&
		    cpu != this_cpu_id())
			mask &= ~(1ull << i);
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
 * CPU that sees the node's new gp_seq (see note_quiescent_state()) can
 * rely on its bit being set. A leaf's readers preempted before now wait
 * with its CPUs; if the root waits for a leaf that has nothing left
 * (its readers ended since the root's mask was made), report it now. */
static void node_start(struct rcu_node *node, unsigned long gp, u64 mask,
		       bool root_waits)
{
	rcu_node_lock(node);
	node->qsmask = mask;
	node->shared_writes++;
	rcu_preempt_gp_start_leaf(node);
	/* ONCE for note_quiescent_state()'s lock-free peek; report_up()
	 * reads both fields under the lock. */
	WRITE_ONCE(node->gp_seq, gp);
	if (root_waits && !node_waits(node)) {
		rcu_report_node_done(node, gp);
		return;
	}
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
	if (rcu_state.nr_leaves == 1) {
		node_start(&rcu_state.root, gp, leaf_wait_mask(&rcu_state.root),
			   false);
	} else {
		for (i = 0; i < rcu_state.nr_leaves; i++) {
			struct rcu_node *leaf = &rcu_state.leaves[i];

			leaf_masks[i] = leaf_wait_mask(leaf);
			if (leaf_masks[i] || leaf_has_blocked_readers(leaf))
				root_mask |= 1ull << i;
		}
		node_start(&rcu_state.root, gp, root_mask, false);
		/* A window after each node takes the grace period: the
		 * reports of a leaf that empties at once must still reach
		 * the root, whichever node took it first. */
		for (i = 0; i < rcu_state.nr_leaves; i++) {
			node_start(&rcu_state.leaves[i], gp, leaf_masks[i],
				   root_mask & (1ull << i));
			race_window(RACE_GP_START);
		}
	}
	trace_event(TRACE_RCU, this_cpu_id(), TRACE_GP_START, 0,
		    rcu_gp_number(gp), 0);
	/* This thread is in a quiescent state itself. */
	note_quiescent_state(this_cpu_id(), TRACE_QS_GP_THREAD);
	arch_irq_restore(flags);
}

/* Lock-free test in the GP thread's wait: report_up() clears the last
 * bit (and the last blocked reader leaves the root's list) under the
 * root lock, then wakes gp_wait, whose lock orders that store before
 * this re-test. gp_end() then takes the root lock, which orders every
 * report before the end. */
static bool gp_complete(void)
{
	/* qsmask first, with acquire, then the blocked readers: when the
	 * root is the only leaf, a reader is queued on it (gp_tasks set)
	 * before its CPU's report clears its bit, both under the root's
	 * lock; reading in the other order could miss both. */
	return smp_load_acquire(&rcu_state.root.qsmask) == 0 &&
	       !rcu_preempt_blocks_gp_hint(&rcu_state.root);
}

static void gp_end(void)
{
	struct rcu_node *root = &rcu_state.root;
	unsigned long flags = rcu_node_lock_irqsave(root);
	u64 took = clock_ns() - rcu_state.gp_start_ns;

	/* Release: every report that emptied the tree happened before;
	 * pairs with the acquire loads of gp_seq in synchronize_rcu(),
	 * poll_state_synchronize_rcu() and the callbacks' advance. */
	smp_store_release(&rcu_state.gp_seq, rcu_state.gp_seq + 1);
	rcu_state.gp_seq_writes++;
	rcu_state.gps_completed++;	/* statistics, read lock-free */
	trace_event(TRACE_RCU, this_cpu_id(), TRACE_GP_END, 0,
		    rcu_gp_number(rcu_state.gp_seq), took);
	spin_unlock_irqrestore(&root->lock, flags);
	rcu_record_latency(took);
	wake_up_all(&rcu_state.gp_done);
}

/* fqs_timer's function, in its CPU's timer interrupt. fqs_due reaches
 * the GP thread through gp_wait's lock, taken by wake_up_all() after the
 * store and by the waiter's prepare_to_wait() before its test. */
static void fqs_alarm(void *unused)
{
	(void)unused;
	WRITE_ONCE(rcu_state.fqs_due, true);
	wake_up_all(&rcu_state.gp_wait);
}

/* Sleep until the grace period completes or the alarm asks for a scan;
 * true if it completed. The alarm is cancelled before the return, so it
 * never fires into the next wait. */
static bool gp_wait_for_reports(void)
{
	timer_add(&rcu_state.fqs_timer,
		  clock_ns() + RCU_NUDGE_TICKS * tick_period_ns());
	wait_event(&rcu_state.gp_wait, gp_complete() ||
		   READ_ONCE(rcu_state.fqs_due));
	timer_cancel(&rcu_state.fqs_timer);
	WRITE_ONCE(rcu_state.fqs_due, false);
	return gp_complete();
}

static void gp_thread_fn(void *unused)
{
	(void)unused;
	for (;;) {
		wait_event(&rcu_state.gp_wait, gp_needed());
		gp_start();
		for (;;) {
			if (gp_wait_for_reports())
				break;
			rcu_force_quiescent_states();
			rcu_preempt_boost((clock_ns() - rcu_state.gp_start_ns) /
					  NSEC_PER_MSEC);
			rcu_check_stall();
		}
		gp_end();
	}
}

/* The engine's synchronize_rcu(): wait for the grace period the snapshot
 * names on gp_done, which gp_end() wakes. */
void rcu_tree_synchronize(void)
{
	unsigned long snap = rcu_gp_snap();

	rcu_tree_request_gp(snap);
	wait_event(&rcu_state.gp_done, rcu_gp_done(snap));
}

/**
 * rcu_init - set up the combining tree and the per-CPU RCU state
 *
 * Context: boot, once, on the boot CPU, after the APs are up (the tree's
 * size follows nr_cpus) and before any call_rcu() or synchronize_*().
 * Does not sleep. The APs may already be ticking; rcu_tick() ignores
 * RCU until rcu_start_kthreads() publishes what this sets up.
 */
__init void rcu_tree_init(void)
{
	unsigned int i, cpu;

	rcu_exp_init();
	spin_lock_init(&rcu_state.request_lock);
	wait_queue_init(&rcu_state.gp_wait);
	rcu_state.fqs_timer.fn = fqs_alarm;
	wait_queue_init(&rcu_state.gp_done);
	spin_lock_init(&rcu_state.root.lock);
	rcu_fanout_leaf = fanout_leaf_for(nr_cpus);
	rcu_state.nr_leaves = DIV_ROUND_UP(nr_cpus, rcu_fanout_leaf);
	for (i = 0; i < rcu_state.nr_leaves; i++) {
		spin_lock_init(&rcu_state.leaves[i].lock);
		rcu_state.leaves[i].first_cpu = i * rcu_fanout_leaf;
		rcu_state.leaves[i].index = i;
		rcu_preempt_init_node(&rcu_state.leaves[i]);
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct rcu_node *leaf = rcu_leaf(cpu / rcu_fanout_leaf);

		/* Read by its CPU in note_quiescent_state(), which finds
		 * no grace period running in either node until
		 * rcu_start_kthreads(). */
		WRITE_ONCE(rcu_data[cpu].leaf_bit,
			   1ull << (cpu - leaf->first_cpu));
		WRITE_ONCE(rcu_data[cpu].leaf, leaf);
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		rcu_cblist_init(&rcu_data[cpu].cbs);
		wait_queue_init(&rcu_data[cpu].cb_wait);
	}
	pr_info("rcu: %s, %u CPUs in %u leaf node%s of up to %u, stall "
		"warnings after %u ms\n", RCU_FLAVOUR_NAME, nr_cpus, rcu_state.nr_leaves,
		rcu_state.nr_leaves == 1 ? "" : "s", rcu_fanout_leaf,
		rcu_stall_timeout_ms);
}

/**
 * rcu_start_kthreads - start the "rcu_gp" and per-CPU "rcuc" threads
 *
 * Context: boot, once, in thread context after rcu_init(); allocates, and
 * panics if there is no memory. Until it runs, callbacks are queued but
 * not invoked, and synchronize_rcu() would wait for ever.
 * A release store of rcu_ready publishes rcu_init()'s set-up and the
 * threads to every CPU's tick (the acquire in rcu_tick()).
 */
__init void rcu_tree_start_kthreads(void)
{
	/* On the boot CPU, which never goes offline, as Linux keeps its
	 * grace-period kthread on housekeeping CPUs: a CPU left to one busy
	 * thread is then disturbed by the nudge alone, not by this thread's
	 * wake-ups, and hotplug never has to move it. */
	rcu_state.gp_thread = thread_create_on(gp_thread_fn, NULL, "rcu_gp", 0);
	if (!rcu_state.gp_thread)
		panic("rcu: no memory for the grace-period thread");
	rcu_cb_threads_start();
	/* Release: rcu_init()'s set-up and the kthreads are visible to a
	 * tick that sees rcu_ready; pairs with the acquire in rcu_tick(). */
	smp_store_release(&rcu_ready, true);
}
