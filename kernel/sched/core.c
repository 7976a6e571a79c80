/*
 * The scheduler core: per-CPU run queues, schedule(), wake-ups, the tick
 * and the idle loop.
 *
 * Locking: each run queue has a lock, taken with interrupts off. A thread
 * switching out holds its CPU's queue lock across arch_context_switch();
 * the thread switched in releases it (finish_switch). So a thread that is
 * queued is never still running, and a waker on another CPU that takes
 * the lock sees either a thread fully switched out or one still current,
 * never half of each. When two queue locks are needed, the lower CPU's is
 * taken first.
 *
 * Sleeping: a thread sets THREAD_SLEEPING under the lock of whatever it
 * waits on (a wait queue, a timer), then calls schedule(). A waker, under
 * that same lock, calls wake_up_thread(), which either requeues it or, if
 * it has not yet switched out, just marks it runnable so schedule() keeps
 * it. Either way no wake-up is lost.
 */
#include "internal.h"
#include "sched.h"
#include "smp_call.h"
#include "tick.h"
#include "kernel/init.h"
#include "kernel/ipi.h"
#include "kernel/ksyms.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/rcu/hooks.h"
#include "kernel/time.h"
#include "kernel/trace/trace.h"
#include "lib/atomic.h"
#include "lib/string.h"

DEFINE_PERCPU_ARRAY(struct run_queue, run_queues);

/* The RCU-specific part of the report: where the section began. */
static void report_sleeping_reader(void)
{
	uptr ip = (uptr)this_cpu()->rcu_lock_ip, off = 0, size = 0;
	const char *sym = ksym_lookup(ip, &off, &size);

	pr_err("BUG: sleeping inside an RCU read-side section (depth %u), "
	       "begun by rcu_read_lock() at %s+%#lx (%#lx)\n",
	       this_cpu()->rcu_nesting, sym ? sym : "?", off, ip);
}

/* schedule() with preemption or interrupts off would let a sleeping
 * thread block its CPU, or, inside rcu_read_lock(), end a grace period
 * under a reader. A preemptible reader may be preempted, but sleeping in
 * it still holds up grace periods for as long as it sleeps. The test
 * build panics so that the harness sees it. */
static void check_schedule_allowed(unsigned int expected_count)
{
	struct thread *t = current_thread();
	/* One instruction on this CPU's area: a thread preempted and moved
	 * between loading this_cpu() and the field would read another
	 * CPU's reader. */
	bool in_reader = (KERNEL_DEBUG || CONFIG_PREEMPT_RCU) &&
			 arch_percpu_read32(PERCPU_OFF(rcu_nesting));

	bool atomic = preempt_count() != expected_count ||
		      !arch_irqs_enabled();

	if (likely(!atomic && !in_reader))
		return;
	if (in_reader)
		report_sleeping_reader();
	/* A preemptible reader sleeps with preemption on: only the line
	 * above is true of it. */
	if (atomic)
		pr_err("BUG: scheduling while atomic: thread %s/%llu on cpu%u, "
		       "preempt_count %u, interrupts %s\n", t ? t->name : "?",
		       t ? t->id : 0, this_cpu_id(),
		       preempt_count() - expected_count,
		       arch_irqs_enabled() ? "on" : "off");
	pr_err("Call Trace:\n");
	arch_dump_stack();
	if (KERNEL_DEBUG)
		panic(atomic ? "scheduling while atomic" :
			       "sleeping inside an RCU read-side section");
}

/* Keep the hint of the queue's best waiting priority true. */
static void note_top_queued_prio(struct run_queue *rq)
{
	unsigned int top = SCHED_PRIO_NORMAL;

	if (!list_empty(&rq->queue))
		top = list_first_entry(&rq->queue, struct thread,
				       run_link)->prio;
	if (top != rq->top_queued_prio)
		WRITE_ONCE(rq->top_queued_prio, top);
}

/* The one place a thread joins a queue: before the first thread of a
 * lower priority (or, ahead_of_equals, of its own), which keeps the queue
 * in the order internal.h describes. */
static void rq_insert(struct run_queue *rq, struct thread *t,
		      bool ahead_of_equals)
{
	struct list_head *before = &rq->queue;
	struct thread *q;

	if (t->prio != SCHED_PRIO_NORMAL || ahead_of_equals) {
		list_for_each_entry(q, &rq->queue, run_link) {
			if (q->prio < t->prio ||
			    (ahead_of_equals && q->prio == t->prio)) {
				before = &q->run_link;
				break;
			}
		}
	}
	list_add_tail(&t->run_link, before);
	t->on_queue = true;
	rq->nr_queued++;
	if (t->movable)
		WRITE_ONCE(rq->nr_movable, rq->nr_movable + 1);
	note_top_queued_prio(rq);
}

void rq_enqueue(struct run_queue *rq, struct thread *t)
{
	rq_insert(rq, t, false);
}

void rq_enqueue_ahead(struct run_queue *rq, struct thread *t)
{
	rq_insert(rq, t, true);
}

void rq_dequeue(struct run_queue *rq, struct thread *t)
{
	list_del(&t->run_link);
	t->on_queue = false;
	rq->nr_queued--;
	if (t->movable)
		WRITE_ONCE(rq->nr_movable, rq->nr_movable - 1);
	note_top_queued_prio(rq);
}

/* Strict priority: only a higher priority preempts, so equals keep FIFO
 * order and normal threads wait for the end of a slice. Idle always
 * gives way. Under rq's lock, which keeps its current thread alive. */
bool rq_preempts_current(const struct run_queue *rq, const struct thread *t)
{
	return rq->current == rq->idle || t->prio > rq->current->prio;
}

/* Lock the queue that owns t, following it if it migrates meanwhile. */
struct run_queue *lock_thread_rq(struct thread *t, unsigned long *flags)
{
	for (;;) {
		unsigned int cpu = READ_ONCE(t->cpu);
		struct run_queue *rq = &run_queues[cpu];

		*flags = spin_lock_irqsave(&rq->lock);
		if (READ_ONCE(t->cpu) == cpu)
			return rq;
		spin_unlock_irqrestore(&rq->lock, *flags);
	}
}

static void set_need_resched(unsigned int cpu)
{
	WRITE_ONCE(cpu_area(cpu)->need_resched, 1);
}

/* Nudge a CPU to look at its queue: set its flag, and send an IPI if it
 * is another CPU (it may be halted in idle). */
void resched_cpu(unsigned int cpu)
{
	set_need_resched(cpu);
	if (cpu != this_cpu_id())
		arch_send_ipi(cpu, IPI_RESCHEDULE);
}

/* A CPU that runs its idle thread may be halted with its tick stopped
 * and its clock event set from what it knew then: make it look again
 * (Linux's wake_up_idle_cpu()). Callers change that CPU's state under a
 * lock its idle loop takes before it halts, so reading rq->current after
 * dropping it is enough: if the idle loop had not yet looked, it will
 * see the change; if it had, rq->current was the idle thread by then. */
void sched_kick_if_idle(unsigned int cpu)
{
	struct run_queue *rq = &run_queues[cpu];

	if (cpu != this_cpu_id() && READ_ONCE(rq->current) == rq->idle)
		resched_cpu(cpu);
}

bool wake_up_thread(struct thread *t)
{
	unsigned long flags;
	struct run_queue *rq = lock_thread_rq(t, &flags);
	bool woke = false;

	if (t->state == THREAD_SLEEPING) {
		t->state = THREAD_RUNNABLE;
		woke = true;
		/* Still current (it has not reached schedule() yet, or is
		 * inside it): it will see RUNNABLE and keep running. Already
		 * queued (preempted while getting ready to sleep): it will
		 * run and find its condition true. */
		if (rq->current != t && !t->on_queue) {
			rq_enqueue(rq, t);
			if (rq_preempts_current(rq, t))
				resched_cpu(t->cpu);
		}
	}
	spin_unlock_irqrestore(&rq->lock, flags);
	return woke;
}

/* The next thread to run. A CPU going offline runs only its per-CPU
 * kernel threads (until they sleep) and then its idle thread, which takes
 * it down (sched/hotplug.c); everything else waits to be moved. */
static struct thread *pick_next(struct run_queue *rq)
{
	struct thread *next;

	if (unlikely(READ_ONCE(rq->going_down))) {
		list_for_each_entry(next, &rq->queue, run_link) {
			if (next->per_cpu || rcu_preempt_in_reader(next)) {
				rq_dequeue(rq, next);
				return next;
			}
		}
		return rq->idle;
	}
	if (list_empty(&rq->queue))
		return rq->idle;
	next = list_first_entry(&rq->queue, struct thread, run_link);
	rq_dequeue(rq, next);
	return next;
}

/* Runs in the thread just switched in, still holding the queue lock its
 * predecessor took. */
void finish_switch(struct run_queue *rq)
{
	struct thread *prev = rq->switched_from;

	/* Release: prev's saved stack pointer is written before anyone
	 * who sees on_cpu == false (thread_join, a migrating CPU) may use
	 * it; pairs with the acquire in thread_wait_off_cpu(). */
	smp_store_release(&prev->on_cpu, false);
	raw_spin_unlock(&rq->lock);
}

/*
 * The core of schedule(): interrupts off, preempt_count raised by one.
 * A preempted thread stays queued whatever its state (but dead): it may
 * have been caught between marking itself asleep and testing its wait
 * condition, and dequeuing it there could lose a wake-up that already
 * happened. A preempted real-time thread goes back ahead of its equals:
 * FIFO means it runs until it blocks or yields, so a preemption by a
 * higher priority must not cost it its turn.
 */
static void __schedule(bool preempted)
{
	unsigned int cpu = this_cpu_id();
	struct run_queue *rq = &run_queues[cpu];
	struct thread *prev, *next;
	u64 now;

	rcu_note_context_switch();
	raw_spin_lock(&rq->lock);
	WRITE_ONCE(cpu_area(cpu)->need_resched, 0);
	prev = rq->current;
	/* A dead thread is never requeued, even when preempted on its way
	 * out of thread_exit(): once it is off the CPU its joiner frees it,
	 * and a queue must not hold freed memory. */
	if ((preempted || prev->state == THREAD_RUNNABLE) && !prev->is_idle &&
	    prev->state != THREAD_DEAD) {
		if (preempted && prev->prio != SCHED_PRIO_NORMAL)
			rq_enqueue_ahead(rq, prev);
		else
			rq_enqueue(rq, prev);
	}
	next = pick_next(rq);
	if (next == prev) {
		raw_spin_unlock(&rq->lock);
		return;
	}
	now = clock_ns();
	prev->run_ns += now - prev->switched_in_ns;
	next->switched_in_ns = now;
	next->switches++;
	next->on_cpu = true;
	rq->switches++;
	rq->slice_start_ns = now;
	/* Read without the lock by balancing and sched_kick_if_idle(). */
	WRITE_ONCE(rq->current, next);
	rq->switched_from = prev;
	cpu_area(cpu)->current = next;
	rcu_preempt_switch(prev, next);
	trace_event(TRACE_SCHED, cpu, TRACE_SWITCH, prev->is_idle,
		    (u32)prev->id, next->id);
	arch_context_switch(&prev->saved_sp, next->saved_sp);
	/* Back in prev, perhaps much later and on another CPU. */
	finish_switch(&run_queues[this_cpu_id()]);
}

/* Linux's might_sleep(): a primitive that may sleep checks at its entry,
 * whether or not this call ends up sleeping. A preemptible reader keeps
 * preemption on, so a 1 ms sleep inside it whose timer fired before the
 * sleeper looked would otherwise never reach schedule() and never be
 * reported. */
void might_sleep(void)
{
	check_schedule_allowed(0);
}

void schedule(void)
{
	check_schedule_allowed(0);
	arch_irq_disable();
	preempt_disable();
	__schedule(false);
	preempt_enable_no_resched();
	arch_irq_enable();
}

void yield(void)
{
	schedule();
}

void preempt_schedule(void)
{
	if (!arch_irqs_enabled() || preempt_count() != 0 || !current_thread())
		return;
	arch_irq_disable();
	preempt_disable();
	__schedule(true);
	preempt_enable_no_resched();
	arch_irq_enable();
}

void preempt_schedule_irq(void)
{
	if (!current_thread())
		return;
	preempt_disable();
	__schedule(true);
	preempt_enable_no_resched();
}

void sched_reschedule_ipi(void)
{
	set_need_resched(this_cpu_id());
}

/* Each tick: account, end a normal thread's slice (a real-time thread
 * has none), pull a waiting real-time thread, balance now and then, and
 * with idle ticks stopped, kick an idle CPU to take threads waiting here:
 * at once for a real-time one (it waits at most a tick, as when idle
 * CPUs ticked), at the balancing interval for normal ones. */
void sched_tick(void)
{
	unsigned int cpu = this_cpu_id();
	struct run_queue *rq = &run_queues[cpu];
	u64 now = clock_ns();

	if (!rq->current)
		return;
	/* current->prio can change under our queue lock from another CPU
	 * (WRITE_ONCE in sched/prio.c), which then reschedules us itself: a
	 * stale read here costs at most one tick. */
	if (rq->current == rq->idle) {
		if (READ_ONCE(rq->nr_queued))
			set_need_resched(cpu);
	} else if (READ_ONCE(rq->current->prio) == SCHED_PRIO_NORMAL &&
		   now - rq->slice_start_ns >= SCHED_SLICE_MS * NSEC_PER_MSEC) {
		if (READ_ONCE(rq->nr_queued))
			set_need_resched(cpu);
		else
			rq->slice_start_ns = now;
	}
	if (sched_pull_rt(cpu))
		set_need_resched(cpu);
	if (++rq->ticks_since_balance >= SCHED_BALANCE_TICKS) {
		rq->ticks_since_balance = 0;
		if (sched_balance(cpu, false))
			set_need_resched(cpu);
	}
	if (nohz_enabled && rq->current != rq->idle &&
	    READ_ONCE(rq->nr_movable) &&
	    (READ_ONCE(rq->top_queued_prio) != SCHED_PRIO_NORMAL ||
	     rq->ticks_since_balance == 0))
		sched_kick_idle_cpu(cpu);
}

void sched_cpu_stats(unsigned int cpu, struct sched_cpu_stats *out)
{
	struct run_queue *rq = &run_queues[cpu];

	out->switches = READ_ONCE(rq->switches);
	out->nr_queued = READ_ONCE(rq->nr_queued);
	out->idle_ns = READ_ONCE(cpu_area(cpu)->idle_ns);
	out->migrations_in = READ_ONCE(rq->migrations_in);
}

static void init_rq(unsigned int cpu)
{
	struct run_queue *rq = &run_queues[cpu];

	spin_lock_init(&rq->lock);
	INIT_LIST_HEAD(&rq->queue);
}

__init void sched_init(void)
{
	struct cpumask all;
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++)
		init_rq(cpu);
	arch_set_ipi_handler(IPI_RESCHEDULE, sched_reschedule_ipi);
	arch_set_ipi_handler(IPI_CALL_FUNCTION, smp_call_function_interrupt);
	strlcpy(init_thread.name, "init", sizeof(init_thread.name));
	cpumask_fill(&all);
	set_allowed(&init_thread, &all);
	init_thread.state = THREAD_RUNNABLE;
	init_thread.on_cpu = true;
	init_thread.switched_in_ns = clock_ns();
	table_add(&init_thread);
	run_queues[0].current = &init_thread;
	this_cpu()->current = &init_thread;
}
