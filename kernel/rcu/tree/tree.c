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
 *  2. Starts it in one thread, "rcu_gp" (gp.c). At the start it fills
 *     each leaf of a combining tree (16 CPUs a leaf, 64 children an
 *     interior node, up to four levels, as in Linux's Tree RCU; its shape
 *     is geometry.c's) with a bit per online CPU that is not idle, and
 *     each interior node with a bit per child that waits for anything.
 *     An idle CPU is in an extended quiescent state: its eqs_seq counter
 *     is odd, and it owes nothing, so RCU never wakes an idle CPU.
 *
 *  3. Collects quiescent states without shared writes on the fast path
 *     (quiescent.c holds the hooks that find them).
 *     Each pass through schedule() calls rcu_note_context_switch(), which
 *     compares the CPU's last-seen grace period with gp_seq (one read of
 *     a read-mostly line); only the first quiescent state of a new grace
 *     period takes the leaf lock and clears the CPU's bit. The last CPU
 *     of a leaf clears the leaf's bit in its parent, the last child of
 *     an interior node the node's bit in its own parent, and so up; the
 *     root's last wakes rcu_gp (report.c). So each CPU writes one leaf
 *     line per grace period, and each node one line of its parent.
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
 *  5. Ends it: gp_seq becomes even in every node and then globally,
 *     synchronize_rcu() callers wake, and each CPU's tick moves its
 *     callbacks whose grace period is over to the DONE segment of its
 *     list (cblist.c), to be invoked by its own "rcuc" thread
 *     (callbacks.c). An idle CPU that holds callbacks
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
#include "tree.h"
#include "kernel/cmdline.h"
#include "kernel/init.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/race.h"
#include "kernel/time.h"
#include "lib/atomic.h"

struct rcu_state rcu_state;
/* No leaf until rcu_setup() builds the tree, which it does before the
 * first context switch. Every node's gp_seq stays 0 (no grace period)
 * until rcu_start_kthreads(): the APs schedule before RCU is set up.
 * Every CPU starts in the extended quiescent state of a CPU that is not
 * running, and leaves it itself as it starts: so no guess by another CPU
 * can race with an AP that starts late. */
#define RCU_DATA_BOOT { .eqs_seq = 1 }

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
	/* Between the two checks: another request may store meanwhile. */
	race_window(RACE_GP_REQUEST);
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
	/* Stored, the GP thread not yet told. */
	race_window(RACE_GP_REQUEST_WAKE);
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
	wait_event(&rcu_state.gp_wait, rcu_gp_complete() ||
		   READ_ONCE(rcu_state.fqs_due));
	timer_cancel(&rcu_state.fqs_timer);
	WRITE_ONCE(rcu_state.fqs_due, false);
	return rcu_gp_complete();
}

static void gp_thread_fn(void *unused)
{
	(void)unused;
	for (;;) {
		wait_event(&rcu_state.gp_wait, gp_needed());
		rcu_gp_start();
		for (;;) {
			if (gp_wait_for_reports())
				break;
			rcu_force_quiescent_states();
			rcu_preempt_boost((clock_ns() - rcu_state.gp_start_ns) /
					  NSEC_PER_MSEC);
			rcu_check_stall();
		}
		rcu_gp_end();
	}
}

/* The engine's synchronize_rcu(): wait for the grace period the snapshot
 * names on gp_done, which rcu_gp_end() wakes. */
void rcu_tree_synchronize(void)
{
	unsigned long snap = rcu_gp_snap();

	rcu_tree_request_gp(snap);
	wait_event(&rcu_state.gp_done, rcu_gp_done(snap));
}

/**
 * rcu_init - set up the grace-period machinery and the per-CPU RCU state
 *
 * Context: boot, once, on the boot CPU, after the APs are up and the tree
 * built (rcu_setup()), and before any call_rcu() or synchronize_*().
 * Does not sleep. The APs may already be ticking; rcu_tick() ignores
 * RCU until rcu_start_kthreads() publishes what this sets up.
 */
__init void rcu_tree_init(void)
{
	unsigned int cpu;

	rcu_exp_init();
	spin_lock_init(&rcu_state.request_lock);
	wait_queue_init(&rcu_state.gp_wait);
	rcu_state.fqs_timer.fn = fqs_alarm;
	wait_queue_init(&rcu_state.gp_done);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		rcu_cblist_init(&rcu_data[cpu].cbs);
		wait_queue_init(&rcu_data[cpu].cb_wait);
	}
	pr_info("rcu: %s, %u CPUs in a tree of %s, stall warnings after "
		"%u ms\n", RCU_FLAVOUR_NAME, nr_cpus, rcu_tree_shape,
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
