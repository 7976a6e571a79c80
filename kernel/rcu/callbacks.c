/*
 * Callbacks: call_rcu() queues on the calling CPU; that CPU's tick moves
 * callbacks whose grace period has ended to DONE and wakes the CPU's
 * "rcuc" thread, which invokes them in batches of blimit and yields
 * between batches, so a flood of callbacks never starves other threads.
 * blimit grows while the backlog is large (as Linux's rcu_do_batch does)
 * so that invocation keeps up with grace periods.
 */
#include "internal.h"
#include "inject.h"
#include "kernel/sched/completion.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/mutex.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched/smp_call.h"
#include "kernel/init.h"
#include "lib/format.h"
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
	 * updates (see call_rcu()). */
	unsigned long snap = rcu_seq_snap(READ_ONCE(rcu_state.gp_seq));

	if (rcu_bug(RCU_BUG_EARLY_ADVANCE))
		snap -= 2;

	if (rcu_cblist_accelerate(&rdp->cbs, snap))
		rcu_request_gp(snap);
}

/**
 * call_rcu - queue func(arg) to run after a grace period
 * @head: storage for the queue entry, usually inside the object; need
 *        not be initialized; must stay valid until func runs
 * @func: the callback, typically freeing arg
 * @arg: its argument
 *
 * func runs in the "rcuc" thread of this CPU, with interrupts and
 * preemption enabled, once every reader that might hold a reference
 * obtained before this call has finished.
 */
void call_rcu(struct rcu_head *head, void (*func)(void *arg), void *arg)
{
	unsigned long flags;
	struct rcu_data *rdp;

	head->func = func;
	head->arg = arg;
	/* Full barrier: the caller's unpublishing store must be visible
	 * before we sample gp_seq in accelerate(). Otherwise a grace period
	 * that began before the store could be taken to cover it, and a CPU
	 * that reported early could still be reading the old version. */
	smp_mb();
	flags = arch_irq_save();
	rdp = &rcu_data[this_cpu_id()];
	rcu_cblist_enqueue(&rdp->cbs, head);
	rdp->cbs_queued++;
	accelerate(rdp);
	arch_irq_restore(flags);
}

void kfree_rcu_callback(void *ptr)
{
	kfree(ptr);
}

/* Every tick: advance, accelerate, and wake the invoker if work is done. */
void rcu_callbacks_tick(void)
{
	struct rcu_data *rdp = &rcu_data[this_cpu_id()];
	/* Acquire pairs with gp_end()'s release: the readers of the grace
	 * period are done before its callbacks are moved to DONE. */
	unsigned long done = smp_load_acquire(&rcu_state.gp_seq);

	if (!rdp->cbs.len)
		return;
	rcu_cblist_advance(&rdp->cbs, done);
	accelerate(rdp);
	if (rdp->cbs.len_done && !READ_ONCE(rdp->cb_thread_has_work)) {
		WRITE_ONCE(rdp->cb_thread_has_work, true);
		wake_up_all(&rdp->cb_wait);
	}
}

static void adjust_blimit(struct rcu_data *rdp)
{
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
		list->func(list->arg);
	}
	flags = arch_irq_save();
	rdp->cbs_invoked += n;
	more = rdp->cbs.len_done != 0;
	if (!more)
		WRITE_ONCE(rdp->cb_thread_has_work, false);
	arch_irq_restore(flags);
	return more;
}

static void cb_thread_fn(void *arg)
{
	struct rcu_data *rdp = arg;

	for (;;) {
		wait_event(&rdp->cb_wait, READ_ONCE(rdp->cb_thread_has_work));
		while (invoke_batch(rdp))
			yield();
	}
}

__init void rcu_cb_threads_start(void)
{
	unsigned int cpu;
	char name[THREAD_NAME_MAX];

	for_each_online_cpu(cpu) {
		struct rcu_data *rdp = &rcu_data[cpu];

		rdp->blimit = BLIMIT_LOW;
		ksnprintf(name, sizeof(name), "rcuc/%u", cpu);
		rdp->cb_thread = thread_create_on(cb_thread_fn, rdp, name, cpu);
		if (!rdp->cb_thread)
			panic("rcu: no memory for %s", name);
	}
}

/* rcu_barrier(): a callback on every CPU, behind everything queued
 * there; callbacks of one CPU run in queue order. */
static DEFINE_MUTEX(barrier_mutex);
static struct rcu_head barrier_heads[MAX_CPUS];
static unsigned int barrier_pending;
static struct completion barrier_done;

static void barrier_callback(void *unused)
{
	(void)unused;
	if (atomic_sub_return(&barrier_pending, 1) == 0)
		complete(&barrier_done);
}

static void queue_barrier_callback(void *unused)
{
	(void)unused;
	call_rcu(&barrier_heads[this_cpu_id()], barrier_callback, NULL);
}

void rcu_barrier(void)
{
	unsigned int cpu, n = 0;

	mutex_lock(&barrier_mutex);
	init_completion(&barrier_done);
	for_each_online_cpu(cpu)
		n++;
	/* One extra count held until all are queued, so an early callback
	 * cannot complete the barrier while others are still being queued. */
	WRITE_ONCE(barrier_pending, n + 1);
	smp_call_function_all(queue_barrier_callback, NULL);
	barrier_callback(NULL);
	wait_for_completion(&barrier_done);
	mutex_unlock(&barrier_mutex);
}
