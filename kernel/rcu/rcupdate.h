/*
 * Read-copy-update: the API, with Linux's names.
 *
 * Readers:
 *	rcu_read_lock();
 *	p = rcu_dereference(gp);
 *	... use *p, without sleeping ...
 *	rcu_read_unlock();
 *
 * Updaters publish a new version with rcu_assign_pointer() and retire the
 * old one with call_rcu(&old->rcu, func, arg) (func(arg) runs after a
 * grace period: once every CPU has passed a quiescent state, so no reader
 * that could see the old version remains) or wait for a grace period with
 * synchronize_kernel() / synchronize_rcu().
 *
 * The read side is preempt_disable()/preempt_enable() and nothing else:
 * no atomic instruction, no fence, no shared write. The debug build also
 * keeps a per-CPU nesting count, with the same single-instruction
 * increment, to catch an unbalanced rcu_read_unlock().
 */
#ifndef KERNEL_RCUPDATE_H
#define KERNEL_RCUPDATE_H

#include "kernel/sched/preempt.h"
#include "lib/rcu_pointer.h"

struct rcu_head {
	struct rcu_head *next;
	void (*func)(void *arg);
	void *arg;
};

void rcu_read_unlock_underflow(void);
void rcu_dereference_warn(const char *file, int line);

static __always_inline void rcu_read_lock(void)
{
	preempt_disable();
	if (KERNEL_DEBUG)
		arch_percpu_inc32(PERCPU_OFF(rcu_nesting));
}

static __always_inline void rcu_read_unlock(void)
{
	if (KERNEL_DEBUG) {
		if (unlikely(arch_percpu_read32(PERCPU_OFF(rcu_nesting)) == 0))
			rcu_read_unlock_underflow();
		arch_percpu_dec32(PERCPU_OFF(rcu_nesting));
	}
	preempt_enable();
}

/* Inside a read-side section, or anywhere RCU readers cannot be
 * preempted (preemption or interrupts off): for assertions. */
static inline bool rcu_read_lock_held(void)
{
	return preempt_count() > 0 || !arch_irqs_enabled() || in_irq();
}

/* rcu_dereference_check(p, c): load p, and in the debug build complain
 * when neither a read-side section nor the caller's condition c (for
 * instance "I hold the update lock") protects the result. */
#define rcu_dereference_check(p, c)					\
	({								\
		if (KERNEL_DEBUG && !(c) && !rcu_read_lock_held())	\
			rcu_dereference_warn(__FILE__, __LINE__);	\
		rcu_dereference_raw(p);					\
	})

#define rcu_dereference(p)		rcu_dereference_check(p, 0)
/* For updaters, who hold the lock that excludes other updaters. */
#define rcu_dereference_protected(p, c)	rcu_dereference_check(p, c)

void call_rcu(struct rcu_head *head, void (*func)(void *arg), void *arg);

void kfree_rcu_callback(void *ptr);
/* Free ptr with kfree() after a grace period; field is its rcu_head. */
#define kfree_rcu(ptr, field)						\
	call_rcu(&(ptr)->field, kfree_rcu_callback, (ptr))

void synchronize_rcu(void);
/* The 2003 name of the same wait. */
static inline void synchronize_kernel(void)
{
	synchronize_rcu();
}

/* A grace period forced with IPIs, for callers that cannot wait ticks. */
void synchronize_rcu_expedited(void);
/* Wait until every callback queued before the call has run. */
void rcu_barrier(void);

/* Polled grace periods: a cookie now; later, whether a full grace period
 * has elapsed since. */
unsigned long get_state_synchronize_rcu(void);
bool poll_state_synchronize_rcu(unsigned long cookie);
void cond_synchronize_rcu(unsigned long cookie);

/* Boot: set up the tree (after the CPUs are counted) and the kthreads. */
void rcu_init(void);
void rcu_start_kthreads(void);

#endif
