/*
 * The scheduler's part in CPU hotplug (kernel/hotplug.c runs the whole).
 *
 * A CPU is told to go down through its run queue's going_down flag and a
 * reschedule IPI. From its next pass through schedule() it runs only its
 * per-CPU kernel threads, until they sleep, and threads preempted inside
 * a preemptible RCU reader, until they leave it (grace periods wait for
 * them, and one pinned here could not run again until the CPU came
 * back, while the hotplug path itself waits for grace periods), and
 * then its idle thread,
 * which moves every thread that may run elsewhere to other online CPUs:
 * those queued, and those asleep whose wake-up would have queued them
 * here. Threads pinned to the CPU stay on its queue, and run again when
 * it comes back. Throughout, the CPU's queue lock is held, and a waker
 * that read the old t->cpu follows it (lock_thread_rq()).
 */
#include "internal.h"
#include "kernel/rcu/hooks.h"
#include "kernel/printk.h"

void thread_mark_per_cpu(struct thread *t)
{
	t->per_cpu = true;
}

void sched_cpu_going_down(unsigned int cpu)
{
	WRITE_ONCE(run_queues[cpu].going_down, true);
	resched_cpu(cpu);
}

void sched_cpu_coming_up(unsigned int cpu)
{
	WRITE_ONCE(run_queues[cpu].going_down, false);
}

bool sched_cpu_may_park(struct run_queue *rq)
{
	struct thread *t;
	bool busy = false;

	raw_spin_lock(&rq->lock);
	list_for_each_entry(t, &rq->queue, run_link)
		busy |= t->per_cpu || rcu_preempt_in_reader(t);
	raw_spin_unlock(&rq->lock);
	return !busy;
}

/* The online CPU that t may run on with the shortest queue. */
static unsigned int new_home(const struct thread *t, unsigned int dying)
{
	unsigned int c, best = MAX_CPUS, best_len = ~0u;

	for_each_online_cpu(c) {
		unsigned int len = READ_ONCE(run_queues[c].nr_queued);

		if (c != dying && cpumask_test(&t->allowed, c) &&
		    len < best_len) {
			best = c;
			best_len = len;
		}
	}
	return best;
}

/*
 * On the CPU going down, from its idle thread, interrupts off. Each
 * queued movable thread goes to the queue of its new home; each sleeping
 * one has its home changed, so that its wake-up queues it there. The
 * other queue's lock nests inside ours; only one CPU goes down at a time
 * (kernel/hotplug.c), and balancing only try-locks, so no other path
 * takes two queue locks.
 */
unsigned int sched_migrate_away(unsigned int cpu)
{
	struct run_queue *rq = &run_queues[cpu];
	struct thread *t, *next;
	unsigned int moved = 0, to;

	raw_spin_lock(&rq->lock);
	list_for_each_entry_safe(t, next, &rq->queue, run_link) {
		if (!t->movable || (to = new_home(t, cpu)) == MAX_CPUS)
			continue;
		rq_dequeue(rq, t);
		raw_spin_lock(&run_queues[to].lock);
		WRITE_ONCE(t->cpu, to);
		rq_enqueue(&run_queues[to], t);
		raw_spin_unlock(&run_queues[to].lock);
		resched_cpu(to);
		moved++;
	}
	moved += thread_rehome_sleepers(cpu, new_home);
	raw_spin_unlock(&rq->lock);
	return moved;
}
