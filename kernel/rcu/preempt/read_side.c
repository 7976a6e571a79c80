/*
 * Preemptible RCU's read side beyond the fast path of rcupdate.h: the
 * outermost unlock of a reader that was preempted, the context switch
 * that queues one, and the depth that travels with each thread.
 *
 * The depth and the special bits live in the CPU's area, where the fast
 * path reaches them in one instruction, and belong to whichever thread
 * runs: rcu_preempt_switch() saves prev's into the thread and loads
 * next's. Only the running thread's CPU touches them, so plain accesses
 * with interrupts off (or a single instruction) suffice.
 */
#include "preempt.h"
#include "kernel/rcu/tree/tree.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"

u64 rcu_preempt_blocked_total;

u64 rcu_preempt_blocked_count(void)
{
	/* Locked increments (blocked.c); a statistic, read whole. */
	return READ_ONCE(rcu_preempt_blocked_total);
}

void rcu_preempt_switch(struct thread *prev, struct thread *next)
{
	struct percpu *area = this_cpu();

	prev->rcu_nesting = area->rcu_nesting;
	prev->rcu_unlock_special = area->rcu_unlock_special;
	prev->rcu_lock_ip = area->rcu_lock_ip;
	area->rcu_nesting = next->rcu_nesting;
	area->rcu_unlock_special = next->rcu_unlock_special;
	area->rcu_lock_ip = next->rcu_lock_ip;
}

/* t is off its CPU, or is the thread in __schedule() on it, whose depth
 * rcu_preempt_note_context_switch() has just recorded; read under the
 * run queue's lock, which orders it after that store. */
bool rcu_preempt_in_reader(const struct thread *t)
{
	return t->rcu_nesting > 0;
}

void rcu_preempt_thread_exit(void)
{
	u32 depth = arch_percpu_read32(PERCPU_OFF(rcu_nesting));

	if (!depth)
		return;
	/* As Linux's exit_rcu(): a thread must not leave its entry on a
	 * leaf's list behind it, or the grace period waits for ever and
	 * the list holds freed memory. Say so, and end the section. */
	pr_err("BUG: thread %s exits inside an RCU read-side section "
	       "(depth %u); ending it\n", current_thread()->name, depth);
	while (arch_percpu_read32(PERCPU_OFF(rcu_nesting)))
		rcu_read_unlock();
}

/* Everything an ended reader still owes: off its leaf's list. Interrupts
 * off, outside every reader. */
static void finish_special(void)
{
	struct percpu *area = this_cpu();
	u32 special = area->rcu_unlock_special;

	area->rcu_unlock_special = 0;
	if (special & RCU_SPECIAL_BLOCKED)
		rcu_preempt_dequeue_reader(current_thread());
}

void rcu_read_unlock_special(void)
{
	unsigned long flags;

	/* The dequeue may report a grace period's end, which wakes the GP
	 * thread: not with interrupts or preemption off, where the caller
	 * may hold a run queue's lock or be the scheduler itself. Leave it
	 * to the next switch (rcu_preempt_note_context_switch()), which a
	 * reschedule brings at the next preemption point. */
	if (!arch_irqs_enabled() || preempt_count() > 0 || in_irq()) {
		WRITE_ONCE(this_cpu()->need_resched, 1);
		return;
	}
	flags = arch_irq_save();
	/* A switch between our test of the bits and here may have done it
	 * already: the bits are then 0, and finish_special() does nothing. */
	finish_special();
	arch_irq_restore(flags);
}

void rcu_preempt_note_context_switch(unsigned int cpu)
{
	struct percpu *area = this_cpu();
	struct thread *t = current_thread();

	if (!t)
		return;
	/* pick_next() may look at t's depth (rcu_preempt_in_reader(), for a
	 * CPU going down) before rcu_preempt_switch() saves it, and does not
	 * save it at all when it picks t again: record it now. */
	t->rcu_nesting = area->rcu_nesting;
	if (area->rcu_nesting > 0) {
		/* Preempted inside a reader: queued once, however often it
		 * is switched out before its outermost unlock. */
		if (!(area->rcu_unlock_special & RCU_SPECIAL_BLOCKED)) {
			rcu_preempt_queue_reader(t, cpu);
			area->rcu_unlock_special |= RCU_SPECIAL_BLOCKED;
		}
	} else if (area->rcu_unlock_special) {
		finish_special();	/* an unlock that had to wait */
	}
}

/* From interrupt context only (the expedited IPI, the tick): the
 * interrupted thread cannot be switched out or moved meanwhile, so
 * this_cpu() and the depth read through it stay the running thread's,
 * though they take two loads. */
bool rcu_preempt_outside_reader(void)
{
	return preempt_count() == 0 && this_cpu()->rcu_nesting == 0;
}

void rcu_preempt_tick(void)
{
	/* An unlock left its dequeue to the next switch: make sure there
	 * is one at the next preemption point. Our own CPU's flags, read in
	 * the tick's interrupt, which no switch can split. */
	if (this_cpu()->rcu_nesting == 0 && this_cpu()->rcu_unlock_special)
		WRITE_ONCE(this_cpu()->need_resched, 1);
}
