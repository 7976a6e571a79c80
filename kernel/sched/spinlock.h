/*
 * Spinlocks. Holding one disables preemption (a descheduled holder would
 * make every waiter spin for a whole slice); the _irqsave forms also
 * disable interrupts, for locks an interrupt handler takes too.
 *
 * The lock word is a ticket lock's: owner (the ticket now served) and
 * next (the next ticket to hand out); it is free when they are equal.
 * It is taken in one of two ways, chosen once at boot (spinlock_virt):
 *
 *  - On bare metal, a ticket: FIFO-fair, every waiter is served in
 *    arrival order and none starves.
 *  - Under a hypervisor, test-and-set with backoff: a waiter takes the
 *    lock only when it is free (the cmpxchg of raw_spin_trylock()), and
 *    otherwise backs off. A fair lock suffers from the host as well as
 *    serving: with more vCPUs than host cores, every handoff waits for
 *    the one vCPU whose ticket is next to be run by the host (lock-waiter
 *    preemption), and at -smp 32 on two cores a contended ticket lock
 *    made almost no progress. Linux takes the same way out
 *    (virt_spin_lock()). `make bench` measures both, and a queued lock.
 *
 * The two ways agree on the word, so a lock may be taken either way:
 * a try-lock succeeds only when no ticket is outstanding. Waiters spin
 * with `pause` and only read the word until it looks free.
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

#define SPINLOCK_BACKOFF_MAX	256u	/* pauses, at most, between tries */

/* Set once, at boot, before a second CPU runs (spinlock_choose_mode()). */
extern bool spinlock_virt;

/* Take a ticket, wait for it. The acquire load of owner orders the
 * critical section after the previous holder's release store in
 * raw_spin_unlock(). */
static inline void raw_spin_lock_ticket(spinlock_t *l)
{
	u16 ticket = atomic_fetch_add(&l->next, 1);

	while (smp_load_acquire(&l->owner) != ticket)
		arch_cpu_relax();
}

static inline bool raw_spin_trylock(spinlock_t *l);

/* Try; while the lock is busy, wait (reading only) for it to look free,
 * with exponentially longer pauses, and try again. */
static inline void raw_spin_lock_tas(spinlock_t *l)
{
	unsigned int backoff = 1, i;

	while (!raw_spin_trylock(l)) {
		do {
			for (i = 0; i < backoff; i++)
				arch_cpu_relax();
			backoff = MIN(backoff * 2, SPINLOCK_BACKOFF_MAX);
		} while (READ_ONCE(l->owner) != READ_ONCE(l->next));
	}
}

static inline void raw_spin_lock(spinlock_t *l) __acquires(l)
{
	if (spinlock_virt)
		raw_spin_lock_tas(l);
	else
		raw_spin_lock_ticket(l);
}

/* Boot: ticket locks, or test-and-set under a hypervisor (spinlock.mode=
 * says which, or auto). Before the APs start. */
void spinlock_choose_mode(void);

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

/* For code that may have interrupted the holder on this very CPU (an
 * NMI's report): try up to `tries` times, pausing between, then give
 * up rather than wait for ever. */
static inline bool raw_spin_trylock_bounded(spinlock_t *l,
					    unsigned int tries)
{
	while (!raw_spin_trylock(l)) {
		if (!tries--)
			return false;
		arch_cpu_relax();
	}
	return true;
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
