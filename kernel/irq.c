/*
 * Interrupt entry and exit as the generic kernel sees them. The arch code
 * brackets every hardware interrupt's handler with irq_enter() and
 * irq_exit(); the kernel keeps the nesting depth, tells RCU when an
 * interrupt takes an idle CPU out of its extended quiescent state (a
 * handler may hold RCU readers), and preempts the interrupted thread on
 * the way out if it should yield.
 */
#include "entry.h"
#include "percpu.h"
#include "kernel/rcu/hooks.h"
#include "kernel/sched/sched.h"

void irq_enter(void)
{
	struct percpu *cpu = this_cpu();

	if (cpu->irq_depth++ == 0)
		rcu_irq_enter();
}

void irq_exit(bool interrupted_irqs_on)
{
	struct percpu *cpu = this_cpu();

	if (--cpu->irq_depth == 0)
		rcu_irq_exit();
	/* Kernel preemption: the interrupted code had interrupts on and
	 * no preemption disabled, so it may be switched out right here.
	 * Not the idle thread: it was halted in RCU's extended quiescent
	 * state, and must leave it (rcu_idle_exit) before anything else
	 * runs on this CPU; it reschedules by itself right after. */
	if (cpu->need_resched && cpu->preempt_count == 0 &&
	    cpu->irq_depth == 0 && interrupted_irqs_on &&
	    !cpu->current->is_idle)
		preempt_schedule_irq();
}
