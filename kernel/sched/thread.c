/*
 * Thread life cycle: creation, exit, join, and the thread table.
 *
 * A thread's memory (its struct and its stack) is freed by whoever joins
 * it, once it is dead and fully switched out: a dead thread still runs on
 * its stack until the switch away from it completes.
 */
#include "internal.h"
#include "waitqueue.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/rcu/hooks.h"
#include "kernel/time.h"
#include "lib/atomic.h"
#include "lib/format.h"
#include "lib/string.h"

static LIST_HEAD(all_threads);
static DEFINE_SPINLOCK(table_lock);
static u64 next_id = 1;
static unsigned int nr_threads;
struct thread init_thread;

void table_add(struct thread *t)
{
	unsigned long flags = spin_lock_irqsave(&table_lock);

	t->id = next_id++;
	list_add_tail(&t->all_link, &all_threads);
	nr_threads++;
	spin_unlock_irqrestore(&table_lock, flags);
}

static void table_remove(struct thread *t)
{
	unsigned long flags = spin_lock_irqsave(&table_lock);

	list_del(&t->all_link);
	nr_threads--;
	spin_unlock_irqrestore(&table_lock, flags);
}

/* The first code of every new thread (after arch_thread_start). */
void thread_entry(void *self)
{
	struct thread *t = self;

	finish_switch(&run_queues[this_cpu_id()]);
	preempt_enable_no_resched();
	arch_irq_enable();
	t->fn(t->arg);
	thread_exit();
}

/* The mask never changes afterwards, so whether the thread may move
 * is worked out here once, not on every enqueue. */
void set_allowed(struct thread *t, const struct cpumask *allowed)
{
	t->allowed = *allowed;
	t->movable = cpumask_weight(allowed) > 1;
}

/* The allowed CPU with the lightest load, online ones only. */
static unsigned int pick_cpu(const struct cpumask *allowed)
{
	unsigned int c, best = MAX_CPUS, best_load = ~0u;

	for_each_online_cpu(c) {
		struct run_queue *rq = &run_queues[c];
		unsigned int load = READ_ONCE(rq->nr_queued) +
				    (READ_ONCE(rq->current) != rq->idle);

		if (cpumask_test(allowed, c) && load < best_load) {
			best = c;
			best_load = load;
		}
	}
	return best;
}

/* What thread_alloc() gave: a thread that no CPU runs any more. */
static void thread_free(struct thread *t)
{
	kstack_free(&t->stack);
	kfree(t->join_queue);
	kfree(t);
}

struct thread *thread_alloc(const char *name)
{
	struct thread *t = kzalloc(sizeof(*t));

	if (!t)
		return NULL;
	strlcpy(t->name, name, sizeof(t->name));
	t->join_queue = kmalloc(sizeof(struct wait_queue));
	if (!t->join_queue) {
		kfree(t);
		return NULL;
	}
	wait_queue_init(t->join_queue);
	if (kstack_alloc(&t->stack, t->name) < 0) {
		kfree(t->join_queue);
		kfree(t);
		return NULL;
	}
	return t;
}

/*
 * Queue a new thread on the lightest online CPU of its mask; MAX_CPUS if
 * none is online. pick_cpu() reads the online set without a lock, and the
 * CPU it chose may leave it before the thread is queued: a thread queued
 * on a CPU that has parked would wait there until cpu_up(), its wake-up
 * IPI lost. So the choice is checked again under the queue's lock. A CPU
 * going down leaves the online set before it moves its threads away under
 * that same lock: seen online here, it will move this one too.
 */
static unsigned int queue_new_thread(struct thread *t)
{
	for (;;) {
		unsigned int cpu = pick_cpu(&t->allowed);
		struct run_queue *rq = &run_queues[cpu];
		unsigned long flags;

		if (cpu == MAX_CPUS)
			return cpu;
		flags = spin_lock_irqsave(&rq->lock);
		if (READ_ONCE(cpu_area(cpu)->online)) {
			t->cpu = cpu;
			rq_enqueue(rq, t);
			spin_unlock_irqrestore(&rq->lock, flags);
			resched_cpu(cpu);
			return cpu;
		}
		spin_unlock_irqrestore(&rq->lock, flags);
	}
}

struct thread *thread_create_mask(thread_fn fn, void *arg, const char *name,
				  const struct cpumask *allowed)
{
	struct thread *t;

	if (pick_cpu(allowed) == MAX_CPUS) {
		pr_err("thread_create(%s): no online CPU in its mask\n", name);
		return NULL;
	}
	t = thread_alloc(name);
	if (!t)
		return NULL;
	t->fn = fn;
	t->arg = arg;
	set_allowed(t, allowed);
	t->state = THREAD_RUNNABLE;
	t->saved_sp = arch_thread_stack_init(t->stack.top, thread_entry, t);
	table_add(t);
	if (queue_new_thread(t) == MAX_CPUS) {
		pr_err("thread_create(%s): every CPU of its mask went offline "
		       "meanwhile\n", name);
		table_remove(t);
		thread_free(t);
		return NULL;
	}
	return t;
}

struct thread *thread_create(thread_fn fn, void *arg, const char *name)
{
	struct cpumask all;

	cpumask_fill(&all);
	return thread_create_mask(fn, arg, name, &all);
}

struct thread *thread_create_on(thread_fn fn, void *arg, const char *name,
				unsigned int cpu)
{
	struct cpumask one = cpumask_of(cpu);

	return thread_create_mask(fn, arg, name, &one);
}

void thread_exit(void)
{
	struct thread *t = current_thread();
	unsigned long flags;

	BUG_ON(t->is_idle || t == &init_thread);
	rcu_preempt_thread_exit();
	/* Dead under the join queue's lock, so the joiner's wait_event
	 * cannot miss it. */
	flags = spin_lock_irqsave(&t->join_queue->lock);
	WRITE_ONCE(t->state, THREAD_DEAD);
	wake_up_locked(t->join_queue);
	spin_unlock_irqrestore(&t->join_queue->lock, flags);
	schedule();
	panic("thread %s ran after its exit", t->name);
}

/* The joiner must not free a stack the dead thread is still on. */
static void thread_wait_off_cpu(struct thread *t)
{
	/* Acquire pairs with the release store in finish_switch(). */
	while (smp_load_acquire(&t->on_cpu))
		arch_cpu_relax();
}

void thread_join(struct thread *t)
{
	BUG_ON(t == current_thread());
	wait_event(t->join_queue, READ_ONCE(t->state) == THREAD_DEAD);
	thread_wait_off_cpu(t);
	table_remove(t);
	thread_free(t);
}

const char *thread_state_name(enum thread_state s)
{
	switch (s) {
	case THREAD_RUNNABLE:
		return "runnable";
	case THREAD_SLEEPING:
		return "sleeping";
	case THREAD_DEAD:
		return "dead";
	}
	return "?";
}

size_t thread_snapshot(struct thread_info *out, size_t max)
{
	unsigned long flags = spin_lock_irqsave(&table_lock);
	struct thread *t;
	size_t n = 0;
	u64 now = clock_ns();

	list_for_each_entry(t, &all_threads, all_link) {
		if (n == max)
			break;
		out[n].id = t->id;
		strlcpy(out[n].name, t->name, sizeof(out[n].name));
		out[n].state = READ_ONCE(t->state);
		out[n].cpu = READ_ONCE(t->cpu);
		out[n].prio = READ_ONCE(t->prio);
		out[n].base_prio = READ_ONCE(t->base_prio);
		out[n].running = READ_ONCE(t->on_cpu);
		out[n].run_ns = READ_ONCE(t->run_ns);
		if (out[n].running)
			out[n].run_ns += now - READ_ONCE(t->switched_in_ns);
		out[n].switches = READ_ONCE(t->switches);
		n++;
	}
	spin_unlock_irqrestore(&table_lock, flags);
	return n;
}

/*
 * What every CPU runs and where every thread waits, for reports of a
 * hang (Linux's sysrq-t): a thread that is neither running nor queued is
 * shown with the call chain it slept in. Lock-free reads of other CPUs'
 * state, which may change as we print; the table lock keeps each thread
 * from being freed while it is shown.
 */
void sched_show_state(void)
{
	unsigned long flags;
	unsigned int cpu;
	struct thread *t;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct run_queue *rq = &run_queues[cpu];
		struct thread *cur = READ_ONCE(rq->current);

		pr_err("sched: cpu%u %s%s: running %s, %u queued, need_resched "
		       "%u\n", cpu, READ_ONCE(cpu_area(cpu)->online) ?
		       "online" : "offline",
		       READ_ONCE(rq->going_down) ? " (going down)" : "",
		       cur ? cur->name : "?", READ_ONCE(rq->nr_queued),
		       READ_ONCE(cpu_area(cpu)->need_resched));
	}
	flags = spin_lock_irqsave(&table_lock);
	list_for_each_entry(t, &all_threads, all_link) {
		bool running = READ_ONCE(t->on_cpu);
		bool queued = READ_ONCE(t->on_queue);

		if (t->is_idle)
			continue;
		pr_err("sched: %s/%llu %s, cpu%u%s%s\n", t->name, t->id,
		       thread_state_name(READ_ONCE(t->state)), READ_ONCE(t->cpu),
		       running ? ", running" : "", queued ? ", queued" : "");
		if (!running && !queued)
			arch_dump_thread_backtrace(READ_ONCE(t->saved_sp));
	}
	spin_unlock_irqrestore(&table_lock, flags);
}

/* Tries at a busy table lock before the hang report goes without the
 * threads: the NMI may have interrupted the holder on its own CPU. */
#define WALK_LOCK_TRIES	100000u

/* Every thread to fn, from NMI context (hang_report.c): the table lock
 * keeps each from being freed meanwhile, taken only if it is free soon.
 * False if it stayed busy and nothing was walked. */
bool thread_table_try_walk(void (*fn)(struct thread *t, void *arg),
			   void *arg)
{
	struct thread *t;

	if (!raw_spin_trylock_bounded(&table_lock, WALK_LOCK_TRIES))
		return false;
	list_for_each_entry(t, &all_threads, all_link)
		fn(t, arg);
	raw_spin_unlock(&table_lock);
	return true;
}

/* Whether p is a live thread; within thread_table_try_walk() only. */
bool thread_in_table(const struct thread *p)
{
	const struct thread *t;

	list_for_each_entry(t, &all_threads, all_link)
		if (t == p)
			return true;
	return false;
}

/* For a CPU going offline, its queue lock held: every movable thread
 * asleep on it gets the home new_home() picks, so that its wake-up queues
 * it there. A thread that is neither queued nor running can only change
 * under this queue lock. */
unsigned int thread_rehome_sleepers(unsigned int cpu,
				    unsigned int (*new_home)(
					    const struct thread *t,
					    unsigned int dying))
{
	unsigned long flags = spin_lock_irqsave(&table_lock);
	unsigned int moved = 0, to;
	struct thread *t;

	list_for_each_entry(t, &all_threads, all_link) {
		if (t->cpu != cpu || !t->movable || t->on_queue ||
		    t->on_cpu || t->state != THREAD_SLEEPING)
			continue;
		to = new_home(t, cpu);
		if (to == MAX_CPUS)
			continue;
		WRITE_ONCE(t->cpu, to);
		moved++;
	}
	spin_unlock_irqrestore(&table_lock, flags);
	return moved;
}

unsigned int sched_nr_threads(void)
{
	return READ_ONCE(nr_threads);
}
