/*
 * Idle: each CPU's idle thread, what the scheduler falls back to when its
 * queue is empty, and the idle loop it runs. Idle is where a CPU spends
 * RCU's extended quiescent state (rcu_idle_enter/exit), so the loop's
 * order of tests and halts matters to RCU as much as to the scheduler.
 */
#include "internal.h"
#include "tick.h"
#include "kernel/hotplug.h"
#include "kernel/init.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/panic.h"
#include "kernel/rcu/hooks.h"
#include "kernel/time.h"
#include "lib/format.h"

/* A CPU's idle thread: the boot context of an AP, or a new thread on
 * cpu0. It is never queued; pick_next() falls back to it. */
static void make_idle(struct run_queue *rq, struct thread *t, unsigned int cpu)
{
	struct cpumask only = cpumask_of(cpu);

	ksnprintf(t->name, sizeof(t->name), "idle/%u", cpu);
	t->is_idle = true;
	t->cpu = cpu;
	set_allowed(t, &only);
	t->state = THREAD_RUNNABLE;
	rq->idle = t;
	table_add(t);
}

/* Halt until an interrupt: the tick stopped if it may be (tick.c), in
 * RCU's extended quiescent state, and marked as a CPU a busy one may
 * kick to pull its waiting threads (sched_kick_idle_cpu()). Interrupts
 * off on entry and on return.
 *
 * RCU's idle entry reports this CPU's quiescent state, and a report may
 * wake a thread. A thread woken on this CPU would be queued with
 * need_resched set and no IPI (resched_cpu() on itself), unseen by the
 * loop's test for work made before: so look again before halting, or
 * the CPU could sleep with a runnable thread until its next interrupt.
 * Today no such wake-up lands here with no interrupt coming (the
 * expedited waiter's requester has sent its IPI; rcu_gp's own switch
 * reported first: tests/mutants/idle_halts_without_second_look.patch
 * says why, with the counts), so the look is two reads that keep any
 * later idle hook safe. Work from other CPUs comes with an IPI, which
 * ends the halt. */
static void idle_wait(struct run_queue *rq, struct percpu *pc)
{
	u64 start = clock_ns();

	tick_idle_stop();
	WRITE_ONCE(rq->idle_waiting, true);
	rcu_idle_enter();
	if (!READ_ONCE(rq->nr_queued) && !READ_ONCE(pc->need_resched))
		arch_idle_wait();	/* sti; hlt */
	arch_irq_disable();
	rcu_idle_exit();
	WRITE_ONCE(rq->idle_waiting, false);
	pc->idle_ns += clock_ns() - start;
}

/*
 * The idle loop: look for work (local, then stolen), else halt with
 * interrupts enabled. The test and the halt happen with interrupts off
 * until `sti; hlt`, so a wake-up IPI arriving in between is not missed:
 * it ends the hlt. A stopped tick restarts, interrupts still off, before
 * the loop leaves for a thread: no thread runs without its tick.
 */
__noreturn void cpu_idle_loop(void)
{
	unsigned int cpu = this_cpu_id();
	struct run_queue *rq = &run_queues[cpu];
	struct percpu *pc = cpu_area(cpu);
	bool work;

	for (;;) {
		arch_irq_disable();
		/* Told to go down, and no per-CPU thread left to run. */
		if (unlikely(READ_ONCE(rq->going_down)) &&
		    sched_cpu_may_park(rq)) {
			tick_idle_restart();	/* counts what it skipped */
			cpu_die_here();
		}
		if (!READ_ONCE(rq->nr_queued) && !READ_ONCE(pc->need_resched) &&
		    !sched_pull_rt(cpu) && !sched_balance(cpu, true))
			idle_wait(rq, pc);
		work = READ_ONCE(rq->nr_queued) || READ_ONCE(pc->need_resched);
		if (work)
			tick_idle_restart();
		arch_irq_enable();
		if (work)
			schedule();
	}
}

static void idle_entry(void *unused)
{
	(void)unused;
	cpu_idle_loop();
}

__init void sched_start_boot_cpu(void)
{
	struct thread *idle = thread_alloc("idle/0");

	if (!idle)
		panic("no memory for cpu0's idle thread");
	make_idle(&run_queues[0], idle, 0);
	idle->saved_sp = arch_thread_stack_init(idle->stack.top, thread_entry,
						idle);
	idle->fn = idle_entry;
}

/* An AP's boot context becomes its idle thread: a new one at boot, the
 * same one when the CPU comes back from offline (its old context, parked
 * on this stack, is gone). */
__noreturn void sched_start_ap(void)
{
	unsigned int cpu = this_cpu_id();
	struct run_queue *rq = &run_queues[cpu];
	struct thread *idle = rq->idle;

	if (!idle) {
		idle = kzalloc(sizeof(*idle));
		if (!idle)
			panic("no memory for cpu%u's idle thread", cpu);
		make_idle(rq, idle, cpu);
	}
	idle->on_cpu = true;
	idle->switched_in_ns = clock_ns();
	WRITE_ONCE(rq->current, idle);	/* read lock-free, see core.c */
	this_cpu()->current = idle;
	cpu_idle_loop();
}
