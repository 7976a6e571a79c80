/*
 * Ticket spinlocks: FIFO-fair, so under contention every waiter gets the
 * lock in arrival order and none starves. Holding one disables preemption
 * (a descheduled holder would make every waiter spin for a whole slice);
 * the _irqsave forms also disable interrupts, for locks an interrupt
 * handler takes too.
 *
 * Waiters spin with `pause` and only read the lock word, which matters
 * under QEMU where a vCPU holding the lock may be descheduled by the host.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "preempt.h"
#include "lib/atomic.h"

typedef struct spinlock {
	u16 owner;	/* ticket now served */
	u16 next;	/* next ticket to hand out */
} spinlock_t;

#define SPINLOCK_INIT	{ 0, 0 }
#define DEFINE_SPINLOCK(name)	spinlock_t name = SPINLOCK_INIT

static inline void spin_lock_init(spinlock_t *l)
{
	l->owner = 0;
	l->next = 0;
}

/* Take a ticket, wait for it. The acquire load of owner orders the
 * critical section after the previous holder's release store in
 * raw_spin_unlock(). */
static inline void raw_spin_lock(spinlock_t *l) __acquires(l)
{
	u16 ticket = atomic_fetch_add(&l->next, 1);

	while (smp_load_acquire(&l->owner) != ticket)
		arch_cpu_relax();
}

static inline bool raw_spin_trylock(spinlock_t *l)
{
	u16 owner = READ_ONCE(l->owner);

	/* Succeeds only if no ticket is outstanding (next == owner); the
	 * locked exchange is a full barrier, and so orders the section
	 * after the release in raw_spin_unlock(), as an acquire would. */
	return cmpxchg(&l->next, owner, (u16)(owner + 1)) == owner;
}

/* The release store publishes the critical section's writes to the next
 * holder; pairs with the acquire load in raw_spin_lock(). */
static inline void raw_spin_unlock(spinlock_t *l) __releases(l)
{
	smp_store_release(&l->owner, (u16)(l->owner + 1));
}

static inline bool spin_is_locked(spinlock_t *l)
{
	return READ_ONCE(l->owner) != READ_ONCE(l->next);
}

static inline void spin_lock(spinlock_t *l) __acquires(l)
{
	preempt_disable();
	raw_spin_lock(l);
}

static inline bool spin_trylock(spinlock_t *l)
{
	preempt_disable();
	if (raw_spin_trylock(l))
		return true;
	preempt_enable();
	return false;
}

static inline void spin_unlock(spinlock_t *l) __releases(l)
{
	raw_spin_unlock(l);
	preempt_enable();
}

static inline unsigned long spin_lock_irqsave(spinlock_t *l) __acquires(l)
{
	unsigned long flags = arch_irq_save();

	preempt_disable();
	raw_spin_lock(l);
	return flags;
}

static inline void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags)
	__releases(l)
{
	raw_spin_unlock(l);
	/* Interrupts come back before the reschedule check, so a pending
	 * need_resched is acted on with interrupts in their old state. */
	preempt_enable_no_resched();
	arch_irq_restore(flags);
	if (arch_irqs_enabled() && preempt_count() == 0 &&
	    arch_percpu_read32(PERCPU_OFF(need_resched)))
		preempt_schedule();
}

#endif
