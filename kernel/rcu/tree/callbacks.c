/*
 * Callbacks: call_rcu() queues on the calling CPU; that CPU's tick moves
 * callbacks whose grace period has ended to DONE and wakes the CPU's
 * "rcuc" thread, which invokes them in batches of blimit and yields
 * between batches, so a flood of callbacks never starves other threads.
 * blimit grows while the backlog is large (as Linux's rcu_do_batch does)
 * so that invocation keeps up with grace periods.
 */
#include "tree.h"
#include "kernel/rcu/inject.h"
#include "kernel/init.h"
#include "kernel/mm/kasan.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/mutex.h"
#include "kernel/sched/smp_call.h"
#include "kernel/race.h"
#include "lib/atomic.h"

#define BLIMIT_LOW		10
#define BLIMIT_HIGH		10000
#define BACKLOG_HIGH		10000	/* above this, use BLIMIT_HIGH */
#define BACKLOG_LOW		100	/* below this, back to BLIMIT_LOW */

/* Give this CPU's NEXT callbacks a grace period and ask for it.
 * Interrupts off. */
static void accelerate(struct rcu_data *rdp)
{
	/* The snapshot of gp_seq must not be older than the caller's
	 * updates: call_rcu()'s smp_mb() orders them before this load, and
	 * pairs with rcu_gp_start()'s. From the tick, NEXT is empty (call_rcu()
	 * gives each callback its grace period at once), so a later value
	 * can only book a later grace period. */
	unsigned long snap = rcu_seq_snap(READ_ONCE(rcu_state.gp_seq));

	if (rcu_bug(RCU_BUG_EARLY_ADVANCE))
		snap -= 2;

	if (rcu_cblist_accelerate(&rdp->cbs, snap))
		rcu_tree_request_gp(snap);
}

/* The engine's queue_callback: what both forms of call_rcu() do once
 * the head says what to run. */
void rcu_tree_queue_callback(struct rcu_head *head)
{
	unsigned long flags;
	struct rcu_data *rdp;

	/* Full barrier: the caller's unpublishing store must be visible
	 * before we sample gp_seq in accelerate(). Otherwise a grace period
	 * that began before the store could be taken to cover it, and a CPU
	 * that reported early could still be reading the old version.
	 * Pairs with the smp_mb() in rcu_gp_start() after it stores gp_seq. */
	smp_mb();
	flags = arch_irq_save();
	rdp = &rcu_data[this_cpu_id()];
	rcu_cblist_enqueue(&rdp->cbs, head);
	rdp->cbs_queued++;
	accelerate(rdp);
	trace_event(TRACE_RCU, this_cpu_id(), TRACE_CB_QUEUE, 0,
		    (u32)rdp->cbs.len, 0);
	arch_irq_restore(flags);
}

/* Every tick: advance, accelerate, and wake the invoker if work is done. */
void rcu_callbacks_tick(void)
{
	struct rcu_data *rdp = &rcu_data[this_cpu_id()];
	/* Acquire pairs with rcu_gp_end()'s release: the readers of the grace
	 * period are done before its callbacks are moved to DONE. */
	unsigned long done = smp_load_acquire(&rcu_state.gp_seq);
	unsigned long was_done;

	rcu_kfree_flush_here();
	if (!rdp->cbs.len)
		return;
	race_window(RACE_CB_ADVANCE);
	was_done = rdp->cbs.len_done;
	rcu_cblist_advance(&rdp->cbs, done);
	accelerate(rdp);
	if (rdp->cbs.len_done != was_done)
		trace_event(TRACE_RCU, this_cpu_id(), TRACE_CB_ADVANCE, 0,
			    (u32)rdp->cbs.len_done, rcu_gp_number(done));
	/* cb_thread_has_work is shared only with this CPU's rcuc thread,
	 * which is bound to this CPU and clears it with interrupts off
	 * (invoke_batch()): the tick interrupts it, never runs beside it,
	 * so program order suffices; ONCE because the tick interrupts it.
	 * cb_wait's lock orders the store before cb_thread_fn()'s test. */
	if (rdp->cbs.len_done && !READ_ONCE(rdp->cb_thread_has_work)) {
		WRITE_ONCE(rdp->cb_thread_has_work, true);
		wake_up_all(&rdp->cb_wait);
	}
}

/*
 * An idle CPU stopping its tick (kernel/sched/tick.c) asks what RCU needs
 * of it. Grace periods need nothing: an idle CPU is in an extended
 * quiescent state, which the GP thread's scan sees without waking it.
 * Callbacks do: only this CPU's tick advances its lists and wakes rcuc.
 * So a CPU holding callbacks, or an open kfree_rcu() block, sleeps at
 * most RCU_IDLE_WAKE_TICKS ticks: a callback's delay past its grace
 * period grows from one tick to that many while its CPU idles. Linux's
 * RCU_FAST_NO_HZ slept 4 jiffies likewise.
 */
u64 rcu_tree_needs_cpu(void)
{
	struct rcu_data *rdp = &rcu_data[this_cpu_id()];

	if (!READ_ONCE(rdp->cbs.len) && !rcu_kfree_pending_here())
		return U64_MAX;
	return RCU_IDLE_WAKE_TICKS * tick_period_ns();
}

static void adjust_blimit(struct rcu_data *rdp)
{
	/* This CPU's list, interrupts off: nothing races with the read. */
	unsigned long backlog = READ_ONCE(rdp->cbs.len);

	if (backlog > BACKLOG_HIGH)
		rdp->blimit = BLIMIT_HIGH;
	else if (backlog < BACKLOG_LOW)
		rdp->blimit = BLIMIT_LOW;
}

/* Run one batch; true if DONE still holds more. */
static bool invoke_batch(struct rcu_data *rdp)
{
	struct rcu_head *list, *next;
	unsigned long flags, n;
	bool more;

	flags = arch_irq_save();
	adjust_blimit(rdp);
	n = rcu_cblist_take_done(&rdp->cbs, rdp->blimit, &list);
	arch_irq_restore(flags);
	for (; list; list = next) {
		next = list->next;
		rcu_invoke_callback(list);
	}
	flags = arch_irq_save();
	trace_event(TRACE_RCU, this_cpu_id(), TRACE_CB_INVOKE, 0, (u32)n, 0);
	rdp->cbs_invoked += n;
	more = rdp->cbs.len_done != 0;
	/* Interrupts off: the tick cannot refill DONE between the test and
	 * the clear, so no wake-up is lost (see rcu_callbacks_tick()). */
	if (!more)
		WRITE_ONCE(rdp->cb_thread_has_work, false);
	arch_irq_restore(flags);
	return more;
}

static void cb_thread_fn(void *arg)
{
	struct rcu_data *rdp = arg;

	for (;;) {
		/* Set by this CPU's tick, rcu_callbacks_tick(). */
		wait_event(&rdp->cb_wait, READ_ONCE(rdp->cb_thread_has_work));
		while (invoke_batch(rdp))
			yield();
	}
}

__init void rcu_cb_threads_start(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		struct rcu_data *rdp = &rcu_data[cpu];

		rdp->blimit = BLIMIT_LOW;
		rdp->cb_thread = rcu_start_cb_thread(cpu, cb_thread_fn, rdp);
	}
}

/*
 * A CPU has parked: its callbacks come to this CPU, each segment keeping
 * its grace period (rcu_cblist_merge()), those already done first in
 * line. Called with rcu_hotplug_lock() held, so that an rcu_barrier()
 * either queued behind them here or ran before they moved. Preemption
 * and interrupts off: the list is this CPU's.
 */
void rcu_tree_cpu_dead(unsigned int cpu)
{
	struct rcu_data *dead = &rcu_data[cpu], *rdp;
	unsigned long flags = arch_irq_save(), moved;

	rdp = &rcu_data[this_cpu_id()];
	moved = dead->cbs.len;
	if (rcu_bug(RCU_BUG_DROP_OFFLINE_CBS))
		rcu_cblist_init(&dead->cbs);	/* the injected bug */
	else
		rcu_cblist_merge(&rdp->cbs, &dead->cbs);
	rdp->cbs_adopted += moved;
	accelerate(rdp);
	if (rdp->cbs.len_done && !READ_ONCE(rdp->cb_thread_has_work)) {
		WRITE_ONCE(rdp->cb_thread_has_work, true);
		wake_up_all(&rdp->cb_wait);
	}
	arch_irq_restore(flags);
}
