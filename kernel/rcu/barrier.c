/*
 * rcu_barrier(), over whichever engine runs: a callback queued on every
 * CPU behind everything queued there (each engine runs a CPU's callbacks
 * in the order queued), and a wait for the last of them. Its mutex also
 * keeps CPU hotplug out while a dead CPU's callbacks move (hooks.h).
 */
#include "engine.h"
#include "hooks.h"
#include "kernel/race.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/mutex.h"
#include "kernel/sched/smp_call.h"
#include "lib/atomic.h"

/* rcu_barrier(): a callback on every CPU, behind everything queued
 * there; callbacks of one CPU run in queue order. */
static DEFINE_MUTEX(barrier_mutex);
static DEFINE_PERCPU_ARRAY(struct rcu_head, barrier_heads);
static unsigned int barrier_pending;
static struct completion barrier_done;

void rcu_hotplug_lock(void)
{
	mutex_lock(&barrier_mutex);
}

void rcu_hotplug_unlock(void)
{
	mutex_unlock(&barrier_mutex);
}

static void barrier_callback(void *unused)
{
	(void)unused;
	/* Fully ordered: this CPU's earlier callbacks, run before this one
	 * by the same rcuc thread, happen before the count drops; the last
	 * decrement passes them all on to rcu_barrier() through complete()
	 * and the completion's lock. */
	if (atomic_sub_return(&barrier_pending, 1) == 0)
		complete(&barrier_done);
}

static void queue_barrier_callback(void *unused)
{
	(void)unused;
	/* kfree_rcu()'s open block first: this CPU runs its callbacks in
	 * order, so the barrier waits for the block too. */
	rcu_kfree_flush_here();
	/* Counted here, by each CPU that queues, not counted beforehand:
	 * cpu_up() does not take the barrier mutex, so a CPU may join the
	 * online set between a count and the call, and a count one short
	 * would end the barrier early, with a callback of it still queued
	 * (rcutorture's onoff caught the next barrier queueing that head a
	 * second time). Fully ordered, before this CPU's callback can run
	 * and decrement; the caller's own count keeps the total above zero
	 * until every CPU has added its own (smp_call_function_all() waits
	 * for them). */
	atomic_fetch_add(&barrier_pending, 1);
	call_rcu(&barrier_heads[this_cpu_id()], barrier_callback, NULL);
}

/**
 * rcu_barrier - wait until every callback queued before the call has run
 *
 * Context: thread context with preemption and interrupts enabled, after
 * rcu_start_kthreads(); sleeps (on a mutex and for grace periods), so
 * never inside rcu_read_lock() or an interrupt handler, and never from
 * a callback, whose own rcuc thread would then never reach the
 * barrier's callback. Callbacks queued by callbacks during the wait may
 * not have run.
 * On return every callback queued on any CPU before the call has
 * returned, and its accesses happen before the caller's later ones.
 */
void rcu_barrier(void)
{
	mutex_lock(&barrier_mutex);
	init_completion(&barrier_done);
	/* Our own count, dropped once every CPU has queued its callback,
	 * so that an early callback cannot complete the barrier. Plain
	 * store: the other CPUs touch the count only after the IPI of
	 * smp_call_function_all(), whose spin_trylock() (a locked cmpxchg,
	 * a full barrier) makes it visible first. */
	WRITE_ONCE(barrier_pending, 1);
	/* A CPU may come online here (see queue_barrier_callback()). */
	race_window(RACE_BARRIER_CALL);
	smp_call_function_all(queue_barrier_callback, NULL);
	barrier_callback(NULL);
	wait_for_completion(&barrier_done);
	mutex_unlock(&barrier_mutex);
}
