/*
 * Classic RCU: the engine of Linux 2.6.0's kernel/rcupdate.c, the one the
 * 2003 article describes, chosen with rcu.engine=classic (engine.h).
 *
 * A grace period is a "batch". Everything about batches lives in one
 * control block, rcu_ctrlblk, under one lock: the number of the batch
 * that runs (curbatch), the latest one asked for (maxbatch), and a
 * cpumask of the CPUs that still owe the running batch a quiescent
 * state. Each CPU keeps two counters of its own:
 *
 *  - qsctr counts its quiescent states: every pass through schedule()
 *    (rcu_note_context_switch()), and every tick that finds it halted in
 *    its idle loop. A reader runs with preemption off and never sleeps,
 *    so a CPU that has done either holds no reader it held before.
 *  - last_qsctr is qsctr's value when the CPU first saw, from its own
 *    tick, that it owes the running batch; RCU_QSCTR_INVALID until then.
 *
 * Every tick of every CPU, classic_tick():
 *  1. counts an idle tick as a quiescent state;
 *  2. moves the CPU's callbacks along (callbacks.c): a "current" list
 *     whose batch is over goes to the callback thread; a "next" list
 *     moves up into "current" when that is empty, tagged with batch
 *     curbatch + 1, and asks for that batch under the lock
 *     (classic_start_batch());
 *  3. checks for a quiescent state (check_quiescent_state()): if its bit
 *     is set, it takes the snapshot on first sight, and once qsctr has
 *     moved past it, takes the lock and clears its bit; the CPU that
 *     clears the last bit ends the batch and starts the next one asked
 *     for, with the online CPUs' bits (classic_start_batch()).
 *
 * How it differs from the tree engine (tree/tree.c), and why Linux replaced
 * it in 2.6.29:
 *  - Every CPU that reports takes the one lock and writes the one
 *    cpumask: each batch costs nr_cpus acquisitions of a single line
 *    that every CPU writes. The tree takes a leaf's lock per CPU and the
 *    root's once per leaf, and a CPU's peek at the grace period reads a
 *    read-mostly line.
 *  - There is no grace-period thread and no forcing scan: the ticks
 *    move batches along (a request, rcu_request_gp(), may start one, and
 *    a CPU going down may end one). An idle CPU keeps its tick, and is
 *    counted by it; the tree leaves idle CPUs alone in extended
 *    quiescent states.
 *  - A CPU that does not schedule holds the batch up until its time
 *    slice would end: after CLASSIC_RESCHED_TICKS ticks of owing, its
 *    own tick asks its scheduler for a pass through schedule(), as the
 *    end of a 2.6.0 time slice did. The tree nudges it with an IPI.
 *  - Callbacks queued while no batch runs wait for curbatch + 1, the
 *    batch after the one they start: two batches from idle, as 2.6.0.
 *
 * Memory ordering. A CPU's readers come before its quiescent state in
 * program order, and before its locked report; the reports of all CPUs
 * are chained by the lock; the last one ends the batch with a release
 * store of curbatch (and gp_seq), which a CPU reads with acquire before
 * it hands that batch's callbacks to its callback thread. A batch's start
 * makes gp_seq odd and then, after a full barrier, sets the bits: a CPU
 * that sees its bit takes its snapshot after the start, and an updater's
 * rcu_gp_snap() either sees the batch started or has its update seen by
 * every reader that begins after that CPU saw its bit. A callback gets
 * its batch from curbatch read under the lock by its CPU's tick, after
 * the caller's unpublishing store in program order (x86-TSO keeps a
 * store before a later locked instruction).
 */
#include "classic.h"
#include "kernel/rcu/inject.h"
#include "kernel/rcu/hooks.h"
#include "kernel/init.h"
#include "kernel/printk.h"
#include "kernel/race.h"
#include "kernel/time.h"
#include "kernel/trace/trace.h"
#include "lib/atomic.h"

struct rcu_ctrlblk rcu_ctrlblk = {
	.lock = SPINLOCK_INIT,
	.curbatch = 1,
	.maxbatch = 1,
	.gp_wait = WAIT_QUEUE_INIT(rcu_ctrlblk.gp_wait),
};
DEFINE_PERCPU_ARRAY(struct classic_data, classic_data);
/* Published with release once the callback lists and threads exist: the
 * ticks ignore RCU until then. */
bool classic_ready;

/* The lock, with the wait for it counted for the engine comparison. */
unsigned long classic_lock(void)
{
	u64 start = clock_ns();
	unsigned long flags = spin_lock_irqsave(&rcu_ctrlblk.lock);

	rcu_ctrlblk.lock_acquisitions++;
	rcu_ctrlblk.lock_wait_ns += clock_ns() - start;
	return flags;
}

void classic_unlock(unsigned long flags)
{
	spin_unlock_irqrestore(&rcu_ctrlblk.lock, flags);
}

/* Whether cpu's bit is set, without the lock: only cpu clears it (its
 * tick, or its rcu_cpu_dying()), so cpu's own peek sees its own clears;
 * a set made by a batch's start may be seen a tick late, which only
 * delays the snapshot. Another CPU's peek is a hint. */
bool classic_peek_owes(unsigned int cpu)
{
	return READ_ONCE(rcu_ctrlblk.cpumask.bits[cpu / 64]) &
	       (1ull << (cpu % 64));
}

/* Clear cpu's bit, lock held: WRITE_ONCE for classic_peek_owes(). */
static void classic_clear_owes(unsigned int cpu)
{
	u64 *word = &rcu_ctrlblk.cpumask.bits[cpu / 64];

	WRITE_ONCE(*word, *word & ~(1ull << (cpu % 64)));
}

/* 2.6.0's rcu_start_batch(): ask for newbatch, and if no batch runs and
 * one is wanted, start curbatch with every online CPU owing. Lock held. */
void classic_start_batch(long newbatch)
{
	struct rcu_ctrlblk *rcp = &rcu_ctrlblk;
	unsigned int i;

	if (classic_batch_before(rcp->maxbatch, newbatch))
		rcp->maxbatch = newbatch;
	if (classic_batch_before(rcp->maxbatch, rcp->curbatch) ||
	    rcp->nr_owing)
		return;
	WRITE_ONCE(rcp->gp_seq, rcp->gp_seq + 1);	/* odd: running */
	/* Full barrier: gp_seq odd before any bit is seen, so a CPU that
	 * sees its bit snapshots after the start; pairs with the smp_mb()
	 * of rcu_gp_snap() (see the header). */
	smp_mb();
	race_window(RACE_GP_START);
	for (i = 0; i < ARRAY_SIZE(rcp->cpumask.bits); i++)
		WRITE_ONCE(rcp->cpumask.bits[i], rcp->online.bits[i]);
	/* ONCE: classic_check_stall() peeks at it. */
	WRITE_ONCE(rcp->nr_owing, cpumask_weight(&rcp->online));
	if (rcu_bug(RCU_BUG_FORGET_CPU) && rcp->nr_owing > 1) {
		/* The injected bug: the highest online CPU is left out. */
		for (i = nr_cpus; i-- > 0;)
			if (cpumask_test(&rcp->cpumask, i))
				break;
		classic_clear_owes(i);
		WRITE_ONCE(rcp->nr_owing, rcp->nr_owing - 1);
	}
	rcp->shared_writes += 2;	/* the mask's line, gp_seq's */
	/* ONCE: the ticks' hints (ask_for_schedule(), the stall check). */
	WRITE_ONCE(rcp->batch_start_ns, clock_ns());
	WRITE_ONCE(rcp->next_stall_ns, rcp->batch_start_ns +
		   rcu_stall_timeout_ms * NSEC_PER_MSEC);
	trace_event(TRACE_RCU, this_cpu_id(), TRACE_GP_START, 0,
		    rcu_gp_number(rcp->gp_seq), 0);
}

/* The last owing CPU has reported: the batch is over. Lock held. */
static void end_batch(void)
{
	struct rcu_ctrlblk *rcp = &rcu_ctrlblk;
	u64 took = clock_ns() - rcp->batch_start_ns;

	/* Release: every report, each made under this lock after its CPU's
	 * readers, comes before a CPU that reads the new curbatch or gp_seq
	 * with acquire invokes the batch's callbacks or returns from a
	 * wait (classic_process_callbacks(), classic_gp_seq()). */
	smp_store_release(&rcp->curbatch, rcp->curbatch + 1);
	smp_store_release(&rcp->gp_seq, rcp->gp_seq + 1);
	rcp->batches_completed++;
	rcp->shared_writes += 2;
	trace_event(TRACE_RCU, this_cpu_id(), TRACE_GP_END, 0,
		    rcu_gp_number(rcp->gp_seq), took);
	classic_record_latency(took);
	classic_start_batch(rcp->maxbatch);
}

/* 2.6.10's cpu_quiet(): cpu no longer owes the running batch. Lock held.
 * Returns whether the batch ended: the caller wakes gp_wait once it has
 * dropped the lock. */
static bool cpu_quiet(unsigned int cpu)
{
	struct rcu_ctrlblk *rcp = &rcu_ctrlblk;

	classic_clear_owes(cpu);
	rcp->shared_writes++;
	classic_data[cpu].qs_reported++;
	WRITE_ONCE(rcp->nr_owing, rcp->nr_owing - 1);	/* see start */
	if (rcp->nr_owing)
		return false;
	end_batch();
	return true;
}

/* 2.6.0's rcu_check_quiescent_state(), from cpu's tick: snapshot on
 * first sight of the batch, report once qsctr has moved past it. */
static void check_quiescent_state(unsigned int cpu)
{
	struct classic_data *rdp = &classic_data[cpu];
	unsigned long flags;
	bool ended = false;

	if (!classic_peek_owes(cpu))
		return;
	/* qsctr and last_qsctr are this CPU's; ONCE for the stall warning,
	 * which another CPU may print. */
	if (rdp->last_qsctr == RCU_QSCTR_INVALID) {
		WRITE_ONCE(rdp->last_qsctr, rdp->qsctr);
		return;
	}
	if (rdp->qsctr == rdp->last_qsctr)
		return;
	race_window(RACE_QS_REPORT);
	flags = classic_lock();
	if (cpumask_test(&rcu_ctrlblk.cpumask, cpu)) {
		WRITE_ONCE(rdp->last_qsctr, RCU_QSCTR_INVALID);
		if (rdp->idle)
			rdp->idle_reports++;
		trace_event(TRACE_RCU, cpu, TRACE_QS, rdp->idle ?
			    TRACE_QS_IDLE : TRACE_QS_CONTEXT_SWITCH,
			    rcu_gp_number(rcu_ctrlblk.gp_seq), 0);
		ended = cpu_quiet(cpu);
	}
	classic_unlock(flags);
	if (ended)
		wake_up_all(&rcu_ctrlblk.gp_wait);
}

/* A CPU that has owed the batch for CLASSIC_RESCHED_TICKS asks for a
 * pass through schedule() on its way out of this interrupt (or at the
 * end of the reader it is in). */
static void ask_for_schedule(unsigned int cpu)
{
	/* A hint, written under the lock: a stale value moves this by a
	 * tick. */
	u64 age = clock_ns() - READ_ONCE(rcu_ctrlblk.batch_start_ns);

	if (!classic_peek_owes(cpu) ||
	    age < CLASSIC_RESCHED_TICKS * (NSEC_PER_SEC / hz) ||
	    rcu_bug(RCU_BUG_NO_NUDGE))
		return;
	classic_data[cpu].resched_asked++;
	/* This CPU's own flag, acted on at interrupt exit. */
	WRITE_ONCE(cpu_area(cpu)->need_resched, 1);
}

/* The engine's tick: 2.6.0's rcu_check_callbacks() and the tasklet it
 * scheduled, rcu_process_callbacks(). Interrupts off. */
static void classic_tick(void)
{
	unsigned int cpu = this_cpu_id();
	struct classic_data *rdp = &classic_data[cpu];

	/* Acquire pairs with the release in classic_start_kthreads(). */
	if (!smp_load_acquire(&classic_ready))
		return;
	/* This tick interrupted the idle loop's halt: quiescent. Our own
	 * flag, set with interrupts off. */
	if (rdp->idle)
		WRITE_ONCE(rdp->qsctr, rdp->qsctr + 1);	/* see the check */
	rcu_kfree_flush_here();
	classic_process_callbacks(cpu);
	check_quiescent_state(cpu);
	ask_for_schedule(cpu);
	classic_check_stall();
}

/* An idle CPU reports through its own tick (above), so it keeps it, as
 * every CPU did before Linux 2.6.21 stopped idle ticks. (2.6.21's classic
 * RCU left CPUs whose tick had stopped out of each new batch through
 * nohz_cpu_mask, which raced with a CPU waking into a reader as the
 * batch began; not copied here.) */
static u64 classic_needs_cpu(void)
{
	return 0;
}

/* schedule() on this CPU, interrupts off: 2.6.0's RCU_qsctr(cpu)++. */
static void classic_note_context_switch(void)
{
	struct classic_data *rdp = &classic_data[this_cpu_id()];

	WRITE_ONCE(rdp->qsctr, rdp->qsctr + 1);	/* see the check */
	rdp->context_switches++;
}

/* The idle loop halts between these two, and the tick counts what it
 * finds. Interrupts never nest and their handlers run with interrupts
 * off, so a tick that sees idle set interrupted the halt itself, never a
 * handler's reader: 2.6.0 asked the same of hardirq_count(). */
static void classic_idle_enter(void)
{
	WRITE_ONCE(classic_data[this_cpu_id()].idle, true);
}

static void classic_idle_exit(void)
{
	WRITE_ONCE(classic_data[this_cpu_id()].idle, false);
}

/* Interrupt entry and exit: nothing to do, as the comment above says. */
static void classic_irq_hook(void)
{
}

/* 2.6.10's rcu_offline_cpu(), on the CPU going down, interrupts off: it
 * leaves the CPUs that batches wait for and owes nothing more. */
static void classic_cpu_dying(void)
{
	unsigned int cpu = this_cpu_id();
	unsigned long flags;
	bool ended = false;

	/* Its open kfree_rcu() block joins the callbacks that move. */
	rcu_kfree_flush_here();
	flags = classic_lock();
	if (!rcu_bug(RCU_BUG_OFFLINE_IN_MASKS))
		bitmap_clear_bit(rcu_ctrlblk.online.bits, cpu);
	WRITE_ONCE(classic_data[cpu].last_qsctr, RCU_QSCTR_INVALID);
	if (cpumask_test(&rcu_ctrlblk.cpumask, cpu))
		ended = cpu_quiet(cpu);
	classic_unlock(flags);
	if (ended)
		wake_up_all(&rcu_ctrlblk.gp_wait);
}

/* cpu joins the CPUs that batches wait for. One running already does
 * not: the CPU held no reader when it began. */
static void join_batches(unsigned int cpu)
{
	unsigned long flags = classic_lock();

	cpumask_set(&rcu_ctrlblk.online, cpu);
	WRITE_ONCE(classic_data[cpu].last_qsctr, RCU_QSCTR_INVALID);
	classic_unlock(flags);
}

/* At boot or coming back, before this CPU runs anything else. */
static void classic_cpu_starting(void)
{
	WRITE_ONCE(classic_data[this_cpu_id()].idle, false);
	join_batches(this_cpu_id());
}

/* The engine's init, in a thread that may run on any CPU. The boot CPU
 * ran the tree's rcu_cpu_starting() before rcu.engine= was read, so it
 * joins here, by number: joining the CPU this runs on instead left cpu0
 * out of every batch, and rcutorture's cookies saw batches end under
 * cpu0's readers. */
static __init void classic_init(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++)
		classic_data[cpu].last_qsctr = RCU_QSCTR_INVALID;
	join_batches(0);
	classic_init_callbacks();
	pr_info("rcu: classic (Linux 2.6.0), %u CPUs under one lock and "
		"cpumask, stall warnings after %u ms\n", nr_cpus,
		rcu_stall_timeout_ms);
}

static __init void classic_start_kthreads(void)
{
	classic_start_cb_threads();
	/* Release: the lists and threads are ready before a tick that sees
	 * classic_ready uses them; pairs with the acquire in classic_tick(). */
	smp_store_release(&classic_ready, true);
}

/* The engine's gp_seq, with acquire: pairs with end_batch()'s release. */
static unsigned long classic_gp_seq(void)
{
	return smp_load_acquire(&rcu_ctrlblk.gp_seq);
}

/* The engine's request_gp: the batch that ends at sequence snap is
 * number snap / 2 (engine.h's numbering, batches from 1). */
static void classic_request_gp(unsigned long snap)
{
	unsigned long flags;

	if (rcu_seq_done(classic_gp_seq(), snap))
		return;
	flags = classic_lock();
	classic_start_batch((long)(snap / 2));
	classic_unlock(flags);
}

const struct rcu_engine rcu_classic_engine = {
	.name = "classic",
	.init = classic_init,
	.start_kthreads = classic_start_kthreads,
	.note_context_switch = classic_note_context_switch,
	.idle_enter = classic_idle_enter,
	.idle_exit = classic_idle_exit,
	.irq_enter = classic_irq_hook,
	.irq_exit = classic_irq_hook,
	.tick = classic_tick,
	.needs_cpu = classic_needs_cpu,
	.cpu_dying = classic_cpu_dying,
	.cpu_dead = classic_cpu_dead,
	.cpu_starting = classic_cpu_starting,
	.queue_callback = classic_queue_callback,
	.gp_seq = classic_gp_seq,
	.request_gp = classic_request_gp,
	.synchronize = classic_synchronize,
	.synchronize_expedited = classic_synchronize_expedited,
	.exp_seq = classic_gp_seq,
	.set_kthread_priority = classic_set_kthread_priority,
	.get_stats = classic_get_stats,
	.get_cpu_stats = classic_get_cpu_stats,
	.show_gp_state = classic_show_gp_state,
	.kthreads = "rcuc/N",
};
