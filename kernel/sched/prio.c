/*
 * Thread priorities: a thread's own (base) priority, set by
 * thread_set_priority(), and a temporary boost, set and dropped by
 * whoever makes the thread hold up a more important one (RCU priority
 * boosting). The scheduler acts only on the effective priority,
 * max(base, boost), kept in t->prio.
 *
 * All three are changed under the lock of the queue that owns the
 * thread, as its queue position is, so a change and the re-queueing it
 * needs are one step to every other CPU. As in Linux, a thread whose
 * priority rises joins the back of its new level, one whose priority
 * falls the front.
 */
#include "internal.h"
#include "kernel/errno.h"
#include "kernel/printk.h"

/* A priority from a caller is checked here, once for every entry point:
 * an out-of-range value is a caller's bug, named in one line. */
static bool prio_in_range(const char *who, const struct thread *t,
			  unsigned int prio, unsigned int lowest)
{
	if (prio >= lowest && prio <= SCHED_PRIO_RT_MAX)
		return true;
	pr_err("%s(%s/%llu): priority %u out of range, expected %u to %u "
	       "(0 normal, 1..99 real-time FIFO)\n", who, t->name, t->id,
	       prio, lowest, SCHED_PRIO_RT_MAX);
	return false;
}

/*
 * Make t's effective priority max(base, boost) and act on the change:
 * a queued thread moves to its new place, and may now preempt its CPU's
 * current thread; a running thread that fell below a queued one gives
 * way. rq is t's queue, locked.
 */
static void apply_priority(struct run_queue *rq, struct thread *t)
{
	unsigned int old = t->prio;
	unsigned int new = max_t(unsigned int, t->base_prio, t->boost_prio);

	if (new == old)
		return;
	/* Pairs with the lock-free READ_ONCEs of the tick (on t's CPU),
	 * thread_snapshot() and thread_priority(). */
	WRITE_ONCE(t->prio, new);
	if (t->on_queue) {
		rq_dequeue(rq, t);
		if (new < old)
			rq_enqueue_ahead(rq, t);
		else
			rq_enqueue(rq, t);
		if (rq_preempts_current(rq, t))
			resched_cpu(t->cpu);
	} else if (rq->current == t && rq->top_queued_prio > new) {
		resched_cpu(t->cpu);
	}
}

/* Set one of t's own priorities, base or boost, and act on the result.
 * Both are read without the lock by thread_base_priority() and `ps`
 * (READ_ONCE), hence WRITE_ONCE. */
static void set_priority_field(struct thread *t, unsigned int *field,
			       unsigned int prio)
{
	unsigned long flags;
	struct run_queue *rq = lock_thread_rq(t, &flags);

	WRITE_ONCE(*field, prio);
	apply_priority(rq, t);
	spin_unlock_irqrestore(&rq->lock, flags);
}

int thread_set_priority(struct thread *t, unsigned int prio)
{
	if (!prio_in_range("thread_set_priority", t, prio, SCHED_PRIO_NORMAL))
		return -EINVAL;
	set_priority_field(t, &t->base_prio, prio);
	return 0;
}

/* The effective priority; a snapshot, as it may change at once. */
unsigned int thread_priority(const struct thread *t)
{
	return READ_ONCE(t->prio);
}

unsigned int thread_base_priority(const struct thread *t)
{
	return READ_ONCE(t->base_prio);
}

/* A boost is a real-time priority: boosting to "normal" would be a
 * no-op that hides a caller's mistake, so 0 is refused like 100. */
int thread_boost_priority(struct thread *t, unsigned int prio)
{
	if (!prio_in_range("thread_boost_priority", t, prio, 1))
		return -EINVAL;
	set_priority_field(t, &t->boost_prio, prio);
	return 0;
}

void thread_unboost_priority(struct thread *t)
{
	set_priority_field(t, &t->boost_prio, SCHED_PRIO_NORMAL);
}
