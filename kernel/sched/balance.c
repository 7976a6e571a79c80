/*
 * Load balancing by pulling: a CPU that is idle, or that has two threads
 * fewer than the busiest CPU, takes one queued normal thread from it.
 * Pulling (never pushing) means the only CPU that changes a queue it does
 * not own is one that has nothing better to do. Load counts queued
 * threads plus the running one, idle excepted.
 *
 * Real-time threads move by a pull of their own: at every tick, and on
 * every pass of the idle loop, a CPU takes a real-time thread that waits
 * on another CPU's queue (behind one at least as important) if it would
 * run at once here, above everything this CPU runs or has queued. So a
 * real-time thread allowed on a CPU that runs only normal threads, or
 * idles, waits there at most one tick (1 ms at hz=1000), a few if the
 * queue locks are busy (a pull never waits for a lock, see trylock_two()).
 * The load pull leaves real-time threads alone: moving one by load could
 * put it behind a higher priority.
 */
#include "internal.h"

static unsigned int load_of(unsigned int cpu)
{
	struct run_queue *rq = &run_queues[cpu];
	struct thread *cur = READ_ONCE(rq->current);

	return READ_ONCE(rq->nr_queued) + (cur && cur != rq->idle);
}

/* Chooses the queued thread of CPU `from` to move to `cpu`, or NULL;
 * both queue locks held. */
typedef struct thread *(*pick_fn)(unsigned int from, unsigned int cpu,
				  bool idle);

/* For the load pull: a queued normal thread of `from` that may run on
 * `cpu`, if the loads (rechecked under the locks) still call for it. */
static struct thread *pick_normal(unsigned int from, unsigned int cpu,
				  bool idle)
{
	struct thread *t;

	if (!idle && load_of(from) < load_of(cpu) + 2)
		return NULL;
	list_for_each_entry(t, &run_queues[from].queue, run_link)
		if (t->prio == SCHED_PRIO_NORMAL &&
		    cpumask_test(&t->allowed, cpu))
			return t;
	return NULL;
}

/* The priority a thread must exceed to run at once on rq's CPU: that of
 * its current thread or of its best queued one. Called on that CPU with
 * interrupts off, so its current thread stays; the priority itself may
 * change meanwhile (hence READ_ONCE, pairing with prio.c's WRITE_ONCE),
 * and is read again under the lock before a thread moves. */
static unsigned int prio_to_beat(struct run_queue *rq)
{
	unsigned int beat = READ_ONCE(rq->top_queued_prio);

	if (rq->current != rq->idle)
		beat = max_t(unsigned int, beat, READ_ONCE(rq->current->prio));
	return beat;
}

/* For the real-time pull: the best queued thread of `from` that waits
 * there (behind another at least as important, so not the head about to
 * preempt `from`'s current thread), may run on `cpu`, and would run at
 * once there. */
static struct thread *pick_waiting_rt(unsigned int from, unsigned int cpu,
				      bool idle)
{
	struct run_queue *there = &run_queues[from];
	unsigned int beat = prio_to_beat(&run_queues[cpu]);
	struct thread *t;
	bool head = true;

	(void)idle;
	list_for_each_entry(t, &there->queue, run_link) {
		if (t->prio <= beat)
			break;
		if (t->movable && cpumask_test(&t->allowed, cpu) &&
		    !(head && rq_preempts_current(there, t)))
			return t;
		head = false;
	}
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

/* Move the thread pick() chooses from CPU `from`'s queue to cpu's. */
static bool pull_one(unsigned int from, unsigned int cpu, pick_fn pick,
		     bool idle)
{
	struct run_queue *here = &run_queues[cpu], *there = &run_queues[from];
	struct thread *t;

	preempt_disable();
	if (!trylock_two(here, there)) {
		here->balance_contended++;
		preempt_enable_no_resched();
		return false;
	}
	t = pick(from, cpu, idle);
	if (t) {
		rq_dequeue(there, t);
		WRITE_ONCE(t->cpu, cpu);
		rq_enqueue(here, t);
		here->migrations_in++;
	}
	raw_spin_unlock(&there->lock);
	raw_spin_unlock(&here->lock);
	preempt_enable_no_resched();
	return t != NULL;
}

bool sched_balance(unsigned int cpu, bool idle)
{
	unsigned int c, busiest = cpu, most = 0, mine = load_of(cpu);

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
	return pull_one(busiest, cpu, pick_normal, idle);
}

/*
 * An idle CPU whose tick has stopped (tick.c) no longer comes round
 * every tick to run the pulls here. So a busy CPU whose queue holds
 * threads that could move kicks one idle CPU with a reschedule IPI, as
 * Linux's nohz_balancer_kick() does; its idle loop then pulls from
 * whichever CPU is busiest. The kicker's tick decides how often
 * (sched_tick()). Hints only: a CPU that halts just after the scan is
 * kicked at the next one.
 */
void sched_kick_idle_cpu(unsigned int cpu)
{
	unsigned int i, c;

	for (i = 1; i < nr_cpus; i++) {
		c = (cpu + i) % nr_cpus;
		if (READ_ONCE(run_queues[c].idle_waiting) &&
		    !READ_ONCE(run_queues[c].going_down)) {
			resched_cpu(c);
			return;
		}
	}
}

/* Every CPU whose queue's head beats this CPU is tried, not only the
 * best: the head may be pinned there, or about to run, while another
 * CPU's queue has one that waits. */
bool sched_pull_rt(unsigned int cpu)
{
	struct run_queue *here = &run_queues[cpu];
	unsigned int c, beat;

	if (READ_ONCE(here->going_down))
		return false;
	beat = prio_to_beat(here);
	for_each_online_cpu(c) {
		struct run_queue *there = &run_queues[c];

		/* Hints, rechecked under the locks by pick_waiting_rt(). */
		if (c == cpu || READ_ONCE(there->top_queued_prio) <= beat ||
		    !READ_ONCE(there->nr_movable))
			continue;
		if (pull_one(c, cpu, pick_waiting_rt, false))
			return true;
	}
	return false;
}
