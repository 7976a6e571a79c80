/*
 * The classic engine's callbacks, as 2.6.0 kept them: three lists per
 * CPU, touched only by that CPU with interrupts off.
 *
 *	nxtlist   queued by call_rcu(), not yet in a batch
 *	curlist   waiting for batch `batch` (curbatch + 1 when it moved up)
 *	donelist  its batch is over: for the CPU's callback thread, rcuc/N
 *
 * The tick moves them along (classic_process_callbacks()); the thread
 * runs the done ones in the order queued. 2.6.0 ran them from a tasklet;
 * a thread is what this kernel has, and what rcu_barrier() and the tree
 * engine's rcuc/N expect.
 */
#include "classic.h"
#include "kernel/rcu/inject.h"
#include "kernel/init.h"
#include "kernel/ipi.h"
#include "kernel/race.h"
#include "kernel/time.h"
#include "kernel/trace/trace.h"
#include "lib/atomic.h"

static void empty_lists(struct classic_data *rdp)
{
	rdp->nxtlist = rdp->curlist = rdp->donelist = NULL;
	rdp->nxttail = &rdp->nxtlist;
	rdp->curtail = &rdp->curlist;
	rdp->donetail = &rdp->donelist;
	rdp->qlen = rdp->donelen = 0;
}

__init void classic_init_callbacks(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		empty_lists(&classic_data[cpu]);
		wait_queue_init(&classic_data[cpu].cb_wait);
	}
}

/*
 * The engine's queue_callback: 2.6.0's call_rcu(), onto this CPU's
 * nxtlist. No barrier: the batch the callback waits for is read later,
 * under the lock, by this CPU's tick (classic_process_callbacks()), and
 * that locked read comes after the caller's unpublishing store in
 * program order, as x86-TSO keeps it.
 */
void classic_queue_callback(struct rcu_head *head)
{
	unsigned long flags = arch_irq_save();
	struct classic_data *rdp = &classic_data[this_cpu_id()];

	head->next = NULL;
	*rdp->nxttail = head;
	rdp->nxttail = &head->next;
	rdp->qlen++;
	rdp->cbs_queued++;
	trace_event(TRACE_RCU, this_cpu_id(), TRACE_CB_QUEUE, 0,
		    (u32)rdp->qlen, 0);
	arch_irq_restore(flags);
}

/* Append the list head..*tail to the list at *dst_tail. */
static void splice(struct rcu_head ***dst_tail, struct rcu_head **head,
		   struct rcu_head ***tail)
{
	if (!*head)
		return;
	**dst_tail = *head;
	*dst_tail = *tail;
	*head = NULL;
	*tail = head;
}

/* The part of 2.6.0's rcu_process_callbacks() that moves this CPU's
 * lists, from its tick; interrupts off. */
void classic_process_callbacks(unsigned int cpu)
{
	struct classic_data *rdp = &classic_data[cpu];
	unsigned long flags;
	unsigned long done_before = rdp->donelen;
	struct rcu_head *h;

	/* Acquire pairs with end_batch()'s release: the batch's readers
	 * are done before its callbacks reach the thread. */
	if (rdp->curlist &&
	    classic_batch_before(rdp->batch,
				 smp_load_acquire(&rcu_ctrlblk.curbatch))) {
		race_window(RACE_CB_ADVANCE);
		for (h = rdp->curlist; h; h = h->next)
			rdp->donelen++;
		splice(&rdp->donetail, &rdp->curlist, &rdp->curtail);
	}
	if (rdp->nxtlist && !rdp->curlist) {
		splice(&rdp->curtail, &rdp->nxtlist, &rdp->nxttail);
		flags = classic_lock();
		/* The batch after the one running, or after the one that
		 * would start next: it begins after these were queued. */
		rdp->batch = rcu_ctrlblk.curbatch + 1;
		if (rcu_bug(RCU_BUG_EARLY_ADVANCE))
			rdp->batch--;	/* the injected bug */
		classic_start_batch(rdp->batch);
		classic_unlock(flags);
	}
	if (rdp->donelen != done_before)
		trace_event(TRACE_RCU, cpu, TRACE_CB_ADVANCE, 0,
			    (u32)rdp->donelen, (u32)rdp->batch);
	/* cb_thread_has_work is shared with this CPU's rcuc alone, which
	 * clears it with interrupts off: program order; ONCE because the
	 * tick interrupts the thread. cb_wait's lock orders the store
	 * before the thread's test. */
	if (rdp->donelist && !READ_ONCE(rdp->cb_thread_has_work)) {
		WRITE_ONCE(rdp->cb_thread_has_work, true);
		wake_up_all(&rdp->cb_wait);
	}
}

/* 2.6.0's rcu_do_batch(), in the CPU's thread: take the whole donelist
 * and run it. */
static void cb_thread_fn(void *arg)
{
	struct classic_data *rdp = arg;
	struct rcu_head *list, *next;
	unsigned long flags, n;

	for (;;) {
		/* Set by this CPU's tick, classic_process_callbacks(). */
		wait_event(&rdp->cb_wait, READ_ONCE(rdp->cb_thread_has_work));
		flags = arch_irq_save();
		list = rdp->donelist;
		n = rdp->donelen;
		rdp->donelist = NULL;
		rdp->donetail = &rdp->donelist;
		rdp->donelen = 0;
		/* Off the CPU's count as they leave its lists: should a
		 * callback sleep and the CPU go down meanwhile, the lists that
		 * move (classic_cpu_dead()) no longer count them. */
		rdp->qlen -= n;
		/* Interrupts off: the tick cannot refill donelist between
		 * the take and the clear, so no wake-up is lost. */
		WRITE_ONCE(rdp->cb_thread_has_work, false);
		arch_irq_restore(flags);
		for (; list; list = next) {
			next = list->next;
			rcu_invoke_callback(list);
		}
		flags = arch_irq_save();
		rdp->cbs_invoked += n;
		trace_event(TRACE_RCU, this_cpu_id(), TRACE_CB_INVOKE, 0,
			    (u32)n, 0);
		arch_irq_restore(flags);
	}
}

__init void classic_start_cb_threads(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		classic_data[cpu].cb_thread =
			rcu_start_cb_thread(cpu, cb_thread_fn, &classic_data[cpu]);
}

int classic_set_kthread_priority(unsigned int prio)
{
	unsigned int cpu;
	int err = 0;

	for (cpu = 0; cpu < nr_cpus && !err; cpu++)
		if (classic_data[cpu].cb_thread)
			err = thread_set_priority(classic_data[cpu].cb_thread,
						  prio);
	return err;
}

/*
 * 2.6.10's rcu_move_batch(): a CPU has parked; every callback it held,
 * done or not, joins this CPU's nxtlist, oldest first, and waits for a
 * batch that starts from here (later than it needs, never earlier).
 * Under rcu_hotplug_lock(), so an rcu_barrier() either finds them here
 * or ran before they moved; the dead CPU's lists are touched by nobody
 * else now.
 */
void classic_cpu_dead(unsigned int cpu)
{
	struct classic_data *dead = &classic_data[cpu], *rdp;
	unsigned long flags = arch_irq_save();

	rdp = &classic_data[this_cpu_id()];
	if (rcu_bug(RCU_BUG_DROP_OFFLINE_CBS)) {
		empty_lists(dead);	/* the injected bug */
	} else {
		rdp->qlen += dead->qlen;
		rdp->cbs_adopted += dead->qlen;
		splice(&rdp->nxttail, &dead->donelist, &dead->donetail);
		splice(&rdp->nxttail, &dead->curlist, &dead->curtail);
		splice(&rdp->nxttail, &dead->nxtlist, &dead->nxttail);
		dead->qlen = dead->donelen = 0;
	}
	arch_irq_restore(flags);
}

/*
 * The engine's synchronize: wait on gp_wait, which each batch's end
 * wakes, for the batch that covers the call. Not 2.6.0's
 * synchronize_kernel(), a callback that woke the caller: here callbacks
 * run in their CPU's thread and may sleep, and a callback that called
 * synchronize_rcu() would wait for a callback queued behind itself on
 * the same thread, for ever (found by review). gp_seq is read with
 * acquire (rcu_gp_done()): the batch's readers are done before we return.
 */
void classic_synchronize(void)
{
	unsigned long snap = rcu_gp_snap();

	rcu_request_gp(snap);
	wait_event(&rcu_ctrlblk.gp_wait, rcu_gp_done(snap));
}

/*
 * The engine's synchronize_expedited. Classic RCU had none; its honest
 * counterpart is a forced batch: ask for the batch that covers the call
 * at once, rather than at this CPU's next tick, and have every CPU that
 * owes it pass through schedule() now (a reschedule IPI), rather than
 * when its time slice ends. Each CPU still reports from its own tick, so
 * this saves the wait for the batch to be asked for and for the slow
 * schedulers, not the ticks.
 */
void classic_synchronize_expedited(void)
{
	unsigned long snap;
	unsigned int cpu;

	/* Fully ordered, before the snapshot's own barrier: a stall
	 * warning of the batch asked for sees this waiter. */
	atomic_fetch_add(&rcu_ctrlblk.exp_waiting, 1);
	snap = rcu_gp_snap();
	rcu_request_gp(snap);
	/* Once a tick, until the batch is over: the batch that covers the
	 * call may start only when the one running ends, and its CPUs owe
	 * it anew. */
	while (!rcu_gp_done(snap)) {
		for_each_online_cpu(cpu)
			if (cpu != this_cpu_id() && classic_peek_owes(cpu))
				arch_send_ipi(cpu, IPI_RESCHEDULE);
		sleep_ms(1);
	}
	atomic_sub_return(&rcu_ctrlblk.exp_waiting, 1);
	/* Statistics: expedited waiters count their own. */
	atomic_add_relaxed(&rcu_ctrlblk.exp_completed, 1);
}
