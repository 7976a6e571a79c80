/*
 * Preemption control. preempt_count is per CPU and changed with one
 * non-atomic instruction through the GS base: only its own CPU writes it,
 * and an interrupt that changes it restores it before returning, so the
 * read-modify-write cannot be torn. This is the whole of RCU's read side.
 */
#ifndef KERNEL_PREEMPT_H
#define KERNEL_PREEMPT_H

#include "kernel/percpu.h"

void preempt_schedule(void);

static __always_inline void preempt_disable(void)
{
	/* The asm's "memory" clobber keeps the critical section's accesses
	 * from moving above the increment. */
	arch_percpu_inc32(PERCPU_OFF(preempt_count));
}

/* Re-enable without checking for a pending reschedule: for paths that
 * are about to schedule anyway, or that run with interrupts off. */
static __always_inline void preempt_enable_no_resched(void)
{
	arch_percpu_dec32(PERCPU_OFF(preempt_count));
}

static __always_inline void preempt_enable(void)
{
	arch_percpu_dec32(PERCPU_OFF(preempt_count));
	if (unlikely(arch_percpu_read32(PERCPU_OFF(need_resched))) &&
	    arch_percpu_read32(PERCPU_OFF(preempt_count)) == 0)
		preempt_schedule();
}

static __always_inline unsigned int preempt_count(void)
{
	return arch_percpu_read32(PERCPU_OFF(preempt_count));
}

static __always_inline bool in_irq(void)
{
	return arch_percpu_read32(PERCPU_OFF(irq_depth)) != 0;
}

#define local_irq_save(flags)	((flags) = arch_irq_save())
#define local_irq_restore(flags) arch_irq_restore(flags)
#define local_irq_disable()	arch_irq_disable()
#define local_irq_enable()	arch_irq_enable()

#endif
