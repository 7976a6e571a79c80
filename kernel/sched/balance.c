/*
 * Load balancing by pulling: a CPU that is idle, or that has two threads
 * fewer than the busiest CPU, takes one queued thread from it. Pulling
 * (never pushing) means the only CPU that changes a queue it does not own
 * is one that has nothing better to do. Load counts queued threads plus
 * the running one, idle excepted.
 */
#include "internal.h"

static unsigned int load_of(unsigned int cpu)
{
	struct run_queue *rq = &run_queues[cpu];
	struct thread *cur = READ_ONCE(rq->current);

	return READ_ONCE(rq->nr_queued) + (cur && cur != rq->idle);
}

/* A queued thread of `from` that may run on `cpu`. Both locks held. */
static struct thread *find_movable(struct run_queue *from, unsigned int cpu)
{
	struct thread *t;

	list_for_each_entry(t, &from->queue, run_link)
		if (cpumask_test(&t->allowed, cpu))
			return t;
	return NULL;
}

/*
 * Both queue locks, or neither: balancing is an optimization, so it never
 * waits for a lock. With more vCPUs than host cores a lock's holder (or,
 * with a fair lock, the waiter whose turn it is) can be descheduled by
 * the host for milliseconds; an idle CPU spinning there with interrupts
 * off is neither idle to RCU nor doing work, and at -smp 64 such CPUs held
 * grace periods up for seconds.
 */
static bool trylock_two(struct run_queue *a, struct run_queue *b)
{
	if (!raw_spin_trylock(&a->lock))
		return false;
	if (raw_spin_trylock(&b->lock))
		return true;
	raw_spin_unlock(&a->lock);
	return false;
}

bool sched_balance(unsigned int cpu, bool idle)
{
	unsigned int c, busiest = cpu, most = 0, mine = load_of(cpu);
	struct run_queue *here = &run_queues[cpu], *there;
	struct thread *t;

	/* Lock-free scan: the loads are hints, rechecked under the locks. */
	for_each_online_cpu(c) {
		unsigned int l = load_of(c);

		if (c != cpu && READ_ONCE(run_queues[c].nr_movable) &&
		    l > most) {
			most = l;
			busiest = c;
		}
	}
	if (busiest == cpu || (!idle && most < mine + 2))
		return false;
	there = &run_queues[busiest];
	preempt_disable();
	if (!trylock_two(here, there)) {
		here->balance_contended++;
		preempt_enable_no_resched();
		return false;
	}
	t = find_movable(there, cpu);
	if (t && (idle || load_of(busiest) >= load_of(cpu) + 2)) {
		rq_dequeue(there, t);
		WRITE_ONCE(t->cpu, cpu);
		rq_enqueue(here, t);
		here->migrations_in++;
	} else {
		t = NULL;
	}
	raw_spin_unlock(&there->lock);
	raw_spin_unlock(&here->lock);
	preempt_enable_no_resched();
	return t != NULL;
}
